import ArgumentParser
import Foundation
import WaveBench
import WaveImageIO
import WaveCore
import WaveEffects
import WavesKit

/// `waves bench`: parses and checks the options, then hands over to WaveBench.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure both strategies over a sweep of counts (cells, dots or voice panels), or reproduce a published experiment.",
        discussion: """
            Prints a table to stdout; --json, --csv and --chart write files. Figures are only meaningful from a \
            release build (make bench). The default sweep takes about 10 minutes on 2 cores: fewer --frames or --cells \
            for a quick look.

            --json writes version 2 of the report: the machine, GL_RENDERER, and per backend and count the medians \
            and 95th percentiles of the strategy's CPU, the process's CPU, GPU and wall milliseconds a frame, with the \
            pixels and mechanisms of one frame; a preset's object beside them. \
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
              waves bench lottie --headless --file ../shared/lottie --json lottie.json
            """,
        subcommands: EffectCommands.bench,
        defaultSubcommand: EffectCommands.standardBench
    )
}

extension BenchRequest.Preset: ExpressibleByArgument {}

/// What a benchmark takes besides the effect: strategies, frames, presets and outputs.
struct BenchSettings: ParsableArguments {
    typealias Preset = BenchRequest.Preset

    @Option(help: "Strategies to measure, a comma-separated list of cpu and gl.")
    var backend = "cpu,gl"

    @Option(help: "One cell's size WxH in pixels (default: 320x80; the Lottie bench: the size each file is drawn at, 512x512).", transform: parseSize)
    var size: PixelSize?

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

    @Option(help: "table (waves bench table): the published phone experiment (a 375x667 screen of the scrolling table paced at 60 fps: idle, scrolling at --scroll-speed, 1000 px/s unless given, idle again; --shadow, --no-shadow-cache apply); waveform (waves bench waveform): the published audio player; pacing (waves bench jelly, dots, voice, crates or ball): the effect under a plain timer, unpaced and, in a window with vsync, vsync; raster (waves bench sine): the CPU strategy's frame beside cairo's fill of the same polygon and a plain memset, at 320x80, 800x200, 1920x1080 and on a steep wave (and, beside a GL context, our draw with each frame copied to the GPU or drawn where it reads it); primitives: each primitive of the layer tree alone on the table's screen (boxes still and moving, a fixed path in a clip, a dynamic path, replicated boxes, a picture, a mask, rasterized layers with shadows), both strategies, process CPU a frame over --frames frames; lottie (waves bench lottie --file F|DIR): every frame of each file by both strategies beside rlottie and ThorVG (--peers), three rounds taking turns, a verdict per file. A preset replaces the sweep, so the counts do not apply, nor --size but to lottie, nor --frames but to primitives; with no effect named, table, raster and primitives draw their own, pacing the jelly.")
    var preset: Preset?

    @Option(help: "--preset raster: also race a native Blend2D build (not a Debian package: built from its public sources), this folder's lib/libblend2d.so, one thread.")
    var blend2d: String?

    @Option(help: "The Lottie bench's peers: the Python environment whose wheels hold rlottie's and ThorVG's libraries (default: .build/lottie-venv, which contrib/lottie/setup-venv.sh makes).")
    var peers: String?

    @Option(name: .customLong("track-minutes"), parsing: .unconditional, help: "The waveform preset's track length in minutes (default: 10, as published).")
    var trackMinutes: Double?

    @Option(parsing: .unconditional, help: "Seconds a preset runs each strategy for (the table preset: each of its three phases, default 3; the pacing preset 5; the waveform preset 5 per row; the raster preset 3 per frame size).")
    var seconds: Double?

    @Flag(name: .customLong("follow-links"), help: ArgumentHelp(AtomicFile.followLinksHelp))
    var followLinks = false

    /// The bench's own options, as its library checks and writes them.
    var request: BenchRequest {
        var request = BenchRequest()
        (request.preset, request.frames, request.warmup) = (preset, frames, warmup)
        (request.json, request.csv, request.chart) = (json, csv, chart)
        (request.stall, request.blend2d, request.trackMinutes, request.seconds, request.peers) = (stall, blend2d, trackMinutes, seconds, peers)
        return request
    }

    func run(_ effect: EffectOptions) throws {
        AtomicFile.followsLinks = followLinks
        // A bench's count option is the list of counts it sweeps.
        var wave = effect
        wave.countsAreLists = true
        let request = self.request.presetDefaulted(for: wave.scene)
        try request.check(for: wave.scene)
        var config = try request.config(for: wave, backends: backend, cellSize: size)
        Interruption.install()
        config.isInterrupted = { Interruption.requested }
        let runner = makeRunner(config, subpixel: wave.subpixel)
        let bar = TerminalProgress.forTerminal(orLogEvery: BenchRequest.logInterval)
        var report: BenchReport
        do { report = try request.run(wave, config: config, on: runner, progress: bar) } catch {
            bar.finish()
            throw error
        }
        bar.finish()
        for notice in runner.notices { printError("waves: \(notice)") }
        report.wavesVersion = Waves.version
        report.commit = Waves.installedCommit ?? "unknown"
        report.mode = runner.host.show == nil ? "headless" : "window"
        report.warmup = config.warmup
        report.interrupted = report.interrupted || Interruption.requested

        print(request.table(report), terminator: "")
        let written = try request.write(report)
        if !written.isEmpty { print("wrote " + written.joined(separator: ", ")) }
        if report.interrupted {
            printError("waves: interrupted by \(Interruption.signal == SIGTERM ? "SIGTERM" : "Ctrl-C"): the report holds what was finished before it")
            throw ExitCode(128 + (Interruption.signal ?? SIGINT))
        }
    }

    /// A window where asked for and possible (the size of one screen of the
    /// scene, at most 1920x1080); headless otherwise, saying why.
    private func makeRunner(_ config: BenchConfig, subpixel: SubpixelMode) -> BenchRunner {
        if preset == .raster {
            // CPU rasterisers only; a headless context, where one can be made, takes the CPU strategy's uploads.
            return BenchRunner(config: config, host: BenchHosts.headless(subpixel: subpixel))
        }
        if !headless {
            let screen = preset == .table ? TablePreset.screen
                : preset == .pacing ? BenchRequest.pacingScreen
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
}
