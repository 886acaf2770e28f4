import CGL
import WaveCore

/// How the CPU strategy's frame reaches the GPU, as a phone's backing store
/// does: its pixel buffer is uploaded every frame into a texture (pages of a
/// texture array when taller than GL_MAX_TEXTURE_SIZE), then blitted to the
/// screen. The upload is part of the CPU strategy's cost.
///
/// Measured on llvmpipe (1920x1080, release): the buffer as RGBA bytes into a
/// GL_RGBA8 texture is a straight copy (1.5 ms for the CPU strategy's whole
/// frame; a BGRA upload converts, 4.6 ms), and a framebuffer blit that does
/// not flip is a copy too (0.55 ms GPU), while a flipping blit goes through
/// a shader (5.4 ms). So the CPU renderer keeps its rows bottom to top, as
/// GL does, and the blit never flips.
public final class CPUFramePresenter {
    public private(set) var width = 0
    public private(set) var height = 0
    private var pages: Pages?
    private var texture: GLuint = 0
    private var readFramebuffer: GLuint = 0

    public init() {
        glGenTextures(1, &texture)
        glGenFramebuffers(1, &readFramebuffer)
    }

    deinit {
        glDeleteTextures(1, &texture)
        glDeleteFramebuffers(1, &readFramebuffer)
    }

    /// Bytes one `upload` moves.
    public var bytesPerUpload: Int { width * height * 4 }

    /// Sizes the texture; does nothing when the size is unchanged.
    public func prepare(width: Int, height: Int) throws {
        if width == self.width && height == self.height { return }
        let pages = try Pages(width: width, height: height, what: "CPU frame")
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

    /// Uploads a whole frame (`width * height` packed RGBA words) in memory
    /// order: texture row 0 is the first row in memory.
    public func upload(_ pixels: UnsafeBufferPointer<UInt32>) {
        guard let pages, let base = pixels.baseAddress, pixels.count >= width * height else { return }
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        for page in 0..<pages.count {
            glTexSubImage3D(GLenum(GL_TEXTURE_2D_ARRAY), 0, 0, 0, GLint(page), GLsizei(width), GLsizei(pages.frameRows(of: page)), 1,
                            GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), base + page * pages.rows * width)
        }
    }

    /// Blits the first page of the uploaded frame into `viewport` of the
    /// framebuffer bound for drawing, first row in memory at the bottom (GL's
    /// order: upright for a frame stored bottom to top).
    public func blit(to viewport: (x: Int, y: Int, width: Int, height: Int)) {
        guard let pages else { return }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), readFramebuffer)
        glFramebufferTextureLayer(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), texture, 0, 0)
        let rows = min(pages.rows, viewport.height)
        glBlitFramebuffer(0, 0, GLint(min(width, viewport.width)), GLint(rows),
                          GLint(viewport.x), GLint(viewport.y + viewport.height - rows),
                          GLint(viewport.x + min(width, viewport.width)), GLint(viewport.y + viewport.height),
                          GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
    }
}
