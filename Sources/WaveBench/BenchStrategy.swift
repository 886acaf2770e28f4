import CGL
import CMallocCounter
import WaveCore
import WaveGL

/// The times one frame's work took, as the strategy itself measures them
/// (thread CPU time, seconds). Plain values: filling it allocates nothing.
public struct FrameWork {
    /// The strategy's own CPU time: everything below.
    public var cpu = 0.0
    /// CPU strategy: rebuilding and rasterising the paths.
    public var raster: Double?
    /// CPU strategy: uploading the pixels into a texture.
    public var upload: Double?

    public init() {}
}

/// Brackets a strategy's GPU work with a GL_TIME_ELAPSED query. The query
/// calls are the measurement's, not the strategy's: they stay out of the
/// allocation count (Mesa allocates in glBeginQuery) as they stay out of
/// the strategy's thread CPU time.
public final class GPUBracket {
    let timer: GPUTimer?
    /// Allocations counted in the frame's window before the last pause, and
    /// of those the ones made by code outside the project (the GL driver).
    private(set) var counted: UInt64 = 0
    private(set) var foreign: UInt64 = 0

    init(timer: GPUTimer?) { self.timer = timer }

    /// Opens the frame's allocation window.
    func startCounting() {
        counted = 0
        foreign = 0
        waves_malloc_counter_start()
    }

    /// Closes it; returns the allocations made in it: by the project's own
    /// code, and by other libraries (the GL driver) on this thread.
    func stopCounting() -> (own: UInt64, driver: UInt64) {
        pause()
        return (counted - foreign, foreign)
    }

    private func pause() {
        counted += waves_malloc_counter_stop()
        foreign += waves_malloc_counter_foreign()
    }

    public func begin() {
        guard let timer else { return }
        pause()
        timer.begin()
        waves_malloc_counter_start()
    }

    public func end() {
        guard let timer else { return }
        pause()
        timer.end()
        waves_malloc_counter_start()
    }
}

/// One way of making a frame, as the benchmark drives it. `work` is the
/// measured part and must not allocate once warm; `finish` waits until the
/// frame is complete, so that frames do not overlap.
public protocol BenchStrategy: AnyObject {
    var backend: Backend { get }
    /// Bytes moved to the GPU per frame.
    var uploadBytesPerFrame: Int { get }
    func prepare(scene: Scene) throws
    /// Makes the frame for `time`, with its GPU work between `gpu.begin()`
    /// and `gpu.end()`.
    func work(time: Double, gpu: GPUBracket, into times: inout FrameWork) throws
    func finish()
    /// Blits the frame into `viewport` of the framebuffer bound for drawing
    /// (a window's), outside the measured work.
    func present(to viewport: (x: Int, y: Int, width: Int, height: Int))
}

/// Redraw per tick: rasterise every cell's path into the pixel buffer, then
/// upload the buffer into a texture (as a phone's backing store would). With
/// no GL context the upload is skipped and only the rasterisation counts.
public final class CPUStrategy: BenchStrategy {
    public let backend = Backend.cpu
    public let renderer = CPURenderer()
    private let presenter: CPUFramePresenter?

    /// `withUpload` needs a current GL context.
    public init(withUpload: Bool) {
        presenter = withUpload ? CPUFramePresenter() : nil
        // Rows in GL's order, as the demo keeps them: the upload is a straight copy.
        renderer.storesRowsBottomUp = withUpload
    }

    public var uploadBytesPerFrame: Int { presenter?.bytesPerUpload ?? 0 }

    public func prepare(scene: Scene) throws {
        try renderer.prepare(scene: scene)
        try presenter?.prepare(width: scene.width, height: scene.height)
    }

    public func work(time: Double, gpu: GPUBracket, into times: inout FrameWork) throws {
        let start = Clocks.threadCPU()
        try renderer.draw(time: time)
        let raster = Clocks.threadCPU() - start
        times.raster = raster
        times.cpu = raster
        guard let presenter else { return }
        // Only the upload is GPU work here; the bracket holds it alone.
        gpu.begin()
        let uploadStart = Clocks.threadCPU()
        presenter.upload(renderer.framePixels)
        let upload = Clocks.threadCPU() - uploadStart
        gpu.end()
        times.upload = upload
        times.cpu = raster + upload
    }

    public func finish() {
        if presenter != nil { glFinish() }
    }

    public func present(to viewport: (x: Int, y: Int, width: Int, height: Int)) {
        presenter?.blit(to: viewport)
    }

    /// The time to write the frame's bytes once (see `WriteOnceBaseline`).
    /// Overwrites the last frame; the next `draw` makes a whole new one.
    public func writeOnceMilliseconds(repeats: Int) -> Double? {
        let frame = renderer.framePixels
        guard let base = frame.baseAddress else { return nil }
        return WriteOnceBaseline.milliseconds(
            filling: UnsafeMutableBufferPointer(start: UnsafeMutablePointer(mutating: base), count: frame.count),
            repeats: repeats)
    }
}

/// Render once, translate: set the offset uniform and issue the one
/// draw; the GPU (llvmpipe's threads under Mesa) does the rest.
public final class GLStrategy: BenchStrategy {
    public let backend = Backend.gl
    public let renderer: GLRenderer
    public let uploadBytesPerFrame = 0

    public init(context: GLContext) throws {
        renderer = try GLRenderer(context: context)
    }

    public func prepare(scene: Scene) throws {
        try renderer.prepare(scene: scene)
        try checkGLErrors("preparing the GL strategy")
    }

    public func work(time: Double, gpu: GPUBracket, into times: inout FrameWork) throws {
        gpu.begin()
        let start = Clocks.threadCPU()
        try renderer.draw(time: time)
        times.cpu = Clocks.threadCPU() - start
        gpu.end()
    }

    public func finish() { renderer.finish() }

    public func present(to viewport: (x: Int, y: Int, width: Int, height: Int)) {
        renderer.present(to: viewport)
    }
}
