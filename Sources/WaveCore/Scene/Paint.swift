/// Paint: what colour a covered pixel gets. Evaluated per pixel at its
/// centre, in screen space, so a paint never moves with the content: the
/// played/unplayed split stays at its column while bars slide under it.

/// One colour source.
public enum Fill: Equatable, Hashable, Sendable {
    case solid(RGBA8)
    case linearGradient(LinearGradient)

    /// The colour at pixel (x, y)'s centre.
    @inline(__always)
    public func color(x: Int, y: Int) -> ColorValue {
        switch self {
        case let .solid(c): ColorValue(c)
        case let .linearGradient(g): g.color(atX: Double(x) + 0.5, y: Double(y) + 0.5)
        }
    }
}

/// Colours from `startColor` at `start` to `endColor` at `end`, varying along
/// the line between the two points and clamped beyond them. With start (0, 0)
/// and end (0, H): colour(y) = top + (bottom - top) * (y + 0.5) / H.
public struct LinearGradient: Equatable, Hashable, Sendable {
    public var start: Point
    public var end: Point
    public var startColor: RGBA8
    public var endColor: RGBA8

    public init(start: Point, end: Point, startColor: RGBA8, endColor: RGBA8) {
        self.start = start; self.end = end; self.startColor = startColor; self.endColor = endColor
    }

    /// Where (x, y) falls between the stops, 0...1 (0 when the stops coincide).
    @inline(__always)
    public func position(atX x: Double, y: Double) -> Double {
        let dx = end.x - start.x, dy = end.y - start.y
        let length2 = dx * dx + dy * dy
        guard length2 > 0 else { return 0 }
        let t = ((x - start.x) * dx + (y - start.y) * dy) / length2
        return Swift.min(1, Swift.max(0, t))
    }

    @inline(__always)
    public func color(atX x: Double, y: Double) -> ColorValue {
        ColorValue(startColor).mixed(with: ColorValue(endColor), position(atX: x, y: y))
    }
}

/// A screen column that divides two paints; it may move at a constant speed
/// (a playhead crossing still bars).
public struct PaintSplit: Equatable, Hashable, Sendable {
    /// The dividing column at t = 0, in pixels from the left.
    public var column: Double
    public var pixelsPerSecond: Double

    public init(column: Double, pixelsPerSecond: Double = 0) {
        self.column = column
        self.pixelsPerSecond = pixelsPerSecond
    }

    /// The first column painted by the right-hand fill at time t:
    /// round(column + speed * t), held within 0...width.
    @inline(__always)
    public func column(at t: Double, width: Int) -> Int {
        let x = (column + pixelsPerSecond * (t.isFinite ? t : 0)).rounded()
        guard x.isFinite else { return x > 0 ? width : 0 }
        return Int(Swift.min(Double(width), Swift.max(0, x)))
    }
}

/// A layer's paint: one fill everywhere, or two either side of a split
/// (columns left of the split use `left`, the split's column and everything
/// right of it use `right`).
public enum Paint: Equatable, Hashable, Sendable {
    case fill(Fill)
    case split(PaintSplit, left: Fill, right: Fill)

    public static func solid(_ color: RGBA8) -> Paint { .fill(.solid(color)) }

    /// Every number in the paint is finite.
    var isFinite: Bool {
        func finite(_ f: Fill) -> Bool {
            if case let .linearGradient(g) = f {
                return [g.start.x, g.start.y, g.end.x, g.end.y].allSatisfy(\.isFinite)
            }
            return true
        }
        switch self {
        case let .fill(f): return finite(f)
        case let .split(s, l, r): return s.column.isFinite && s.pixelsPerSecond.isFinite && finite(l) && finite(r)
        }
    }
}
