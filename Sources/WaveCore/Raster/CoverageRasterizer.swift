/// An anti-aliased polygon filler: signed-area accumulation in integer fixed
/// point (the cell method of FreeType's "smooth" rasteriser and font-rs).
///
/// Why integers: coordinates are quantised to 1/256 pixel, and every cover and
/// area term is an exact integer, so sums do not depend on the order edges are
/// added in. A polygon moved by a whole pixel therefore produces exactly the
/// same coverage moved by a whole pixel, which is what lets the GPU strategy
/// (one cached raster, translated) match the CPU strategy at whole-pixel
/// offsets, up to the driver's texture filtering (exactly, on llvmpipe).
///
/// Coverage is the exact area of the pixel inside the polygon (up to the
/// 1/256-pixel vertex grid) under the non-zero rule, taken per pixel as
/// min(1, |winding-weighted area|): exact wherever sub-paths do not overlap
/// with opposite windings inside one pixel.
///
/// Coverage flows out through a `CoverageBlitter` (the tiny-skia model): the
/// rasteriser says which pixels are covered and how much; the blitter decides
/// what that looks like on the caller's pixmap.
///
/// Memory is allocated once per size; adding edges and resolving them into
/// pixels allocate nothing.
public final class CoverageRasterizer {
    /// Sub-pixel steps per pixel on each axis.
    public static let subpixels = 256
    /// The accumulated value of a fully covered pixel: dy (256) times 2*256.
    static let fullCoverage: Int32 = 256 * 512

    public let width: Int
    public let height: Int
    /// Per row, width + 1 accumulators: column W collects what spills past the right edge.
    private let stride: Int
    private let accumulation: UnsafeMutablePointer<Int32>
    /// Per row, one bit for every accumulator that is non-zero, so resolving
    /// visits only touched pixels and fills the spans between them in one write.
    private let wordsPerRow: Int
    private let touched: UnsafeMutablePointer<UInt64>

    /// Rows outside this band receive nothing. Exact clipping, because a
    /// row's coverage depends only on the edge pieces inside that row.
    public var clipRows: Range<Int>

    /// The current sub-path's start and the pen, in pixels (finite).
    private var subpathStart = (x: 0.0, y: 0.0)
    private var pen = (x: 0.0, y: 0.0)

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0)
        self.width = width
        self.height = height
        stride = width + 1
        clipRows = 0..<height
        wordsPerRow = (stride + 63) / 64
        accumulation = .allocate(capacity: stride * height)
        accumulation.initialize(repeating: 0, count: stride * height)
        touched = .allocate(capacity: wordsPerRow * height)
        touched.initialize(repeating: 0, count: wordsPerRow * height)
    }

    deinit {
        accumulation.deallocate()
        touched.deallocate()
    }

    // MARK: Paths (pixel coordinates, y down)

    public func move(to x: Double, _ y: Double) {
        close()
        subpathStart = (Self.finite(x), Self.finite(y))
        pen = subpathStart
    }

    public func line(to x: Double, _ y: Double) {
        let next = (x: Self.finite(x), y: Self.finite(y))
        segment(pen, next)
        pen = next
    }

    /// Closes the current sub-path back to its start.
    public func close() {
        segment(pen, subpathStart)
        pen = subpathStart
    }

    /// A NaN (which `PathBuilder` never lets through) becomes 0 and an
    /// infinity a large finite number, so nothing below traps.
    @inline(__always)
    static func finite(_ v: Double) -> Double {
        v.isNaN ? 0 : Swift.min(Swift.max(v, -1e15), 1e15)
    }

    /// Adds the edge a-b. Inside the box one pixel around the image it goes
    /// straight onto the 1/256 grid; otherwise it is cut where it crosses the
    /// box and each piece's ends are held to the box: a piece left of the
    /// image becomes a vertical edge at x = -1 (it still counts in every row's
    /// winding, as everything left of the image does), a piece right of it or
    /// above or below it adds nothing. The visible part keeps its exact slope,
    /// however far away the ends are.
    @inline(__always)
    private func segment(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) {
        let right = Double(width + 1), bottom = Double(height + 1)
        if a.x >= -1, a.x <= right, b.x >= -1, b.x <= right, a.y >= -1, a.y <= bottom, b.y >= -1, b.y <= bottom {
            addEdge(Self.fixed(a.x), Self.fixed(a.y), Self.fixed(b.x), Self.fixed(b.y))
            return
        }
        // Where the segment crosses the box's four sides, in order (at most four,
        // on the stack; no closures, which would box captured variables).
        var cuts = SIMD4<Double>(repeating: 2)
        var count = 0
        let dx = b.x - a.x, dy = b.y - a.y
        let crossings = SIMD4<Double>(Self.crossing(-1, a.x, dx), Self.crossing(right, a.x, dx),
                                      Self.crossing(-1, a.y, dy), Self.crossing(bottom, a.y, dy))
        for i in 0..<4 where crossings[i] > 0 && crossings[i] < 1 {
            cuts[count] = crossings[i]
            count += 1
        }
        for i in 1..<4 {
            var j = i
            while j > 0 && cuts[j] < cuts[j - 1] {
                let t = cuts[j]; cuts[j] = cuts[j - 1]; cuts[j - 1] = t
                j -= 1
            }
        }
        var from = (Self.fixed(Swift.min(Swift.max(a.x, -1), right)), Self.fixed(Swift.min(Swift.max(a.y, -1), bottom)))
        for i in 0...count {
            let t = i < count ? cuts[i] : 1
            let x = t >= 1 ? b.x : a.x + dx * t, y = t >= 1 ? b.y : a.y + dy * t
            let to = (Self.fixed(Swift.min(Swift.max(x, -1), right)), Self.fixed(Swift.min(Swift.max(y, -1), bottom)))
            addEdge(from.0, from.1, to.0, to.1)
            from = to
        }
    }

    /// The parameter t where `from + delta * t` reaches `edge` (2, outside 0...1, when it never does).
    @inline(__always)
    static func crossing(_ edge: Double, _ from: Double, _ delta: Double) -> Double {
        delta == 0 ? 2 : (edge - from) / delta
    }

    /// Fills `path` moved by (dx, dy): quadratic curves are flattened to
    /// within `flatteningTolerance` pixels. Sub-paths entirely left or right
    /// of the image are skipped (closed, they add nothing inside it).
    public func fill(_ path: Path, dx: Double = 0, dy: Double = 0) {
        let right = Double(width)
        var first = 0
        if path.subpathsAreSortedByX {
            // The first sub-path reaching into the image (maxX is non-decreasing).
            var high = path.subpaths.count
            while first < high {
                let middle = (first + high) / 2
                if path.subpaths[middle].maxX + dx <= 0 { first = middle + 1 } else { high = middle }
            }
        }
        // By index: in a debug build a for-in loop over an array allocates.
        for s in first..<path.subpaths.count {
            let subpath = path.subpaths[s]
            if subpath.minX + dx >= right {
                if path.subpathsAreSortedByX { break }
                continue
            }
            if subpath.maxX + dx <= 0 { continue }
            var current = Point(0, 0)
            for i in subpath.elements {
                switch path.elements[i] {
                case let .move(p):
                    move(to: p.x + dx, p.y + dy)
                    current = p
                case let .line(p):
                    line(to: p.x + dx, p.y + dy)
                    current = p
                case let .quad(c, p):
                    flattenQuad(from: current, control: c, to: p, dx: dx, dy: dy)
                    current = p
                }
            }
            close()
        }
    }

    /// The largest distance allowed between a curve and its straight segments, in pixels.
    public static let flatteningTolerance = 0.05

    /// Segments for a quadratic: with n equal parameter steps each chord is
    /// within |p0 - 2 p1 + p2| / (4 n^2) of the curve (the second derivative
    /// is 2 (p0 - 2 p1 + p2); a chord over a step h deviates by |B''| h^2 / 8).
    static func quadSegments(_ p0: Point, _ p1: Point, _ p2: Point) -> Int {
        let ddx = p0.x - 2 * p1.x + p2.x, ddy = p0.y - 2 * p1.y + p2.y
        let deviation = (ddx * ddx + ddy * ddy).squareRoot()
        let n = (deviation / (4 * flatteningTolerance)).squareRoot().rounded(.up)
        return n.isFinite ? Swift.max(1, Swift.min(Int(n), 4096)) : 1
    }

    private func flattenQuad(from p0: Point, control p1: Point, to p2: Point, dx: Double, dy: Double) {
        let n = Self.quadSegments(p0, p1, p2)
        for i in 1...n {
            let t = Double(i) / Double(n), s = 1 - t
            if i == n { line(to: p2.x + dx, p2.y + dy); break }
            line(to: s * s * p0.x + 2 * s * t * p1.x + t * t * p2.x + dx,
                 s * s * p0.y + 2 * s * t * p1.y + t * t * p2.y + dy)
        }
    }

    /// A coordinate inside the clip box on the 1/256-pixel grid.
    @inline(__always)
    static func fixed(_ v: Double) -> Int {
        Int((v * Double(subpixels)).rounded(.toNearestOrEven))
    }

    // MARK: Edges (1/256-pixel integer coordinates)

    /// Adds the edge from (x0, y0) to (x1, y1). Horizontal edges add nothing;
    /// parts above or below the image are dropped, parts left of it count as a
    /// vertical edge on x = 0, and parts right of it touch no pixel.
    /// Edges outside `clipRows` are dropped.
    public func addEdge(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        if y0 == y1 { return }
        let winding: Int32 = y1 > y0 ? 1 : -1
        // Walk top to bottom; the winding keeps the direction.
        let (ax, ay, bx, by) = y0 < y1 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        let top = clipRows.lowerBound << 8, bottom = clipRows.upperBound << 8
        if by <= top || ay >= bottom { return }
        let firstRow = Swift.max(ay, top) >> 8
        let lastRow = (Swift.min(by, bottom) - 1) >> 8
        let dx = bx - ax, dy = by - ay
        for row in firstRow...lastRow {
            let rowTop = row << 8
            let ya = Swift.max(ay, rowTop), yb = Swift.min(by, rowTop + 256)
            // x where the edge meets ya and yb; exact at the edge's own ends.
            let xa = ax + floorDiv(dx * (ya - ay), dy)
            let xb = ax + floorDiv(dx * (yb - ay), dy)
            addRowPiece(row: row, xa: xa, ya: ya - rowTop, xb: xb, yb: yb - rowTop, winding: winding)
        }
    }

    /// One edge piece inside one pixel row: from (xa, ya) to (xb, yb), ya < yb
    /// measured from the row's top.
    @inline(__always)
    private func addRowPiece(row: Int, xa: Int, ya: Int, xb: Int, yb: Int, winding: Int32) {
        let rightEdge = width << 8
        let lo = Swift.min(xa, xb), hi = Swift.max(xa, xb)
        if lo >= rightEdge { return }
        if hi <= 0 {
            addCell(row: row, column: 0, fxSum: 0, dy: Int32(yb - ya) * winding)
            return
        }
        if xa == xb {
            let column = xa >> 8
            addCell(row: row, column: column, fxSum: (xa - column << 8) * 2, dy: Int32(yb - ya) * winding)
            return
        }
        // y along the piece as a function of x; monotone, exact at both ends,
        // so the pieces' heights add up to yb - ya exactly.
        let runX = xb - xa, riseY = yb - ya
        @inline(__always) func y(at x: Int) -> Int { ya + floorDiv(riseY * (x - xa), runX) }
        if lo < 0 {
            let dyLeft = abs(y(at: 0) - y(at: lo))
            addCell(row: row, column: 0, fxSum: 0, dy: Int32(dyLeft) * winding)
        }
        let firstColumn = Swift.max(lo, 0) >> 8
        let lastColumn = Swift.min((hi - 1) >> 8, width - 1)
        if firstColumn > lastColumn { return }
        for column in firstColumn...lastColumn {
            let left = column << 8
            let l = Swift.max(lo, left), r = Swift.min(hi, left + 256)
            let dyPiece = abs(y(at: r) - y(at: l))
            if dyPiece == 0 { continue }
            addCell(row: row, column: column, fxSum: (l - left) + (r - left), dy: Int32(dyPiece) * winding)
        }
    }

    /// Adds a piece crossing `dy` sub-rows of pixel (column, row) whose x ends
    /// sum to `fxSum` (sub-pixels from the pixel's left side, 0...512): the
    /// area right of it in this pixel, and the rest to the next accumulator.
    @inline(__always)
    private func addCell(row: Int, column: Int, fxSum: Int, dy: Int32) {
        let area = dy * Int32(fxSum)
        let base = row * stride + column
        accumulation[base] &+= dy * 512 &- area
        accumulation[base + 1] &+= area
        let bits = touched + row * wordsPerRow
        bits[column >> 6] |= 1 << UInt64(column & 63)
        bits[(column + 1) >> 6] |= 1 << UInt64((column + 1) & 63)
    }

    // MARK: Resolve

    /// Turns the accumulated edges of `rows` into coverage for `blitter`,
    /// every pixel of those rows exactly once, left to right (runs of equal
    /// coverage in one call), and clears them for the next path.
    @inline(__always)
    public func resolve<Blitter: CoverageBlitter>(rows: Range<Int>, into blitter: inout Blitter) {
        for row in rows.clamped(to: 0..<height) { resolveRow(row, into: &blitter) }
    }

    @inline(__always)
    private func resolveRow<Blitter: CoverageBlitter>(_ row: Int, into blitter: inout Blitter) {
        let bits = touched + row * wordsPerRow
        let cells = accumulation + row * stride
        var x = 0
        var winding: Int32 = 0
        for word in 0..<wordsPerRow {
            var pending = bits[word]
            if pending == 0 { continue }
            bits[word] = 0
            while pending != 0 {
                let column = word << 6 + pending.trailingZeroBitCount
                pending &= pending &- 1
                let spanEnd = Swift.min(column, width)
                if spanEnd > x { blitter.blit(row: row, from: x, to: spanEnd, level: Self.level(winding)) }
                winding &+= cells[column]
                cells[column] = 0
                if column < width {
                    blitter.blit(row: row, from: column, to: column + 1, level: Self.level(winding))
                    x = column + 1
                } else {
                    x = width
                }
            }
        }
        if x < width { blitter.blit(row: row, from: x, to: width, level: Self.level(winding)) }
    }

    /// Coverage 0...1 as an index 0...255 into a paint, rounded to nearest.
    @inline(__always)
    static func level(_ accumulated: Int32) -> Int {
        let coverage = Swift.min(abs(Int(accumulated)), Int(fullCoverage))
        return (coverage * 255 + Int(fullCoverage) / 2) >> 17
    }
}

/// floor(n / d) for d != 0 (Swift's `/` truncates toward zero).
@inline(__always)
func floorDiv(_ n: Int, _ d: Int) -> Int {
    let q = n / d
    return (n % d != 0 && ((n < 0) != (d < 0))) ? q - 1 : q
}

/// Where coverage goes: told, row by row and left to right, that pixels
/// [x0, x1) are covered by level/255 (level 0...255).
public protocol CoverageBlitter {
    mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int)
}
