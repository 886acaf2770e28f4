import CGL
import WaveCore
import WaveGL

/// One strategy in the demo: its renderer drawing into its own target, what
/// its frames cost (the same `cpu_ms` as the bench: the renderer's draw plus,
/// for the CPU, the upload; showing the frame is not counted), its last
/// frames' costs and its heads-up display (text and frame-time graph). A
/// GL half whose scene is past the driver's limits (a window resized taller
/// than its textures, dots too dense for its shader) is drawn by the CPU
/// strategy instead, saying so, until the scene fits again.
final class StrategyHalf {
    let backend: Backend
    private(set) var renderer: Renderer
    private(set) var meter: StrategyMeter
    /// The last frames' CPU and GPU milliseconds, for the graph.
    private(set) var history = FrameTimeHistory()
    private let hudText: TextOverlay
    private let graph: FrameTimeGraph
    private let timer = GPUTimer()
    private let context: GLContext
    /// The CPU strategy where its presenter copies frames: a bottom-up pixmap
    /// (GL's row order), uploaded and blitted; nil where the frame is drawn in
    /// the presenter's memory, which the GPU reads in place.
    private var pixmap: Pixmap?
    private var presenter: (FrameUploader & Presentable)?
    /// The GL strategy: an area of the framebuffer drawn into directly.
    private var region: GLFramebufferRegion?
    /// Why this GL half is drawn by the CPU (the driver's words), or nil.
    private(set) var fallback: String?
    /// While an overlay shows (`setCounting`): this half's counts of the
    /// last frame, and for the GL strategy the framebuffer it then draws
    /// into (counting needs its stencil), shown in the area after.
    private(set) var counts: PixelCounts?
    private var countingTarget: GLFramebufferTarget?
    /// Made once: a closure passed per frame would be allocated per frame.
    private var gpuSink: ((Double) -> Void)!

    /// The GL renderer's sub-pixel mode; takes effect at the next `prepare`.
    var subpixel: SubpixelMode

    init(_ backend: Backend, scene: Scene, context: GLContext, wallNow: Double, subpixel: SubpixelMode = .exact) throws {
        GLBackend.register()
        self.backend = backend
        self.subpixel = subpixel
        self.context = context
        renderer = CPURenderer()
        meter = StrategyMeter(wallNow: wallNow)
        let hudProgram = try FlatColorProgram()
        hudText = TextOverlay(program: hudProgram)
        graph = FrameTimeGraph(program: hudProgram)
        gpuSink = { [unowned self] in
            self.meter.addGPU(milliseconds: $0)
            self.history.gpu.append($0)
        }
        try choose(for: scene)
    }

    /// The GL renderer where the scene fits the driver, else (or for the CPU half) the CPU's.
    private func choose(for scene: Scene) throws {
        if backend == .gl {
            do {
                renderer = try BackendChooser.prepared(.gl, for: scene, host: context, subpixel: subpixel)
                presenter = nil
                pixmap = nil
                region = GLFramebufferRegion(viewport: Viewport(x: 0, y: 0, width: scene.width, height: scene.height))
                fallback = nil
                return
            } catch let error as RendererError {
                guard case let .unavailable(_, reason) = error else { throw error }
                fallback = reason
            }
        }
        renderer = try BackendChooser.make(.cpu, for: scene).renderer
        presenter = try SharedFramePresenter.make(caps: context.capabilities)
        region = nil
    }

    /// Prepares `scene` (textures re-made only when it changed).
    func prepare(_ scene: Scene) throws {
        if fallback != nil {
            try choose(for: scene) // back to GL if it fits now
        } else {
            do {
                renderer.subpixel = subpixel
                try renderer.prepare(scene: scene)
            } catch let error as RendererError where backend == .gl {
                guard case .unavailable = error else { throw error }
                try choose(for: scene)
            }
        }
        if counts != nil { try setCounting(true, scene: scene) }
        if let presenter {
            try presenter.prepare(width: scene.width, height: scene.height)
            if presenter.sharedPixmap() != nil {
                pixmap = nil
            } else if pixmap?.width != scene.width || pixmap?.height != scene.height {
                pixmap = Pixmap(width: scene.width, height: scene.height, rowStride: -scene.width)
            }
        }
    }

    /// Counts every frame's pixels from now on (`PixelCounts`), or stops.
    func setCounting(_ on: Bool, scene: Scene) throws {
        let counting = renderer as? PixelCounting
        guard on, let counting else {
            counting?.pixelCounts = nil
            (counts, countingTarget) = (nil, nil)
            return
        }
        if counts?.width != scene.width || counts?.height != scene.height { counts = PixelCounts(width: scene.width, height: scene.height) }
        counting.pixelCounts = counts
        countingTarget = region == nil ? nil : try renderer.makeTarget() as? GLFramebufferTarget
    }

    /// Draws, measures and shows one frame in `area` of `framebuffer`.
    /// Allocates nothing.
    func frame(time: Double, area: Viewport, framebuffer: GLuint) throws {
        if let region {
            region.framebuffer = framebuffer
            region.viewport = area
        }
        timer.begin()
        let start = Clocks.threadCPU()
        // Drawn where the GPU reads it, where the driver shares the frame's memory.
        if let presenter, let frame = presenter.sharedPixmap() ?? pixmap {
            try renderer.draw(time: time, into: frame)
            presenter.upload(frame)
        } else if let countingTarget {
            try renderer.draw(time: time, into: countingTarget)
        } else if let region {
            try renderer.draw(time: time, into: region)
        }
        let cpuMilliseconds = (Clocks.threadCPU() - start) * 1000
        meter.addFrame(cpuMilliseconds: cpuMilliseconds)
        history.cpu.append(cpuMilliseconds)
        timer.end()
        if let presenter {
            glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), framebuffer)
            presenter.present(to: area)
        } else if let countingTarget {
            glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), framebuffer)
            countingTarget.present(to: area)
        }
        timer.collect(gpuSink)
    }

    /// Lays `lines` out for `mode` in a half `halfWidth` pixels wide, shown from the next `drawHUD`.
    func setHUD(_ lines: [HUDLine], mode: HUDMode, halfWidth: Int) {
        let layout = HUDLayout(lines, mode: mode, halfWidth: halfWidth)
        hudText.setText(layout)
        graph.area = layout.graph
    }

    /// Draws the display (panel, text and graph) over `area`. Allocates nothing.
    func drawHUD(area: Viewport) {
        hudText.draw(viewport: area)
        graph.draw(history, viewport: area)
    }

    func drainTimer() { timer.drain(gpuSink) }

    func refreshMeter(atWall now: Double) -> Bool { meter.refresh(atWall: now) }
}
