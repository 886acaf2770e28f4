import ArgumentParser
import WaveCore
import WaveEffects

/// The crates: how many, which way gravity pulls, and the physics budget of
/// the frame loop (the physics step is `--physics-step`, shared with the
/// jelly's frame loop and the ball's fixed driver).
struct CratesOptions: ParsableArguments {
    @Option(help: "Crates in all, the chapter's five first, then seeded ones, 1 to \(Crates.maxCount); waves bench: the counts to sweep, a comma-separated list (default: 5; waves bench: 10,100,1000,5000).")
    var crates: String?

    @Option(parsing: .unconditional, help: "Gravity X,Y in pixels per second squared, y down (default: 0,1000 in the chapter's 300x300 box, scaled to the frame).",
            transform: parseGravity)
    var gravity: Point?

    @Option(name: .customLong("physics-budget"), parsing: .unconditional,
            help: "In waves demo or bench --preset pacing: the share of the simulated time physics may take (the chapter's 0.5); over it the step is made coarser (to 1/30 s at most), and frames longer than the refresh lower the frame rate to every 2nd or 3rd refresh (default: off).")
    var physicsBudget: Double?

    func check() throws {
        if let physicsBudget {
            guard PhysicsBudget.validShare(physicsBudget) else {
                throw UsageError(option: "--physics-budget", value: "\(physicsBudget)", accepted: "a share of the simulated time above 0 and at most 1 (the chapter's 0.5)")
            }
        }
        if let gravity {
            guard gravity.x.isFinite, gravity.y.isFinite, abs(gravity.x) <= 1e6, abs(gravity.y) <= 1e6 else {
                throw UsageError(option: "--gravity", value: "\(gravity.x),\(gravity.y)",
                                 accepted: "X,Y: two finite numbers of pixels per second squared, each at most 1000000 either way")
            }
        }
    }
}

/// X,Y: two numbers.
func parseGravity(_ text: String) throws -> Point {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2, let x = Double(parts[0].trimmingCharacters(in: .whitespaces)),
          let y = Double(parts[1].trimmingCharacters(in: .whitespaces)), x.isFinite, y.isFinite else {
        throw Expected(accepted: "X,Y: two finite numbers of pixels per second squared, y down (for example 0,1000)")
    }
    return Point(x, y)
}

extension CratesOptions {
    /// `--physics-budget` governs a frame loop: refused where there is none.
    func refuseBudget(where place: String) throws {
        if let physicsBudget {
            throw UsageError(option: "--physics-budget", value: "\(physicsBudget)", accepted: "only with waves demo or bench --preset pacing (\(place) has no frame loop to govern)")
        }
    }
}
