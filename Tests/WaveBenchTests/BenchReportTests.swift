import Foundation
@testable import WaveBench
import WaveCore
import WaveEffects
import WaveGL
import WaveTestSupport
import XCTest

/// The real runner, a tiny sweep, and its JSON against the documented schema.
final class BenchReportTests: XCTestCase {
    /// Both strategies on one headless context, wired as the command line wires them.
    private func headlessHost() throws -> BenchHost {
        let context = try GLRequirement.need("a headless GL context") { try HeadlessGLContext() }
        var host = BenchHost(deviceName: context.renderer, unavailableReason: nil,
                             makeRenderer: { backend in backend == .cpu ? CPURenderer() as Renderer : try GLRenderer(context: context) },
                             makeUploader: { try SharedFramePresenter.make(caps: context.capabilities) }, makeTimer: { GPUTimer() })
        host.sharesFrames = context.capabilities.maxSharedFrameTexels > 0
        host.finishGPU = { context.finish() }
        host.checkErrors = { try checkGLErrors($0) }
        return host
    }

    private var tinySweep: BenchConfig {
        var config = BenchConfig()
        config.backends = [.cpu, .gl]
        config.cells = [1, 3]
        config.cellSize = (64, 16)
        config.frames = 2
        config.warmup = 1
        config.makeScene = SineCells.maker()
        return config
    }

    func testTwoFrameSweepValidatesAgainstTheSchema() throws {
        let host = try headlessHost()
        let runner = BenchRunner(config: tinySweep, host: host)
        let data = try runner.run().jsonData()
        XCTAssertEqual(BenchSchema.problems(in: data), [])

        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertNotEqual(root["renderer"] as? String, "none")
        let rows = try XCTUnwrap(root["results"] as? [[String: Any]])
        let pairs = rows.map { "\($0["backend"] ?? "?") \($0["cells"] ?? "?")" }
        XCTAssertEqual(pairs.sorted(), ["cpu 1", "cpu 3", "gl 1", "gl 3"], "every (backend, cells) pair, once")
        for row in rows {
            XCTAssertEqual(BenchSchema.integer(row["frames"]), 2)
            XCTAssertEqual((row["cell_size"] as? [Any])?.compactMap(BenchSchema.integer), [64, 16])
            if row["backend"] as? String == "gl" {
                // Not measured for GL: explicit nulls, not missing keys.
                XCTAssert(row["raster_ms"] is NSNull && row["upload_ms"] is NSNull, "\(row)")
                XCTAssertEqual(BenchSchema.integer(row["upload_bytes_per_frame"]), 0)
                XCTAssertNil(row["write_once_ms"])
            } else {
                XCTAssertFalse(row["raster_ms"] is NSNull || row["upload_ms"] is NSNull, "\(row)")
                // Drawn where the GPU reads it (llvmpipe shares the frame's memory): nothing copied; else every byte.
                XCTAssertEqual(BenchSchema.integer(row["upload_bytes_per_frame"]),
                               host.sharesFrames ? 0 : 64 * 16 * 4 * (BenchSchema.integer(row["cells"]) ?? 0))
                XCTAssertNotNil(BenchSchema.number(row["write_once_ms"]))
            }
        }
    }

    /// The primitives preset: a row per primitive, both strategies measured
    /// on the table's screen, and its JSON against the schema.
    func testPrimitivesPresetMeasuresEachPrimitiveBothWays() throws {
        var config = tinySweep
        config.frames = 2
        let cases = Primitives.all.prefix(2).map { PrimitivesPreset.Case(name: $0.name, drawnBy: $0.drawnBy, makeScene: $0.make) }
        let report = try BenchRunner(config: config, host: try headlessHost()).runPrimitives(Array(cases))
        let primitives = try XCTUnwrap(report.primitives)
        XCTAssertEqual(primitives.rows.map(\.primitive), ["box", "box, moving"])
        XCTAssertEqual(primitives.screenSize, [375, 667])
        for row in primitives.rows {
            XCTAssertGreaterThan(try XCTUnwrap(row.cpuProcessMs), 0)
            XCTAssertGreaterThan(try XCTUnwrap(row.glProcessMs), 0)
            XCTAssertEqual(try XCTUnwrap(row.glOverCpu), row.glProcessMs! / row.cpuProcessMs!, accuracy: 0.006)
        }
        XCTAssertEqual(report.results.count, 4, "a cpu and a gl row a primitive")
        XCTAssertEqual(report.results.map(\.cellSize), Array(repeating: [375, 667], count: 4))
        XCTAssertEqual(BenchSchema.problems(in: try report.jsonData()), [])
        XCTAssertTrue(primitives.table(renderer: report.renderer).contains("box, moving"))
    }

    func testTablePresetRowsCarryTheirAdditions() throws {
        var config = tinySweep
        config.warmup = 2
        var settings = EffectSettings()
        settings.given["scroll"] = "none"
        config.makeScene = { [settings] in try Effects.named(.table)!.scene(settings, $0) }
        let runner = BenchRunner(config: config, host: try headlessHost())
        let report = try runner.runTable(seconds: 0.25, scrollSpeed: 800)
        XCTAssertEqual(BenchSchema.problems(in: try report.jsonData()), [])
        XCTAssertEqual(report.results.map(\.backend), ["cpu", "cpu", "cpu", "gl", "gl", "gl"])
        XCTAssertEqual(report.results.map(\.phase), ["idle", "scrolling", "idle again", "idle", "scrolling", "idle again"])
        XCTAssertTrue(report.presetTable.contains("scrolling at 800 px/s"), report.presetTable)
        // The floor: a paced copy of the frame, cheaper than nothing it is not.
        let floor = try XCTUnwrap(report.tableFloor)
        XCTAssertGreaterThan(floor.copyMs, 0)
        XCTAssertGreaterThan(floor.processCpuPercent, 0)
        XCTAssertTrue(report.presetTable.contains("floor: copying the frame's bytes once a frame"), report.presetTable)
        for row in report.results {
            XCTAssertEqual(row.preset, "table")
            XCTAssertEqual(row.cells, 9, "8 rows of 88 px fill 667 px at a row's top, plus one")
            XCTAssertEqual(row.cellSize, [375, 88])
            XCTAssertEqual(row.scrollSpeed, 800)
            XCTAssertEqual(row.screenSize, [375, 667])
            // 0.25 s at 60 fps is 15 ticks; a slow machine draws fewer, never more.
            XCTAssert((1...15).contains(row.frames), "\(row.frames) frames drawn")
            XCTAssertLessThanOrEqual(try XCTUnwrap(row.framesMissed), row.frames)
            XCTAssertGreaterThanOrEqual(row.processCpuPercent ?? -1, 0)
            // Each phase's counted frame: the CPU paints the whole screen in software every frame, GL none of it.
            let pixels = try XCTUnwrap(row.pixelsPerFrame)
            XCTAssertGreaterThanOrEqual(pixels.written, 375 * 667)
            XCTAssertEqual(pixels.updated, row.backend == "cpu" ? 375 * 667 : 0)
            if row.backend == "gl" { XCTAssertEqual(pixels.cpuRasterized, 0) } else { XCTAssertGreaterThan(pixels.cpuRasterized, 0) }
        }
        XCTAssertTrue(report.presetTable.contains("pixels of one frame, as each strategy counted them"), report.presetTable)
    }

    /// The ball under 25 ms of work a frame (more than a 60 Hz interval):
    /// the timer's callbacks come late and its ball drifts from the ideal
    /// trajectory; the display driver's ball is on it at every frame and has
    /// no timer to be late; the fixed driver's trails it by a step. Counts and
    /// bounds that do not depend on the machine's speed.
    func testTheBallsDriversUnderBusyWork() throws {
        var config = tinySweep
        config.backends = [.cpu]
        let runner = BenchRunner(config: config, host: try headlessHost())
        let report = try runner.runBall(seconds: 0.5, busy: BusyWork(milliseconds: 25), frameInterval: 1, timerMode: .default) { driver in
            var ball = Ball(width: 300, height: 300)
            ball.driver = driver
            return try ball.scene()
        }
        XCTAssertEqual(BenchSchema.problems(in: try report.jsonData()), [])
        let ball = try XCTUnwrap(report.ball)
        XCTAssertEqual(ball.travelPx, 236)
        let rows = Dictionary(uniqueKeysWithValues: ball.rows.map { ($0.driver, $0) })
        let display = try XCTUnwrap(rows["display"]), timer = try XCTUnwrap(rows["timer"]), fixed = try XCTUnwrap(rows["fixed"])
        XCTAssertEqual(display.errorMaxPx, 0)
        XCTAssertNil(display.late)
        XCTAssertGreaterThan(try XCTUnwrap(timer.late), 0, "work longer than the interval makes every callback late")
        XCTAssertGreaterThan(timer.errorMaxPx, 0)
        XCTAssertGreaterThan(timer.lagMaxMs, 0)
        // One step behind (1/120 s) at the fall's fastest (121/8 t px a second, t at 4/11 of the way) is at most 10.8 px.
        XCTAssertGreaterThan(fixed.errorMaxPx, 0)
        XCTAssertLessThanOrEqual(fixed.errorMaxPx, 236 * 121.0 / 8 * 4 / 11 / 120 + 0.01)
        XCTAssertEqual(ball.traces.map(\.driver), ["display", "timer", "fixed"])
        XCTAssertTrue(ball.table(renderer: report.renderer).contains("error max px"))
        XCTAssertTrue(BallChart(report: ball, renderer: report.renderer).svg().contains("timer: error max"))
    }

    /// A report that was never measured still writes every schema key.
    func testUnmeasuredFiguresAreExplicitNulls() throws {
        let stats = Stats(median: 1, p95: 2)
        let row = BenchResult(backend: "gl", cells: 1, cellSize: [320, 80], frames: 1, cpuMs: stats,
                              processCpuMs: stats, gpuMs: nil, wallMs: stats, rasterMs: nil, uploadMs: nil,
                              fps: 1000, uploadBytesPerFrame: 0, allocationsPerFrame: 0, peakRssMb: 10)
        let data = try BenchReport(renderer: "none", machine: Machine(cpus: 1, os: "test"), results: [row]).jsonData()
        XCTAssertEqual(BenchSchema.problems(in: data), [])
        let text = String(decoding: data, as: UTF8.self)
        for key in ["gpu_ms", "raster_ms", "upload_ms"] { XCTAssert(text.contains("\"\(key)\" : null"), key) }
        XCTAssertEqual(try JSONDecoder().decode(BenchReport.self, from: data).results, [row], "round trip")
    }

    func testNearestRankPercentiles() {
        XCTAssertNil(Stats([Double]()))
        XCTAssertEqual(Stats([5]), Stats(median: 5, p95: 5))
        // n = 20: the median is rank 10, p95 rank 19.
        XCTAssertEqual(Stats((1...20).reversed().map(Double.init)), Stats(median: 10, p95: 19))
        XCTAssertEqual(Stats([1, 2, 3, 100]), Stats(median: 2, p95: 100))
    }

    func testChartAndCSVShowEveryRow() {
        func row(_ backend: String, _ cells: Int, _ cpu: Double, gpu: Double?) -> BenchResult {
            BenchResult(backend: backend, cells: cells, cellSize: [320, 80], frames: 10,
                        cpuMs: Stats(median: cpu, p95: cpu), processCpuMs: Stats(median: cpu, p95: cpu),
                        gpuMs: gpu.map { Stats(median: $0, p95: $0) }, wallMs: Stats(median: cpu, p95: cpu),
                        rasterMs: nil, uploadMs: nil, fps: 1000 / cpu, uploadBytesPerFrame: 0,
                        allocationsPerFrame: 0, peakRssMb: 1)
        }
        let report = BenchReport(renderer: "test <renderer>", machine: Machine(cpus: 2, os: "test"), results: [
            row("cpu", 1, 0.05, gpu: nil), row("cpu", 1000, 40, gpu: nil),
            row("gl", 1, 0.01, gpu: 0.02), row("gl", 1000, 0.012, gpu: 0.5),
        ])
        let svg = BenchChart(report: report).svg()
        XCTAssertEqual(svg.components(separatedBy: "<polyline").count - 1, 5, "cpu_ms and process_cpu_ms twice, gl gpu_ms once")
        XCTAssert(svg.contains("redraw: \(Figure.processCpuMs.label)") && svg.contains("process CPU"), "process CPU is charted")
        XCTAssertEqual(svg.components(separatedBy: "stroke-dasharray").count - 1, 2, "the gpu line and its legend")
        XCTAssert(svg.contains("test &lt;renderer&gt;") && svg.contains("320x80"), "title names renderer and cell size")
        XCTAssert(svg.contains("redraw: CPU ms") && svg.contains("translate: GPU ms"), "labelled lines")
        let csv = report.csv.split(separator: "\n")
        XCTAssertEqual(csv.count, 5)
        XCTAssert(csv.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == csv[0].split(separator: ",").count })
    }

    /// The figures' names (the display's and the CSV's) are the JSON schema's keys.
    func testEveryFigureIsAKeyOfTheJSONRows() {
        for figure in Figure.allCases {
            XCTAssertNotNil(BenchResult.CodingKeys(stringValue: figure.rawValue), "\(figure.rawValue) is not a JSON key")
        }
    }
}
