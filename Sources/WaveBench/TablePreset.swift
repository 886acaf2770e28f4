import Foundation
import WaveCore

/// The published phone experiment (`--preset table`): one phone screen of
/// a table of waving cells (`--scene table`: rows of 88 px, cells reused),
/// at 60 frames per second, in three phases of equal length: still, then
/// scrolled at a constant speed, then still again.
package enum TablePreset {
    package static let name = "table"
    /// A 375x667 point screen; the table's rows are 88 (a 44-point row at
    /// 2x): 8 rows fill the screen at a row's top, so 9 cells are made and reused.
    package static let screen = (width: 375, height: 667)
    package static let rows = 100
    package static let framesPerSecond = 60.0
    /// The scrolling phase's speed, pixels a second (about 11 rows a second).
    package static let scrollSpeed = 1000.0
    /// The phases, in order: idle, scrolling, idle again.
    package static let phases = ["idle", "scrolling", "idle again"]
    /// What the phones measured, printed beside ours.
    package static let published = "published (phone): redraw 7-10% CPU all the time; translate (replicator) CPU only while scrolling, ~0% idle"

    package static func request(snapsToPixel: Bool) -> SceneRequest {
        SceneRequest(width: screen.width, height: screen.height, count: rows, snapsToPixel: snapsToPixel)
    }
}

/// Frames paced to absolute deadlines, the way a display's vsync paces
/// them when there is none: tick k is at start + k/fps; the frame started at
/// tick k is due at tick k + 1. A frame finishing after it is due is missed,
/// and the next frame waits for the first tick not yet past (missed ticks
/// are skipped, never bunched). Only sleeping waits: spinning would count as
/// the very CPU time this run measures. Scene time is the measured wall
/// time since the start, not an assumed 1/fps per frame.
enum PacedRun {
    struct Outcome {
        var drawn = 0
        var missed = 0
        var wallSeconds = 0.0
        var processCPUSeconds = 0.0
    }

    static func run(meter: FrameMeter, seconds: Double, framesPerSecond: Double, timeOrigin: Double = 0,
                    schedule: ChangeSchedule? = nil, onTick: (Int) -> Void) throws -> Outcome {
        try run(seconds: seconds, framesPerSecond: framesPerSecond, timeOrigin: timeOrigin, schedule: schedule, onTick: onTick) { time in
            try meter.frame(time: time, measured: true)
        }
    }

    /// The same pacing for any frame: `frame` draws scene time `time` and
    /// returns the wall time it finished. With a `schedule`, a tick whose
    /// picture cannot differ from the last drawn draws nothing, and the run
    /// sleeps to the tick of the next change (to the end where none comes).
    static func run(seconds: Double, framesPerSecond: Double, timeOrigin: Double = 0, schedule: ChangeSchedule? = nil,
                    onTick: (Int) -> Void = { _ in }, frame: (Double) throws -> Double) rethrows -> Outcome {
        let interval = 1 / framesPerSecond
        // Start on the next whole interval after a short settle.
        let start = Clocks.wall() + interval
        let end = start + seconds
        var outcome = Outcome()
        sleep(until: start)
        let processStart = Clocks.processCPU(), wallStart = Clocks.wall()
        var tick = 0
        while start + Double(tick) * interval < end {
            let tickTime = start + Double(tick) * interval
            sleep(until: tickTime)
            let time = timeOrigin + Clocks.wall() - start
            if let schedule, !schedule.needsFrame(at: time) {
                guard let next = schedule.nextChange else { break }
                tick = max(tick + 1, Int(((next - timeOrigin) / interval).rounded(.up)))
                continue
            }
            let finished = try frame(time)
            schedule?.drew(at: time)
            outcome.drawn += 1
            if finished > tickTime + interval { outcome.missed += 1 }
            tick = max(tick + 1, Int(((finished - start) / interval).rounded(.up)))
            onTick(tick)
        }
        // The last interval's idle time belongs to the run too.
        sleep(until: end)
        outcome.processCPUSeconds = Clocks.processCPU() - processStart
        outcome.wallSeconds = Clocks.wall() - wallStart
        return outcome
    }

    /// The display paces: each frame ends in a swap that waits for the next
    /// refresh (`present`, inside `meter.frame`). A frame is missed when the
    /// swap it ends with comes a refresh or more late.
    static func runByVsync(meter: FrameMeter, seconds: Double, refresh: Double, timeOrigin: Double = 0,
                           onTick: (Int) -> Void) throws -> Outcome {
        var outcome = Outcome()
        let start = Clocks.wall(), processStart = Clocks.processCPU()
        var previous = start
        while previous - start < seconds {
            let finished = try meter.frame(time: timeOrigin + Clocks.wall() - start, measured: true)
            outcome.drawn += 1
            let refreshes = Int(((finished - previous) / refresh).rounded())
            if refreshes > 1 { outcome.missed += refreshes - 1 }
            previous = finished
            onTick(Int((finished - start) / refresh))
        }
        outcome.processCPUSeconds = Clocks.processCPU() - processStart
        outcome.wallSeconds = Clocks.wall() - start
        return outcome
    }

    /// Sleeps until the CLOCK_MONOTONIC time `deadline` (seconds); returns
    /// at once when it has passed.
    static func sleep(until deadline: Double) {
        var target = timespec()
        target.tv_sec = Int(deadline.rounded(.down))
        target.tv_nsec = Int((deadline - deadline.rounded(.down)) * 1e9)
        // Interrupted by a signal: sleep again to the same absolute time.
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }
}

/// The floor under the table preset: moving the screen's bytes once a
/// frame (a plain memcpy of a frame-sized picture into the frame, 14 rows of
/// rectangles as the translate strategy's copies are), paced at 60 fps the
/// same way. After 16 ms of sleep the caches are cold, so this is what a
/// frame that rewrites every pixel costs at the least on this machine.
package struct TableFloor: Codable, Equatable {
    /// Process CPU over wall time, percent.
    package var processCpuPercent: Double
    /// Median thread CPU time of one frame's copy, ms.
    package var copyMs: Double

    enum CodingKeys: String, CodingKey {
        case processCpuPercent = "process_cpu_percent"
        case copyMs = "copy_ms"
    }

    static func measure(width: Int, height: Int, seconds: Double, framesPerSecond: Double) -> TableFloor {
        let count = width * height
        let source = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        let frame = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer { source.deallocate(); frame.deallocate() }
        source.initialize(repeating: 0xFF3A_9BFF, count: count)
        frame.initialize(repeating: 0, count: count)
        var samples: [Double] = []
        var copies = 0
        let run = PacedRun.run(seconds: seconds, framesPerSecond: framesPerSecond) { _ in
            let t0 = Clocks.threadCPU()
            // Each row in two pieces at a moving wrap column, as the copies are.
            let shift = (copies * 6) % width
            for row in 0..<height {
                let from = source + row * width, to = frame + row * width
                to.update(from: from + shift, count: width - shift)
                (to + width - shift).update(from: from, count: shift)
            }
            samples.append((Clocks.threadCPU() - t0) * 1000)
            copies += 1
            return Clocks.wall()
        }
        return TableFloor(processCpuPercent: rounded(run.processCPUSeconds / max(run.wallSeconds, 1e-9) * 100, places: 2),
                          copyMs: rounded(Stats(samples)?.median ?? 0, places: 4))
    }
}

/// The floor under any redraw: writing the frame's bytes once (the C
/// library's vectorised wmemset, the fastest plain write there is). Fills
/// `frame` with a constant `repeats` times and returns the median thread
/// CPU time of one fill, in milliseconds. It fills the renderer's own frame
/// buffer (pages mapped, as warm in cache as the rasteriser finds it), which
/// outlives the measurement, so the fills cannot be optimised away.
enum WriteOnceBaseline {
    static func milliseconds(filling frame: UnsafeMutableBufferPointer<UInt32>, repeats: Int) -> Double? {
        guard let base = frame.baseAddress, frame.count > 0, repeats > 0 else { return nil }
        var samples: [Double] = []
        samples.reserveCapacity(repeats)
        for i in 0..<repeats {
            let start = Clocks.threadCPU()
            fillPixels(base, with: 0xFF10_182A &+ UInt32(truncatingIfNeeded: i), count: frame.count)
            samples.append((Clocks.threadCPU() - start) * 1000)
        }
        return Stats(samples)?.median
    }
}
