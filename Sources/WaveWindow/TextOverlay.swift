import CGL
import CStbEasyFont
import WaveCore
import WaveGL

/// A heads-up display's text: lines (and the graph's label) in their
/// colours over a translucent panel, as a `HUDLayout` places them, drawn with stb_easy_font's quads
/// (no font file). The text is rebuilt only when it changes (twice a second
/// in the demo), never per frame.
final class TextOverlay {
    private let program: FlatColorProgram
    private let points: PixelVertices
    private var indexBuffer: GLuint = 0
    /// Glyph quads by colour, in the order laid out (the panel is quad 0).
    private var runs: [(firstQuad: Int, quads: Int, ink: HUDInk)] = []

    private static let maxQuads = 4096
    /// stb_easy_font writes 4 vertices of 16 bytes per quad.
    private var scratch = [UInt8](repeating: 0, count: maxQuads * 64)

    init(program: FlatColorProgram) {
        self.program = program
        var indexBuffer: GLuint = 0
        points = PixelVertices(capacity: (Self.maxQuads + 1) * 4) {
            // Two triangles per quad, the same pattern for every quad.
            var indices: [UInt32] = []
            for q in 0...UInt32(Self.maxQuads) {
                let v: UInt32 = q * 4
                indices += [v, v + 1, v + 2, v, v + 2, v + 3]
            }
            glGenBuffers(1, &indexBuffer)
            glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
            glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), indices.count * 4, indices, GLenum(GL_STATIC_DRAW))
        }
        self.indexBuffer = indexBuffer
    }

    deinit {
        glDeleteBuffers(1, &indexBuffer)
    }

    /// Shows `layout`'s panel and texts from the next draw on.
    func setText(_ layout: HUDLayout) {
        let panel = layout.panel
        // The panel's quad first, then each line's glyph quads, scaled and placed.
        var vertices: [Float] = [Float(panel.x), Float(panel.y), Float(panel.maxX), Float(panel.y),
                                 Float(panel.maxX), Float(panel.maxY), Float(panel.x), Float(panel.maxY)]
        runs = []
        for text in layout.texts {
            let room = Self.maxQuads - vertices.count / 8 + 1
            let quads = min(room, scratch.withUnsafeMutableBytes { buffer in
                Int(waves_text_quads(0, 0, text.line.text, buffer.baseAddress, Int32(buffer.count)))
            })
            guard quads > 0 else { continue }
            let (x, y, scale) = (Float(text.x), Float(text.y), Float(text.scale))
            let firstQuad = vertices.count / 8
            scratch.withUnsafeBytes { raw in
                for v in 0..<(quads * 4) {
                    vertices.append(x + raw.load(fromByteOffset: v * 16, as: Float.self) * scale)
                    vertices.append(y + raw.load(fromByteOffset: v * 16 + 4, as: Float.self) * scale)
                }
            }
            if let last = runs.last, last.ink == text.line.ink, last.firstQuad + last.quads == firstQuad {
                runs[runs.count - 1].quads += quads
            } else {
                runs.append((firstQuad, quads, text.line.ink))
            }
        }
        vertices.withUnsafeBytes { points.write($0) }
    }

    /// Draws the panel and text into `viewport` (x, y from the bottom left). Allocates nothing.
    func draw(viewport: Viewport) {
        guard !runs.isEmpty else { return }
        program.use(viewport: viewport)
        glBindVertexArray(points.vertexArray)
        program.set(.panel)
        glDrawElements(GLenum(GL_TRIANGLES), 6, GLenum(GL_UNSIGNED_INT), nil)
        var i = 0
        while i < runs.count {
            program.set(runs[i].ink)
            glDrawElements(GLenum(GL_TRIANGLES), GLsizei(runs[i].quads * 6), GLenum(GL_UNSIGNED_INT),
                           UnsafeRawPointer(bitPattern: runs[i].firstQuad * 24))
            i += 1
        }
        program.finish()
    }
}
