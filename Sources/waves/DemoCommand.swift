import ArgumentParser
import Foundation
import WaveCore
import WaveEffects
import WavesKit
import WaveGL
import WaveImageIO
import WaveWindow

/// `waves demo`: parses and checks the options, then opens the side-by-side
/// window (or renders the same comparison headless where there is no display).

extension DemoLayout: ExpressibleByArgument {}
extension Pacing: ExpressibleByArgument {}
extension PixelOverlayMode: ExpressibleByArgument {}
extension HUDMode: ExpressibleByArgument {}

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Both strategies side by side in one window, on one clock, with their live costs.",
        discussion: DemoSettings.keysAndDisplay + """


            Each effect is a subcommand with its own options ('waves demo dots --help'); with none named, the sine \
            first. --scene NAME is the short form: 'waves demo --scene dots' is 'waves demo dots'.

            Examples:
              waves demo
              waves demo waveform --size 1200x300
              waves demo jelly --pacing timer --stall 100
              waves demo --headless --screenshot comparison.png
              waves demo table --shadow --overlay blended --headless --screenshot blended.png
            """,
        subcommands: EffectCommands.demo,
        defaultSubcommand: EffectCommands.standardDemo
    )
}

/// What the demo takes besides the effect: the window, its pacing and what it shows.
struct DemoSettings: ParsableArguments {
    /// The keys and what the display shows, for every demo's help.
    static var keysAndDisplay: String { ComparisonWindow.help(effectCycle: DemoEffect.cycleText) }


    @Option(help: "both (CPU left, GL right), cpu or gl (one strategy full width).")
    var backend: DemoLayout = .both

    @Option(help: "Window size WxH in pixels (default: 1280x720).", transform: parseSize)
    var size = PixelSize(width: 1280, height: 720)

    @Option(parsing: .unconditional, help: "Quit after this many seconds, at most 86400 (headless: measure this many seconds of frames at 60 a second, at most 600; default 2).")
    var duration: Double?

    @Option(help: "Save the last frame of the whole window to this PNG (headless: where the picture goes).")
    var screenshot: String?

    @Option(parsing: .unconditional, help: "Scene time in seconds to start from.")
    var time: Double = 0

    @Flag(help: "Start paused (Space resumes).")
    var paused = false

    @Flag(help: "Skip the window: render the comparison headless to a PNG.")
    var headless = false

    @Option(help: "In the window, what starts the next frame: vsync (the display), timer (sleep 1/60 s after each frame, as a plain timer does) or free (unpaced).")
    var pacing: Pacing = .vsync

    @Option(parsing: .unconditional, help: "In the window, sleep this many milliseconds inside one frame every second, to see the fixed-timestep cap at work (0 to 1000; default 0).")
    var stall: Double = 0

    @Flag(name: .customLong("on-change"), inversion: .prefixedNo, help: "In the window, draw a frame only when the picture may change (the layer tree says when) or a key is pressed, sleeping in between: a paused or still scene, or a snapped waveform, uses no CPU between changes (default: on for the waveform, whose snapped motion changes the picture only when the playhead crosses a whole pixel: about once a second with --fit over a long track, as the lesson measured, as often as it scrolls a pixel otherwise; off for the others).")
    var onChangeChoice: Bool?

    @Option(help: "Over both halves, what each strategy did to the frame's pixels (O cycles it): off, updated (pixels painted in software this frame, yellow) or blended (layers blended at each pixel: green 1, yellow 2, orange 3, red 4+); counting costs both strategies time while an overlay shows.")
    var overlay: PixelOverlayMode = .off

    @Option(help: "The display over each half (H cycles it): off, compact (the strategy, its CPU and GPU milliseconds a frame, the frame rate, the effect's line and a graph of the last 180 frames) or full (every line, and the graph).")
    var hud: HUDMode = .compact

    @Flag(name: .customLong("follow-links"), help: ArgumentHelp(AtomicFile.followLinksHelp))
    var followLinks = false

    func run(_ wave: EffectOptions) throws {
        AtomicFile.followsLinks = followLinks
        let size = try size.validated()
        try checkFinite(time, option: "--time")
        if let duration, !(duration.isFinite && duration > 0 && duration <= 86400) {
            throw ValueError(option: "--duration", value: "\(duration)", accepted: "a positive number of seconds, at most 86400 (a day)")
        }
        guard stall.isFinite, (0...1000).contains(stall) else {
            throw ValueError(option: "--stall", value: "\(stall)", accepted: "milliseconds from 0 to 1000")
        }
        // A scene whose time costs work (a simulation from 0) is checked before the window opens (a folder's first file).
        let first = wave.atFirstFileOfFolder
        try first.makeScene(width: size.width, height: size.height).checkTime(time, option: "--time", value: "\(time)")
        let picture = screenshot ?? (headless ? "waves-demo.png" : nil)
        if let picture { try OutputPaths.checkFile(picture) }
        try first.check()
        // The scene of one half (or the whole width for one strategy), checked before any window opens.
        _ = try first.makeScene(width: backend.sceneWidth(windowWidth: size.width), height: size.height)
        var options = ComparisonWindow.Options(request: wave.request(width: size.width, height: size.height),
                                               effects: DemoEffect.cycle(wave, halfWidth: backend.sceneWidth(windowWidth: size.width)),
                                               layout: backend, startTime: time,
                                               paused: paused, duration: duration, wantsScreenshot: picture != nil)
        options.pacing = pacing
        options.stallMilliseconds = stall
        options.drawsOnChange = onChangeChoice ?? (wave.scene == .waveform)
        options.overlay = overlay
        options.hud = hud
        let loop = try wave.frameLoop()
        options.busy = loop.work
        if let microphone = LevelOpener.microphone {
            options.statusLines = {
                [microphone.decibels.map { String(format: "mic %@: %.0f dB", microphone.deviceName, $0) } ?? "mic \(microphone.deviceName): listening"]
            }
        }
        options.frameInterval = loop.frameInterval ?? 1
        options.subpixel = wave.subpixel
        options.physicsStep = loop.physicsStep ?? FrameLoopSettings.standardStep
        options.maxSteps = loop.maxSteps
        options.physicsBudget = loop.physicsBudget
        if !headless {
            do {
                let window = try ComparisonWindow(options: options)
                print("waves demo: \(window.renderer); Space pause, Up/Down count, S motion, E next effect, O pixel overlay, H display, Left/Right tilt gravity (crates), wheel/drag/Page Up/Down scroll (table), 1/2/3 idle/speak/listen (dots), Esc/Q quit")
                let outcome = try window.run()
                print(outcome.summary)
                if let picture, let image = outcome.screenshot {
                    try PNG.write(image, to: picture)
                    print("screenshot: \(picture)")
                }
                return
            } catch let error as RendererError {
                guard case .unavailable = error else { throw error }
                printError("waves: " + headlessFallback(error, doing: "rendering the comparison headless instead (EGL, no window)"))
            }
        }
        if pacing != .vsync || stall > 0 || onChangeChoice == true || loop.physicsBudget != nil {
            printError("waves: --pacing, --stall, --on-change and --physics-budget pace a window; the headless comparison draws its frames at fixed 1/60 s steps")
        }
        for line in try HeadlessComparison.write(options, to: picture ?? "waves-demo.png") { print(line) }
    }
}
