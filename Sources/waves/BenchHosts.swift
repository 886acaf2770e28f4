import WaveBench
import WaveCore
import WaveGL
import WaveWindow

/// Wires the GL module into the benchmark, which imports no GL: one shared
/// context (headless, or a window's) for both strategies, its timer queries,
/// the CPU strategy's uploads, and, in a window, showing every frame.
enum BenchHosts {
    /// A headless EGL context where one can be made; the CPU alone otherwise.
    static func headless(subpixel: SubpixelMode) -> BenchHost {
        do {
            return on(try unavailableOnGLError { try HeadlessGLContext() }, window: nil, subpixel: subpixel)
        } catch {
            return .cpuOnly(reason: "\(error)")
        }
    }

    /// A window of at most 1920x1080 showing every frame; throws
    /// `RendererError.unavailable` where none can be opened.
    static func windowed(width: Int, height: Int, subpixel: SubpixelMode) throws -> BenchHost {
        let window = try BenchWindow(width: width, height: height)
        return on(window.context, window: window, subpixel: subpixel)
    }

    private static func on(_ context: GLContext, window: BenchWindow?, subpixel: SubpixelMode) -> BenchHost {
        var host = BenchHost(
            deviceName: (try? context.makeCurrent()) != nil ? context.renderer : nil,
            unavailableReason: "the GL context could not be made current",
            makeRenderer: { backend in
                try context.makeCurrent()
                return try BackendChooser.renderer(backend, host: context, subpixel: subpixel)
            },
            makeUploader: { try SharedFramePresenter.make(caps: context.capabilities) },
            makeTimer: { GPUTimer() })
        host.finishGPU = { context.finish() }
        host.makeCopyingUploader = { CPUFramePresenter(caps: context.capabilities) }
        host.sharesFrames = context.capabilities.maxSharedFrameTexels > 0
        host.checkErrors = { step in try unavailableOnGLError { try checkGLErrors(step) } }
        if let window {
            host.show = { window.show($0) }
            host.vsyncInterval = { window.enableVsyncIfPaced() }
            host.setVsync = { window.context.setSwapInterval($0 ? 1 : 0) }
        }
        return host
    }
}
