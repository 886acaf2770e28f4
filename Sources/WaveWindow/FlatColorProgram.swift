import CGL
import WaveCore
import WaveGL

/// The display's one program (`Shaders/text.*.glsl`): triangles and lines
/// in pixels from a viewport's top left (y down), in one colour a draw. The
/// text, its panel and the frame-time graph all draw through it.
final class FlatColorProgram {
    private let program: ShaderProgram
    private let uniforms: (viewportSize: GLint, color: GLint)

    init() throws {
        program = try ShaderProgram(vertex: "text.vert.glsl", fragment: "text.frag.glsl")
        uniforms = (program.uniform("u_viewportSize"), program.uniform("u_color"))
    }

    /// Draws from now on into `viewport` (x, y from the bottom left), blending.
    func use(viewport: Viewport) {
        glViewport(GLint(viewport.x), GLint(viewport.y), GLsizei(viewport.width), GLsizei(viewport.height))
        glUseProgram(program.id)
        glUniform2f(uniforms.viewportSize, GLfloat(viewport.width), GLfloat(viewport.height))
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA))
    }

    /// The colour of the next draws.
    func set(_ ink: HUDInk) {
        let c = ink.rgba
        glUniform4f(uniforms.color, c.red, c.green, c.blue, c.alpha)
    }

    /// Ends a `use`.
    func finish() {
        glDisable(GLenum(GL_BLEND))
        glBindVertexArray(0)
    }
}
