/// Where an outline goes as it is rebuilt: pen moves and straight lines in
/// pixel coordinates (y down), sub-paths closed. The rasteriser is one sink;
/// the benchmark's cairo peer is another, so both fill exactly the same
/// polygon, built by the same code.
public protocol OutlineSink: AnyObject {
    func move(to x: Double, _ y: Double)
    func line(to x: Double, _ y: Double)
    /// Closes the current sub-path back to its start.
    func close()
    /// A quadratic Bézier from the pen at `p0` through `control` to `p2`, as
    /// chords within `CoverageRasterizer.flatteningTolerance` pixels of it
    /// (p0 itself is not emitted again); one chord where it lies wholly
    /// outside `keptRows`.
    func quad(from p0: Point, control p1: Point, to p2: Point)
    /// The rows (y, in its pixels) outside which it drops every edge, where
    /// it says (a rasteriser's clip and band): a curve wholly above `top` or
    /// wholly below `bottom` may come as the one chord to its end.
    var keptRows: (top: Double, bottom: Double)? { get }
}

extension CoverageRasterizer: OutlineSink {}

extension OutlineSink {
    public var keptRows: (top: Double, bottom: Double)? { nil }

    /// Whether a curve whose control points have these y lies wholly outside `rows`.
    @inline(__always)
    static func isOutside(_ y0: Double, _ y1: Double, _ y2: Double, _ rows: (top: Double, bottom: Double)) -> Bool {
        (y0 <= rows.top && y1 <= rows.top && y2 <= rows.top) || (y0 >= rows.bottom && y1 >= rows.bottom && y2 >= rows.bottom)
    }

    @inline(__always)
    public func quad(from p0: Point, control p1: Point, to p2: Point) {
        if let rows = keptRows, Self.isOutside(p0.y, p1.y, p2.y, rows) { return line(to: p2.x, p2.y) }
        chords(from: p0, control: p1, to: p2)
    }

    /// The curve as chords within `CoverageRasterizer.flatteningTolerance` of it, in the points' own
    /// coordinates (p0 not emitted again): `quad` once it is not left out.
    @inline(__always)
    func chords(from p0: Point, control p1: Point, to p2: Point) {
        let n = CoverageRasterizer.quadSegments(p0, p1, p2)
        var j = 1
        while j < n {
            let t = Double(j) / Double(n), u = 1 - t
            line(to: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x, u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y)
            j += 1
        }
        line(to: p2.x, p2.y)
    }
}

extension Path {
    /// The path into `sink` as it stands, in its own coordinates: each
    /// sub-path moved to, its lines and its quadratics (as `quad` cuts them)
    /// drawn, and closed. Generic and inlinable, so that a caller's own sink
    /// type gets direct calls (a dynamic path's stored outline, emitted by a
    /// backend: `DynamicPath.storedOutline`).
    @inlinable
    public func emit<Sink: OutlineSink>(into sink: Sink) {
        // Read in place with a while loop: a frame allocates nothing (a for-in loop allocates in a debug build).
        elements.withUnsafeBufferPointer { elements in
            var pen = Point(0, 0), open = false
            var i = 0
            while i < elements.count {
                switch elements[i] {
                case let .move(p):
                    if open { sink.close() }
                    sink.move(to: p.x, p.y)
                    pen = p
                    open = true
                case let .line(p):
                    sink.line(to: p.x, p.y)
                    pen = p
                case let .quad(control, end):
                    sink.quad(from: pen, control: control, to: end)
                    pen = end
                }
                i += 1
            }
            if open { sink.close() }
        }
    }
}
