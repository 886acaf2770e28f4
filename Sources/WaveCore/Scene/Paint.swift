/// Paint: what colour a covered pixel gets, evaluated per pixel at its centre.

/// One colour source. A gradient is held apart (indirect), so a solid fill,
/// the common one, costs a shape (and every compiled copy of its layer) 16
/// bytes instead of a gradient's 104.
public enum Fill: Equatable, Hashable, Sendable {
    case solid(RGBA8)
    indirect case linearGradient(LinearGradient)
    /// Colour stops along a line or out from a centre (`Gradient`).
    indirect case gradient(Gradient)

    /// Every number in the fill is finite.
    var isFinite: Bool {
        switch self {
        case .solid: true
        case let .linearGradient(g): [g.start.x, g.start.y, g.end.x, g.end.y].allSatisfy(\.isFinite)
        case let .gradient(g): [g.start.x, g.start.y, g.end.x, g.end.y].allSatisfy(\.isFinite)
        }
    }

    /// The colour at pixel (x, y)'s centre.
    @inline(__always)
    package func color(x: Int, y: Int) -> ColorValue {
        switch self {
        case let .solid(c): ColorValue(c)
        case let .linearGradient(g): g.color(atX: Double(x) + 0.5, y: Double(y) + 0.5)
        case let .gradient(g): g.color(atX: Double(x) + 0.5, y: Double(y) + 0.5)
        }
    }
}

/// A gradient's points animated (`Shape.gradientPoints`): its start, end
/// and focus (a radial gradient's focal point; at the start for none), in
/// its layer's coordinates. Interpolated point by point.
public struct GradientPoints: Interpolatable, Hashable {
    public var start: Point
    public var end: Point
    public var focus: Point

    public init(start: Point, end: Point, focus: Point) {
        self.start = start; self.end = end; self.focus = focus
    }

    public static func interpolate(_ a: GradientPoints, _ b: GradientPoints, _ t: Double) -> GradientPoints {
        func mix(_ p: Point, _ q: Point) -> Point { Point(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t) }
        return GradientPoints(start: mix(a.start, b.start), end: mix(a.end, b.end), focus: mix(a.focus, b.focus))
    }

    public static func accumulate(_ value: GradientPoints, start: GradientPoints, end: GradientPoints, passes n: Double) -> GradientPoints {
        func add(_ v: Point, _ s: Point, _ e: Point) -> Point { Point(v.x + (e.x - s.x) * n, v.y + (e.y - s.y) * n) }
        return GradientPoints(start: add(value.start, start.start, end.start), end: add(value.end, start.end, end.end),
                              focus: add(value.focus, start.focus, end.focus))
    }

    /// Every coordinate is finite.
    var isFinite: Bool { [start.x, start.y, end.x, end.y, focus.x, focus.y].allSatisfy(\.isFinite) }
}

/// Colours at stops (positions 0...1, each with its alpha) along the line
/// from `start` to `end` (linear), or out from the centre `start` to the
/// radius |end - start| (radial, its colours centred on `focus` where one
/// is given: the focal point of a two-point gradient, each ring at
/// position t the circle of radius t r about focus + t (start - focus));
/// held beyond the first and last stop.
/// The colour at a position comes from `ramp`, 256 entries made once
/// (what both strategies read: the GL one as a 256x1 texture, nearest).
public struct Gradient: Equatable, Hashable, Sendable {
    public enum Kind: Equatable, Hashable, Sendable { case linear, radial }
    public struct Stop: Equatable, Hashable, Sendable {
        public var position: Double
        public var color: RGBA8
        public init(_ position: Double, _ color: RGBA8) { self.position = position; self.color = color }
    }

    public let kind: Kind
    public let start: Point
    public let end: Point
    public let stops: [Stop]
    /// A radial gradient's focal point (nil: its centre).
    public let focus: Point?
    /// The focus less the centre, over the radius, held inside 0.99 of it (zero without one).
    package let focusOffset: SIMD2<Double>
    /// The colour at position i/255, channels 0...255, straight alpha.
    public let ramp: [ColorValue]

    public static let rampSize = 256

    /// The ramp follows from the rest.
    public static func == (a: Gradient, b: Gradient) -> Bool {
        a.kind == b.kind && a.start == b.start && a.end == b.end && a.stops == b.stops && a.focus == b.focus
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind); hasher.combine(start); hasher.combine(end); hasher.combine(stops); hasher.combine(focus)
    }

    /// `stops` in any order (sorted here); none gives transparent black.
    public init(_ kind: Kind, start: Point, end: Point, stops: [Stop], focus: Point? = nil) {
        let sorted = stops.filter { $0.position.isFinite }.sorted { $0.position < $1.position }
        self.init(kind, start: start, end: end, focus: focus, sortedStops: sorted,
                  ramp: (0..<Self.rampSize).map { i in Self.color(sorted, at: Double(i) / Double(Self.rampSize - 1)) })
    }

    private init(_ kind: Kind, start: Point, end: Point, focus: Point?, sortedStops: [Stop], ramp: [ColorValue]) {
        self.kind = kind
        self.start = start
        self.end = end
        self.focus = kind == .radial ? focus : nil
        let radius = ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y)).squareRoot()
        var offset = SIMD2<Double>.zero
        if let f = self.focus, radius > 0, f.x.isFinite, f.y.isFinite {
            offset = SIMD2((f.x - start.x) / radius, (f.y - start.y) / radius)
            let length = (offset * offset).sum().squareRoot()
            if length > 0.99 { offset *= 0.99 / length }
        }
        focusOffset = offset
        self.stops = sortedStops
        self.ramp = ramp
    }

    /// The same stops and ramp (shared, not copied: nothing is allocated) at other points.
    @inline(__always)
    public func moved(to points: GradientPoints) -> Gradient {
        Gradient(kind, start: points.start, end: points.end, focus: points.focus, sortedStops: stops, ramp: ramp)
    }

    /// Its start, end and focus (the focus at the start where it has none).
    public var points: GradientPoints { GradientPoints(start: start, end: end, focus: focus ?? start) }

    static func color(_ stops: [Stop], at t: Double) -> ColorValue {
        Self.interpolate(stops.map { ($0.position, ColorValue($0.color)) }, at: t) { $0.mixed(with: $1, $2) } ?? ColorValue(r: 0, g: 0, b: 0, a: 0)
    }

    /// The value at `t` of `stops` (sorted by position): held before the first
    /// and after the last, mixed between the two around it by `mix(a, b, fraction)`; nil with no stop.
    package static func interpolate<Value>(_ stops: [(position: Double, value: Value)], at t: Double,
                                           mix: (Value, Value, Double) -> Value) -> Value? {
        guard let first = stops.first, let last = stops.last else { return nil }
        if t <= first.position { return first.value }
        if t >= last.position { return last.value }
        var i = 1
        while stops[i].position < t { i += 1 }
        let a = stops[i - 1], b = stops[i], span = b.position - a.position
        return mix(a.value, b.value, span > 0 ? (t - a.position) / span : 1)
    }

    /// Where (x, y) in the fill's coordinates falls, 0...1.
    @inline(__always)
    public func position(atX x: Double, y: Double) -> Double {
        let dx = end.x - start.x, dy = end.y - start.y, length2 = dx * dx + dy * dy
        guard length2 > 0 else { return 1 }
        let r = length2.squareRoot()
        let t = kind == .linear ? ((x - start.x) * dx + (y - start.y) * dy) / length2
            : Self.radialPosition((x - start.x) / r, (y - start.y) / r, focusOffset)
        return Swift.min(1, Swift.max(0, t))
    }

    /// A radial gradient's position at (u, v), the point less the centre
    /// over the radius, with its focus at `f` in those units (|f| < 1): the
    /// t whose circle, radius t about f + t (0 - f), passes through the point
    /// (t = |(u, v)| with the focus at the centre). Item.frag.glsl's
    /// radialPosition is the same.
    @inline(__always)
    package static func radialPosition(_ u: Double, _ v: Double, _ f: SIMD2<Double>) -> Double {
        if f.x == 0 && f.y == 0 { return (u * u + v * v).squareRoot() }
        let qx = u - f.x, qy = v - f.y, along = qx * f.x + qy * f.y, a = 1 - (f.x * f.x + f.y * f.y)
        return (along + (along * along + a * (qx * qx + qy * qy)).squareRoot()) / a
    }

    /// The ramp's entry for a position: what both strategies paint.
    @inline(__always)
    public func color(at t: Double) -> ColorValue { ramp[Self.entry(at: t)] }

    /// The ramp's entry for a position: the nearest of the 256, held to the
    /// ends (rounded half up without a call into libm: what is not above 0,
    /// not a number included, is 0; what is past the last entry, the last).
    @inline(__always)
    package static func entry(at t: Double) -> Int {
        let scaled = t * Double(rampSize - 1)
        return scaled > 0 ? (scaled < Double(rampSize - 1) ? Int(scaled + 0.5) : rampSize - 1) : 0
    }

    @inline(__always)
    package func color(atX x: Double, y: Double) -> ColorValue { color(at: position(atX: x, y: y)) }
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
