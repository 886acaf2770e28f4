import ArgumentParser
import Foundation
import WaveCore
import WaveGL
import WaveImageIO

/// `waves render`: one frame to a PNG, or a numbered sequence, through the
/// backend the chooser gives.

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene headless to a PNG, or a numbered sequence of PNGs."
    )

    @Option(help: "auto (GL if a context can be made, else CPU), cpu or gl.")
    var backend: BackendChoice = .auto

    @Option(name: .customLong("gl-method"), help: "How GL draws a split paint: mask (one pass) or two-clips (two scissored passes).")
    var glMethod: SplitMethod = .mask

    @Option(help: "Image size WxH in pixels (each side 1 to 16384).", transform: parseSize)
    var size = PixelSize(width: 800, height: 200)

    @Option(parsing: .unconditional, help: "Time in seconds of the (first) frame.")
    var time: Double = 0

    @Option(parsing: .unconditional, help: "Number of frames; more than 1 writes frame-0000.png ... into the --out folder.")
    var frames: Int = 1

    @Option(parsing: .unconditional, help: "Frames per second of a sequence.")
    var fps: Double = 60

    @Option(help: "Output PNG file, or with --frames an existing folder (default wave.png, or . for frames).")
    var out: String?

    @OptionGroup var sceneOptions: SceneOptions

    func run() throws {
        let size = try size.validated()
        try checkFinite(time, option: "--time")
        guard (1...100_000).contains(frames) else {
            throw UsageError(option: "--frames", value: "\(frames)", accepted: "a whole number from 1 to 100000")
        }
        guard fps.isFinite, fps > 0, (time + Double(frames - 1) / fps).isFinite else {
            throw UsageError(option: "--fps", value: "\(fps)",
                             accepted: "a positive number small enough that every frame's time is finite")
        }
        try sceneOptions.wave.check()
        try sceneOptions.wave.jelly.refuseMaxSteps(where: "render")
        let scene = try sceneOptions.makeScene(width: size.width, height: size.height)
        let sequence = frames > 1
        let destination = out ?? (sequence ? "." : "wave.png")
        if sequence { try OutputPaths.checkFolder(destination) } else { try OutputPaths.checkFile(destination) }

        let choice = try BackendChooser.make(backend, for: scene, splitMethod: glMethod)
        if let notice = choice.notice { printError("waves: \(notice)") }
        let renderer = choice.renderer
        let target = try renderer.makeTarget()

        if sequence {
            let times = (0..<frames).map { time + Double($0) / fps }
            let onTerminal = isatty(STDERR_FILENO) == 1
            try FrameWriter.write(renderer: renderer, into: target, times: times, folder: destination) { done, total in
                if onTerminal { printError("\rframe \(done)/\(total)", newline: done == total) }
            }
            print("wrote \(frames) frames to \(destination)/frame-0000.png ... \(OutputPaths.frameName(frames - 1)) (\(renderer.backend.rawValue) backend)")
        } else {
            try renderer.draw(time: time, into: target)
            try PNG.write(try target.readback(), to: destination)
            print("wrote \(destination) (\(size), t = \(time) s, \(renderer.backend.rawValue) backend)")
        }
    }
}
