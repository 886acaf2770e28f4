import WaveCore

/// The GL strategy's polygons, made on the CPU every frame as points (no
/// pixels): each item's outline in scene pixels, its edges listed under
/// every scene row they cross, so the item shader visits only a row's own
/// edges. An outline that says it is the same as the last frame's
/// (`DynamicPath.outlineIdentity`), under the same transform over the same
/// area (`KeptCoverage.Key`, as the CPU strategy keeps its coverage), is
/// copied from the last frame's tables instead of being made again.
/// Storage is kept from frame to frame (it grows to the largest frame
/// seen, then nothing is allocated).
final class PolygonRows: OutlineSink {
    // Unchecked exclusivity: one thread builds a frame's polygons, and the
    // runtime's access checks on every append cost more than the appends.
    /// x0, y0, x1, y1 per edge, scene pixels, in drawing order (the winding).
    @exclusivity(unchecked) private(set) var edges: [Float] = []
    /// Edge indices, row after row.
    @exclusivity(unchecked) private(set) var entries: [Int32] = []
    /// Per row of every item: its first entry and its entry count.
    @exclusivity(unchecked) private(set) var rows: [Int32] = []
    @exclusivity(unchecked) private var pen = (x: 0.0, y: 0.0)
    @exclusivity(unchecked) private var start = (x: 0.0, y: 0.0)
    private var itemFirstEdge = 0
    private var rowCursor: [Int32] = []
    /// The last frame's tables, which kept items are copied from.
    @exclusivity(unchecked) private var lastEdges: [Float] = []
    @exclusivity(unchecked) private var lastEntries: [Int32] = []
    @exclusivity(unchecked) private var lastRows: [Int32] = []

    /// An item's part of a frame's tables: what makes its rows the same, the frame they were made for, and
    /// where they lie: edges (in edges), entries and row slots (in slots of four values).
    private struct Kept {
        var key: KeptCoverage.Key
        var frame = -1
        var edges = 0..<0, entries = 0..<0, slots = 0..<0
    }

    /// Per slot of the presentation list (its items, then its mask items): the rows last kept there.
    @exclusivity(unchecked) private var kept: [Kept] = []
    /// Counts frames (`startFrame`): a slot's rows are copied only from the frame just before.
    private var frame = 0
    /// Where the item `finish` ended lies in this frame's tables.
    private var finished = Kept(key: KeptCoverage.Key(node: 0, outline: 0, transform: .identity, area: (0..<0, 0..<0), evenOdd: false))
    /// Items whose rows this frame copied from the last (the tests count them).
    private(set) var keptThisFrame = 0

    var edgeCount: Int { edges.count / 4 }

    /// Room for `points` edges and `rows` slots (rows times runs), so frames up to that size allocate nothing.
    /// `slots`: the presentation list's items and mask items, each of which may keep its rows.
    func reserve(points: Int, rows rowSlots: Int, slots: Int) {
        edges.reserveCapacity(points * 4)
        entries.reserveCapacity(points * 2 + rowSlots)
        rows.reserveCapacity(rowSlots * 2)
        lastEdges.reserveCapacity(points * 4)
        lastEntries.reserveCapacity(points * 2 + rowSlots)
        lastRows.reserveCapacity(rowSlots * 2)
        rowCursor.reserveCapacity(rowSlots)
        leftCover.reserveCapacity(rowSlots + 4096)
        kept = Array(repeating: finished, count: slots)
    }

    /// Memory a frame's tables could not have (its draw fails with it, exit 71); nil while all went well.
    private(set) var failure: ResourceError?

    /// Makes room in `array` for `count` elements where it has less: the
    /// growth checked first (`CheckedMemory`), then made whole at once.
    private func grow<T>(_ array: inout [T], to count: Int) -> Bool {
        guard failure == nil else { return false }
        guard array.capacity < count else { return true }
        let capacity = Swift.max(count, 2 * array.capacity)
        do {
            try CheckedMemory.allocating(bytes: capacity * MemoryLayout<T>.stride, for: "a frame's polygon tables") {
                array.reserveCapacity(capacity)
            }
            return true
        } catch {
            failure = error as? ResourceError ?? .outOfMemory(bytes: capacity * MemoryLayout<T>.stride, what: "a frame's polygon tables")
            return false
        }
    }

    /// Clears the failure once reported.
    func takeFailure() -> ResourceError? {
        defer { failure = nil }
        return failure
    }

    /// Starts a frame: this frame's tables empty, the last one's kept to copy from.
    func startFrame() {
        swap(&edges, &lastEdges)
        swap(&entries, &lastEntries)
        swap(&rows, &lastRows)
        edges.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
        frame += 1
        keptThisFrame = 0
    }

    /// Ends the frame's tables: the last frame's arrays (the next frame's to fill) given room for what this
    /// frame needed, so a frame that grew its tables is the only one that allocates (not the next one too).
    /// Compared with what was needed, not with the other array's capacity: the allocator may hand either
    /// array more than it asked for, and chasing that would allocate in frames that need nothing new.
    func endFrame() {
        guard failure == nil else { return }
        if lastEdges.capacity < edges.count { lastEdges.reserveCapacity(edges.capacity) }
        if lastEntries.capacity < entries.count { lastEntries.reserveCapacity(entries.capacity) }
        if lastRows.capacity < rows.count { lastRows.reserveCapacity(rows.capacity) }
    }

    /// Where `slot` kept rows for `key` in the last frame: they are copied into this frame's tables (edges
    /// as they are; entries and row slots moved to where their edges and entries now lie), kept again for
    /// the next frame, and the item's first slot returned. Nil otherwise: its outline is made (`begin` to
    /// `finish`), then `keep(slot:key:)`.
    func copyKept(slot: Int, key: KeptCoverage.Key) -> Int? {
        guard slot >= 0, slot < kept.count, kept[slot].frame == frame - 1, kept[slot].key == key else { return nil }
        let last = kept[slot]
        let base = rows.count / 4, firstEdge = edgeCount, firstEntry = entries.count
        guard grow(&edges, to: edges.count + last.edges.count * 4), grow(&entries, to: entries.count + last.entries.count),
              grow(&rows, to: rows.count + last.slots.count * 4) else { return base }
        let edgeShift = Int32(firstEdge - last.edges.lowerBound), entryShift = Int32(firstEntry - last.entries.lowerBound)
        // While loops: in a debug build a for-in loop allocates.
        var k = last.edges.lowerBound * 4
        while k < last.edges.upperBound * 4 { edges.append(lastEdges[k]); k += 1 }
        k = last.entries.lowerBound
        while k < last.entries.upperBound { entries.append(lastEntries[k] &+ edgeShift); k += 1 }
        k = last.slots.lowerBound * 4
        while k < last.slots.upperBound * 4 {
            rows.append(lastRows[k] &+ entryShift); rows.append(lastRows[k + 1]); rows.append(lastRows[k + 2]); rows.append(lastRows[k + 3])
            k += 4
        }
        kept[slot] = Kept(key: key, frame: frame, edges: firstEdge..<edgeCount, entries: firstEntry..<entries.count,
                          slots: base..<rows.count / 4)
        keptThisFrame += 1
        return base
    }

    /// The item `finish` just ended kept in `slot` for the next frame, as `key`'s rows.
    func keep(slot: Int, key: KeptCoverage.Key) {
        guard slot >= 0, slot < kept.count, failure == nil else { return }
        kept[slot] = finished
        kept[slot].key = key
        kept[slot].frame = frame
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

    /// Pixels a bucket: a row of an item is cut into runs this wide, so a pixel visits only the edges near it.
    static let bucketWidth = 16

    /// Buckets a row of `columns` holds.
    static func buckets(_ columns: Range<Int>) -> Int { Swift.max(1, (columns.count + bucketWidth - 1) / bucketWidth) }

    /// Ends the item's outline: for each of `rowRange` and each run of
    /// `bucketWidth` of `columns`, the edges that cross the row inside the
    /// run, and the winding times height of those wholly left of it (which
    /// cover every pixel of the run: the same sum as before, cut short).
    /// Returns the item's first slot; slot (row r, bucket b) is
    /// first + r * buckets + b, four values: first entry, entries, the
    /// left cover's float bits, 0.
    func finish(rows rowRange: Range<Int>, columns: Range<Int>) -> Int {
        close()
        let base = rows.count / 4
        let first = rowRange.lowerBound, count = rowRange.count
        let buckets = Self.buckets(columns), slots = count * buckets, left = Double(columns.lowerBound)
        // While loops: in a debug build a for-in loop allocates.
        // The tables grow only where a frame needs more than any before: asked of the system first, so a
        // frame too large for the memory left is `failure` (the renderer's draw throws it), not a trap.
        guard grow(&rows, to: rows.count + slots * 4), grow(&rowCursor, to: slots), grow(&leftCover, to: slots + buckets) else { return base }
        var k = 0
        while k < slots { rows.append(0); rows.append(0); rows.append(0); rows.append(0); k += 1 }
        while rowCursor.count < slots { rowCursor.append(0) }
        while leftCover.count < slots + buckets { leftCover.append(0) }
        // Count the entries first (to size `entries`), then place them: both through pointers,
        // so the loops pay no exclusivity checks on this object's arrays.
        let firstEdge = itemFirstEdge, lastEdge = edgeCount
        var total = Int32(entries.count)
        edges.withUnsafeBufferPointer { edge in
            rows.withUnsafeMutableBufferPointer { table in
                leftCover.withUnsafeMutableBufferPointer { cover in
                    rowCursor.withUnsafeMutableBufferPointer { cursor in
                        var k = 0
                        while k < slots { cover[k] = 0; k += 1 }
                        var e = firstEdge
                        while e < lastEdge {
                            Self.parts(of: e, edge, first: first, count: count, left: left, buckets: buckets) { r, lo, hi, amount in
                                var b = lo
                                while b <= hi { table[(base + r * buckets + b) * 4 + 1] += 1; b += 1 }
                                if hi + 1 < buckets { cover[r * buckets + hi + 1] += amount }
                            }
                            e += 1
                        }
                        k = 0
                        while k < slots {
                            let slot = (base + k) * 4
                            // Running sum of the covers along the row: edges wholly left of each run.
                            if k % buckets != 0 { cover[k] += cover[k - 1] }
                            table[slot] = total
                            table[slot + 2] = Int32(bitPattern: Float(cover[k]).bitPattern)
                            cursor[k] = total
                            total += table[slot + 1]
                            k += 1
                        }
                    }
                }
            }
        }
        guard grow(&entries, to: Int(total)) else { return base }
        let firstEntry = entries.count
        while entries.count < Int(total) { entries.append(0) }
        edges.withUnsafeBufferPointer { edge in
            entries.withUnsafeMutableBufferPointer { entry in
                rowCursor.withUnsafeMutableBufferPointer { cursor in
                    var e = firstEdge
                    while e < lastEdge {
                        Self.parts(of: e, edge, first: first, count: count, left: left, buckets: buckets) { r, lo, hi, _ in
                            var b = lo
                            while b <= hi {
                                entry[Int(cursor[r * buckets + b])] = Int32(e)
                                cursor[r * buckets + b] += 1
                                b += 1
                            }
                        }
                        e += 1
                    }
                }
            }
        }
        finished.edges = firstEdge..<lastEdge
        finished.entries = firstEntry..<entries.count
        finished.slots = base..<base + slots
        return base
    }

    /// Left covers of the current item's slots (kept from frame to frame).
    private var leftCover: [Double] = []

    /// For each item row (0-based from `first`) edge e crosses: the runs
    /// its part in the row spans, [lo, hi] (clamped; hi < lo: none, it lies
    /// wholly left), and that part's winding times height (what it adds to
    /// every pixel right of it).
    @inline(__always)
    private static func parts(of e: Int, _ edges: UnsafeBufferPointer<Float>, first: Int, count: Int, left: Double, buckets: Int,
                              _ body: (Int, Int, Int, Double) -> Void) {
        let x0 = Double(edges[e * 4]), y0 = Double(edges[e * 4 + 1]), x1 = Double(edges[e * 4 + 2]), y1 = Double(edges[e * 4 + 3])
        let (ax, ay, bx, by, winding) = y0 < y1 ? (x0, y0, x1, y1, 1.0) : (x1, y1, x0, y0, -1.0)
        let lo = Swift.max(0, Int(ay.rounded(.down)) - first)
        let hi = Swift.min(count, Int(by.rounded(.up)) - first)
        let slope = (bx - ax) / (by - ay)
        let width = Double(bucketWidth), lastBucket = Double(buckets - 1)
        var r = lo
        while r < hi {
            let top = Swift.max(ay, Double(first + r)), bottom = Swift.min(by, Double(first + r + 1))
            if bottom > top {
                let xa = ax + slope * (top - ay), xb = ax + slope * (bottom - ay)
                // A pixel left of the part's leftmost point gets nothing of it; from its rightmost on, all.
                let minX = Swift.min(xa, xb) - left, lastPartial = Swift.max(xa, xb).rounded(.up) - 1 - left
                if lastPartial < 0 {
                    body(r, 0, -1, winding * (bottom - top))
                } else {
                    let bLo = Int(Swift.max(0, Swift.min(lastBucket, (minX / width).rounded(.down))))
                    let bHi = Int(Swift.min(lastBucket, (lastPartial / width).rounded(.down)))
                    body(r, bLo, Swift.max(bLo, bHi), winding * (bottom - top))
                }
            }
            r += 1
        }
    }
}
