import Foundation

/// A scroll view's content offset as a function of scene time, and the
/// table view's cell reuse that follows from it: the rows each reused cell
/// shows. Inputs are timed (a fling, a drag, a glide at a constant speed),
/// so the offset at t is the same however t was reached: the offset is
/// replayed from time 0 through every input up to t, resuming the last
/// replay when time moves on (nothing allocated).
///
/// A fling decelerates as UIScrollView's does: the velocity is multiplied
/// by 0.998 every millisecond (`decelerationRate` .normal) and the motion
/// ends when it falls under 10 px/s; the offset stops at either end of the
/// content (no bounce). The offset drawn is rounded to a whole pixel, as a
/// scroll view rounds its content offset to the screen's pixels.

/// What scrolls the view when nobody touches it (the first input takes over for good).
public enum ScrollMode: String, CaseIterable, Sendable {
    /// Still until an input.
    case none
    /// A finger's flick every `ScrollMotion.flingInterval` seconds from time 0, down and up in turn.
    case fling
    /// A constant speed, down to the end and back up, over and over.
    case constant
}

/// One timed input to a scroll view (offsets grow downwards through the content).
public enum ScrollInput: Equatable, Sendable {
    /// A flick: from the offset at `time`, `velocity` pixels a second, decelerating.
    case fling(time: Double, velocity: Double)
    /// A finger drag: the offset moves by `by` at `time` and any motion stops.
    case drag(time: Double, by: Double)
    /// A constant `speed` (pixels a second) from `time` until `until`, then still.
    case glide(time: Double, until: Double, speed: Double)

    public var time: Double {
        switch self {
        case let .fling(time, _), let .drag(time, _), let .glide(time, _, _): time
        }
    }
}

public final class ScrollMotion: ComputedValues, @unchecked Sendable {
    /// UIScrollView's normal deceleration: velocity kept per millisecond.
    public static let decelerationPerMillisecond = 0.998
    /// A fling ends when its speed falls under this (pixels a second).
    public static let stopSpeed = 10.0
    /// Seconds between the `fling` mode's flicks.
    public static let flingInterval = 4.0

    public let mode: ScrollMode
    /// The mode's speed: a flick's start, or the constant speed (pixels a second).
    public let speed: Double
    /// The content's height less the view's: the largest offset.
    public let maxOffset: Double
    /// Row height and rows in the content, and reused cells (each one channel after the offset).
    public let rowHeight: Double
    public let rows: Int
    public let cells: Int
    /// The view's height: a page.
    public let viewHeight: Double
    /// Inputs given so far, in time order.
    public private(set) var inputs: [ScrollInput] = []

    /// The time last advanced to, the whole-pixel offset then and the first row in view.
    private var time = Double.nan
    private var offset = 0.0
    private var firstRow = 0

    /// A view `viewHeight` pixels tall over `rows` rows of `rowHeight`: as many
    /// cells as rows show when the view is scrolled to a row's top, plus one
    /// for the row half in view while it scrolls (fewer when the content is shorter).
    public init(mode: ScrollMode, speed: Double, rows: Int, rowHeight: Int, viewHeight: Int) {
        self.mode = mode
        self.speed = speed
        self.rows = Swift.max(1, rows)
        self.rowHeight = Double(Swift.max(1, rowHeight))
        self.viewHeight = Double(viewHeight)
        maxOffset = Swift.max(0, Double(self.rows * Swift.max(1, rowHeight) - viewHeight))
        cells = Swift.min(self.rows, (viewHeight + Swift.max(1, rowHeight) - 1) / Swift.max(1, rowHeight) + 1)
        inputs.reserveCapacity(64)
    }

    /// An input from its time on; an input earlier than the last is placed in time order.
    public func add(_ input: ScrollInput) {
        guard input.time.isFinite else { return }
        let at = inputs.lastIndex { $0.time <= input.time }.map { $0 + 1 } ?? 0
        inputs.insert(input, at: at)
        // An input before the last replay's events changes them: replay from the start next time.
        if let replay = checkpoint, at < replay.next || input.time < replay.time { checkpoint = nil }
        time = .nan
    }

    /// A fling that travels about `distance` pixels before it stops (a page, a wheel's notch).
    public static func velocity(toTravel distance: Double) -> Double {
        // The whole glide of v0 is v0 / (1000 * -ln d) pixels.
        distance * 1000 * -log(decelerationPerMillisecond)
    }

    // MARK: ComputedValues

    public func advance(to t: Double) {
        let t = t.isFinite ? t : 0
        if t == time { return }
        time = t
        offset = (unroundedOffset(at: t) + 0.5).rounded(.down)
        firstRow = Swift.min(rows - 1, Swift.max(0, Int(offset / rowHeight)))
    }

    /// Channel 0: the offset (whole pixels); channel 1 + k: the top, in the
    /// content, of the row cell k shows (row r is shown by cell r mod cells).
    public func value(_ channel: Int) -> Double {
        if channel == 0 { return offset }
        return Double(row(ofCell: channel - 1)) * rowHeight
    }

    /// The row cell k shows: of the `cells` rows from the first in view, the one equal to k modulo `cells`.
    public func row(ofCell k: Int) -> Int {
        guard cells > 0 else { return 0 }
        let k = ((k % cells) + cells) % cells
        return firstRow + ((k - firstRow) % cells + cells) % cells
    }

    /// The whole-pixel offset at the time last advanced to.
    public var currentOffset: Double { offset }

    // MARK: The replay

    /// Motion in progress: where it started, when, and how it goes on.
    private enum Motion {
        case still
        case fling(start: Double, velocity: Double)
        case glide(start: Double, until: Double, speed: Double)
        /// The constant mode: down and up between the ends from time 0.
        case pingPong
    }

    /// The replay after some events: where it stands, what moves it, the
    /// mode's next flick, the next input, and the last event's time.
    private struct Replay {
        var motion: Motion
        var origin: Double
        var flick: Double
        var next: Int
        var time: Double
    }
    /// The last replay, resumed for any later time while no input comes before it
    /// (a frame replays only the inputs since the last frame, however long the demo has run).
    private var checkpoint: Replay?

    /// Scene times are held to a billion seconds either way (31 years).
    private static let longest = 1e9

    /// The offset at t, before rounding: every input (and the mode's own flicks, before the first input) replayed.
    public func unroundedOffset(at time: Double) -> Double {
        let t = Swift.min(Self.longest, Swift.max(-Self.longest, time.isFinite ? time : 0))
        let firstInput = inputs.isEmpty ? Double.infinity : inputs[0].time
        var state = Replay(motion: mode == .constant ? .pingPong : .still, origin: 0, flick: 0, next: 0, time: -.infinity)
        if let resumed = checkpoint, t >= resumed.time { state = resumed }
        if mode == .fling && state.next == 0 {
            // A flick down and one up as long end where the pair began (at 0, the end clamping both alike):
            // start from the last pair begun before t and before any input, where that is further on.
            let pairs = (Swift.min(t, firstInput) / (2 * Self.flingInterval)).rounded(.down)
            if 2 * pairs > state.flick { state = Replay(motion: .still, origin: 0, flick: 2 * pairs, next: 0, time: -.infinity) }
        }
        while true {
            // The next event: the mode's next flick (before the first input) or the next input.
            let flickTime = mode == .fling ? state.flick * Self.flingInterval : .infinity
            let useFlick = flickTime < firstInput && (state.next >= inputs.count || flickTime <= inputs[state.next].time)
            let eventTime = useFlick ? flickTime : (state.next < inputs.count ? inputs[state.next].time : .infinity)
            guard eventTime <= t else { break }
            state.origin = position(of: state.motion, from: state.origin, at: eventTime)
            state.time = eventTime
            if useFlick {
                let down = state.flick.truncatingRemainder(dividingBy: 2) == 0
                state.motion = .fling(start: eventTime, velocity: down ? speed : -speed)
                state.flick += 1
            } else {
                switch inputs[state.next] {
                case let .fling(time, velocity): state.motion = .fling(start: time, velocity: velocity)
                case let .drag(_, by):
                    state.origin = clamp(state.origin + by)
                    state.motion = .still
                case let .glide(time, until, speed): state.motion = .glide(start: time, until: until, speed: speed)
                }
                state.next += 1
            }
        }
        checkpoint = state
        return position(of: state.motion, from: state.origin, at: t)
    }

    /// Where `motion`, begun at `origin`, has the offset at t.
    private func position(of motion: Motion, from origin: Double, at t: Double) -> Double {
        switch motion {
        case .still:
            return origin
        case let .fling(start, velocity):
            guard velocity != 0, velocity.isFinite else { return origin }
            let d = Self.decelerationPerMillisecond
            // Milliseconds until the speed falls under the stop speed.
            let stop = Swift.max(0, log(Self.stopSpeed / abs(velocity)) / log(d))
            let ms = Swift.min(stop, Swift.max(0, (t - start) * 1000))
            return clamp(origin + velocity / 1000 * (pow(d, ms) - 1) / log(d))
        case let .glide(start, until, speed):
            return clamp(origin + speed * Swift.max(0, Swift.min(t, until) - start))
        case .pingPong:
            guard maxOffset > 0, speed > 0 else { return 0 }
            let travelled = (speed * Swift.max(0, t)).truncatingRemainder(dividingBy: 2 * maxOffset)
            return travelled <= maxOffset ? travelled : 2 * maxOffset - travelled
        }
    }

    private func clamp(_ offset: Double) -> Double { Swift.min(maxOffset, Swift.max(0, offset.isFinite ? offset : 0)) }
}

extension Scene {
    /// Its scroll views, each once (the demo gives them the wheel, drags and pages).
    public var scrollViews: [ScrollMotion] { computedValues(ScrollMotion.self) }
}
