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

/// Points in pixels (two floats each) for `FlatColorProgram`, in one vertex
/// buffer made once at its largest and rewritten in place: what the text
/// panel and the frame-time graph draw from.
final class PixelVertices {
    let vertexArray: GLuint
    private let buffer: GLuint

    /// Room for `capacity` points; `configure` runs with the array bound (an index buffer, say).
    init(capacity: Int, configure: () -> Void = {}) {
        var array: GLuint = 0, buffer: GLuint = 0
        glGenVertexArrays(1, &array)
        glBindVertexArray(array)
        glGenBuffers(1, &buffer)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        glBufferData(GLenum(GL_ARRAY_BUFFER), capacity * 8, nil, GLenum(GL_DYNAMIC_DRAW))
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 8, nil)
        configure()
        glBindVertexArray(0)
        (vertexArray, self.buffer) = (array, buffer)
    }

    deinit {
        var (array, buffer) = (vertexArray, self.buffer)
        glDeleteBuffers(1, &buffer)
        glDeleteVertexArrays(1, &array)
    }

    /// Rewrites the first points with `floats` (x, y pairs). Allocates nothing.
    func write(_ floats: UnsafeRawBufferPointer) {
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        glBufferSubData(GLenum(GL_ARRAY_BUFFER), 0, floats.count, floats.baseAddress)
    }
}
