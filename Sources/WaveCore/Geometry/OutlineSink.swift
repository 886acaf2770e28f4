/// Where an outline goes as it is rebuilt: pen moves and straight lines in
/// pixel coordinates (y down), sub-paths closed. The rasteriser is one sink;
/// the benchmark's cairo peer is another, so both fill exactly the same
/// polygon, built by the same code.
public protocol OutlineSink: AnyObject {
    func move(to x: Double, _ y: Double)
    func line(to x: Double, _ y: Double)
    /// Closes the current sub-path back to its start.
    func close()
}

extension CoverageRasterizer: OutlineSink {}

extension OutlineSink {
    /// A quadratic Bézier from the pen at `p0` through `control` to `p2`, as
    /// chords within `CoverageRasterizer.flatteningTolerance` pixels of it
    /// (p0 itself is not emitted again).
    @inline(__always)
    public func quad(from p0: Point, control p1: Point, to p2: Point) {
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
