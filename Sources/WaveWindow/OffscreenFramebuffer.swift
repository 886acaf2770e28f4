import CGL
import WaveGL

/// A framebuffer object with one RGBA8 colour renderbuffer: where the demo
/// draws when there is no window (and what tests draw the demo into).
/// Needs a current context, which must outlive it.
public final class OffscreenFramebuffer {
    public let id: GLuint
    public let width: Int
    public let height: Int
    private var colour: GLuint = 0

    public init(width: Int, height: Int) throws {
        var framebuffer: GLuint = 0
        glGenFramebuffers(1, &framebuffer)
        glGenRenderbuffers(1, &colour)
        id = framebuffer
        self.width = width
        self.height = height
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), colour)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), colour)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else { throw GLError.framebuffer(status: status) }
    }

    deinit {
        var framebuffer = id
        glDeleteFramebuffers(1, &framebuffer)
        glDeleteRenderbuffers(1, &colour)
    }
}
