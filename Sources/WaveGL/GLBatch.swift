import CGL
import WaveCore

/// One batch of a `ScenePlan` on the GPU: its coverage texture, uploaded
/// once, and one program whose per-scene uniforms (paint, sizes) are set
/// once. A frame sets the offset and the area, and draws one quad.
///
/// Curves moving exactly (`--subpixel exact` where whole-pixel copies are not
/// used: a real GPU, or paints the copies do not take) have every picture
/// rasterised at 16 sub-pixel phases (8 where 16 do not fit); a frame reads
/// the nearest phase at a whole-pixel offset, so no texel is filtered.
final class GLBatch: GLLayerDraw {
    private let batch: ScenePlan.Batch
    private let pass: Pass
    private var coverage: GLuint = 0
    private var rowTable: GLuint = 0
    /// The first batch composites onto the background and writes every pixel.
    private let isFirst: Bool
    private let period: Int

    private struct Pass {
        let program: ShaderProgram
        let uniforms: (offset: GLint, viewport: GLint, pageTop: GLint, phase: GLint)
    }

    /// Row-table texels per texture row (the shader reads the table's width).
    static let tableWidth = 4096

    /// Sub-pixel phases of the curves' pictures (1: one picture, filtered linearly).
    let phases: Int

    /// The phases exact motion gets for `curves`: 16, or 8 where 16 do not fit
    /// the driver's array layers or the coverage budget; 1 where neither does.
    static func exactPhases(for curves: ScenePlan.CurveBatch, caps: GLCapabilities) -> Int {
        let bytes = curves.period * curves.pictureRows * curves.pictures.count
        return [SubpixelPhases.exact, SubpixelPhases.fewest].first {
            curves.pictures.count * $0 <= caps.maxArrayLayers && bytes * $0 <= caps.maxCoverageBytes
        } ?? 1
    }

    /// `isOnly`: the scene's only batch, which writes non-premultiplied colour.
    init(_ batch: ScenePlan.Batch, scene: Scene, isFirst: Bool, isOnly: Bool, phases: Int = 1) throws {
        self.batch = batch
        self.isFirst = isFirst
        self.phases = phases
        let curves = batch.curves
        period = curves.period
        glGenTextures(1, &coverage)
        pass = try Self.makePass(batch: batch, phases: phases, isFirst: isFirst, isOnly: isOnly, background: scene.background)
        uploadCoverage(try curves.coverage(phases: phases), width: curves.period, rows: curves.pictureRows,
                       layers: curves.pictures.count * phases, into: coverage, wrapS: GL_REPEAT)
        glGenTextures(1, &rowTable)
        let table = curves.rowTable(width: Self.tableWidth)
        glBindTexture(GLenum(GL_TEXTURE_2D), rowTable)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(Self.tableWidth),
                     GLsizei(table.count / (4 * Self.tableWidth)), 0, GLenum(GL_RGBA), GLenum(GL_FLOAT), table)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        try checkGLErrors("uploading a batch of \(batch.layers.count) layer(s)")
    }

    /// The batch's program, its per-scene uniforms set.
    private static func makePass(batch: ScenePlan.Batch, phases: Int, isFirst: Bool, isOnly: Bool, background: RGBA8) throws -> Pass {
        let program = try ShaderProgram(vertex: "layer.vert.glsl", fragment: "layer.frag.glsl",
                                        defines: defines(paint: batch.paint, isFirst: isFirst, isOnly: isOnly))
        glUseProgram(program.id)
        glUniform1i(program.uniform("u_coverage"), 0)
        glUniform1i(program.uniform("u_rows"), 1)
        setColor(program.uniform("u_background"), background)
        setPaint(batch.paint, program)
        glUniform2f(program.uniform("u_layerSize"), GLfloat(batch.curves.period), GLfloat(batch.curves.pictureRows))
        glUniform1i(program.uniform("u_phases"), GLint(phases))
        glUseProgram(0)
        return Pass(program: program, uniforms: (program.uniform("u_offset"), program.uniform("u_viewport"),
                                                 program.uniform("u_pageTop"), program.uniform("u_phase")))
    }

    deinit {
        glDeleteTextures(1, &coverage)
        if rowTable != 0 { glDeleteTextures(1, &rowTable) }
    }

    private static func setPaint(_ fill: Fill, _ program: ShaderProgram) {
        let a = program.uniform("u_colorA"), b = program.uniform("u_colorB")
        switch fill {
        case let .solid(c):
            setColor(a, c)
            setColor(b, c)
        case let .linearGradient(g):
            setColor(a, g.startColor)
            setColor(b, g.endColor)
            glUniform4f(program.uniform("u_gradient"), GLfloat(g.start.x), GLfloat(g.start.y), GLfloat(g.end.x), GLfloat(g.end.y))
        }
    }

    /// The fragment shader's specialisation (see Shaders/layer.frag.glsl).
    static func defines(paint: Fill, isFirst: Bool, isOnly: Bool) -> [String] {
        var defines: [String] = []
        if case .linearGradient = paint { defines.append("FILL_GRADIENT") }
        if isFirst { defines.append("OVER_BACKGROUND") }
        if isOnly { defines.append("STRAIGHT_OUTPUT") }
        return defines
    }

    func prepareFrame(time: Double) {}

    /// Draws the batch at scene time `time` into `viewport` of the bound
    /// framebuffer, which shows scene rows from `pageTop` down.
    func draw(time: Double, viewport: Viewport, pageTop: Int) {
        let u = batch.motion.offset(at: time)
        var offset = GLfloat(wrapOffset(u, period: period))
        var phase = 0
        if phases > 1 {
            // The nearest phase, read at a whole-pixel offset.
            let (wholePixels, nearest) = SubpixelPhases.split(u, phases: phases)
            offset = GLfloat(SubpixelPhases.wrapped(wholePixels, period))
            phase = nearest
        }
        if isFirst {
            glDisable(GLenum(GL_BLEND))
        } else {
            blendPremultiplied()
        }
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), rowTable)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), coverage)
        glDisable(GLenum(GL_SCISSOR_TEST))
        glUseProgram(pass.program.id)
        glUniform1f(pass.uniforms.offset, offset)
        glUniform4f(pass.uniforms.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(pass.uniforms.pageTop, GLint(pageTop))
        if pass.uniforms.phase >= 0 { glUniform1i(pass.uniforms.phase, GLint(phase)) }
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
    }
}
