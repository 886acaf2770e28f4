/// Paths: closed outlines of straight lines and quadratic Bézier curves (a
/// cubic is built as quadratic pieces), in
/// pixel coordinates (x right, y down). Only `PathBuilder` makes them, and it
/// refuses non-finite numbers, so every `Path` is safe to rasterise.

import Glibc

/// A point in pixel coordinates.
public struct Point: Equatable, Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// The point at t (0...1) of the cubic Bézier curve from p0 through controls c1 and c2 to p3.
    @inline(__always)
    package static func onCubic(_ p0: Point, _ c1: Point, _ c2: Point, _ p3: Point, at t: Double) -> Point {
        let u = 1 - t
        return Point(u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p3.x,
                     u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p3.y)
    }
}

/// An outline made of sub-paths. Each sub-path starts with a move and is
/// closed back to its start (filling always closes it).
public struct Path: Equatable, Hashable, Sendable {
    public enum Element: Equatable, Hashable, Sendable {
        case move(Point)
        case line(Point)
        /// A quadratic Bézier curve through `control` to `end`.
        case quad(control: Point, end: Point)
    }

    /// One sub-path's elements and horizontal extent, for culling what lies
    /// outside the visible columns.
    public struct Subpath: Equatable, Hashable, Sendable {
        public let elements: Range<Int>
        public let minX: Double
        public let maxX: Double
        /// Straight segments only, each point no further left than the one
        /// before (a band under a curve): the points outside some columns are
        /// then two runs found by binary search.
        public let runsLeftToRight: Bool
        /// Where it runs left to right, its points in `runPoints` (empty otherwise).
        public let points: Range<Int>
    }

    public private(set) var elements: [Element] = []
    public private(set) var subpaths: [Subpath] = []
    /// The points of the sub-paths that run left to right, packed (16 bytes a
    /// point, where an element takes 40): what a frame reads to fold them.
    public private(set) var runPoints: [Point] = []
    /// Every sub-path starts and ends no further left than the one before
    /// (a row of bars): `PrimitiveOutlines.addPath` then finds the visible ones by binary search.
    public private(set) var subpathsAreSortedByX = true
    /// The smallest box holding every point (control points included); nil when empty.
    public private(set) var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)?

    fileprivate init() {}

    public var isEmpty: Bool { elements.isEmpty }

    /// The largest distance from the origin, in pixels, a path's points may lie.
    public static let maxExtent = Double(1 << 22)

    /// Why the backends cannot draw this path (a point beyond `maxExtent`), or nil.
    public var extentProblem: String? {
        guard let b = bounds else { return nil }
        guard [b.minX, b.maxX, b.minY, b.maxY].allSatisfy({ abs($0) <= Self.maxExtent }) else {
            return "an outline reaching beyond \(Int(Self.maxExtent)) pixels from the origin"
        }
        return nil
    }

    /// Whether it is one rectangle with sides along the axes and some area: one sub-path of straight segments
    /// round its bounds' four corners in turn (a last point back on the first allowed). Its bounds are then the
    /// rectangle, which a rasteriser may fill as one (`CoverageRasterizer.fill(rows:into:rectangle:)`).
    public var isAxisAlignedRectangle: Bool {
        guard subpaths.count == 1, elements.count == 4 || elements.count == 5, let b = bounds, b.minX < b.maxX, b.minY < b.maxY else {
            return false
        }
        var corners = (Point(0, 0), Point(0, 0), Point(0, 0), Point(0, 0))
        for i in 0..<elements.count {
            let p: Point
            switch elements[i] {
            case let .move(q) where i == 0: p = q
            case let .line(q) where i > 0: p = q
            default: return false
            }
            guard p.x == b.minX || p.x == b.maxX, p.y == b.minY || p.y == b.maxY else { return false }
            switch i {
            case 0: corners.0 = p
            case 1: corners.1 = p
            case 2: corners.2 = p
            case 3: corners.3 = p
            default: return p == corners.0 // a fifth point closes it on the first
            }
        }
        // Each side along one axis (the next corner differs in one coordinate), and no corner twice.
        func side(_ p: Point, _ q: Point) -> Bool { (p.x == q.x) != (p.y == q.y) }
        return side(corners.0, corners.1) && side(corners.1, corners.2) && side(corners.2, corners.3) && side(corners.3, corners.0)
            && corners.0 != corners.2 && corners.1 != corners.3
    }

    public static func == (a: Path, b: Path) -> Bool { a.elements == b.elements }
    public func hash(into hasher: inout Hasher) { hasher.combine(elements) }

    fileprivate mutating func append(_ element: Element, points: [Point]) {
        if case .move = element {
            subpaths.append(Subpath(elements: elements.count..<elements.count, minX: .infinity, maxX: -.infinity, runsLeftToRight: true,
                                    points: runPoints.count..<runPoints.count))
        }
        var leftToRight = subpaths[subpaths.count - 1].runsLeftToRight
        var runs = subpaths[subpaths.count - 1].points
        switch element {
        case let .line(p): if case let .line(q)? = elements.last, q.x > p.x { leftToRight = false }
                           else if case let .move(q)? = elements.last, q.x > p.x { leftToRight = false }
        case .quad: leftToRight = false
        case .move: break
        }
        if leftToRight, case let .move(p) = element {
            runPoints.append(p)
        } else if leftToRight, case let .line(p) = element {
            runPoints.append(p)
        } else if !runs.isEmpty {
            // No longer left to right: its points go.
            runPoints.removeLast(runs.count)
        }
        runs = leftToRight ? runs.lowerBound..<runPoints.count : runs.lowerBound..<runs.lowerBound
        elements.append(element)
        var last = subpaths.removeLast()
        var minX = last.minX, maxX = last.maxX
        for p in points {
            minX = Swift.min(minX, p.x)
            maxX = Swift.max(maxX, p.x)
            if let b = bounds {
                bounds = (Swift.min(b.minX, p.x), Swift.min(b.minY, p.y), Swift.max(b.maxX, p.x), Swift.max(b.maxY, p.y))
            } else {
                bounds = (p.x, p.y, p.x, p.y)
            }
        }
        last = Subpath(elements: last.elements.lowerBound..<elements.count, minX: minX, maxX: maxX, runsLeftToRight: leftToRight,
                       points: runs)
        if let previous = subpaths.last, previous.minX > minX || previous.maxX > maxX { subpathsAreSortedByX = false }
        subpaths.append(last)
    }
}

/// A path with a coordinate that is not a finite number: refused, never
/// rasterised (a NaN would otherwise reach the rasteriser's integer grid).
public struct PathError: Error, Equatable, CustomStringConvertible {
    /// The element's index in the path (0 for the first move).
    public let element: Int
    public let point: Point

    public var description: String {
        "path element \(element) has a coordinate that is not a finite number (\(point.x), \(point.y)): expected finite numbers"
    }
}

/// Builds a `Path`, checking every coordinate. As in SVG, a line or curve
/// after `close()` starts a new sub-path at the closed one's start (the
/// current point), and one with no point yet starts at the origin.
public struct PathBuilder {
    private var built = Path()
    private var started = false
    /// Where the pen is: the last point, or after `close()` the sub-path's start.
    private var current = Point(0, 0)
    private var subpathStart = Point(0, 0)

    public init() {}

    public mutating func move(to x: Double, _ y: Double) throws {
        let p = try checked(x, y)
        built.append(.move(p), points: [p])
        started = true
        current = p
        subpathStart = p
    }

    public mutating func line(to x: Double, _ y: Double) throws {
        let p = try checked(x, y)
        if !started { try move(to: current.x, current.y) }
        built.append(.line(p), points: [p])
        current = p
    }

    public mutating func quad(control cx: Double, _ cy: Double, to x: Double, _ y: Double) throws {
        let c = try checked(cx, cy), p = try checked(x, y)
        if !started { try move(to: current.x, current.y) }
        built.append(.quad(control: c, end: p), points: [c, p])
        current = p
    }

    /// Largest distance from a cubic its quadratic pieces may stray, in path units; and the most pieces one cubic becomes.
    public static let cubicTolerance = 1.0 / 16, maxCubicPieces = 256

    /// The cubic Bézier curve from the pen through controls (c1x, c1y) and
    /// (c2x, c2y) to (x, y), as quadratic pieces split evenly in t, as many
    /// as keep each within `cubicTolerance` of the cubic (at most
    /// `maxCubicPieces`): piece [t0, t1]'s control is the mean of its cubic
    /// controls extended, (3 (q1 + q2) - a - b) / 4, which strays from the
    /// cubic by at most sqrt(3) / 36 |p3 - 3 c2 + 3 c1 - p0| / n^3 for n pieces.
    public mutating func cubic(control c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double, to x: Double, _ y: Double) throws {
        let c1 = try checked(c1x, c1y), c2 = try checked(c2x, c2y), p3 = try checked(x, y)
        if !started { try move(to: current.x, current.y) }
        let p0 = current
        let dx = p3.x - 3 * c2.x + 3 * c1.x - p0.x, dy = p3.y - 3 * c2.y + 3 * c1.y - p0.y
        let error = (dx * dx + dy * dy).squareRoot() * 3.0.squareRoot() / 36
        let wanted = cbrt(error / Self.cubicTolerance)
        // Held to the limit before it becomes an Int: a far control point makes `wanted` larger than any Int.
        let pieces = wanted.isFinite ? Swift.max(1, Int(Swift.min(Double(Self.maxCubicPieces), wanted.rounded(.up)))) : Self.maxCubicPieces
        func at(_ t: Double) -> (point: Point, tangent: Point) {
            let u = 1 - t
            let tx = 3 * (u * u * (c1.x - p0.x) + 2 * u * t * (c2.x - c1.x) + t * t * (p3.x - c2.x))
            let ty = 3 * (u * u * (c1.y - p0.y) + 2 * u * t * (c2.y - c1.y) + t * t * (p3.y - c2.y))
            return (Point.onCubic(p0, c1, c2, p3, at: t), Point(tx, ty))
        }
        var a = at(0)
        for i in 1...pieces {
            let h = 1 / Double(pieces)
            var b = at(Double(i) * h)
            if i == pieces { b.point = p3 }
            let q1 = Point(a.point.x + a.tangent.x * h / 3, a.point.y + a.tangent.y * h / 3)
            let q2 = Point(b.point.x - b.tangent.x * h / 3, b.point.y - b.tangent.y * h / 3)
            let control = Point((3 * (q1.x + q2.x) - a.point.x - b.point.x) / 4, (3 * (q1.y + q2.y) - a.point.y - b.point.y) / 4)
            try quad(control: control.x, control.y, to: b.point.x, b.point.y)
            a = b
        }
    }

    /// Ends the current sub-path (it is closed back to its start when
    /// filled); the pen goes back to that start.
    public mutating func close() {
        started = false
        current = subpathStart
    }

    public mutating func rectangle(x: Double, y: Double, width: Double, height: Double) throws {
        try move(to: x, y)
        try line(to: x + width, y)
        try line(to: x + width, y + height)
        try line(to: x, y + height)
        close()
    }

    public var path: Path { built }

    private func checked(_ x: Double, _ y: Double) throws -> Point {
        guard x.isFinite, y.isFinite else { throw PathError(element: built.elements.count, point: Point(x, y)) }
        return Point(x, y)
    }
}
