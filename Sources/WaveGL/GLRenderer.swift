import CGL
import Foundation
import WaveCore

/// The render-once strategy behind the common renderer protocol: `prepare`
/// compiles the scene's layer tree and rasterises every fixed shape once,
/// with the CPU rasteriser, into coverage textures (`GLTreeDraw`); `draw`
/// evaluates the tree and draws each item from its cached picture moved on
/// the GPU, or, for what changes shape every frame, from outlines listed
/// for the GPU fill. On a software driver, shapes alone in their clips are
/// whole-pixel copies of pictures painted once (`GLClipCopies`).
public final class GLRenderer: Renderer, PixelCounting {
    public let backend = Backend.gl
    public let context: GLContext
    /// The driver's limits, read once.
    public let caps: GLCapabilities
    public private(set) var scene: Scene? {
        didSet { frame = scene?.frame }
    }
    /// What a frame reads of the prepared scene.
    private var frame: SceneFrame?
    private var tree: GLTreeDraw? {
        didSet { tree?.counts = pixelCounts }
    }
    /// While set, each frame's pixels are counted (see `PixelCounts`): the
    /// target must be one of `makeTarget()`'s, which is then given a stencil
    /// buffer; every fragment drawn into the frame adds one to the stencil
    /// where it lands (all of them blend), an occlusion query counts every
    /// fragment (the rest are offscreen: masks), and clears and copies count themselves.
    package var pixelCounts: PixelCounts? {
        didSet { tree?.counts = pixelCounts }
    }
    /// A page of stencil values, read back when counting.
    private var stencilValues: [UInt8] = []
    private var samplesQuery: GLuint = 0
    private var emptyVertexArray: GLuint = 0
    /// Rows no copy writes whole, cleared to the background first (every row where nothing is copied).
    private var rowsToClear: [Range<Int>] = []
    /// Distinct fixed shapes of the prepared scene, each one cached picture.
    package var pictureCount: Int { tree?.fixedShapeCount ?? 0 }
    /// How cached shapes move by fractions of a pixel; takes effect at the next `prepare`.
    public var subpixel = SubpixelMode.linear {
        didSet { if subpixel != oldValue { scene = nil } }
    }
    /// The driver policy the tree is planned by (`GLPlan.swift`): a
    /// software renderer's (llvmpipe, softpipe: clip copies, split boxes)
    /// or a GPU's, from the driver's name unless `WAVES_GL_POLICY` names
    /// one. Takes effect at the next `prepare`.
    public var policy: DriverPolicy {
        didSet { if policy != oldValue { scene = nil } }
    }

    /// Whether the policy is a software driver's (tests switch it).
    public var prefersCopies: Bool {
        get { policy == .software }
        set { policy = newValue ? .software : .gpu }
    }
    /// The sub-pixel phases of the clip copies (1 for whole-pixel motion, 16
    /// or 8 for exact), nil where no copies are drawn.
    package var copyPhases: Int? { tree?.clipCopies?.phases }
    /// The most phases of the cached shapes the shader picks from for exact
    /// motion (16 or 8), nil where none has more than one.
    package var exactPhases: Int? { tree?.mostPhases.flatMap { $0 > 1 ? $0 : nil } }
    /// Copies a frame makes, nil where no copies are drawn.
    package var copiesPerFrame: Int? { tree?.clipCopies?.copiesPerFrame }
    /// The GL calls the clips' copies or lookup quads made in the last frame (every page's), nil where there are none.
    package var clipCallsLastFrame: Int? { tree?.clipCopies?.callsLastFrame }
    /// Set by `prepare` when exact motion was asked for but the scene is drawn
    /// by the filtering shader instead, saying why.
    public private(set) var subpixelNotice: String?
    /// The layer tree's GPU replicator drawer, if the scene has one (tests read how it drew).
    var treeCopies: GLCopies? { tree?.copies }
    var treeClipCopies: GLClipCopies? { tree?.clipCopies }
    var treeRasterPictures: GLRasterPictures? { tree?.rasterPictures }
    var treeCoverageInstances: GLCoverageInstances? { tree?.coverageInstances }
    var treeInstanceRuns: GLInstanceRuns? { tree?.instanceRuns }
    var treePolygons: PolygonRows? { tree?.polygons }
    var treePaintsThisFrame: Int { tree?.paintsThisFrame ?? 0 }
    var treeMaskFoldsThisFrame: Int { tree?.maskFoldsThisFrame ?? 0 }
    var treeMasksReadInPlace: [GLMaskInPlace?] { tree?.masksReadInPlace ?? [] }

    /// Makes a headless context when none is given.
    public init(context: GLContext? = nil) throws {
        self.context = try context ?? HeadlessGLContext()
        try self.context.makeCurrent()
        caps = self.context.capabilities
        policy = try Self.policy(renderer: self.context.renderer, environment: ProcessInfo.processInfo.environment)
        // The quad comes from gl_VertexID; core profile still wants a vertex array bound.
        glGenVertexArrays(1, &emptyVertexArray)
        try checkGLErrors("creating the GL renderer")
    }

    deinit {
        tree = nil
        glDeleteVertexArrays(1, &emptyVertexArray)
        if samplesQuery != 0 { glDeleteQueries(1, &samplesQuery) }
    }

    public var rendererName: String { context.renderer }

    /// The driver policy: a software driver's (clip copies, split boxes)
    /// where the renderer is one, unless `WAVES_GL_POLICY` names it
    /// (`software` or `gpu`: what a real GPU would be given, on llvmpipe too).
    static func policy(renderer: String, environment: [String: String]) throws -> DriverPolicy {
        guard let asked = try DriverPolicy.asked(in: environment) else { return isSoftware(renderer: renderer) ? .software : .gpu }
        return asked
    }

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
        tree = nil
        _ = try unavailableOnGLError { try Pages(width: scene.width, height: scene.height, caps: caps, what: "frame") }
        var filtered = false
        if let layers = scene.tree {
            let draw = try unavailableOnGLError {
                try GLTreeDraw(layers, scene: scene, caps: caps, subpixel: subpixel, policy: policy)
            }
            filtered = draw.filtersMovingContent
            tree = draw
        }
        subpixelNotice = subpixel == .exact && filtered
            ? "exact sub-pixel motion covers cached shapes moved only along their layers' x translation (within "
                + "\(caps.maxCoverageBytes >> 20) MiB and \(caps.maxArrayLayers) texture layers); the rest of this scene's cached "
                + "content is filtered (linear)" : nil
        rowsToClear = tree?.clipCopies?.rowsToClear ?? [0..<scene.height]
        self.scene = scene
    }

    /// An offscreen framebuffer of the scene's size (in pages when taller than the driver allows).
    public func makeTarget() throws -> RenderTarget {
        guard let scene else { throw RendererError.notPrepared(.gl) }
        return try unavailableOnGLError { try GLFramebufferTarget(width: scene.width, height: scene.height, caps: caps) }
    }

    public func draw(time: Double, into target: RenderTarget) throws {
        guard let scene = frame else { throw RendererError.notPrepared(.gl) }
        guard let target = Self.drawTarget(target) else { throw RendererError.wrongTarget(.gl, "expected a GL framebuffer") }
        guard target.width == scene.width, target.height == scene.height else {
            throw RendererError.wrongTarget(.gl, "a \(target.width)x\(target.height) target for a \(scene.width)x\(scene.height) scene")
        }
        let counted = try countingTarget(target, scene: scene)
        // Blended items leave premultiplied colour; a frame of copies alone holds the painted, straight colour.
        target.storesPremultiplied = !(tree?.clipCopies?.drawsEverything ?? false)
        glBindVertexArray(emptyVertexArray)
        tree?.prepareFrame(time: time)
        if let failure = tree?.polygons.takeFailure() { throw failure }
        for page in 0..<target.pageCount {
            let (viewport, pageTop) = target.bindPage(page)
            glViewport(GLint(viewport.x), GLint(viewport.y), GLsizei(viewport.width), GLsizei(viewport.height))
            // The rows no copy writes whole, cleared to the background (premultiplied, as every frame is stored).
            // A tree that blends draws over transparency, the background under it last.
            let blends = tree?.blends ?? false
            for r in rowsToClear.indices {
                if let area = PageArea(rows: rowsToClear[r], columns: 0..<viewport.width, viewport: viewport, pageTop: pageTop) {
                    clear(area.rect, to: blends ? RGBA8(0, 0, 0, 0) : scene.background)
                    pixelCounts?.write(rows: area.rows, columns: 0..<scene.width, blends: false, software: false)
                }
            }
            tree?.clipCopies?.pageTexture = caps.copiesImages ? target.pageTexture(page) : nil
            if counted != nil { beginCountingFragments() }
            tree?.draw(time: time, viewport: viewport, pageTop: pageTop)
            if blends { tree?.drawBackgroundUnder(scene.background, viewport: viewport, pageTop: pageTop) }
            if let counted, let pixelCounts { endCountingFragments(on: counted, page: page, pageTop: pageTop, into: pixelCounts) }
        }
        if let pixelCounts { tree?.countSoftwarePaint(into: pixelCounts) }
        glDisable(GLenum(GL_BLEND))
        glBindVertexArray(0)
    }

    /// The target as one this renderer draws into: the framebuffer `makeTarget` makes found by its class
    /// (a pointer compared), any other by its conformance (looked up in the runtime's tables).
    @inline(__always)
    private static func drawTarget(_ target: RenderTarget) -> GLDrawTarget? {
        if let framebuffer = target as? GLFramebufferTarget { return framebuffer }
        return target as? GLDrawTarget
    }

    // MARK: Counting pixels

    /// Nil when not counting; else the target, given its stencil buffer, and the counts reset.
    private func countingTarget(_ target: GLDrawTarget, scene: SceneFrame) throws -> GLFramebufferTarget? {
        guard let pixelCounts else { return nil }
        guard pixelCounts.width == scene.width, pixelCounts.height == scene.height else {
            throw RendererError.wrongTarget(.gl, "pixel counts of \(pixelCounts.width)x\(pixelCounts.height) for a "
                                            + "\(scene.width)x\(scene.height) scene")
        }
        guard let counted = target as? GLFramebufferTarget else {
            throw RendererError.wrongTarget(.gl, "counting pixels needs a target made by makeTarget() (it adds a stencil buffer)")
        }
        try unavailableOnGLError { try counted.attachStencil() }
        if samplesQuery == 0 { glGenQueries(1, &samplesQuery) }
        let values = counted.width * counted.pages.rows
        if stencilValues.count != values { stencilValues = [UInt8](repeating: 0, count: values) }
        pixelCounts.reset()
        return counted
    }

    /// The page's stencil to 0, every fragment from now adding one to it, and all of them counted by the query.
    private func beginCountingFragments() {
        glDisable(GLenum(GL_SCISSOR_TEST))
        glStencilMask(0xFF)
        glClearStencil(0)
        glClear(GLbitfield(GL_STENCIL_BUFFER_BIT))
        glEnable(GLenum(GL_STENCIL_TEST))
        glStencilFunc(GLenum(GL_ALWAYS), 0, 0xFF)
        glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_INCR))
        glBeginQuery(GLenum(GL_SAMPLES_PASSED), samplesQuery)
    }

    /// The page's fragments into `counts`: per pixel of the frame, from the
    /// stencil (each blended); those the query saw elsewhere, offscreen.
    private func endCountingFragments(on target: GLFramebufferTarget, page: Int, pageTop: Int, into counts: PixelCounts) {
        glEndQuery(GLenum(GL_SAMPLES_PASSED))
        glDisable(GLenum(GL_STENCIL_TEST))
        var samples: GLuint64 = 0
        glGetQueryObjectui64v(samplesQuery, GLenum(GL_QUERY_RESULT), &samples)
        let width = target.width, rows = target.pages.rows
        var inFrame = 0
        stencilValues.withUnsafeMutableBufferPointer { values in
            target.readStencil(into: values.baseAddress!)
            // The page holds its rows bottom to top.
            for r in 0..<target.pages.frameRows(of: page) {
                let line = values.baseAddress! + (rows - 1 - r) * width, out = (pageTop + r) * width
                for x in 0..<width where line[x] > 0 {
                    let n = Int(line[x])
                    inFrame += n
                    counts.blendedLayers[out + x] = UInt8(Swift.min(255, Int(counts.blendedLayers[out + x]) + n))
                }
            }
        }
        counts.totals.written += inFrame
        counts.totals.blended += inFrame
        // The clips' lookup quad writes into the frame outside the stencil's count (already counted as written).
        let written = tree?.clipCopies?.takeWrittenFragments() ?? 0
        counts.totals.offscreen += Swift.max(0, Int(samples) - inFrame - written)
    }

    /// Part of the page set to the background.
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

    public var planPolicy: String? { policy.name }

    /// Every item of the frame at `time` with its mechanism and why (the tree's plan).
    public func explain(time: Double) throws -> [ItemPlan] {
        guard scene != nil else { throw RendererError.notPrepared(.gl) }
        guard let tree else { return [] }
        // As a frame begins (the state pass draws a quad: core GL wants a vertex array bound).
        glBindVertexArray(emptyVertexArray)
        let plan = tree.explain(time: time)
        try unavailableOnGLError { try checkGLErrors("explaining the frame") }
        return plan
    }
}

/// Errors are typed at the boundary: a driver limit or failure, or no
/// context or window, reaches callers outside the GL modules as
/// `RendererError.unavailable` with the driver's words.
package func unavailableOnGLError<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let GLError.glErrors(step, codes) where codes.contains(UInt32(GL_OUT_OF_MEMORY)) {
        throw ResourceError.driverOutOfMemory(what: step)
    } catch let error as GLError {
        throw RendererError.unavailable(.gl, reason: "\(error)")
    } catch let error as GLContextError {
        throw RendererError.unavailable(.gl, reason: "\(error)")
    }
}

/// The GL backend, as `BackendChooser` (WaveCore) knows it: `register()`
/// adds it, once, so a program or an app that links WaveGL can choose GL
/// by value (`auto`, `gl`). A host given to the chooser is the `GLContext`
/// to draw on (a window's, or one both strategies share); none: a new
/// headless one.
public enum GLBackend {
    /// Adds GL to the chooser (again: the same maker).
    public static func register() {
        BackendChooser.register(.gl) { host, subpixel in
            try unavailableOnGLError {
                let gl = try GLRenderer(context: host as? GLContext)
                gl.subpixel = subpixel
                return gl
            }
        }
    }
}
