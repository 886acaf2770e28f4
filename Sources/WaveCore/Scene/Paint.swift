/// Paint: what colour a covered pixel gets, evaluated per pixel at its centre.

/// One colour source.
public enum Fill: Equatable, Hashable, Sendable {
    case solid(RGBA8)
    case linearGradient(LinearGradient)

    /// Every number in the fill is finite.
    var isFinite: Bool {
        if case let .linearGradient(g) = self { return [g.start.x, g.start.y, g.end.x, g.end.y].allSatisfy(\.isFinite) }
        return true
    }

    /// The colour at pixel (x, y)'s centre.
    @inline(__always)
    package func color(x: Int, y: Int) -> ColorValue {
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
    package func color(atX x: Double, y: Double) -> ColorValue {
        ColorValue(startColor).mixed(with: ColorValue(endColor), position(atX: x, y: y))
    }
}
