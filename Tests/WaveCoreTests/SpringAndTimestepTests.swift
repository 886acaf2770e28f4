import Foundation
import WaveCore
import XCTest

/// The spring against the damped harmonic oscillator's closed form, the
/// fixed-timestep loop's cap (no death spiral), and the pacing statistics.
final class SpringAndTimestepTests: XCTestCase {
    /// An independent closed form: x(t) for x(0) = x0, x'(0) = 0, in each regime.
    private func reference(_ m: Double, _ k: Double, _ c: Double, x0: Double, t: Double) -> Double {
        let w0 = (k / m).squareRoot(), zeta = c / (2 * (k * m).squareRoot())
        if zeta < 1 - 1e-12 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return exp(-zeta * w0 * t) * (x0 * cos(wd * t) + zeta * w0 * x0 / wd * sin(wd * t))
        }
        if zeta > 1 + 1e-12 {
            let r = w0 * (zeta * zeta - 1).squareRoot(), r1 = -zeta * w0 + r, r2 = -zeta * w0 - r
            let c2 = -r1 * x0 / (r2 - r1)
            return (x0 - c2) * exp(r1 * t) + c2 * exp(r2 * t)
        }
        return (x0 + w0 * x0 * t) * exp(-w0 * t)
    }

    private let regimes: [(String, Spring)] = [
        ("underdamped", Spring(duration: 0.8, bounce: 0.3)),
        ("critical", Spring(duration: 0.6, bounce: 0)),
        ("overdamped", Spring(duration: 0.5, bounce: -0.5)),
    ]

    /// The block's drawn position against the closed form over a whole leg.
    /// Steps are exact (the step matrix is the closed form over one step),
    /// so at step times only rounding differs; between steps the drawn
    /// state is a straight line between the two steps, off by at most
    /// h^2/8 * max|x''| (the chord of a curve with curvature bound |x''|).
    func testTheIntegratorFollowsTheClosedFormWithinABoundFromTheStepSize() {
        for (name, spring) in regimes {
            let h = 1.0 / 120, distance = 400.0
            let block = SpringBlock(width: 50, height: 50, top: 10, from: 0, to: distance, spring: spring, step: h)
            let simulation = SpringBlock.Simulation(block)
            // max |x''| from the closed form on a fine grid: x'' = -(k x + c x') / m.
            var maxAcceleration = 0.0
            for i in 0...20_000 {
                let s = spring.solution(x0: -distance, v0: 0, at: Double(i) * 1e-4)
                maxAcceleration = max(maxAcceleration, abs(spring.stiffness * s.x + spring.damping * s.v) / spring.mass)
            }
            let bound = h * h / 8 * maxAcceleration + 1e-9 * distance
            var worstAtSteps = 0.0, worstBetween = 0.0
            // Within the first leg (the block then rests and goes back).
            let leg = Double(block.stepsPerLeg) * h
            for i in 0..<Int(min(1.5, leg) / h * 4) {
                let t = Double(i) * h / 4
                let drawn = simulation.pose(at: t).x
                let exact = distance + reference(spring.mass, spring.stiffness, spring.damping, x0: -distance, t: t)
                if i % 4 == 0 { worstAtSteps = max(worstAtSteps, abs(drawn - exact)) } else { worstBetween = max(worstBetween, abs(drawn - exact)) }
            }
            XCTAssertLessThan(worstAtSteps, 1e-8 * distance, "\(name): at step times")
            XCTAssertLessThanOrEqual(worstBetween, bound, "\(name): between steps (bound \(bound) px)")
            XCTAssertGreaterThan(worstBetween, 0, "\(name): interpolation is really used")
        }
    }

    func testDurationAndBounceConvertBothWaysExactly() {
        for bounce in [-0.8, -0.5, 0, 0.3, 0.9] {
            for duration in [0.2, 0.8, 3] {
                let spring = Spring(duration: duration, bounce: bounce, mass: 2)
                XCTAssertEqual(spring.duration, duration, accuracy: 1e-12 * duration)
                XCTAssertEqual(spring.bounce, bounce, accuracy: 1e-12)
                let back = Spring(duration: spring.duration, bounce: spring.bounce, mass: spring.mass)
                XCTAssertEqual(back.stiffness, spring.stiffness, accuracy: 1e-9 * spring.stiffness)
                XCTAssertEqual(back.damping, spring.damping, accuracy: 1e-9 * max(1, spring.damping))
            }
        }
        // The regimes: bounce above 0 underdamped, 0 critical, below 0 overdamped.
        XCTAssertLessThan(Spring(duration: 1, bounce: 0.3).dampingRatio, 1)
        XCTAssertEqual(Spring(duration: 1, bounce: 0).dampingRatio, 1, accuracy: 1e-12)
        XCTAssertGreaterThan(Spring(duration: 1, bounce: -0.3).dampingRatio, 1)
        // k = 4 pi^2 m / T^2 and c = 2 zeta sqrt(k m), zeta = 1 - bounce or 1 / (1 + bounce), as Flutter's
        // and SwiftUI's conversions define them.
        XCTAssertEqual(Spring(duration: 0.5, bounce: 0).stiffness, 4 * Double.pi * Double.pi / 0.25, accuracy: 1e-9)
        XCTAssertEqual(Spring(duration: 0.5, bounce: 0.3).damping, 4 * Double.pi * 0.7 / 0.5, accuracy: 1e-9)
        XCTAssertEqual(Spring(duration: 0.5, bounce: -0.5).damping, 4 * Double.pi * 2 / 0.5, accuracy: 1e-9)
    }

    /// A frame 2 s late runs at most max-steps steps and drops the rest;
    /// the frames after it run one or two steps again and the state stays
    /// finite and settles.
    func testALateFrameRunsAtMostMaxStepsAndTheAnimationRecovers() {
        var clock = FixedTimestep(step: 1.0 / 120, maxSteps: 8)
        let block = SpringBlock(width: 40, height: 40, top: 0, from: 0, to: 300, spring: Spring(duration: 0.8, bounce: 0.3))
        let simulation = SpringBlock.Simulation(block)
        var stepsPerFrame: [Int] = []
        for frame in 0..<240 {
            stepsPerFrame.append(clock.advance(by: frame == 30 ? 2.0 : 1.0 / 60))
            let pose = simulation.pose(at: clock.time)
            XCTAssert(pose.x.isFinite && pose.bulge.isFinite, "frame \(frame)")
            XCTAssertLessThan(clock.remainder, clock.step + 1e-12)
        }
        XCTAssertEqual(stepsPerFrame[30], 8, "the late frame is capped")
        XCTAssertEqual(stepsPerFrame.max(), 8)
        XCTAssert(stepsPerFrame[31...].allSatisfy { $0 <= 2 }, "no spiral: \(stepsPerFrame[31...])")
        XCTAssertEqual(clock.dropped, 2.0 - 8.0 / 120, accuracy: 1.0 / 120)
        // The simulation kept its own time: 240 frames of 1/60 plus 8 steps, not 2 s more.
        XCTAssertEqual(clock.time, 239.0 / 60 + 8.0 / 120, accuracy: 1.0 / 60)
        // Settled at the far end once the leg is over.
        let settled = simulation.pose(at: block.settlingTime + 0.01)
        XCTAssertEqual(settled.x, 300, accuracy: 0.05)
        // A time that is not finite draws the start, never NaN.
        XCTAssert(simulation.pose(at: .nan).x.isFinite && simulation.pose(at: .infinity).x.isFinite)
    }

    /// Known intervals at a 60 Hz display: 16.7 ms frames, one 40 ms gap
    /// (missed), one 5 ms pair (bunched), and a frame counter's drift.
    func testThePacingReportCountsMissedAndBunchedFrames() throws {
        let p = 1.0 / 60
        var times = [0.0]
        let gaps = [p, p, 0.040, 0.005, p, p, 0.026, p, 0.004, 0.030]
        for g in gaps { times.append(times.last! + g) }
        let stats = try XCTUnwrap(PacingStats(frameStarts: times, period: p))
        XCTAssertEqual(stats.frames, 11)
        XCTAssertEqual(stats.missed, 3, "40, 26 and 30 ms exceed 1.5 periods (25 ms)")
        XCTAssertEqual(stats.bunched, 2, "5 ms and 4 ms are under half a period")
        XCTAssertEqual(stats.intervalP50, p * 1000, accuracy: 1e-9)
        XCTAssertEqual(stats.intervalP99, 40, accuracy: 1e-9, "the slowest of 10 intervals")
        // The assume-1/60 error: the largest |n/60 - elapsed| over the frames, computed here by hand.
        var worst = 0.0
        for n in 1..<times.count { worst = max(worst, abs(Double(n) / 60 - (times[n] - times[0]))) }
        XCTAssertEqual(stats.assumedFrameError, worst * 1000, accuracy: 1e-9)
        XCTAssertEqual(stats.assumedFrameError, 23.333, accuracy: 1e-3, "the long frames put the count 23.3 ms behind at worst")
        // On a 120 Hz display frame counting still assumes 1/60.
        let fast = try XCTUnwrap(PacingStats(frameStarts: (0..<121).map { Double($0) / 120 }, period: 1.0 / 120))
        XCTAssertEqual(fast.missed, 0)
        XCTAssertEqual(fast.assumedFrameError, 1000, accuracy: 1e-6, "120 frames counted as 2 s in 1 s")
        XCTAssertNil(PacingStats(frameStarts: [1], period: p))
    }
}
