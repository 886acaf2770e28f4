/// Animation timing as Core Animation defines it: a cubic Bézier timing
/// curve (CAMediaTimingFunction) and a basic animation that autoreverses
/// (CABasicAnimation with autoreverses and an infinite repeat). Pure
/// functions of the time, so a frame at t is the same however it was reached.

/// A timing curve from (0, 0) to (1, 1) with control points (x1, y1) and
/// (x2, y2), x1 and x2 in 0...1 so x grows with the curve parameter.
public struct TimingCurve: Equatable, Hashable, Sendable {
    public var x1: Double, y1: Double, x2: Double, y2: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    public static let linear = TimingCurve(0, 0, 1, 1)
    /// kCAMediaTimingFunctionEaseOut.
    public static let easeOut = TimingCurve(0, 0, 0.58, 1)
    /// kCAMediaTimingFunctionEaseIn.
    public static let easeIn = TimingCurve(0.42, 0, 1, 1)
    /// kCAMediaTimingFunctionEaseInEaseOut.
    public static let easeInEaseOut = TimingCurve(0.42, 0, 0.58, 1)

    /// The most steps the solve takes; it stops once x is within 1e-12 of p.
    public static let maxSolveSteps = 60

    /// The eased progress for linear progress p (clamped to 0...1): the
    /// curve's y where its x equals p. x is non-decreasing in the curve's
    /// parameter, so the parameter is kept in a bracket and found by Newton's
    /// method, bisecting where a Newton step would leave the bracket or the
    /// slope vanishes (x'(0) = 0 for ease-out stalls plain Newton). Three to
    /// five steps for the presets, where bisection to 2^-24 took 24. The GL
    /// shader bisects in float to 2^-24, within a float's precision of this.
    @inline(__always)
    public func value(_ p: Double) -> Double {
        let x = Swift.min(1, Swift.max(0, p))
        if x == 0 || x == 1 { return x }
        var lo = 0.0, hi = 1.0, s = x
        var step = 0
        while step < Self.maxSolveSteps {
            step += 1
            let error = Self.bezier(s, x1, x2) - x
            if abs(error) < 1e-12 { break }
            if error < 0 { lo = s } else { hi = s }
            let slope = Self.slope(s, x1, x2)
            let next = slope > 1e-12 ? s - error / slope : -1
            s = next > lo && next < hi ? next : 0.5 * (lo + hi)
            if hi - lo < 1e-15 { break }
        }
        return Self.bezier(s, y1, y2)
    }

    /// dx/ds of one coordinate: 3(1-s)^2 a + 6(1-s) s (b - a) + 3 s^2 (1 - b).
    @inline(__always)
    static func slope(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * a + 6 * r * s * (b - a) + 3 * s * s * (1 - b)
    }

    /// One coordinate of the curve at parameter s: 3(1-s)^2 s a + 3(1-s) s^2 b + s^3.
    @inline(__always)
    static func bezier(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * s * a + 3 * r * s * s * b + s * s * s
    }

    var isValid: Bool {
        [x1, y1, x2, y2].allSatisfy(\.isFinite) && (0...1).contains(x1) && (0...1).contains(x2)
    }
}

/// A value that runs from `from` to `to` in `duration` seconds with a timing
/// curve, then back (autoreverse: the same curve played backwards), forever,
/// starting `begin` seconds after time 0 and holding `from` before that.
public struct Autoreversing: Equatable, Hashable, Sendable {
    public var from: Double
    public var to: Double
    public var duration: Double
    public var begin: Double
    public var timing: TimingCurve

    public init(from: Double, to: Double, duration: Double, begin: Double = 0, timing: TimingCurve = .linear) {
        self.from = from; self.to = to; self.duration = duration; self.begin = begin; self.timing = timing
    }

    /// The eased progress 0...1 at time t (0 before `begin`): forwards for
    /// one duration, then backwards for one.
    @inline(__always)
    public func progress(at t: Double) -> Double {
        let local = t - begin
        guard local > 0, local.isFinite else { return 0 }
        let cycle = 2 * duration
        let phase = local.truncatingRemainder(dividingBy: cycle) / duration
        return timing.value(phase <= 1 ? phase : 2 - phase)
    }

    @inline(__always)
    public func value(at t: Double) -> Double { from + (to - from) * progress(at: t) }

    var isValid: Bool {
        [from, to, begin].allSatisfy(\.isFinite) && duration.isFinite && duration > 0 && timing.isValid
    }
}
