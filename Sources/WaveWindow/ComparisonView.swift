import CGL
import Foundation
import WaveCore
import WaveGL

/// Which strategies the demo shows: side by side, or one full width.
public enum DemoLayout: String, CaseIterable, Sendable {
    case both, cpu, gl

    /// The width of each strategy's scene in a window this wide.
    public func sceneWidth(windowWidth: Int) -> Int {
        max(1, self == .both ? windowWidth / 2 : windowWidth)
    }
}

/// An effect the demo can show: its scene for a request, what its count
/// counts ("cells"; empty where it has none) and the count it starts with.
/// The demo cycles through a list of these; the window never knows which
/// effect it shows.
public struct DemoEffect {
    public var name: String
    public var countLabel: String
    public var count: Int
    /// The states the demo's keys 1, 2, 3... switch to (none: the effect has no states).
    public var states: [String]
    /// The largest count the effect draws at a scene height (cells need a row each).
    public var maxCount: (Int) -> Int
    package var makeScene: SceneMaker

    package init(name: String, countLabel: String, count: Int, states: [String] = [], maxCount: @escaping (Int) -> Int = { $0 },
                makeScene: @escaping SceneMaker) {
        self.name = name; self.countLabel = countLabel; self.count = count; self.states = states; self.maxCount = maxCount
        self.makeScene = makeScene
    }
}

/// One frame of the comparison, drawn into whatever framebuffer is bound
/// (the window's, or an offscreen one): left half the CPU strategy, right
/// half the GL strategy, the same scene and the same time, each through the
/// renderer protocol into its own target, with a heads-up display of what
/// it costs (`HUDMode`: off, a compact panel with a frame-time graph, or
/// every line).
public final class ComparisonView {
    public let layout: DemoLayout
    public private(set) var request: SceneRequest
    public private(set) var scene: Scene
    /// The effect shown.
    public private(set) var effect: DemoEffect
    /// The scene time of the last frame (the display's playback readout).
    private var lastTime = 0.0
    private let halves: [StrategyHalf]
    /// What the H key shows over each half.
    public private(set) var hud = HUDMode.compact
    /// What the O key shows over both halves (each strategy counts its pixels while one shows).
    public private(set) var pixelOverlay = PixelOverlayMode.off
    /// Made at the first overlay shown.
    private var overlayDrawer: PixelOverlay?
    private var framebuffer = (width: 0, height: 0)
    private var isPaused = false

    /// The counts Up and Down step through (those the effect draws at the height).
    public static let countSteps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]

    /// `request`'s size is the whole area's; each half gets its share.
    public init(request: SceneRequest, effect: DemoEffect, layout: DemoLayout, context: GLContext, wallNow: Double,
                subpixel: SubpixelMode = .exact) throws {
        self.layout = layout
        self.effect = effect
        self.subpixel = subpixel
        var half = request
        half.width = layout.sceneWidth(windowWidth: request.width)
        half.count = max(1, min(effect.count, effect.maxCount(half.height)))
        self.request = half
        scene = try effect.makeScene(half)
        var halves: [StrategyHalf] = []
        if layout != .gl { halves.append(try StrategyHalf(.cpu, scene: scene, context: context, wallNow: wallNow)) }
        if layout != .cpu { halves.append(try StrategyHalf(.gl, scene: scene, context: context, wallNow: wallNow, subpixel: subpixel)) }
        self.halves = halves
    }

    package func meter(_ backend: Backend) -> StrategyMeter? { halves.first { $0.backend == backend }?.meter }

    /// Why the GL half is drawn by the CPU (its scene is past the driver's limits), or nil.
    public var glFallback: String? { halves.first { $0.backend == .gl }?.fallback }

    /// Fits the scene to a framebuffer of this size: half the width each when
    /// both strategies show. Re-makes the textures only when the size changed.
    public func resize(width: Int, height: Int) throws {
        guard width > 0, height > 0, (width, height) != framebuffer else { return }
        framebuffer = (width, height)
        var r = request
        r.width = layout.sceneWidth(windowWidth: width)
        r.height = height
        // A short window still shows a valid scene.
        r.count = max(1, min(r.count, effect.maxCount(height)))
        try apply(r)
    }

    /// Switches the effect's state to its `number`th (from 0, the keys 1, 2, 3...) from scene time t (the scene is
    /// made again with the switch added; its hand-off runs from t). Nothing for an effect without that many states.
    public func switchState(to number: Int, at t: Double) throws {
        guard effect.states.indices.contains(number) else { return }
        var r = request
        r.switchState(to: effect.states[number], at: t)
        try apply(r)
    }

    /// Steps the count up or down through `countSteps`.
    public func stepCount(up: Bool) throws {
        let fitting = Self.countSteps.filter { $0 <= effect.maxCount(request.height) }
        let next = up ? fitting.first { $0 > request.count } : fitting.last { $0 < request.count }
        guard let next else { return }
        var r = request
        r.count = next
        try apply(r)
    }

    /// How the GL half moves cached content by fractions of a pixel (snapping moves both halves by whole pixels).
    public private(set) var subpixel: SubpixelMode

    /// What the S key shows in turn: linear (the GL half blurs steep edges
    /// at half-pixel offsets), exact (pre-rendered phases: no blur), snap
    /// (whole pixels only, in both halves: no blur, but slow motion steps).
    public var motionLabel: String { request.snapsToPixel ? "snap" : subpixel.rawValue }

    public func cycleMotion() throws {
        var r = request
        switch (r.snapsToPixel, subpixel) {
        case (false, .linear): subpixel = .exact
        case (false, .exact): r.snapsToPixel = true
        case (true, _): r.snapsToPixel = false; subpixel = .linear
        }
        for half in halves { half.subpixel = subpixel }
        try apply(r)
        needsHUDText = true
    }

    /// Lines for both displays from the loop around the view: its pacing
    /// (a window's), and the effect's (gravity, a scroll's offset, the
    /// ball's driver, a microphone's level), the first of which the compact
    /// display shows.
    private var pacingText: [String] = []
    private var effectText: [String] = []

    public func setLoopText(pacing: [String], effect: [String]) {
        (pacingText, effectText) = (pacing, effect)
        needsHUDText = true
    }

    /// Shows `mode` over each half from the next frame on.
    public func showHUD(_ mode: HUDMode) {
        hud = mode
        needsHUDText = true
    }

    /// The H key: off, compact, full, off.
    public func cycleHUD() { showHUD(hud.next) }

    public func setPaused(_ paused: Bool) {
        isPaused = paused
        needsHUDText = true
    }

    /// Shows `mode` over both halves: each strategy counts its pixels from the next frame on, or stops.
    public func showOverlay(_ mode: PixelOverlayMode) throws {
        if mode != .off && overlayDrawer == nil { overlayDrawer = try PixelOverlay() }
        for half in halves { try half.setCounting(mode != .off, scene: scene) }
        pixelOverlay = mode
        needsHUDText = true
    }

    /// The O key: off, updated regions, blended layers, off.
    public func cycleOverlay() throws { try showOverlay(pixelOverlay.next) }

    /// Shows another effect at the same size and snapping, from its own count.
    public func show(_ next: DemoEffect) throws {
        var r = request
        r.count = max(1, min(next.count, next.maxCount(request.height)))
        try apply(r, effect: next)
    }

    private func apply(_ r: SceneRequest, effect next: DemoEffect? = nil) throws {
        let chosen = next ?? effect
        let s = try chosen.makeScene(r)
        for half in halves { try half.prepare(s) }
        request = r
        scene = s
        effect = chosen
        needsHUDText = true
    }

    /// The area of each half, x and y from the bottom left.
    private func area(_ backend: Backend) -> Viewport {
        Viewport(x: layout == .both && backend == .gl ? scene.width : 0, y: 0, width: scene.width, height: scene.height)
    }

    /// Draws both halves for scene time `time` and updates the meters (and,
    /// twice a second, the heads-up displays).
    public func drawFrame(time: Double, wallNow: Double) throws {
        lastTime = time
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), drawTarget)
        glViewport(0, 0, GLsizei(framebuffer.width), GLsizei(framebuffer.height))
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        // By index: in a debug build a for-in loop over an array allocates.
        for i in halves.indices { try halves[i].frame(time: time, area: area(halves[i].backend), framebuffer: drawTarget) }
        var changed = needsHUDText
        for i in halves.indices where halves[i].refreshMeter(atWall: wallNow) { changed = true }
        if changed { updateHUDText() }
        if let overlayDrawer, pixelOverlay != .off {
            for i in halves.indices {
                if let counts = halves[i].counts { overlayDrawer.draw(counts, as: pixelOverlay, viewport: area(halves[i].backend)) }
            }
        }
        if layout == .both { drawDivider() }
        if hud != .off {
            for i in halves.indices { halves[i].drawHUD(area: area(halves[i].backend)) }
        }
    }

    /// A 2-pixel light line between the halves, so they read as two pictures.
    private func drawDivider() {
        glEnable(GLenum(GL_SCISSOR_TEST))
        glScissor(GLint(max(0, scene.width - 1)), 0, 2, GLsizei(scene.height))
        glClearColor(0.85, 0.87, 0.9, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glDisable(GLenum(GL_SCISSOR_TEST))
    }

    /// The framebuffer drawn into: 0 for a window, an FBO when headless.
    public var drawTarget: GLuint = 0
    private var needsHUDText = true

    /// Waits for outstanding timer queries (end of a headless run).
    public func drainTimers() {
        for half in halves { half.drainTimer() }
    }

    /// From now on the displays show averages over the whole run (the
    /// headless picture's figures).
    public func showOverallFigures() {
        showsOverall = true
        updateHUDText()
    }

    private var showsOverall = false

    private func snapshot(_ half: StrategyHalf) -> StrategyMeter.Snapshot {
        showsOverall ? half.meter.overallSnapshot(atWall: Clocks.wall()) : half.meter.latest
    }

    /// What the GL half's display says while the CPU draws it.
    static let fallbackNotice = "past the GL driver's limits: the CPU draws this half"

    private func updateHUDText() {
        needsHUDText = false
        guard hud != .off else { return }
        for half in halves {
            let lines = hud == .compact ? compactLines(half) : fullLines(half)
            half.setHUD(lines, mode: hud, halfWidth: scene.width)
        }
    }

    /// The few that matter: the strategy (or that the CPU draws this GL
    /// half), its CPU and GPU milliseconds a frame in the graph's colours,
    /// the frame rate with the motion (S) and whether paused (Space), the
    /// effect's first line, and an overlay's legend while one shows.
    private func compactLines(_ half: StrategyHalf) -> [HUDLine] {
        let s = snapshot(half)
        var lines = [HUDLine(half.fallback == nil ? Format.strategy(half.backend, for: scene) : Self.fallbackNotice)]
            + costLines(s) + [HUDLine(Format.framesPerSecond(s.framesPerSecond) + "  motion \(motionLabel)" + (isPaused ? "  PAUSED" : ""))]
        if let effectLine = effectText.first { lines.append(HUDLine(effectLine)) }
        if let verdict = verdictText(overall: showsOverall) { lines.append(HUDLine(verdict)) }
        if pixelOverlay != .off { lines.append(HUDLine(pixelOverlay.legend)) }
        return lines
    }

    /// The display's lines over the first half, as shown (none while it is off).
    package var displayedLines: [String] {
        guard hud != .off, let half = halves.first else { return [] }
        return (hud == .compact ? compactLines(half) : fullLines(half)).map(\.text)
    }

    /// Every line: the figures, the settings, the fall-back, an overlay's
    /// legend and counts, the loop's pacing, the effect's lines and the keys.
    private func fullLines(_ half: StrategyHalf) -> [HUDLine] {
        let s = snapshot(half)
        var lines = [HUDLine(Format.strategy(half.backend, for: scene)), HUDLine(rateText(s))]
            + costLines(s) + [HUDLine(settingsText)]
        if let verdict = verdictText(overall: showsOverall) { lines.append(HUDLine(verdict)) }
        if half.fallback != nil { lines.append(HUDLine(Self.fallbackNotice)) }
        if let counts = half.counts {
            let t = counts.totals
            lines.append(HUDLine(pixelOverlay.legend))
            lines.append(HUDLine("pixels a frame: rasterised on the CPU \(Format.pixels(t.rasterized)), written \(Format.pixels(t.written)), "
                                 + "blended \(Format.pixels(t.blended)), offscreen \(Format.pixels(t.offscreen))"))
        }
        lines += (pacingText + effectText).map { HUDLine($0) }
        lines.append(HUDLine(keysText))
        return lines
    }

    /// CPU and GPU milliseconds a frame, each in its colour in the graph.
    private func costLines(_ s: StrategyMeter.Snapshot) -> [HUDLine] {
        [HUDLine(Format.perFrame(.cpuMs, s.cpuMilliseconds), ink: .cpu), HUDLine(Format.perFrame(.gpuMs, s.gpuMilliseconds), ink: .gpu)]
    }

    /// Which strategy's own thread costs less here and by how much, from
    /// both halves' figures ("verdict: GL 5.30x less CPU a frame"); nil
    /// until both have measured, or with one half shown or falling back.
    func verdictText(overall: Bool) -> String? {
        guard halves.count == 2, halves.allSatisfy({ $0.fallback == nil }) else { return nil }
        let ms = halves.map { (overall ? $0.meter.overallSnapshot(atWall: Clocks.wall()) : $0.meter.latest).cpuMilliseconds }
        guard ms.allSatisfy({ $0 > 0 }) else { return nil }
        let cheaper = ms[0] <= ms[1] ? 0 : 1
        let name = halves[cheaper].backend == .gl ? "GL" : "CPU"
        return "verdict: \(name) " + String(format: "%.2fx", ms[1 - cheaper] / ms[cheaper]) + " less CPU a frame"
    }

    /// "97.0 fps", and with both halves shown, that one loop draws both (so both show the same rate).
    private func rateText(_ s: StrategyMeter.Snapshot) -> String {
        Format.framesPerSecond(s.framesPerSecond) + (layout == .both ? " (one loop draws both halves)" : "")
    }

    /// The effect, its count, the half's size, the motion, the scene time and whether paused.
    private var settingsText: String {
        let count = effect.countLabel.isEmpty ? "" : countText + "  "
        return effect.name + "  " + count + "\(scene.width)x\(scene.height)  motion \(motionLabel)  "
            // Rounded to the tenth shown, plus zero: a time just below 0 reads 0.0, not -0.0.
            + String(format: "t %.1f s", (lastTime * 10).rounded() / 10 + 0) + (isPaused ? "  PAUSED" : "")
    }

    /// The keys this scene answers to.
    private var keysText: String {
        scene.gravity != nil ? "keys: space up down left right s e o h q"
            : !scene.scrollViews.isEmpty ? "keys: space up down pgup pgdn s e o h q, wheel, drag"
            : effect.states.isEmpty ? "keys: space up down s e o h q"
            : "keys: space up down s e o h q, " + effect.states.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: " ")
    }

    /// "1 cell", "20 cells".
    private var countText: String {
        let countLabel = effect.countLabel
        let label = request.count == 1 && countLabel.hasSuffix("s") ? String(countLabel.dropLast()) : countLabel
        return "\(request.count) \(label)"
    }

    /// One line for a title bar or a terminal.
    public func summary(overall: Bool = false) -> String {
        let parts = halves.map { half -> String in
            let s = overall ? half.meter.overallSnapshot(atWall: Clocks.wall()) : half.meter.latest
            return "\(Format.strategy(half.backend, for: scene)): \(Format.framesPerSecond(s.framesPerSecond)), "
                + "\(Format.perFrame(.cpuMs, s.cpuMilliseconds)), \(Format.perFrame(.gpuMs, s.gpuMilliseconds))"
        }
        return parts.joined(separator: " | ") + " | " + effect.name + (effect.countLabel.isEmpty ? "" : ", " + countText)
            + (verdictText(overall: overall).map { " | " + $0 } ?? "")
    }
}
