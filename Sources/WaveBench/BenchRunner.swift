import Foundation
import WaveCore

/// How far a run has got, for a progress bar.
package struct BenchProgress: Sendable {
    package var done: Int
    package var total: Int
    package var label: String
}

/// Runs the sweep: for every backend and cell count, prepare, warm up, then
/// measure `frames` frames back to back (each completed before the next).
/// Both strategies share the host's GPU context; without one, the CPU
/// strategy still runs (no upload) and the GL rows are left out with a
/// notice, or the run fails when only GL was asked for.
package final class BenchRunner {
    package let config: BenchConfig
    package let host: BenchHost
    /// Things a person should know about the run (GL missing, say); one line each.
    package internal(set) var notices: [String] = []

    package init(config: BenchConfig, host: BenchHost) {
        self.config = config
        self.host = host
    }

    /// GL_RENDERER of the shared context, or "none".
    package var rendererName: String { host.deviceName ?? "none" }

    // MARK: The sweep

    /// `estimate`: told before the sweep how many seconds it should take,
    /// from two timed frames of the largest scene per strategy.
    package func run(progress: ((BenchProgress) -> Void)? = nil, estimate: ((Double) -> Void)? = nil) throws -> BenchReport {
        try config.validate()
        let backends = try usableBackends()
        let perRow = config.warmup + config.frames
        // Progress by estimated time: each frame weighs what its row's frames are
        // expected to cost (two timed frames of the largest scene per strategy).
        let frameCost = try frameCosts(backends)
        if let estimate { estimate(frameCost.values.reduce(0) { $0 + $1.reduce(0, +) } * Double(perRow)) }
        var done = 0.0
        let total = frameCost.values.reduce(0) { $0 + $1.reduce(0, +) } * Double(perRow)
        var results: [BenchResult] = []
        let timer = try makeTimer()
        var interrupted = false
        rows: for backend in backends {
            // One strategy per backend, dropped after its rows so the next
            // backend does not run beside its buffers.
            let strategy = try makeStrategy(backend)
            for cells in config.cells {
                // Ctrl-C: the row under way finishes; the report holds what was measured.
                if config.isInterrupted() { interrupted = true; break rows }
                let unit = config.unit
                let label = "\(backend.rawValue) \(cells) \(cells == 1 && unit.hasSuffix("s") ? String(unit.dropLast()) : unit)"
                do {
                    let weight = frameCost[backend]?[config.cells.firstIndex(of: cells) ?? 0] ?? 0
                    results.append(try measure(strategy, cells: cells, timer: timer) { frame in
                        done += weight
                        guard let progress else { return }
                        // In microseconds of expected time.
                        progress(BenchProgress(done: Int(done * 1e6), total: max(1, Int(total * 1e6)), label: "\(label), frame \(frame)/\(perRow)"))
                    })
                } catch let error as RendererError {
                    guard case .unavailable = error else { throw error }
                    // The driver cannot fit this scene (a limit): the other rows still stand.
                    done += (frameCost[backend]?[config.cells.firstIndex(of: cells) ?? 0] ?? 0) * Double(perRow)
                    notices.append("\(label) not measured: \(error)")
                }
            }
        }
        var report = BenchReport(renderer: rendererName, results: results)
        report.interrupted = interrupted || config.isInterrupted()
        report.warmup = config.warmup
        return report
    }

    private func measure(_ strategy: BenchStrategy, cells: Int, timer: GPUTiming?,
                         onFrame: (Int) -> Void) throws -> BenchResult {
        resetPeakResident()
        let scene = try config.scene(cells: cells)
        try strategy.prepare(scene: scene)
        let meter = makeMeter(strategy, timer: timer, capacity: config.frames)
        var physicsStart: (steps: Int, seconds: Double)?
        for i in 0..<(config.warmup + config.frames) {
            if i == config.warmup { physicsStart = scene.simulationCost }
            try meter.frame(time: Double(i) * config.frameInterval, measured: i >= config.warmup)
            onFrame(i + 1)
        }
        let summary = try finish(meter, step: "measuring \(strategy.backend.rawValue) at \(cells) cells",
                                 ifEmpty: "no frame was measured")
        var result = BenchResult(summary, backend: strategy.backend, cells: cells,
                                 cellSize: config.sceneSize == nil ? [config.cellSize.width, config.cellSize.height]
                                                                   : [scene.width, scene.height],
                                 fps: 1000 / summary.wallMs.median,
                                 uploadBytesPerFrame: strategy.uploadBytesPerFrame)
        if config.unit != "cells" { result.unit = config.unit }
        if let start = physicsStart, let end = scene.simulationCost {
            result.physicsMs = rounded((end.seconds - start.seconds) * 1000 / Double(config.frames), places: 5)
        }
        result.pixelsPerFrame = strategy.countPixels(time: Double(config.warmup + config.frames - 1) * config.frameInterval)
        let plan = try strategy.renderer.explain(time: Double(config.warmup + config.frames - 1) * config.frameInterval)
        if !plan.isEmpty { result.mechanisms = plan.reduce(into: [:]) { $0[$1.mechanism, default: 0] += 1 } }
        if strategy.backend == .cpu, config.measureWriteOnce {
            // After the measured frames: it overwrites the last frame.
            result.writeOnceMs = strategy.writeOnceMilliseconds(repeats: min(config.frames, 100)).map { rounded($0, places: 5) }
        }
        return result
    }

    /// Seconds a frame of each row is expected to take, per strategy, in
    /// the order of `config.cells`: two frames of the largest scene timed,
    /// each row's cost taken as proportional to its count (the sweep's scenes
    /// grow with it), with a floor of a tenth of a millisecond a frame. A
    /// strategy that cannot draw the largest scene is estimated at the floor.
    private func frameCosts(_ backends: [Backend]) throws -> [Backend: [Double]] {
        guard let largest = config.cells.max() else { return [:] }
        let scene = try config.scene(cells: largest)
        var costs: [Backend: [Double]] = [:]
        for backend in backends {
            var perFrame = 0.0
            do {
                let strategy = try makeStrategy(backend)
                try strategy.prepare(scene: scene)
                let meter = makeMeter(strategy, timer: nil, capacity: 1)
                let start = Clocks.wall()
                for i in 0..<2 { try meter.frame(time: Double(i) / 60, measured: false) }
                perFrame = (Clocks.wall() - start) / 2
            } catch let error as RendererError {
                guard case .unavailable = error else { throw error }
            }
            costs[backend] = config.cells.map { max(1e-4, perFrame * Double($0) / Double(largest)) }
        }
        return costs
    }

    // MARK: The published table

    /// The phone experiment: one 375x667 screen of the scrolling table,
    /// each strategy paced at 60 frames per second through the three phases
    /// (`seconds` each: still, scrolled at `scrollSpeed` pixels a second,
    /// still), after `config.warmup` unpaced frames: by the display's vsync
    /// in a window whose swaps it really paces, otherwise by sleeping to
    /// absolute deadlines. One row per strategy and phase.
    package func runTable(seconds: Double, scrollSpeed: Double = TablePreset.scrollSpeed,
                         progress: ((BenchProgress) -> Void)? = nil) throws -> BenchReport {
        guard seconds.isFinite, seconds > 0 else { throw BenchError.invalid("the table preset needs a positive duration") }
        let backends = try usableBackends()
        // No GPU timer queries here: the preset measures what the process spends, as the phones did, and
        // on llvmpipe a timer query opens a scene every frame that wakes its threads (measurement, not strategy).
        let timer: GPUTiming? = nil
        let refresh = host.vsyncInterval?()
        let phases = TablePreset.phases
        let ticks = Int((seconds * TablePreset.framesPerSecond).rounded(.up)) * phases.count
        var results: [BenchResult] = []
        var size = TablePreset.screen
        for (index, backend) in backends.enumerated() where !config.isInterrupted() {
            // A scene of its own (its own scroll view) for each strategy, scrolled in the middle phase.
            var scene = try config.makeScene(TablePreset.request(snapsToPixel: config.snapsToPixel))
            guard var scrollView = scene.scrollViews.first else { throw BenchError.invalid("the table preset's scene has no scroll view") }
            if scrollView.maxOffset < scrollSpeed * seconds {
                // Rows enough that the scrolling phase never reaches the end.
                var request = TablePreset.request(snapsToPixel: config.snapsToPixel)
                request.count = Int(((scrollSpeed * seconds + scrollView.viewHeight) / scrollView.rowHeight).rounded(.up)) + 1
                scene = try config.makeScene(request)
                scrollView = try scene.scrollViews.first ?? { throw BenchError.invalid("the table preset's scene has no scroll view") }()
            }
            try scene.validate()
            size = (scene.width, scene.height)
            scrollView.add(.glide(time: seconds, until: 2 * seconds, speed: scrollSpeed))
            let strategy = try makeStrategy(backend)
            try strategy.prepare(scene: scene)
            // A display may refresh faster than 60 Hz: room for every refresh.
            let capacity = Int((seconds / min(refresh ?? 1, 1 / TablePreset.framesPerSecond)).rounded(.up)) + 2
            let warm = makeMeter(strategy, timer: timer, capacity: 1)
            for i in 0..<config.warmup { try warm.frame(time: -Double(config.warmup - i) * config.frameInterval, measured: false) }
            for (p, phase) in phases.enumerated() where !config.isInterrupted() {
                let meter = makeMeter(strategy, timer: timer, capacity: capacity)
                let done = (index * phases.count + p) * ticks / phases.count
                let onTick: (Int) -> Void = { tick in
                    guard let progress else { return }
                    progress(BenchProgress(done: done + min(tick, ticks / phases.count), total: backends.count * ticks,
                                            label: "table preset: \(backend.rawValue), \(phase)"))
                }
                let origin = Double(p) * seconds
                let run = try refresh.map { try PacedRun.runByVsync(meter: meter, seconds: seconds, refresh: $0, timeOrigin: origin, onTick: onTick) }
                    ?? PacedRun.run(meter: meter, seconds: seconds, framesPerSecond: TablePreset.framesPerSecond, timeOrigin: origin,
                                    onTick: onTick)
                let summary = try finish(meter, step: "the table preset, \(backend.rawValue), \(phase)",
                                         ifEmpty: "no frame was drawn in \(seconds) s")
                var result = BenchResult(summary, backend: backend, cells: scrollView.cells,
                                         cellSize: [scene.width, Int(scrollView.rowHeight)],
                                         fps: Double(summary.frames) / run.wallSeconds,
                                         uploadBytesPerFrame: strategy.uploadBytesPerFrame)
                result.preset = TablePreset.name
                result.phase = phase
                result.scrollSpeed = scrollSpeed
                result.seconds = seconds
                result.screenSize = [scene.width, scene.height]
                result.framesMissed = run.missed
                result.pacing = refresh == nil ? "sleep" : "vsync"
                result.processCpuPercent = rounded(run.processCPUSeconds / run.wallSeconds * 100, places: 2)
                // Near the phase's end: still scrolling in the middle phase.
                result.pixelsPerFrame = strategy.countPixels(time: origin + seconds * 0.99)
                results.append(result)
            }
        }
        var report = BenchReport(renderer: rendererName, results: results)
        if !config.isInterrupted() {
            report.tableFloor = TableFloor.measure(width: size.width, height: size.height, seconds: min(seconds, 5),
                                                   framesPerSecond: TablePreset.framesPerSecond)
        }
        return report
    }

    // MARK: Shared pieces

    /// A meter for `strategy`, showing each frame in the window of a windowed run.
    func makeMeter(_ strategy: BenchStrategy, timer: GPUTiming?, capacity: Int) -> FrameMeter {
        let meter = FrameMeter(strategy: strategy, timer: timer, capacity: capacity)
        if let show = host.show, let frame = strategy.presentable { meter.present = { show(frame) } }
        return meter
    }

    /// Waits for the last timer results, checks the GPU stayed error-free
    /// through `step`, and returns the meter's figures.
    func finish(_ meter: FrameMeter, step: String, ifEmpty: String) throws -> FrameMeter.Summary {
        meter.drainGPU()
        try host.checkErrors(step)
        guard let summary = meter.summary() else { throw BenchError.invalid(ifEmpty) }
        return summary
    }

    /// The asked-for backends that can run here; GL without a context is a
    /// notice when the CPU rows can still run, and an error when not.
    func usableBackends() throws -> [Backend] {
        var backends = config.backends
        if host.deviceName == nil {
            let reason = host.unavailableReason ?? "no GL context was given"
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

    func makeTimer() throws -> GPUTiming? {
        let timer = try host.makeTimer()
        try host.checkErrors("creating GL_TIME_ELAPSED queries")
        return timer
    }

    func makeStrategy(_ backend: Backend) throws -> BenchStrategy {
        try BenchStrategy(backend, host: host)
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
