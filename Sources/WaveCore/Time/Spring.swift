import Foundation

/// A damped spring (mass m, stiffness k, damping c): x'' = -(k x + c x') / m,
/// x the displacement from the target. Set by the physical constants or by
/// the designer's duration and bounce, converted exactly both ways as
/// Flutter's `SpringDescription.withDurationAndBounce` and SwiftUI's
/// `Spring(duration:bounce:)` do: k = 4 pi^2 m / T^2, damping ratio
/// zeta = 1 - bounce for bounce >= 0 (0: critically damped, towards 1 more
/// bouncy) and 1 / (1 + bounce) for bounce < 0 (overdamped).
public struct Spring: Equatable, Hashable, Sendable {
    public var mass: Double
    public var stiffness: Double
    public var damping: Double

    public init(mass: Double = 1, stiffness: Double, damping: Double) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
    }

    /// `duration` seconds (the undamped period), `bounce` from -1 (exclusive) to 1 (exclusive).
    public init(duration: Double, bounce: Double, mass: Double = 1) {
        let k = 4 * Double.pi * Double.pi * mass / (duration * duration)
        let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        self.init(mass: mass, stiffness: k, damping: zeta * 2 * (mass * k).squareRoot())
    }

    /// UIKit's spring for `animateWithDuration:d usingSpringWithDamping:zeta
    /// initialSpringVelocity:0`, whose move ends at d: mass 1, and the
    /// natural frequency at which the motion's envelope has decayed to 0.001
    /// of the travel at d (UIKit's own epsilon, as its
    /// `parametersOfSpringAnimation` solves it by Newton's method from 5 / d;
    /// with no initial velocity the solution has a closed form):
    /// w0 = ln(zeta / (0.001 sqrt(1 - zeta^2))) / (zeta d) below critical,
    /// w0 d = 9.23341 at critical ((1 + u) e^-u = 0.001). UIKit holds zeta to
    /// at most 1; a ratio above 1 (overdamped) is kept here, its w0 the one
    /// at which the slower mode has decayed to 0.001 at d (found by
    /// bisection). For d = 1, zeta = 0.85: w0 = 8.68965, k = 75.51.
    /// UIKit's envelope term leaves a lightly damped spring still moving at
    /// d (about 0.001 / zeta of the travel: 1% at zeta 0.1), as it does in
    /// UIKit, which then snaps; w0 is held to at least one undamped period
    /// in d, so a ratio near 0 (where that term is below 0.001 from the
    /// start) still moves.
    public init(movingIn d: Double, dampingRatio zeta: Double) {
        let epsilon = 0.001
        var w0: Double
        if zeta < 1 {
            w0 = log(zeta / (epsilon * (1 - zeta * zeta).squareRoot())) / (zeta * d)
            if !(w0.isFinite && w0 >= 2 * Double.pi / d) { w0 = 2 * Double.pi / d }
        } else if zeta == 1 {
            w0 = 9.23341 / d
        } else {
            // Overdamped: the unit displacement x(d) falls as w0 grows; bisect for x(d) = epsilon.
            var low = 1e-6, high = 1e6
            for _ in 0..<200 {
                let mid = (low * high).squareRoot()
                let x = Spring(mass: 1, stiffness: mid * mid, damping: 2 * zeta * mid).solution(x0: 1, v0: 0, at: d).x
                if x > epsilon { low = mid } else { high = mid }
            }
            w0 = high
        }
        self.init(mass: 1, stiffness: w0 * w0, damping: 2 * zeta * w0)
    }

    /// The undamped angular frequency sqrt(k / m).
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    /// c / (2 sqrt(k m)): below 1 underdamped, 1 critical, above 1 overdamped.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }
    /// 2 pi sqrt(m / k).
    public var duration: Double { 2 * Double.pi / naturalFrequency }
    public var bounce: Double {
        let zeta = dampingRatio
        return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
    }

    public var isValid: Bool {
        [mass, stiffness, damping].allSatisfy { $0.isFinite } && mass > 0 && stiffness > 0 && damping >= 0
            && naturalFrequency.isFinite && naturalFrequency <= 10_000
    }

    /// The closed-form displacement and velocity t seconds after starting
    /// from displacement x0 and velocity v0 (the damped harmonic oscillator),
    /// in each of the three regimes.
    public func solution(x0: Double, v0: Double, at t: Double) -> (x: Double, v: Double) {
        let w0 = naturalFrequency, zeta = dampingRatio
        if abs(zeta - 1) < 1e-9 {
            // Critically damped: x = (x0 + (v0 + w0 x0) t) e^(-w0 t).
            let b = v0 + w0 * x0, e = exp(-w0 * t)
            return ((x0 + b * t) * e, (b - w0 * (x0 + b * t)) * e)
        }
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot(), s = zeta * w0
            let b = (v0 + s * x0) / wd, e = exp(-s * t)
            let c = cos(wd * t), n = sin(wd * t)
            let x = e * (x0 * c + b * n)
            let v = e * (-s * (x0 * c + b * n) + (-x0 * wd * n + b * wd * c))
            return (x, v)
        }
        // Overdamped: x = c1 e^(r1 t) + c2 e^(r2 t).
        // r1 from the product of the roots (w0^2): -zeta w0 + root would cancel for large zeta.
        let root = w0 * (zeta * zeta - 1).squareRoot()
        let r2 = -zeta * w0 - root, r1 = w0 * w0 / r2
        let c2 = (v0 - r1 * x0) / (r2 - r1), c1 = x0 - c2
        let e1 = exp(r1 * t), e2 = exp(r2 * t)
        return (c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2)
    }

    /// The exact step over h seconds as a matrix: (x, v) after h is
    /// (a x + b v, c x + d v). A linear spring's fixed step needs no
    /// approximation: stepping is exact up to rounding, whatever h.
    package func step(_ h: Double) -> SpringStep {
        let unitX = solution(x0: 1, v0: 0, at: h), unitV = solution(x0: 0, v0: 1, at: h)
        return SpringStep(a: unitX.x, b: unitV.x, c: unitX.v, d: unitV.v)
    }
}

/// One fixed step of a spring (see `Spring.step`).
package struct SpringStep: Equatable, Hashable, Sendable {
    package var a: Double, b: Double, c: Double, d: Double

    @inline(__always)
    package func apply(_ s: (x: Double, v: Double)) -> (x: Double, v: Double) {
        (a * s.x + b * s.v, c * s.x + d * s.v)
    }
}

/// The fixed-timestep loop ("Fix your timestep"): frame time accumulates;
/// the simulation steps `step` seconds at a time while a whole step is
/// owed, at most `maxSteps` per frame; the remainder carries to the next
/// frame and says how far between its last two steps the drawn state is.
/// A frame that owes more than `maxSteps` steps (a stall) runs `maxSteps`
/// and drops the rest: the animation falls behind the wall clock instead of
/// asking for ever more steps per frame (the death spiral).
package struct FixedTimestep: Equatable, Sendable {
    package private(set) var step: Double
    package let maxSteps: Int
    /// Seconds owed but not yet stepped (always below one step after a frame).
    package private(set) var remainder = 0.0
    /// Steps taken since the start.
    package private(set) var steps = 0
    /// Where the current step size began, and the steps of it since: the simulation is at
    /// `origin + stepsOfThisSize * step` seconds (a simulation's schedule computes it the same way).
    private var origin = 0.0, stepsOfThisSize = 0
    /// Seconds of frame time dropped by the cap.
    package private(set) var dropped = 0.0

    package init(step: Double = 1.0 / 120, maxSteps: Int = 8) {
        self.step = step
        self.maxSteps = maxSteps
    }

    /// Adds a frame's `seconds` (non-finite or negative counts as 0) and
    /// returns how many steps the frame runs (0 ... maxSteps).
    package mutating func advance(by seconds: Double) -> Int {
        remainder += seconds.isFinite && seconds > 0 ? seconds : 0
        var taken = Int((remainder / step).rounded(.down))
        if taken > maxSteps {
            taken = maxSteps
            let owed = remainder - Double(maxSteps) * step
            let kept = owed.truncatingRemainder(dividingBy: step)
            dropped += owed - kept
            remainder = Double(maxSteps) * step + kept
        }
        remainder -= Double(taken) * step
        if remainder < 0 { remainder = 0 }
        steps += taken
        stepsOfThisSize += taken
        return taken
    }

    /// Adds time a loop slept on purpose (nothing on screen could change):
    /// every step owed is counted, none dropped, since nothing is late.
    package mutating func catchUp(by seconds: Double) {
        remainder += seconds.isFinite && seconds > 0 ? seconds : 0
        let taken = Int((remainder / step).rounded(.down))
        remainder -= Double(taken) * step
        if remainder < 0 { remainder = 0 }
        steps += taken
        stepsOfThisSize += taken
    }

    /// The time the steps have reached.
    package var stepped: Double { origin + Double(stepsOfThisSize) * step }

    /// The simulation's time including the remainder: what to draw.
    package var time: Double { stepped + remainder }

    /// Steps of `newStep` seconds from `stepped` on (the physics budget's coarser step).
    package mutating func changeStep(to newStep: Double) {
        guard newStep > 0, newStep.isFinite else { return }
        origin = stepped
        stepsOfThisSize = 0
        step = newStep
    }
}
