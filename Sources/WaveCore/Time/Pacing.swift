import Foundation

/// How frames are paced, and what the pacing did: the timer chapters'
/// lessons measured. A plain timer drifts against the display and bunches
/// frames; a display-synchronised tick does not; animating by an assumed
/// 1/60 s a frame drifts from the measured time.

/// What starts the next frame.
package enum Pacing: String, CaseIterable, Sendable {
    /// The display: each frame ends in a buffer swap that waits for the next refresh.
    case vsync
    /// A plain timer: sleep 1/60 s after each frame, whatever the frame took.
    case timer
    /// Nothing: the next frame starts at once.
    case free
}

/// Frame-interval statistics against a display period.
package struct PacingStats: Equatable, Sendable {
    package var frames: Int
    /// Median and 99th percentile frame interval, milliseconds.
    package var intervalP50: Double
    package var intervalP99: Double
    /// Intervals over 1.5 display periods: the display showed the previous frame again.
    package var missed: Int
    /// Intervals under half a display period: two frames in one refresh, one never shown.
    package var bunched: Int
    /// The largest |n * assumed - (t_n - t_0)| over the frames, milliseconds:
    /// how far an animation that assumes `assumed` seconds a frame (1/60)
    /// is from the measured time.
    package var assumedFrameError: Double

    /// `times`: when each frame started (seconds, increasing); `period`: the
    /// display's refresh period in seconds; `assumed`: what a frame-counting
    /// animation takes a frame to be. Nil with fewer than two frames.
    package init?(frameStarts times: [Double], period: Double, assumed: Double = 1.0 / 60) {
        guard times.count >= 2, period > 0 else { return nil }
        var intervals: [Double] = []
        intervals.reserveCapacity(times.count - 1)
        var missed = 0, bunched = 0, worst = 0.0
        for i in 1..<times.count {
            let d = times[i] - times[i - 1]
            intervals.append(d * 1000)
            if d > 1.5 * period { missed += 1 }
            if d < 0.5 * period { bunched += 1 }
            worst = Swift.max(worst, abs(Double(i) * assumed - (times[i] - times[0])))
        }
        intervals.sort()
        func percentile(_ q: Double) -> Double {
            intervals[Swift.min(intervals.count - 1, Swift.max(0, Int((q * Double(intervals.count)).rounded(.up)) - 1))]
        }
        frames = times.count
        intervalP50 = percentile(0.5)
        intervalP99 = percentile(0.99)
        self.missed = missed
        self.bunched = bunched
        assumedFrameError = worst * 1000
    }
}
