import CGL
import WaveCore

/// Where the GL renderer draws: one or more pages, each an area of a bound
/// framebuffer showing scene rows from its top. A frame of several batches
/// is stored premultiplied (see Shaders/layer.frag.glsl) and reading it back
/// un-premultiplies; a frame of one batch is stored as it is.
public protocol GLDrawTarget: RenderTarget {
    var pageCount: Int { get }
    /// Set by the renderer with each frame.
    var storesPremultiplied: Bool { get set }
    /// Binds page `page` for drawing; returns its area and the scene row at its top.
    func bindPage(_ page: Int) -> (viewport: Viewport, pageTop: Int)
    /// The texture array and layer holding page `page`, where the target is
    /// one (whole-pixel copies then go straight into it); nil otherwise.
    func pageTexture(_ page: Int) -> (texture: GLuint, layer: Int)?
}

extension GLDrawTarget {
    public func pageTexture(_ page: Int) -> (texture: GLuint, layer: Int)? { nil }
}

/// An offscreen framebuffer: a texture array whose layers are pages of at
/// most GL_MAX_TEXTURE_SIZE rows (the benchmark's 80,000-row scenes).
public final class GLFramebufferTarget: GLDrawTarget, Presentable {
    public let width: Int
    public let height: Int
    package let pages: Pages
    public var storesPremultiplied = false
    private var texture: GLuint = 0
    private var framebuffer: GLuint = 0
    /// A stencil buffer a page in size, made the first time a frame is
    /// counted (`GLRenderer.pixelCounts`): each fragment adds one where it lands.
    private var stencil: GLuint = 0

    public init(width: Int, height: Int, caps: GLCapabilities) throws {
        self.width = width
        self.height = height
        pages = try Pages(width: width, height: height, caps: caps, what: "frame")
        glGenFramebuffers(1, &framebuffer)
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), texture)
        glTexImage3D(GLenum(GL_TEXTURE_2D_ARRAY), 0, GL_RGBA8, GLsizei(width), GLsizei(pages.rows), GLsizei(pages.count),
                     0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        // One level, so the texture is complete: glCopyImageSubData copies only into complete textures.
        glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTextureLayer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), texture, 0, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            // A texture the driver could not store leaves the framebuffer incomplete: its GL_OUT_OF_MEMORY says why.
            defer { glDeleteFramebuffers(1, &framebuffer); glDeleteTextures(1, &texture) }
            try checkGLErrors("making a \(width)x\(pages.rows)x\(pages.count) render target")
            throw GLError.framebuffer(status: status)
        }
        try checkGLErrors("making a \(width)x\(pages.rows)x\(pages.count) render target")
    }

    deinit {
        glDeleteFramebuffers(1, &framebuffer)
        glDeleteTextures(1, &texture)
        if stencil != 0 { glDeleteRenderbuffers(1, &stencil) }
    }

    public var pageCount: Int { pages.count }

    /// Gives the target its stencil buffer (once), for counting fragments.
    func attachStencil() throws {
        guard stencil == 0 else { return }
        glGenRenderbuffers(1, &stencil)
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), stencil)
        // Depth and stencil together: the combination every driver takes (a stencil alone is optional in GL).
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH24_STENCIL8), GLsizei(width), GLsizei(pages.rows))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), stencil)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else { throw GLError.framebuffer(status: status) }
        try checkGLErrors("adding a stencil buffer to a \(width)x\(pages.rows) render target")
    }

    /// The bound page's stencil values, rows bottom to top, into `bytes` (width x page rows).
    func readStencil(into bytes: UnsafeMutablePointer<UInt8>) {
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glReadPixels(0, 0, GLsizei(width), GLsizei(pages.rows), GLenum(GL_STENCIL_INDEX), GLenum(GL_UNSIGNED_BYTE), bytes)
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
    }

    public func pageTexture(_ page: Int) -> (texture: GLuint, layer: Int)? { (texture, page) }

    public func bindPage(_ page: Int) -> (viewport: Viewport, pageTop: Int) {
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        if pages.count > 1 {
            glFramebufferTextureLayer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), texture, 0, GLint(page))
        }
        return (Viewport(x: 0, y: 0, width: width, height: pages.rows), page * pages.rows)
    }

    /// Blits the scene's top rows (from the first page), upright, to the top
    /// left of `viewport` in the framebuffer bound for drawing.
    package func present(to viewport: Viewport) {
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
        if pages.count > 1 {
            glFramebufferTextureLayer(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), texture, 0, 0)
        }
        let rows = min(pages.rows, viewport.height), columns = min(width, viewport.width)
        glBlitFramebuffer(0, GLint(pages.rows - rows), GLint(columns), GLint(pages.rows),
                          GLint(viewport.x), GLint(viewport.y + viewport.height - rows),
                          GLint(viewport.x + columns), GLint(viewport.y + viewport.height),
                          GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
    }

    public func readback() throws -> RGBAImage {
        var image = try CheckedMemory.allocating(bytes: width * height * 4, for: "reading back a \(width)x\(height) frame") {
            RGBAImage(width: width, height: height)
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        for p in 0..<pages.count {
            glFramebufferTextureLayer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), texture, 0, GLint(p))
            // A page's top row is scene row p * rows (GL's row rows - 1); the last page may be part-filled.
            let rows = pages.frameRows(of: p)
            readFramebuffer(y: pages.rows - rows, width: width, height: rows, into: &image, fromRow: p * pages.rows)
        }
        if pages.count > 1 {
            glFramebufferTextureLayer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), texture, 0, 0)
        }
        try unavailableOnGLError { try checkGLErrors("reading the frame back") }
        if storesPremultiplied { image.unpremultiply() }
        return image
    }
}

/// An area of an existing framebuffer (a window's, 0, or one the caller
/// made): the demo's halves. One page: the scene must be the area's size.
public final class GLFramebufferRegion: GLDrawTarget {
    public var framebuffer: GLuint
    public var viewport: Viewport
    public var storesPremultiplied = false

    public init(framebuffer: GLuint = 0, viewport: Viewport) {
        self.framebuffer = framebuffer
        self.viewport = viewport
    }

    public var width: Int { viewport.width }
    public var height: Int { viewport.height }
    public let pageCount = 1

    public func bindPage(_ page: Int) -> (viewport: Viewport, pageTop: Int) {
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), framebuffer)
        return (viewport, 0)
    }

    public func readback() throws -> RGBAImage {
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
        var image = try CheckedMemory.allocating(bytes: width * height * 4, for: "reading back a \(width)x\(height) frame") {
            readFramebuffer(x: viewport.x, y: viewport.y, width: viewport.width, height: viewport.height)
        }
        try unavailableOnGLError { try checkGLErrors("reading the area back") }
        if storesPremultiplied { image.unpremultiply() }
        return image
    }
}

extension RGBAImage {
    /// Premultiplied pixels to the project's non-premultiplied convention:
    /// c = round(255 * p / a); exact where alpha is 255.
    mutating func unpremultiply() {
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = Int(pixels[i + 3])
            if a == 255 { continue }
            if a == 0 { pixels[i] = 0; pixels[i + 1] = 0; pixels[i + 2] = 0; continue }
            for c in 0..<3 { pixels[i + c] = UInt8(min(255, (Int(pixels[i + c]) * 255 + a / 2) / a)) }
        }
    }
}
