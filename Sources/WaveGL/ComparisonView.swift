import CGL
import Foundation
import WaveCore

/// Which strategies the demo shows: side by side, or one full width.
public enum DemoLayout: String, CaseIterable, Sendable {
    case both, cpu, gl

    /// The width of each strategy's scene in a window this wide.
    public func sceneWidth(windowWidth: Int) -> Int {
        max(1, self == .both ? windowWidth / 2 : windowWidth)
    }
}

/// One frame of the comparison, drawn into whatever framebuffer is bound
/// (the window's, or an offscreen one): left half the CPU strategy, right
/// half the GL strategy, the same scene and the same time, each with a
/// heads-up display of what it costs.
public final class ComparisonView {
    public let layout: DemoLayout
    public private(set) var scene: Scene
    public private(set) var cpuMeter: StrategyMeter
    public private(set) var glMeter: StrategyMeter
    public var showsHUD = true

    private let cpu = CPURenderer()
    private let presenter = CPUFramePresenter()
    private let glLayer: GLWaveLayer
    private let cpuTimer = GPUTimer()
    private let glTimer = GPUTimer()
    private let cpuOverlay: TextOverlay
    private let glOverlay: TextOverlay
    private var framebuffer = (width: 0, height: 0)
    private var isPaused = false

    /// The cell counts Up and Down step through (those that fit the height).
    public static let cellSteps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]

    public init(scene template: Scene, layout: DemoLayout, wallNow: Double) throws {
        self.layout = layout
        scene = template
        cpuMeter = StrategyMeter(wallNow: wallNow)
        glMeter = StrategyMeter(wallNow: wallNow)
        glLayer = try GLWaveLayer()
        cpu.storesRowsBottomUp = true
        cpuOverlay = try TextOverlay()
        glOverlay = try TextOverlay()
    }

    public var showsCPU: Bool { layout != .gl }
    public var showsGL: Bool { layout != .cpu }

    /// Fits the scene to a framebuffer of this size: half the width each when
    /// both strategies show. Re-makes the textures only when the size changed.
    public func resize(width: Int, height: Int) throws {
        guard width > 0, height > 0, (width, height) != framebuffer else { return }
        framebuffer = (width, height)
        var s = scene
        s.width = layout.sceneWidth(windowWidth: width)
        s.height = height
        // A narrow or short window still shows a valid scene.
        s.cellCount = min(s.cellCount, height)
        s.wave.cycles = min(s.wave.cycles, max(1, s.width / 2))
        try apply(s)
    }

    /// Steps the cell count up or down through `cellSteps`.
    public func stepCells(up: Bool) throws {
        let fitting = Self.cellSteps.filter { $0 <= scene.height }
        let next = up ? fitting.first { $0 > scene.cellCount } : fitting.last { $0 < scene.cellCount }
        guard let next else { return }
        var s = scene
        s.cellCount = next
        try apply(s)
    }

    public func toggleSnap() throws {
        var s = scene
        s.snapToPixel.toggle()
        try apply(s)
    }

    public func setPaused(_ paused: Bool) {
        isPaused = paused
        needsHUDText = true
    }

    private func apply(_ s: Scene) throws {
        try s.validate()
        if showsCPU {
            try cpu.prepare(scene: s)
            try presenter.prepare(width: s.width, height: s.height)
        }
        if showsGL { try glLayer.prepare(scene: s) }
        scene = s
        needsHUDText = true
    }

    /// Draws both halves for scene time `time` and updates the meters (and,
    /// twice a second, the heads-up displays).
    public func drawFrame(time: Double, wallNow: Double) throws {
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), drawTarget)
        glViewport(0, 0, GLsizei(framebuffer.width), GLsizei(framebuffer.height))
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        let cpuArea = (x: 0, y: 0, width: scene.width, height: scene.height)
        let glArea = (x: layout == .both ? scene.width : 0, y: 0, width: scene.width, height: scene.height)

        if showsCPU {
            // The CPU strategy: rebuild, rasterise and upload, then put it on screen.
            cpuTimer.begin()
            let start = Clocks.threadCPU()
            try cpu.draw(time: time)
            presenter.upload(cpu.framePixels)
            presenter.blit(to: cpuArea)
            cpuMeter.addFrame(cpuMilliseconds: (Clocks.threadCPU() - start) * 1000)
            cpuTimer.end()
        }
        if showsGL {
            // The GL strategy: one uniform and one draw.
            glTimer.begin()
            let start = Clocks.threadCPU()
            glLayer.draw(time: time, viewport: glArea)
            glMeter.addFrame(cpuMilliseconds: (Clocks.threadCPU() - start) * 1000)
            glTimer.end()
        }
        cpuTimer.collect { self.cpuMeter.addGPU(milliseconds: $0) }
        glTimer.collect { self.glMeter.addGPU(milliseconds: $0) }

        let cpuChanged = cpuMeter.refresh(atWall: wallNow)
        let glChanged = glMeter.refresh(atWall: wallNow)
        if cpuChanged || glChanged || needsHUDText { updateHUDText() }
        if showsHUD {
            if showsCPU { cpuOverlay.draw(viewport: cpuArea) }
            if showsGL { glOverlay.draw(viewport: glArea) }
        }
    }

    /// The framebuffer drawn into: 0 for a window, an FBO when headless.
    public var drawTarget: GLuint = 0
    private var needsHUDText = true

    /// Waits for outstanding timer queries (end of a headless run).
    public func drainTimers() {
        cpuTimer.drain { self.cpuMeter.addGPU(milliseconds: $0) }
        glTimer.drain { self.glMeter.addGPU(milliseconds: $0) }
    }

    /// From now on the displays show averages over the whole run (the
    /// headless picture's figures).
    public func showOverallFigures() {
        showsOverall = true
        updateHUDText()
    }

    private var showsOverall = false

    private func updateHUDText() {
        needsHUDText = false
        let overall = showsOverall
        let settings = "\(scene.cellCount) cell\(scene.cellCount == 1 ? "" : "s")  \(scene.width)x\(scene.height)  snap \(scene.snapToPixel ? "on" : "off")\(isPaused ? "  PAUSED" : "")"
        func lines(_ backend: Backend, _ meter: StrategyMeter) -> [String] {
            let s = overall ? meter.overallSnapshot(atWall: Clocks.wall()) : meter.latest
            return [
                backend.strategyName,
                String(format: "%.1f fps", s.framesPerSecond),
                String(format: "CPU %.3f ms/frame", s.cpuMilliseconds),
                s.gpuMilliseconds.map { String(format: "GPU %.3f ms/frame", $0) } ?? "GPU -- ms/frame",
                settings,
            ]
        }
        cpuOverlay.setText(lines(.cpu, cpuMeter))
        var glLines = lines(.gl, glMeter)
        if layout != .cpu { glLines.append("keys: space up down s q") }
        glOverlay.setText(glLines)
    }

    /// One line for a title bar or a terminal.
    public func summary(overall: Bool = false) -> String {
        func part(_ name: String, _ meter: StrategyMeter) -> String {
            let s = overall ? meter.overallSnapshot(atWall: Clocks.wall()) : meter.latest
            let gpu = s.gpuMilliseconds.map { String(format: "%.3f", $0) } ?? "--"
            return name + String(format: " %.1f fps, CPU %.3f ms, GPU ", s.framesPerSecond, s.cpuMilliseconds) + gpu + " ms"
        }
        var parts: [String] = []
        if showsCPU { parts.append(part("CPU redraw:", cpuMeter)) }
        if showsGL { parts.append(part("GL translate:", glMeter)) }
        return parts.joined(separator: " | ") + " | \(scene.cellCount) cells"
    }
}
