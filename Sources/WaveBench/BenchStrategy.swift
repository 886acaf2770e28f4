import CMallocCounter
import WaveCore

/// The times one frame's work took, as the strategy itself measures them
/// (thread CPU time, seconds). Plain values: filling it allocates nothing.
package struct FrameWork {
    /// The strategy's own CPU time (`Figure.cpuMs`): everything below.
    package var cpu = 0.0
    /// CPU strategy: the renderer's draw (rebuilding and rasterising the paths).
    package var raster: Double?
    /// CPU strategy: uploading the pixels into a texture.
    package var upload: Double?

    package init() {}
}

/// What a GPU backend adds to a run, supplied by the caller (the command
/// line wires the GL module in): the benchmark itself imports no GL.
package struct BenchHost {
    /// GL_RENDERER, or nil where no GPU backend could be made.
    package var deviceName: String?
    /// Why there is no GPU backend (for notices).
    package var unavailableReason: String?
    /// A renderer of `backend` on the shared context.
    package var makeRenderer: (Backend) throws -> Renderer
    /// Hands CPU frames to the GPU where frames end on one (drawn in memory it
    /// reads in place where the driver can share it, else copied); nil without one.
    package var makeUploader: () throws -> FrameUploader?
    /// The copying hand-over, wherever frames end on a GPU (the raster preset races it against the shared one).
    package var makeCopyingUploader: () throws -> FrameUploader? = { nil }
    /// Whether `makeUploader` shares the frame's memory with the GPU.
    package var sharesFrames = false
    package var makeTimer: () throws -> GPUTiming?
    /// Waits for the GPU (glFinish); nothing without one.
    package var finishGPU: () -> Void = {}
    /// Throws if the GPU backend reported errors since the last check.
    package var checkErrors: (String) throws -> Void = { _ in }
    /// Windowed runs: shows a frame (blit and swap).
    package var show: ((Presentable) -> Void)?
    /// Windowed runs: vsync's refresh interval where the display paces swaps.
    package var vsyncInterval: (() -> Double?)?
    /// Windowed runs: swaps wait for the display (true) or not.
    package var setVsync: ((Bool) -> Void)?

    package init(deviceName: String?, unavailableReason: String?, makeRenderer: @escaping (Backend) throws -> Renderer,
                makeUploader: @escaping () throws -> FrameUploader?, makeTimer: @escaping () throws -> GPUTiming?) {
        self.deviceName = deviceName
        self.unavailableReason = unavailableReason
        self.makeRenderer = makeRenderer
        self.makeUploader = makeUploader
        self.makeTimer = makeTimer
    }

    /// Only the CPU strategy, without uploads: a machine with no GPU backend.
    package static func cpuOnly(reason: String) -> BenchHost {
        BenchHost(deviceName: nil, unavailableReason: reason, makeRenderer: { backend in
            guard backend == .cpu else { throw RendererError.unavailable(.gl, reason: reason) }
            return CPURenderer() // the chooser's CPU renderer; the chooser itself lives with GL
        }, makeUploader: { nil }, makeTimer: { nil })
    }
}

/// Brackets a strategy's GPU work with a timer query. The query calls are
/// the measurement's, not the strategy's: they stay out of the allocation
/// count (Mesa allocates in glBeginQuery) as they stay out of the
/// strategy's thread CPU time.
package final class GPUBracket {
    let timer: GPUTiming?
    /// Allocations counted in the frame's window before the last pause, and
    /// of those the ones made by code outside the project (the GL driver).
    private(set) var counted: UInt64 = 0
    private(set) var foreign: UInt64 = 0

    init(timer: GPUTiming?) { self.timer = timer }

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

    package func begin() {
        guard let timer else { return }
        pause()
        timer.begin()
        waves_malloc_counter_start()
    }

    package func end() {
        guard let timer else { return }
        pause()
        timer.end()
        waves_malloc_counter_start()
    }
}

/// One strategy as the benchmark drives it: a renderer drawing into a
/// target the benchmark owns, plus, for the CPU strategy where a GPU is,
/// the upload of every frame (as a phone uploads its backing store).
package final class BenchStrategy {
    package let backend: Backend
    package let renderer: Renderer
    private let uploader: FrameUploader?
    private let host: BenchHost
    package private(set) var target: RenderTarget?

    package init(_ backend: Backend, host: BenchHost) throws {
        self.backend = backend
        self.host = host
        renderer = try host.makeRenderer(backend)
        uploader = backend == .cpu ? try host.makeUploader() : nil
    }

    package var uploadBytesPerFrame: Int { uploader?.bytesPerUpload ?? 0 }

    package func prepare(scene: Scene) throws {
        try renderer.prepare(scene: scene)
        if backend == .cpu {
            // Rows in GL's order where they are uploaded: the upload is a straight copy.
            if target?.width != scene.width || target?.height != scene.height {
                target = Pixmap(width: scene.width, height: scene.height, rowStride: uploader != nil ? -scene.width : scene.width)
            }
            try uploader?.prepare(width: scene.width, height: scene.height)
        } else {
            target = try renderer.makeTarget()
        }
    }

    /// Makes the frame for `time`, with its GPU work between `gpu.begin()`
    /// and `gpu.end()`. Allocates nothing once warm.
    func work(time: Double, gpu: GPUBracket, into times: inout FrameWork) throws {
        guard let target else { throw RendererError.notPrepared(backend) }
        if backend == .gl {
            gpu.begin()
            let start = Clocks.threadCPU()
            try renderer.draw(time: time, into: target)
            times.cpu = Clocks.threadCPU() - start
            gpu.end()
            return
        }
        // Where the GPU reads the frame in place, it is drawn there (once the GPU has read the last one).
        let frame: RenderTarget = uploader?.sharedPixmap() ?? target
        let start = Clocks.threadCPU()
        try renderer.draw(time: time, into: frame)
        let raster = Clocks.threadCPU() - start
        times.raster = raster
        times.cpu = raster
        guard let uploader, let pixmap = frame as? Pixmap else { return }
        // Only the upload is GPU work here; the bracket holds it alone.
        gpu.begin()
        let uploadStart = Clocks.threadCPU()
        uploader.upload(pixmap)
        let upload = Clocks.threadCPU() - uploadStart
        gpu.end()
        times.upload = upload
        times.cpu = raster + upload
    }

    /// One frame at `time` drawn with the renderer counting its pixels (not
    /// timed: counting costs a pass over every span, and on GL a read-back);
    /// nil where the renderer cannot count (a driver without the stencil it
    /// needs: the row's timings still stand).
    func countPixels(time: Double) -> PixelsPerFrame? {
        guard let target, let counting = renderer as? PixelCounting else { return nil }
        let counts = PixelCounts(width: target.width, height: target.height)
        counting.pixelCounts = counts
        defer { counting.pixelCounts = nil }
        do {
            try renderer.draw(time: time, into: target)
        } catch {
            return nil
        }
        renderer.finish()
        return PixelsPerFrame(counting: counts)
    }

    /// Waits until the frame is complete, so frames do not overlap.
    func finish() {
        renderer.finish()
        if uploader != nil { host.finishGPU() }
    }

    /// What a window shows of the last frame.
    var presentable: Presentable? { backend == .cpu ? uploader as? Presentable : target as? Presentable }

    /// The time to write the frame's bytes once (see `WriteOnceBaseline`).
    /// Overwrites the last frame; the next `draw` makes a whole new one.
    func writeOnceMilliseconds(repeats: Int) -> Double? {
        guard let pixmap = target as? Pixmap else { return nil }
        return WriteOnceBaseline.milliseconds(filling: pixmap.memory, repeats: repeats)
    }
}
