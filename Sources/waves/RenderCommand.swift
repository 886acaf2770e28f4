import ArgumentParser
import Foundation
import WaveCatalogue
import WaveCore
import WaveEffects
import WavesKit
import WaveGL
import WaveAudio
import WaveImageIO

/// `waves render`: one frame to a PNG, or a numbered sequence, through the
/// backend the chooser gives.

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene headless to a PNG, a numbered sequence of PNGs, or an animation (.mp4, .webm, .gif, animated .png).",
        discussion: """
            Each effect is a subcommand with its own options ('waves render waveform --help'); with none named, \
            the sine. --scene NAME is the short form: 'waves render --scene dots' is 'waves render dots'.

            Examples:
              waves render --out wave.png
              waves render sine --cells 3 --cycles 2 --amplitude 0.3 --time 0.25 --out cells.png
              waves render waveform --audio song.mp3 --time 30 --out bars.png
              waves render dots --size 375x160 --level 1 --time 3 --out dots.png
              waves render voice --style ios7 --level-from speech.wav --time 2 --out voice.png
              waves render jelly --bounce 0.3 --frames 120 --out frames/
              waves render sine --cells 3 --loop --out loop.mp4
              waves render dots --time 3 --loop --fps 50 --out dots.gif
            Exit statuses: 0 written; 64 bad usage; 65 bad input data; 66 missing input; 69 GL unavailable (--backend gl); \
            71 not enough memory; 73 cannot write the output.
            """,
        subcommands: EffectCommands.render,
        defaultSubcommand: EffectCommands.standardRender
    )

}

/// What a render takes besides the effect: the backend, size, time, frames and output.
struct RenderSettings: ParsableArguments {

    @Option(help: "auto (GL if a context can be made, else CPU), cpu or gl.")
    var backend: BackendChoice = .auto

    @Option(help: "Image size WxH in pixels (each side 1 to 16384) (default: 800x200).", transform: parseSize)
    var size = PixelSize(width: 800, height: 200)

    @Option(parsing: .unconditional, help: "Time in seconds of the (first) frame.")
    var time: Double = 0

    @Option(parsing: .unconditional, help: "Number of frames, 1 to 100000; more than 1 writes frame-0000.png ... into the --out folder.",
            transform: parseWhole("a whole number of frames from 1 to 100000"))
    var frames: Int = 1

    @Option(parsing: .unconditional, help: "Frames per second of a sequence (default: the content's own rate, a Lottie file's, else 60).")
    var fps: Double?

    @Option(help: "Output PNG file, - for stdout, with --frames (or --loop) a folder (made when missing) or an animation: .mp4, .webm, .gif, or .png/.apng for an animated PNG, made by ffmpeg (default: wave.png, or . for frames).")
    var out: String?

    @Flag(help: "As many frames as one whole period of the scene (the least common multiple of its animations), so the file loops without a jump; instead of --frames.")
    var loop = false

    @Flag(help: "With --frames: replace an earlier sequence's frame-NNNN.png files in the folder (those past the new sequence are removed once it is whole); without it, a folder holding frames is refused.")
    var overwrite = false

    @Flag(help: "Refuse (exit 65, nothing written) an input not read whole instead of drawing what was read, with a warning: audio whose decoding stopped early (damaged or truncated), a Lottie file using what Waves does not draw yet.")
    var strict = false

    @Flag(help: "Draw nothing: list every item of the frame at --time with the mechanism the backend draws it by and why (GL: the tree's plan under the driver's policy; WAVES_GL_POLICY=gpu shows a GPU's plan on a software driver).")
    var explain = false

    @Flag(name: .customLong("follow-links"), help: ArgumentHelp(AtomicFile.followLinksHelp))
    var followLinks = false

    func run(_ wave: EffectOptions) throws {
        AtomicFile.followsLinks = followLinks
        DecodeReport.strict = strict
        let size = try size.validated()
        try checkFinite(time, option: "--time")
        if loop && frames != 1 { throw ValueError(option: "--loop", value: "", accepted: "either --loop or --frames, not both (--loop chooses the frames)") }
        guard (1...100_000).contains(frames) else { throw ValueError(option: "--frames", value: "\(frames)", accepted: "a whole number from 1 to 100000") }
        let asked = fps ?? 60
        guard asked.isFinite, asked > 0, (time + Double(frames - 1) / asked).isFinite else {
            throw ValueError(option: "--fps", value: "\(asked)", accepted: "a positive number small enough that every frame's time is finite")
        }
        let isBatch = try wave.scene == .waveform && wave.inputs().isBatch
        if explain && (out != nil || frames != 1 || loop || isBatch) {
            throw ValueError(option: "--explain", value: "", accepted: "one frame of one scene and no output (it draws nothing: --time picks the frame)")
        }
        if isBatch { return try renderTracks(wave, size: size) }
        try wave.check()
        try wave.refuseLoopParameters(in: "render", allowing: [])
        let scene = try wave.makeScene(width: size.width, height: size.height)
        try scene.checkTime(time + Double(frames - 1) / asked, option: frames > 1 ? "--frames" : "--time", value: frames > 1 ? "\(frames)" : "\(time)")
        // Content with a rate of its own (a Lottie file) is written at it, and whole to a video or folder unless a frame or time is asked.
        let fps = self.fps ?? scene.frameRate ?? asked, whole = scene.frameRate != nil && frames == 1 && time == 0 && wave.given["frame"] == nil
        var frames = self.frames, step = 1 / fps
        if loop || (whole && (out.map { AnimationFormat(path: $0, frames: 2) != nil || $0.hasSuffix("/") } ?? false)) {
            guard let period = scene.loopPeriod(), period > 0 else {
                throw ValueError(option: "--loop", value: "", accepted: "a scene that repeats within 60 s (not a travelling outline, a waveform, a level from input, or a still scene)")
            }
            // Frames spaced period / n, so the last frame leads back to the first exactly.
            frames = max(2, Int((period * fps).rounded()))
            guard frames <= 100_000 else { throw ValueError(option: "--loop", value: "", accepted: "a period of at most 100000 frames at --fps \(fps)") }
            step = period / Double(frames)
            try scene.checkTime(time + period, option: "--loop", value: "")
        }
        if let format = AnimationFormat(path: out ?? "", frames: frames), out != "-" {
            try writeAnimation(scene, format: format, frames: frames, step: step, fps: fps, size: size, wave: wave)
            return
        }
        if explain { return try printPlan(scene, wave: wave) }
        let sequence = frames > 1
        var destination = out ?? (sequence ? "." : "wave.png")
        // A sequence's folder named with a trailing slash ("frames/") is the same folder.
        if sequence, let folder = OutputPaths.frameFolder(destination) { destination = folder }
        if destination == "-" && sequence {
            throw ValueError(option: "--out", value: "-", accepted: "a folder with --frames (stdout takes one PNG)")
        }
        if destination.hasSuffix("/") && !sequence {
            throw ValueError(option: "--out", value: destination, accepted: "a file name for one frame (a folder only with --frames)")
        }
        if overwrite && !sequence {
            throw ValueError(option: "--overwrite", value: "", accepted: "only with --frames (a single PNG is replaced whole anyway)")
        }
        if sequence { try OutputPaths.prepareSequenceFolder(destination, overwrite: overwrite) }
        else if destination != "-" { try OutputPaths.checkFile(destination) }

        let renderer = try makeRenderer(scene, wave)
        let target = try renderer.makeTarget()

        if sequence {
            let times = (0..<frames).map { time + Double($0) * step }
            let progress = TerminalProgress.forTerminal(unit: "frame")
            try FrameWriter.write(renderer: renderer, into: target, times: times, folder: destination) { done, _ in
                progress?.update(done: done, of: frames)
            }
            progress?.finish()
            if overwrite { try OutputPaths.removeStaleFrames(in: destination, keeping: frames) }
            print("wrote \(counted(frames, "frame")) to \(destination)/frame-0000.png ... \(OutputPaths.frameName(frames - 1)) (\(renderer.backend.rawValue) backend)")
        } else {
            try renderer.draw(time: time, into: target)
            if destination == "-" {
                try PNG.writeToStandardOutput(target)
                return
            }
            try PNG.write(target, to: destination)
            print("wrote \(destination) (\(size), t = \(time) s, \(renderer.backend.rawValue) backend)")
        }
    }

    /// The renderer the chooser gives for --backend, saying on stderr what it
    /// chose instead of what was asked and (but to explain) how it moves by fractions of a pixel.
    private func makeRenderer(_ scene: Scene, _ wave: EffectOptions, explaining: Bool = false) throws -> Renderer {
        let choice = try BackendChooser.make(backend, for: scene, subpixel: wave.subpixel)
        if let notice = choice.notice { printError("waves: \(notice)") }
        if !explaining { wave.reportSubpixel(of: choice.renderer) }
        return choice.renderer
    }

    /// `--explain`: every item of the frame at --time, its mechanism and why, as a table on stdout.
    private func printPlan(_ scene: Scene, wave: EffectOptions) throws {
        let renderer = try makeRenderer(scene, wave, explaining: true)
        let plan = try renderer.explain(time: time)
        print("waves render \(wave.scene) --explain: \(renderer.backend.rawValue) backend (\(renderer.rendererName)"
              + (renderer.planPolicy.map { ", \($0)" } ?? "") + "), "
              + "\(scene.width)x\(scene.height), the frame at t = \(time) s: " + counted(plan.count, "item"))
        print(ItemPlan.table(plan), terminator: "")
    }

    /// `waves render waveform --audio tracks/ --out 'out/{name}.png'`: one
    /// image per track at --time, drawn by the CPU strategy (each job its own
    /// renderer; GL contexts are not shared between threads), `--jobs` at a time.
    private func renderTracks(_ wave: EffectOptions, size: PixelSize) throws {
        let inputs = try wave.inputs()
        let batch = try TrackBatch(audio: inputs.audio, jobs: inputs.jobs, force: inputs.force)
        let pattern = out ?? "{name}.png"
        if let peaks = inputs.peaks { ProtectedInputs.add(peaks) }
        try batch.checkPatterns([("--out", pattern)])
        try checkOneImagePerTrack()
        // Every option but the tracks, checked once (on the generated track).
        var options = wave
        for name in ["audio", "jobs", "force"] { options.given[name] = nil }
        try options.check()
        let settings = try options.settings(openingInputs: false)
        let (start, end, peaks, time, request) = (inputs.start ?? 0, inputs.end, inputs.peaks, time, wave.request(width: size.width, height: size.height))
        let summary = batch.run(outputs: { [TrackBatch.output(pattern, for: $0)] }) { track in
            let target = try TrackBatch.drawWaveform(track, settings: settings, request: request, time: time, start: start, end: end, peaks: peaks)
            return { try PNG.write(target, to: TrackBatch.output(pattern, for: track)) }
        }
        try batch.finish(summary, command: "render")
    }

    /// One image per track: what a batch of tracks refuses.
    func checkOneImagePerTrack() throws {
        if frames != 1 || loop {
            throw ValueError(option: loop ? "--loop" : "--frames", value: loop ? "" : "\(frames)", accepted: "one image per track when several are drawn")
        }
        if backend == .gl {
            throw ValueError(option: "--backend", value: "gl", accepted: "cpu or auto when several tracks are drawn (each job draws with its own CPU renderer)")
        }
    }

    /// Frames streamed to ffmpeg, timed by the deterministic frame clock
    /// (frame i at time + i * step), written whole or not at all.
    private func writeAnimation(_ scene: Scene, format: AnimationFormat, frames: Int, step: Double, fps: Double, size: PixelSize, wave: EffectOptions) throws {
        guard let destination = out else { return }
        if overwrite { throw ValueError(option: "--overwrite", value: "", accepted: "only with a folder of frames (an animation is replaced whole)") }
        try OutputPaths.checkFile(destination)
        guard AnimationEncoder.ffmpeg != nil else { throw AnimationError.ffmpegMissing }
        if let warning = format.rateWarning(fps: fps) { printError("waves: warning: " + warning) }
        let renderer = try makeRenderer(scene, wave)
        let progress = TerminalProgress.forTerminal(unit: "frame")
        try AnimationEncoder.write(renderer, into: try renderer.makeTarget(), times: (0..<frames).map { time + Double($0) * step },
                                   format: format, fps: fps, to: destination) { progress?.update(done: $0, of: $1) }
        progress?.finish()
        print("wrote \(destination) (\(format.rawValue), \(frames) frames of \(size) at \(fps) fps, from t = \(time) s, \(renderer.backend.rawValue) backend)")
    }
}
