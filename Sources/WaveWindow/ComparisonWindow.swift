import CGL
import CGLFW
import Foundation
import WaveCore
import WaveImageIO
import WaveGL

/// The demo window: GLFW input and the frame loop around a `ComparisonView`.
/// Implements: vsync-paced frames, Space pause/resume (phase kept), Up/Down
/// cell count, S motion (linear / exact / snap), E next effect, Left/Right
/// tilt gravity (a scene with a simulation: the accelerometer's stand-in,
/// each tilt a timed input), the wheel, a drag and Page Up/Down scroll (a
/// scene with a scroll view, the table: each a timed input), H the display
/// (off / compact / full), Esc/Q quit, resize (textures re-made once per new
/// size), minimise (waits for events instead of spinning), a title bar with
/// the figures, `duration` and a screenshot of the last frame.
public final class ComparisonWindow {
    public struct Options {
        /// The whole window's size and the effect's knobs.
        public var request: SceneRequest
        /// The effects E cycles through; the first is shown first.
        public var effects: [DemoEffect]
        public var layout: DemoLayout
        public var startTime: Double
        public var paused: Bool
        /// Quit after this many seconds (nil: until closed).
        public var duration: Double?
        public var wantsScreenshot: Bool
        /// What starts the next frame: the display (vsync), a plain 1/60 s timer, or nothing.
        package var pacing: Pacing = .vsync
        /// Milliseconds slept inside one frame every second (0: none).
        public var stallMilliseconds = 0.0
        /// How the GL half moves cached content by fractions of a pixel at the start (S cycles it).
        public var subpixel = SubpixelMode.exact
        /// The fixed-timestep loop scene time goes through.
        public var physicsStep = 1.0 / 120
        public var maxSteps = 8
        /// The physics' share of the simulated time to keep to (`PhysicsBudget`), nil: none.
        public var physicsBudget: Double?
        /// Draw only when the picture may change or a key was pressed (`ChangeSchedule`), sleeping in between.
        public var drawsOnChange = false
        /// The pixel overlay shown at the start (O cycles it).
        public var overlay = PixelOverlayMode.off
        /// The display shown at the start (H cycles it).
        public var hud = HUDMode.compact
        /// Work on the loop's thread every frame or while tracking (nil: none).
        package var busy: BusyWork?
        /// Draw every Nth refresh (a display link's frameInterval).
        public var frameInterval = 1
        /// More lines for the display, asked twice a second (the microphone's meter).
        public var statusLines: (() -> [String])?

        public init(request: SceneRequest, effects: [DemoEffect], layout: DemoLayout,
                    startTime: Double = 0, paused: Bool = false, duration: Double? = nil, wantsScreenshot: Bool = false) {
            precondition(!effects.isEmpty, "the demo needs an effect")
            self.request = request; self.effects = effects
            self.layout = layout; self.startTime = startTime
            self.paused = paused; self.duration = duration; self.wantsScreenshot = wantsScreenshot
        }
    }

    public struct Outcome {
        /// The last frame of the whole window, rows top to bottom (when asked for).
        public let screenshot: RGBAImage?
        public let summary: String
        public let renderer: String
    }

    private let context: WindowGLContext
    /// Released before the window (deinit): its GL objects need the context.
    private var view: ComparisonView!
    private let options: Options
    private var clock: AnimationClock
    private var effectIndex = 0

    /// Keys pressed since the last frame (GLFW's C callback cannot capture).
    nonisolated(unsafe) private static var pressed: [Int32] = []
    /// The pointer since the last frame: wheel notches (up positive), the
    /// drag's vertical travel in window pixels, and whether the button was let go.
    nonisolated(unsafe) private static var wheel = 0.0
    nonisolated(unsafe) private static var dragging = false
    nonisolated(unsafe) private static var dragged = 0.0
    nonisolated(unsafe) private static var letGo = false
    nonisolated(unsafe) private static var pointerY = 0.0

    /// Throws `RendererError.unavailable` where no window can be opened.
    public init(options: Options) throws {
        self.options = options
        let context = try unavailableOnGLError {
            try WindowGLContext(title: "Waves", width: options.request.width, height: options.request.height)
        }
        self.context = context
        let now = Clocks.wall()
        view = try unavailableOnGLError {
            try ComparisonView(request: options.request, effect: options.effects[0], layout: options.layout,
                               context: context, wallNow: now, subpixel: options.subpixel)
        }
        clock = AnimationClock(startingAt: options.startTime, wallNow: now, paused: options.paused)
        view.setPaused(options.paused)
        view.showHUD(options.hud)
        try unavailableOnGLError { try view.showOverlay(options.overlay) }
        Self.pressed.reserveCapacity(16)
        glfwSetKeyCallback(context.window) { _, key, _, action, _ in
            if action == GLFW_PRESS || action == GLFW_REPEAT { ComparisonWindow.pressed.append(key) }
        }
        glfwSetScrollCallback(context.window) { _, _, y in ComparisonWindow.wheel += y }
        glfwSetMouseButtonCallback(context.window) { _, button, action, _ in
            guard button == GLFW_MOUSE_BUTTON_LEFT else { return }
            if action == GLFW_PRESS { ComparisonWindow.dragging = true }
            if action == GLFW_RELEASE && ComparisonWindow.dragging { ComparisonWindow.dragging = false; ComparisonWindow.letGo = true }
        }
        glfwSetCursorPosCallback(context.window) { _, _, y in
            if ComparisonWindow.dragging { ComparisonWindow.dragged += y - ComparisonWindow.pointerY }
            ComparisonWindow.pointerY = y
        }
    }

    deinit { view = nil }

    public var renderer: String { context.renderer }

    public func run() throws -> Outcome {
        try unavailableOnGLError { try runLoop() }
    }

    private func runLoop() throws -> Outcome {
        let started = Clocks.wall()
        var lastTitle = started
        var screenshot: RGBAImage?
        context.setSwapInterval(options.pacing == .vsync ? Int32(options.frameInterval) : 0)
        // Sources that read the loop's own clock (the ball's), found again whenever the scene may have been made again.
        var clocked = view.scene.frameClocked
        // Scene time through the fixed-timestep loop: a stalled frame runs at
        // most maxSteps steps and the animation carries on from there.
        var physics = FixedTimestep(step: options.physicsStep, maxSteps: options.maxSteps)
        var budget = options.physicsBudget.map { PhysicsBudget(share: $0) }
        var lastSceneTime = clock.time(atWall: started)
        var frameStarts = FrameStarts(capacity: 240)
        var nextStall = started + 1
        let period = 1 / (context.refreshRate ?? 60)
        // Frames only on change: the schedule of the scene shown, made again whenever a key or a resize may change it.
        var schedule: ChangeSchedule?
        var shownSize = (0, 0)
        /// Whether the last turn slept on purpose (the time since is not late).
        var slept = false
        while glfwWindowShouldClose(context.window) == GLFW_FALSE {
            let keys = Self.pressed.count
            if try handleKeys(sceneTime: options.startTime + physics.time) { break }
            if handlePointer(sceneTime: options.startTime + physics.time) { schedule = nil }
            if keys > 0 {
                schedule = nil
                reapplyInputs(step: physics.step)
                clocked = view.scene.frameClocked
            }
            let (width, height) = context.framebufferSize
            if width == 0 || height == 0 || glfwGetWindowAttrib(context.window, GLFW_ICONIFIED) == GLFW_TRUE {
                // Minimised: nothing to draw; sleep until something happens.
                glfwWaitEventsTimeout(0.25)
                continue
            }
            try view.resize(width: width, height: height)
            if shownSize != (width, height) {
                schedule = nil
                shownSize = (width, height)
                reapplyInputs(step: physics.step)
                clocked = view.scene.frameClocked
            }
            let now = Clocks.wall()
            let sceneTime = clock.time(atWall: now)
            if options.drawsOnChange {
                if schedule == nil { schedule = try ChangeSchedule(scene: view.scene) }
                let due = options.startTime + physics.time + (sceneTime - lastSceneTime)
                if let schedule, !schedule.needsFrame(at: due) {
                    // Nothing on screen changes before the next change (or a key): sleep until then, waking for input.
                    // The time slept is not late, so none of it is dropped.
                    physics.catchUp(by: sceneTime - lastSceneTime)
                    lastSceneTime = sceneTime
                    slept = true
                    let wait = clock.isPaused ? 1.0 : schedule.nextChange.map { $0 - (options.startTime + physics.time) } ?? 1.0
                    glfwWaitEventsTimeout(Swift.min(1.0, Swift.max(0.001, wait)))
                    if options.duration.map({ Clocks.wall() - started >= $0 }) ?? false { break }
                    continue
                }
            }
            var steps = 0
            if slept {
                physics.catchUp(by: sceneTime - lastSceneTime)
                slept = false
            } else {
                steps = physics.advance(by: sceneTime - lastSceneTime)
            }
            lastSceneTime = sceneTime
            schedule?.drew(at: options.startTime + physics.time)
            frameStarts.append(now)
            if options.stallMilliseconds > 0 && now >= nextStall {
                usleep(useconds_t(options.stallMilliseconds * 1000))
                nextStall = now + 1
            }
            // The loop's own work (layout, a scroll's tracking), then its sources run (a timer's callbacks), then the frame.
            let tracking = options.busy?.isTracking(at: now - started) ?? false
            options.busy?.run(at: now - started)
            for c in clocked { c.frame(at: sceneTime, wall: Clocks.wall(), waitEnded: now, tracking: tracking) }
            let physicsBefore = budget == nil ? 0 : view.scene.simulationCost?.seconds ?? 0
            try view.drawFrame(time: options.startTime + physics.time, wallNow: now)
            if budget != nil, let remedy = budget!.frame(physics: (view.scene.simulationCost?.seconds ?? 0) - physicsBefore,
                                                         simulated: Double(steps) * physics.step, work: Clocks.wall() - now,
                                                         step: physics.step, period: period, time: physics.time) {
                switch remedy {
                case let .step(coarser):
                    if view.scene.changePhysicsStep(to: coarser) { physics.changeStep(to: coarser) }
                case let .frameInterval(n):
                    if options.pacing == .vsync { context.setSwapInterval(Int32(n)) }
                }
            }
            let finished = options.duration.map { now - started >= $0 } ?? false
            if finished && options.wantsScreenshot {
                screenshot = readShownPixels(framebuffer: 0, width: width, height: height)
            }
            for c in clocked { c.willWait(at: Clocks.wall()) }
            context.swapBuffers() // and handles the events the next turn reads
            if options.pacing == .timer { usleep(useconds_t(1_000_000 / 60 * (budget?.frameInterval ?? options.frameInterval))) }
            frameStarts.noteSteps(steps)
            if now - lastTitle >= 0.5 {
                glfwSetWindowTitle(context.window, "Waves: " + view.summary())
                view.setLoopText(pacing: frameStarts.summary(pacing: options.pacing, period: period, dropped: physics.dropped,
                                                      simulates: view.scene.physicsStep != nil, onChange: options.drawsOnChange),
                                 effect: Self.effectLines(view.scene, budget: budget, step: physics.step, busy: options.busy,
                                                          status: options.statusLines?() ?? []))
                lastTitle = now
            }
            if finished { break }
        }
        // Quit by Q, Esc or closing the window: the screenshot is still taken, of one more frame.
        if options.wantsScreenshot && screenshot == nil {
            let (width, height) = context.framebufferSize
            if width > 0 && height > 0 {
                try view.drawFrame(time: options.startTime + physics.time, wallNow: Clocks.wall())
                screenshot = readShownPixels(framebuffer: 0, width: width, height: height)
            }
        }
        let pacingSummary = frameStarts.summary(pacing: options.pacing, period: period, dropped: physics.dropped,
                                                      simulates: view.scene.physicsStep != nil, onChange: options.drawsOnChange).joined(separator: ", ")
            + ", frames drawn: \(frameStarts.total)" + (options.drawsOnChange ? " (on change)" : "")
        return Outcome(screenshot: screenshot, summary: view.summary() + " | " + pacingSummary,
                       renderer: context.renderer)
    }

    /// The display's lines about the effect shown: a simulation's, a scroll
    /// view's, the ball's, then `status` (a microphone's level); the compact
    /// display shows the first.
    static func effectLines(_ scene: Scene, budget: PhysicsBudget?, step: Double, busy: BusyWork?, status: [String]) -> [String] {
        physicsLines(scene, budget: budget, step: step) + scrollLines(scene) + ballLines(scene, busy: busy) + status
    }

    /// The display's lines about a simulation: gravity and how to tilt it,
    /// and the budget's step and frame rate (none without a simulation).
    static func physicsLines(_ scene: Scene, budget: PhysicsBudget?, step: Double) -> [String] {
        guard let g = scene.gravity else { return [] }
        var lines = [String(format: "gravity %.0f, %.0f px/s2 (Left/Right tilt)", g.x, g.y)]
        if let budget {
            lines.append(String(format: "budget %.2f: step 1/%.0f s, every %@", budget.share, 1 / step,
                                counted(budget.frameInterval, "refresh", "refreshes")))
        }
        return lines
    }

    /// The display's lines about the ball: its driver and what its timer did, and the loop's work.
    static func ballLines(_ scene: Scene, busy: BusyWork?) -> [String] {
        guard let ball = scene.computedValues(DriverClock.self).first else { return [] }
        var lines = ["driver \(ball.driver.rawValue)" + (busy.map { String(format: ", busy %.0f ms %@", $0.milliseconds, $0.pattern == .every ? "every frame" : "while tracking") } ?? "")]
        if let timer = ball.timer {
            lines.append("timer (\(timer.mode.rawValue) mode): \(timer.delivered) callbacks, \(timer.late) late, \(timer.doubled) doubled, \(timer.skipped) skipped")
        }
        return lines
    }

    /// The display's line about a scroll view: where it is (none without one; the keys line says how to scroll).
    static func scrollLines(_ scene: Scene) -> [String] {
        guard let scroll = scene.scrollViews.first else { return [] }
        return [String(format: "offset %.0f px, row %d of %d", scroll.currentOffset,
                       Int(scroll.currentOffset / scroll.rowHeight), scroll.rows)]
    }

    /// Every scroll input given so far, for a scene made again (a key, a resize).
    private var scrollInputs: [ScrollInput] = []
    /// The drag's last move: wall time and velocity (pixels of offset a second), for the fling when it is let go.
    private var lastDrag = (wall: 0.0, velocity: 0.0)

    /// The scroll view the inputs were last given to.
    private weak var scrolled: ScrollMotion?

    private func scroll(_ input: ScrollInput) {
        guard let scrollView = view.scene.scrollViews.first else { return }
        replayScrollInputs(into: scrollView)
        scrollView.add(input)
        scrollInputs.append(input)
    }

    /// A scroll view made again (a key, a resize) is given every input so far, once.
    private func replayScrollInputs(into scrollView: ScrollMotion) {
        guard scrolled !== scrollView else { return }
        for input in scrollInputs { scrollView.add(input) }
        scrolled = scrollView
    }

    /// The wheel, a drag and its release as timed inputs to the scene's
    /// scroll view: a notch flings three rows' worth, a drag moves the
    /// content with the pointer, letting go flings at the drag's speed.
    /// Returns whether anything was given.
    private func handlePointer(sceneTime: Double) -> Bool {
        defer { (Self.wheel, Self.dragged, Self.letGo) = (0, 0, false) }
        guard Self.wheel != 0 || Self.dragged != 0 || Self.letGo, let scrollView = view.scene.scrollViews.first else { return false }
        // Window coordinates to framebuffer pixels (a HiDPI window has more pixels than points).
        var windowHeight: Int32 = 0, unused: Int32 = 0
        glfwGetWindowSize(context.window, &unused, &windowHeight)
        let scale = windowHeight > 0 ? Double(context.framebufferSize.1) / Double(windowHeight) : 1
        let now = Clocks.wall()
        if Self.wheel != 0 {
            scroll(.fling(time: sceneTime, velocity: ScrollMotion.velocity(toTravel: -Self.wheel * 3 * scrollView.rowHeight)))
        }
        if Self.dragged != 0 {
            let by = -Self.dragged * scale
            scroll(.drag(time: sceneTime, by: by))
            lastDrag = (now, by / Swift.max(1.0 / 240, now - lastDrag.wall))
        }
        if Self.letGo && now - lastDrag.wall < 0.1 {
            scroll(.fling(time: sceneTime, velocity: Swift.max(-20_000, Swift.min(20_000, lastDrag.velocity))))
        }
        return true
    }

    /// Gravity turned by `degrees` (clockwise on screen), its strength kept.
    static func tilted(_ g: Point, degrees: Double) -> Point {
        let a = degrees * Double.pi / 180
        return Point(g.x * cos(a) - g.y * sin(a), g.x * sin(a) + g.y * cos(a))
    }

    /// The gravity the last tilt asked for (nil: none yet).
    private var tilt: Point?

    /// A key or a resize may have made the scene again (a new simulation at
    /// the step and gravity it started with): the budget's step and the
    /// tilt are given to it again, from the time it has reached.
    private func reapplyInputs(step: Double) {
        if let current = view.scene.physicsStep, current != step { view.scene.changePhysicsStep(to: step) }
        if let tilt, let g = view.scene.gravity, g != tilt { view.scene.setGravity(tilt, from: 0) }
        if let scrollView = view.scene.scrollViews.first { replayScrollInputs(into: scrollView) }
    }

    /// Returns true when asked to quit.
    private func handleKeys(sceneTime: Double) throws -> Bool {
        defer { Self.pressed.removeAll(keepingCapacity: true) }
        for key in Self.pressed {
            switch key {
            case GLFW_KEY_ESCAPE, GLFW_KEY_Q: return true
            case GLFW_KEY_SPACE:
                clock.toggle(atWall: Clocks.wall())
                view.setPaused(clock.isPaused)
            case GLFW_KEY_UP: try view.stepCount(up: true)
            case GLFW_KEY_DOWN: try view.stepCount(up: false)
            case GLFW_KEY_S: try view.cycleMotion()
            case GLFW_KEY_LEFT, GLFW_KEY_RIGHT:
                // The accelerometer's stand-in: 15 degrees a press, from the time now on.
                // From the gravity last asked for (the world meets it only at its next step, and not at all while paused).
                if let g = view.scene.gravity {
                    tilt = Self.tilted(g, degrees: key == GLFW_KEY_LEFT ? 15 : -15)
                    view.scene.setGravity(tilt!, from: sceneTime)
                }
            case GLFW_KEY_PAGE_UP, GLFW_KEY_PAGE_DOWN:
                // A page's fling, as a scroll view pages.
                if let scrollView = view.scene.scrollViews.first {
                    let page = (key == GLFW_KEY_PAGE_DOWN ? 1.0 : -1.0) * scrollView.viewHeight
                    scroll(.fling(time: sceneTime, velocity: ScrollMotion.velocity(toTravel: page)))
                }
            case GLFW_KEY_E:
                effectIndex = (effectIndex + 1) % options.effects.count
                try view.show(options.effects[effectIndex])
            case GLFW_KEY_O: try view.cycleOverlay()
            case GLFW_KEY_H: view.cycleHUD()
            case GLFW_KEY_1, GLFW_KEY_2, GLFW_KEY_3:
                try view.switchState(to: Int(key - GLFW_KEY_1), at: sceneTime)
            default: break
            }
        }
        return false
    }
}

/// The last frames' start times (a fixed ring, nothing allocated per frame)
/// and the most physics steps a frame ran, summed up for the display.
struct FrameStarts {
    private var times: RingBuffer
    /// Frames since the window opened.
    private(set) var total = 0
    private var maxSteps = 0

    init(capacity: Int) { times = RingBuffer(capacity: capacity) }

    mutating func append(_ t: Double) {
        times.append(t)
        total += 1
    }

    mutating func noteSteps(_ steps: Int) { maxSteps = max(maxSteps, steps) }

    /// The pacing and the interval distribution; where frames are paced
    /// (a timer, or vsync the display honours), missed and bunched frames and
    /// the assume-1/60 error over the ring; where the scene `simulates`, the
    /// physics cap. Unpaced frames (free, or vsync asked of a display that
    /// does not pace, as Xvfb) miss nothing and have no 1/60 to keep: those
    /// figures would only mislead, so they are left out and the line says why.
    func summary(pacing: Pacing, period: Double, dropped: Double, simulates: Bool, onChange: Bool = false) -> [String] {
        guard let s = PacingStats(frameStarts: times.ordered, period: period) else { return ["pacing \(pacing.rawValue)"] }
        let intervals = String(format: "interval median %.1f ms, p99 %.1f ms", s.intervalP50, s.intervalP99)
        // Vsync that holds puts the median on a whole number of refreshes (one, or two for a slow frame).
        let refreshes = s.intervalP50 / (period * 1000), nearest = refreshes.rounded()
        let vsyncIgnored = pacing == .vsync && (nearest < 1 || abs(refreshes - nearest) > 0.15)
        var lines: [String]
        if onChange {
            lines = ["pacing \(pacing.rawValue), drawing only on change (no frame is missed by not drawing it): " + intervals]
        } else if vsyncIgnored {
            lines = ["pacing vsync, not honoured by this display (no vsync: frames unpaced): " + intervals]
        } else if pacing == .free {
            lines = ["pacing free (unpaced): " + intervals]
        } else {
            lines = ["pacing \(pacing.rawValue): " + intervals,
                     String(format: "missed %d, bunched %d, 1/60 error %.0f ms", s.missed, s.bunched, s.assumedFrameError)]
        }
        if simulates { lines.append(String(format: "physics steps a frame: at most %d, dropped %.2f s", maxSteps, dropped)) }
        return lines
    }
}

extension ComparisonWindow {
    /// The keys and what the display shows, for the demo's help; `effectCycle`: the effects E cycles through.
    public static func help(effectCycle: String) -> String {
        """
            Keys: Space pause/resume, Up/Down the effect's count (cells, dots, voice panels, rows), S motion (linear / exact / snap), \
            E next effect (\(effectCycle)), Left/Right tilt gravity (crates), the mouse wheel, dragging and \
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
    }
}

/// The comparison without a window: drawn into a framebuffer object through
/// EGL, measured over `frames` frames, and returned as a picture.
public enum HeadlessComparison {
    public struct Outcome {
        public let image: RGBAImage
        public let summary: String
        public let renderer: String
        public let frames: Int
    }

    /// Throws `RendererError.unavailable` where no headless context can be made.
    public static func render(options: ComparisonWindow.Options, frames: Int = 120) throws -> Outcome {
        try unavailableOnGLError {
            let context = try HeadlessGLContext()
            // The context must outlive every GL object made below.
            return try withExtendedLifetime(context) { try render(options: options, frames: frames, on: context) }
        }
    }

    /// The comparison headless, its picture written to `path` (checked
    /// first): over the duration's frames at 60 a second of scene time (at
    /// most 10 minutes; 2 s without one), or where there is no GL at all, the
    /// CPU strategy alone (said on stderr). Returns the lines that report it.
    public static func write(_ options: ComparisonWindow.Options, to path: String) throws -> [String] {
        try OutputPaths.checkFile(path)
        do {
            let frames = options.duration.map { max(1, Int((min($0, 600) * 60).rounded())) } ?? 120
            let outcome = try render(options: options, frames: frames)
            try PNG.write(outcome.image, to: path)
            return ["wrote \(path): the comparison at t = \(options.startTime) s, headless on \(outcome.renderer)",
                    "measured over \(counted(outcome.frames, "frame")): \(outcome.summary)"]
        } catch let error as RendererError {
            guard case .unavailable = error else { throw error }
            printError("waves: \(error); drawing the CPU strategy alone")
            let (image, ms) = try renderCPUAlone(options: options)
            try PNG.write(image, to: path)
            return ["wrote \(path): the CPU strategy at t = \(options.startTime) s",
                    "\(Format.strategy(.cpu)): \(Format.perFrame(.cpuMs, ms)) (no GL, so no upload)"]
        }
    }

    /// Where there is no GL at all: the CPU strategy alone, the picture at
    /// `startTime` after 59 frames before it, and its CPU milliseconds a frame.
    public static func renderCPUAlone(options: ComparisonWindow.Options) throws -> (image: RGBAImage, cpuMs: Double) {
        var request = options.request
        request.width = options.layout.sceneWidth(windowWidth: request.width)
        request.count = options.effects[0].count
        let cpu = try BackendChooser.make(.cpu, for: try options.effects[0].makeScene(request)).renderer
        let target = try cpu.makeTarget()
        let start = Clocks.threadCPU()
        for i in 0..<60 { try cpu.draw(time: options.startTime - Double(59 - i) / 60, into: target) }
        return (try target.readback(), (Clocks.threadCPU() - start) * 1000 / 60)
    }

    private static func render(options: ComparisonWindow.Options, frames: Int, on context: HeadlessGLContext) throws -> Outcome {
        let width = options.request.width, height = options.request.height
        let offscreen = try OffscreenFramebuffer(width: width, height: height)
        let framebuffer = offscreen.id

        let view = try ComparisonView(request: options.request, effect: options.effects[0],
                                      layout: options.layout, context: context, wallNow: Clocks.wall(),
                                      subpixel: options.subpixel)
        view.drawTarget = framebuffer
        view.setPaused(options.paused)
        view.showHUD(options.hud)
        try view.resize(width: width, height: height)
        try view.showOverlay(options.overlay)
        // Frames at 60 per second of scene time; the picture is the one at startTime.
        for i in stride(from: frames - 1, through: 0, by: -1) {
            let t = options.paused ? options.startTime : options.startTime - Double(i) / 60
            if i == 0 {
                view.drainTimers()
                // The window's effect lines (as of the frame before the picture's), without its loop's: no pacing, budget or busy work.
                view.setLoopText(pacing: [], effect: ComparisonWindow.effectLines(view.scene, budget: nil, step: options.physicsStep,
                                                                                  busy: nil, status: options.statusLines?() ?? []))
                view.showOverallFigures()
            }
            try view.drawFrame(time: t, wallNow: Clocks.wall())
            glFinish()
        }
        let image = readShownPixels(framebuffer: framebuffer, width: width, height: height)
        try checkGLErrors("the headless comparison")
        return Outcome(image: image, summary: view.summary(overall: true),
                       renderer: "\(context.renderer) through \(context.platform)", frames: frames)
    }
}
