/// How an animation's progress through one pass becomes its eased
/// progress: Core Animation's cubic Bézier timing functions (the named
/// presets are CAMediaTimingFunction's) and the timer chapter's bounce-out.

public enum TimingFunction: Equatable, Hashable, Sendable {
    /// A cubic Bézier from (0, 0) to (1, 1) (CAMediaTimingFunction).
    case curve(TimingCurve)
    /// The bouncing ball's piecewise parabolas (four bounces, ending at 1).
    case bounceOut

    public static let linear = TimingFunction.curve(.linear)
    public static let easeIn = TimingFunction.curve(.easeIn)
    public static let easeOut = TimingFunction.curve(.easeOut)
    public static let easeInEaseOut = TimingFunction.curve(.easeInEaseOut)
    /// kCAMediaTimingFunctionDefault: (0.25, 0.1) (0.25, 1).
    public static let `default` = TimingFunction.curve(TimingCurve(0.25, 0.1, 0.25, 1))

    /// Eased progress for linear progress p (0...1).
    @inline(__always)
    public func value(_ p: Double) -> Double {
        switch self {
        case let .curve(c):
            if c == .linear { return Swift.min(1, Swift.max(0, p)) }
            return c.value(p)
        case .bounceOut:
            return Self.bounceOut(Swift.min(1, Swift.max(0, p)))
        }
    }

    /// The bounce-out's parabolas, each a t^2 + b t + c below its end:
    /// t < 4/11: 121 t^2 / 16; t < 8/11: 363/40 t^2 - 99/10 t + 17/5;
    /// t < 9/10: 4356/361 t^2 - 35442/1805 t + 16061/1805;
    /// else 54/5 t^2 - 513/25 t + 268/25. One table, read by `bounceOut`
    /// and written into the GL strategy's shader (`TimelineCode`).
    package static let bounceOutPieces: [(end: Double, a: Double, b: Double, c: Double)] = [
        (4.0 / 11, 121.0 / 16, 0, 0),
        (8.0 / 11, 363.0 / 40, -99.0 / 10, 17.0 / 5),
        (9.0 / 10, 4356.0 / 361, -35442.0 / 1805, 16061.0 / 1805),
        (.infinity, 54.0 / 5, -513.0 / 25, 268.0 / 25),
    ]

    @inline(__always)
    public static func bounceOut(_ t: Double) -> Double {
        // While loop over the table: in a debug build a for-in loop allocates.
        var i = 0
        while i + 1 < bounceOutPieces.count && t >= bounceOutPieces[i].end { i += 1 }
        let p = bounceOutPieces[i]
        return p.a * t * t + p.b * t + p.c
    }

    var isValid: Bool {
        if case let .curve(c) = self { return c.isValid }
        return true
    }
}
