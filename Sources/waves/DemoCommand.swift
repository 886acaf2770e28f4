import ArgumentParser
import Foundation
import WaveCore
import WaveEffects
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
    static let keysAndDisplay = """
        Keys: Space pause/resume, Up/Down the effect's count (cells, dots, voice panels, rows), S motion (linear / exact / snap), \
        E next effect (\(DemoSettings.effectCycle)), Left/Right tilt gravity (crates), the mouse wheel, dragging and \
        Page Up/Down scroll (table), 1 idle, 2 speak, 3 listen (dots: each switch handed off over 0.33 s), \
        O pixel overlay (off / updated regions / blended layers), H the display (off / compact / full), Esc or Q quit.
        With no display, renders the comparison headless to a PNG (the same display) and prints its figures.

        The display over each half (H, or --hud to start with one; default compact): the strategy (how it \
        draws, e.g. "CPU: redraw every frame", "GL: render once, animate on the GPU"); "CPU N ms/frame": \
        milliseconds of CPU time (the thread's) the strategy's own drawing takes a frame, the CPU strategy's \
        upload of its pixels included and showing the frame left out, averaged over half a second; "GPU N \
        ms/frame": milliseconds of GPU time the same work takes, from GL timer queries ("-" until one arrives); \
        "fps": frames drawn a second, the same in both halves (one loop draws both); the effect's line (crates: \
        gravity in px/s2, pixels a second squared; table: the scroll offset in px, pixels, and the first row in \
        view; ball: its driver; a microphone: its level in dB); the legend of an overlay that shows; and the \
        graph: the last 180 frames (3 s at 60 a second), newest at the right, orange bars CPU ms, a blue line \
        GPU ms, 0 at the bottom to 25 ms at the top (a frame over 25 ms reaches the top), and the white line at \
        16.7 ms, one refresh at 60 Hz (a frame above it cannot keep 60 fps).
        Compact shows "motion" (linear, exact or snap: how the GL half moves by fractions of a pixel) and PAUSED \
        beside the rate. Full adds: the effect, its count, the half's size in pixels, "t" the scene time in \
        seconds; in a window, the pacing over \
        the last 240 frames: the median and "p99" (99th percentile) interval between frame starts, "missed" \
        (intervals over 1.5 refreshes), "bunched" (under half a refresh), "1/60 error" (how far an animation that \
        counts 1/60 s a frame is from the clock), the most physics steps a frame ran and the seconds the cap \
        dropped; crates with --physics-budget: the physics' share, its step and how many refreshes a frame; the \
        ball's timer: its callbacks, late, doubled and skipped; with an overlay, "pixels a frame": rasterised on \
        the CPU, written, blended and written offscreen (k thousands, M millions); and the keys (pgup, pgdn: Page Up, Page Down).
        """

    /// The effects E cycles through, from the registry: those that need an input only when it is given.
    static var effectCycle: String {
        Effects.all.map { effect in effect.needs.map { "\(effect.name.rawValue) when \($0) is given" } ?? effect.name.rawValue }
            .joined(separator: ", ")
    }

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
        // A scene whose time costs work (a simulation from 0) is checked before the window opens.
        try wave.makeScene(width: size.width, height: size.height).checkTime(time, option: "--time", value: "\(time)")
        let picture = screenshot ?? (headless ? "waves-demo.png" : nil)
        if let picture { try OutputPaths.checkFile(picture) }
        try wave.check()
        // The scene of one half (or the whole width for one strategy), checked before any window opens.
        _ = try wave.makeScene(width: backend.sceneWidth(windowWidth: size.width), height: size.height)
        var options = ComparisonWindow.Options(request: wave.request(width: size.width, height: size.height),
                                               effects: effects(wave, halfWidth: backend.sceneWidth(windowWidth: size.width)),
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
        try renderHeadless(options, to: picture ?? "waves-demo.png")
    }

    /// The effect asked for first, then the others E cycles to (the
    /// registry's, those whose input is given), each with the user's options
    /// and a count of its own.
    private func effects(_ wave: EffectOptions, halfWidth: Int) -> [DemoEffect] {
        let drawable = Effects.all.filter { $0.needs == nil || ($0.needs == "--outline" && wave.given["outline"] != nil) }
        let ordered = drawable.filter { $0.name == wave.scene } + drawable.filter { $0.name != wave.scene }
        return ordered.map { effect in
            var options = wave
            options.scene = effect.name
            let settings = (try? options.settings(openingInputs: false)) ?? EffectSettings()
            let size = { (height: Int) in SceneRequest(width: halfWidth, height: height, count: 0, snapsToPixel: options.snap) }
            var count = 1
            if let c = effect.count {
                // --cells counts the effect asked for (sine cells or voice panels), not the other's.
                let asked = c.option == "--cells" && effect.name != wave.scene ? nil : options.askedCount
                count = asked ?? c.standard(settings, size(1))
            }
            return DemoEffect(name: effect.name.rawValue, countLabel: effect.count?.unit ?? "", count: count, states: effect.states,
                              maxCount: { height in effect.count?.limit(settings, size(height)) ?? 1 }) { try options.makeScene($0) }
        }
    }

    private func renderHeadless(_ options: ComparisonWindow.Options, to path: String) throws {
        try OutputPaths.checkFile(path)
        do {
            // Frames at 60 a second of scene time: the duration's worth (at most 10 minutes), 2 s without one.
            let frames = options.duration.map { max(1, Int((min($0, 600) * 60).rounded())) } ?? 120
            let outcome = try HeadlessComparison.render(options: options, frames: frames)
            try PNG.write(outcome.image, to: path)
            print("wrote \(path): the comparison at t = \(options.startTime) s, headless on \(outcome.renderer)")
            print("measured over \(counted(outcome.frames, "frame")): \(outcome.summary)")
        } catch let error as RendererError {
            guard case .unavailable = error else { throw error }
            // No GL at all: the CPU strategy alone still makes the picture.
            printError("waves: \(error); drawing the CPU strategy alone")
            var request = options.request
            request.width = options.layout.sceneWidth(windowWidth: request.width)
            request.count = options.effects[0].count
            let cpu = try BackendChooser.make(.cpu, for: try options.effects[0].makeScene(request)).renderer
            let target = try cpu.makeTarget()
            let start = Clocks.threadCPU()
            for i in 0..<60 { try cpu.draw(time: options.startTime - Double(59 - i) / 60, into: target) }
            let ms = (Clocks.threadCPU() - start) * 1000 / 60
            try PNG.write(try target.readback(), to: path)
            print("wrote \(path): the CPU strategy at t = \(options.startTime) s")
            print("\(Format.strategy(.cpu)): \(Format.perFrame(.cpuMs, ms)) (no GL, so no upload)")
        }
    }
}
