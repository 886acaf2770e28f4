import Foundation
import WaveCore
import WaveEffects
import WaveImageIO

/// What a benchmark is asked for besides its effect: a preset or the sweep,
/// its frames and seconds, and the files the report goes to; checked once
/// here (each refusal names the option and what it accepts) and written at
/// the end. Ctrl-C asks a run to stop after the row under way (`Interruption`).
package struct BenchRequest {
    /// The published experiments a bench reproduces instead of a sweep.
    package enum Preset: String, CaseIterable, Sendable { case table, waveform, pacing, raster, primitives, lottie }

    package var preset: Preset?
    package var frames = 600
    package var warmup = 30
    package var json: String?
    package var csv: String?
    package var chart: String?
    /// `--preset pacing`: milliseconds slept inside one frame every second.
    package var stall: Double?
    /// `--preset raster`: the folder of a native Blend2D build to race.
    package var blend2d: String?
    /// `--preset waveform`: the generated track's minutes.
    package var trackMinutes: Double?
    /// Seconds a preset runs each strategy for (nil: the preset's own).
    package var seconds: Double?
    /// `--preset lottie`: the Python environment whose wheels hold rlottie's and ThorVG's libraries.
    package var peers: String?
    /// Where contrib/lottie/setup-venv.sh makes that environment, the default where it exists.
    package static let peersDefault = ".build/lottie-venv"
    /// `--preset lottie`: the size each file is drawn at where --size is not given.
    package static let lottieSize = PixelSize(width: 512, height: 512)
    /// `--preset lottie`: the passes over every frame, strategies and peers taking turns.
    package static let lottieRounds = 3
    /// Where stderr is not a terminal (a cluster job's log), seconds between progress lines (none in a shorter run).
    package static let logInterval = 30.0

    package init() {}

    /// The request with the preset an effect's bench is when none is named
    /// (a Lottie file's bench is the comparison with rlottie and ThorVG).
    package func presetDefaulted(for scene: EffectName) -> BenchRequest {
        var request = self
        if request.preset == nil && scene == .lottie { request.preset = .lottie }
        return request
    }

    /// Every check of the bench's own options, for the bench of `scene`.
    package func check(for scene: EffectName) throws {
        // The pacing preset charts a simulation's frame intervals, or the ball's fall per driver.
        let chartsPacing = Effects.taking("--physics-budget").contains(scene) || scene == .ball
        guard (1...1_000_000).contains(frames) else {
            throw ValueError(option: "--frames", value: "\(frames)", accepted: "a whole number of frames from 1 to 1000000")
        }
        guard (0...100_000).contains(warmup) else {
            throw ValueError(option: "--warmup", value: "\(warmup)", accepted: "a whole number of frames from 0 to 100000")
        }
        if let peers, preset != .lottie {
            throw ValueError(option: "--peers", value: peers, accepted: "only with the Lottie bench (waves bench lottie)")
        }
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
        if preset == .pacing, let csv {
            throw ValueError(option: "--csv", value: csv, accepted: "a sweep or the table or waveform preset (the pacing preset writes --json)")
        }
        if let chart { try check(chart: chart, chartsPacing: chartsPacing) }
        // Every output is checked before anything runs, so a bad path costs nothing; all are written at the end.
        for path in [json, csv, chart].compactMap({ $0 }) { try OutputPaths.checkFile(path) }
    }

    private func check(chart: String, chartsPacing: Bool) throws {
        let charted = "a sweep or the waveform preset"
        switch preset {
        case .pacing where !chartsPacing:
            throw ValueError(option: "--chart", value: chart, accepted: charted + ", or the pacing preset with --scene crates (a simulation's frame intervals) or --scene ball (the ball's fall per driver)")
        case .raster, .primitives:
            throw ValueError(option: "--chart", value: chart, accepted: charted + " (the \(preset!.rawValue) preset writes --json and --csv)")
        case .table:
            throw ValueError(option: "--chart", value: chart, accepted: charted + " (the table preset has nothing to chart)")
        default: break
        }
        guard chart.lowercased().hasSuffix(".svg") || chart.lowercased().hasSuffix(".png") else {
            throw ValueError(option: "--chart", value: chart, accepted: "a file name ending in .svg or .png")
        }
        if chart.lowercased().hasSuffix(".png") && !ChartPNG.available {
            throw FileError.cannotWrite(path: chart, reason: "PNG charts are drawn by rsvg-convert, which is not installed (apt-get install librsvg2-bin), or write .svg")
        }
    }

    /// The report's table, as stdout shows it.
    package func table(_ report: BenchReport) -> String {
        if let raster = report.raster { return raster.table(machine: report.machine) }
        if let lottie = report.lottie { return lottie.table(renderer: report.renderer) }
        if let primitives = report.primitives { return primitives.table(renderer: report.renderer) }
        if let pacing = report.pacing { return pacing.table(renderer: report.renderer) }
        if let ball = report.ball { return ball.table(renderer: report.renderer) }
        if let waveform = report.waveform { return waveform.table(renderer: report.renderer, cpus: report.machine.cpus) }
        return preset == .table ? report.presetTable : report.sweepTable
    }

    /// Writes the files asked for; returns their names (none: empty).
    package func write(_ report: BenchReport) throws -> [String] {
        if let json { try AtomicFile.write(try report.jsonData(), to: json) }
        if let csv { try AtomicFile.write(report.waveform?.csv ?? report.raster?.csv ?? report.csv, to: csv) }
        if let chart {
            let svg = report.waveform.map { WaveformChart(report: $0, renderer: report.renderer).svg() }
                ?? report.ball.map { BallChart(report: $0, renderer: report.renderer).svg() }
                ?? PacingChart(report: report)?.svg() ?? BenchChart(report: report).svg()
            if chart.lowercased().hasSuffix(".png") { try ChartPNG.write(svg: svg, to: chart) } else { try AtomicFile.write(svg, to: chart) }
        }
        return [json, csv, chart].compactMap { $0 }
    }

    /// "about 40 s", "about 3 min".
    package static func duration(_ seconds: Double) -> String {
        seconds < 90 ? "\(max(1, Int(seconds.rounded()))) s" : "\(Int((seconds / 60).rounded())) min"
    }
}

/// Ctrl-C (SIGINT) or SIGTERM (what `timeout`, Slurm and Kubernetes send
/// before they kill) during a benchmark: the first asks the run to stop
/// after the row (a Lottie file) under way, so the report is written,
/// marked interrupted, and the command exits 128 + the signal's number (130,
/// 143); a second ends the process at once.
package enum Interruption {
    /// The signal that asked (0: none yet).
    nonisolated(unsafe) private static var flag: Int32 = 0

    package static var requested: Bool { flag != 0 }

    /// The signal that asked, nil while none did.
    package static var signal: Int32? { flag == 0 ? nil : flag }

    package static func install() {
        _ = requested // the flag exists before the handler can touch it
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            if Interruption.flag != 0 {
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
            Interruption.flag = number
        }
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
    }
}
