/// What a live frame loop takes from the command line (the demo's window,
/// the bench's pacing preset): the physics step and its cap, the physics
/// budget, the work put on the loop's thread and how often it draws. Their
/// parameters are declared with the effects that take them
/// (`FrameLoopSettings.parameters`, in WaveEffects); a render, which has no
/// loop, refuses those scoped to one.
package struct FrameLoopSettings: Equatable, Sendable {
    /// Seconds per physics step (nil: 1/120).
    package var physicsStep: Double?
    /// Steps a frame may run at most; the rest of a late frame's time is dropped.
    package var maxSteps = 8
    /// The share of the simulated time physics may take (nil: no budget).
    package var physicsBudget: Double?
    /// Milliseconds of work on the loop's thread a frame (nil: none).
    package var busy: Double?
    package var busyPattern: BusyWork.Pattern?
    /// Draw every Nth refresh (nil: every one).
    package var frameInterval: Int?

    package init() {}

    /// The step when none is asked for.
    package static let standardStep = 1.0 / 120

    /// The loop's work a frame (nil: none).
    package var work: BusyWork? {
        guard let busy, busy > 0 || busyPattern == .tracking else { return nil }
        return BusyWork(milliseconds: busy, pattern: busyPattern ?? .every)
    }
}
