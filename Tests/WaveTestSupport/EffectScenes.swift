import WaveCore
import WaveEffects

/// Every registered effect as the command line draws it, for the tests that
/// loop over the registry: settings with the inputs effects need made up (a
/// swelling track, an outline travelling 20 px a second, given as its
/// `--speed`), and each effect's scene with its standard count, snapped to
/// whole pixels where it moves.
public enum EffectScenes {
    public static func settings() throws -> EffectSettings {
        var settings = EffectSettings()
        settings.waveformSource = SwellTrack()
        settings.outline = Outline(width: 1, height: 1, path: try PathData.parse("M 10 50 Q 40 -10 70 50 Z M 60 10 L 150 10 L 150 55 Z"))
        settings.given = ["speed": "20", "file": try everyEffectLottie()]
        return settings
    }

    nonisolated(unsafe) private static var lottiePath: String?

    /// The Lottie effect's file (`LottieFixtures.everyEffect`), written once.
    public static func everyEffectLottie() throws -> String {
        if let lottiePath { return lottiePath }
        let path = try LottieFixtures.write(LottieFixtures.everyEffect)
        lottiePath = path
        return path
    }

    /// The effect's scene at `width` x `height` with its standard count.
    public static func scene(_ effect: Effect, _ settings: EffectSettings, width: Int = 160, height: Int = 96) throws -> Scene {
        var request = SceneRequest(width: width, height: height, count: 0, snapsToPixel: true)
        request.count = effect.count?.standard(settings, request) ?? 1
        return try effect.scene(settings, request)
    }
}
