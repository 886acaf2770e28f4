import CGL
import Foundation
import WaveCore

/// The GL strategy for content that changes every frame: computed on the
/// GPU from a few uniforms, never rasterised or uploaded per frame.
/// - `GLModulatedSineBatch`: one voice curve, integrated per pixel from the
///   frame's amplitude and phase.
/// It blends premultiplied over what earlier layers left
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
