import CGL
import WaveCore

/// One batch of a `ScenePlan` on the GPU: its coverage textures, uploaded
/// once, and one program per pass whose per-scene uniforms (paint, sizes)
/// are set once. A frame sets the offset, the split column and the area, and
/// draws one quad per pass.
///
/// Curves moving exactly (`--subpixel exact` where whole-pixel copies are not
/// used: a real GPU, or paints the copies do not take) have every picture
/// rasterised at 16 sub-pixel phases (8 where 16 do not fit); a frame reads
/// the nearest phase at a whole-pixel offset, so no texel is filtered.
final class GLBatch: GLLayerDraw {
    private let batch: ScenePlan.Batch
    private var passes: [Pass] = []
    private var coverage: GLuint = 0
    private var rowTable: GLuint = 0
    /// The first batch composites onto the background and writes every pixel.
    private let isFirst: Bool
    private let period: Int
    private let width: Int

    /// Which columns a pass draws.
    private enum Clip { case all, leftOfSplit, fromSplit }

    private struct Pass {
        let program: ShaderProgram
        let uniforms: (offset: GLint, offsetWhole: GLint, viewport: GLint, pageTop: GLint, split: GLint, phase: GLint)
        let clip: Clip
    }

    /// Row-table texels per texture row (the shader reads the table's width).
    static let tableWidth = 4096

    /// The only batch writes non-premultiplied colour.
    private let isOnly: Bool
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

    init(_ batch: ScenePlan.Batch, scene: Scene, isFirst: Bool, isOnly: Bool, splitMethod: SplitMethod = .mask,
         phases: Int = 1) throws {
        self.batch = batch
        self.isFirst = isFirst
        self.isOnly = isOnly
        self.phases = phases
        width = scene.width
        if case let .curves(curves) = batch.content { period = curves.period } else { period = 0 }
        var paints: [(Paint, Clip)] = [(batch.paint, .all)]
        if splitMethod == .twoClips, case let .split(_, left, right) = batch.paint {
            paints = [(.fill(left), .leftOfSplit), (.fill(right), .fromSplit)]
        }
        glGenTextures(1, &coverage)
        passes = try paints.map { try makePass(paint: $0.0, clip: $0.1, background: scene.background) }
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        switch batch.content {
        case let .curves(curves):
            upload(try curves.coverage(phases: phases), width: curves.period, rows: curves.pictureRows,
                   layers: curves.pictures.count * phases, wrapS: GL_REPEAT)
            glGenTextures(1, &rowTable)
            let table = curves.rowTable(width: Self.tableWidth)
            glBindTexture(GLenum(GL_TEXTURE_2D), rowTable)
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(Self.tableWidth),
                         GLsizei(table.count / (4 * Self.tableWidth)), 0, GLenum(GL_RGBA), GLenum(GL_FLOAT), table)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        case let .strip(strip):
            upload(try strip.coverage(), width: strip.tileWidth, rows: max(1, strip.rows.count), layers: strip.tiles,
                   wrapS: GL_CLAMP_TO_BORDER)
        }
        try checkGLErrors("uploading a batch of \(batch.layers.count) layer(s)")
    }

    /// A program for `paint`, its per-scene uniforms set.
    private func makePass(paint: Paint, clip: Clip, background: RGBA8) throws -> Pass {
        let program = try ShaderProgram(vertex: "layer.vert.glsl", fragment: "layer.frag.glsl",
                                        defines: Self.defines(content: batch.content, paint: paint, isFirst: isFirst, isOnly: isOnly))
        glUseProgram(program.id)
        glUniform1i(program.uniform("u_coverage"), 0)
        glUniform1i(program.uniform("u_rows"), 1)
        setColor(program.uniform("u_background"), background)
        setPaint(paint, program)
        switch batch.content {
        case let .curves(curves):
            glUniform2f(program.uniform("u_layerSize"), GLfloat(curves.period), GLfloat(curves.pictureRows))
            glUniform1i(program.uniform("u_phases"), GLint(phases))
        case let .strip(strip):
            glUniform2f(program.uniform("u_layerSize"), GLfloat(strip.tileWidth), GLfloat(max(1, strip.rows.count)))
            glUniform4f(program.uniform("u_strip"), GLfloat(strip.columns.lowerBound), GLfloat(strip.columns.count),
                        GLfloat(strip.rows.lowerBound), GLfloat(strip.tiles))
            glUniform1i(program.uniform("u_tileStep"), GLint(strip.tileStep))
        }
        glUseProgram(0)
        return Pass(program: program, uniforms: (program.uniform("u_offset"), program.uniform("u_offsetWhole"),
                                                 program.uniform("u_viewport"), program.uniform("u_pageTop"),
                                                 program.uniform("u_split"), program.uniform("u_phase")), clip: clip)
    }

    deinit {
        glDeleteTextures(1, &coverage)
        if rowTable != 0 { glDeleteTextures(1, &rowTable) }
    }

    private func upload(_ bytes: [UInt8], width: Int, rows: Int, layers: Int, wrapS: Int32) {
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), coverage)
        glTexImage3D(GLenum(GL_TEXTURE_2D_ARRAY), 0, GL_R8, GLsizei(width), GLsizei(rows), GLsizei(layers), 0,
                     GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE), bytes)
        let target = GLenum(GL_TEXTURE_2D_ARRAY)
        glTexParameteri(target, GLenum(GL_TEXTURE_WRAP_S), wrapS)
        glTexParameteri(target, GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_BORDER)
        var transparent: [GLfloat] = [0, 0, 0, 0]
        glTexParameterfv(target, GLenum(GL_TEXTURE_BORDER_COLOR), &transparent)
        glTexParameteri(target, GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(target, GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
    }

    private func setPaint(_ paint: Paint, _ program: ShaderProgram) {
        let fills: (Fill, Fill)
        switch paint {
        case let .fill(f): fills = (f, f)
        case let .split(_, left, right): fills = (left, right)
        }
        for (i, fill) in [fills.0, fills.1].enumerated() {
            let a = program.uniform("u_colorA[\(i)]")
            let b = program.uniform("u_colorB[\(i)]"), gradient = program.uniform("u_gradient[\(i)]")
            switch fill {
            case let .solid(c):
                setColor(a, c)
                setColor(b, c)
            case let .linearGradient(g):
                setColor(a, g.startColor)
                setColor(b, g.endColor)
                glUniform4f(gradient, GLfloat(g.start.x), GLfloat(g.start.y), GLfloat(g.end.x), GLfloat(g.end.y))
            }
        }
    }

    /// The fragment shader's specialisation (see Shaders/layer.frag.glsl).
    static func defines(content: ScenePlan.Content, paint: Paint, isFirst: Bool, isOnly: Bool) -> [String] {
        var defines: [String] = []
        if case .strip = content { defines.append("CONTENT_STRIP") }
        func isGradient(_ f: Fill) -> Bool { if case .linearGradient = f { return true }; return false }
        switch paint {
        case let .fill(f):
            if isGradient(f) { defines.append("FILL0_GRADIENT") }
        case let .split(_, left, right):
            if isGradient(left) { defines.append("FILL0_GRADIENT") }
            if isGradient(right) { defines.append("FILL1_GRADIENT") }
            defines.append("HAS_SPLIT")
        }
        if isFirst { defines.append("OVER_BACKGROUND") }
        if isOnly { defines.append("STRAIGHT_OUTPUT") }
        return defines
    }

    func prepareFrame(time: Double) {}

    /// Draws the batch at scene time `time` into `viewport` of the bound
    /// framebuffer, which shows scene rows from `pageTop` down.
    func draw(time: Double, viewport: Viewport, pageTop: Int) {
        let u = batch.motion.offset(at: time)
        // Curves: u within one period. Strips: whole pixels as an integer and the fraction apart,
        // so a long strip late in a track is as exact as its start.
        let whole = period > 0 ? 0 : Swift.min(Swift.max(u.rounded(.down), -2e9), 2e9)
        var offset = GLfloat(period > 0 ? wrapOffset(u, period: period) : u - whole)
        var phase = 0
        if phases > 1 {
            // The nearest phase, read at a whole-pixel offset.
            let (wholePixels, nearest) = SubpixelPhases.split(u, phases: phases)
            offset = GLfloat(SubpixelPhases.wrapped(wholePixels, period))
            phase = nearest
        }
        var split = width
        if case let .split(s, _, _) = batch.paint { split = s.column(at: time, width: width) }
        if isFirst {
            glDisable(GLenum(GL_BLEND))
        } else {
            blendPremultiplied()
        }
        if rowTable != 0 {
            glActiveTexture(GLenum(GL_TEXTURE1))
            glBindTexture(GLenum(GL_TEXTURE_2D), rowTable)
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), coverage)
        // By index: in a debug build a for-in loop over an array allocates.
        for i in passes.indices {
            let pass = passes[i]
            switch pass.clip {
            case .all:
                glDisable(GLenum(GL_SCISSOR_TEST))
            case .leftOfSplit:
                if split <= 0 { continue }
                glEnable(GLenum(GL_SCISSOR_TEST))
                glScissor(GLint(viewport.x), GLint(viewport.y), GLsizei(min(split, viewport.width)), GLsizei(viewport.height))
            case .fromSplit:
                if split >= viewport.width { continue }
                glEnable(GLenum(GL_SCISSOR_TEST))
                glScissor(GLint(viewport.x + split), GLint(viewport.y), GLsizei(viewport.width - split), GLsizei(viewport.height))
            }
            glUseProgram(pass.program.id)
            glUniform1f(pass.uniforms.offset, offset)
            if pass.uniforms.offsetWhole >= 0 { glUniform1i(pass.uniforms.offsetWhole, GLint(whole)) }
            glUniform4f(pass.uniforms.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width),
                        GLfloat(viewport.height))
            glUniform1i(pass.uniforms.pageTop, GLint(pageTop))
            if pass.uniforms.split >= 0 { glUniform1i(pass.uniforms.split, GLint(split)) }
            if pass.uniforms.phase >= 0 { glUniform1i(pass.uniforms.phase, GLint(phase)) }
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        }
        glDisable(GLenum(GL_SCISSOR_TEST))
    }
}
