import ArgumentParser
import Foundation
import WaveCore
import WaveEffects

/// The jelly's block and its spring (by duration and bounce, or by mass,
/// stiffness and damping), and the step of the fixed-timestep frame loop
/// that jelly, crates and ball share. See
/// docs/contract.md, "The jelly".

/// Seconds as a number or a fraction such as 1/120.
func parseSeconds(_ text: String) throws -> Double {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    if parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), b != 0 { return a / b }
    if parts.count == 1, let value = Double(text) { return value }
    throw Expected(accepted: "seconds as a number or a fraction, for example 1/120 or 0.008")
}

func parseBlockSize(_ text: String) throws -> (width: Double, height: Double) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w.isFinite, h.isFinite else {
        throw Expected(accepted: "WxH in pixels, for example 100x100")
    }
    return (w, h)
}

struct JellyOptions: ParsableArguments {
    @Option(name: .customLong("block-size"), help: "The block's WxH in pixels (default: half the scene's height wide, a quarter of it tall).",
            transform: parseBlockSize)
    var blockSize: (width: Double, height: Double)?

    @Option(name: .customLong("spring-duration"), parsing: .unconditional, help: "Seconds a move lasts, as UIKit's animateWithDuration: d usingSpringWithDamping: 1 - bounce defines it (the spring made as UIKit makes it: within 0.1% of the travel at d for the seed's damping; a very bouncy spring is still moving then, as in UIKit), with --bounce (default: 1, as the seed's animateWithDuration:1).")
    var springDuration: Double?

    @Option(parsing: .unconditional, help: "The spring's bounce, above -1 and below 1: 1 less UIKit's damping ratio, 0 critically damped, above 0 bouncy, below 0 overdamped (damping ratio 1 / (1 + bounce)) (default: 0.15, the seed's usingSpringWithDamping:0.85).")
    var bounce: Double?

    @Option(parsing: .unconditional, help: "The spring's mass, with --stiffness and --damping instead of a duration and bounce (default: 1).")
    var mass: Double?

    @Option(parsing: .unconditional, help: "The spring's stiffness (N/m), with --damping.")
    var stiffness: Double?

    @Option(parsing: .unconditional, help: "The spring's damping (N s/m), with --stiffness.")
    var damping: Double?

    @Option(parsing: .unconditional, help: "Seconds the block rests at each end (default: 0.3).")
    var rest: Double?

    /// The spring's options, checked (the block's size waits for the scene's).
    func check() throws {
        _ = try spring()
    }

    /// The spring the options describe: physical constants, or duration and bounce.
    func spring() throws -> Spring {
        let physical = mass != nil || stiffness != nil || damping != nil
        if physical {
            if let springDuration { throw UsageError(option: "--spring-duration", value: "\(springDuration)", accepted: "either a duration and bounce, or --stiffness and --damping (and --mass), not both") }
            if let bounce { throw UsageError(option: "--bounce", value: "\(bounce)", accepted: "either a duration and bounce, or --stiffness and --damping (and --mass), not both") }
            guard let stiffness, let damping else {
                throw UsageError(option: stiffness == nil ? "--stiffness" : "--damping", value: "(none)",
                                 accepted: "--stiffness and --damping together (with --mass, default 1)")
            }
            let m = mass ?? 1
            for (option, value, low) in [("--mass", m, 1e-6), ("--stiffness", stiffness, 1e-6), ("--damping", damping, 0.0)]
                where !(value.isFinite && value >= low && value <= 1e9) {
                throw UsageError(option: option, value: "\(value)", accepted: "a number from \(low == 0 ? "0" : "just above 0") to 1e9")
            }
            let spring = Spring(mass: m, stiffness: stiffness, damping: damping)
            guard spring.isValid else {
                throw UsageError(option: "--stiffness", value: "\(stiffness)", accepted: "a spring whose natural frequency sqrt(k/m) is at most 10000 rad/s")
            }
            return spring
        }
        let duration = springDuration ?? 1, bounce = self.bounce ?? 0.15
        guard duration.isFinite, duration >= 0.01, duration <= 60 else {
            throw UsageError(option: "--spring-duration", value: "\(duration)", accepted: "seconds from 0.01 to 60")
        }
        guard bounce.isFinite, bounce > -1, bounce < 1 else {
            throw UsageError(option: "--bounce", value: "\(bounce)", accepted: "a number above -1 and below 1")
        }
        let spring = Spring(movingIn: duration, dampingRatio: bounce >= 0 ? 1 - bounce : 1 / (1 + bounce))
        guard spring.isValid else {
            throw UsageError(option: "--spring-duration", value: "\(duration)",
                             accepted: "a duration long enough for --bounce \(bounce) (the spring it makes must stay under 10000 rad/s)")
        }
        return spring
    }

    /// How long a move lasts: the duration given (or 1 s), or, for a spring given by its constants, its settling time.
    var moveDuration: Double? { mass != nil || stiffness != nil || damping != nil ? nil : springDuration ?? 1 }

    /// The block and its spring (the size, colours and background come later).
    func template() throws -> Jelly {
        var effect = Jelly(width: 1, height: 1)
        effect.blockSize = blockSize.map { Size($0.width, $0.height) }
        effect.spring = try spring()
        effect.moveDuration = moveDuration
        effect.rest = rest ?? effect.rest
        return effect
    }
}

/// The fixed-timestep frame loop's step and its cap (jelly, crates, ball).
struct StepOptions: ParsableArguments {
    @Option(name: .customLong("physics-step"), help: "Seconds per step of the fixed-timestep frame loop (jelly: waves demo, bench --preset pacing; crates: each physics step, counted from time 0; ball --driver fixed: the fixed step), a number or a fraction (default: 1/120).",
            transform: parseSeconds)
    var physicsStep: Double?

    @Option(name: .customLong("max-steps"), parsing: .unconditional, help: "Physics steps a frame may run at most in waves demo or bench --preset pacing; the rest of a late frame's time is dropped.",
            transform: parseWhole("a whole number of steps from 1 to 1000"))
    var maxSteps: Int = 8

    func check() throws {
        guard (1...1000).contains(maxSteps) else {
            throw UsageError(option: "--max-steps", value: "\(maxSteps)", accepted: "a whole number of steps from 1 to 1000")
        }
        if let step = physicsStep, !(step.isFinite && step >= 1.0 / 10_000 && step <= 0.1) {
            throw UsageError(option: "--physics-step", value: "\(step)", accepted: "seconds from 0.0001 to 0.1 (for example 1/120)")
        }
    }

    /// `--max-steps` shapes a frame loop: refused where there is none.
    func refuseMaxSteps(where place: String) throws {
        if maxSteps != 8 {
            throw UsageError(option: "--max-steps", value: "\(maxSteps)", accepted: "only with waves demo or bench --preset pacing (\(place) has no frame loop to cap)")
        }
    }
}
