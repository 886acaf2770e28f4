/// What one strategy costs, summarised over a window of frames (the demo's
/// heads-up display refreshes it twice a second). Adding a frame does not
/// allocate.
package struct StrategyMeter: Sendable {
    package struct Snapshot: Sendable, Equatable {
        package var framesPerSecond: Double
        /// Thread CPU time the strategy's own work took, per frame.
        package var cpuMilliseconds: Double
        /// GPU time per frame from timer queries; nil when none arrived.
        package var gpuMilliseconds: Double?
        package var frames: Int

        package static let empty = Snapshot(framesPerSecond: 0, cpuMilliseconds: 0, gpuMilliseconds: nil, frames: 0)
    }

    private let startedAt: Double
    private var windowStart: Double
    private var frames = 0
    private var cpuTotal = 0.0
    private var gpuTotal = 0.0
    private var gpuCount = 0
    package private(set) var latest = Snapshot.empty
    /// Every frame since the meter was made (for end-of-run figures).
    package private(set) var overall = (frames: 0, cpuMilliseconds: 0.0, gpuMilliseconds: 0.0, gpuSamples: 0)

    package init(wallNow: Double) {
        startedAt = wallNow
        windowStart = wallNow
    }

    package mutating func addFrame(cpuMilliseconds: Double) {
        frames += 1
        cpuTotal += cpuMilliseconds
        overall.frames += 1
        overall.cpuMilliseconds += cpuMilliseconds
    }

    package mutating func addGPU(milliseconds: Double) {
        gpuTotal += milliseconds
        gpuCount += 1
        overall.gpuMilliseconds += milliseconds
        overall.gpuSamples += 1
    }

    /// Closes the window when `interval` has passed; returns true when `latest` changed.
    package mutating func refresh(atWall now: Double, interval: Double = 0.5) -> Bool {
        let elapsed = now - windowStart
        guard elapsed >= interval, frames > 0 else { return false }
        latest = Snapshot(framesPerSecond: Double(frames) / elapsed,
                          cpuMilliseconds: cpuTotal / Double(frames),
                          gpuMilliseconds: gpuCount > 0 ? gpuTotal / Double(gpuCount) : latest.gpuMilliseconds,
                          frames: frames)
        windowStart = now
        frames = 0; cpuTotal = 0; gpuTotal = 0; gpuCount = 0
        return true
    }

    /// Averages over everything measured up to `now`.
    package func overallSnapshot(atWall now: Double) -> Snapshot {
        let elapsed = now - startedAt
        return Snapshot(framesPerSecond: elapsed > 0 ? Double(overall.frames) / elapsed : 0,
                 cpuMilliseconds: overall.frames > 0 ? overall.cpuMilliseconds / Double(overall.frames) : 0,
                 gpuMilliseconds: overall.gpuSamples > 0 ? overall.gpuMilliseconds / Double(overall.gpuSamples) : nil,
                 frames: overall.frames)
    }
}
