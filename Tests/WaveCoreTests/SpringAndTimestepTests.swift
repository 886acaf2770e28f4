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

    /// Spring.solution (what a spring timeline draws) against the
    /// independent closed form above, in each regime, over two seconds.
    func testTheSpringFollowsTheIndependentClosedForm() {
        for (name, spring) in regimes {
            var worst = 0.0
            var i = 0
            while i <= 2000 {
                let t = Double(i) / 1000
                let drawn = spring.solution(x0: -400, v0: 0, at: t).x
                worst = max(worst, abs(drawn - reference(spring.mass, spring.stiffness, spring.damping, x0: -400, t: t)))
                i += 1
            }
            XCTAssertLessThan(worst, 1e-9 * 400, name)
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
        let spring = Spring(duration: 0.8, bounce: 0.3)
        let move = Timeline(0.0, animations: [.spring(SpringAnimation(from: 0, to: 300, spring: spring, fillMode: .forwards))])
        var stepsPerFrame: [Int] = []
        for frame in 0..<240 {
            stepsPerFrame.append(clock.advance(by: frame == 30 ? 2.0 : 1.0 / 60))
            XCTAssert(move.value(at: clock.time).isFinite, "frame \(frame)")
            XCTAssertLessThan(clock.remainder, clock.step + 1e-12)
        }
        XCTAssertEqual(stepsPerFrame[30], 8, "the late frame is capped")
        XCTAssertEqual(stepsPerFrame.max(), 8)
        XCTAssert(stepsPerFrame[31...].allSatisfy { $0 <= 2 }, "no spiral: \(stepsPerFrame[31...])")
        XCTAssertEqual(clock.dropped, 2.0 - 8.0 / 120, accuracy: 1.0 / 120)
        // The simulation kept its own time: 240 frames of 1/60 plus 8 steps, not 2 s more.
        XCTAssertEqual(clock.time, 239.0 / 60 + 8.0 / 120, accuracy: 1.0 / 60)
        // Settled at the far end once the move is over.
        XCTAssertEqual(move.value(at: spring.settlingDuration() + 0.01), 300, accuracy: 300 * 0.001 + 1e-9, "within 0.1% of the distance")
        // A time that is not finite draws a held value, never NaN.
        XCTAssert(move.value(at: .nan).isFinite && move.value(at: .infinity).isFinite)
    }

    /// Known intervals at a 60 Hz display: 16.7 ms frames, one 40 ms gap
    /// (missed), one 5 ms pair (bunched), and a frame counter's drift.
    /// The physics budget (the chapter's remedy), as plain arithmetic:
    /// physics over its share makes the step coarser, twice at most; frames
    /// over their period lower the frame rate, to every 3rd refresh at most;
    /// within both it does nothing.
    func testThePhysicsBudgetCoarsensTheStepThenLowersTheFrameRate() {
        var budget = PhysicsBudget(share: 0.5)
        let period = 1.0 / 60
        var step = 1.0 / 120
        var remedies: [PhysicsBudget.Remedy] = []
        // Physics at 80% of the simulated time, frames of 40 ms; 2 steps a frame, 15 frames a window.
        for frame in 0..<200 {
            if let r = budget.frame(physics: 0.8 * 2 * step, simulated: 2 * step, work: 0.04, step: step, period: period,
                                    time: Double(frame) * 2 * step) {
                remedies.append(r)
                if case let .step(s) = r { step = s }
            }
        }
        XCTAssertEqual(remedies, [.step(1.0 / 60), .step(1.0 / 30), .frameInterval(2), .frameInterval(3)])
        XCTAssertEqual(budget.frameInterval, 3)
        XCTAssertEqual(budget.actions.count, 4)
        XCTAssertTrue(budget.actions[0].description.contains("1/60 s"), budget.actions[0].description)
        XCTAssertTrue(budget.actions[0].description.contains("80.0%"), budget.actions[0].description)
        XCTAssertTrue(budget.actions[2].description.contains("every 2nd refresh"), budget.actions[2].description)
        // Within budget: nothing.
        var easy = PhysicsBudget(share: 0.5)
        for frame in 0..<200 {
            XCTAssertNil(easy.frame(physics: 0.3 * step, simulated: step, work: 0.01, step: 1.0 / 120, period: period, time: Double(frame) * step))
        }
        XCTAssertFalse(PhysicsBudget.validShare(0))
        XCTAssertFalse(PhysicsBudget.validShare(1.5))
        XCTAssertFalse(PhysicsBudget.validShare(.nan))
        XCTAssertTrue(PhysicsBudget.validShare(0.5))
    }

    /// A coarser step carries on from the time stepped so far: no jump in time.
    func testTheFixedTimestepChangesStepWithoutAJump() {
        var clock = FixedTimestep(step: 1.0 / 120, maxSteps: 8)
        _ = clock.advance(by: 0.105)
        let before = clock.time
        clock.changeStep(to: 1.0 / 30)
        XCTAssertEqual(clock.time, before, accuracy: 1e-12)
        XCTAssertEqual(clock.advance(by: 0.03), 1, "one coarse step owed")
        XCTAssertEqual(clock.time, before + 0.03, accuracy: 1e-12)
        // Time slept on purpose is counted whole: nothing dropped, however long.
        let dropped = clock.dropped
        clock.catchUp(by: 2)
        XCTAssertEqual(clock.time, before + 2.03, accuracy: 1e-9)
        XCTAssertEqual(clock.dropped, dropped)
    }

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

    /// UIKit's animateWithDuration:d usingSpringWithDamping:zeta ends the
    /// move at d: its spring is mass 1 with the natural frequency at which the
    /// envelope |(zeta w0) / (w0 sqrt(1 - zeta^2))| e^(-zeta w0 d) (or, at
    /// zeta = 1, (1 + w0 d) e^(-w0 d)) is 0.001, found as UIKit finds it: 12
    /// Newton steps from 5 / d (here with a numerical derivative).
    func testUIKitsSpringEndsTheMoveAtItsDuration() {
        func uikitFrequency(_ d: Double, _ zeta: Double) -> Double {
            func f(_ w: Double) -> Double {
                zeta < 1 ? zeta / (1 - zeta * zeta).squareRoot() * exp(-zeta * w * d) - 0.001 : (1 + w * d) * exp(-w * d) - 0.001
            }
            var w = 5 / d
            for _ in 0..<12 {
                let h = 1e-6 * w
                w -= f(w) / ((f(w + h) - f(w - h)) / (2 * h))
            }
            return w
        }
        for (d, zeta) in [(1.0, 0.85), (1.0, 0.5), (0.5, 0.7), (2.0, 0.3), (0.3, 1.0), (1.0, 0.98)] {
            let spring = Spring(movingIn: d, dampingRatio: zeta)
            XCTAssertEqual(spring.naturalFrequency, uikitFrequency(d, zeta), accuracy: 1e-6 * uikitFrequency(d, zeta), "d \(d), zeta \(zeta)")
            XCTAssertEqual(spring.dampingRatio, zeta, accuracy: 1e-12)
            XCTAssertEqual(spring.mass, 1)
        }
        // The seed's spring: w0 8.68965 (k 75.51); progress at a quarter and half of its second, then done at 1 s.
        let seed = Spring(movingIn: 1, dampingRatio: 0.85)
        XCTAssertEqual(seed.naturalFrequency, 8.68965, accuracy: 1e-5)
        let animation = SpringAnimation(from: 0.0, to: 1.0, spring: seed, duration: 1)
        XCTAssertEqual(animation.progress(at: 0.25), 0.70295, accuracy: 1e-5)
        XCTAssertEqual(animation.progress(at: 0.5), 0.98612, accuracy: 1e-5)
        XCTAssertLessThan(abs(animation.progress(at: 1) - 1), 0.0011, "within 0.1% of the travel when the move ends")
        // The SwiftUI reading of "1 s" (the undamped period) was still 0.6% short at 1 s and settled at about 1.4 s.
        XCTAssertGreaterThan(abs(SpringAnimation(from: 0.0, to: 1.0, spring: Spring(duration: 1, bounce: 0.15)).progress(at: 1) - 1), 0.005)
        // A ratio near 0 still moves: at least one undamped period in d.
        XCTAssertGreaterThanOrEqual(Spring(movingIn: 1, dampingRatio: 0.001).naturalFrequency, 2 * Double.pi - 1e-9)
        // Overdamped (a bounce below 0): still at the target within 0.001 at d.
        let heavy = Spring(movingIn: 0.8, dampingRatio: 1.6)
        XCTAssertEqual(heavy.solution(x0: 1, v0: 0, at: 0.8).x, 0.001, accuracy: 1e-6)
    }
}
