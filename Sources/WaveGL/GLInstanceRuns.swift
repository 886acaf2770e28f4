import CGL
import WaveCore

/// A frame's table of instances and the draws of its runs, as the tree's
/// kinds of run share them (`GLCoverageInstances`, `GLPolygonRuns`): each
/// instance a few RGBA32F texels, written item by item as the frame is
/// planned and uploaded in one call; each run of instances one draw of six
/// vertices an instance (the vertex shader finds its instance from the
/// vertex id; not an instanced draw, which llvmpipe runs once an instance)
/// by one of three programs: unmasked, masked by the page's mask texture
/// (the MASKED define), and where the tree has a mask that may be read in
/// place, masked by it (MASK_PICTURE, `GLMaskPicture`).
final class GLInstanceRuns {
    /// Texels an instance in the table.
    let texelsPerInstance: Int

    private struct Program {
        let program: ShaderProgram
        let viewport, pageTop: GLint
        /// MASK_PICTURE: the mask's uniforms.
        let mask: GLMaskPicture.Uniforms?
        init(_ program: ShaderProgram, readsMaskPicture: Bool) {
            self.program = program
            viewport = program.uniform("u_viewport"); pageTop = program.uniform("u_pageTop")
            mask = readsMaskPicture ? GLMaskPicture.Uniforms(program) : nil
        }
    }
    /// Unmasked, masked, and (where asked for) masked by a picture read in place.
    private let programs: [Program]
    private var instanceTexture: GLuint = 0
    private var instanceRows = 0
    /// The texture unit the table is read on (`u_instances`).
    private let instanceUnit: Int32
    /// This frame's instances, `texelsPerInstance` RGBA texels each (kept from frame to frame).
    private var instances: [Float] = []
    /// Draws since the frame began (for tests: one a run).
    private(set) var draws = 0

    /// The programs of `vertex` and `fragment` with `defines` (and `MASKED`, and with `readsMaskPictures`
    /// `MASKED MASK_PICTURE`), their table read on `instanceUnit`
    /// and their other integer uniforms (samplers' units among them) set once to `integers`; room for
    /// `capacity` instances a frame.
    init(vertex: String, fragment: String, defines: [String], texelsPerInstance: Int, instanceUnit: Int32,
         integers: [(name: String, value: Int32)], readsMaskPictures: Bool, capacity: Int, what: String) throws {
        self.texelsPerInstance = texelsPerInstance
        self.instanceUnit = instanceUnit
        let variants = [defines, defines + ["MASKED"]] + (readsMaskPictures ? [defines + ["MASKED", "MASK_PICTURE"]] : [])
        programs = try variants.map {
            Program(try ShaderProgram(vertex: vertex, fragment: fragment, defines: $0), readsMaskPicture: $0.contains("MASK_PICTURE"))
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        instanceTexture = makeClampedTexture(filter: GL_NEAREST)
        instances.reserveCapacity(4 * texelsPerInstance * Swift.max(1, capacity))
        for p in programs.map(\.program) {
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
    /// texture, or by `maskPicture` read in place (its tiles bound by the caller; made with `readsMaskPictures`).
    /// Leaves texture unit 0 active.
    func draw(first: Int, _ n: Int, masked: Bool, maskPicture: GLMaskPicture?, viewport: Viewport, pageTop: Int) {
        // A mask read in place is only ever planned where its program was made (`GLTreeDraw.findMasksReadInPlace`).
        let p = masked && maskPicture != nil && programs.count > 2 ? programs[2] : programs[masked ? 1 : 0]
        glUseProgram(p.program.id)
        if let maskPicture, let uniforms = p.mask { maskPicture.set(uniforms) }
        glUniform4f(p.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(p.pageTop, GLint(pageTop))
        glActiveTexture(GLenum(GL_TEXTURE0 + instanceUnit)); glBindTexture(GLenum(GL_TEXTURE_2D), instanceTexture)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDrawArrays(GLenum(GL_TRIANGLES), GLint(6 * first), GLsizei(6 * n))
        draws += 1
    }
}
