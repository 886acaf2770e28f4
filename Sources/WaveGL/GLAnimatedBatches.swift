import CGL
import Foundation
import WaveCore

/// The GL strategy for content that changes every frame: computed on the
/// GPU from a few uniforms, never rasterised or uploaded per frame.
/// - `GLInstancesBatch`: the dots. A state pass writes every copy's
///   animation (scale, opacity, tint at t - i * delay) into a float texture;
///   the coverage pass computes each pixel's coverage from the dot geometry.
/// - `GLModulatedSineBatch`: one voice curve, integrated per pixel from the
///   frame's amplitude and phase.
/// Both blend premultiplied over what earlier layers left
/// (ONE, ONE_MINUS_SRC_ALPHA), clipped by scissor to the rows they can reach.

/// What `GLRenderer` asks of a batch each frame.
protocol GLLayerDraw: AnyObject {
    /// Once a frame, before any page: work that does not depend on the page.
    func prepareFrame(time: Double)
    /// Draws into `viewport` of the bound framebuffer, which shows scene rows from `pageTop` down.
    func draw(time: Double, viewport: Viewport, pageTop: Int)
}

/// Restricts drawing to scene rows `rows` of a page; false when none of them is on it.
func scissor(rows: Range<Int>, viewport: Viewport, pageTop: Int) -> Bool {
    let first = max(rows.lowerBound, pageTop), last = min(rows.upperBound, pageTop + viewport.height)
    guard first < last else { return false }
    glEnable(GLenum(GL_SCISSOR_TEST))
    glScissor(GLint(viewport.x), GLint(viewport.y + viewport.height - (last - pageTop)), GLsizei(viewport.width),
              GLsizei(last - first))
    return true
}

func setColor(_ location: GLint, _ c: RGBA8) {
    glUniform4f(location, GLfloat(c.r) / 255, GLfloat(c.g) / 255, GLfloat(c.b) / 255, GLfloat(c.a) / 255)
}

/// Source-over in premultiplied form, for batches drawn over earlier ones.
func blendPremultiplied() {
    glEnable(GLenum(GL_BLEND))
    glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
}

/// How every batch here draws: one quad of `program` over the page, clipped
/// to scene rows `rows` and blended over what is there; the page's area
/// uniforms set (`area`: the locations of u_viewport and u_pageTop), then
/// the frame's own by `setUniforms`. Nothing when none of the rows is on the page.
@inline(__always)
func drawClippedQuad(_ program: ShaderProgram, area: (viewport: GLint, pageTop: GLint), rows: Range<Int>,
                     viewport: Viewport, pageTop: Int, setUniforms: () -> Void) {
    guard scissor(rows: rows, viewport: viewport, pageTop: pageTop) else { return }
    blendPremultiplied()
    glUseProgram(program.id)
    glUniform4f(area.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
    glUniform1i(area.pageTop, GLint(pageTop))
    setUniforms()
    glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
    glDisable(GLenum(GL_SCISSOR_TEST))
}

final class GLInstancesBatch: GLLayerDraw {
    private let instances: Instances
    private let rows: Range<Int>
    private let stateSize: ScenePlan.StateTexture
    private let stateProgram: ShaderProgram
    private let coverageProgram: ShaderProgram
    private var stateTexture: GLuint = 0
    private var stateFramebuffer: GLuint = 0
    private let stateUniforms: (channel: GLint, level: GLint)
    private let coverageUniforms: (viewport: GLint, pageTop: GLint, reach: GLint)
    /// Per channel (scale, opacity, tint): (t - begin) mod cycle, t - begin, duration, (1024 delay) mod cycle.
    private var channels = [GLfloat](repeating: 0, count: 12)
    /// This frame's reach of a copy from its centre (+1 px), from the level read in `prepareFrame`.
    private var reach: (x: GLfloat, y: GLfloat) = (0, 0)

    init(_ instances: Instances, state: ScenePlan.StateTexture, paint: Paint, sceneHeight: Int) throws {
        self.instances = instances
        rows = instances.rows(sceneHeight: sceneHeight)
        stateSize = state
        stateProgram = try ShaderProgram(vertex: "layer.vert.glsl", fragment: "dots_state.frag.glsl")
        coverageProgram = try ShaderProgram(vertex: "layer.vert.glsl", fragment: "dots.frag.glsl")
        let a = instances.animation, grid = instances.grid, shape = instances.shape

        glUseProgram(stateProgram.id)
        glUniform1i(stateProgram.uniform("u_stateWidth"), GLint(state.width))
        glUniform1f(stateProgram.uniform("u_delay"), GLfloat(a.delay))
        var timings: [GLfloat] = []
        for c in [a.scale.timing, a.opacity.timing, a.tint.timing] { timings += [c.x1, c.y1, c.x2, c.y2].map { GLfloat($0) } }
        glUniform4fv(stateProgram.uniform("u_timing"), 3, timings)
        glUniform2f(stateProgram.uniform("u_maxScale"), GLfloat(a.maxScaleX), GLfloat(a.maxScaleY))
        glUniform2f(stateProgram.uniform("u_opacity"), GLfloat(a.opacity.from), GLfloat(a.opacity.to))
        stateUniforms = (stateProgram.uniform("u_channel"), stateProgram.uniform("u_level"))

        glUseProgram(coverageProgram.id)
        glUniform1i(coverageProgram.uniform("u_state"), 2)
        glUniform1i(coverageProgram.uniform("u_stateWidth"), GLint(state.width))
        glUniform1i(coverageProgram.uniform("u_count"), GLint(grid.count))
        glUniform1i(coverageProgram.uniform("u_perRow"), GLint(grid.perRow))
        glUniform2f(coverageProgram.uniform("u_origin"), GLfloat(grid.origin.x), GLfloat(grid.origin.y))
        glUniform2f(coverageProgram.uniform("u_pitch"), GLfloat(grid.spacing), GLfloat(grid.rowPitch))
        glUniform3f(coverageProgram.uniform("u_shape"), GLfloat(shape.width), GLfloat(shape.height), GLfloat(shape.cornerRadius))
        if case let .fill(.solid(color)) = paint { setColor(coverageProgram.uniform("u_color"), color) }
        let from = ColorValue(a.tintFrom), to = ColorValue(a.tintTo)
        glUniform3f(coverageProgram.uniform("u_tintFrom"), GLfloat(from.r / 255), GLfloat(from.g / 255), GLfloat(from.b / 255))
        glUniform3f(coverageProgram.uniform("u_tintTo"), GLfloat(to.r / 255), GLfloat(to.g / 255), GLfloat(to.b / 255))
        coverageUniforms = (coverageProgram.uniform("u_viewport"), coverageProgram.uniform("u_pageTop"),
                            coverageProgram.uniform("u_reach"))
        glUseProgram(0)

        glGenTextures(1, &stateTexture)
        glActiveTexture(GLenum(GL_TEXTURE2))
        glBindTexture(GLenum(GL_TEXTURE_2D), stateTexture)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(state.width), GLsizei(state.rows), 0,
                     GLenum(GL_RGBA), GLenum(GL_FLOAT), nil)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glGenFramebuffers(1, &stateFramebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), stateFramebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), stateTexture, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else { throw GLError.framebuffer(status: status) }
        try checkGLErrors("preparing \(grid.count) dots")
    }

    deinit {
        glDeleteFramebuffers(1, &stateFramebuffer)
        glDeleteTextures(1, &stateTexture)
    }

    func prepareFrame(time: Double) {
        let a = instances.animation
        let level = a.level.value(at: time)
        let scale = a.maxScale(level: level)
        reach = (GLfloat(instances.shape.width / 2 * scale.x + 1), GLfloat(instances.shape.height / 2 * scale.y + 1))
        let tracks = (a.scale, a.opacity, a.tint)
        @inline(__always) func set(_ c: Int, _ track: Autoreversing) {
            let cycle = 2 * track.duration
            let since = time - track.begin
            var reduced = since.truncatingRemainder(dividingBy: cycle)
            if reduced < 0 { reduced += cycle }
            channels[c * 4] = GLfloat(reduced.isFinite ? reduced : 0)
            channels[c * 4 + 1] = GLfloat(since.isFinite ? Swift.min(1e9, Swift.max(-1e9, since)) : 0)
            channels[c * 4 + 2] = GLfloat(track.duration)
            channels[c * 4 + 3] = GLfloat((1024 * a.delay).truncatingRemainder(dividingBy: cycle))
        }
        set(0, tracks.0)
        set(1, tracks.1)
        set(2, tracks.2)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), stateFramebuffer)
        glViewport(0, 0, GLsizei(stateSize.width), GLsizei(stateSize.rows))
        glDisable(GLenum(GL_BLEND))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glUseProgram(stateProgram.id)
        channels.withUnsafeBufferPointer { glUniform4fv(stateUniforms.channel, 3, $0.baseAddress) }
        glUniform1f(stateUniforms.level, GLfloat(level))
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
    }

    func draw(time: Double, viewport: Viewport, pageTop: Int) {
        drawClippedQuad(coverageProgram, area: (coverageUniforms.viewport, coverageUniforms.pageTop), rows: rows,
                        viewport: viewport, pageTop: pageTop) {
            glActiveTexture(GLenum(GL_TEXTURE2))
            glBindTexture(GLenum(GL_TEXTURE_2D), stateTexture)
            glActiveTexture(GLenum(GL_TEXTURE0))
            glUniform2f(coverageUniforms.reach, reach.x, reach.y)
        }
    }
}

final class GLModulatedSineBatch: GLLayerDraw {
    private let curve: ModulatedSine
    private let rows: Range<Int>
    private let program: ShaderProgram
    private let uniforms: (viewport: GLint, pageTop: GLint, amplitude: GLint, phase: GLint)

    init(_ curve: ModulatedSine, rows: Range<Int>, paint: Paint, sceneWidth: Int) throws {
        self.curve = curve
        self.rows = rows
        var defines: [String] = []
        if case .parabola = curve.envelope { defines.append("ENVELOPE_PARABOLA") }
        program = try ShaderProgram(vertex: "layer.vert.glsl", fragment: "voice.frag.glsl", defines: defines)
        glUseProgram(program.id)
        glUniform1f(program.uniform("u_width"), GLfloat(sceneWidth))
        glUniform1f(program.uniform("u_samplesPerPixel"), GLfloat(curve.samplesPerPixel))
        glUniform1f(program.uniform("u_centreY"), GLfloat(curve.centreY))
        glUniform1f(program.uniform("u_frequency"), GLfloat(curve.frequency))
        glUniform1f(program.uniform("u_lineWidth"), GLfloat(curve.lineWidth))
        if case let .attenuation(k) = curve.envelope { glUniform1f(program.uniform("u_k"), GLfloat(k)) }
        if case let .fill(.solid(color)) = paint { setColor(program.uniform("u_color"), color) }
        uniforms = (program.uniform("u_viewport"), program.uniform("u_pageTop"), program.uniform("u_amplitude"),
                    program.uniform("u_phase"))
        glUseProgram(0)
        try checkGLErrors("preparing a voice curve")
    }

    func prepareFrame(time: Double) {}

    func draw(time: Double, viewport: Viewport, pageTop: Int) {
        let frame = curve.frame(at: time)
        drawClippedQuad(program, area: (uniforms.viewport, uniforms.pageTop), rows: rows, viewport: viewport, pageTop: pageTop) {
            glUniform1f(uniforms.amplitude, GLfloat(frame.amplitude))
            glUniform1f(uniforms.phase, GLfloat(frame.phase))
        }
    }
}
