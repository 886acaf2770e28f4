import CGL
import WaveCore

/// How the CPU strategy's frame reaches the GPU, as a phone's backing store
/// does: its pixmap is uploaded every frame into a texture (pages of a
/// texture array when taller than GL_MAX_TEXTURE_SIZE), then blitted to the
/// screen. The upload is part of the CPU strategy's cost; the blit is showing.
///
/// Measured on llvmpipe (1920x1080, release): RGBA bytes into a GL_RGBA8
/// texture is a straight copy (1.5 ms for the CPU strategy's whole frame; a
/// BGRA upload converts, 4.6 ms), and a framebuffer blit that does not flip
/// is a copy too (0.55 ms GPU), while a flipping blit goes through a shader
/// (5.4 ms). So callers that show frames keep the pixmap's rows bottom to
/// top (a negative row stride), as GL does, and the blit never flips; a
/// top-down pixmap still shows upright, through the flipping blit.
package final class CPUFramePresenter: FrameUploader, Presentable {
    package private(set) var width = 0
    package private(set) var height = 0
    private var bottomUp = true
    private let caps: GLCapabilities
    private var pages: Pages?
    private var texture: GLuint = 0
    /// Reads the texture's pages in the blit.
    private var sourceFramebuffer: GLuint = 0

    /// Needs the context's limits, and the context current.
    package init(caps: GLCapabilities) {
        self.caps = caps
        glGenTextures(1, &texture)
        glGenFramebuffers(1, &sourceFramebuffer)
    }

    deinit {
        glDeleteTextures(1, &texture)
        glDeleteFramebuffers(1, &sourceFramebuffer)
    }

    package var bytesPerUpload: Int { width * height * 4 }

    /// This presenter copies every frame (`SharedFramePresenter` does not).
    package func sharedPixmap() -> Pixmap? { nil }

    /// Sizes the texture; does nothing when the size is unchanged.
    package func prepare(width: Int, height: Int) throws {
        if width == self.width && height == self.height { return }
        let pages = try Pages(width: width, height: height, caps: caps, what: "CPU frame")
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), texture)
        glTexImage3D(GLenum(GL_TEXTURE_2D_ARRAY), 0, GL_RGBA8, GLsizei(width), GLsizei(pages.rows), GLsizei(pages.count),
                     0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        try checkGLErrors("sizing the CPU frame texture \(width)x\(pages.rows)x\(pages.count)")
        self.width = width
        self.height = height
        self.pages = pages
    }

    /// Uploads the whole pixmap in memory order (texture row 0 is the row at
    /// the lowest address), with its row stride as the unpack row length.
    package func upload(_ pixmap: Pixmap) {
        guard let pages, pixmap.width == width, pixmap.height == height, let base = pixmap.memory.baseAddress else { return }
        bottomUp = pixmap.isBottomUp
        let stride = abs(pixmap.rowStride)
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), GLint(stride == width ? 0 : stride))
        for page in 0..<pages.count {
            glTexSubImage3D(GLenum(GL_TEXTURE_2D_ARRAY), 0, 0, 0, GLint(page), GLsizei(width), GLsizei(pages.frameRows(of: page)), 1,
                            GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), base + page * pages.rows * stride)
        }
        glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
    }

    /// Blits the scene's top rows, upright, to the top left of `viewport`
    /// in the framebuffer bound for drawing.
    package func present(to viewport: Viewport) {
        guard let pages else { return }
        let shown = min(height, viewport.height), columns = GLint(min(width, viewport.width))
        let top = viewport.y + viewport.height
        // Memory rows holding scene rows [0, shown).
        let memory = bottomUp ? (height - shown)..<height : 0..<shown
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), sourceFramebuffer)
        for page in 0..<pages.count {
            let pageRows = (page * pages.rows)..<(page * pages.rows + pages.frameRows(of: page))
            let rows = memory.clamped(to: pageRows)
            if rows.isEmpty { continue }
            glFramebufferTextureLayer(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), texture, 0, GLint(page))
            let src0 = GLint(rows.lowerBound - pageRows.lowerBound), src1 = GLint(rows.upperBound - pageRows.lowerBound)
            // Bottom-up: memory row m is window row m + (top - height). Top-down: window row top - 1 - m (flipped).
            let (dst0, dst1) = bottomUp
                ? (GLint(rows.lowerBound + top - height), GLint(rows.upperBound + top - height))
                : (GLint(top - rows.lowerBound), GLint(top - rows.upperBound))
            glBlitFramebuffer(0, src0, columns, src1, GLint(viewport.x), dst0, GLint(viewport.x) + columns, dst1,
                              GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
    }
}
