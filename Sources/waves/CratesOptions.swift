import ArgumentParser
import WaveCore
import WaveEffects

/// `--scene crates`: how many crates and which way gravity pulls (the
/// physics step is `--physics-step`, shared with the jelly's frame loop).
struct CratesOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "--scene crates: crates in all, the chapter's five first, then seeded ones (1 to \(Crates.maxCount); default 5).",
            transform: parseWhole("a whole number of crates from 1 to \(Crates.maxCount)"))
    var crates: Int?

    @Option(parsing: .unconditional, help: "--scene crates: gravity X,Y in pixels per second squared, y down (default 0,1000 in the chapter's 300x300 box, scaled to the frame).",
            transform: parseGravity)
    var gravity: Point?

    func check(scene: EffectName) throws {
        if let crates {
            try onlyWith(scene, option: "--crates", value: "\(crates)")
            guard (1...Crates.maxCount).contains(crates) else {
                throw UsageError(option: "--crates", value: "\(crates)", accepted: "a whole number of crates from 1 to \(Crates.maxCount)")
            }
        }
        if let gravity {
            try onlyWith(scene, option: "--gravity", value: "\(gravity.x),\(gravity.y)")
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
