import WaveCore

/// `--preset primitives`: each primitive of the layer tree alone on the
/// table preset's screen, both strategies, unpaced frames, process CPU per
/// frame (on a software GL driver the GL strategy's per-pixel work is the
/// process's own CPU too). The question for each: does the GL strategy
/// cost no more than redrawing, and what does one primitive cost?
package enum PrimitivesPreset {
    package static let name = "primitives"

    /// One primitive's scene, made by the caller (the effects live outside the benchmark).
    package struct Case {
        package var name: String
        package var drawnBy: String
        package var makeScene: (_ width: Int, _ height: Int) throws -> Scene

        package init(name: String, drawnBy: String, makeScene: @escaping (Int, Int) throws -> Scene) {
            self.name = name; self.drawnBy = drawnBy; self.makeScene = makeScene
        }
    }
}

/// `--preset primitives`'s figures (JSON "primitives"): ms a frame, medians.
package struct PrimitivesReport: Codable, Equatable {
    package var screenSize: [Int]
    package var rows: [PrimitiveRow] = []
    package var method = "unpaced frames of one scene per primitive, each strategy in turn; process CPU (all threads, the driver's included) per frame, medians"

    enum CodingKeys: String, CodingKey {
        case rows, method
        case screenSize = "screen_size"
    }
}

package struct PrimitiveRow: Codable, Equatable {
    package var primitive: String
    package var drawnBy: String
    /// Redrawing: process CPU a frame.
    package var cpuProcessMs: Double?
    /// The GL strategy: process CPU a frame, and its own thread's.
    package var glProcessMs: Double?
    package var glThreadMs: Double?
    /// GL's process CPU over the redraw's (at most 1: the GL strategy costs no more).
    package var glOverCpu: Double?

    enum CodingKeys: String, CodingKey {
        case primitive
        case drawnBy = "drawn_by"
        case cpuProcessMs = "cpu_process_ms"
        case glProcessMs = "gl_process_ms"
        case glThreadMs = "gl_thread_ms"
        case glOverCpu = "gl_over_cpu"
    }
}

extension BenchRunner {
    /// Every case, each through the sweep's measurement (warm-up, then
    /// `config.frames` frames a strategy) at the table preset's screen size.
    package func runPrimitives(_ cases: [PrimitivesPreset.Case], progress: ((BenchProgress) -> Void)? = nil) throws -> BenchReport {
        let screen = TablePreset.screen
        var report = BenchReport(renderer: host.deviceName ?? "none", results: [])
        var primitives = PrimitivesReport(screenSize: [screen.width, screen.height])
        for (index, item) in cases.enumerated() where !config.isInterrupted() {
            progress?(BenchProgress(done: index, total: cases.count, label: "primitives preset: \(item.name)"))
            var one = config
            one.cells = [1]
            one.sceneSize = { _ in screen }
            one.makeScene = { _ in try item.makeScene(screen.width, screen.height) }
            one.measureWriteOnce = false
            let run = BenchRunner(config: one, host: host)
            var measured = try run.run()
            for k in measured.results.indices { (measured.results[k].preset, measured.results[k].primitive) = (PrimitivesPreset.name, item.name) }
            report.results += measured.results
            notices += run.notices.map { "\(item.name): \($0)" }
            let cpu = measured.results.first { $0.backend == Backend.cpu.rawValue }
            let gl = measured.results.first { $0.backend == Backend.gl.rawValue }
            var row = PrimitiveRow(primitive: item.name, drawnBy: item.drawnBy, cpuProcessMs: cpu?.processCpuMs.median,
                                   glProcessMs: gl?.processCpuMs.median, glThreadMs: gl?.cpuMs.median)
            if let c = row.cpuProcessMs, let g = row.glProcessMs, c > 0 { row.glOverCpu = rounded(g / c, places: 2) }
            primitives.rows.append(row)
        }
        progress?(BenchProgress(done: cases.count, total: cases.count, label: "primitives preset"))
        report.primitives = primitives
        report.interrupted = config.isInterrupted()
        return report
    }
}

extension PrimitivesReport {
    /// The terminal table: one line per primitive.
    package func table(renderer: String) -> String {
        func ms(_ v: Double?) -> String { v.map { String(format: "%.3f", $0) } ?? "-" }
        let rows = self.rows.map { r in
            [r.primitive, ms(r.cpuProcessMs), ms(r.glProcessMs), ms(r.glThreadMs), r.glOverCpu.map { String(format: "%.2fx", $0) } ?? "-", r.drawnBy]
        }
        return "waves bench --preset primitives: each primitive alone on a \(screenSize.map(String.init).joined(separator: "x")) screen; "
            + "GL_RENDERER: \(renderer)\n"
            + BenchReport.table(header: ["primitive", "redraw: process ms", "GL: process ms", "GL: thread ms", "GL/redraw", "GL draws it as"],
                                rows: rows)
            + "\(method)\n"
    }
}
