import CGL
import Foundation
import WaveCore
import WaveGL

/// The benchmark in a window: each measured frame is shown (blitted into
/// the window and swapped), so the frames end on a screen. Whether the
/// display really paces swaps to its refresh (vsync) is measured, not
/// assumed: Xvfb, for one, returns from every swap at once.
public final class BenchWindow {
    public let context: WindowGLContext

    /// Throws `RendererError.unavailable` where no window can be opened.
    public init(width: Int, height: Int) throws {
        context = try unavailableOnGLError {
            try WindowGLContext(title: "waves bench", width: min(width, 1920), height: min(height, 1080))
        }
        context.setSwapInterval(0)
    }

    /// Shows `frame`'s top rows in the whole window and swaps.
    package func show(_ frame: Presentable) {
        let size = context.framebufferSize
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), 0)
        glViewport(0, 0, GLsizei(size.width), GLsizei(size.height))
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        frame.present(to: Viewport(x: 0, y: 0, width: size.width, height: size.height))
        context.swapBuffers()
    }

    /// Turns vsync on and returns the refresh interval (seconds) when swaps
    /// are really paced by it: the median of 20 swap intervals is at least
    /// half the refresh interval. Otherwise turns it off and returns nil.
    public func enableVsyncIfPaced() -> Double? {
        let refresh = 1 / (context.refreshRate ?? 60)
        context.setSwapInterval(1)
        var intervals: [Double] = []
        var last = Clocks.wall()
        for _ in 0..<21 {
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            context.swapBuffers()
            let now = Clocks.wall()
            intervals.append(now - last)
            last = now
        }
        let median = intervals.dropFirst().sorted()[10]
        if median >= refresh / 2 { return refresh }
        context.setSwapInterval(0)
        return nil
    }
}
