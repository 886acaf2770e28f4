/// Core Animation's timing model (CAMediaTiming), shared by animations and
/// layers: a parent's time becomes a local time (begin time, speed, time
/// offset), which repeats, may play backwards on every other pass
/// (autoreverse) and, outside its active span, either holds a value (fill
/// mode) or has no effect.
///
///     active = (parent - beginTime) * speed      (time into the active span)
///     local  = active + timeOffset
///     span   = duration * repeatCount * (autoreverses ? 2 : 1)
///
/// While `active` is inside [0, span) the simple time is `local` modulo one
/// cycle, reflected on the way back: an offset starts the animation part
/// way through and wraps it round (frames C D E A B), as Core Animation
/// does. Before the span a backwards fill holds its first frame, after it a
/// forwards fill holds its last. A paused layer (speed 0) stays at its offset.
///
/// Waves adds one case Core Animation has no need of (its clock never runs
/// below zero): a begin time of minus infinity with endless repeats is a
/// timing that has always been running. Its local time is `parent * speed +
/// timeOffset` at every parent time, negative ones included, so a loop
/// repeats before time 0 as after it.

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
    /// Parent time at which local time 0 falls (before the offset); minus
    /// infinity: always running (see above).
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

    /// Repeating forever since before any time (begin time minus infinity).
    @inline(__always) public var isAlwaysRunning: Bool { beginTime == -.infinity }

    /// A loop of `duration` seconds that has always been running, `timeOffset`
    /// seconds ahead: the same at t and t + duration for every t.
    public static func endlessLoop(duration: Double, timeOffset: Double = 0) -> MediaTiming {
        MediaTiming(beginTime: -.infinity, duration: duration, timeOffset: timeOffset, repeatCount: .infinity, fillMode: .both)
    }

    /// One pass there and, when autoreversing, back.
    @inline(__always) public var cycle: Double { autoreverses ? 2 * duration : duration }
    @inline(__always) var passes: Double { repeatCount > 0 ? repeatCount : 1 }
    /// The length of the active span in local time.
    @inline(__always) public var activeDuration: Double { duration.isInfinite || passes.isInfinite ? .infinity : cycle * passes }

    /// Seconds into the active span at parent time t (before the offset).
    @inline(__always)
    public func activeTime(_ parent: Double) -> Double { isAlwaysRunning ? parent * speed : (parent - beginTime) * speed }

    /// Core Animation's local time: the active time plus the offset.
    @inline(__always)
    public func localTime(_ parent: Double) -> Double { activeTime(parent) + timeOffset }

    /// The simple time, 0...duration, at parent time `t`; nil where the
    /// timing has no effect (outside its span without a fill).
    @inline(__always)
    public func simpleTime(at t: Double) -> Double? {
        if isAlwaysRunning { return phase(t * speed + timeOffset) }
        let active = activeTime(t)
        guard active.isFinite else { return active == -.infinity ? (fillMode.fillsBackwards ? startTime : nil) : nil }
        if active < 0 { return fillMode.fillsBackwards ? startTime : nil }
        if active >= activeDuration { return fillMode.fillsForwards ? endTime : nil }
        return phase(active + timeOffset)
    }

    /// Whole cycles before the one the simple time at `t` falls in (a
    /// cumulative animation's count): 0 before the span, the last cycle's
    /// number after it.
    @inline(__always)
    public func completedPasses(at t: Double) -> Double {
        if isAlwaysRunning {
            // Negative before time 0: each earlier pass one fewer.
            let local = t * speed + timeOffset
            let passes = ((local - intoCycle(local)) / cycle).rounded()
            return passes.isFinite ? passes : 0
        }
        let active = activeTime(t)
        guard active > 0, duration.isFinite else { return 0 }
        let end = activeDuration
        if active >= end {
            // Ending on a whole cycle shows that cycle's end, not the next one's start.
            let cycles = (end + timeOffset) / cycle
            return Swift.max(0, cycles == cycles.rounded(.down) ? cycles - 1 : cycles.rounded(.down))
        }
        // Counted from the same remainder `phase` takes, so the count and the simple time agree at a pass's edge.
        let local = active + timeOffset
        let passes = ((local - intoCycle(local)) / cycle).rounded()
        return passes.isFinite ? Swift.max(0, passes) : 0
    }

    /// The simple time at local time `local`: within one cycle, reflected on the way back.
    @inline(__always)
    func phase(_ local: Double) -> Double {
        if duration.isInfinite { return local }
        return reflected(intoCycle(local))
    }

    /// Local time into its cycle, 0..<cycle (exact for every finite time).
    @inline(__always)
    private func intoCycle(_ local: Double) -> Double {
        let r = local.truncatingRemainder(dividingBy: cycle)
        return r < 0 ? r + cycle : r
    }

    /// The simple time the active span starts on.
    public var startTime: Double { phase(timeOffset) }

    /// The simple time the active span ends on: the end of a pass when it
    /// ends on a whole cycle, else part way.
    public var endTime: Double {
        let end = activeDuration + timeOffset
        if duration.isInfinite || activeDuration.isInfinite { return phase(end) }
        let cycles = end / cycle
        if end > 0 && cycles == cycles.rounded(.down) { return autoreverses ? 0 : duration }
        return phase(end)
    }

    @inline(__always)
    private func reflected(_ r: Double) -> Double { autoreverses && r > duration ? cycle - r : r }

    /// Whether local time is running at `t` (inside the span with a non-zero speed).
    @inline(__always)
    func isRunning(at t: Double) -> Bool {
        if isAlwaysRunning { return speed != 0 }
        let active = activeTime(t)
        return speed != 0 && active >= 0 && active < activeDuration
    }

    /// The parent times after `t` at which the timing enters or leaves its
    /// span (the next one only); nil when neither happens again.
    public func nextBoundary(after t: Double) -> Double? {
        guard speed != 0, beginTime.isFinite, timeOffset.isFinite else { return nil }
        // Active time 0 and the span's end in parent time.
        let start = beginTime
        let end = activeDuration.isFinite ? beginTime + activeDuration / speed : .infinity
        let (first, second) = speed > 0 ? (start, end) : (end, start)
        if first > t && first.isFinite { return first }
        return second > t && second.isFinite ? second : nil
    }

    /// The parent times at which the timing has an effect (`simpleTime` is
    /// not nil), as the span [lower, upper] that holds them all: an end is
    /// infinite where the timing fills on that side or has always been running.
    package var effectSpan: (lower: Double, upper: Double) {
        let everywhere = (lower: -Double.infinity, upper: Double.infinity)
        guard !isAlwaysRunning, beginTime.isFinite, speed.isFinite, speed != 0, !activeDuration.isNaN else { return everywhere }
        let end = beginTime + activeDuration / speed
        guard !end.isNaN else { return everywhere }
        // Running backwards (a negative speed), the span's start lies after its end in the parent's time.
        let (early, late) = speed > 0 ? (fillMode.fillsBackwards, fillMode.fillsForwards) : (fillMode.fillsForwards, fillMode.fillsBackwards)
        return (early ? -.infinity : Swift.min(beginTime, end), late ? .infinity : Swift.max(beginTime, end))
    }

    /// Whether local time (`LayerTreeEvaluator.localTime`) never decreases
    /// as the parent's grows, without wrapping round: one pass that never
    /// ends, at a speed above 0, from a finite begin time (or passed through).
    package var growsWithParent: Bool {
        isPassThrough || (duration.isInfinite && !isAlwaysRunning && beginTime.isFinite && speed.isFinite && speed > 0 && timeOffset.isFinite)
    }

    /// The parent times whose local time (`LayerTreeEvaluator.localTime`:
    /// the offset before the begin time, the offset plus the active time
    /// after it) lies in [lower, upper), as the span [lower, upper) that holds
    /// them (empty, lower above upper, where none does); nil where local time
    /// can decrease or wrap round as the parent's grows (`growsWithParent`
    /// false: a pass that ends and repeats or holds, a speed at or below 0, a
    /// timing always running).
    package func parentTimes(whereLocalIn span: (lower: Double, upper: Double)) -> (lower: Double, upper: Double)? {
        guard !isPassThrough else { return span }
        guard growsWithParent else { return nil }
        // Before the begin time local time is the offset; after it, it grows from there at `speed`.
        if span.upper <= timeOffset { return (.infinity, -.infinity) }
        let lower = span.lower <= timeOffset ? -.infinity : beginTime + (span.lower - timeOffset) / speed
        return (lower, beginTime + (span.upper - timeOffset) / speed)
    }

    /// Parent seconds from `t` until simple time reaches `target` in the
    /// current pass (forwards or, autoreversing, backwards); nil when it
    /// does not within this pass.
    func secondsUntil(simple target: Double, from t: Double) -> Double? {
        guard isRunning(at: t) else { return nil }
        let local = localTime(t)
        let r = duration.isInfinite ? local : intoCycle(local)
        let backwards = autoreverses && r > duration
        let now = backwards ? cycle - r : r
        let forwards = backwards ? speed < 0 : speed > 0
        let delta = forwards ? target - now : now - target
        guard delta > 0 else { return nil }
        return delta / abs(speed)
    }

    var isValid: Bool {
        (beginTime.isFinite || (isAlwaysRunning && passes.isInfinite && duration.isFinite)) && speed.isFinite && timeOffset.isFinite && !repeatCount.isNaN && repeatCount >= 0
            && duration > 0 && !duration.isNaN
    }
}
