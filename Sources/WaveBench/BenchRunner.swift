import Foundation
import WaveCore
import WaveGL

/// How far a run has got, for a progress bar.
public struct BenchProgress: Sendable {
    public var done: Int
    public var total: Int
    public var label: String
}

/// Runs the sweep: for every backend and cell count, prepare, warm up, then
/// measure `frames` frames back to back (each completed with glFinish before
/// the next). Both strategies share one GL context; without one, the CPU
/// strategy still runs (its upload skipped) and the GL rows are left out
/// with a notice, or the run fails when only GL was asked for.
public final class BenchRunner {
    public let config: BenchConfig
    public let context: GLContext?
    /// Set for windowed runs: every frame is shown in it.
    public let window: BenchWindow?
    private let contextFailure: String?
    /// Things a person should know about the run (GL missing, say); one line each.
    public private(set) var notices: [String] = []

    public init(config: BenchConfig, context: GLContext?, contextFailure: String? = nil) {
        self.config = config
        self.context = context
        self.contextFailure = contextFailure
        window = nil
    }

    private init(config: BenchConfig, window: BenchWindow) {
        self.config = config
        self.window = window
        context = window.context
        contextFailure = nil
    }

    /// A runner that shows every frame in a window (the size of one screen
    /// of the scene, at most 1920x1080); throws `GLContextError.noWindow`
    /// where none can be opened.
    public static func windowed(config: BenchConfig, preset: Bool) throws -> BenchRunner {
        let scene = preset ? TablePreset.scene(template: config.sceneTemplate)
                           : config.scene(cells: config.cells.max() ?? 1)
        return BenchRunner(config: config, window: try BenchWindow(width: scene.width, height: scene.height))
    }

    /// A runner with a headless context of its own when one can be made,
    /// else with the reason none could.
    public static func headless(config: BenchConfig) -> BenchRunner {
        do {
            return BenchRunner(config: config, context: try HeadlessGLContext())
        } catch {
            return BenchRunner(config: config, context: nil, contextFailure: "\(error)")
        }
    }

    /// GL_RENDERER of the shared context, or "none".
    public var rendererName: String {
        guard let context, (try? context.makeCurrent()) != nil else { return "none" }
        return context.renderer
    }

    // MARK: The sweep

    public func run(progress: ((BenchProgress) -> Void)? = nil) throws -> BenchReport {
        try config.validate()
        let backends = try usableBackends()
        let perRow = config.warmup + config.frames
        // Progress in cell-frames: a frame's cost grows with its cells.
        var done = 0
        let total = backends.count * config.cells.reduce(0, +) * perRow
        var results: [BenchResult] = []
        let timer = try makeTimer()
        for backend in backends {
            // One strategy per backend, dropped after its rows so the next
            // backend does not run beside its buffers.
            let strategy = try makeStrategy(backend)
            for cells in config.cells {
                let label = "\(backend.rawValue) \(cells) cell\(cells == 1 ? "" : "s")"
                do {
                    results.append(try measure(strategy, cells: cells, timer: timer) { frame in
                        done += cells
                        guard let progress else { return }
                        progress(BenchProgress(done: done, total: total, label: "\(label), frame \(frame)/\(perRow)"))
                    })
                } catch let error as GLError {
                    // The driver cannot fit this scene (a limit): the other rows still stand.
                    done += cells * perRow
                    notices.append("\(label) not measured: \(error)")
                }
            }
        }
        return BenchReport(renderer: rendererName, results: results)
    }

    private func measure(_ strategy: BenchStrategy, cells: Int, timer: GPUTimer?,
                         onFrame: (Int) -> Void) throws -> BenchResult {
        let scene = config.scene(cells: cells)
        try strategy.prepare(scene: scene)
        let meter = makeMeter(strategy, timer: timer, capacity: config.frames)
        for i in 0..<(config.warmup + config.frames) {
            try meter.frame(time: Double(i) * config.frameInterval, measured: i >= config.warmup)
            onFrame(i + 1)
        }
        let summary = try finish(meter, step: "measuring \(strategy.backend.rawValue) at \(cells) cells",
                                 ifEmpty: "no frame was measured")
        var result = BenchResult(summary, backend: strategy.backend, cells: cells,
                                 cellSize: [config.cellSize.width, config.cellSize.height],
                                 fps: 1000 / summary.wallMs.median,
                                 uploadBytesPerFrame: strategy.uploadBytesPerFrame)
        if let cpu = strategy as? CPUStrategy, config.measureWriteOnce {
            // After the measured frames: it overwrites the last frame.
            result.writeOnceMs = cpu.writeOnceMilliseconds(repeats: min(config.frames, 100)).map { rounded($0, places: 5) }
        }
        return result
    }

    // MARK: The published table

    /// The phone experiment: one 375x667 screen of 7 waving cells, each
    /// strategy paced at 60 frames per second for `seconds`, after
    /// `config.warmup` unpaced frames: by the display's vsync in a window
    /// whose swaps it really paces, otherwise by sleeping to absolute deadlines.
    public func runTable(seconds: Double, progress: ((BenchProgress) -> Void)? = nil) throws -> BenchReport {
        guard seconds.isFinite, seconds > 0 else { throw BenchError.invalid("the table preset needs a positive duration") }
        let backends = try usableBackends()
        let scene = TablePreset.scene(template: config.sceneTemplate)
        try scene.validate()
        let timer = try makeTimer()
        let refresh = window?.enableVsyncIfPaced()
        let ticks = Int((seconds * TablePreset.framesPerSecond).rounded(.up))
        var results: [BenchResult] = []
        for (index, backend) in backends.enumerated() {
            let strategy = try makeStrategy(backend)
            try strategy.prepare(scene: scene)
            // A display may refresh faster than 60 Hz: room for every refresh.
            let capacity = Int((seconds / min(refresh ?? 1, 1 / TablePreset.framesPerSecond)).rounded(.up)) + 2
            let meter = makeMeter(strategy, timer: timer, capacity: capacity)
            for i in 0..<config.warmup { try meter.frame(time: Double(i) * config.frameInterval, measured: false) }
            let onTick: (Int) -> Void = { tick in
                guard let progress else { return }
                progress(BenchProgress(done: index * ticks + min(tick, ticks), total: backends.count * ticks,
                                        label: "table preset: \(backend.rawValue), \(min(tick, ticks))/\(ticks) ticks"))
            }
            let run = try refresh.map { try PacedRun.runByVsync(meter: meter, seconds: seconds, refresh: $0, onTick: onTick) }
                ?? PacedRun.run(meter: meter, seconds: seconds, framesPerSecond: TablePreset.framesPerSecond, onTick: onTick)
            let summary = try finish(meter, step: "the table preset, \(backend.rawValue)",
                                     ifEmpty: "no frame was drawn in \(seconds) s")
            var result = BenchResult(summary, backend: backend, cells: scene.cellCount,
                                     cellSize: [scene.width, scene.height / scene.cellCount],
                                     fps: Double(summary.frames) / run.wallSeconds,
                                     uploadBytesPerFrame: strategy.uploadBytesPerFrame)
            result.preset = TablePreset.name
            result.seconds = seconds
            result.screenSize = [scene.width, scene.height]
            result.framesMissed = run.missed
            result.pacing = refresh == nil ? "sleep" : "vsync"
            result.processCpuPercent = rounded(run.processCPUSeconds / run.wallSeconds * 100, places: 2)
            results.append(result)
        }
        return BenchReport(renderer: rendererName, results: results)
    }

    // MARK: Shared pieces

    /// A meter for `strategy`, showing each frame in the window of a windowed run.
    private func makeMeter(_ strategy: BenchStrategy, timer: GPUTimer?, capacity: Int) -> FrameMeter {
        let meter = FrameMeter(strategy: strategy, timer: timer, capacity: capacity)
        meter.present = window?.presenter(for: strategy)
        return meter
    }

    /// Waits for the last timer results, checks GL stayed error-free through
    /// `step`, and returns the meter's figures.
    private func finish(_ meter: FrameMeter, step: String, ifEmpty: String) throws -> FrameMeter.Summary {
        meter.drainGPU()
        if context != nil { try checkGLErrors(step) }
        guard let summary = meter.summary() else { throw BenchError.invalid(ifEmpty) }
        return summary
    }

    /// The asked-for backends that can run here; GL without a context is a
    /// notice when the CPU rows can still run, and an error when not.
    private func usableBackends() throws -> [Backend] {
        var backends = config.backends
        if let context {
            try context.makeCurrent()
        } else {
            let reason = contextFailure ?? "no GL context was given"
            if backends.contains(.gl) {
                if backends == [.gl] { throw RendererError.unavailable(.gl, reason: reason) }
                backends.removeAll { $0 == .gl }
                notices.append("gl rows not measured (\(reason)); cpu rows measured without the upload")
            } else {
                notices.append("no GL context (\(reason)): cpu rows measured without the upload")
            }
        }
        return backends
    }

    private func makeTimer() throws -> GPUTimer? {
        guard context != nil else { return nil }
        let timer = GPUTimer()
        try checkGLErrors("creating GL_TIME_ELAPSED queries")
        return timer
    }

    private func makeStrategy(_ backend: Backend) throws -> BenchStrategy {
        switch backend {
        case .cpu: return CPUStrategy(withUpload: context != nil)
        case .gl:
            guard let context else { throw RendererError.unavailable(.gl, reason: contextFailure ?? "no GL context") }
            return try GLStrategy(context: context)
        }
    }
}

extension BenchResult {
    /// A row from a meter's summary, every time rounded to 10 ns.
    init(_ s: FrameMeter.Summary, backend: Backend, cells: Int, cellSize: [Int], fps: Double, uploadBytesPerFrame: Int) {
        func r(_ stats: Stats?) -> Stats? {
            stats.map { Stats(median: rounded($0.median, places: 5), p95: rounded($0.p95, places: 5)) }
        }
        self.init(backend: backend.rawValue, cells: cells, cellSize: cellSize, frames: s.frames,
                  cpuMs: r(s.cpuMs)!, processCpuMs: r(s.processCpuMs)!, gpuMs: r(s.gpuMs), wallMs: r(s.wallMs)!,
                  rasterMs: r(s.rasterMs), uploadMs: r(s.uploadMs), fps: rounded(fps, places: 1),
                  uploadBytesPerFrame: uploadBytesPerFrame,
                  allocationsPerFrame: s.allocationsPerFrame,
                  peakRssMb: rounded(peakResidentMegabytes(), places: 1))
        driverAllocationsPerFrame = s.driverAllocationsPerFrame
    }
}

func rounded(_ value: Double, places: Int) -> Double {
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale
}
