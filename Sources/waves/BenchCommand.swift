import ArgumentParser
import Foundation
import WaveBench
import WaveImageIO
import WaveCore
import WaveEffects

/// `waves bench`: parses and checks the options, then hands over to WaveBench.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure both strategies over a sweep of counts (cells, dots or voice panels), or reproduce a published experiment.",
        discussion: """
            Prints a table to stdout; --json, --csv and --chart write files. Figures are only meaningful from a \
            release build (make bench). The default sweep takes about 10 minutes on 2 cores: fewer --frames or --cells \
            for a quick look.

            JSON (version 2): {"version", "waves_version", "commit", "date", "mode" (headless or window), "warmup", \
            "interrupted", "renderer" (GL_RENDERER), "machine": {"cpus", "os", "cpu_model"}, "results": [one per \
            backend and count: "backend", "cells", "cell_size", "frames", and per frame, as {"median", "p95"} in ms: \
            "cpu_ms" (the strategy's thread), "process_cpu_ms" (all threads), "gpu_ms" (timer queries; null when none), \
            "wall_ms", "raster_ms" and "upload_ms" (CPU rows; null on GL rows); "fps", "upload_bytes_per_frame", \
            "allocations_per_frame", "peak_rss_mb"; where they apply "unit", "write_once_ms", \
            "driver_allocations_per_frame", "pixels_per_frame" (one frame counted by the strategy: "cpu_rasterized", \
            "written", "blended", "offscreen", "updated", "most_blended_layers"), "mechanisms" (that frame's items by the \
            mechanism that drew them, as render --explain names them) and the table preset's "preset", "process_cpu_percent", "frames_missed", \
            "seconds", "screen_size", "pacing", "phase", "scroll_speed"]}, plus a "waveform", "pacing", "raster" or "primitives" object for those presets \
            and, for the table preset, "table_floor" (copying the frame once a frame, paced the same way). \
            docs/benchmark.md's "JSON schema" section lists every key.

            Each effect is a subcommand with its own options, its count option (--cells, --dots, --rows, --crates) \
            taking the counts to sweep ('waves bench dots --help'); with none named, the sine. --scene NAME is the \
            short form ('waves bench --scene dots' is 'waves bench dots'), where --cells sweeps whatever the effect counts.

            Examples:
              waves bench --headless --frames 120 --json results.json --chart results.svg
              waves bench --preset table
              waves bench --preset raster --json raster.json
              waves bench --headless --preset primitives --frames 120
              waves bench dots --headless --dots 10,100,1000 --frames 120
              waves bench --headless --preset pacing --seconds 5 --stall 100
            """,
        subcommands: EffectCommands.bench,
        defaultSubcommand: EffectCommands.standardBench
    )

    enum Preset: String, ExpressibleByArgument, CaseIterable { case table, waveform, pacing, raster, primitives }

}

/// What a benchmark takes besides the effect: strategies, frames, presets and outputs.
struct BenchSettings: ParsableArguments {
    typealias Preset = BenchCommand.Preset


    @Option(help: "Strategies to measure, a comma-separated list of cpu and gl.")
    var backend = "cpu,gl"

    @Option(help: "One cell's size WxH in pixels (default: 320x80).", transform: parseSize)
    var size = PixelSize(width: 320, height: 80)

    @Option(parsing: .unconditional, help: "Frames measured per backend and cell count, after the warm-up, 1 to 1000000 (default: 600).",
            transform: parseWhole("a whole number of frames from 1 to 1000000"))
    var frames = 600

    @Option(parsing: .unconditional, help: "Unmeasured frames first, 0 to 100000 (default: 30).",
            transform: parseWhole("a whole number of frames from 0 to 100000"))
    var warmup = 30

    @Flag(help: "Headless (EGL, no window). Without it every frame is shown in a window (the table preset paces by vsync where the display does), or, with no display, the run is headless.")
    var headless = false

    @Option(help: "Write the results as JSON to this file.")
    var json: String?

    @Option(help: "Write the results as CSV to this file.")
    var csv: String?

    @Option(help: "Write a chart of ms per frame (strategy CPU, process CPU, GPU) against the counts to this .svg or .png file (PNG through rsvg-convert); with --preset pacing --scene crates, every frame's interval (the death spiral).")
    var chart: String?

    @Option(parsing: .unconditional, help: "--preset pacing: sleep this many milliseconds inside one frame every second (0 to 1000; default 0).")
    var stall: Double?

    @Option(help: "table (waves bench table): the published phone experiment (a 375x667 screen of the scrolling table paced at 60 fps: idle, scrolling at --scroll-speed, 1000 px/s unless given, idle again; --shadow, --no-shadow-cache apply); waveform (waves bench waveform): the published audio player; pacing (waves bench jelly, dots, voice, crates or ball): the effect under a plain timer, unpaced and, in a window with vsync, vsync; raster (waves bench sine): the CPU strategy's frame beside cairo's fill of the same polygon and a plain memset, at 320x80, 800x200, 1920x1080 and on a steep wave (and, beside a GL context, our draw with each frame copied to the GPU or drawn where it reads it); primitives: each primitive of the layer tree alone on the table's screen (boxes still and moving, a fixed path in a clip, a dynamic path, replicated boxes, a picture, a mask, rasterized layers with shadows), both strategies, process CPU a frame over --frames frames. A preset replaces the sweep, so the counts and --size do not apply, nor --frames but to primitives; with no effect named, table, raster and primitives draw their own, pacing the jelly.")
    var preset: Preset?

    @Option(help: "--preset raster: also race a native Blend2D build (not a Debian package: built from its public sources), this folder's lib/libblend2d.so, one thread.")
    var blend2d: String?

    @Option(name: .customLong("track-minutes"), parsing: .unconditional, help: "The waveform preset's track length in minutes (default: 10, as published).")
    var trackMinutes: Double?

    @Option(parsing: .unconditional, help: "Seconds a preset runs each strategy for (the table preset: each of its three phases, default 3; the pacing preset 5; the waveform preset 5 per row; the raster preset 3 per frame size).")
    var seconds: Double?

    @Flag(name: .customLong("follow-links"), help: ArgumentHelp(AtomicFile.followLinksHelp))
    var followLinks = false

    func run(_ effect: EffectOptions) throws {
        AtomicFile.followsLinks = followLinks
        // A bench's count option is the list of counts it sweeps.
        var wave = effect
        wave.countsAreLists = true
        var config = try makeConfig(wave)
        // Every output is checked before anything runs, so a bad path costs nothing; all are written at the end.
        for path in [json, csv, chart].compactMap({ $0 }) { try OutputPaths.checkFile(path) }
        Interruption.install()
        config.isInterrupted = { Interruption.requested }
        let runner = makeRunner(config, subpixel: wave.subpixel)
        let bar = isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
        var report: BenchReport
        do {
            switch preset {
            case .table: report = try runner.runTable(seconds: seconds ?? 3, scrollSpeed: try wave.declared(Table.parameters, defaults: Table(width: 1, height: 1)).scrollSpeed ?? TablePreset.scrollSpeed,
                                                      progress: bar?.update)
            case .pacing where wave.scene == .ball:
                let settings = try wave.settings(), loop = try wave.frameLoop()
                let ball = try wave.declared(Ball.parameters, defaults: Ball(width: 1, height: 1))
                report = try runner.runBall(seconds: seconds ?? 5, busy: loop.work, frameInterval: loop.frameInterval ?? 1,
                                            timerMode: ball.timerMode, makeScene: { driver in
                                                var each = settings
                                                each.adjust(Ball.self) { $0.driver = driver }
                                                return try Effects.named(.ball)!.scene(each, SceneRequest(
                                                    width: Self.ballScreen.width, height: Self.ballScreen.height, count: 0, snapsToPixel: false))
                                            }, progress: bar?.update)
            case .pacing:
                let loop = try wave.frameLoop()
                report = try runner.runPacing(seconds: seconds ?? 5, stallMilliseconds: stall ?? 0,
                                              step: loop.physicsStep ?? FrameLoopSettings.standardStep, maxSteps: loop.maxSteps,
                                              physicsBudget: loop.physicsBudget, progress: bar?.update)
            case .raster:
                let copying = try runner.host.makeCopyingUploader()
                let shared = runner.host.sharesFrames ? try runner.host.makeUploader() : nil
                var raster = try RasterPreset.run(seconds: seconds ?? 3, blend2d: blend2d, copying: copying, shared: shared,
                                                  makeScene: Self.rasterScene,
                                                  isInterrupted: config.isInterrupted, progress: bar?.update)
                raster.interrupted = raster.interrupted || Interruption.requested
                raster.renderer = copying == nil ? nil : runner.host.deviceName
                report = BenchReport(renderer: "none (CPU only)", results: [])
                report.raster = raster
                report.interrupted = raster.interrupted
            case .primitives:
                report = try runner.runPrimitives(Primitives.all.map { item in
                    PrimitivesPreset.Case(name: item.name, drawnBy: item.drawnBy, makeScene: item.make)
                }, progress: bar?.update)
            case .waveform: report = try runner.runWaveform(try WaveformPresetWiring.input(minutes: trackMinutes ?? 10,
                                                                                           audio: wave.inputs().waveformInput()),
                                                            seconds: seconds ?? 5, progress: bar?.update)
            case nil:
                report = try runner.run(progress: bar?.update) { seconds in
                    printError("waves bench: \(config.cells.count * config.backends.count) rows of \(config.warmup) + \(config.frames) frames; "
                               + "expect about \(Self.duration(seconds)) (from two timed frames of the largest scene); Ctrl-C stops after the row under way")
                }
            }
        } catch {
            bar?.finish()
            throw error
        }
        bar?.finish()
        for notice in runner.notices { printError("waves: \(notice)") }
        report.wavesVersion = Waves.version
        report.commit = Waves.installedCommit ?? "unknown"
        report.mode = runner.host.show == nil ? "headless" : "window"
        report.warmup = config.warmup
        report.interrupted = report.interrupted || Interruption.requested

        if let raster = report.raster {
            print(raster.table(machine: report.machine), terminator: "")
        } else if let primitives = report.primitives {
            print(primitives.table(renderer: report.renderer), terminator: "")
        } else if let pacing = report.pacing {
            print(pacing.table(renderer: report.renderer), terminator: "")
        } else if let ball = report.ball {
            print(ball.table(renderer: report.renderer), terminator: "")
        } else if let waveform = report.waveform {
            print(waveform.table(renderer: report.renderer, cpus: report.machine.cpus), terminator: "")
        } else {
            print(preset == .table ? report.presetTable : report.sweepTable, terminator: "")
        }
        if let json { try AtomicFile.write(try report.jsonData(), to: json) }
        if let csv { try AtomicFile.write(report.waveform?.csv ?? report.raster?.csv ?? report.csv, to: csv) }
        if let chart {
            let svg = report.waveform.map { WaveformChart(report: $0, renderer: report.renderer).svg() }
                ?? report.ball.map { BallChart(report: $0, renderer: report.renderer).svg() }
                ?? PacingChart(report: report)?.svg() ?? BenchChart(report: report).svg()
            if chart.lowercased().hasSuffix(".png") { try ChartPNG.write(svg: svg, to: chart) } else { try AtomicFile.write(svg, to: chart) }
        }
        let written = [json, csv, chart].compactMap { $0 }
        if !written.isEmpty { print("wrote " + written.joined(separator: ", ")) }
        if report.interrupted {
            printError("waves: interrupted: the report holds what was finished before Ctrl-C")
            throw ExitCode(130)
        }
    }

    /// "about 40 s", "about 3 min".
    static func duration(_ seconds: Double) -> String {
        seconds < 90 ? "\(max(1, Int(seconds.rounded()))) s" : "\(Int((seconds / 60).rounded())) min"
    }

    /// The raster preset's scene for one case: one sine cell, the default colours.
    static func rasterScene(_ item: RasterPreset.Case) throws -> Scene {
        var cells = SineCells(width: item.width, height: item.height)
        cells.wave.amplitude = item.amplitude
        cells.wave.cycles = item.cycles
        return try cells.scene()
    }

    /// The pacing preset's scene.
    static let pacingScreen = (width: 600, height: 200)
    /// The ball's, as the chapter's view.
    static let ballScreen = (width: 300, height: 300)

    /// A window where asked for and possible (the size of one screen of the
    /// scene, at most 1920x1080); headless otherwise, saying why.
    private func makeRunner(_ config: BenchConfig, subpixel: SubpixelMode) -> BenchRunner {
        if preset == .raster {
            // CPU rasterisers only; a headless context, where one can be made, takes the CPU strategy's uploads.
            return BenchRunner(config: config, host: BenchHosts.headless(subpixel: subpixel))
        }
        if !headless {
            let screen = preset == .table ? TablePreset.screen
                : preset == .pacing ? Self.pacingScreen
                : preset == .waveform ? WaveformPreset.view
                : config.size(count: config.cells.max() ?? 1)
            do {
                return BenchRunner(config: config, host: try BenchHosts.windowed(width: screen.width, height: screen.height,
                                                                                subpixel: subpixel))
            } catch {
                printError("waves: " + headlessFallback(error, doing: "running headless (EGL, no window)"))
            }
        }
        return BenchRunner(config: config, host: BenchHosts.headless(subpixel: subpixel))
    }

    /// Every option checked, with errors that name the option and what it accepts.
    func makeConfig(_ wave: EffectOptions) throws -> BenchConfig {
        var config = BenchConfig()
        config.backends = try parseList(backend, option: "--backend",
                                        accepted: "a comma-separated list of cpu and gl, for example cpu,gl") {
            Backend(rawValue: $0)
        }
        // The scene's count, as the registry describes it (an effect without one: the sine's, refused below).
        let counted = Effects.named(wave.scene)?.count ?? Effects.named(.sine)!.count!
        let largest = counted.sweepLimit
        let defaultCounts = counted.sweep.map(String.init).joined(separator: ",")
        let countOption = counted.option, countText = wave.countText(counted.option) ?? defaultCounts
        let cellsAccepted = "a comma-separated list of whole numbers from 1 to \(largest), for example \(defaultCounts)"
        config.cells = try parseList(countText, option: countOption, accepted: cellsAccepted) { text in
            Int(text).flatMap { (1...largest).contains($0) ? $0 : nil }
        }
        let cell = try size.validated()
        config.cellSize = (cell.width, cell.height)
        guard (1...1_000_000).contains(frames) else {
            throw ValueError(option: "--frames", value: "\(frames)", accepted: "a whole number of frames from 1 to 1000000")
        }
        guard (0...100_000).contains(warmup) else {
            throw ValueError(option: "--warmup", value: "\(warmup)", accepted: "a whole number of frames from 0 to 100000")
        }
        config.frames = frames
        config.warmup = warmup
        if let blend2d, preset != .raster {
            throw ValueError(option: "--blend2d", value: blend2d, accepted: "only with --preset raster")
        }
        if let trackMinutes {
            guard preset == .waveform else {
                throw ValueError(option: "--track-minutes", value: "\(trackMinutes)", accepted: "only with --preset waveform")
            }
            guard trackMinutes.isFinite, trackMinutes >= 0.05, trackMinutes <= 240 else {
                throw ValueError(option: "--track-minutes", value: "\(trackMinutes)", accepted: "a number of minutes from 0.05 to 240")
            }
        }
        if let seconds {
            guard preset != nil, preset != .primitives else {
                throw ValueError(option: "--seconds", value: "\(seconds)", accepted: "only with --preset table, waveform, pacing or raster")
            }
            guard seconds.isFinite, seconds > 0, seconds <= 3600 else {
                throw ValueError(option: "--seconds", value: "\(seconds)", accepted: "a number of seconds above 0, at most 3600")
            }
        }
        if let stall {
            guard preset == .pacing else { throw ValueError(option: "--stall", value: "\(stall)", accepted: "only with --preset pacing") }
            guard stall.isFinite, (0...1000).contains(stall) else {
                throw ValueError(option: "--stall", value: "\(stall)", accepted: "milliseconds from 0 to 1000")
            }
        }
        if preset == .pacing {
            if let csv { throw ValueError(option: "--csv", value: csv, accepted: "a sweep or the table or waveform preset (the pacing preset writes --json)") }
            if let chart, !Effects.taking("--physics-budget").contains(wave.scene) && wave.scene != .ball {
                throw ValueError(option: "--chart", value: chart, accepted: "a sweep, the waveform preset, or the pacing preset with --scene crates (a simulation's frame intervals) or --scene ball (the ball's fall per driver)")
            }
        }
        if preset == .raster, let chart {
            throw ValueError(option: "--chart", value: chart, accepted: "a sweep or the waveform preset (the raster preset writes --json and --csv)")
        }
        if let chart {
            if preset == .table {
                throw ValueError(option: "--chart", value: chart, accepted: "a sweep or the waveform preset (the table preset has nothing to chart)")
            }
            guard chart.lowercased().hasSuffix(".svg") || chart.lowercased().hasSuffix(".png") else {
                throw ValueError(option: "--chart", value: chart, accepted: "a file name ending in .svg or .png")
            }
            if chart.lowercased().hasSuffix(".png") && !ChartPNG.available {
                throw FileError.cannotWrite(path: chart, reason: "PNG charts are drawn by rsvg-convert, which is not installed (apt-get install librsvg2-bin), or write .svg")
            }
        }
        if preset == .primitives {
            guard wave.scene == .sine else {
                throw ValueError(option: "--scene", value: wave.scene.rawValue, accepted: "nothing with --preset primitives, which draws its own scenes")
            }
            if let chart { throw ValueError(option: "--chart", value: chart, accepted: "a sweep or the waveform preset (the primitives preset writes --json and --csv)") }
            return config
        }
        if preset == .raster {
            // The frames are the issue's: the sine at three sizes and one steep wave.
            guard wave.scene == .sine else {
                throw ValueError(option: "--scene", value: wave.scene.rawValue, accepted: "sine (or nothing) with --preset raster")
            }
            if let name = ["amplitude", "cycles"].first(where: { wave.given[$0] != nil }) {
                throw ValueError(option: "--" + name, value: wave.given[name] ?? "",
                                 accepted: "the default with --preset raster, which fixes its frames (320x80, 800x200, 1920x1080 and a steep 800x200 wave)")
            }
            return config
        }
        if preset == .waveform {
            // The preset is the waveform: its audio options apply (the generated track by default);
            // the bars, view and playhead are the published experiment's, so options that change them are refused.
            try wave.refuseGiven(Waveform.parameters.infos.map(\.name) + ["start", "end"],
                                 reason: "the waveform preset fixes the bars, the view and the playhead")
            guard wave.scene == .sine || wave.scene == .waveform else {
                throw ValueError(option: "--scene", value: wave.scene.rawValue, accepted: "waveform (or nothing) with --preset waveform")
            }
            if wave.given["audio"] != nil || wave.given["peaks"] != nil, trackMinutes != nil {
                throw ValueError(option: "--track-minutes", value: "\(trackMinutes!)", accepted: "only without --audio or --peaks")
            }
            try wave.inputs().checkWaveformInput()
            return config
        }
        if preset == .pacing {
            // The jelly unless dots or voice were named (sine is the option's default).
            var paced = wave
            if paced.scene == .sine { paced.scene = .jelly }
            let pacedScenes = Effects.all.filter { $0.paced && $0.name != .sine }.map(\.name.rawValue)
            guard pacedScenes.contains(paced.scene.rawValue) else {
                throw ValueError(option: "--scene", value: wave.scene.rawValue,
                                 accepted: "\(pacedScenes.joined(separator: ", ")) with --preset pacing (jelly by default)")
            }
            try paced.check()
            // The effect's own count option (--dots, --crates) sets its count; else its standard one.
            let option = Effects.named(paced.scene)?.count?.option
            let count = option.flatMap { $0 == "--cells" ? nil : paced.countText($0).flatMap { Int($0) } } ?? 0
            config.makeScene = { request in
                var request = request
                if option != nil && option != "--cells" { request.count = count }
                return try paced.makeScene(request)
            }
            config.sceneSize = { _ in Self.pacingScreen }
            _ = try config.scene(cells: 1)
            return config
        }
        let swept = Effects.all.filter { $0.count != nil }.map(\.name.rawValue)
        guard swept.contains(wave.scene.rawValue) else {
            throw ValueError(option: "--scene", value: wave.scene.rawValue,
                             accepted: "\(swept.joined(separator: ", ")) (a sweep scales a count; the waveform has --preset waveform)")
        }
        if preset == .table && wave.scene != .sine && wave.scene != .table {
            throw ValueError(option: "--scene", value: wave.scene.rawValue, accepted: "table (or nothing) with --preset table")
        }
        if preset == .table, let rows = wave.countText("--rows") {
            throw ValueError(option: "--rows", value: "\(rows)",
                             accepted: "nothing with --preset table: it makes rows enough for its scrolling phase")
        }
        if preset == .table, let scroll = wave.given["scroll"] {
            throw ValueError(option: "--scroll", value: scroll,
                             accepted: "nothing with --preset table: its middle phase scrolls at a constant --scroll-speed")
        }
        // The table preset draws the scrolling table (the sine's options shape its waves).
        var wave = wave
        if preset == .table { wave.scene = .table }
        try wave.check()
        try wave.refuseLoopParameters(in: "a sweep", allowing: [.frameLoop])
        let effect = Effects.named(wave.scene)!
        var settings = try wave.settings()
        // Still but for the preset's own scrolling phase.
        if preset == .table { settings.given["scroll"] = ScrollMode.none.rawValue }
        config.unit = counted.unit
        if wave.scene == .dots {
            // Rows packed from the top, each with room for the tallest swing, in one screen for every
            // count (the size the largest needs): only the number of dots changes. The rows curl as
            // the effect declares (the GPU draws curled rows as one replicator of rows).
            settings.adjust(Dots.self) { $0.rowPitch = $0.roomyRowPitch }
            let dots = settings.adjusted(try wave.declared(Dots.parameters, defaults: Dots(width: 1, height: 1)))
            let screen = (width: cell.width, height: Dots.height(count: config.cells.max() ?? 1, width: cell.width, dots: dots))
            config.sceneSize = { _ in screen }
        } else if !counted.stacks {
            // Every count in one cell's screen.
            config.sceneSize = { _ in (cell.width, cell.height) }
        }
        if preset == .table { config.sceneSize = { _ in TablePreset.screen } }
        config.makeScene = { [settings] in try effect.scene(settings, $0) }
        config.snapsToPixel = wave.snap
        _ = try config.scene(cells: 1)

        if preset == nil {
            // Each scene stacks the cells (or rows of dots): the tallest must fit the core's bounds.
            let largest = config.size(count: config.cells.max() ?? 1)
            guard largest.height <= Scene.maxHeight, largest.height * largest.width <= Scene.maxPixels else {
                throw ValueError(option: countOption, value: countText,
                                 accepted: "at most \(Scene.maxHeight) rows (\(Scene.maxPixels) pixels) in all: "
                                     + "\(config.cells.max() ?? 1) \(config.unit) at \(cell.width) px wide make \(largest.width)x\(largest.height)")
            }
            try config.validate()
        }
        return config
    }

    /// A comma-separated list, each item turned into a value by `make`
    /// (nil rejects it); duplicates dropped, order kept.
    private func parseList<T: Equatable>(_ text: String, option: String, accepted: String,
                                         _ make: (String) -> T?) throws -> [T] {
        var values: [T] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = item.trimmingCharacters(in: .whitespaces).lowercased()
            guard let value = make(trimmed) else { throw ValueError(option: option, value: text, accepted: accepted) }
            if !values.contains(value) { values.append(value) }
        }
        return values
    }
}

/// Ctrl-C during a benchmark: the first asks the run to stop after the row
/// under way (the report is written, marked interrupted, and the command
/// exits 130); a second ends the process at once.
enum Interruption {
    nonisolated(unsafe) private static var flag: Int32 = 0

    static var requested: Bool { flag != 0 }

    static func install() {
        _ = requested // the flag exists before the handler can touch it
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            if Interruption.flag != 0 {
                signal(SIGINT, SIG_DFL)
                raise(SIGINT)
            }
            Interruption.flag = 1
        }
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
    }
}
