import CGL
import WaveCore

/// The GL strategy's runs (`Shaders/instance_runs.vert.glsl` and
/// `instance_runs.frag.glsl`): items of a solid colour by the normal blend,
/// of two kinds, drawn in the order the tree draws them: fixed paths read
/// from the coverage atlas (`GLCoverageInstances` writes their instances)
/// and polygons (dynamic paths: a trim, a morph, their outlines made every
/// frame into the polygon tables, `PolygonRows`). Each is an instance of
/// one table, six RGBA32F texels, written item by item as the frame is
/// planned and uploaded in one call; each run of consecutive such items
/// that share a mask, of either kind, is one draw of six vertices an item
/// (the vertex shader finds its instance from the vertex id; not an
/// instanced draw, which llvmpipe runs once an instance), and the fragment
/// shader computes each item's coverage by its kind. A driver's cost per
/// draw (its state, its setup) is paid once a run instead of once an item,
/// and under a GPU's policy alternating kinds do not end a run
/// (`DriverPolicy.mixesRunKinds`). Its programs, made for
/// what the tree has: by the kinds a run holds (pictures, polygons, both:
/// a software driver runs both sides of a branch, so a run of one kind
/// reads nothing of the other), each unmasked, masked by the page's mask
/// texture (the MASKED define), and masked by a picture or a polygon read
/// in place (MASK_PICTURE, MASK_POLYGON: `GLMaskInPlace`). A gradient, a
/// blend mode or a mask's own layer is drawn by itself.
final class GLInstanceRuns {
    /// Texels an instance in the table.
    static let texelsPerInstance = 6
    /// The texture units the atlas and the table are read on (the tree's items use 0 to 5, a mask's tiles 9).
    static let atlasUnit: Int32 = 6, instanceUnit: Int32 = 7

    /// The kinds a run holds, as bits.
    static let pictures = 1, polygons = 2

    private struct Program {
        let program: ShaderProgram
        let viewport, pageTop: GLint
        /// A mask read in place: its uniforms.
        let mask: GLMaskInPlace.Uniforms?
        init(defines: [String]) throws {
            program = try ShaderProgram(vertex: "instance_runs.vert.glsl", fragment: "instance_runs.frag.glsl", defines: defines)
            viewport = program.uniform("u_viewport"); pageTop = program.uniform("u_pageTop")
            mask = defines.contains("MASK_PICTURE") || defines.contains("MASK_POLYGON") ? GLMaskInPlace.Uniforms(program) : nil
        }
    }
    /// By `kinds * 4 + mask` (mask 0: none, 1: the page's texture, 2: a picture read in place, 3: a polygon).
    private var programs: [Program?] = Array(repeating: nil, count: 16)
    private var instanceTexture: GLuint = 0
    private var instanceRows = 0
    /// This frame's instances, six RGBA texels each (kept from frame to frame).
    private var instances: [Float] = []
    /// Draws since the frame began (for tests: one a run).
    private(set) var draws = 0

    /// The programs for runs of `kinds` (`pictures`, `polygons`: those the tree draws so; where `mixed`,
    /// runs of both too: `DriverPolicy.mixesRunKinds`), masked where `masked` (the tree has masks) and by the
    /// kinds of mask read in place `readsMasks` says, their tables read on their units; room for `capacity`
    /// instances a frame.
    init(kinds: Int, mixed: Bool, masked: Bool, readsMasks: GLMaskInPlace.Kinds, capacity: Int) throws {
        let both = Self.pictures | Self.polygons
        let runs = kinds == both ? [Self.pictures, Self.polygons] + (mixed ? [both] : []) : [kinds]
        for run in runs {
            let defines = (run & Self.pictures != 0 ? ["PICTURES"] : []) + (run & Self.polygons != 0 ? ["POLYGONS"] : [])
            programs[run * 4] = try Program(defines: defines)
            if masked { programs[run * 4 + 1] = try Program(defines: defines + ["MASKED"]) }
            if readsMasks.pictures { programs[run * 4 + 2] = try Program(defines: defines + ["MASKED", "MASK_PICTURE"]) }
            if readsMasks.polygons { programs[run * 4 + 3] = try Program(defines: defines + ["MASKED", "MASK_POLYGON"]) }
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        instanceTexture = makeClampedTexture(filter: GL_NEAREST)
        instances.reserveCapacity(4 * Self.texelsPerInstance * Swift.max(1, capacity))
        let units: [(String, Int32)] = [("u_instances", Self.instanceUnit), ("u_atlas", Self.atlasUnit), ("u_mask", 4),
                                        ("u_edges", 1), ("u_entries", 2), ("u_rows", 3)]
        for p in programs.compactMap({ $0?.program }) {
            glUseProgram(p.id)
            for (name, unit) in units { glUniform1i(p.uniform(name), GLint(unit)) }
        }
        glUseProgram(0)
        try checkGLErrors("preparing the runs of instances")
    }

    deinit {
        if instanceTexture != 0 { glDeleteTextures(1, &instanceTexture) }
    }

    /// The instances this frame so far.
    var count: Int { instances.count / (4 * Self.texelsPerInstance) }

    /// Starts a frame's instances.
    func begin() {
        instances.removeAll(keepingCapacity: true)
        draws = 0
    }

    /// Appends one texel of the instance being written (six of them make it).
    @inline(__always)
    func texel(_ x: Float, _ y: Float, _ z: Float, _ w: Float) {
        instances.append(x); instances.append(y); instances.append(z); instances.append(w)
    }

    /// Adds a polygon as the next instance (kind 1): its rows from table texel `rowBase` over `rows` x `columns`
    /// of the scene (`PolygonRows.finish`), `color` its solid paint (0...255, not premultiplied).
    @inline(__always)
    func addPolygon(rowBase: Int, rows: Range<Int>, columns: Range<Int>, color c: ColorValue, opacity: Double, evenOdd: Bool) {
        let alpha = c.a / 255 * opacity
        texel(Float(rowBase), Float(rows.lowerBound), Float(columns.lowerBound), Float(PolygonRows.buckets(columns)))
        texel(evenOdd ? 1 : 0, 0, 0, 0)
        texel(0, 0, 0, 0)
        texel(Float(c.r / 255 * alpha), Float(c.g / 255 * alpha), Float(c.b / 255 * alpha), Float(alpha))
        texel(Float(columns.lowerBound), Float(rows.lowerBound), Float(columns.upperBound), Float(rows.upperBound))
        texel(0, 1, 0, 0)
    }

    /// Sends the frame's instances to the GPU, in one call (two where the last row is partial).
    func upload() {
        guard !instances.isEmpty else { return }
        GLTreeDraw.upload(instances, into: instanceTexture, rows: &instanceRows, components: 4, format: GL_RGBA32F,
                          layout: GL_RGBA, type: GL_FLOAT)
    }

    /// Instances `first..<first + n`, of `kinds`, in one draw (blending set by the caller, the polygon tables
    /// bound on units 1 to 3; `atlas`, the coverage atlas, 0: none; each instance's triangles are its item's
    /// area, so the scissor is left off); masked by the page's mask texture, or by `inPlace`, a mask read in
    /// place (bound by the caller). Leaves texture unit 0 active.
    func draw(first: Int, _ n: Int, kinds: Int, masked: Bool, inPlace: GLMaskInPlace?, atlas: GLuint, viewport: Viewport, pageTop: Int) {
        var mask = 0
        if masked {
            mask = 1
            if let inPlace { mask = inPlace.polygon ? 3 : 2 }
        }
        // Only ever asked for what the tree has, so made (`GLTreeDraw.findMasksReadInPlace` reads a mask in place
        // only where its kind was asked for).
        guard kinds > 0, kinds < 4, let p = programs[kinds * 4 + mask] else { return }
        glUseProgram(p.program.id)
        if masked, let inPlace, let uniforms = p.mask { inPlace.set(uniforms) }
        glUniform4f(p.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(p.pageTop, GLint(pageTop))
        if atlas != 0 { glActiveTexture(GLenum(GL_TEXTURE0 + Self.atlasUnit)); glBindTexture(GLenum(GL_TEXTURE_2D), atlas) }
        glActiveTexture(GLenum(GL_TEXTURE0 + Self.instanceUnit)); glBindTexture(GLenum(GL_TEXTURE_2D), instanceTexture)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDrawArrays(GLenum(GL_TRIANGLES), GLint(6 * first), GLsizei(6 * n))
        draws += 1
    }
}
