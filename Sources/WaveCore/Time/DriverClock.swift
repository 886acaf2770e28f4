import Dispatch
import Foundation
import Synchronization

/// An animation's progress (a timing function over a pass of `duration`
/// seconds, from the start again at each pass), and the three ways a
/// frame learns the animation's time (`DriverClock.Driver`), the timer
/// chapter's lesson (its bouncing ball is one: `Ball` in WaveEffects):
/// - *display*: the frame loop's measured time (a display link with the
///   measured frame duration): the progress is right at every frame;
/// - *timer*: a real repeating timer at 1/60 s on its own clock
///   (`RunLoopTimer`), each callback advancing the animation 1/60 s, as the
///   chapter's first listing does: callbacks arrive late, twice between two
///   frames or not at all, and the animation drifts and stutters;
/// - *fixed*: steps of a fixed dt, the progress drawn interpolated between
///   the last two steps' (the fixed-timestep loop's rendering).
///
/// It is a computed value (channel 0: the eased progress, 0 to 1) that
/// driven properties read, so the same scene is drawn by both strategies.
/// A frame loop feeds it (`FrameClocked`); without one (`waves render`, the
/// tests) the scene time is the measured time and the timer is not run.
public final class DriverClock: ComputedValues, FrameClocked, @unchecked Sendable {
    public enum Driver: String, CaseIterable, Sendable {
        case display, timer, fixed
    }

    public let driver: Driver
    /// The progress through a pass, eased.
    public let function: TimingFunction
    /// Seconds of one pass.
    public let duration: Double
    /// The fixed driver's step, seconds.
    public let step: Double
    /// The timer driver's timer (made at the first frame a loop feeds).
    public private(set) var timer: RunLoopTimer?
    private let timerInterval: Double
    private let timerMode: RunLoopTimer.Mode

    /// The last frame: the loop's measured time, and the animation time it shows.
    public private(set) var measured = 0.0
    public private(set) var shown = 0.0
    private var progress = 0.0
    private var fed = false
    private var lastTime: Double?
    /// Callbacks the timer delivered so far (timer driver).
    private var callbacks = 0

    public init(driver: Driver, function: TimingFunction, duration: Double = 1, step: Double = 1.0 / 120,
                timerInterval: Double = 1.0 / 60, timerMode: RunLoopTimer.Mode = .default) {
        self.driver = driver
        self.function = function
        self.duration = duration
        self.step = step
        self.timerInterval = timerInterval
        self.timerMode = timerMode
    }

    /// The eased progress at animation time t (the ideal trajectory): each
    /// pass starts again every `duration` seconds.
    public func idealProgress(at t: Double) -> Double {
        guard t.isFinite, duration > 0 else { return 0 }
        let f = t / duration
        return function.value(Swift.max(0, f - f.rounded(.down)))
    }

    /// Stops the timer (a run is over); the next frame a loop feeds starts a new one.
    public func stop() {
        timer?.stop()
        timer = nil
        callbacks = 0
    }

    // MARK: FrameClocked

    package func willWait(at now: Double) { timer?.willWait(at: now) }

    package func frame(at time: Double, wall now: Double, waitEnded: Double, tracking: Bool) {
        // A paused loop (its time stands still) drops the timer's callbacks: the animation stays where it is.
        let paused = fed && time == measured
        fed = true
        if driver == .timer {
            if timer == nil {
                timer = RunLoopTimer(interval: timerInterval, mode: timerMode)
                timer?.start(at: now)
            }
            let run = timer?.service(at: now, waitEnded: waitEnded, tracking: tracking) ?? 0
            if !paused { callbacks += run }
        }
        place(measured: time)
    }

    // MARK: ComputedValues

    public func advance(to t: Double) {
        // Fed by a loop, the frame's own time decides; otherwise the scene time is the measured time.
        if !fed { place(measured: t) }
    }

    public func value(_ channel: Int) -> Double { progress }

    /// The progress at measured time t, by this clock's driver.
    private func place(measured t: Double) {
        if let last = lastTime, t < last { callbacks = 0 } // time went back: a new run
        lastTime = t
        measured = t
        switch driver {
        case .display:
            shown = t
            progress = idealProgress(at: t)
        case .timer:
            shown = fed ? Double(callbacks) * timerInterval : t
            progress = idealProgress(at: shown)
        case .fixed:
            // The last whole step at or before t - step and the one after it, the progress between them by the remainder.
            let lagged = Swift.max(0, t - step)
            let k = (lagged / step).rounded(.down), alpha = lagged / step - k
            let a = idealProgress(at: k * step), b = idealProgress(at: (k + 1) * step)
            // Across a restart the two steps are two passes apart: no line between them (the progress stays a step behind).
            progress = b < a - 0.5 ? a : a + (b - a) * alpha
            shown = lagged
        }
    }
}

/// Computed values that read the frame loop's own clock: the loop tells
/// them when it starts to wait (for the display, or asleep) and, at the
/// point of each turn where it runs its sources (after its own work, before
/// drawing), the frame's measured scene time, the wall time, when its wait
/// ended (the turn began) and whether it is tracking (a scroll's bursts).
package protocol FrameClocked: AnyObject {
    func frame(at time: Double, wall now: Double, waitEnded: Double, tracking: Bool)
    func willWait(at now: Double)
}

extension Scene {
    /// Its computed sources that read the frame loop's clock.
    package var frameClocked: [FrameClocked] { computedValues(FrameClocked.self) }
}

/// A repeating timer on its own clock, delivered the way a run loop
/// delivers one: a real timer (a dispatch timer on a thread of its own)
/// records when each interval comes due; the frame loop runs the callbacks
/// at the one point of its turn where it runs its sources. A due time that
/// came while the loop waited (for the display, or asleep) is one callback,
/// on time; due times that came while the loop was busy (its own work,
/// drawing) are one late callback together (a repeating timer fires once
/// when late and skips the rest); in `.default` mode none fires while the
/// loop is tracking (a default-mode timer stalls during a scroll) until it stops.
public final class RunLoopTimer: @unchecked Sendable {
    public enum Mode: String, CaseIterable, Sendable {
        /// Stalls while the loop tracks (NSDefaultRunLoopMode).
        case `default`
        /// Fires in every mode, tracking included (NSRunLoopCommonModes).
        case common
    }

    public let interval: Double
    public let mode: Mode
    /// Due times recorded by the timer's thread since the loop last took them (a ring; the oldest are overwritten).
    private struct Recorded {
        var times = [Double](repeating: 0, count: 256)
        var count = 0
    }
    /// The ring, shared with the timer's thread.
    private final class Recorder: Sendable {
        let ring = Mutex(Recorded())
        func record(_ due: Double) {
            ring.withLock { r in
                r.times[r.count % r.times.count] = due
                r.count += 1
            }
        }
    }
    private let recorder = Recorder()
    /// The due times of one turn, copied out of the ring (made once).
    private let taken = UnsafeMutableBufferPointer<Double>.allocate(capacity: 256)
    private var source: DispatchSourceTimer?
    /// Due times taken but not yet delivered (the loop was busy or tracking), and the first of them.
    private var owed = 0
    private var firstOwed = 0.0
    private var waitingSince: Double?

    /// Callbacks run, of them those run more than a quarter interval after they came due, and due times that never ran.
    public private(set) var delivered = 0
    public private(set) var late = 0
    public private(set) var skipped = 0
    /// Loop turns that ran two callbacks or more (the animation jumps two steps in one frame).
    public private(set) var doubled = 0

    public init(interval: Double, mode: Mode) {
        self.interval = interval
        self.mode = mode
    }

    deinit {
        source?.cancel()
        taken.deallocate()
    }

    /// Starts the timer: its first due time one interval after `now`.
    public func start(at now: Double) {
        let queue = DispatchQueue(label: "waves.run-loop-timer", qos: .userInteractive)
        let timer = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .nanoseconds(0))
        timer.setEventHandler { [recorder] in recorder.record(Clocks.wall()) }
        source = timer
        timer.resume()
    }

    public func stop() {
        source?.cancel()
        source = nil
    }

    /// A due time, as the timer's thread records it (tests give their own).
    func record(due: Double) { recorder.record(due) }

    /// The loop is about to wait: due times from now on find it idle.
    package func willWait(at now: Double) { waitingSince = now }

    /// The loop runs its sources at `now`, its wait having ended at
    /// `waitEnded`: returns the callbacks run. Due times from `willWait`
    /// to `waitEnded` found the loop idle; the others found it busy.
    public func service(at now: Double, waitEnded: Double, tracking: Bool) -> Int {
        // The newest due times, oldest first; any older than the ring holds never ran.
        let (count, kept) = recorder.ring.withLock { r -> (Int, Int) in
            let kept = Swift.min(r.count, r.times.count)
            for i in 0..<kept { taken[i] = r.times[(r.count - kept + i) % r.times.count] }
            defer { r.count = 0 }
            return (r.count, kept)
        }
        skipped += count - kept
        let idleFrom = waitingSince ?? waitEnded
        waitingSince = nil
        // Due before the wait began (the last turn's drawing, or owed from tracking): one callback as the loop went idle.
        // Due during the wait: each its own callback, on time. Due after it (this turn's own work): one callback now.
        let stalled = tracking && mode == .default
        var onTime = 0, busyNow = 0, firstBusyNow = 0.0
        for i in 0..<kept {
            let due = taken[i]
            if stalled || due < idleFrom {
                if owed == 0 { firstOwed = due }
                owed += 1
            } else if due <= waitEnded {
                onTime += 1
            } else {
                if busyNow == 0 { firstBusyNow = due }
                busyNow += 1
            }
        }
        if stalled { return 0 }
        var run = onTime
        if owed > 0 {
            run += 1
            if idleFrom - firstOwed > interval / 4 { late += 1 }
            skipped += owed - 1
            owed = 0
        }
        if busyNow > 0 {
            run += 1
            if now - firstBusyNow > interval / 4 { late += 1 }
            skipped += busyNow - 1
        }
        delivered += run
        if run >= 2 { doubled += 1 }
        return run
    }
}
