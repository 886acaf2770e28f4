import CGL
import WaveCore

/// The render-once-translate strategy behind the common renderer protocol,
/// drawing offscreen into framebuffer objects.
///
/// A scene taller than the driver's largest render target (the benchmark's
/// 1000 cells of 80 rows are 80,000 rows) is drawn in pages: layers of one
/// render texture, each at most GL_MAX_TEXTURE_SIZE rows, one draw
/// per page. Rows are flipped once, at readback.
public final class GLRenderer: WaveRenderer {
    public let backend = Backend.gl
    public let context: GLContext
    public private(set) var scene: Scene?
    public let layer: GLWaveLayer
    private var target: GLuint = 0
    private var framebuffer: GLuint = 0
    private var pages: Pages?
    /// How many render-target pages the prepared scene needs.
    public var pageCount: Int { pages?.count ?? 0 }

    /// Makes a headless context when none is given.
    public init(context: GLContext? = nil) throws {
        self.context = try context ?? HeadlessGLContext()
        try self.context.makeCurrent()
        layer = try GLWaveLayer()
        glGenFramebuffers(1, &framebuffer)
        glGenTextures(1, &target)
        try checkGLErrors("creating the GL renderer")
    }

    deinit {
        glDeleteFramebuffers(1, &framebuffer)
        glDeleteTextures(1, &target)
    }

    public var rendererName: String { context.renderer }

    public func prepare(scene: Scene) throws {
        try scene.validate()
        try context.makeCurrent()
        // Until this scene is fully prepared, there is no scene to draw.
        let previous = self.scene
        self.scene = nil
        if scene.width != previous?.width || scene.height != previous?.height {
            try makeTarget(width: scene.width, height: scene.height)
        }
        try layer.prepare(scene: scene)
        self.scene = scene
    }

    private func makeTarget(width: Int, height: Int) throws {
        pages = nil
        let pages = try Pages(width: width, height: height, what: "frame")
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), target)
        glTexImage3D(GLenum(GL_TEXTURE_2D_ARRAY), 0, GL_RGBA8, GLsizei(width), GLsizei(pages.rows), GLsizei(pages.count),
                     0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTextureLayer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), target, 0, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else { throw GLError.framebuffer(status: status) }
        try checkGLErrors("making a \(width)x\(pages.rows)x\(pages.count) render target")
        self.pages = pages
    }

    public func draw(time: Double) throws {
        guard let scene, let pages else { throw RendererError.notPrepared(.gl) }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        for page in 0..<pages.count {
            if pages.count > 1 {
                glFramebufferTextureLayer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), target, 0, GLint(page))
            }
            layer.draw(time: time, viewport: (0, 0, scene.width, pages.rows), pageTop: page * pages.rows)
        }
    }

    /// Blits the top of the first page (the scene's top rows) into `viewport`
    /// of the framebuffer bound for drawing: the frame shown in a window.
    public func present(to viewport: (x: Int, y: Int, width: Int, height: Int)) {
        guard let scene, let pages else { return }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
        if pages.count > 1 {
            glFramebufferTextureLayer(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), target, 0, 0)
        }
        let rows = min(pages.rows, viewport.height), columns = min(scene.width, viewport.width)
        glBlitFramebuffer(0, GLint(pages.rows - rows), GLint(columns), GLint(pages.rows),
                          GLint(viewport.x), GLint(viewport.y + viewport.height - rows),
                          GLint(viewport.x + columns), GLint(viewport.y + viewport.height),
                          GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
    }

    /// Waits for the GPU to finish the frame (for timing the whole frame).
    public func finish() { glFinish() }

    public func readback() throws -> RGBAImage {
        guard let scene, let pages else { throw RendererError.notPrepared(.gl) }
        let rowBytes = scene.width * 4
        var image = RGBAImage(width: scene.width, height: scene.height)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        for p in 0..<pages.count {
            glFramebufferTextureLayer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), target, 0, GLint(p))
            // A page's top row is its scene row p * rows; the last page may be part-filled.
            let page = readFramebuffer(width: scene.width, height: pages.rows)
            let start = p * pages.rows * rowBytes
            image.pixels.replaceSubrange(start..<start + pages.frameRows(of: p) * rowBytes,
                                         with: page.pixels.prefix(pages.frameRows(of: p) * rowBytes))
        }
        if pages.count > 1 {
            glFramebufferTextureLayer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), target, 0, 0)
        }
        try checkGLErrors("reading the frame back")
        return image
    }
}
