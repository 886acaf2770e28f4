import WaveCore

/// Lottie's animatable properties: a value (`"a": 0, "k": value`) or
/// keyframes (`"a": 1, "k": [...]`), each keyframe a frame time `t`, a start
/// value `s` (and in older files an end `e`), its easing as Bézier handles
/// per dimension (`o` leaving, `i` arriving, x in 0...1), a hold flag `h`,
/// and for positions spatial tangents (`to`, `ti`) that bend the motion
/// along a cubic curve. Values are read at a frame here, and turned into
/// Waves' timelines (`timeline(_:)`) where they drive a layer's placement.

struct Keyframe: Equatable {
    var time: Double
    var start: [Double]
    /// Older files give each keyframe its end; newer ones use the next keyframe's start.
    var end: [Double]?
    var hold: Bool
    var outX: [Double], outY: [Double], inX: [Double], inY: [Double]
    var spatialOut: [Double]?
    var spatialIn: [Double]?

    /// The easing of dimension d, linear where the file gives none. Every
    /// dimension takes the first one's curve, as rlottie and ThorVG read the
    /// handles (the specification gives one per dimension; lottie-web reads them all).
    func easing(_ d: Int) -> TimingFunction {
        func pick(_ v: [Double], _ fallback: Double) -> Double { v.first ?? fallback }
        let x1 = pick(outX, 0), y1 = pick(outY, 0), x2 = pick(inX, 1), y2 = pick(inY, 1)
        return .curve(TimingCurve(Swift.min(1, Swift.max(0, x1)), y1, Swift.min(1, Swift.max(0, x2)), y2))
    }
}

/// One animatable property with numbers as its value (1 for opacity, 2 for a position, 4 for a colour...).
struct AnimatedValue: Equatable {
    var fixed: [Double]
    var keyframes: [Keyframe]

    init(_ fixed: [Double]) { self.fixed = fixed; keyframes = [] }

    init(keyframes: [Keyframe]) {
        self.keyframes = keyframes
        fixed = keyframes.first?.start ?? []
    }

    var isAnimated: Bool { keyframes.count > 1 }

    /// The largest magnitude its first two numbers take at any keyframe (a scale's largest factor, in percent);
    /// easing past a keyframe is not counted.
    var largestMagnitude: Double {
        var most = fixed.prefix(2).map(abs).max() ?? 0
        for k in keyframes { most = Swift.max(most, (k.start.prefix(2) + (k.end ?? []).prefix(2)).map(abs).max() ?? 0) }
        return most
    }

    /// The frames it changes over (first to last keyframe), nil when it never changes.
    var span: ClosedRange<Double>? { isAnimated ? keyframes[0].time...Swift.max(keyframes[0].time, keyframes[keyframes.count - 1].time) : nil }

    /// The value at a frame: held before the first keyframe and after the last.
    func value(at frame: Double) -> [Double] {
        guard isAnimated else { return fixed }
        let (segment, progress) = locate(frame)
        let k = keyframes[segment]
        let from = k.start
        guard segment + 1 < keyframes.count else { return k.end ?? from }
        let to = k.end ?? keyframes[segment + 1].start
        if k.hold || progress <= 0 { return from }
        if let so = k.spatialOut, let si = k.spatialIn, from.count >= 2, to.count >= 2,
           so.count >= 2, si.count >= 2, so.contains(where: { $0 != 0 }) || si.contains(where: { $0 != 0 }) {
            let eased = k.easing(0).value(progress)
            var point = SpatialCurve(from: from, to: to, out: so, in: si).point(atFraction: eased)
            if from.count > 2, to.count > 2 { point.append(from[2] + (to[2] - from[2]) * eased) }
            return point
        }
        var out = from
        for d in 0..<Swift.min(from.count, to.count) {
            out[d] = from[d] + (to[d] - from[d]) * k.easing(d).value(progress)
        }
        return out
    }

    /// The segment a frame falls in and how far along it (0...1).
    func locate(_ frame: Double) -> (Int, Double) {
        if frame <= keyframes[0].time { return (0, 0) }
        var i = 0
        while i + 1 < keyframes.count && keyframes[i + 1].time <= frame { i += 1 }
        guard i + 1 < keyframes.count else { return (i, 1) }
        let span = keyframes[i + 1].time - keyframes[i].time
        return (i, span > 0 ? (frame - keyframes[i].time) / span : 1)
    }

    /// Whether any keyframe bends its motion along a curve.
    var isSpatial: Bool {
        keyframes.contains { k in
            (k.spatialOut?.contains { $0 != 0 } ?? false) || (k.spatialIn?.contains { $0 != 0 } ?? false)
        }
    }

    /// Dimension `d`, times `scale` plus `offset`, as a timeline in seconds
    /// (frame / rate): a basic animation per keyframe segment with its
    /// easing (a hold holds), so values between frames are the file's curve
    /// too. Curved motion is sampled at every frame instead (linear between).
    func timeline(_ d: Int, scale: Double = 1, offset: Double = 0, rate: Double) -> Timeline<Double> {
        timeline(easing: d, rate: rate) { v in (d < v.count ? v[d] : (v.first ?? 0)) * scale + offset }
    }

    /// The value made into `Value` by `make`, as a timeline in seconds, each segment eased by dimension `easing`'s curve.
    func timeline<Value: Interpolatable>(easing d: Int, rate: Double, _ make: ([Double]) -> Value) -> Timeline<Value> {
        guard isAnimated else { return .constant(make(fixed)) }
        if isSpatial {
            let first = keyframes[0].time, last = keyframes[keyframes.count - 1].time
            let samples = FrameSamples(from: first, to: last)
            return samples.timeline(samples.frames.map { make(value(at: Swift.min(last, $0))) }, rate: rate)
        }
        var animations: [Animation<Value>] = []
        for i in 0..<(keyframes.count - 1) {
            let k = keyframes[i]
            let from = make(k.start), to = k.hold ? from : make(k.end ?? keyframes[i + 1].start)
            let span = keyframes[i + 1].time - k.time
            guard span > 0 else { continue }
            animations.append(.basic(BasicAnimation(from: from, to: to, duration: span / rate, beginTime: k.time / rate,
                                                    function: k.hold ? .linear : k.easing(d),
                                                    fillMode: animations.isEmpty ? .both : .forwards)))
        }
        // After a hold, the last keyframe's value from its time on.
        if let last = keyframes.last, keyframes[keyframes.count - 2].hold {
            let value = make(last.start)
            animations.append(.basic(BasicAnimation(from: value, to: value, duration: 1 / rate, beginTime: last.time / rate,
                                                    fillMode: .forwards)))
        }
        return Timeline(make(fixed), animations: animations)
    }
}

/// A motion along the cubic from `from` through from + out and to + in to `to`, by arc length.
struct SpatialCurve {
    let p0: Point, p1: Point, p2: Point, p3: Point

    init(from: [Double], to: [Double], out: [Double], in: [Double]) {
        p0 = Point(from[0], from[1])
        p1 = Point(from[0] + out[0], from[1] + out[1])
        p2 = Point(to[0] + `in`[0], to[1] + `in`[1])
        p3 = Point(to[0], to[1])
    }

    func at(_ t: Double) -> Point { Point.onCubic(p0, p1, p2, p3, at: t) }

    /// The point `fraction` of the way along the curve's length.
    func point(atFraction fraction: Double) -> [Double] {
        let steps = 64
        var lengths = [0.0]
        var previous = p0
        for i in 1...steps {
            let p = at(Double(i) / Double(steps))
            lengths.append(lengths[i - 1] + ((p.x - previous.x) * (p.x - previous.x) + (p.y - previous.y) * (p.y - previous.y)).squareRoot())
            previous = p
        }
        let total = lengths[steps]
        guard total > 0 else { return [p0.x, p0.y] }
        let target = Swift.min(1, Swift.max(0, fraction)) * total
        var i = 1
        while i < steps && lengths[i] < target { i += 1 }
        let span = lengths[i] - lengths[i - 1]
        let t = (Double(i - 1) + (span > 0 ? (target - lengths[i - 1]) / span : 0)) / Double(steps)
        let p = at(fraction >= 1 ? 1 : (fraction <= 0 ? 0 : t))
        return [p.x, p.y]
    }
}

/// A Bézier outline as Lottie stores it: vertices with in and out tangents
/// relative to each vertex, closed or open.
struct BezierShape: Equatable {
    var vertices: [Point]
    var inTangents: [Point]
    var outTangents: [Point]
    var closed: Bool

    /// Vertex by vertex between two outlines of the same count (`self` where counts differ).
    func mixed(with other: BezierShape, _ t: Double) -> BezierShape {
        guard other.vertices.count == vertices.count, other.inTangents.count == inTangents.count,
              other.outTangents.count == outTangents.count else { return self }
        func mix(_ a: [Point], _ b: [Point]) -> [Point] { zip(a, b).map { Point($0.x + ($1.x - $0.x) * t, $0.y + ($1.y - $0.y) * t) } }
        return BezierShape(vertices: mix(vertices, other.vertices), inTangents: mix(inTangents, other.inTangents),
                           outTangents: mix(outTangents, other.outTangents), closed: closed)
    }
}

/// A path property: one outline, or keyframes of outlines (a morph).
struct AnimatedShape: Equatable {
    var fixed: BezierShape
    /// Keyframes whose values are outlines: times, easing and holds as `AnimatedValue`'s (values unused).
    var keyframes: [Keyframe]
    var starts: [BezierShape]
    var ends: [BezierShape?]

    var isAnimated: Bool { keyframes.count > 1 }

    var span: ClosedRange<Double>? { isAnimated ? keyframes[0].time...Swift.max(keyframes[0].time, keyframes[keyframes.count - 1].time) : nil }

    func value(at frame: Double) -> BezierShape {
        guard isAnimated else { return fixed }
        let (segment, progress) = AnimatedValue(keyframes: keyframes).locate(frame)
        let k = keyframes[segment]
        guard segment + 1 < keyframes.count else { return ends[segment] ?? starts[segment] }
        if k.hold || progress <= 0 { return starts[segment] }
        let to = ends[segment] ?? starts[segment + 1]
        return starts[segment].mixed(with: to, k.easing(0).value(progress))
    }
}

/// The frames any of `spans` changes over (nil: none changes).
func spanning(_ spans: [ClosedRange<Double>?]) -> ClosedRange<Double>? {
    spans.reduce(nil) { total, span in
        guard let span else { return total }
        guard let total else { return span }
        return Swift.min(total.lowerBound, span.lowerBound)...Swift.max(total.upperBound, span.upperBound)
    }
}

/// The frames a changing value is sampled at: every whole frame from
/// `first` to `last`, or 100,000 samples evenly over a longer span.
struct FrameSamples {
    let first: Double
    /// Samples after the first, and the frames between two.
    let count: Int
    let step: Double

    init(from first: Double, to last: Double) {
        self.first = first
        count = Int(holding: (last - first).rounded(.up), to: 1...100_000)
        let span = Swift.max(last - first, 0)
        step = span > Double(count) ? span / Double(count) : 1
    }

    var frames: [Double] { (0...count).map { first + Double($0) * step } }

    /// `values` (one a sample) as a timeline in seconds at `rate`: linear
    /// between samples, or each held through its step (`discrete`); held outside.
    func timeline<Value: Interpolatable>(_ values: [Value], rate: Double, discrete: Bool = false) -> Timeline<Value> {
        let samples = discrete ? count + 1 : count
        let timing = MediaTiming(beginTime: first / rate, duration: Double(samples) * step / rate, fillMode: .both)
        return Timeline(values[0], animations: [.keyframes(KeyframeAnimation(values: values, calculation: discrete ? .discrete : .linear,
                                                                             timing: timing))])
    }
}
