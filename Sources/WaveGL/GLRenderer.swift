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
    private var pageRows = 0
    /// How many render-target pages the prepared scene needs.
    public private(set) var pageCount = 0

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
        var maxSize: GLint = 0, maxLayers: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &maxSize)
        glGetIntegerv(GLenum(GL_MAX_ARRAY_TEXTURE_LAYERS), &maxLayers)
        guard width <= Int(maxSize) else {
            throw GLError.limit(what: "a \(width)-pixel-wide frame (GL_MAX_TEXTURE_SIZE)", needed: width, available: Int(maxSize))
        }
        pageCount = (height + Int(maxSize) - 1) / Int(maxSize)
        pageRows = (height + pageCount - 1) / pageCount
        guard pageCount <= Int(maxLayers) else {
            throw GLError.limit(what: "\(pageCount) pages of \(pageRows) rows", needed: pageCount, available: Int(maxLayers))
        }
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), target)
        glTexImage3D(GLenum(GL_TEXTURE_2D_ARRAY), 0, GL_RGBA8, GLsizei(width), GLsizei(pageRows), GLsizei(pageCount),
                     0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTextureLayer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), target, 0, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else { throw GLError.framebuffer(status: status) }
        try checkGLErrors("making a \(width)x\(pageRows)x\(pageCount) render target")
    }

    public func draw(time: Double) throws {
        guard let scene else { throw RendererError.notPrepared(.gl) }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        for page in 0..<pageCount {
            if pageCount > 1 {
                glFramebufferTextureLayer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), target, 0, GLint(page))
            }
            layer.draw(time: time, viewport: (0, 0, scene.width, pageRows), pageTop: page * pageRows)
        }
    }

    /// Blits the top of the first page (the scene's top rows) into `viewport`
    /// of the framebuffer bound for drawing: the frame shown in a window.
    public func present(to viewport: (x: Int, y: Int, width: Int, height: Int)) {
        guard let scene else { return }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
        if pageCount > 1 {
            glFramebufferTextureLayer(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), target, 0, 0)
        }
        let rows = min(pageRows, viewport.height), columns = min(scene.width, viewport.width)
        glBlitFramebuffer(0, GLint(pageRows - rows), GLint(columns), GLint(pageRows),
                          GLint(viewport.x), GLint(viewport.y + viewport.height - rows),
                          GLint(viewport.x + columns), GLint(viewport.y + viewport.height),
                          GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
    }

    /// Waits for the GPU to finish the frame (for timing the whole frame).
    public func finish() { glFinish() }

    public func readback() throws -> RGBAImage {
        guard let scene else { throw RendererError.notPrepared(.gl) }
        let w = scene.width
        var image = RGBAImage(width: w, height: scene.height)
        var page = [UInt8](repeating: 0, count: w * pageRows * 4)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        for p in 0..<pageCount {
            glFramebufferTextureLayer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), target, 0, GLint(p))
            glReadPixels(0, 0, GLsizei(w), GLsizei(pageRows), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &page)
            let rows = min(pageRows, scene.height - p * pageRows)
            // GL row 0 is the page's bottom: scene row p*pageRows + (pageRows - 1 - glRow).
            image.pixels.withUnsafeMutableBytes { out in
                page.withUnsafeBytes { src in
                    for r in 0..<rows {
                        let glRow = pageRows - 1 - r
                        (out.baseAddress! + (p * pageRows + r) * w * 4)
                            .copyMemory(from: src.baseAddress! + glRow * w * 4, byteCount: w * 4)
                    }
                }
            }
        }
        if pageCount > 1 {
            glFramebufferTextureLayer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), target, 0, 0)
        }
        try checkGLErrors("reading the frame back")
        return image
    }
}
