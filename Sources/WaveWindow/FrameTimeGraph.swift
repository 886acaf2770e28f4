import CGL
import WaveCore
import WaveGL

/// The last `capacity` numbers appended, oldest first, in storage made
/// once: appending never allocates.
struct RingBuffer {
    private var values: [Double]
    private var next = 0
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity > 0)
        values = Array(repeating: 0, count: capacity)
    }

    var capacity: Int { values.count }

    mutating func append(_ value: Double) {
        values[next] = value
        next = (next + 1) % values.count
        count = min(count + 1, values.count)
    }

    /// The `index`th value kept, 0 the oldest.
    subscript(index: Int) -> Double { values[(next - count + index + values.count) % values.count] }

    /// Every value kept, oldest first (allocates: not for a frame's path).
    var ordered: [Double] { (0..<count).map { self[$0] } }
}

/// One strategy's last frames, for its graph: the CPU milliseconds of each
/// frame, and the GPU milliseconds as the timer queries report them (a few
/// frames late, so the two rows need not line up frame for frame).
struct FrameTimeHistory {
    /// Three seconds at 60 frames a second.
    static let frames = 180
    var cpu = RingBuffer(capacity: frames)
    var gpu = RingBuffer(capacity: frames)
}

/// A half's frame-time graph, drawn with GL under its display's text: the
/// CPU milliseconds of the last 180 frames as bars, the GPU milliseconds as
/// a line over them, newest at the right, and a line at 16.7 ms (one
/// refresh at 60 Hz). One scale for every half, 0 at the bottom to
/// `topMilliseconds` at the top (a frame over it reaches the top), so the
/// two strategies compare by looking. The geometry is written every frame
/// into a vertex array made once and uploaded with glBufferSubData.
final class FrameTimeGraph {
    static let topMilliseconds = 25.0
    static let budgetMilliseconds = 1000.0 / 60

    /// The vertex array's parts, in vertices of two floats: the backdrop
    /// and the budget line (two triangles each), a bar (two triangles) per
    /// CPU frame, then a point per GPU frame for the line strip.
    enum Part {
        static let backdrop = 0, budgetLine = 6, bars = 12
        static let line = bars + 6 * FrameTimeHistory.frames
        static let vertexCount = line + FrameTimeHistory.frames
    }

    /// Where the graph goes, in pixels from the half's top left (y down); set by the display's layout.
    var area = Rect.zero
    private var vertices = [Float](repeating: 0, count: 2 * Part.vertexCount)
    private let program: FlatColorProgram
    private let points = PixelVertices(capacity: Part.vertexCount)

    init(program: FlatColorProgram) {
        self.program = program
    }

    /// The height in `area` (y down) at which `milliseconds` is drawn: its bar's top, the line's point.
    static func y(of milliseconds: Double, in area: Rect) -> Double {
        area.maxY - max(0, min(milliseconds, topMilliseconds)) / topMilliseconds * area.height
    }

    /// The pixel row (its top edge) the frame-budget line covers: the budget's height rounded to a pixel edge.
    static func budgetRow(in area: Rect) -> Double { y(of: budgetMilliseconds, in: area).rounded() }

    /// Writes `history` as the graph's geometry in `area` into `vertices`
    /// (two floats a vertex, laid out as `Part`); returns how many bar
    /// vertices and line points were written. Allocates nothing.
    static func write(_ history: FrameTimeHistory, in area: Rect, into vertices: UnsafeMutableBufferPointer<Float>) -> (barVertices: Int, linePoints: Int) {
        let slot = area.width / Double(FrameTimeHistory.frames)
        writeRectangle(into: vertices, at: Part.backdrop, x0: area.x, y0: area.y, x1: area.maxX, y1: area.maxY)
        let budget = budgetRow(in: area)
        writeRectangle(into: vertices, at: Part.budgetLine, x0: area.x, y0: budget, x1: area.maxX, y1: budget + 1)
        // Newest at the right: the oldest kept frame sits `capacity - count` slots in.
        let cpu = history.cpu, gpu = history.gpu
        var i = 0
        while i < cpu.count {
            let x0 = area.x + Double(FrameTimeHistory.frames - cpu.count + i) * slot
            writeRectangle(into: vertices, at: Part.bars + 6 * i, x0: x0, y0: y(of: cpu[i], in: area), x1: x0 + slot, y1: area.maxY)
            i += 1
        }
        i = 0
        while i < gpu.count {
            let v = (Part.line + i) * 2
            vertices[v] = Float(area.x + (Double(FrameTimeHistory.frames - gpu.count + i) + 0.5) * slot)
            vertices[v + 1] = Float(y(of: gpu[i], in: area))
            i += 1
        }
        return (6 * cpu.count, gpu.count)
    }

    /// Two triangles covering (x0, y0) to (x1, y1), from vertex `vertex` on.
    private static func writeRectangle(into vertices: UnsafeMutableBufferPointer<Float>, at vertex: Int,
                                       x0: Double, y0: Double, x1: Double, y1: Double) {
        let (left, top, right, bottom) = (Float(x0), Float(y0), Float(x1), Float(y1))
        let i = vertex * 2
        vertices[i] = left; vertices[i + 1] = top
        vertices[i + 2] = right; vertices[i + 3] = top
        vertices[i + 4] = right; vertices[i + 5] = bottom
        vertices[i + 6] = left; vertices[i + 7] = top
        vertices[i + 8] = right; vertices[i + 9] = bottom
        vertices[i + 10] = left; vertices[i + 11] = bottom
    }

    /// Draws `history` over `viewport` (the half's area). Allocates nothing.
    func draw(_ history: FrameTimeHistory, viewport: Viewport) {
        guard !area.isEmpty else { return }
        let area = self.area
        let written = vertices.withUnsafeMutableBufferPointer { Self.write(history, in: area, into: $0) }
        vertices.withUnsafeBytes { points.write($0) }
        program.use(viewport: viewport)
        glBindVertexArray(points.vertexArray)
        program.set(.graphBackdrop)
        glDrawArrays(GLenum(GL_TRIANGLES), GLint(Part.backdrop), 6)
        program.set(.cpu)
        glDrawArrays(GLenum(GL_TRIANGLES), GLint(Part.bars), GLsizei(written.barVertices))
        program.set(.budgetLine)
        glDrawArrays(GLenum(GL_TRIANGLES), GLint(Part.budgetLine), 6)
        if written.linePoints > 1 {
            program.set(.gpu)
            glDrawArrays(GLenum(GL_LINE_STRIP), GLint(Part.line), GLsizei(written.linePoints))
        }
        program.finish()
    }
}
