import Foundation
import WaveCore

/// Samples of one figure, in a buffer allocated before the measured frames
/// and written by index: recording a frame allocates nothing.
final class SampleColumn {
    private let storage: UnsafeMutableBufferPointer<Double>
    private(set) var count = 0

    init(capacity: Int) {
        storage = .allocate(capacity: Swift.max(1, capacity))
    }

    deinit { storage.deallocate() }

    @inline(__always)
    func record(_ value: Double) {
        precondition(count < storage.count, "more frames than the meter was made for")
        storage[count] = value
        count += 1
    }

    /// The samples, scaled (seconds to milliseconds), as median and p95.
    func stats(scale: Double = 1000) -> Stats? {
        Stats(storage.prefix(count).map { $0 * scale })
    }
}

/// Measures frames of one strategy. Per frame: wall and process CPU time
/// around the whole frame (the strategy's work, then glFinish), the
/// strategy's own thread CPU time and parts, the heap allocations made on
/// this thread during the work, and the GPU time from timer queries.
///
/// The allocation window closes before `finish` (glFinish): it covers what
/// the strategy does per frame, not the driver's wait for the frame, and
/// leaves out the timer queries (see `GPUBracket`). It counts this thread
/// only, and so counts what a GL driver allocates inside the strategy's GL
/// calls on this thread (Mesa's llvmpipe does).
/// GPU results are collected after `finish`, outside every window, so the
/// frame they belong to is known and collecting costs the frame nothing.
package final class FrameMeter {
    package let strategy: BenchStrategy
    private let timer: GPUTiming?
    private let bracket: GPUBracket
    private let cpu, processCPU, wall, raster, upload: SampleColumn
    private var gpu: [Double] = []
    private var recordingGPU = false
    /// Made once: an escaping closure passed per frame would be allocated per frame.
    private var gpuSink: ((Double) -> Void)!
    /// Heap allocations in measured frames by the project's own code (the
    /// executable, the Swift runtime and Foundation): the figure that must be 0.
    package private(set) var allocations: UInt64 = 0
    /// Those made on this thread inside other libraries: the GL driver's
    /// (llvmpipe allocates inside draws and uploads), reported apart.
    package private(set) var driverAllocations: UInt64 = 0
    package private(set) var measuredFrames = 0
    /// Windowed runs: shows each finished frame (a blit and a buffer swap,
    /// which waits for vsync when the window paces by it). Part of the
    /// frame's wall time, not of the strategy's own work.
    package var present: (() -> Void)?

    /// `capacity`: the most measured frames this meter will record.
    package init(strategy: BenchStrategy, timer: GPUTiming?, capacity: Int) {
        self.strategy = strategy
        self.timer = timer
        bracket = GPUBracket(timer: timer)
        cpu = SampleColumn(capacity: capacity)
        processCPU = SampleColumn(capacity: capacity)
        wall = SampleColumn(capacity: capacity)
        raster = SampleColumn(capacity: capacity)
        upload = SampleColumn(capacity: capacity)
        gpu.reserveCapacity(capacity)
        gpuSink = { [unowned self] ms in
            if self.recordingGPU { self.gpu.append(ms) }
        }
    }

    /// Makes one frame for scene time `time`; records it when `measured`.
    /// Returns the wall time at which the frame was complete.
    @discardableResult
    package func frame(time: Double, measured: Bool) throws -> Double {
        var work = FrameWork()
        let wallStart = Clocks.wall(), processStart = Clocks.processCPU()
        bracket.startCounting()
        do {
            try strategy.work(time: time, gpu: bracket, into: &work)
        } catch {
            _ = bracket.stopCounting()
            throw error
        }
        let allocated = bracket.stopCounting()
        present?()
        strategy.finish()
        let wallEnd = Clocks.wall(), processEnd = Clocks.processCPU()

        if measured {
            measuredFrames += 1
            allocations += allocated.own
            driverAllocations += allocated.driver
            cpu.record(work.cpu)
            processCPU.record(processEnd - processStart)
            wall.record(wallEnd - wallStart)
            if let r = work.raster { raster.record(r) }
            if let u = work.upload { upload.record(u) }
        }
        recordingGPU = measured
        timer?.collect(gpuSink)
        return wallEnd
    }

    /// Waits for outstanding timer queries (the end of a run).
    package func drainGPU() {
        timer?.drain(gpuSink)
        recordingGPU = false
    }

    package struct Summary {
        package var frames: Int
        package var cpuMs: Stats
        package var processCpuMs: Stats
        package var wallMs: Stats
        package var gpuMs: Stats?
        package var rasterMs: Stats?
        package var uploadMs: Stats?
        package var allocationsPerFrame: Double
        package var driverAllocationsPerFrame: Double
    }

    /// Median and p95 of everything recorded; nil before any measured frame.
    package func summary() -> Summary? {
        guard measuredFrames > 0, let cpuMs = cpu.stats(), let processCpuMs = processCPU.stats(),
              let wallMs = wall.stats() else { return nil }
        return Summary(frames: measuredFrames, cpuMs: cpuMs, processCpuMs: processCpuMs, wallMs: wallMs,
                       gpuMs: Stats(gpu), rasterMs: raster.stats(), uploadMs: upload.stats(),
                       allocationsPerFrame: Double(allocations) / Double(measuredFrames),
                       driverAllocationsPerFrame: Double(driverAllocations) / Double(measuredFrames))
    }
}

/// The process's peak resident set so far, in MiB (ru_maxrss is in KiB on Linux).
package func peakResidentMegabytes() -> Double {
    // VmHWM: the peak since the last reset (`resetPeakResident`), else since the start.
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
       let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") {
        return kilobytes / 1024
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

/// Starts a new peak (Linux: writing 5 to /proc/self/clear_refs resets
/// VmHWM), so each row's peak is its own, not the process's so far.
package func resetPeakResident() {
    let fd = open("/proc/self/clear_refs", O_WRONLY)
    guard fd >= 0 else { return }
    _ = write(fd, "5", 1)
    close(fd)
}
