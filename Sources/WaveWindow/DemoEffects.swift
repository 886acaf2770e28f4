import Foundation
import WaveCore
import WaveEffects
import WavesKit

/// The registry's effects as the demo shows them: the one asked for first,
/// then those E cycles to.
extension DemoEffect {
    /// The effect asked for first, then the others E cycles to (the
    /// registry's, those whose input is given), each with the user's options
    /// and a count of its own.
    package static func cycle(_ wave: EffectOptions, halfWidth: Int) -> [DemoEffect] {
        let drawable = Effects.all.filter { effect in effect.needs.map { wave.given[String($0.dropFirst(2))] != nil } ?? true }
        let ordered = drawable.filter { $0.name == wave.scene } + drawable.filter { $0.name != wave.scene }
        // A folder of Lottie files is an effect a file, in name order, each named by its file.
        let entries = ordered.flatMap { effect -> [(Effect, String?)] in
            guard effect.name == .lottie, let folder = wave.given["file"], let files = LottieEffect.files(inFolder: folder) else { return [(effect, nil)] }
            return files.map { (effect, $0) }
        }
        return entries.map { effect, file in
            var options = wave
            options.scene = effect.name
            if let file { options.given["file"] = file }
            let settings = (try? options.settings(openingInputs: false)) ?? EffectSettings()
            let size = { (height: Int) in SceneRequest(width: halfWidth, height: height, count: 0, snapsToPixel: options.snap) }
            var count = 1
            if let c = effect.count {
                // --cells counts the effect asked for (sine cells or voice panels), not the other's.
                let asked = c.option == "--cells" && effect.name != wave.scene ? nil : options.askedCount
                count = asked ?? c.standard(settings, size(1))
            }
            let name = file.map { "\(effect.name.rawValue) \(($0 as NSString).lastPathComponent)" } ?? effect.name.rawValue
            return DemoEffect(name: name, countLabel: effect.count?.unit ?? "", count: count, states: effect.states,
                              maxCount: { height in effect.count?.limit(settings, size(height)) ?? 1 }) { try options.makeScene($0) }
        }
    }

    /// The effects E cycles through, from the registry: those that need an input only when it is given.
    package static var cycleText: String {
        Effects.all.map { effect in effect.needs.map { "\(effect.name.rawValue) when \($0) is given" } ?? effect.name.rawValue }
            .joined(separator: ", ")
    }
}
