/// Core Animation's timing model (CAMediaTiming), shared by animations and
/// layers: a parent's time becomes a local time (begin time, speed, time
/// offset), which repeats, may play backwards on every other pass
/// (autoreverse) and, outside its active span, either holds a value (fill
/// mode) or has no effect.
///
///     local  = (parent - beginTime) * speed + timeOffset
///     active = duration * repeatCount * (autoreverses ? 2 : 1)
///
/// Inside [0, active) the simple time is local modulo one pass, reflected on
/// the way back; before 0 a backwards fill holds the start, after `active` a
/// forwards fill holds the end (the value the last pass ended on).

/// What an animation does outside its active span (CAMediaTimingFillMode).
public enum FillMode: String, Equatable, Hashable, Sendable {
    /// No effect outside the span (Core Animation's default).
    case removed
    /// Holds the end after the span.
    case forwards
    /// Holds the start before the span.
    case backwards
    /// Both.
    case both

    var fillsBackwards: Bool { self == .backwards || self == .both }
    var fillsForwards: Bool { self == .forwards || self == .both }
}

public struct MediaTiming: Equatable, Hashable, Sendable {
    /// Parent time at which local time 0 falls (before the offset).
    public var beginTime: Double
    /// Seconds of one pass (infinite: a layer's time that never repeats).
    public var duration: Double
    public var speed: Double
    public var timeOffset: Double
    /// Passes (fractions allowed; 0 counts as 1; `.infinity` forever).
    public var repeatCount: Double
    public var autoreverses: Bool
    public var fillMode: FillMode

    public init(beginTime: Double = 0, duration: Double, speed: Double = 1, timeOffset: Double = 0,
                repeatCount: Double = 1, autoreverses: Bool = false, fillMode: FillMode = .removed) {
        self.beginTime = beginTime; self.duration = duration; self.speed = speed; self.timeOffset = timeOffset
        self.repeatCount = repeatCount; self.autoreverses = autoreverses; self.fillMode = fillMode
    }

    /// A layer's default: parent time passed through unchanged, forever.
    public static let passThrough = MediaTiming(duration: .infinity, fillMode: .both)

    public var isPassThrough: Bool { self == .passThrough }

    /// One pass there and, when autoreversing, back.
    @inline(__always) var cycle: Double { autoreverses ? 2 * duration : duration }
    @inline(__always) var passes: Double { repeatCount > 0 ? repeatCount : 1 }
    /// The length of the active span in local time.
    @inline(__always) public var activeDuration: Double { duration.isInfinite || passes.isInfinite ? .infinity : cycle * passes }

    @inline(__always)
    public func localTime(_ parent: Double) -> Double { (parent - beginTime) * speed + timeOffset }

    /// The simple time, 0...duration, at parent time `t`; nil where the
    /// timing has no effect (outside its span without a fill).
    @inline(__always)
    public func simpleTime(at t: Double) -> Double? {
        let local = localTime(t)
        guard local.isFinite else { return local == -.infinity ? (fillMode.fillsBackwards ? 0 : nil) : nil }
        if local < 0 { return fillMode.fillsBackwards ? 0 : nil }
        let active = activeDuration
        if local >= active { return fillMode.fillsForwards ? endTime : nil }
        return reflected(duration.isInfinite ? local : local.truncatingRemainder(dividingBy: cycle))
    }

    /// The simple time the active span ends on.
    var endTime: Double {
        let whole = passes.rounded(.down)
        let fraction = passes - whole
        if fraction == 0 { return autoreverses ? 0 : duration }
        return reflected(fraction * cycle)
    }

    @inline(__always)
    private func reflected(_ r: Double) -> Double { autoreverses && r > duration ? cycle - r : r }

    /// Whether local time is running at `t` (inside the span with a non-zero speed).
    @inline(__always)
    func isRunning(at t: Double) -> Bool {
        let local = localTime(t)
        return speed != 0 && local >= 0 && local < activeDuration
    }

    /// The parent times after `t` at which the timing enters or leaves its
    /// span (the next one only); nil when neither happens again.
    func nextBoundary(after t: Double) -> Double? {
        guard speed != 0, beginTime.isFinite, timeOffset.isFinite else { return nil }
        // Local time 0 and `active` in parent time.
        let start = beginTime + (0 - timeOffset) / speed
        let end = activeDuration.isFinite ? beginTime + (activeDuration - timeOffset) / speed : .infinity
        let (first, second) = speed > 0 ? (start, end) : (end, start)
        if first > t && first.isFinite { return first }
        return second > t && second.isFinite ? second : nil
    }

    /// Parent seconds from `t` until simple time reaches `target` in the
    /// current pass (forwards or, autoreversing, backwards); nil when it
    /// does not within this pass.
    func secondsUntil(simple target: Double, from t: Double) -> Double? {
        guard isRunning(at: t) else { return nil }
        let local = localTime(t)
        let r = duration.isInfinite ? local : local.truncatingRemainder(dividingBy: cycle)
        let backwards = autoreverses && r > duration
        let now = backwards ? cycle - r : r
        let forwards = backwards ? speed < 0 : speed > 0
        let delta = forwards ? target - now : now - target
        guard delta > 0 else { return nil }
        return delta / abs(speed)
    }

    var isValid: Bool {
        beginTime.isFinite && speed.isFinite && timeOffset.isFinite && !repeatCount.isNaN && repeatCount >= 0
            && duration > 0 && !duration.isNaN
    }
}
