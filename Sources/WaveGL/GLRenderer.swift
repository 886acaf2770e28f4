import CGL
import WaveCore

/// The render-once strategy behind the common renderer protocol: `prepare`
/// plans the scene (`ScenePlan`), rasterises every coverage picture once
/// with the CPU rasteriser and uploads it; `draw` sets a few uniforms per
/// batch and draws one quad per batch and page. Paint and motion are
/// applied in the fragment shader, so no frame uploads anything.
public final class GLRenderer: Renderer {
    public let backend = Backend.gl
    public let context: GLContext
    /// The driver's limits, read once.
    public let caps: GLCapabilities
    public private(set) var scene: Scene?
    private var batches: [GLLayerDraw] = []
    /// The only batch, where it is drawn by whole-pixel copies.
    private var copies: GLCopyBatch?
    /// The first batch does not write every pixel (a layer tree alone):
    /// each page is cleared to the background first and every batch blends.
    private var clearsFirst = false
    private var emptyVertexArray: GLuint = 0
    /// Distinct coverage pictures of the prepared scene's repeating curves.
    public private(set) var pictureCount = 0
    /// How cached curves move by fractions of a pixel; takes effect at the next `prepare`.
    public var subpixel = SubpixelMode.linear {
        didSet { if subpixel != oldValue { scene = nil } }
    }
    /// Draw cached curves moving exactly or snapped as whole-pixel copies of
    /// painted phases (`GLCopyBatch`) where the scene allows, rather than with
    /// the shader. Set for software renderers (llvmpipe, softpipe), where a
    /// copy is a memcpy and a full-screen shader pass is CPU work on every
    /// pixel; a real GPU keeps the shader, one draw whatever the cell count.
    /// Takes effect at the next `prepare`.
    public var prefersCopies: Bool {
        didSet { if prefersCopies != oldValue { scene = nil } }
    }
    /// The prepared scene's sub-pixel phases where it is drawn by whole-pixel
    /// copies (1 for snapped motion, 16 or 8 for exact), nil where a shader draws it.
    public var copyPhases: Int? { copies?.phases }
    /// The phases of curve pictures the shader picks from for exact motion
    /// (16 or 8), nil where no batch has them.
    public var exactPhases: Int? { batches.compactMap { ($0 as? GLBatch)?.phases }.filter { $0 > 1 }.max() }
    /// Copies a frame makes where it is drawn by copies (1 where the whole
    /// scene is one painted picture; two per band where pictures wrap).
    public var copiesPerFrame: Int? { copies.map { $0.layout == .screen ? 1 : 2 * $0.bands.count } }
    /// Set by `prepare` when exact motion was asked for but the scene is drawn
    /// by the filtering shader instead, saying why.
    public private(set) var subpixelNotice: String?
    /// The layer tree's GPU replicator drawer, if the scene has one (tests read how it drew).
    var treeCopies: GLCopies? { batches.lazy.compactMap { ($0 as? GLTreeDraw)?.copies }.first }

    /// Makes a headless context when none is given.
    public init(context: GLContext? = nil) throws {
        self.context = try context ?? HeadlessGLContext()
        try self.context.makeCurrent()
        caps = self.context.capabilities
        prefersCopies = Self.isSoftware(renderer: self.context.renderer)
        // The quad comes from gl_VertexID; core profile still wants a vertex array bound.
        glGenVertexArrays(1, &emptyVertexArray)
        try checkGLErrors("creating the GL renderer")
    }

    deinit {
        batches = []
        glDeleteVertexArrays(1, &emptyVertexArray)
    }

    public var rendererName: String { context.renderer }

    /// Whether GL_RENDERER names one of Mesa's CPU rasterisers.
    static func isSoftware(renderer: String) -> Bool {
        let name = renderer.lowercased()
        return ["llvmpipe", "softpipe", "swrast", "software rasterizer"].contains { name.contains($0) }
    }

    public func prepare(scene: Scene) throws {
        try scene.validate()
        try context.makeCurrent()
        if scene == self.scene { return }
        // Until this scene is fully prepared, there is no scene to draw.
        self.scene = nil
        batches = []
        copies = nil
        let plan = try unavailableOnGLError { try ScenePlan(scene: scene, caps: caps) }
        var firstIsCached = true
        let copyPlan = prefersCopies && plan.batches.count == 1
            ? GLCopyBatch.plan(for: plan.batches[0], scene: scene, subpixel: subpixel, caps: caps) : nil
        // Elsewhere exact motion is the shader reading the nearest of several pre-rasterised phases.
        let shaderPhases = plan.batches.map { batch -> Int in
            guard copyPlan == nil, subpixel == .exact, !batch.motion.snapsToPixel else { return 1 }
            return GLBatch.exactPhases(for: batch.curves, caps: caps)
        }
        var filtered = plan.batches.indices.contains { index in
            copyPlan == nil && !plan.batches[index].motion.snapsToPixel && shaderPhases[index] == 1
        }
        batches = try unavailableOnGLError { try plan.batches.enumerated().map { index, batch -> GLLayerDraw in
            if let copyPlan {
                let copies = try GLCopyBatch(batch, scene: scene, plan: copyPlan)
                firstIsCached = !copies.leavesRowsUncovered
                self.copies = copies
                return copies
            }
            return try GLBatch(batch, scene: scene, isFirst: index == 0, isOnly: plan.batches.count == 1 && scene.tree == nil,
                               phases: shaderPhases[index])
        } }
        if let tree = scene.tree {
            let draw = try unavailableOnGLError { try GLTreeDraw(tree, scene: scene, caps: caps, subpixel: subpixel) }
            filtered = filtered || draw.filtersMovingContent
            batches.append(draw)
            // A tree alone does not write every pixel: the background goes first.
            if plan.batches.isEmpty { firstIsCached = false }
        }
        subpixelNotice = subpixel == .exact && filtered
            ? "exact sub-pixel motion covers cached shapes moved only along their layers' x translation (within "
                + "\(caps.maxCoverageBytes >> 20) MiB and \(caps.maxArrayLayers) texture layers); the rest of this scene's cached "
                + "content is filtered (linear)" : nil
        clearsFirst = !firstIsCached
        pictureCount = plan.batches.reduce(0) { $0 + $1.curves.pictures.count }
        self.scene = scene
    }

    /// An offscreen framebuffer of the scene's size (in pages when taller than the driver allows).
    public func makeTarget() throws -> RenderTarget {
        guard let scene else { throw RendererError.notPrepared(.gl) }
        return try unavailableOnGLError { try GLFramebufferTarget(width: scene.width, height: scene.height, caps: caps) }
    }

    public func draw(time: Double, into target: RenderTarget) throws {
        guard let scene else { throw RendererError.notPrepared(.gl) }
        guard let target = target as? GLDrawTarget else { throw RendererError.wrongTarget(.gl, "expected a GL framebuffer") }
        guard target.width == scene.width, target.height == scene.height else {
            throw RendererError.wrongTarget(.gl, "a \(target.width)x\(target.height) target for a \(scene.width)x\(scene.height) scene")
        }
        target.storesPremultiplied = batches.count > 1 || clearsFirst
        glBindVertexArray(emptyVertexArray)
        for b in batches.indices { batches[b].prepareFrame(time: time) }
        for page in 0..<target.pageCount {
            let (viewport, pageTop) = target.bindPage(page)
            glViewport(GLint(viewport.x), GLint(viewport.y), GLsizei(viewport.width), GLsizei(viewport.height))
            if batches.isEmpty || clearsFirst { clear(viewport, to: scene.background) }
            copies?.pageTexture = caps.copiesImages ? target.pageTexture(page) : nil
            // By index: in a debug build a for-in loop over an array allocates.
            for b in batches.indices { batches[b].draw(time: time, viewport: viewport, pageTop: pageTop) }
        }
        glDisable(GLenum(GL_BLEND))
        glBindVertexArray(0)
    }

    /// A scene with no layers is its background (premultiplied, as every frame is stored).
    private func clear(_ viewport: Viewport, to c: RGBA8) {
        let a = GLfloat(c.a) / 255
        glEnable(GLenum(GL_SCISSOR_TEST))
        glScissor(GLint(viewport.x), GLint(viewport.y), GLsizei(viewport.width), GLsizei(viewport.height))
        glClearColor(GLfloat(c.r) / 255 * a, GLfloat(c.g) / 255 * a, GLfloat(c.b) / 255 * a, a)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glDisable(GLenum(GL_SCISSOR_TEST))
    }

    /// Waits for the GPU to finish the frame.
    public func finish() { glFinish() }
}

/// Errors are typed at the boundary: a driver limit or failure, or no
/// context or window, reaches callers outside the GL modules as
/// `RendererError.unavailable` with the driver's words.
public func unavailableOnGLError<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as GLError {
        throw RendererError.unavailable(.gl, reason: "\(error)")
    } catch let error as GLContextError {
        throw RendererError.unavailable(.gl, reason: "\(error)")
    }
}

/// The one place a backend is chosen from a value. `auto` tries GL first and
/// falls back to the CPU with a one-line reason (the bgfx model: backends
/// tried in order). Used by render, demo and bench alike.
public enum BackendChooser {
    public struct Choice {
        public let renderer: Renderer
        /// Set when `auto` fell back: why GL was not used.
        public let notice: String?
    }

    /// A renderer prepared for `scene`. GL can fail to make a context or to
    /// fit the scene (driver limits): `gl` then throws `unavailable` with
    /// the driver's reason, and `auto` uses the CPU, saying why. `context`:
    /// draw on this one (a window's, or one shared by both strategies)
    /// instead of a new headless context.
    public static func make(_ choice: BackendChoice, for scene: Scene, context: GLContext? = nil,
                            subpixel: SubpixelMode = .linear) throws -> Choice {
        switch choice {
        case .cpu:
            return Choice(renderer: try prepared(renderer(.cpu), scene), notice: nil)
        case .gl:
            return Choice(renderer: try makeGL(for: scene, context: context, subpixel: subpixel), notice: nil)
        case .auto:
            do {
                return Choice(renderer: try makeGL(for: scene, context: context, subpixel: subpixel), notice: nil)
            } catch let error as RendererError {
                return Choice(renderer: try prepared(renderer(.cpu), scene), notice: "using the CPU backend: \(error)")
            }
        }
    }

    /// A GL renderer prepared for `scene`; a GL failure becomes `unavailable`
    /// with the driver's reason (scene errors pass through).
    public static func makeGL(for scene: Scene, context: GLContext? = nil, subpixel: SubpixelMode = .linear) throws -> Renderer {
        try scene.validate()
        return try prepared(renderer(.gl, context: context, subpixel: subpixel), scene)
    }

    /// An unprepared renderer of `backend` (GL on `context`, or a new
    /// headless one): what the benchmark makes once per strategy.
    public static func renderer(_ backend: Backend, context: GLContext? = nil, subpixel: SubpixelMode = .linear) throws -> Renderer {
        guard backend == .gl else { return CPURenderer() }
        return try unavailableOnGLError {
            let gl = try GLRenderer(context: context)
            gl.subpixel = subpixel
            return gl
        }
    }

    private static func prepared(_ renderer: Renderer, _ scene: Scene) throws -> Renderer {
        try renderer.prepare(scene: scene)
        return renderer
    }
}
