import Foundation
import WaveCore
import XCTest

/// Time-driven values: the level's smoothing is a function of time, not of
/// frames; timing curves and autoreversing animations follow Core Animation.
final class LevelAndTimingTests: XCTestCase {
    /// A step from 0 to 0.9 at time 0, smoothed at 60, 144 and 1000 steps a
    /// second: the same value at t = 0.5, and the closed form 0.9 (1 - e^(-t/attack)).
    func testSmoothingReachesTheSameValueAtTheSameTimeWhateverTheFrameRate() {
        let smoothing = LevelSmoothing(attack: 0.12, release: 0.4)
        func smoothed(fps: Int, until t: Double) -> Double {
            var level = 0.0
            for _ in 0..<Int((t * Double(fps)).rounded()) { level = smoothing.step(level, toward: 0.9, seconds: 1 / Double(fps)) }
            return level
        }
        let closed = 0.9 * (1 - exp(-0.5 / 0.12))
        for fps in [60, 144, 1000] { XCTAssertEqual(smoothed(fps: fps, until: 0.5), closed, accuracy: 1e-12, "\(fps) fps") }
        // Falling uses the release time.
        XCTAssertEqual(smoothing.step(0.8, toward: 0.2, seconds: 0.4), 0.2 + 0.6 * exp(-1), accuracy: 1e-12)
    }

    func testALiveLevelSmoothsByTimeBetweenQueriesAndNeverJumpsBack() {
        let live = LiveLevel(start: 0.1, smoothing: LevelSmoothing(attack: 0.2, release: 0.2))
        XCTAssertEqual(live.value(at: 3), 0.1)
        live.set(1.5) // clamped to 1
        XCTAssertEqual(live.value(at: 3.2), 1 - 0.9 * exp(-1), accuracy: 1e-12)
        // Time going backwards restarts the clock without a change.
        XCTAssertEqual(live.value(at: 0), 1 - 0.9 * exp(-1), accuracy: 1e-12)
        XCTAssertEqual(Level.live(live).value(at: .nan), Level.live(live).value(at: 0))
    }

    func testAnEnvelopeInterpolatesItsGridAndHoldsItsEnds() {
        let envelope = LevelEnvelope(rate: 10, values: [0, 1, 0.5])
        XCTAssertEqual(envelope.value(at: -1), 0)
        XCTAssertEqual(envelope.value(at: 0.05), 0.5, accuracy: 1e-12)
        XCTAssertEqual(envelope.value(at: 0.15), 0.75, accuracy: 1e-12)
        XCTAssertEqual(envelope.value(at: 9), 0.5)
        XCTAssertEqual(Level.constant(0.3).value(at: 1e300), 0.3)
    }

    /// Core Animation's curves: ends fixed, ease-out ahead of linear,
    /// ease-in-ease-out symmetric, against a dense search of the parameter.
    func testTimingCurvesMatchTheBezierTheyName() {
        func reference(_ c: TimingCurve, _ p: Double) -> Double {
            func b(_ s: Double, _ a: Double, _ d: Double) -> Double { 3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * d + s * s * s }
            let s = (0...100_000).map { Double($0) / 100_000 }.min { abs(b($0, c.x1, c.x2) - p) < abs(b($1, c.x1, c.x2) - p) }!
            return b(s, c.y1, c.y2)
        }
        for curve in [TimingCurve.easeOut, .easeIn, .easeInEaseOut, .linear] {
            XCTAssertEqual(curve.value(0), 0, accuracy: 1e-6)
            XCTAssertEqual(curve.value(1), 1, accuracy: 1e-6)
            for p in [0.1, 0.25, 0.5, 0.8] { XCTAssertEqual(curve.value(p), reference(curve, p), accuracy: 1e-4, "\(curve) at \(p)") }
        }
        XCTAssertGreaterThan(TimingCurve.easeOut.value(0.3), 0.4)
        XCTAssertEqual(TimingCurve.easeInEaseOut.value(0.5), 0.5, accuracy: 1e-6)
    }

    func testAnAutoreversingAnimationHoldsItsStartThenSwingsBackAndForth() {
        let a = Autoreversing(from: 1, to: 0.2, duration: 0.5, begin: 0.25, timing: .linear)
        XCTAssertEqual(a.value(at: 0), 1)
        XCTAssertEqual(a.value(at: 0.25), 1)
        XCTAssertEqual(a.value(at: 0.5), 0.6, accuracy: 1e-6)
        XCTAssertEqual(a.value(at: 0.75), 0.2, accuracy: 1e-6)
        XCTAssertEqual(a.value(at: 1.0), 0.6, accuracy: 1e-6)
        XCTAssertEqual(a.value(at: 1.25 + 100), 1, accuracy: 1e-6)
    }
}
