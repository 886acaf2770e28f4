/// Work put on the frame loop's own thread, as an app's main thread does
/// layout or a scroll's tracking (`--busy MS`): every frame, or only in
/// bursts of tracking (half a second of every two, from one second in),
/// during which a default-mode timer stalls (`RunLoopTimer.Mode`). The
/// work is a spin on the thread's CPU clock, so it costs what it says
/// however the machine schedules it.
package struct BusyWork: Equatable, Sendable {
    package enum Pattern: String, CaseIterable, Sendable {
        /// The work every frame.
        case every
        /// The work only while tracking: 0.5 s of every 2 s.
        case tracking
    }

    package var milliseconds: Double
    package var pattern: Pattern

    package init(milliseconds: Double, pattern: Pattern = .every) {
        self.milliseconds = milliseconds
        self.pattern = pattern
    }

    /// The tracking bursts: from 1 s into every 2 s, for half a second.
    package static let burstPeriod = 2.0, burstStart = 1.0, burstLength = 0.5

    /// Whether the loop is tracking `elapsed` seconds after it started.
    package func isTracking(at elapsed: Double) -> Bool {
        guard pattern == .tracking, elapsed.isFinite, elapsed >= 0 else { return false }
        let phase = elapsed.truncatingRemainder(dividingBy: Self.burstPeriod)
        return phase >= Self.burstStart && phase < Self.burstStart + Self.burstLength
    }

    /// Does the frame's work, `elapsed` seconds after the loop started.
    package func run(at elapsed: Double) {
        guard milliseconds > 0, pattern == .every || isTracking(at: elapsed) else { return }
        let end = Clocks.threadCPU() + milliseconds / 1000
        while Clocks.threadCPU() < end {}
    }
}
