import CGL
import WaveCore
import WaveGL

/// One strategy in the demo: its renderer drawing into its own target, what
/// its frames cost (the same `cpu_ms` as the bench: the renderer's draw plus,
/// for the CPU, the upload; showing the frame is not counted), and its
/// heads-up display.
final class StrategyHalf {
    let backend: Backend
    let renderer: Renderer
    private(set) var meter: StrategyMeter
    let overlay: TextOverlay
    private let timer = GPUTimer()
    /// The CPU strategy: a bottom-up pixmap (GL's row order), uploaded and blitted.
    private var pixmap: Pixmap?
    private let presenter: CPUFramePresenter?
    /// The GL strategy: an area of the framebuffer drawn into directly.
    private let region: GLFramebufferRegion?
    /// Made once: a closure passed per frame would be allocated per frame.
    private var gpuSink: ((Double) -> Void)!

    init(_ backend: Backend, scene: Scene, context: GLContext, wallNow: Double) throws {
        self.backend = backend
        switch backend {
        case .cpu:
            renderer = try BackendChooser.make(.cpu, for: scene).renderer
            presenter = CPUFramePresenter(caps: context.capabilities)
            region = nil
        case .gl:
            renderer = try BackendChooser.makeGL(for: scene, context: context)
            presenter = nil
            region = GLFramebufferRegion(viewport: Viewport(x: 0, y: 0, width: scene.width, height: scene.height))
        }
        meter = StrategyMeter(wallNow: wallNow)
        overlay = try TextOverlay()
        gpuSink = { [unowned self] in self.meter.addGPU(milliseconds: $0) }
    }

    /// Prepares `scene` (textures re-made only when it changed).
    func prepare(_ scene: Scene) throws {
        try renderer.prepare(scene: scene)
        if let presenter {
            if pixmap?.width != scene.width || pixmap?.height != scene.height {
                pixmap = Pixmap(width: scene.width, height: scene.height, rowStride: -scene.width)
            }
            try presenter.prepare(width: scene.width, height: scene.height)
        }
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
        if let pixmap, let presenter {
            try renderer.draw(time: time, into: pixmap)
            presenter.upload(pixmap)
        } else if let region {
            try renderer.draw(time: time, into: region)
        }
        meter.addFrame(cpuMilliseconds: (Clocks.threadCPU() - start) * 1000)
        timer.end()
        if let presenter {
            glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), framebuffer)
            presenter.present(to: area)
        }
        timer.collect(gpuSink)
    }

    func drainTimer() { timer.drain(gpuSink) }

    func refreshMeter(atWall now: Double) -> Bool { meter.refresh(atWall: now) }
}
