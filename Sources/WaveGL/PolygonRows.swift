import WaveCore

/// The GL strategy's polygons, made on the CPU every frame as points (no
/// pixels): each item's outline in scene pixels, its edges listed under
/// every scene row they cross, so the item shader visits only a row's own
/// edges. Storage is kept from frame to frame (it grows to the largest
/// frame seen, then nothing is allocated).
final class PolygonRows: OutlineSink {
    /// x0, y0, x1, y1 per edge, scene pixels, in drawing order (the winding).
    private(set) var edges: [Float] = []
    /// Edge indices, row after row.
    private(set) var entries: [Int32] = []
    /// Per row of every item: its first entry and its entry count.
    private(set) var rows: [Int32] = []
    private var pen = (x: 0.0, y: 0.0), start = (x: 0.0, y: 0.0)
    private var itemFirstEdge = 0
    private var rowCursor: [Int32] = []

    var edgeCount: Int { edges.count / 4 }

    /// Room for `points` edges and `rows` row slots, so frames up to that size allocate nothing.
    func reserve(points: Int, rows rowSlots: Int) {
        edges.reserveCapacity(points * 4)
        entries.reserveCapacity(points * 2 + rowSlots)
        rows.reserveCapacity(rowSlots * 2)
        rowCursor.reserveCapacity(rowSlots)
    }

    func removeAll() {
        edges.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
    }

    /// Starts an item's outline.
    func begin() { itemFirstEdge = edgeCount }

    func move(to x: Double, _ y: Double) {
        close()
        let x = x.isNaN ? 0 : Swift.min(Self.limit, Swift.max(-Self.limit, x))
        let y = y.isNaN ? 0 : Swift.min(Self.limit, Swift.max(-Self.limit, y))
        pen = (x, y)
        start = (x, y)
    }

    /// Far beyond any frame: coordinates are held here so a Float stays finite.
    static let limit = 1e7

    func line(to x: Double, _ y: Double) {
        let x = x.isNaN ? 0 : Swift.min(Self.limit, Swift.max(-Self.limit, x))
        let y = y.isNaN ? 0 : Swift.min(Self.limit, Swift.max(-Self.limit, y))
        if y != pen.y {
            edges.append(Float(pen.x)); edges.append(Float(pen.y)); edges.append(Float(x)); edges.append(Float(y))
        }
        pen = (x, y)
    }

    func close() {
        if pen != start { line(to: start.x, start.y) }
    }

    /// Ends the item's outline: its edges listed under each of `rowRange`
    /// they cross. Returns the item's first row-table slot.
    func finish(rows rowRange: Range<Int>) -> Int {
        close()
        let base = rows.count / 2
        let first = rowRange.lowerBound, count = rowRange.count
        // While loops: in a debug build a for-in loop allocates.
        var k = 0
        while k < count { rows.append(0); rows.append(0); k += 1 }
        while rowCursor.count < count { rowCursor.append(0) }
        // Count each row's edges, then lay the rows out one after another.
        var e = itemFirstEdge
        while e < edgeCount {
            let (lo, hi) = span(e, first: first, count: count)
            var r = lo
            while r < hi { rows[(base + r) * 2 + 1] += 1; r += 1 }
            e += 1
        }
        var next = Int32(entries.count)
        var r = 0
        while r < count {
            rows[(base + r) * 2] = next
            rowCursor[r] = next
            next += rows[(base + r) * 2 + 1]
            r += 1
        }
        while entries.count < Int(next) { entries.append(0) }
        e = itemFirstEdge
        while e < edgeCount {
            let (lo, hi) = span(e, first: first, count: count)
            var r = lo
            while r < hi {
                entries[Int(rowCursor[r])] = Int32(e)
                rowCursor[r] += 1
                r += 1
            }
            e += 1
        }
        return base
    }

    /// The item rows (0-based from `first`) edge e crosses: [lo, hi).
    @inline(__always)
    private func span(_ e: Int, first: Int, count: Int) -> (Int, Int) {
        let y0 = Double(edges[e * 4 + 1]), y1 = Double(edges[e * 4 + 3])
        let top = Swift.min(y0, y1), bottom = Swift.max(y0, y1)
        let lo = Swift.max(0, Int(top.rounded(.down)) - first)
        let hi = Swift.min(count, Int(bottom.rounded(.up)) - first)
        return (lo, Swift.max(lo, hi))
    }
}
