/// Strokes, dashes and trims on polylines: a line of a width drawn along a
/// path becomes an outline filled by the non-zero rule (a strip along each
/// run of gently turning segments, a wedge at every sharper join, a piece
/// per cap, every piece turning the same way, so where they overlap the
/// winding only grows); dashes and trims cut polylines by arc length.
/// Curves are flattened first (`Polyline.append`).

import Glibc

/// Points joined by straight segments, open or closed back to the first.
public struct Polyline: Equatable, Sendable {
    public var points: [Point]
    public var isClosed: Bool

    public init(_ points: [Point] = [], closed: Bool = false) {
        self.points = points
        isClosed = closed
    }

    /// Its length, the closing segment included when closed.
    public var length: Double {
        guard points.count > 1 else { return 0 }
        var total = 0.0
        for i in 1..<points.count { total += distance(points[i - 1], points[i]) }
        if isClosed { total += distance(points[points.count - 1], points[0]) }
        return total
    }

    /// Appends the cubic Bézier curve from the last point through `c1` and
    /// `c2` to `end`, flattened to segments within `tolerance` of the curve
    /// (Wang's bound: n = sqrt(3 max|second difference| / (4 tolerance)), at most 1,000).
    public mutating func appendCubic(_ c1: Point, _ c2: Point, _ end: Point, tolerance: Double) {
        guard let p0 = points.last else { points.append(end); return }
        let ax = p0.x - 2 * c1.x + c2.x, ay = p0.y - 2 * c1.y + c2.y
        let bx = c1.x - 2 * c2.x + end.x, by = c1.y - 2 * c2.y + end.y
        let m = Swift.max((ax * ax + ay * ay).squareRoot(), (bx * bx + by * by).squareRoot())
        let wanted = (0.75 * m / Swift.max(tolerance, 1e-9)).squareRoot().rounded(.up)
        let n = Int(holding: wanted, to: 1...1000)
        if n > 1 {
            for i in 1..<n {
                points.append(Point.onCubic(p0, c1, c2, end, at: Double(i) / Double(n)))
            }
        }
        points.append(end)
    }

    /// Appends its outline to `builder` as a sub-path (closed when filled, as every sub-path is).
    public func fill(into builder: inout PathBuilder) throws {
        guard let first = points.first else { return }
        try builder.move(to: first.x, first.y)
        for p in points.dropFirst() { try builder.line(to: p.x, p.y) }
        builder.close()
    }
}

/// The straight-line distance between two points.
@inline(__always)
package func distance(_ a: Point, _ b: Point) -> Double { ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() }

/// How an open line's ends are drawn.
public enum LineCap: String, CaseIterable, Sendable { case butt, round, square }
/// How two segments meet.
public enum LineJoin: String, CaseIterable, Sendable { case miter, round, bevel }

/// A stroke's look: width, caps, joins, the miter limit (the longest miter,
/// in half-widths, before a miter join is drawn as a bevel), and dashes.
public struct StrokeStyle: Equatable, Sendable {
    public var width: Double
    public var cap: LineCap
    public var join: LineJoin
    public var miterLimit: Double
    /// Lengths of dash, gap, dash, gap... (empty: solid); an odd count repeats once more, as SVG's.
    public var dashes: [Double]
    /// How far into the pattern the line starts.
    public var dashOffset: Double

    public init(width: Double, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 4,
                dashes: [Double] = [], dashOffset: Double = 0) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.dashes = dashes; self.dashOffset = dashOffset
    }
}

public enum Stroker {
    /// The most dashes one stroke is cut into (a pattern far shorter than the line draws it solid beyond this).
    public static let maxDashes = 20_000
    /// The most path elements one stroke's outline may have.
    public static let maxElements = 2_000_000

    /// A stroke whose outline would pass `maxElements`.
    public struct TooLarge: Error, CustomStringConvertible {
        public var description: String { "a stroke whose outline passes \(Stroker.maxElements) points" }
    }

    /// The parts of `lines` that fall in the pattern's dashes.
    public static func dashed(_ lines: [Polyline], pattern raw: [Double], offset: Double) -> [Polyline] {
        let pattern = raw.count % 2 == 1 ? raw + raw : raw
        let period = pattern.reduce(0, +)
        guard !pattern.isEmpty, period > 0, period.isFinite, pattern.allSatisfy({ $0 >= 0 && $0.isFinite }), offset.isFinite else {
            return lines
        }
        var out: [Polyline] = []
        for line in lines {
            guard line.points.count > 1 else { continue }
            if line.length / period * Double(pattern.count) > Double(maxDashes) { out.append(line); continue }
            // Where in the pattern the line starts.
            var phase = offset.truncatingRemainder(dividingBy: period)
            if phase < 0 { phase += period }
            var index = 0
            while phase >= pattern[index] { phase -= pattern[index]; index = (index + 1) % pattern.count }
            var left = pattern[index] - phase
            var on = index % 2 == 0
            var current = Polyline(on ? [line.points[0]] : [])
            let points = line.isClosed ? line.points + [line.points[0]] : line.points
            for i in 1..<points.count {
                var a = points[i - 1]
                let b = points[i]
                var segment = distance(a, b)
                while segment > left {
                    let t = left / segment
                    let cut = Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
                    if on {
                        current.points.append(cut)
                        out.append(current)
                        current = Polyline()
                    } else {
                        current = Polyline([cut])
                    }
                    segment -= left
                    a = cut
                    index = (index + 1) % pattern.count
                    left = pattern[index]
                    on.toggle()
                }
                left -= segment
                if on { current.points.append(b) }
            }
            if on && current.points.count > 1 { out.append(current) }
        }
        return out
    }

    /// The part of `lines` from `start` to `end`, fractions 0...1 of their
    /// total length taken one after another (a trim of several shapes at
    /// once); `end` below `start` gives the two ends, wrapping round.
    public static func trimmed(_ lines: [Polyline], from start: Double, to end: Double) -> [Polyline] {
        guard start.isFinite, end.isFinite else { return [] }
        let total = lines.reduce(0) { $0 + $1.length }
        guard total > 0 else { return [] }
        if end < start { return trimmed(lines, from: start, to: 1) + trimmed(lines, from: 0, to: end) }
        let from = Swift.max(0, start) * total, to = Swift.min(1, end) * total
        guard to > from else { return [] }
        if from <= 0 && to >= total { return lines }
        var out: [Polyline] = []
        var travelled = 0.0
        for line in lines {
            let length = line.length
            defer { travelled += length }
            guard travelled + length > from, travelled < to, line.points.count > 1 else { continue }
            let points = line.isClosed ? line.points + [line.points[0]] : line.points
            var piece = Polyline()
            var at = travelled
            for i in 1..<points.count {
                let a = points[i - 1], b = points[i], d = distance(a, b)
                defer { at += d }
                let lo = Swift.max(from, at), hi = Swift.min(to, at + d)
                guard d > 0, hi > lo else { continue }
                func point(_ s: Double) -> Point { let t = (s - at) / d; return Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }
                if piece.points.isEmpty { piece.points.append(point(lo)) }
                piece.points.append(point(hi))
            }
            if piece.points.count > 1 { out.append(piece) }
        }
        return out
    }

    /// The outline of `lines` stroked by `style`, appended to `builder` as
    /// sub-paths to fill non-zero. Round joins and caps are flattened within `tolerance`.
    public static func outline(_ lines: [Polyline], _ style: StrokeStyle, tolerance: Double, into builder: inout PathBuilder) throws {
        guard style.width > 0, style.width.isFinite else { return }
        let r = style.width / 2
        let dashedLines = style.dashes.isEmpty ? lines : dashed(lines, pattern: style.dashes, offset: style.dashOffset)
        let arcStep = 2 * acos(Swift.max(-1, Swift.min(1, 1 - Swift.max(tolerance, 1e-6) / r)))
        var piece: [Point] = []
        let start = builder.path.elements.count
        func emit() throws {
            defer { piece.removeAll(keepingCapacity: true) }
            guard piece.count > 2 else { return }
            guard builder.path.elements.count - start + piece.count <= maxElements else { throw TooLarge() }
            var area = 0.0
            for i in 0..<piece.count {
                let a = piece[i], b = piece[(i + 1) % piece.count]
                area += a.x * b.y - b.x * a.y
            }
            if area < 0 { piece.reverse() }
            try Polyline(piece, closed: true).fill(into: &builder)
        }
        /// Points along the arc about `c` of radius r from angle a0 turning by `sweep`.
        func arc(_ c: Point, from a0: Double, sweep: Double, into points: inout [Point]) {
            let n = Int(holding: (abs(sweep) / Swift.max(arcStep, 1e-3)).rounded(.up), to: 1...4096)
            for i in 0...Swift.min(n, 4096) {
                let a = a0 + sweep * Double(i) / Double(n)
                points.append(Point(c.x + r * cos(a), c.y + r * sin(a)))
            }
        }
        func arc(_ c: Point, from a0: Double, sweep: Double) { arc(c, from: a0, sweep: sweep, into: &piece) }
        /// The outer side of the join at `p` from the segment along `u1` to the one along `u2` (unit
        /// vectors), on the side `side` (1: left normals, -1: right): from the first segment's offset
        /// end to the second's offset start, by the style's join.
        func outerJoin(_ p: Point, _ u1: Point, _ u2: Point, side: Double, dot: Double, into points: inout [Point]) {
            let n1 = Point(-u1.y * side, u1.x * side), n2 = Point(-u2.y * side, u2.x * side)
            let o1 = Point(p.x + n1.x * r, p.y + n1.y * r), o2 = Point(p.x + n2.x * r, p.y + n2.y * r)
            switch style.join {
            case .bevel:
                points.append(o1); points.append(o2)
            case .miter:
                // The miter's length over the half width is 1 / sin(theta / 2), theta the angle between the segments.
                let sinHalf = ((1 + dot) / 2).squareRoot()
                points.append(o1)
                if sinHalf > 1e-9 && 1 / sinHalf <= style.miterLimit {
                    let bx = n1.x + n2.x, by = n1.y + n2.y, bl = (bx * bx + by * by).squareRoot()
                    points.append(Point(p.x + bx / bl * r / sinHalf, p.y + by / bl * r / sinHalf))
                }
                points.append(o2)
            case .round:
                let a1 = atan2(n1.y, n1.x)
                var sweep = atan2(n2.y, n2.x) - a1
                while sweep > Double.pi { sweep -= 2 * Double.pi }
                while sweep < -Double.pi { sweep += 2 * Double.pi }
                arc(p, from: a1, sweep: sweep, into: &points)
            }
        }
        for line in dashedLines {
            var pts: [Point] = []
            pts.reserveCapacity(line.points.count)
            for p in line.points where pts.last.map({ distance($0, p) > 1e-9 }) ?? true { pts.append(p) }
            var closed = line.isClosed
            if closed, pts.count > 1, distance(pts[0], pts[pts.count - 1]) <= 1e-9 { pts.removeLast() }
            if pts.count < 2 { closed = false }
            if pts.count == 1 {
                // A zero-length line: its caps alone (a dot for round, a square for square).
                let p = pts[0]
                switch style.cap {
                case .butt: break
                case .round: arc(p, from: 0, sweep: 2 * Double.pi); try emit()
                case .square:
                    piece = [Point(p.x - r, p.y - r), Point(p.x + r, p.y - r), Point(p.x + r, p.y + r), Point(p.x - r, p.y + r)]
                    try emit()
                }
                continue
            }
            guard pts.count > 1 else { continue }
            let segments = closed ? pts.count : pts.count - 1
            let count = pts.count
            // A gentle join (turning less than a right angle, its inner side's offset lines meeting within
            // half of each segment) joins its segments into one strip: the left offsets forward, the right
            // ones back, each join's outer side by its style and its inner side the offset lines' meeting
            // point. That is the region the pieces' union covers, in about half the edges and with no piece
            // over another. Other joins end their strips (a segment's rectangle is a strip of one) and add
            // their wedge. A closed line is cut at a join of its own, so every strip is one polygon.
            // Segment i runs from pts[i] to pts[i + 1]; join j, at pts[j], turns from segment j - 1 to segment j.
            var lengths: [Double] = [], directions: [Point] = []
            for i in 0..<segments {
                let a = pts[i], b = pts[(i + 1) % count], d = distance(a, b)
                lengths.append(d)
                directions.append(Point((b.x - a.x) / d, (b.y - a.y) / d))
            }
            func turn(at j: Int) -> (u1: Point, u2: Point, cross: Double, dot: Double) {
                let u1 = directions[(j - 1 + count) % count], u2 = directions[j % count]
                return (u1, u2, u1.x * u2.y - u1.y * u2.x, u1.x * u2.x + u1.y * u2.y)
            }
            /// The point r from `p` on the left of direction `u` (side 1) or on its right (-1).
            func offset(_ p: Point, _ u: Point, _ side: Double) -> Point { Point(p.x - u.y * r * side, p.y + u.x * r * side) }
            var gentle = [Bool](repeating: false, count: count)
            for j in (closed ? 0 : 1)..<(closed ? count : count - 1) {
                let (_, _, cross, dot) = turn(at: j)
                // r tan(theta / 2): how far along each segment the inner offset lines meet.
                let inset = dot > 0 ? r * abs(cross) / (1 + dot) : .infinity
                gentle[j] = inset <= 0.5 * Swift.min(lengths[(j - 1 + count) % count], lengths[j % count])
            }
            if closed && !gentle.contains(false) { gentle[0] = false }
            var left: [Point] = [], right: [Point] = []
            /// The strip along segments first ..< first + length (indices modulo the count).
            func strip(from first: Int, length: Int) throws {
                left.removeAll(keepingCapacity: true)
                right.removeAll(keepingCapacity: true)
                for k in 0..<length {
                    let i = (first + k) % count
                    let a = pts[i], b = pts[(i + 1) % count], u = directions[i]
                    if k == 0 {
                        left.append(offset(a, u, 1))
                        right.append(offset(a, u, -1))
                    }
                    if k == length - 1 {
                        left.append(offset(b, u, 1))
                        right.append(offset(b, u, -1))
                        continue
                    }
                    // The join at b, to the next segment (a straight one makes no join).
                    let (_, u2, cross, dot) = turn(at: (i + 1) % count)
                    if abs(cross) < 1e-12 {
                        left.append(offset(b, u, 1))
                        right.append(offset(b, u, -1))
                        continue
                    }
                    // The inner offset lines meet at b - (n1 + n2) / (1 + dot) r, n the normals on the outer side.
                    let side: Double = cross < 0 ? 1 : -1
                    let sx = (-u.y - u2.y) * side, sy = (u.x + u2.x) * side
                    let inner = Point(b.x - sx * r / (1 + dot), b.y - sy * r / (1 + dot))
                    if side > 0 {
                        outerJoin(b, u, u2, side: side, dot: dot, into: &left)
                        right.append(inner)
                    } else {
                        left.append(inner)
                        outerJoin(b, u, u2, side: side, dot: dot, into: &right)
                    }
                }
                piece = left
                piece.append(contentsOf: right.reversed())
                try emit()
            }
            // From a join that is not gentle (a closed line's cut; an open line's start), strip by strip.
            let start = closed ? (gentle.firstIndex(of: false) ?? 0) : 0
            var runStart = start, length = 0
            for k in 0..<segments {
                let i = (start + k) % count
                length += 1
                if k == segments - 1 || !gentle[(i + 1) % count] {
                    try strip(from: runStart, length: length)
                    runStart = (i + 1) % count
                    length = 0
                }
            }
            // Each join that is not gentle: the wedge on the outer side of the turn.
            for j in (closed ? 0 : 1)..<(closed ? count : count - 1) where !gentle[j] {
                let (u1, u2, cross, dot) = turn(at: j)
                if abs(cross) < 1e-12 && dot > 0 { continue }
                // The outer side: left normals when turning right (cross < 0 in y-down screen terms), right otherwise.
                piece = [pts[j]]
                outerJoin(pts[j], u1, u2, side: cross < 0 ? 1 : -1, dot: dot, into: &piece)
                try emit()
            }
            guard !closed else { continue }
            // The caps at both ends.
            for (end, inner) in [(pts[0], pts[1]), (pts[pts.count - 1], pts[pts.count - 2])] {
                let d = distance(inner, end), ux = (end.x - inner.x) / d, uy = (end.y - inner.y) / d
                switch style.cap {
                case .butt: continue
                case .square:
                    let nx = -uy * r, ny = ux * r
                    piece = [Point(end.x + nx, end.y + ny), Point(end.x + nx + ux * r, end.y + ny + uy * r),
                             Point(end.x - nx + ux * r, end.y - ny + uy * r), Point(end.x - nx, end.y - ny)]
                case .round:
                    arc(end, from: atan2(ux, -uy), sweep: -Double.pi)
                }
                try emit()
            }
        }
    }
}

extension Int {
    /// `value` rounded down and held to `range` (a number that is not one:
    /// the range's lower bound): a count or an index from untrusted numbers,
    /// never a trap on a value past Int's range.
    package init(holding value: Double, to range: ClosedRange<Int>) {
        let v = value.rounded(.down)
        if !(v > Double(range.lowerBound)) { self = range.lowerBound } else if v >= Double(range.upperBound) { self = range.upperBound } else { self = Int(v) }
    }
}
