import CGL
import WaveCore

/// A frame's table of instances and the draws of its runs, as the tree's
/// kinds of run share them (`GLCoverageInstances`, `GLPolygonRuns`): each
/// instance a few RGBA32F texels, written item by item as the frame is
/// planned and uploaded in one call; each run of instances one draw of six
/// vertices an instance (the vertex shader finds its instance from the
/// vertex id; not an instanced draw, which llvmpipe runs once an instance)
/// by one of its programs: unmasked, masked by the page's mask texture
/// (the MASKED define), and where the tree has masks that may be read in
/// place, masked by a picture or a polygon read so (MASK_PICTURE,
/// MASK_POLYGON: `GLMaskInPlace`).
final class GLInstanceRuns {
    /// Texels an instance in the table.
    let texelsPerInstance: Int

    private struct Program {
        let program: ShaderProgram
        let viewport, pageTop: GLint
        /// A mask read in place: its uniforms.
        let mask: GLMaskInPlace.Uniforms?
        init(vertex: String, fragment: String, defines: [String]) throws {
            program = try ShaderProgram(vertex: vertex, fragment: fragment, defines: defines)
            viewport = program.uniform("u_viewport"); pageTop = program.uniform("u_pageTop")
            mask = defines.contains("MASK_PICTURE") || defines.contains("MASK_POLYGON") ? GLMaskInPlace.Uniforms(program) : nil
        }
    }
    /// Unmasked, masked, then (where asked for) masked by a picture and by a polygon read in place.
    private let programs: [Program]
    private let maskedByPicture: Program?, maskedByPolygon: Program?
    private var instanceTexture: GLuint = 0
    private var instanceRows = 0
    /// The texture unit the table is read on (`u_instances`).
    private let instanceUnit: Int32
    /// This frame's instances, `texelsPerInstance` RGBA texels each (kept from frame to frame).
    private var instances: [Float] = []
    /// Draws since the frame began (for tests: one a run).
    private(set) var draws = 0

    /// The programs of `vertex` and `fragment` with `defines` (and `MASKED`, and as `readsMasks` says `MASKED
    /// MASK_PICTURE` and `MASKED MASK_POLYGON`), their table read on `instanceUnit`
    /// and their other integer uniforms (samplers' units among them) set once to `integers`; room for
    /// `capacity` instances a frame.
    init(vertex: String, fragment: String, defines: [String], texelsPerInstance: Int, instanceUnit: Int32,
         integers: [(name: String, value: Int32)], readsMasks: GLMaskInPlace.Kinds, capacity: Int, what: String) throws {
        self.texelsPerInstance = texelsPerInstance
        self.instanceUnit = instanceUnit
        programs = try [defines, defines + ["MASKED"]].map { try Program(vertex: vertex, fragment: fragment, defines: $0) }
        maskedByPicture = readsMasks.pictures ? try Program(vertex: vertex, fragment: fragment, defines: defines + ["MASKED", "MASK_PICTURE"]) : nil
        maskedByPolygon = readsMasks.polygons ? try Program(vertex: vertex, fragment: fragment, defines: defines + ["MASKED", "MASK_POLYGON"]) : nil
        glActiveTexture(GLenum(GL_TEXTURE0))
        instanceTexture = makeClampedTexture(filter: GL_NEAREST)
        instances.reserveCapacity(4 * texelsPerInstance * Swift.max(1, capacity))
        for p in (programs + [maskedByPicture, maskedByPolygon].compactMap { $0 }).map(\.program) {
            glUseProgram(p.id)
            for (name, value) in [("u_instances", instanceUnit)] + integers { glUniform1i(p.uniform(name), GLint(value)) }
        }
        glUseProgram(0)
        try checkGLErrors("preparing \(what)")
    }

    deinit {
        if instanceTexture != 0 { glDeleteTextures(1, &instanceTexture) }
    }

    /// The instances this frame so far.
    var count: Int { instances.count / (4 * texelsPerInstance) }

    /// Starts a frame's instances.
    func begin() {
        instances.removeAll(keepingCapacity: true)
        draws = 0
    }

    /// Appends one texel of the instance being written (`texelsPerInstance` of them make it).
    @inline(__always)
    func texel(_ x: Float, _ y: Float, _ z: Float, _ w: Float) {
        instances.append(x); instances.append(y); instances.append(z); instances.append(w)
    }

    /// Sends the frame's instances to the GPU, in one call (two where the last row is partial).
    func upload() {
        guard !instances.isEmpty else { return }
        GLTreeDraw.upload(instances, into: instanceTexture, rows: &instanceRows, components: 4, format: GL_RGBA32F,
                          layout: GL_RGBA, type: GL_FLOAT)
    }

    /// Instances `first..<first + n` in one draw (blending and the programs' other textures set by the caller;
    /// each instance's triangles are its item's area, so the scissor is left off); masked by the page's mask
    /// texture, or by `inPlace`, a mask read in place (bound by the caller; of a kind `readsMasks` asked for).
    /// Leaves texture unit 0 active.
    func draw(first: Int, _ n: Int, masked: Bool, inPlace: GLMaskInPlace?, viewport: Viewport, pageTop: Int) {
        var p = programs[masked ? 1 : 0]
        // A mask read in place is only ever planned where its program was made (`GLTreeDraw.findMasksReadInPlace`).
        if masked, let inPlace, let reading = inPlace.polygon ? maskedByPolygon : maskedByPicture { p = reading }
        glUseProgram(p.program.id)
        if masked, let inPlace, let uniforms = p.mask { inPlace.set(uniforms) }
        glUniform4f(p.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(p.pageTop, GLint(pageTop))
        glActiveTexture(GLenum(GL_TEXTURE0 + instanceUnit)); glBindTexture(GLenum(GL_TEXTURE_2D), instanceTexture)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDrawArrays(GLenum(GL_TRIANGLES), GLint(6 * first), GLsizei(6 * n))
        draws += 1
    }
}
