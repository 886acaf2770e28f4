import CGL
import CStbEasyFont
import WaveCore
import WaveGL

/// A heads-up display: a few lines of text over a translucent panel, drawn
/// with stb_easy_font's quads (no font file). The text is rebuilt only when
/// it changes (twice a second in the demo), never per frame.
public final class TextOverlay {
    /// Font units to pixels.
    public var scale: Float
    private let program: ShaderProgram
    private let uniforms: (viewportSize: GLint, color: GLint)
    private var vertexArray: GLuint = 0
    private var vertexBuffer: GLuint = 0
    private var indexBuffer: GLuint = 0
    private var textQuads = 0
    /// The panel behind the text, in pixels from the area's top left.
    public private(set) var panel = (x: Float(0), y: Float(0), width: Float(0), height: Float(0))

    private static let maxQuads = 4096
    /// stb_easy_font writes 4 vertices of 16 bytes per quad.
    private var scratch = [UInt8](repeating: 0, count: maxQuads * 64)

    public init(scale: Float = 2) throws {
        self.scale = scale
        program = try ShaderProgram(vertex: "text.vert.glsl", fragment: "text.frag.glsl")
        uniforms = (program.uniform("u_viewportSize"), program.uniform("u_color"))
        glGenVertexArrays(1, &vertexArray)
        glBindVertexArray(vertexArray)
        glGenBuffers(1, &vertexBuffer)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        glBufferData(GLenum(GL_ARRAY_BUFFER), Self.maxQuads * 64 + 64, nil, GLenum(GL_DYNAMIC_DRAW))
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 16, nil)
        // Two triangles per quad, the same pattern for every quad.
        var indices: [UInt32] = []
        for q in 0...UInt32(Self.maxQuads) {
            let v: UInt32 = q * 4
            indices += [v, v + 1, v + 2, v, v + 2, v + 3]
        }
        glGenBuffers(1, &indexBuffer)
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
        glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), indices.count * 4, indices, GLenum(GL_STATIC_DRAW))
        glBindVertexArray(0)
    }

    deinit {
        glDeleteBuffers(1, &vertexBuffer)
        glDeleteBuffers(1, &indexBuffer)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// The largest scale, from 1 to 2, at which every line fits `width` pixels
    /// from the left margin (so a small window's display is whole, only smaller).
    public func fit(_ lines: [String], width: Int, x: Float = 8, padding: Float = 6) {
        let widest = lines.map { Float(waves_text_width($0)) }.max() ?? 0
        guard widest > 0 else { return }
        scale = Swift.min(2, Swift.max(1, (Float(width) - x - 2 * padding) / widest))
    }

    /// Lays out `lines` from (`x`, `y`) pixels (top left, y down) with a panel around them.
    public func setText(_ lines: [String], x: Float = 8, y: Float = 8, padding: Float = 6) {
        let text = lines.joined(separator: "\n")
        let width = Float(waves_text_width(text)) * scale
        let height = Float(waves_text_height(text)) * scale
        panel = (x, y, width + 2 * padding, height + 2 * padding)
        let quads = scratch.withUnsafeMutableBytes { buffer in
            Int(waves_text_quads(0, 0, text, buffer.baseAddress, Int32(buffer.count)))
        }
        // Panel quad first, then the glyph quads scaled and placed.
        var vertices = [Float](repeating: 0, count: (quads + 1) * 16)
        let corners: [(Float, Float)] = [(panel.x, panel.y), (panel.x + panel.width, panel.y),
                                          (panel.x + panel.width, panel.y + panel.height), (panel.x, panel.y + panel.height)]
        for (i, corner) in corners.enumerated() { vertices[i * 4] = corner.0; vertices[i * 4 + 1] = corner.1 }
        scratch.withUnsafeBytes { raw in
            for v in 0..<(quads * 4) {
                let gx = raw.load(fromByteOffset: v * 16, as: Float.self)
                let gy = raw.load(fromByteOffset: v * 16 + 4, as: Float.self)
                vertices[(v + 4) * 4] = x + padding + gx * scale
                vertices[(v + 4) * 4 + 1] = y + padding + gy * scale
            }
        }
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        glBufferSubData(GLenum(GL_ARRAY_BUFFER), 0, vertices.count * 4, vertices)
        textQuads = quads
    }

    /// Draws the panel and text into `viewport` (x, y from the bottom left, width, height).
    public func draw(viewport: Viewport) {
        guard textQuads > 0 else { return }
        glViewport(GLint(viewport.x), GLint(viewport.y), GLsizei(viewport.width), GLsizei(viewport.height))
        glUseProgram(program.id)
        glUniform2f(uniforms.viewportSize, GLfloat(viewport.width), GLfloat(viewport.height))
        glBindVertexArray(vertexArray)
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glUniform4f(uniforms.color, 0, 0, 0, 0.72)
        glDrawElements(GLenum(GL_TRIANGLES), 6, GLenum(GL_UNSIGNED_INT), nil)
        glUniform4f(uniforms.color, 1, 1, 1, 1)
        glDrawElements(GLenum(GL_TRIANGLES), GLsizei(textQuads * 6), GLenum(GL_UNSIGNED_INT), UnsafeRawPointer(bitPattern: 24))
        glDisable(GLenum(GL_BLEND))
        glBindVertexArray(0)
    }
}
