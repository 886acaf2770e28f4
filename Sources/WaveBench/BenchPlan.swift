import Foundation
import WaveCore
import WaveEffects
import WavesKit

/// What a benchmark of an effect measures: the sweep's counts and scenes,
/// or a preset's, from the effect as the command names it (`EffectOptions`),
/// every option checked against the effect's declarations before anything runs.
extension BenchRequest {
    /// The sweep (or the preset's run) for the effect `wave`, every option
    /// checked, with errors that name the option and what it accepts.
    package func config(for wave: EffectOptions, backends: String, cellSize size: PixelSize?) throws -> BenchConfig {
        var config = BenchConfig()
        config.backends = try Self.parseList(backends, option: "--backend",
                                        accepted: "a comma-separated list of cpu and gl, for example cpu,gl") {
            Backend(rawValue: $0)
        }
        if preset == .lottie {
            guard wave.scene == .lottie else {
                throw ValueError(option: "--scene", value: wave.scene.rawValue, accepted: "lottie with --preset lottie (waves bench lottie --file F|DIR)")
            }
            guard let file = wave.given["file"] else {
                throw ValueError(option: "--file", value: "(none)", accepted: "a Lottie JSON file or a folder of them (waves bench lottie --file F|DIR)")
            }
            config.lottieFiles = try BenchRunner.lottieFiles(file)
            let cell = try (size ?? Self.lottieSize).validated()
            // One scene the size asked (a window, where one is asked for, shows it).
            config.cellSize = (cell.width, cell.height)
            config.cells = [1]
            config.warmup = warmup
            return config
        }
        // The scene's count, as the registry describes it (an effect without one: the sine's, refused below).
        let counted = Effects.named(wave.scene)?.count ?? Effects.named(.sine)!.count!
        let largest = counted.sweepLimit
        let defaultCounts = counted.sweep.map(String.init).joined(separator: ",")
        let countOption = counted.option, countText = wave.countText(counted.option) ?? defaultCounts
        let cellsAccepted = "a comma-separated list of whole numbers from 1 to \(largest), for example \(defaultCounts)"
        config.cells = try Self.parseList(countText, option: countOption, accepted: cellsAccepted) { text in
            Int(text).flatMap { (1...largest).contains($0) ? $0 : nil }
        }
        let cell = try (size ?? PixelSize(width: config.cellSize.width, height: config.cellSize.height)).validated()
        config.cellSize = (cell.width, cell.height)
        config.frames = frames
        config.warmup = warmup
        if preset == .primitives {
            guard wave.scene == .sine else {
                throw ValueError(option: "--scene", value: wave.scene.rawValue, accepted: "nothing with --preset primitives, which draws its own scenes")
            }
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
                             accepted: "\(swept.joined(separator: ", ")) (a sweep scales a count; the waveform has --preset waveform; "
                                 + Effects.all.filter { $0.paced && $0.count == nil }.map(\.name.rawValue).joined(separator: ", ") + " have --preset pacing)")
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

    /// Runs the preset asked for, or the sweep of `config`, on `runner`.
    package func run(_ wave: EffectOptions, config: BenchConfig, on runner: BenchRunner,
                     progress: TerminalProgress?) throws -> BenchReport {
        var report: BenchReport
        switch preset {
        case .table: report = try runner.runTable(seconds: seconds ?? 3, scrollSpeed: try wave.declared(Table.parameters, defaults: Table(width: 1, height: 1)).scrollSpeed ?? TablePreset.scrollSpeed,
                                                  progress: progress?.update)
        case .pacing where wave.scene == .ball:
            let settings = try wave.settings(), loop = try wave.frameLoop()
            let ball = try wave.declared(Ball.parameters, defaults: Ball(width: 1, height: 1))
            report = try runner.runBall(seconds: seconds ?? 5, busy: loop.work, frameInterval: loop.frameInterval ?? 1,
                                        timerMode: ball.timerMode, makeScene: { driver in
                                            var each = settings
                                            each.adjust(Ball.self) { $0.driver = driver }
                                            return try Effects.named(.ball)!.scene(each, SceneRequest(
                                                width: Self.ballScreen.width, height: Self.ballScreen.height, count: 0, snapsToPixel: false))
                                        }, progress: progress?.update)
        case .pacing:
            let loop = try wave.frameLoop()
            report = try runner.runPacing(seconds: seconds ?? 5, stallMilliseconds: stall ?? 0,
                                          step: loop.physicsStep ?? FrameLoopSettings.standardStep, maxSteps: loop.maxSteps,
                                          physicsBudget: loop.physicsBudget, progress: progress?.update)
        case .raster:
            let copying = try runner.host.makeCopyingUploader()
            let shared = runner.host.sharesFrames ? try runner.host.makeUploader() : nil
            var raster = try RasterPreset.run(seconds: seconds ?? 3, blend2d: blend2d, copying: copying, shared: shared,
                                              makeScene: Self.rasterScene,
                                              isInterrupted: config.isInterrupted, progress: progress?.update)
            raster.interrupted = raster.interrupted || Interruption.requested
            raster.renderer = copying == nil ? nil : runner.host.deviceName
            report = BenchReport(renderer: "none (CPU only)", results: [])
            report.raster = raster
            report.interrupted = raster.interrupted
        case .primitives:
            report = try runner.runPrimitives(Primitives.all.map { item in
                PrimitivesPreset.Case(name: item.name, drawnBy: item.drawnBy, makeScene: item.make)
            }, progress: progress?.update)
        case .waveform: report = try runner.runWaveform(try WaveformPresetInput.track(minutes: trackMinutes ?? 10,
                                                                                       audio: wave.inputs().waveformInput()),
                                                        seconds: seconds ?? 5, progress: progress?.update)
        case .lottie:
            let peersFolder = peers ?? (FileManager.default.fileExists(atPath: Self.peersDefault) ? Self.peersDefault : nil)
            report = try runner.runLottie(files: config.lottieFiles, width: config.cellSize.width, height: config.cellSize.height,
                                          rounds: Self.lottieRounds, peers: peersFolder, progress: progress?.update)
        case nil:
            report = try runner.run(progress: progress?.update) { seconds in
                printError("waves bench: \(config.cells.count * config.backends.count) rows of \(config.warmup) + \(config.frames) frames; "
                           + "expect about \(BenchRequest.duration(seconds)) (from two timed frames of the largest scene); Ctrl-C stops after the row under way")
            }
        }
        return report
    }

    /// The raster preset's scene for one case: one sine cell, the default colours.
    package static func rasterScene(_ item: RasterPreset.Case) throws -> Scene {
        var cells = SineCells(width: item.width, height: item.height)
        cells.wave.amplitude = item.amplitude
        cells.wave.cycles = item.cycles
        return try cells.scene()
    }

    /// The pacing preset's scene.
    package static let pacingScreen = (width: 600, height: 200)
    /// The ball's, as the chapter's view.
    package static let ballScreen = (width: 300, height: 300)

    /// A comma-separated list, each item turned into a value by `make`
    /// (nil rejects it); duplicates dropped, order kept.
    private static func parseList<T: Equatable>(_ text: String, option: String, accepted: String,
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
