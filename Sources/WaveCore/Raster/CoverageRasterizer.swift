import Glibc

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
/// Memory is allocated once per size, zeroed by calloc, whose large blocks
/// are fresh pages mapped on first touch: the accumulators of a big frame
/// cost memory where its outlines reach, not 4 bytes a pixel (a 16384x16384
/// render's 1 GiB of them is mostly never touched). A rasteriser made for a
/// band of rows (`bandRows`) holds accumulators for that many rows only, and
/// `fill` rasterises an outline band by band: the edges that reach below the
/// first band are kept as they come (`keptEdges`, a few per column) and added
/// again for each band after it, and an outline with more of them is asked
/// for again. Adding edges and resolving them into pixels allocate nothing.
/// Memory the system cannot give is `ResourceError.outOfMemory` (exit 71),
/// not a trap.
package final class CoverageRasterizer {
    /// Sub-pixel steps per pixel on each axis.
    package static let subpixels = 256
    /// The accumulated value of a fully covered pixel: dy (256) times 2*256.
    static let fullCoverage: Int32 = 256 * 512

    package let width: Int
    package let height: Int
    /// The rows its accumulators hold at once (at most `height`): edges are added to rows
    /// `bandTop..<bandTop + bandRows` only (`fill` moves the band down an outline).
    package let bandRows: Int
    /// A band's height for a renderer's frame of `height` rows: half of them (at least 64), so that its
    /// accumulators (4 bytes a pixel) are half a frame's, and an outline spans at most two bands.
    package static func frameBandRows(height: Int) -> Int { Swift.min(height, Swift.max(64, (height + 1) / 2)) }
    /// Edges kept by `fill` to add again for the bands after the first, four (x0, y0, x1, y1) a slot.
    private let keptEdges: UnsafeMutablePointer<Int32>
    /// How many edges `keptEdges` holds: `keptEdgesPerColumn` per column, none without bands.
    private let keptEdgeCapacity: Int
    private static let keptEdgesPerColumn = 8

    /// The bytes a rasteriser of this size holds (its accumulators, marks and kept edges).
    package static func bytes(width: Int, height: Int, bandRows: Int? = nil) -> Int {
        let rows = Swift.max(1, Swift.min(height, bandRows ?? height)), stride = width + 1
        let keptEdges = rows < height ? keptEdgesPerColumn * stride : 0
        return stride * rows * 4 + (stride + 63) / 64 * rows * 8 + keptEdges * 16
    }
    /// Per row of the band, width + 1 accumulators: column W collects what spills past the right edge.
    private let stride: Int
    private let accumulation: UnsafeMutablePointer<Int32>
    /// Per row of the band, one bit for every pixel that received an edge piece, so
    /// resolving visits only those and fills the spans between them in one write.
    private let wordsPerRow: Int
    private let touched: UnsafeMutablePointer<UInt64>

    /// Rows outside this band receive nothing. Exact clipping, because a
    /// row's coverage depends only on the edge pieces inside that row.
    /// The fill rule of the outlines being added and resolved: even-odd (a
    /// pixel covered twice is uncovered) instead of non-zero. Exact where
    /// sub-paths do not cross inside one pixel.
    package var evenOdd: Bool {
        get { state.pointee.evenOdd }
        set { state.pointee.evenOdd = newValue }
    }

    package var clipRows: Range<Int> {
        get { state.pointee.clipTop..<state.pointee.clipBottom }
        set { state.pointee.clipTop = newValue.lowerBound; state.pointee.clipBottom = newValue.upperBound }
    }

    /// The pen, the current sub-path's start and the clip. Behind a pointer:
    /// a class's stored `var`s, written on every vertex, would each pay
    /// Swift's run-time exclusivity check.
    private struct PenState {
        /// In pixels (finite).
        var x = 0.0, y = 0.0, startX = 0.0, startY = 0.0
        /// Whether the point lies in the box one pixel around the image, and
        /// then where it lies on the 1/256-pixel grid.
        var inside = true, startInside = true
        var fx = 0, fy = 0, startFX = 0, startFY = 0
        var clipTop = 0, clipBottom = 0
        /// The first row of the band the accumulators hold (`fill`).
        var bandTop = 0
        /// While `fill` adds its first band: edges reaching below it are kept (`keptEdges`), `keptCount` so far, and
        /// whether some found no room (then the outline is asked for again for each band after).
        var keeping = false, keptCount = 0, keptOverflowed = false
        /// Coverage by the even-odd rule instead of the non-zero one.
        var evenOdd = false
        /// The rows edge pieces reached since they were last all resolved
        /// (empty when top > bottom): rows outside have no marked pixel.
        var touchedTop = Int.max, touchedBottom = Int.min
    }
    private let state: UnsafeMutablePointer<PenState>

    /// `bandRows`: the rows its accumulators hold at once (nil: every row; then edges may be added
    /// and resolved anywhere, without `fill`).
    package init(width: Int, height: Int, bandRows: Int? = nil) throws {
        precondition(width > 0 && height > 0)
        self.width = width
        self.height = height
        self.bandRows = Swift.max(1, Swift.min(height, bandRows ?? height))
        stride = width + 1
        wordsPerRow = (stride + 63) / 64
        keptEdgeCapacity = self.bandRows < height ? Self.keptEdgesPerColumn * stride : 0
        accumulation = try Self.zeroed(stride * self.bandRows)
        do {
            touched = try Self.zeroed(wordsPerRow * self.bandRows)
        } catch {
            free(accumulation)
            throw error
        }
        keptEdges = .allocate(capacity: 4 * keptEdgeCapacity)
        state = .allocate(capacity: 1)
        state.initialize(to: PenState(clipTop: 0, clipBottom: height))
    }

    deinit {
        free(accumulation)
        free(touched)
        keptEdges.deallocate()
        state.deallocate()
    }

    /// `count` zeroed values from calloc, which leaves a fresh mapping's pages untouched.
    private static func zeroed<T>(_ count: Int) throws -> UnsafeMutablePointer<T> {
        guard let memory = calloc(count, MemoryLayout<T>.stride) else {
            throw ResourceError.outOfMemory(bytes: count * MemoryLayout<T>.stride, what: "the rasteriser's accumulators")
        }
        return memory.bindMemory(to: T.self, capacity: count)
    }

    // MARK: Paths (pixel coordinates, y down)

    package func move(to x: Double, _ y: Double) {
        close()
        let (nx, ny) = (Self.finite(x), Self.finite(y))
        let inside = isInBox(nx, ny)
        let (fx, fy) = inside ? (Self.fixed(nx), Self.fixed(ny)) : (0, 0)
        state.pointee = PenState(x: nx, y: ny, startX: nx, startY: ny, inside: inside, startInside: inside,
                                 fx: fx, fy: fy, startFX: fx, startFY: fy,
                                 clipTop: state.pointee.clipTop, clipBottom: state.pointee.clipBottom, bandTop: state.pointee.bandTop,
                                 keeping: state.pointee.keeping, keptCount: state.pointee.keptCount,
                                 keptOverflowed: state.pointee.keptOverflowed, evenOdd: state.pointee.evenOdd,
                                 touchedTop: state.pointee.touchedTop, touchedBottom: state.pointee.touchedBottom)
    }

    @inline(__always)
    package func line(to x: Double, _ y: Double) {
        // A point in the box is finite already (NaN fails every comparison).
        let raw = isInBox(x, y)
        let (nx, ny) = raw ? (x, y) : (Self.finite(x), Self.finite(y))
        let pen = state
        let inside = raw || isInBox(nx, ny)
        if inside && pen.pointee.inside {
            // Both ends on the grid already: no clipping to do.
            let fx = Self.fixed(nx), fy = Self.fixed(ny)
            addEdge(pen.pointee.fx, pen.pointee.fy, fx, fy)
            pen.pointee.fx = fx
            pen.pointee.fy = fy
        } else {
            segment((pen.pointee.x, pen.pointee.y), (nx, ny))
            if inside {
                pen.pointee.fx = Self.fixed(nx)
                pen.pointee.fy = Self.fixed(ny)
            }
        }
        pen.pointee.x = nx
        pen.pointee.y = ny
        pen.pointee.inside = inside
    }

    /// The rows edges are taken for now (`OutlineSink.keptRows`): the clip's from the band's top, down to the band's
    /// bottom, or to the clip's while `fill` keeps the edges below the first band for the bands after it.
    package var keptRows: (top: Double, bottom: Double)? {
        let band = state.pointee.bandTop, clipBottom = state.pointee.clipBottom
        return (Double(Swift.max(state.pointee.clipTop, band)),
                Double(state.pointee.keeping ? clipBottom : Swift.min(clipBottom, band &+ bandRows)))
    }

    /// Closes the current sub-path back to its start.
    package func close() {
        let pen = state
        if pen.pointee.inside && pen.pointee.startInside {
            addEdge(pen.pointee.fx, pen.pointee.fy, pen.pointee.startFX, pen.pointee.startFY)
        } else {
            segment((pen.pointee.x, pen.pointee.y), (pen.pointee.startX, pen.pointee.startY))
        }
        pen.pointee.x = pen.pointee.startX
        pen.pointee.y = pen.pointee.startY
        pen.pointee.inside = pen.pointee.startInside
        pen.pointee.fx = pen.pointee.startFX
        pen.pointee.fy = pen.pointee.startFY
    }

    /// Whether (x, y) lies in the box one pixel around the image, where
    /// points go straight onto the grid.
    @inline(__always)
    private func isInBox(_ x: Double, _ y: Double) -> Bool {
        x >= -1 && x <= Double(width + 1) && y >= -1 && y <= Double(height + 1)
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
    @inline(never)
    private func segment(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) {
        let right = Double(width + 1), bottom = Double(height + 1)
        if isInBox(a.x, a.y) && isInBox(b.x, b.y) {
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

    /// The largest distance allowed between a curve and its straight segments, in pixels.
    package static let flatteningTolerance = 0.05

    /// Segments for a quadratic: with n equal parameter steps each chord is
    /// within |p0 - 2 p1 + p2| / (4 n^2) of the curve (the second derivative
    /// is 2 (p0 - 2 p1 + p2); a chord over a step h deviates by |B''| h^2 / 8).
    package static func quadSegments(_ p0: Point, _ p1: Point, _ p2: Point) -> Int {
        let ddx = p0.x - 2 * p1.x + p2.x, ddy = p0.y - 2 * p1.y + p2.y
        let deviation = (ddx * ddx + ddy * ddy).squareRoot()
        let n = (deviation / (4 * flatteningTolerance)).squareRoot().rounded(.up)
        return n.isFinite ? Swift.max(1, Swift.min(Int(n), 4096)) : 1
    }

    /// A coordinate inside the clip box on the 1/256-pixel grid, rounded to
    /// nearest (ties to even). Adding and taking away 1.5 * 2^52 rounds in
    /// the FPU's default mode: what `rounded(.toNearestOrEven)` gives, without
    /// the library call that plain x86-64 (no SSE4.1 `roundsd`) makes of it.
    @inline(__always)
    static func fixed(_ v: Double) -> Int {
        let magic = 6_755_399_441_055_744.0
        return Int((v * Double(subpixels) + magic) - magic)
    }

    // MARK: Edges (1/256-pixel integer coordinates)

    /// Adds the edge from (x0, y0) to (x1, y1), ends inside the box one
    /// pixel around the image. Horizontal edges add nothing; parts above or
    /// below the image or outside `clipRows` or the band are dropped, parts left of it
    /// count as a vertical edge on x = 0, and parts right of it touch no pixel.
    ///
    /// No division per row: x where the edge crosses each row boundary is
    /// stepped exactly (quotient and remainder), equal to
    /// ax + floor(dx * (y - ay) / dy) at every boundary.
    package func addEdge(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        if y0 == y1 { return }
        let winding: Int32 = y1 > y0 ? 1 : -1
        // Walk top to bottom; the winding keeps the direction.
        let (ax, ay, bx, by) = y0 < y1 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        let band = state.pointee.bandTop
        let top = Swift.max(state.pointee.clipTop, band) << 8, bottom = Swift.min(state.pointee.clipBottom, band &+ bandRows) << 8
        if state.pointee.keeping && by > bottom && ay < state.pointee.clipBottom << 8 { keep(x0, y0, x1, y1) }
        if by <= top || ay >= bottom { return }
        let ya = Swift.max(ay, top), yEnd = Swift.min(by, bottom)
        let firstRow = ya >> 8, lastRow = (yEnd &- 1) >> 8
        if firstRow < state.pointee.touchedTop { state.pointee.touchedTop = firstRow }
        if lastRow > state.pointee.touchedBottom { state.pointee.touchedBottom = lastRow }
        // The common case on a gentle curve: the whole edge inside one row.
        if firstRow == lastRow && ya == ay && yEnd == by {
            let rowTop = firstRow << 8
            addRowPiece(row: firstRow &- band, xa: ax, ya: ay &- rowTop, xb: bx, yb: by &- rowTop, winding: winding)
            return
        }
        let dx = bx &- ax, dy = by &- ay
        // x at the first piece's top (the edge's own end unless clipped), then at
        // each row boundary below it: ax + q + r / dy, stepped without dividing.
        var xa = ya == ay ? ax : ax &+ floorDiv(dx &* (ya &- ay), dy)
        var yStart = ya
        let boundary = (firstRow &+ 1) << 8
        let numerator = dx &* (boundary &- ay)
        var q = floorDiv(numerator, dy)
        // Most steep edges of a curve cross one row boundary: no stepping to set up.
        if lastRow == firstRow &+ 1 && yEnd == by {
            let rowTop = firstRow << 8, xMiddle = ax &+ q
            addRowPiece(row: firstRow &- band, xa: xa, ya: ya &- rowTop, xb: xMiddle, yb: 256, winding: winding)
            addRowPiece(row: lastRow &- band, xa: xMiddle, ya: 0, xb: bx, yb: by &- boundary, winding: winding)
            return
        }
        var r = numerator &- q &* dy
        let stepQ = floorDiv(dx &* 256, dy), stepR = dx &* 256 &- stepQ &* dy
        for row in firstRow...lastRow {
            let rowTop = row << 8
            let yb = Swift.min(yEnd, rowTop &+ 256)
            let xb: Int
            if yb == by {
                xb = bx
            } else if yb == rowTop &+ 256 {
                xb = ax &+ q
                q &+= stepQ
                r &+= stepR
                if r >= dy { q &+= 1; r &-= dy }
            } else {
                xb = ax &+ floorDiv(dx &* (yb &- ay), dy) // clipped at the band's bottom
            }
            addRowPiece(row: row &- band, xa: xa, ya: yStart &- rowTop, xb: xb, yb: yb &- rowTop, winding: winding)
            xa = xb
            yStart = yb
        }
    }

    /// One edge piece inside one pixel row (`row`: of the band): from (xa, ya) to (xb, yb), ya < yb
    /// measured from the row's top.
    @inline(__always)
    private func addRowPiece(row: Int, xa: Int, ya: Int, xb: Int, yb: Int, winding: Int32) {
        let rightEdge = width << 8
        let dyAll = Int32(yb &- ya) &* winding
        if xa == xb {
            if xa >= rightEdge { return }
            if xa <= 0 { return addCell(row: row, column: 0, fxSum: 0, dy: dyAll) }
            let column = xa >> 8
            return addCell(row: row, column: column, fxSum: (xa &- column << 8) &* 2, dy: dyAll)
        }
        // From the left end (lo, yLo) to the right end (hi, yHi).
        let (lo, yLo, hi, yHi) = xa < xb ? (xa, ya, xb, yb) : (xb, yb, xa, ya)
        if lo >= rightEdge { return }
        if hi <= 0 { return addCell(row: row, column: 0, fxSum: 0, dy: dyAll) }
        let firstColumn = lo >> 8
        // The common case: the whole piece inside one pixel.
        if lo >= 0 && firstColumn == (hi &- 1) >> 8 {
            return addCell(row: row, column: firstColumn, fxSum: lo &+ hi &- firstColumn << 9, dy: dyAll)
        }
        // y along the piece at x is yLo + floor(rise * (x - lo) / run): monotone,
        // exact at both ends, so the pieces' heights add up to yb - ya exactly.
        // Stepped from one column boundary to the next without dividing.
        let run = hi &- lo, rise = yHi &- yLo
        var x = lo, y = yLo
        if lo < 0 {
            // Everything left of the image is a vertical edge at x = 0.
            let n = rise * -lo
            let y0 = yLo &+ floorDiv(n, run)
            addCell(row: row, column: 0, fxSum: 0, dy: Int32(abs(y0 &- yLo)) &* winding)
            x = 0
            y = y0
        }
        let startColumn = x >> 8
        let lastColumn = Swift.min((hi &- 1) >> 8, width &- 1)
        if startColumn > lastColumn { return }
        // The first column, up to its right side (or the piece's end).
        let firstBoundary = (startColumn &+ 1) << 8
        if firstBoundary >= hi {
            return addPiece(row: row, column: startColumn, from: x, y, to: hi, yHi, winding: winding)
        }
        let numerator = rise &* (firstBoundary &- lo)
        var q = floorDiv(numerator, run)
        addPiece(row: row, column: startColumn, from: x, y, to: firstBoundary, yLo &+ q, winding: winding)
        if startColumn == lastColumn { return }
        // Most pieces end in the next column: no stepping to set up.
        if hi <= firstBoundary &+ 256 {
            return addPiece(row: row, column: startColumn &+ 1, from: firstBoundary, yLo &+ q, to: hi, yHi, winding: winding)
        }
        // Longer pieces: y at each further column boundary, stepped without dividing.
        var rem = numerator &- q &* run
        let stepQ = floorDiv(rise &* 256, run), stepR = rise &* 256 &- stepQ &* run
        x = firstBoundary
        y = yLo &+ q
        for column in (startColumn &+ 1)...lastColumn {
            let right = (column &+ 1) << 8
            let xr: Int, yr: Int
            if right >= hi {
                xr = hi
                yr = yHi
            } else {
                q &+= stepQ
                rem &+= stepR
                if rem >= run { q &+= 1; rem &-= run }
                xr = right
                yr = yLo &+ q
            }
            addPiece(row: row, column: column, from: x, y, to: xr, yr, winding: winding)
            x = xr
            y = yr
        }
    }

    /// The part of a piece inside one pixel: from (x0, y0) to (x1, y1), x0 <= x1.
    @inline(__always)
    private func addPiece(row: Int, column: Int, from x0: Int, _ y0: Int, to x1: Int, _ y1: Int, winding: Int32) {
        let dy = abs(y1 &- y0)
        if dy == 0 { return }
        let left = column << 8
        addCell(row: row, column: column, fxSum: (x0 &- left) &+ (x1 &- left), dy: Int32(dy) &* winding)
    }

    /// Adds a piece crossing `dy` sub-rows of pixel (column, row) whose x ends
    /// sum to `fxSum` (sub-pixels from the pixel's left side, 0...512): the
    /// area right of it in this pixel, and the rest to the next accumulator.
    @inline(__always)
    private func addCell(row: Int, column: Int, fxSum: Int, dy: Int32) {
        let area = dy &* Int32(fxSum)
        let base = row &* stride &+ column
        accumulation[base] &+= dy &* 512 &- area
        accumulation[base &+ 1] &+= area
        touched[row &* wordsPerRow &+ column >> 6] |= 1 << UInt64(column & 63)
    }

    // MARK: Resolve

    /// Turns the accumulated edges of `rows` into coverage for `blitter`,
    /// every pixel of those rows exactly once, left to right (runs of equal
    /// coverage in one call), and clears them for the next path.
    @inline(__always)
    package func resolve<Blitter: CoverageBlitter>(rows: Range<Int>, into blitter: inout Blitter) {
        let rows = rows.clamped(to: 0..<height)
        let top = state.pointee.touchedTop, bottom = state.pointee.touchedBottom
        for row in rows {
            // A row no edge reached is uncovered from end to end: no marks to scan.
            if row < top || row > bottom {
                blitter.blit(row: row, from: 0, to: width, level: 0)
            } else {
                resolveRow(row, into: &blitter)
            }
        }
        if rows.lowerBound <= top && rows.upperBound > bottom {
            state.pointee.touchedTop = Int.max
            state.pointee.touchedBottom = Int.min
        }
    }

    /// An outline over `rows` into `blitter`, band by band: `outline` adds its
    /// edges (`move`, `line`, `close`) and is asked once for each band of at
    /// most `bandRows` rows the rows span (its edges outside the band and
    /// `clipRows` dropped), each band resolved before the next. Every pixel
    /// of `rows` reaches the blitter once, as `resolve(rows:into:)` gives
    /// them. Where `rows` fit one band, the outline is asked once.
    @inline(__always)
    package func fill<Blitter: CoverageBlitter>(rows: Range<Int>, into blitter: inout Blitter, outline: () -> Void) {
        let rows = rows.clamped(to: 0..<height)
        var top = rows.lowerBound
        while top < rows.upperBound {
            let band = top..<Swift.min(rows.upperBound, top &+ bandRows)
            state.pointee.bandTop = top
            if top == rows.lowerBound {
                // The first band: its edges added, those reaching below it kept where there is room.
                state.pointee.keeping = band.upperBound < rows.upperBound
                outline()
                state.pointee.keeping = false
            } else if state.pointee.keptOverflowed {
                outline()
            } else {
                var k = 0
                while k < state.pointee.keptCount {
                    let edge = keptEdges + 4 &* k
                    addEdge(Int(edge[0]), Int(edge[1]), Int(edge[2]), Int(edge[3]))
                    k &+= 1
                }
            }
            resolve(rows: band, into: &blitter)
            top = band.upperBound
        }
        state.pointee.bandTop = 0
        state.pointee.keptCount = 0
        state.pointee.keptOverflowed = false
    }

    // MARK: Rectangles

    /// An outline that is one rectangle with sides along the axes, its sides on the 1/256 grid (`gridRectangle`).
    package struct GridRectangle: Equatable {
        let left: Int, top: Int, right: Int, bottom: Int
    }

    /// The rectangle with opposite corners (x0, y0) and (x1, y1), in pixels, its sides where `move` and `line`
    /// put its edges on the grid; nil where a corner lies outside the box one pixel around the image (there its
    /// edges are clipped first: `fill` it as an outline).
    package func gridRectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> GridRectangle? {
        guard isInBox(x0, y0), isInBox(x1, y1) else { return nil }
        let (a, b, c, d) = (Self.fixed(x0), Self.fixed(y0), Self.fixed(x1), Self.fixed(y1))
        return GridRectangle(left: Swift.min(a, c), top: Swift.min(b, d), right: Swift.max(a, c), bottom: Swift.max(b, d))
    }

    /// `rectangle`'s coverage over `rows`, every pixel of them once as `fill` gives its four edges, the same
    /// levels without accumulating them: on the grid, two vertical edges leave a pixel twice its overlap with
    /// the rectangle's rows times its overlap with its columns (left of the image counting from its first
    /// column, right of it reaching no pixel, as `addEdge` has them).
    package func fill<Blitter: CoverageBlitter>(rows: Range<Int>, into blitter: inout Blitter, rectangle: GridRectangle) {
        let evenOdd = state.pointee.evenOdd, edge = width << 8
        let left = Swift.min(Swift.max(rectangle.left, 0), edge), right = Swift.min(Swift.max(rectangle.right, 0), edge)
        let first = left >> 8, last = (right &- 1) >> 8
        for row in rows.clamped(to: 0..<height) {
            let top = row << 8
            let rise = Swift.min(rectangle.bottom, top &+ 256) &- Swift.max(rectangle.top, top)
            guard rise > 0 && right > left else {
                blitter.blit(row: row, from: 0, to: width, level: 0)
                continue
            }
            if first > 0 { blitter.blit(row: row, from: 0, to: first, level: 0) }
            if first == last {
                blitter.blit(row: row, from: first, to: first &+ 1, level: Self.level(Int32(2 &* rise &* (right &- left)), evenOdd: evenOdd))
            } else {
                let leftPart = (first &+ 1) << 8 &- left, rightPart = right &- last << 8
                blitter.blit(row: row, from: first, to: first &+ 1, level: Self.level(Int32(2 &* rise &* leftPart), evenOdd: evenOdd))
                if last > first &+ 1 {
                    blitter.blit(row: row, from: first &+ 1, to: last, level: Self.level(Int32(2 &* rise &* 256), evenOdd: evenOdd))
                }
                blitter.blit(row: row, from: last, to: last &+ 1, level: Self.level(Int32(2 &* rise &* rightPart), evenOdd: evenOdd))
            }
            if last &+ 1 < width { blitter.blit(row: row, from: last &+ 1, to: width, level: 0) }
        }
    }

    /// Keeps an edge for the bands after the first (`fill`), or notes that there was no room.
    private func keep(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        let n = state.pointee.keptCount
        guard n < keptEdgeCapacity else {
            state.pointee.keptOverflowed = true
            return
        }
        let edge = keptEdges + 4 &* n
        // On the grid, within the box one pixel around the image (in 1/256 pixels, far inside 32 bits).
        (edge[0], edge[1], edge[2], edge[3]) = (Int32(truncatingIfNeeded: x0), Int32(truncatingIfNeeded: y0),
                                                 Int32(truncatingIfNeeded: x1), Int32(truncatingIfNeeded: y1))
        state.pointee.keptCount = n &+ 1
    }

    /// Only pixels that received edge pieces are marked. A marked pixel's
    /// accumulator holds what its pieces add inside it; the rest of their
    /// area went to the next accumulator. When that next pixel is not
    /// marked itself, its spill is taken in at once, so the run after a
    /// marked pixel goes out in one call.
    @inline(__always)
    private func resolveRow<Blitter: CoverageBlitter>(_ row: Int, into blitter: inout Blitter) {
        let inBand = row &- state.pointee.bandTop
        let bits = touched + inBand &* wordsPerRow
        let cells = accumulation + inBand &* stride
        let evenOdd = state.pointee.evenOdd
        var x = 0
        var winding: Int32 = 0
        for word in 0..<wordsPerRow {
            var pending = bits[word]
            if pending == 0 { continue }
            bits[word] = 0
            while pending != 0 {
                let bit = pending.trailingZeroBitCount
                let column = word << 6 &+ bit
                pending &= pending &- 1
                if column > x { blitter.blit(row: row, from: x, to: column, level: Self.level(winding, evenOdd: evenOdd)) }
                winding &+= cells[column]
                cells[column] = 0
                blitter.blit(row: row, from: column, to: column &+ 1, level: Self.level(winding, evenOdd: evenOdd))
                x = column &+ 1
                let nextIsMarked = bit < 63 ? pending & (1 << UInt64(bit &+ 1)) != 0 : bits[word &+ 1] & 1 != 0
                if !nextIsMarked {
                    winding &+= cells[column &+ 1]
                    cells[column &+ 1] = 0
                }
            }
        }
        if x < width { blitter.blit(row: row, from: x, to: width, level: Self.level(winding, evenOdd: evenOdd)) }
    }

    /// Coverage 0...1 as an index 0...255 into a paint, rounded to nearest.
    @inline(__always)
    static func level(_ accumulated: Int32, evenOdd: Bool = false) -> Int {
        var coverage = abs(Int(accumulated))
        if evenOdd {
            // Folded into one cover: 1.5 covers is half, 2 none.
            coverage %= 2 * Int(fullCoverage)
            if coverage > Int(fullCoverage) { coverage = 2 * Int(fullCoverage) - coverage }
        }
        coverage = Swift.min(coverage, Int(fullCoverage))
        return (coverage * 255 + Int(fullCoverage) / 2) >> 17
    }
}

/// floor(n / d) for d > 0 (Swift's `/` truncates toward zero).
@inline(__always)
func floorDiv(_ n: Int, _ d: Int) -> Int {
    // Every divisor here is positive (a piece's height or width). A vertex
    // every whole pixel (or half, quarter...) makes row pieces 256 (128, 64...)
    // sub-pixels wide: a shift then, an arithmetic one, which floors.
    if d & (d &- 1) == 0 { return n >> d.trailingZeroBitCount }
    let q = n / d
    return n % d < 0 ? q &- 1 : q
}

/// Where coverage goes: told, row by row and left to right, that pixels
/// [x0, x1) are covered by level/255 (level 0...255).
package protocol CoverageBlitter {
    mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int)
    /// Pixels `x..<x + count` of the row, each at its own level (the byte at `levels + i`; 0 draws nothing):
    /// edge pixels side by side, as kept coverage plays them back (`KeptCoverage`). Unless a blitter does
    /// better, one `blit` a pixel.
    mutating func blit(row: Int, from x: Int, levels: UnsafeRawPointer, count: Int)
    /// Coverage kept from an earlier frame played back (`KeptCoverage`'s words). Unless a blitter does
    /// better, each of its runs through `blit` (`KeptCoverage.playRuns`).
    mutating func play(kept: UnsafeBufferPointer<UInt16>)
}

extension CoverageBlitter {
    @inline(__always)
    package mutating func play(kept: UnsafeBufferPointer<UInt16>) { KeptCoverage.playRuns(kept, into: &self) }

    @inline(__always)
    package mutating func blit(row: Int, from x: Int, levels: UnsafeRawPointer, count: Int) {
        var i = 0
        while i < count {
            blit(row: row, from: x &+ i, to: x &+ i &+ 1, level: Int(levels.load(fromByteOffset: i, as: UInt8.self)))
            i &+= 1
        }
    }
}
