import Foundation

/// A property's value over time, as Core Animation layers hold it: a model
/// value and a list of animations added to the property. At any time the
/// last animation in the list that is in effect (running, or filling)
/// gives the value; with none in effect it is the model value. Kinds:
/// basic (from, to, a timing function), keyframes (linear or discrete),
/// spring (the damped oscillator's closed form) and driven (a live or
/// recorded value source, read at the copy's own time, so a replicator's
/// copies show its past).

/// A value an animation can move between.
public protocol Interpolatable: Equatable, Sendable {
    /// `a` at 0, `b` at 1 (and beyond, for a spring's overshoot).
    static func interpolate(_ a: Self, _ b: Self, _ t: Double) -> Self
    /// `value` moved n times the step from `start` to `end` (a cumulative animation's later passes).
    static func accumulate(_ value: Self, start: Self, end: Self, passes n: Double) -> Self
}

extension Double: Interpolatable {
    @inline(__always)
    public static func interpolate(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
    @inline(__always)
    public static func accumulate(_ value: Double, start: Double, end: Double, passes n: Double) -> Double {
        value + (end - start) * n
    }
}

extension ColorValue: Interpolatable {
    @inline(__always)
    public static func interpolate(_ a: ColorValue, _ b: ColorValue, _ t: Double) -> ColorValue { a.mixed(with: b, t) }
    @inline(__always)
    public static func accumulate(_ value: ColorValue, start: ColorValue, end: ColorValue, passes n: Double) -> ColorValue {
        ColorValue(r: value.r + (end.r - start.r) * n, g: value.g + (end.g - start.g) * n,
                   b: value.b + (end.b - start.b) * n, a: value.a + (end.a - start.a) * n)
    }
}

/// CABasicAnimation: from, to, a timing function over one pass.
public struct BasicAnimation<Value: Interpolatable>: Equatable, Sendable {
    public var from: Value
    public var to: Value
    public var timing: MediaTiming
    public var function: TimingFunction
    /// Each pass starts where the last ended (CAPropertyAnimation.isCumulative):
    /// pass n runs from `from + n (to - from)`. Core Animation adds n times
    /// `to`, the same where `from` is 0 (as the seeds use it); Waves keeps
    /// the passes joined for any `from`.
    public var isCumulative: Bool

    public init(from: Value, to: Value, timing: MediaTiming, function: TimingFunction = .linear, isCumulative: Bool = false) {
        self.from = from; self.to = to; self.timing = timing; self.function = function; self.isCumulative = isCumulative
    }

    /// A pass of `duration` seconds with the other timing settings as Core Animation's defaults.
    public init(from: Value, to: Value, duration: Double, beginTime: Double = 0, function: TimingFunction = .linear,
                repeatCount: Double = 1, autoreverses: Bool = false, fillMode: FillMode = .removed, isCumulative: Bool = false) {
        self.init(from: from, to: to, timing: MediaTiming(beginTime: beginTime, duration: duration, repeatCount: repeatCount,
                                                          autoreverses: autoreverses, fillMode: fillMode),
                  function: function, isCumulative: isCumulative)
    }
}

/// CAKeyframeAnimation: values at key times (0...1 of the pass), joined
/// linearly or held (discrete). Without key times: evenly spaced, value i at
/// i / (n - 1) (linear) or held over [i / n, (i + 1) / n) (discrete).
public struct KeyframeAnimation<Value: Interpolatable>: Equatable, Sendable {
    public enum Calculation: String, Equatable, Sendable { case linear, discrete }

    public var values: [Value]
    /// Linear: one per value; discrete: one more than the values (the last
    /// is 1). Nil: evenly spaced.
    public var keyTimes: [Double]?
    public var calculation: Calculation
    public var timing: MediaTiming
    /// Applied to the pass's progress before the key times are looked up.
    public var function: TimingFunction
    /// Each pass starts where the last ended: pass n adds n times (last value
    /// - first value). Discrete steps of one pixel, cumulative and repeating,
    /// are a motion snapped to whole pixels that never wraps.
    public var isCumulative: Bool

    public init(values: [Value], keyTimes: [Double]? = nil, calculation: Calculation = .linear, timing: MediaTiming,
                function: TimingFunction = .linear, isCumulative: Bool = false) {
        self.values = values; self.keyTimes = keyTimes; self.calculation = calculation; self.timing = timing
        self.function = function; self.isCumulative = isCumulative
    }

    /// The last boundary j of 1...last whose key time p has reached (0: none; p NaN reaches none), halving:
    /// the key times never decrease (`isValid`), so a file's hundreds of keyframes cost a few steps, not a scan.
    @inline(__always)
    func lastBoundary(atOrBefore p: Double, upTo last: Int) -> Int {
        var low = 0, high = last
        while low < high {
            let middle = (low + high + 1) >> 1
            if p >= keyTime(middle) { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The key time of boundary i (discrete: 0...n; linear: 0...n - 1).
    @inline(__always)
    func keyTime(_ i: Int) -> Double {
        if let keyTimes { return keyTimes[i] }
        let n = values.count
        return calculation == .discrete ? Double(i) / Double(n) : (n > 1 ? Double(i) / Double(n - 1) : 0)
    }

    /// The value at progress p (0...1 of the pass, after the timing function).
    @inline(__always)
    func value(progress p: Double) -> Value {
        let n = values.count
        switch calculation {
        case .discrete:
            return values[lastBoundary(atOrBefore: p, upTo: n - 1)]
        case .linear:
            if n == 1 || p <= keyTime(0) { return values[0] }
            let i = lastBoundary(atOrBefore: p, upTo: n - 2)
            let t0 = keyTime(i), t1 = keyTime(i + 1)
            let f = t1 > t0 ? Swift.min(1, (p - t0) / (t1 - t0)) : 1
            return Value.interpolate(values[i], values[i + 1], f)
        }
    }

    var isValid: Bool {
        guard !values.isEmpty, timing.isValid, function.isValid, timing.duration.isFinite else { return false }
        guard let keyTimes else { return true }
        let expected = calculation == .discrete ? values.count + 1 : values.count
        return keyTimes.count == expected && keyTimes.allSatisfy({ $0.isFinite && (0...1).contains($0) })
            && zip(keyTimes, keyTimes.dropFirst()).allSatisfy { $0 <= $1 }
    }
}

/// CASpringAnimation: from, to, moved by a damped spring starting at rest
/// (or at `initialVelocity`, in units of the distance per second), its
/// value the oscillator's closed form at the simple time.
public struct SpringAnimation<Value: Interpolatable>: Equatable, Sendable {
    public var from: Value
    public var to: Value
    public var spring: Spring
    public var initialVelocity: Double
    public var timing: MediaTiming

    /// `duration`: nil for the spring's settling duration (within 0.1% of the distance).
    public init(from: Value, to: Value, spring: Spring, initialVelocity: Double = 0, beginTime: Double = 0,
                duration: Double? = nil, fillMode: FillMode = .removed) {
        self.from = from; self.to = to; self.spring = spring; self.initialVelocity = initialVelocity
        timing = MediaTiming(beginTime: beginTime, duration: duration ?? spring.settlingDuration(initialVelocity: initialVelocity),
                             fillMode: fillMode)
    }

    /// Progress from 0 (at `from`) towards 1 (at `to`), overshooting past 1 while it bounces.
    @inline(__always)
    public func progress(at simple: Double) -> Double {
        1 - spring.solution(x0: 1, v0: -initialVelocity, at: simple).x
    }
}

extension Spring {
    /// Seconds until the unit displacement stays within 0.001 of rest
    /// (sampled every millisecond, at most 60 s): CASpringAnimation's settlingDuration.
    public func settlingDuration(initialVelocity: Double = 0) -> Double {
        var last = 0.0
        var t = 0.0
        while t < 60 {
            let s = solution(x0: 1, v0: -initialVelocity, at: t)
            if abs(s.x) > 0.001 || abs(s.v) > 0.01 { last = t }
            t += 0.001
            if t - last > 1 { break }
        }
        return Swift.max(0.001, (last + 0.001))
    }
}

/// A value read from a source (a level from a file or a microphone) at the
/// property's time, mapped to progress x = clamp(gain * source + bias,
/// lower, upper) between `from` (x = 0) and `to` (x = 1).
public struct Driven<Value: Interpolatable>: Equatable, Sendable {
    /// Index into the scene's sources.
    public var source: Int
    public var from: Value
    public var to: Value
    public var gain: Double
    public var bias: Double
    public var lower: Double
    public var upper: Double
    /// The parent time it comes into effect (a state entered later, see
    /// `Timeline.sequence`); -infinity: always in effect.
    public var begin: Double

    public init(source: Int, from: Value, to: Value, gain: Double = 1, bias: Double = 0,
                lower: Double = -.infinity, upper: Double = .infinity, begin: Double = -.infinity) {
        self.source = source; self.from = from; self.to = to; self.gain = gain; self.bias = bias
        self.lower = lower; self.upper = upper; self.begin = begin
    }

    @inline(__always)
    func value(_ sourceValue: Double) -> Value {
        let x = Swift.min(upper, Swift.max(lower, gain * sourceValue + bias))
        return Value.interpolate(from, to, x.isFinite ? x : 0)
    }
}

public enum Animation<Value: Interpolatable>: Equatable, Sendable {
    case basic(BasicAnimation<Value>)
    case keyframes(KeyframeAnimation<Value>)
    case spring(SpringAnimation<Value>)
    case driven(Driven<Value>)

    /// The animation's timing (a driven value is always in effect: nil).
    @inline(__always)
    var timing: MediaTiming? {
        switch self {
        case let .basic(a): a.timing
        case let .keyframes(a): a.timing
        case let .spring(a): a.timing
        case .driven: nil
        }
    }

    /// Whether each pass starts where the last ended.
    var isCumulative: Bool {
        switch self {
        case let .basic(a): a.isCumulative
        case let .keyframes(a): a.isCumulative
        case .spring, .driven: false
        }
    }

    /// The value at parent time t, nil where the animation has no effect.
    @inline(__always)
    func value(at t: Double, sources: DrivenSources?) -> Value? {
        switch self {
        case let .basic(a):
            guard let s = a.timing.simpleTime(at: t) else { return nil }
            let v = Value.interpolate(a.from, a.to, a.function.value(s / a.timing.duration))
            return a.isCumulative ? Value.accumulate(v, start: a.from, end: a.to, passes: a.timing.completedPasses(at: t)) : v
        case let .keyframes(a):
            guard let s = a.timing.simpleTime(at: t) else { return nil }
            let v = a.value(progress: a.function.value(s / a.timing.duration))
            // By index: in a debug build Array.first and .last allocate.
            guard a.isCumulative, !a.values.isEmpty else { return v }
            return Value.accumulate(v, start: a.values[0], end: a.values[a.values.count - 1],
                                    passes: a.timing.completedPasses(at: t))
        case let .spring(a):
            guard let s = a.timing.simpleTime(at: t) else { return nil }
            return Value.interpolate(a.from, a.to, a.progress(at: s))
        case let .driven(a):
            guard t >= a.begin else { return nil }
            return a.value(sources?.value(of: a.source, at: t) ?? 0)
        }
    }

    /// Whether the value can change while the animation runs (a basic or
    /// spring from a value to itself cannot).
    var changesWhileRunning: Bool {
        switch self {
        case let .basic(a): a.from != a.to
        case let .keyframes(a): a.values.contains { $0 != a.values[0] }
        case let .spring(a): a.from != a.to
        case .driven: true
        }
    }

    var isValid: Bool {
        switch self {
        case let .basic(a): a.timing.isValid && a.function.isValid
        case let .keyframes(a): a.isValid
        case let .spring(a): a.timing.isValid && a.spring.isValid && a.initialVelocity.isFinite
        case let .driven(a): a.source >= 0 && a.gain.isFinite && a.bias.isFinite && !a.lower.isNaN && !a.upper.isNaN
        }
    }
}

extension Timeline where Value == Double {
    /// A layer's x translation for content travelling at a constant speed:
    /// -u(t), u = start + pixelsPerSecond * t from time 0 on (before it, the
    /// start). One cumulative linear pass a second; snapped to whole pixels
    /// (u rounded half up, the fix for "amplitude phasing"), `steps` of one
    /// pixel, so the picture changes only when a whole pixel is crossed. A
    /// snapped start is rounded first.
    public static func travel(start: Double, pixelsPerSecond: Double, snapsToPixel: Bool) -> Timeline<Double> {
        let from = snapsToPixel ? -(start + 0.5).rounded(.down) : -start
        guard pixelsPerSecond != 0 else { return .constant(from) }
        if !snapsToPixel {
            return Timeline(from, animations: [.basic(BasicAnimation(from: from, to: from - pixelsPerSecond, duration: 1,
                                                                     repeatCount: .infinity, fillMode: .backwards,
                                                                     isCumulative: true))])
        }
        return .steps(from: from, by: pixelsPerSecond > 0 ? -1 : 1, every: 1 / abs(pixelsPerSecond))
    }

    /// A value that starts at `from` and moves by `step` once every
    /// `seconds`, half way through each (a linear motion rounded half up),
    /// `count` times (forever by default), holding its start before time 0
    /// and its end after the last: one cumulative pair of discrete
    /// keyframes, so it changes only at its steps (`nextChange` finds them).
    public static func steps(from: Double, by step: Double, every seconds: Double, count: Double = .infinity) -> Timeline<Double> {
        let timing = MediaTiming(duration: seconds, repeatCount: count, fillMode: .both)
        return Timeline(from, animations: [.keyframes(KeyframeAnimation(values: [from, from + step], keyTimes: [0, 0.5, 1],
                                                                        calculation: .discrete, timing: timing,
                                                                        isCumulative: true))])
    }
}

/// One property: its model value and the animations added to it, later ones on top.
public struct Timeline<Value: Interpolatable>: Equatable, Sendable {
    public var value: Value
    public var animations: [Animation<Value>]

    public init(_ value: Value, animations: [Animation<Value>] = []) {
        self.value = value
        self.animations = animations
    }

    public static func constant(_ value: Value) -> Timeline { Timeline(value) }

    public var isConstant: Bool { animations.isEmpty }

    /// The presentation value at time t.
    @inline(__always)
    public func value(at t: Double, sources: DrivenSources? = nil) -> Value {
        var i = animations.count - 1
        while i >= 0 {
            if let v = animations[i].value(at: t, sources: sources) { return v }
            i -= 1
        }
        return value
    }

    /// The top animation in effect at t (nil: the model value shows).
    func topInEffect(at t: Double) -> Int? {
        var i = animations.count - 1
        while i >= 0 {
            if let timing = animations[i].timing {
                if timing.simpleTime(at: t) != nil { return i }
            } else if case let .driven(d) = animations[i], t < d.begin {
                // Not yet in effect.
            } else {
                return i
            }
            i -= 1
        }
        return nil
    }

    /// The earliest time after `t` at which the value may differ from its
    /// value at t: `t` itself while it changes continuously, nil when it
    /// never changes again. Events: an animation above the shown one
    /// coming into effect, the shown one leaving it (or, filling, never
    /// changing), and a discrete keyframe's next step.
    public func nextChange(after t: Double, sources: DrivenSources? = nil) -> Double? {
        var next: Double?
        func consider(_ time: Double?) { if let time { next = next.map { Swift.min($0, time) } ?? time } }
        let top = topInEffect(at: t)
        for i in animations.indices where top.map({ i > $0 }) ?? true {
            if let timing = animations[i].timing { consider(timing.nextBoundary(after: t)) }
            if case let .driven(d) = animations[i], d.begin > t { consider(d.begin) }
        }
        guard let top else { return next }
        let animation = animations[top]
        guard let timing = animation.timing else {
            if case let .driven(d) = animation, sources?.isConstant(d.source) ?? true { return next }
            return t
        }
        consider(timing.nextBoundary(after: t))
        guard timing.isRunning(at: t), animation.changesWhileRunning else { return next }
        guard case let .keyframes(k) = animation, k.calculation == .discrete, k.function == .linear,
              timing.speed > 0 else { return t }
        // Held values: the next inner key time ahead in this pass (either
        // direction), or the end of the pass, whichever comes first.
        for i in 1..<k.values.count {
            consider(timing.secondsUntil(simple: k.keyTime(i) * timing.duration, from: t).map { t + $0 })
        }
        // The end of this pass (the value wraps), or of the span. A
        // cumulative pass ends on the value the next one starts with: its
        // next step is the next pass's first inner key time.
        let local = timing.localTime(t)
        let passEnd = ((local / timing.duration).rounded(.down) + 1) * timing.duration
        let firstStep = k.isCumulative && k.values.count > 1 ? k.keyTime(1) * timing.duration : 0
        consider(t + (Swift.min(passEnd + firstStep, timing.activeDuration + timing.timeOffset) - local) / timing.speed)
        return next
    }

    var isValid: Bool { animations.allSatisfy(\.isValid) }
}

/// The scene's value sources (levels), read by driven properties at any
/// time up to the frame's. Recorded and constant levels are pure functions
/// of time; a live level is sampled once a frame (`advance(to:)`) into a
/// history, so a copy `k * delay` seconds behind reads what was live then.
public final class DrivenSources: @unchecked Sendable {
    public let levels: [Level]
    /// Per live source: a circular buffer of (time, value) samples.
    private var histories: [UnsafeMutableBufferPointer<(time: Double, value: Double)>]
    private var heads: [Int]
    private var counts: [Int]
    /// Samples kept per live source.
    public static let historyLength = 1024

    public init(_ levels: [Level]) {
        self.levels = levels
        histories = levels.map { level in
            if case .live = level {
                let history = UnsafeMutableBufferPointer<(time: Double, value: Double)>.allocate(capacity: Self.historyLength)
                history.initialize(repeating: (0, 0))
                return history
            }
            return UnsafeMutableBufferPointer(start: nil, count: 0)
        }
        heads = Array(repeating: 0, count: levels.count)
        counts = Array(repeating: 0, count: levels.count)
    }

    deinit { for h in histories where h.baseAddress != nil { h.deallocate() } }

    /// Samples every live source at the frame's time (once a frame, before evaluating).
    public func advance(to t: Double) {
        for i in levels.indices {
            guard case .live = levels[i] else { continue }
            let history = histories[i]
            if counts[i] > 0 {
                let newest = history[(heads[i] + Self.historyLength - 1) % Self.historyLength].time
                // The same frame again (a redraw, a second backend): already sampled.
                if newest == t { continue }
                // Time went back (a new run, a seek): start the history again.
                if newest > t { counts[i] = 0 }
            }
            history[heads[i]] = (t, levels[i].value(at: t))
            heads[i] = (heads[i] + 1) % Self.historyLength
            counts[i] = Swift.min(counts[i] + 1, Self.historyLength)
        }
    }

    /// Source `index` at time t: a recorded or constant level's value, or
    /// the live history's (interpolated; its oldest sample before it).
    @inline(__always)
    public func value(of index: Int, at t: Double) -> Double {
        guard index >= 0 && index < levels.count else { return 0 }
        guard case .live = levels[index] else { return levels[index].value(at: t) }
        let n = counts[index]
        // Not sampled yet (a scene made while the input runs): its value as last seen, left as it is.
        guard n > 0 else {
            if case let .live(live) = levels[index] { return live.current }
            return 0
        }
        let history = histories[index], L = Self.historyLength
        // Newest to oldest.
        var k = 0
        var newer = history[(heads[index] + L - 1) % L]
        if t >= newer.time { return newer.value }
        while k + 1 < n {
            let older = history[(heads[index] + L - 2 - k) % L]
            if t >= older.time {
                let f = newer.time > older.time ? (t - older.time) / (newer.time - older.time) : 1
                return older.value + (newer.value - older.value) * f
            }
            newer = older
            k += 1
        }
        return newer.value
    }

    /// A live source's history, oldest first, `body(time, value)` per
    /// sample (nothing for other sources): for a backend that reads it itself.
    @inline(__always)
    public func forEachSample(of index: Int, _ body: (Double, Double) -> Void) {
        guard index >= 0 && index < levels.count, case .live = levels[index] else { return }
        let history = histories[index], L = Self.historyLength, n = counts[index]
        var k = 0
        while k < n {
            let sample = history[(heads[index] + L - n + k) % L]
            body(sample.time, sample.value)
            k += 1
        }
    }

    /// Whether source `index` never changes (a constant level).
    public func isConstant(_ index: Int) -> Bool {
        guard index >= 0 && index < levels.count else { return true }
        if case .constant = levels[index] { return true }
        return false
    }
}
