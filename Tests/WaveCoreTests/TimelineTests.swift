import Foundation
import WaveCore
import XCTest

/// Property timelines against Core Animation's documented semantics: begin
/// time and fill modes, autoreverse, whole, fractional and infinite repeats,
/// discrete and linear keyframes, springs against the oscillator's closed
/// form, cubic-Bézier timing against a numerical solve written here,
/// bounce-out at its piece boundaries, layer timing (pause, begin time,
/// speed), the topmost animation in effect winning, and driven values
/// (constant, envelope and live levels, a replicator's copies reading the past).
final class TimelineTests: XCTestCase {
    private let eps = 1e-9

    private func basic(_ from: Double, _ to: Double, duration: Double = 2, beginTime: Double = 0,
                       function: TimingFunction = .linear, repeatCount: Double = 1, autoreverses: Bool = false,
                       fillMode: FillMode = .removed) -> Animation<Double> {
        .basic(BasicAnimation(from: from, to: to, duration: duration, beginTime: beginTime, function: function,
                              repeatCount: repeatCount, autoreverses: autoreverses, fillMode: fillMode))
    }

    private func line(_ animations: Animation<Double>..., model: Double = -1) -> Timeline<Double> {
        Timeline(model, animations: animations)
    }

    // MARK: Tracks (the evaluator's way of reading a timeline)

    /// A timeline read from where its `TimelineTrack` says (halving over begin times) is its value bit for bit, and
    /// a track halves only where that skips nothing in effect.
    func testATimelineReadThroughItsTrackIsItsValue() {
        func assertTrack(_ timeline: Timeline<Double>, halves: Bool, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
            let track = TimelineTrack(timeline)
            defer { track.deallocate() }
            XCTAssertEqual(track.halves, halves, "\(name): whether the track halves", file: file, line: line)
            for step in -40...200 {
                let t = Double(step) / 16
                XCTAssertEqual(timeline.value(at: t, sources: nil, track: track).bitPattern, timeline.value(at: t).bitPattern,
                               "\(name) at \(t)", file: file, line: line)
            }
        }
        let eased = TimingFunction.curve(TimingCurve(0.3, 0.1, 0.2, 1))
        // A file's keyframe segments: the first filling both ways, the rest forwards, one of them a hold.
        assertTrack(line(basic(0, 4, duration: 1, beginTime: 0.5, function: eased, fillMode: .both),
                         basic(4, 4, duration: 0.75, beginTime: 1.5, fillMode: .forwards),
                         basic(4, -3, duration: 2, beginTime: 2.25, function: eased, fillMode: .forwards),
                         basic(-3, 9, duration: 1, beginTime: 4.25, fillMode: .forwards)), halves: true, "segments")
        // Gaps where the model value shows (nothing fills), segments that meet and overlap, repeats and reversals.
        assertTrack(line(basic(1, 2, duration: 1, beginTime: 1), basic(5, 6, duration: 1, beginTime: 3, repeatCount: 2.5, autoreverses: true),
                         basic(7, 8, duration: 2, beginTime: 3.5, fillMode: .forwards), basic(0, 1, duration: 1, beginTime: 3.5)),
                    halves: true, "gaps")
        assertTrack(line(basic(1, 2, duration: 1, beginTime: 2, fillMode: .backwards), basic(2, 5, duration: 1, beginTime: 3.5)),
                    halves: true, "the first filling backwards")
        assertTrack(line(basic(1, 2, duration: 1, beginTime: 2, fillMode: .both)), halves: false, "one animation")
        assertTrack(.constant(3), halves: false, "constant")
        // What halving cannot pick: a later animation filling backwards, begin times out of order, other kinds.
        assertTrack(line(basic(0, 1, beginTime: 0), basic(2, 3, beginTime: 4, fillMode: .backwards)), halves: false, "backwards later")
        assertTrack(line(basic(0, 1, beginTime: 3), basic(2, 3, beginTime: 1, fillMode: .forwards)), halves: false, "out of order")
        assertTrack(Timeline(0, animations: [.keyframes(KeyframeAnimation(values: [0, 1, 5], timing: MediaTiming(duration: 2)))]),
                    halves: false, "keyframes")
        assertTrack(line(basic(0, 1, beginTime: -.infinity, repeatCount: .infinity)), halves: false, "always running")
    }

    // MARK: Begin time and fill modes

    /// 10 -> 20 over 2 s from t = 1, linear. Before 1 only a backwards fill
    /// shows `from`; from 3 on (the span is half-open) only a forwards fill
    /// holds `to`; otherwise the model value (-1) shows.
    func testBeginTimeWithEachFillMode() {
        let expected: [(FillMode, before: Double, after: Double)] = [
            (.removed, -1, -1), (.backwards, 10, -1), (.forwards, -1, 20), (.both, 10, 20),
        ]
        for (mode, before, after) in expected {
            let tl = line(basic(10, 20, beginTime: 1, fillMode: mode))
            XCTAssertEqual(tl.value(at: 0), before, "\(mode) before the begin time")
            XCTAssertEqual(tl.value(at: 0.999), before, "\(mode) just before the begin time")
            XCTAssertEqual(tl.value(at: 1), 10, accuracy: eps, "\(mode) at the begin time")
            XCTAssertEqual(tl.value(at: 1.5), 12.5, accuracy: eps, "\(mode) a quarter in")
            XCTAssertEqual(tl.value(at: 2.9), 19.5, accuracy: eps, "\(mode) near the end")
            XCTAssertEqual(tl.value(at: 3), after, "\(mode) at the end (span is [begin, begin + duration))")
            XCTAssertEqual(tl.value(at: 1e6), after, "\(mode) long after")
            XCTAssertEqual(tl.value(at: -1e6), before, "\(mode) long before")
        }
    }

    // MARK: Autoreverse and repeat

    /// Autoreverse plays the pass backwards with the same timing function
    /// (reflected time, then eased), so v(1 + x) = v(1 - x), and a whole
    /// number of autoreversed passes ends where it started.
    func testAutoreversePlaysTheSameCurveBackwards() {
        let f = TimingFunction.easeIn
        let tl = line(basic(10, 30, duration: 1, function: f, autoreverses: true, fillMode: .forwards))
        for x in [0.1, 0.25, 0.5, 0.8] {
            XCTAssertEqual(tl.value(at: x), 10 + 20 * f.value(x), accuracy: eps)
            XCTAssertEqual(tl.value(at: 2 - x), 10 + 20 * f.value(x), accuracy: eps, "backwards pass at \(2 - x)")
            XCTAssertEqual(tl.value(at: 1 + x), tl.value(at: 1 - x), accuracy: eps)
        }
        XCTAssertNotEqual(tl.value(at: 0.25), 10 + 20 * 0.25, "the timing function applies")
        XCTAssertEqual(tl.value(at: 1), 30, accuracy: eps, "turns at `to`")
        XCTAssertEqual(tl.value(at: 2.5), 10, accuracy: eps, "filled forwards at `from` after going back")
        // Active duration = duration * repeatCount * 2.
        let timing = MediaTiming(duration: 1.5, repeatCount: 3, autoreverses: true)
        XCTAssertEqual(timing.activeDuration, 9)
    }

    func testWholeRepeatsRestartAndFillAtTheEnd() {
        let tl = line(basic(0, 100, duration: 1, repeatCount: 3, fillMode: .forwards))
        XCTAssertEqual(tl.value(at: 0.25), 25, accuracy: eps)
        XCTAssertEqual(tl.value(at: 1.25), 25, accuracy: eps)
        XCTAssertEqual(tl.value(at: 2.25), 25, accuracy: eps)
        XCTAssertEqual(tl.value(at: 2.99), 99, accuracy: 1e-6)
        XCTAssertEqual(tl.value(at: 3.5), 100, accuracy: eps, "forwards fill holds the end of the last pass")
        XCTAssertEqual(line(basic(0, 100, duration: 1, repeatCount: 3)).value(at: 3.5), -1, "removed after 3 passes")
        // repeatCount 0 counts as 1 (CA's default).
        XCTAssertEqual(line(basic(0, 100, duration: 1, repeatCount: 0)).value(at: 0.5), 50, accuracy: eps)
        XCTAssertEqual(line(basic(0, 100, duration: 1, repeatCount: 0)).value(at: 1.5), -1)
    }

    /// repeatCount 2.5: the last pass stops half-way, and a forwards fill
    /// holds that half-way value, not `to`.
    func testFractionalRepeatStopsPartWayThroughThePass() {
        let removed = line(basic(0, 100, duration: 1, repeatCount: 2.5))
        XCTAssertEqual(removed.value(at: 2.25), 25, accuracy: eps)
        XCTAssertEqual(removed.value(at: 2.49), 49, accuracy: 1e-6)
        XCTAssertEqual(removed.value(at: 2.5), -1)
        let filled = line(basic(0, 100, duration: 1, repeatCount: 2.5, fillMode: .forwards))
        XCTAssertEqual(filled.value(at: 7), 50, accuracy: eps)
        // Autoreversing, a cycle is there and back: 1.25 cycles end half-way out,
        // 1.5 cycles end at `to`, 1.75 half-way back.
        for (count, end) in [(1.25, 50.0), (1.5, 100), (1.75, 50), (2, 0)] {
            let a = line(basic(0, 100, duration: 1, repeatCount: count, autoreverses: true, fillMode: .forwards))
            XCTAssertEqual(a.value(at: 10), end, accuracy: eps, "autoreversing, repeatCount \(count)")
        }
    }

    func testInfiniteRepeatNeverEnds() {
        let tl = line(basic(0, 100, duration: 2, repeatCount: .infinity))
        XCTAssertEqual(tl.value(at: 1), 50, accuracy: eps)
        XCTAssertEqual(tl.value(at: 2001), 50, accuracy: 1e-6)
        XCTAssertEqual(tl.value(at: 2000), 0, accuracy: eps, "each pass restarts at `from`")
        XCTAssertEqual(tl.nextChange(after: 123.4), 123.4, "continuous while it runs")
        let back = line(basic(0, 100, duration: 2, repeatCount: .infinity, autoreverses: true))
        XCTAssertEqual(back.value(at: 1003), 50, accuracy: 1e-6)
        XCTAssertEqual(back.value(at: 1002.5), 75, accuracy: 1e-6)
    }

    // MARK: Keyframes

    private func keyframes(_ values: [Double], keyTimes: [Double]? = nil, _ calc: KeyframeAnimation<Double>.Calculation,
                           duration: Double, repeatCount: Double = 1, fillMode: FillMode = .removed) -> Timeline<Double> {
        Timeline(-1, animations: [.keyframes(KeyframeAnimation(
            values: values, keyTimes: keyTimes, calculation: calc,
            timing: MediaTiming(duration: duration, repeatCount: repeatCount, fillMode: fillMode)))])
    }

    /// Discrete without key times: n values each held 1/n of the pass.
    func testDiscreteKeyframesWithoutKeyTimesAreHeldForEqualShares() {
        let tl = keyframes([1, 2, 3, 4], .discrete, duration: 4, fillMode: .forwards)
        let expected: [(Double, Double)] = [(0, 1), (0.5, 1), (0.999, 1), (1, 2), (1.999, 2), (2, 3), (3, 4), (3.999, 4), (9, 4)]
        for (t, v) in expected { XCTAssertEqual(tl.value(at: t), v, "t = \(t)") }
    }

    /// Discrete with key times: CA wants one more key time than values;
    /// value i is held over [keyTimes[i], keyTimes[i + 1]).
    func testDiscreteKeyframesWithKeyTimesHoldEachValueOverItsInterval() throws {
        let tl = keyframes([10, 20, 30], keyTimes: [0, 0.1, 0.5, 1], .discrete, duration: 10)
        let expected: [(Double, Double)] = [(0, 10), (0.99, 10), (1, 20), (4.99, 20), (5, 30), (9.99, 30), (10, -1)]
        for (t, v) in expected { XCTAssertEqual(tl.value(at: t), v, "t = \(t)") }
        // As many key times as values is a linear animation's rule, not a discrete one's: refused.
        var layer = Layer(name: "bad keys", frame: Rect(x: 0, y: 0, width: 1, height: 1))
        layer.position.x = keyframes([10, 20, 30], keyTimes: [0, 0.5, 1], .discrete, duration: 10)
        XCTAssertThrowsError(try LayerTreeEvaluator(root: layer, sources: DrivenSources([]))) { error in
            XCTAssertEqual((error as? LayerTreeError)?.layer, "bad keys")
        }
        layer.position.x = keyframes([10, 20, 30], keyTimes: [0, 0.1, 0.5, 1], .discrete, duration: 10)
        XCTAssertNoThrow(try LayerTreeEvaluator(root: layer, sources: DrivenSources([])))
    }

    func testLinearKeyframesInterpolateBetweenKeys() {
        let even = keyframes([0, 10, 30], .linear, duration: 2)
        XCTAssertEqual(even.value(at: 0), 0, accuracy: eps)
        XCTAssertEqual(even.value(at: 0.5), 5, accuracy: eps)
        XCTAssertEqual(even.value(at: 1), 10, accuracy: eps)
        XCTAssertEqual(even.value(at: 1.5), 20, accuracy: eps)
        XCTAssertEqual(even.value(at: 1.99), 29.8, accuracy: 1e-6)
        let timed = keyframes([0, 10, 30], keyTimes: [0, 0.25, 1], .linear, duration: 2)
        XCTAssertEqual(timed.value(at: 0.25), 5, accuracy: eps)
        XCTAssertEqual(timed.value(at: 0.5), 10, accuracy: eps)
        XCTAssertEqual(timed.value(at: 1.25), 20, accuracy: eps)
        // A first key time after 0 holds the first value until it.
        let late = keyframes([4, 8], keyTimes: [0.5, 1], .linear, duration: 2)
        XCTAssertEqual(late.value(at: 0.4), 4, accuracy: eps)
        XCTAssertEqual(late.value(at: 1.5), 6, accuracy: eps)
    }

    // MARK: Springs

    /// The damped oscillator written out here, for a unit displacement
    /// released with velocity v0 (independent of Spring.solution).
    private func oscillator(m: Double, k: Double, c: Double, v0: Double, t: Double) -> Double {
        let w0 = (k / m).squareRoot(), z = c / (2 * (k * m).squareRoot())
        if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            return exp(-z * w0 * t) * (cos(wd * t) + (v0 + z * w0) / wd * sin(wd * t))
        }
        if z == 1 { return exp(-w0 * t) * (1 + (v0 + w0) * t) }
        let r1 = -w0 * (z - (z * z - 1).squareRoot()), r2 = -w0 * (z + (z * z - 1).squareRoot())
        let c2 = (v0 - r1) / (r2 - r1)
        return (1 - c2) * exp(r1 * t) + c2 * exp(r2 * t)
    }

    func testSpringSolutionMatchesTheClosedFormInEveryRegime() {
        for (c, v0) in [(4.0, 0.0), (4.0, -3.0), (20.0, 0.0), (20.0, 2.0), (50.0, 0.0), (50.0, -7.0)] {
            let spring = Spring(mass: 1, stiffness: 100, damping: c) // c = 20 is critical
            for t in stride(from: 0.0, through: 2, by: 0.05) {
                XCTAssertEqual(spring.solution(x0: 1, v0: v0, at: t).x, oscillator(m: 1, k: 100, c: c, v0: v0, t: t),
                               accuracy: 1e-9, "damping \(c), v0 \(v0), t \(t)")
            }
        }
    }

    /// CASpringAnimation from 20 to 120: the closed form's progress, starting
    /// at `from` with the initial velocity (positive: towards `to`, in
    /// distances per second), overshooting while underdamped, settled near `to`
    /// at the settling duration, then (fill removed) the model value.
    func testSpringAnimationFollowsTheOscillatorFromFromToTo() {
        let spring = Spring(mass: 2, stiffness: 300, damping: 6)
        for v in [0.0, 4.0, -2.0] {
            let anim = SpringAnimation(from: 20.0, to: 120.0, spring: spring, initialVelocity: v, beginTime: 0.5)
            let tl = Timeline(-1, animations: [.spring(anim)])
            XCTAssertEqual(tl.value(at: 0.4), -1, "before the begin time, fill removed")
            XCTAssertEqual(tl.value(at: 0.5), 20, accuracy: 1e-9, "starts at from")
            let h = 1e-6
            XCTAssertEqual((tl.value(at: 0.5 + h) - tl.value(at: 0.5)) / h / 100, v, accuracy: 1e-3, "initial velocity")
            for s in [0.05, 0.2, 0.37, 0.8, 1.5] {
                let expected = 20 + 100 * (1 - oscillator(m: 2, k: 300, c: 6, v0: -v, t: s))
                XCTAssertEqual(tl.value(at: 0.5 + s), expected, accuracy: 1e-8, "v \(v), \(s) s in")
            }
            let duration = anim.timing.duration
            XCTAssertGreaterThan(duration, 1, "a lightly damped spring takes a while")
            XCTAssertEqual(tl.value(at: 0.5 + duration - 1e-6), 120, accuracy: 0.11, "settled within 0.1% of the distance")
            XCTAssertEqual(tl.value(at: 0.5 + duration + 0.01), -1, "removed after its duration")
        }
        let overshoot = Timeline(0, animations: [.spring(SpringAnimation(from: 0.0, to: 1.0, spring: spring))])
        XCTAssertGreaterThan(stride(from: 0.0, to: 1, by: 0.01).map { overshoot.value(at: $0) }.max()!, 1.3, "underdamped overshoots")
        // Duration and bounce: bounce 0 is critically damped, never passes `to`.
        let critical = Spring(duration: 0.5, bounce: 0)
        XCTAssertEqual(critical.dampingRatio, 1, accuracy: 1e-12)
        let still = Timeline(0, animations: [.spring(SpringAnimation(from: 0.0, to: 1.0, spring: critical, fillMode: .forwards))])
        for t in stride(from: 0.0, to: 3, by: 0.01) { XCTAssertLessThanOrEqual(still.value(at: t), 1 + 1e-12) }
        XCTAssertEqual(still.value(at: 100), 1, accuracy: 1e-3, "filled forwards near to")
    }

    // MARK: Timing functions

    /// The cubic Bézier (0,0) (x1,y1) (x2,y2) (1,1) solved here independently:
    /// the parameter for x = p bracketed on a dense grid of the curve, then
    /// refined by safeguarded Newton steps.
    private func solveBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at p: Double) -> Double {
        func coord(_ s: Double, _ a: Double, _ b: Double) -> Double {
            // Bernstein form: B1 a + B2 b + B3.
            let u = 1 - s
            return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
        }
        func slope(_ s: Double, _ a: Double, _ b: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * a + 6 * u * s * (b - a) + 3 * s * s * (1 - b)
        }
        let n = 4096
        var lo = 0.0, hi = 1.0
        for i in 0..<n {
            let s0 = Double(i) / Double(n), s1 = Double(i + 1) / Double(n)
            if coord(s0, x1, x2) <= p && p <= coord(s1, x1, x2) { lo = s0; hi = s1; break }
        }
        var s = lo + (hi - lo) * 0.5
        for _ in 0..<60 {
            let f = coord(s, x1, x2) - p
            if f > 0 { hi = s } else { lo = s }
            let d = slope(s, x1, x2)
            var next = d > 0 ? s - f / d : .nan
            if !(next > lo && next < hi) { next = 0.5 * (lo + hi) }
            s = next
        }
        return coord(s, y1, y2)
    }

    func testCubicBezierPresetsMatchANumericalSolve() {
        let presets: [(String, TimingFunction, (Double, Double, Double, Double))] = [
            ("easeIn", .easeIn, (0.42, 0, 1, 1)), ("easeOut", .easeOut, (0, 0, 0.58, 1)),
            ("easeInEaseOut", .easeInEaseOut, (0.42, 0, 0.58, 1)), ("default", .default, (0.25, 0.1, 0.25, 1)),
            ("custom", .curve(TimingCurve(0.7, -0.4, 0.2, 1.5)), (0.7, -0.4, 0.2, 1.5)),
        ]
        for (name, f, c) in presets {
            XCTAssertEqual(f.value(0), 0, accuracy: 1e-7, name)
            XCTAssertEqual(f.value(1), 1, accuracy: 1e-7, name)
            for i in 1..<100 {
                let p = Double(i) / 100
                XCTAssertEqual(f.value(p), solveBezier(c.0, c.1, c.2, c.3, at: p), accuracy: 1e-6, "\(name) at \(p)")
            }
        }
        // Symmetric ease-in-ease-out passes through the middle; ease-in lags, ease-out leads.
        XCTAssertEqual(TimingFunction.easeInEaseOut.value(0.5), 0.5, accuracy: 1e-7)
        XCTAssertLessThan(TimingFunction.easeIn.value(0.3), 0.3)
        XCTAssertGreaterThan(TimingFunction.easeOut.value(0.3), 0.3)
        // Through a basic animation: eased progress of elapsed / duration.
        let tl = line(basic(100, 300, duration: 4, beginTime: 1, function: .easeOut))
        XCTAssertEqual(tl.value(at: 2.2), 100 + 200 * solveBezier(0, 0, 0.58, 1, at: 0.3), accuracy: 1e-4)
    }

    /// Bounce-out: four parabolas that touch 1 at 4/11, 8/11 and 9/10
    /// (continuous there), 0 at 0, 1 at 1, never above 1.
    func testBounceOutIsContinuousAtItsPieceBoundaries() {
        let f = TimingFunction.bounceOut
        XCTAssertEqual(f.value(0), 0, accuracy: 1e-12)
        XCTAssertEqual(f.value(1), 1, accuracy: 1e-12)
        for b in [4.0 / 11, 8.0 / 11, 9.0 / 10] {
            let left = TimingFunction.bounceOut(b.nextDown), right = TimingFunction.bounceOut(b)
            XCTAssertEqual(left, 1, accuracy: 1e-9, "left of \(b)")
            XCTAssertEqual(right, 1, accuracy: 1e-9, "right of \(b)")
        }
        // The first piece is the fall 121 t^2 / 16; each bounce is lower than the last.
        XCTAssertEqual(f.value(0.2), 121 * 0.04 / 16, accuracy: 1e-12)
        let lows = [(4.0 / 11, 8.0 / 11), (8.0 / 11, 0.9), (0.9, 1.0)].map { range in
            stride(from: range.0, through: range.1, by: 1e-4).map { f.value($0) }.min()!
        }
        XCTAssertLessThan(lows[0], lows[1])
        XCTAssertLessThan(lows[1], lows[2])
        for i in 0...1000 { XCTAssertLessThanOrEqual(f.value(Double(i) / 1000), 1 + 1e-12) }
        XCTAssertEqual(f.value(-0.5), 0, "clamped")
        XCTAssertEqual(f.value(1.5), 1, accuracy: 1e-12, "clamped")
    }

    // MARK: Layer timing

    /// A parent layer with its own timing and a child whose x runs 0 -> 300
    /// over 3 s: the child's item shows the parent's local time.
    private func childX(parentTiming: MediaTiming, at t: Double) throws -> Double {
        var child = Layer(name: "child", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: .box(Box(color: RGBA8(255, 0, 0))))
        child.position.x = line(basic(0, 300, duration: 3, fillMode: .both))
        var parent = Layer(name: "parent", frame: Rect(x: 0, y: 0, width: 400, height: 100), sublayers: [child])
        parent.timing = parentTiming
        let ev = try LayerTreeEvaluator(root: parent, sources: DrivenSources([]))
        let list = ev.presentation(at: t)
        XCTAssertEqual(list.items.count, 1)
        return (list.items.first?.transform.tx ?? .nan) + 5 // the box's centre
    }

    func testAPausedLayerHoldsItsTimeOffset() throws {
        var paused = MediaTiming.passThrough
        paused.speed = 0
        paused.timeOffset = 1.5
        for t in [0.0, 0.7, 5, 100] { XCTAssertEqual(try childX(parentTiming: paused, at: t), 150, accuracy: 1e-9, "t = \(t)") }
        XCTAssertEqual(paused.localTime(42), 1.5)
        var root = Layer(frame: Rect(x: 0, y: 0, width: 400, height: 100))
        var child = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: .box(Box(color: RGBA8(255, 0, 0))))
        child.position.x = line(basic(0, 300, duration: 3, repeatCount: .infinity))
        root.sublayers = [child]
        root.timing = paused
        XCTAssertNil(try LayerTreeEvaluator(root: root, sources: DrivenSources([])).nextChange(after: 1), "a paused scene is still")
    }

    func testALayersBeginTimeAndSpeedShiftItsSublayersTime() throws {
        var later = MediaTiming.passThrough
        later.beginTime = 2
        XCTAssertEqual(try childX(parentTiming: later, at: 3), 100, accuracy: 1e-9)
        XCTAssertEqual(try childX(parentTiming: later, at: 4.5), 250, accuracy: 1e-9)
        XCTAssertEqual(try childX(parentTiming: later, at: 1), 0, accuracy: 1e-9, "before its begin time the layer's time is 0")
        var fast = MediaTiming.passThrough
        fast.speed = 2
        XCTAssertEqual(try childX(parentTiming: fast, at: 1), 200, accuracy: 1e-9)
        var offset = MediaTiming.passThrough
        offset.timeOffset = 0.5
        XCTAssertEqual(try childX(parentTiming: offset, at: 1), 150, accuracy: 1e-9)
        // (parent - beginTime) * speed + timeOffset.
        XCTAssertEqual(MediaTiming(beginTime: 2, duration: 10, speed: 3, timeOffset: 0.25).localTime(4), 6.25)
    }

    // MARK: Stacking

    /// The last animation added that is in effect wins; when it is removed
    /// (its span over, fill removed) a lower one filling forwards shows.
    func testTheTopmostAnimationInEffectWins() {
        let lower = basic(0, 10, duration: 1, fillMode: .forwards)
        let upper = basic(100, 200, duration: 2, beginTime: 0.5)
        let tl = line(lower, upper)
        XCTAssertEqual(tl.value(at: 0.25), 2.5, accuracy: eps, "upper not begun: lower shows")
        XCTAssertEqual(tl.value(at: 1), 125, accuracy: eps)
        XCTAssertEqual(tl.value(at: 2), 175, accuracy: eps, "upper on top of lower's fill")
        XCTAssertEqual(tl.value(at: 2.5), 10, accuracy: eps, "upper removed: lower's forwards fill")
        XCTAssertEqual(tl.nextChange(after: 0.25), 0.25)
        XCTAssertEqual(tl.nextChange(after: 2.5), nil)
        XCTAssertEqual(line(upper, lower).value(at: 1), 10, accuracy: eps, "order decides, not begin time")
        // A lower animation still running shows again, continuing its own clock.
        let long = basic(0, 40, duration: 4)
        XCTAssertEqual(line(long, upper).value(at: 3), 30, accuracy: eps)
        // Upper due later: the next change is its begin time, even though the lower is filling.
        XCTAssertEqual(line(basic(0, 10, duration: 1, fillMode: .forwards), basic(5, 6, duration: 1, beginTime: 7)).nextChange(after: 2), 7)
    }

    // MARK: Driven values

    func testDrivenValuesReadTheirSourceAtTheTime() {
        let sources = DrivenSources([.constant(0.4), .envelope(LevelEnvelope(rate: 10, values: [0, 1, 0.5]))])
        let plain = Timeline(0, animations: [.driven(Driven(source: 0, from: 10, to: 20))])
        XCTAssertEqual(plain.value(at: 3, sources: sources), 14, accuracy: eps)
        XCTAssertNil(plain.nextChange(after: 3, sources: sources), "a constant source never changes")
        let mapped = Timeline(0, animations: [.driven(Driven(source: 0, from: 10, to: 20, gain: 2, bias: -0.5, lower: 0, upper: 1))])
        XCTAssertEqual(mapped.value(at: 3, sources: sources), 13, accuracy: eps)
        let clamped = Timeline(0, animations: [.driven(Driven(source: 0, from: 10, to: 20, gain: 5, lower: 0, upper: 1))])
        XCTAssertEqual(clamped.value(at: 3, sources: sources), 20, accuracy: eps)
        let envelope = Timeline(0, animations: [.driven(Driven(source: 1, from: 0, to: 100))])
        XCTAssertEqual(envelope.value(at: 0.05, sources: sources), 50, accuracy: eps)
        XCTAssertEqual(envelope.value(at: 0.15, sources: sources), 75, accuracy: eps)
        XCTAssertEqual(envelope.value(at: 5, sources: sources), 50, accuracy: eps)
        XCTAssertEqual(envelope.nextChange(after: 0.05, sources: sources), 0.05, "an envelope may change at any time")
        // A driven animation is always in effect: it hides animations below it.
        let stacked = Timeline(0, animations: [basic(0, 1, duration: 10), .driven(Driven(source: 0, from: 10, to: 20))])
        XCTAssertEqual(stacked.value(at: 5, sources: sources), 14, accuracy: eps)
    }

    private func envelopeValues() -> [Double] { (0..<100).map { 0.5 + 0.5 * sin(Double($0) * 0.37) } }

    /// Copy k of a replicator reads its driven source k * instanceDelay in the past.
    private func replicatedDrivenX(sources: DrivenSources, at times: [Double]) throws -> [[Double]] {
        var dot = Layer(name: "dot", frame: Rect(x: 0, y: 0, width: 2, height: 2), contents: .box(Box(color: RGBA8(255, 255, 255))))
        dot.position.x = Timeline(0, animations: [.driven(Driven(source: 0, from: 0, to: 1000))])
        var replicator = Layer(name: "replicator", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [dot])
        replicator.replicator = Replicator(count: 5, instanceDelay: 0.1)
        let ev = try LayerTreeEvaluator(root: replicator, sources: sources)
        var list = ev.makeList()
        return times.map { t in
            ev.evaluate(at: t, into: &list)
            return list.items.map { $0.transform.tx + 1 }
        }
    }

    func testAReplicatorsCopiesReadTheirSourceInThePast() throws {
        let envelope = LevelEnvelope(rate: 10, values: envelopeValues())
        let xs = try replicatedDrivenX(sources: DrivenSources([.envelope(envelope)]), at: [3.14])[0]
        XCTAssertEqual(xs.count, 5)
        for (k, x) in xs.enumerated() {
            XCTAssertEqual(x, 1000 * envelope.value(at: 3.14 - 0.1 * Double(k)), accuracy: 1e-9, "copy \(k)")
        }
        XCTAssertGreaterThan(Set(xs.map { ($0 * 1e6).rounded() }).count, 3, "the copies differ")
    }

    /// A live level is sampled once a frame into a history; copy k reads the
    /// sample k * delay ago. Evaluating the same frame again (a redraw, or a
    /// second backend drawing the same time) must not lose that history.
    func testALiveSourcesHistoryFeedsTheCopiesAndSurvivesARedraw() throws {
        let live = LiveLevel(start: 0, smoothing: LevelSmoothing(attack: 0, release: 0))
        let sources = DrivenSources([.live(live)])
        var dot = Layer(name: "dot", frame: Rect(x: 0, y: 0, width: 2, height: 2), contents: .box(Box(color: RGBA8(255, 255, 255))))
        dot.position.x = Timeline(0, animations: [.driven(Driven(source: 0, from: 0, to: 1000))])
        var replicator = Layer(name: "replicator", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [dot])
        replicator.replicator = Replicator(count: 4, instanceDelay: 0.1)
        let ev = try LayerTreeEvaluator(root: replicator, sources: sources)
        var list = ev.makeList()
        // Frames every 0.05 s; the level set to the frame's index / 100.
        for frame in 0...20 {
            live.set(Double(frame) / 100)
            ev.evaluate(at: Double(frame) * 0.05, into: &list)
        }
        let first = list.items.map { $0.transform.tx + 1 }
        XCTAssertEqual(first.count, 4)
        for (k, x) in first.enumerated() { XCTAssertEqual(x, 200 - 20 * Double(k), accuracy: 1e-6, "copy \(k) sees the frame 2k back") }
        ev.evaluate(at: 1.0, into: &list)
        XCTAssertEqual(list.items.map { $0.transform.tx + 1 }, first, "the same frame again")
    }

    // MARK: MediaTiming directly

    func testSimpleTimeFollowsCoreAnimationsFormula() {
        let t = MediaTiming(beginTime: 1, duration: 2, speed: 0.5, timeOffset: 0.25, repeatCount: 2, fillMode: .both)
        // local = (t - 1) * 0.5 + 0.25; active 4.
        XCTAssertEqual(t.simpleTime(at: 1), 0.25)
        XCTAssertEqual(t.simpleTime(at: 4), 1.75)
        XCTAssertEqual(t.simpleTime(at: 5)!, 0.25, accuracy: eps, "second pass")
        // Fills, without an offset: Core Animation plays an offset animation for its whole span, wrapping
        // round to the start (C D E A B); this model stops at the end of the pass instead, so that is not asserted.
        let plain = MediaTiming(beginTime: 1, duration: 2, speed: 0.5, repeatCount: 2, fillMode: .both)
        XCTAssertEqual(plain.simpleTime(at: 0), 0, "backwards fill before the begin time")
        XCTAssertEqual(plain.simpleTime(at: 100), 2, "forwards fill: the end of the last pass")
        XCTAssertEqual(plain.activeDuration, 4)
        XCTAssertNil(MediaTiming(beginTime: 1, duration: 2).simpleTime(at: 0.5))
    }
}

/// Core Animation's time offset on an animation: the whole span still plays,
/// starting part way through and wrapping round (frames C D E A B).
final class TimeOffsetTests: XCTestCase {
    func testAnOffsetAnimationWrapsRoundAndKeepsItsSpan() {
        let timing = MediaTiming(beginTime: 1, duration: 5, timeOffset: 2, fillMode: .both)
        XCTAssertEqual(timing.simpleTime(at: 1)!, 2, accuracy: 1e-12)
        XCTAssertEqual(timing.simpleTime(at: 3.5)!, 4.5, accuracy: 1e-12)
        XCTAssertEqual(timing.simpleTime(at: 4.5)!, 0.5, accuracy: 1e-12, "wrapped round to the start")
        XCTAssertEqual(timing.simpleTime(at: 5.9)!, 1.9, accuracy: 1e-12, "still running 4.9 s into a 5 s span")
        XCTAssertEqual(timing.simpleTime(at: 7)!, 2, accuracy: 1e-12, "holds the frame the span ended on")
        XCTAssertEqual(timing.simpleTime(at: 0)!, 2, accuracy: 1e-12, "holds the frame it starts on")
        XCTAssertEqual(timing.nextBoundary(after: 2), 6)
    }
}

/// Cumulative animations (CAPropertyAnimation.isCumulative): each pass
/// starts where the last ended, so a repeating pass is a motion that never
/// wraps, and one-pixel discrete steps are that motion snapped to pixels.
final class CumulativeTests: XCTestCase {
    func testACumulativeBasicAnimationKeepsGoing() {
        let travel = Timeline(0.0, animations: [.basic(BasicAnimation(from: 0, to: -50, duration: 1, repeatCount: .infinity,
                                                                      isCumulative: true))])
        for t in [0.0, 0.3, 1.0, 2.5, 1000.25] {
            XCTAssertEqual(travel.value(at: t), -50 * t, accuracy: 1e-9, "t = \(t)")
        }
        XCTAssertEqual(travel.value(at: -1), 0, "before the span: the model value")
        // Passes join for any from: 10 -> 20, then 20 -> 30.
        let joined = Timeline(0.0, animations: [.basic(BasicAnimation(from: 10, to: 20, duration: 1, repeatCount: .infinity,
                                                                      isCumulative: true))])
        XCTAssertEqual(joined.value(at: 1.5), 25, accuracy: 1e-12)
        // Three passes, then the forwards fill holds the end of the third.
        let three = Timeline(0.0, animations: [.basic(BasicAnimation(from: 0, to: 1, duration: 1, repeatCount: 3, fillMode: .forwards,
                                                                     isCumulative: true))])
        XCTAssertEqual(three.value(at: 2.5), 2.5, accuracy: 1e-12)
        XCTAssertEqual(three.value(at: 7), 3, accuracy: 1e-12)
        let plain = Timeline(0.0, animations: [.basic(BasicAnimation(from: 0, to: 1, duration: 1, repeatCount: 3))])
        XCTAssertEqual(plain.value(at: 2.5), 0.5, accuracy: 1e-12, "not cumulative: each pass starts again")
    }

    func testCumulativeDiscreteStepsAreATravelSnappedToWholePixels() {
        let pps = 50.0
        let snapped = Timeline(0.0, animations: [.keyframes(KeyframeAnimation(
            values: [0, -1], keyTimes: [0, 0.5, 1], calculation: .discrete,
            timing: MediaTiming(duration: 1 / pps, repeatCount: .infinity), isCumulative: true))])
        for t in stride(from: 0.0, to: 3, by: 0.0037) {
            // Exactly half way between two pixels either rounding is the time's rounding error.
            let x = pps * t
            if abs(x - x.rounded(.down) - 0.5) < 1e-9 { continue }
            XCTAssertEqual(snapped.value(at: t), -(pps * t + 0.5).rounded(.down), "t = \(t)")
        }
        // The picture changes every 1/pps s, half a pixel in, and not where one pass joins the next.
        XCTAssertEqual(snapped.nextChange(after: 0.001) ?? -1, 0.01, accuracy: 1e-12)
        XCTAssertEqual(snapped.nextChange(after: 0.0105) ?? -1, 0.03, accuracy: 1e-12)
        XCTAssertEqual(snapped.nextChange(after: 1.2345) ?? -1, 1.25, accuracy: 1e-9)
    }

    /// The values a cumulative timeline takes, exactly: the last of n passes
    /// is n - 1 steps on (a clip's reach and a band's period are read from it).
    func testTheRangeOfCumulativePassesEndsWithTheLastPass() {
        let steps = Timeline<Double>.steps(from: 0, by: -1, every: 0.1, count: 10)
        XCTAssertEqual(steps.valueRange, -10...0)
        XCTAssertEqual(steps.value(at: 5), -10, "held at the last step")
        let three = Timeline(0.0, animations: [.basic(BasicAnimation(from: 0, to: -5, duration: 1, repeatCount: 3, fillMode: .forwards,
                                                                     isCumulative: true))])
        XCTAssertEqual(three.valueRange, -15...0)
        // Started half a pass in, it ends half a pass further.
        let ahead = Timeline(0.0, animations: [.basic(BasicAnimation(
            from: 0, to: -5, timing: MediaTiming(duration: 1, timeOffset: 0.5, repeatCount: 3, fillMode: .forwards), isCumulative: true))])
        XCTAssertEqual(ahead.value(at: 10), -17.5, accuracy: 1e-12)
        XCTAssertLessThanOrEqual(ahead.valueRange?.lowerBound ?? 0, -17.5)
        XCTAssertNil(Timeline<Double>.steps(from: 0, by: 1, every: 0.1).valueRange, "forever: unbounded")
    }
}
