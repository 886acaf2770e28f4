import CGL
import WaveCore

/// The CPU strategy's frame drawn straight into memory the GPU reads, as a
/// phone's backing store is an IOSurface the compositor reads in place: a
/// buffer mapped once, persistently and coherently (GL 4.4's
/// `glBufferStorage`), that the CPU renderer draws into and a buffer texture
/// shows (`Shaders/frame.frag.glsl`). Nothing is copied per frame; before
/// the next frame is drawn the CPU waits on a fence until the GPU has read
/// the last one.
///
/// Measured on llvmpipe at 1920x1080 (`waves bench --preset raster`): a
/// copying upload (`CPUFramePresenter`) costs 0.9-1.5 ms a frame, and the
/// copy evicts from the caches what the next frame's rasteriser reads, so
/// the draw itself took 1.17x as long as with no GL context; drawn in place,
/// neither. Where the driver cannot map buffers so, `make(caps:)` returns
/// the copying presenter.
package final class SharedFramePresenter: FrameUploader, Presentable {
    package private(set) var width = 0
    package private(set) var height = 0
    private let maxTexels: Int
    private var buffer: GLuint = 0
    private var texture: GLuint = 0
    private var pixmap: Pixmap?
    /// Set after the frame is shown; waited on before the next is drawn.
    private var fence: GLsync?
    private let program: ShaderProgram
    private let origin, rowWidth, bottomRow: GLint
    private var vertexArray: GLuint = 0
    /// The viewport restored after showing (a stored array: showing allocates nothing).
    private var savedViewport = [GLint](repeating: 0, count: 4)

    /// The presenter a CPU strategy should use on this context: the shared
    /// frame where buffers can stay mapped, else the copying one.
    package static func make(caps: GLCapabilities) throws -> FrameUploader & Presentable {
        caps.maxSharedFrameTexels > 0 ? try SharedFramePresenter(caps: caps) : CPUFramePresenter(caps: caps)
    }

    /// Needs the context current and `caps.maxSharedFrameTexels` above 0.
    package init(caps: GLCapabilities) throws {
        guard caps.maxSharedFrameTexels > 0 else {
            throw GLError.limit(what: "a CPU frame shared with the GPU (GL 4.4 buffer storage)", needed: 1, available: 0)
        }
        maxTexels = caps.maxSharedFrameTexels
        program = try ShaderProgram(vertex: "overlay.vert.glsl", fragment: "frame.frag.glsl")
        origin = program.uniform("u_origin")
        rowWidth = program.uniform("u_width")
        bottomRow = program.uniform("u_bottomRow")
        glUseProgram(program.id)
        glUniform1i(program.uniform("u_frame"), 0)
        glUseProgram(0)
        glGenVertexArrays(1, &vertexArray)
    }

    deinit {
        release()
        glDeleteVertexArrays(1, &vertexArray)
    }

    private func release() {
        if let fence { glDeleteSync(fence) }
        fence = nil
        pixmap = nil
        if buffer != 0 {
            glBindBuffer(GLenum(GL_TEXTURE_BUFFER), buffer)
            glUnmapBuffer(GLenum(GL_TEXTURE_BUFFER))
            glBindBuffer(GLenum(GL_TEXTURE_BUFFER), 0)
            glDeleteBuffers(1, &buffer)
            glDeleteTextures(1, &texture)
        }
        (buffer, texture) = (0, 0)
    }

    /// Nothing is copied.
    package var bytesPerUpload: Int { 0 }

    /// Makes and maps the frame's buffer; does nothing when the size is unchanged.
    package func prepare(width: Int, height: Int) throws {
        if width == self.width && height == self.height && pixmap != nil { return }
        release()
        guard width > 0, height > 0, width * height <= maxTexels else {
            throw GLError.limit(what: "a shared CPU frame of \(width)x\(height) texels (GL_MAX_TEXTURE_BUFFER_SIZE)",
                                needed: width * height, available: maxTexels)
        }
        let bytes = width * height * 4
        let access = GLbitfield(GL_MAP_WRITE_BIT | GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT)
        glGenBuffers(1, &buffer)
        glBindBuffer(GLenum(GL_TEXTURE_BUFFER), buffer)
        // Client storage: memory the CPU reads and writes fast (the rasteriser blends), not write-combined.
        glBufferStorage(GLenum(GL_TEXTURE_BUFFER), GLsizeiptr(bytes), nil, access | GLbitfield(GL_CLIENT_STORAGE_BIT))
        let mapped = glMapBufferRange(GLenum(GL_TEXTURE_BUFFER), 0, GLsizeiptr(bytes), access)
        glBindBuffer(GLenum(GL_TEXTURE_BUFFER), 0)
        guard let words = mapped?.bindMemory(to: UInt32.self, capacity: width * height) else {
            try? checkGLErrors("mapping a shared CPU frame")
            release()
            throw GLError.limit(what: "a mapped CPU frame of \(bytes) bytes", needed: bytes, available: 0)
        }
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_BUFFER), texture)
        glTexBuffer(GLenum(GL_TEXTURE_BUFFER), GLenum(GL_RGBA8), buffer)
        glBindTexture(GLenum(GL_TEXTURE_BUFFER), 0)
        try checkGLErrors("sharing a \(width)x\(height) CPU frame with the GPU")
        // Rows top to bottom: the rasteriser writes them fastest so (the shader reads them either way).
        pixmap = Pixmap(wrapping: words, width: width, height: height, rowStride: width)
        self.width = width
        self.height = height
    }

    /// The frame to draw into, once the GPU has read the last one.
    package func sharedPixmap() -> Pixmap? {
        if let fence {
            _ = glClientWaitSync(fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 5_000_000_000)
            glDeleteSync(fence)
            self.fence = nil
        }
        return pixmap
    }

    /// The shared frame needs nothing (the mapping is coherent); another pixmap of the same size is copied in.
    package func upload(_ other: Pixmap) {
        guard let pixmap, other !== pixmap, other.width == width, other.height == height else { return }
        let to = pixmap.view, from = other.view
        for r in 0..<height { to.row(r).update(from: from.row(r), count: width) }
    }

    /// Draws the frame's top rows, upright, at the top left of `viewport` in
    /// the framebuffer bound for drawing, replacing what is there.
    package func present(to viewport: Viewport) {
        guard pixmap != nil else { return }
        let shown = min(height, viewport.height), columns = min(width, viewport.width)
        guard shown > 0, columns > 0 else { return }
        let top = viewport.y + viewport.height
        savedViewport.withUnsafeMutableBufferPointer { glGetIntegerv(GLenum(GL_VIEWPORT), $0.baseAddress) }
        let blends = glIsEnabled(GLenum(GL_BLEND)) == GLboolean(GL_TRUE), scissors = glIsEnabled(GLenum(GL_SCISSOR_TEST)) == GLboolean(GL_TRUE)
        glDisable(GLenum(GL_BLEND))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glViewport(GLint(viewport.x), GLint(top - shown), GLsizei(columns), GLsizei(shown))
        glUseProgram(program.id)
        glUniform2i(origin, GLint(viewport.x), GLint(top - shown))
        glUniform1i(rowWidth, GLint(width))
        glUniform1i(bottomRow, GLint(shown - 1))
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_BUFFER), texture)
        glBindVertexArray(vertexArray)
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glBindVertexArray(0)
        glBindTexture(GLenum(GL_TEXTURE_BUFFER), 0)
        glUseProgram(0)
        savedViewport.withUnsafeBufferPointer { v in glViewport(v[0], v[1], v[2], v[3]) }
        if blends { glEnable(GLenum(GL_BLEND)) }
        if scissors { glEnable(GLenum(GL_SCISSOR_TEST)) }
        if let fence { glDeleteSync(fence) }
        fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
    }
}
