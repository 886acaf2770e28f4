import CGL
import WaveCore

/// One batch of a `ScenePlan` on the GPU: its coverage textures, uploaded
/// once, and a program whose per-scene uniforms (paint, sizes) are set once.
/// A frame sets the offset, the split column and the area, and draws one quad.
final class GLBatch {
    private let batch: ScenePlan.Batch
    private let program: ShaderProgram
    private let uniforms: (offset: GLint, viewport: GLint, pageTop: GLint, split: GLint)
    private var coverage: GLuint = 0
    private var rowTable: GLuint = 0
    /// The first batch composites onto the background and writes every pixel.
    private let isFirst: Bool
    private let period: Int
    private let width: Int

    /// Row-table texels per texture row (the shader reads the table's width).
    static let tableWidth = 4096

    init(_ batch: ScenePlan.Batch, scene: Scene, isFirst: Bool) throws {
        self.batch = batch
        self.isFirst = isFirst
        width = scene.width
        program = try ShaderProgram(vertex: "layer.vert.glsl", fragment: "layer.frag.glsl",
                                    defines: Self.defines(for: batch, isFirst: isFirst))
        uniforms = (program.uniform("u_offset"), program.uniform("u_viewport"), program.uniform("u_pageTop"),
                    program.uniform("u_split"))
        if case let .curves(curves) = batch.content { period = curves.period } else { period = 0 }
        glGenTextures(1, &coverage)
        glUseProgram(program.id)
        glUniform1i(program.uniform("u_coverage"), 0)
        glUniform1i(program.uniform("u_rows"), 1)
        setColor(program.uniform("u_background"), scene.background)
        setPaint(batch.paint)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        switch batch.content {
        case let .curves(curves):
            glUniform2f(program.uniform("u_layerSize"), GLfloat(curves.period), GLfloat(curves.pictureRows))
            upload(curves.coverage(), width: curves.period, rows: curves.pictureRows, layers: curves.pictures.count,
                   wrapS: GL_REPEAT)
            glGenTextures(1, &rowTable)
            let table = curves.rowTable(width: Self.tableWidth)
            glBindTexture(GLenum(GL_TEXTURE_2D), rowTable)
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(Self.tableWidth),
                         GLsizei(table.count / (4 * Self.tableWidth)), 0, GLenum(GL_RGBA), GLenum(GL_FLOAT), table)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        case let .strip(strip):
            glUniform2f(program.uniform("u_layerSize"), GLfloat(strip.tileWidth), GLfloat(max(1, strip.rows.count)))
            glUniform4f(program.uniform("u_strip"), GLfloat(strip.columns.lowerBound), GLfloat(strip.columns.count),
                        GLfloat(strip.rows.lowerBound), GLfloat(strip.tiles))
            upload(strip.coverage(), width: strip.tileWidth, rows: max(1, strip.rows.count), layers: strip.tiles,
                   wrapS: GL_CLAMP_TO_BORDER)
        }
        glUseProgram(0)
        try checkGLErrors("uploading a batch of \(batch.layers.count) layer(s)")
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

    private func setColor(_ location: GLint, _ c: RGBA8) {
        glUniform4f(location, GLfloat(c.r) / 255, GLfloat(c.g) / 255, GLfloat(c.b) / 255, GLfloat(c.a) / 255)
    }

    private func setPaint(_ paint: Paint) {
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

    /// The fragment shader's specialisation for `batch` (see Shaders/layer.frag.glsl).
    static func defines(for batch: ScenePlan.Batch, isFirst: Bool) -> [String] {
        var defines: [String] = []
        if case .strip = batch.content { defines.append("CONTENT_STRIP") }
        func isGradient(_ f: Fill) -> Bool { if case .linearGradient = f { return true }; return false }
        switch batch.paint {
        case let .fill(f):
            if isGradient(f) { defines.append("FILL0_GRADIENT") }
        case let .split(_, left, right):
            if isGradient(left) { defines.append("FILL0_GRADIENT") }
            if isGradient(right) { defines.append("FILL1_GRADIENT") }
            defines.append("HAS_SPLIT")
        }
        if isFirst { defines.append("OVER_BACKGROUND") }
        return defines
    }

    /// Draws the batch at scene time `time` into `viewport` of the bound
    /// framebuffer, which shows scene rows from `pageTop` down.
    func draw(time: Double, viewport: Viewport, pageTop: Int) {
        let u = batch.motion.offset(at: time)
        glUseProgram(program.id)
        glUniform1f(uniforms.offset, GLfloat(period > 0 ? wrapOffset(u, period: period) : u))
        glUniform4f(uniforms.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(uniforms.pageTop, GLint(pageTop))
        if case let .split(s, _, _) = batch.paint { glUniform1i(uniforms.split, Int32(s.column(at: time, width: width))) }
        if isFirst {
            glDisable(GLenum(GL_BLEND))
        } else {
            glEnable(GLenum(GL_BLEND))
            glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        }
        if rowTable != 0 {
            glActiveTexture(GLenum(GL_TEXTURE1))
            glBindTexture(GLenum(GL_TEXTURE_2D), rowTable)
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), coverage)
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
    }
}
