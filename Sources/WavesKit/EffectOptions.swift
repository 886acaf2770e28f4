import Foundation
import WaveCore
import WaveEffects

/// What every effect takes besides its parameters: its colours and how it
/// moves by fractions of a pixel (nil: the effect's own).
package struct EffectLook {
    package var color: RGBA8?
    package var background: RGBA8?
    /// Round motion to whole pixels (nil: the effect's own look: the waveform snaps).
    package var snap: Bool?
    package var subpixel: SubpixelMode?

    package init(color: RGBA8? = nil, background: RGBA8? = nil, snap: Bool? = nil, subpixel: SubpixelMode? = nil) {
        (self.color, self.background, self.snap, self.subpixel) = (color, background, snap, subpixel)
    }
}

/// An effect as a command names it: the effect, its look, and its declared
/// parameters as typed, which the effect's declarations read and check; the
/// inputs it names opened where it draws (`settings()`).
package struct EffectOptions {
    package var scene: EffectName = .sine
    /// The effect's declared parameters as typed, by name.
    package var given: [String: String] = [:]
    package var look = EffectLook()

    package init() {}

    /// The files the effect names, as given.
    package func inputs() throws -> EffectInputs { try declared(EffectInputs.parameters, defaults: EffectInputs()) }

    /// Refuses any of `names` given (`reason`: why this command fixes them).
    package func refuseGiven(_ names: [String], reason: String) throws {
        if let name = names.first(where: { given[$0] != nil }) {
            throw ValueError(option: "--" + name, value: given[name] ?? "", accepted: "nothing here: \(reason)")
        }
    }

    /// The frame loop's settings the effect takes, as given.
    package func frameLoop() throws -> FrameLoopSettings { try declared(FrameLoopSettings.parameters, defaults: FrameLoopSettings()) }

    /// Refuses a parameter given for a frame loop where there is none (`place`: "render", "a sweep"), but those in `allowing`.
    package func refuseLoopParameters(in place: String, allowing: [ParameterInfo.Scope]) throws {
        for info in Effects.named(scene)?.parameters ?? [] where given[info.name] != nil && info.scope != .scene && !allowing.contains(info.scope) {
            let commands = info.scope == .pacedLoop ? "waves demo or bench --preset pacing" : "waves demo or waves bench"
            throw ValueError(option: info.option, value: given[info.name] ?? "", accepted: "only with \(commands) (\(place) has no frame loop)")
        }
    }

    /// A declared model of the effect's (its table, its frame loop) with the values given, checked.
    package func declared<Model>(_ parameters: ParameterList<Model>, defaults: Model) throws -> Model {
        try parameters.applying(given, to: defaults)
    }

    /// Whether a count option (`--cells`, `--dots`, `--rows`, `--crates`) is a bench's list of counts to sweep.
    package var countsAreLists = false

    /// Whether motion snaps to whole pixels: as asked, else the effect's own look (the waveform's lesson snaps).
    package var snap: Bool { look.snap ?? Self.snapsByDefault(scene) }

    package static func snapsByDefault(_ effect: EffectName) -> Bool { effect == .waveform }
    /// The mode asked for, exact when none was.
    package var subpixel: SubpixelMode { look.subpixel ?? .exact }

    /// Says so on stderr when exact was asked for by name but the GL renderer filters instead.
    package func reportSubpixel(of renderer: Renderer) {
        guard look.subpixel == .exact, let notice = renderer.subpixelNotice else { return }
        printError("waves: \(notice)")
    }

    /// The effect's scene for `request`, validated against the contract.
    package func makeScene(_ request: SceneRequest) throws -> Scene {
        guard let effect = Effects.named(scene) else {
            throw ValueError(option: "--scene", value: scene.rawValue, accepted: Effects.names.joined(separator: ", "))
        }
        return try effect.scene(try settings(), request)
    }

    /// The request for a size: the effect's count from its option (0: the effect's standard count).
    package func request(width: Int, height: Int) -> SceneRequest {
        SceneRequest(width: width, height: height, count: askedCount ?? 0, snapsToPixel: snap)
    }

    package func makeScene(width: Int, height: Int) throws -> Scene { try makeScene(request(width: width, height: height)) }

    /// The count the effect's own option asks for, nil where none is given (or where it is a list).
    package var askedCount: Int? {
        guard !countsAreLists, let option = Effects.named(scene)?.count?.option else { return nil }
        return countText(option).flatMap { Int($0) }
    }

    /// The text of a count option (`--cells`, `--dots`, `--rows`, `--crates`), nil where it is not given or not one.
    package func countText(_ option: String) -> String? { given[String(option.dropFirst(2))] }

    /// What the options say of every effect, the inputs the chosen one needs
    /// opened (`openingInputs` false: none, for what does not draw).
    package func settings(openingInputs: Bool = true) throws -> EffectSettings {
        var settings = EffectSettings()
        settings.background = look.background ?? Scene.defaultBackground
        settings.color = look.color
        settings.given = given
        guard openingInputs else { return settings }
        // The inputs the effect names, opened.
        if takes("--outline") { settings.outline = Outline(width: 1, height: 1, path: try inputs().outlinePath()) }
        if takes("--audio") { settings.waveformSource = try inputs().waveformInput() }
        if takes("--level") { settings.level = try LevelOpener.open(declared(LevelInput.parameters, defaults: LevelInput())) }
        return settings
    }

    /// Checks that hold whatever the size: the effect's parameters, its
    /// count, and the inputs it names, read and parsed, so a bad input costs nothing.
    package func check() throws {
        if let needs = Effects.named(scene)?.needs, given[String(needs.dropFirst(2))] == nil {
            throw ValueError(option: needs, value: "(none)", accepted: "a file of SVG path data with --scene \(scene)")
        }
        try checkCount()
        try Effects.named(scene)?.checkGiven(given)
        // The inputs the effect names, opened (read and parsed).
        if takes("--outline") { _ = try inputs().outlinePath() }
        if takes("--audio") { try inputs().checkWaveformInput() }
        if takes("--level") { _ = try LevelOpener.open(declared(LevelInput.parameters, defaults: LevelInput())) }
    }

    /// The effect's count option (`--cells`, `--dots`, `--rows`, `--crates`), but in a bench's list, is one whole number in range.
    private func checkCount() throws {
        guard !countsAreLists, let count = Effects.named(scene)?.count, let text = countText(count.option) else { return }
        _ = try count.value(text)
    }

    /// The options with a folder of Lottie files given as `--file` naming
    /// its first file (the demo starts there; E steps through the rest).
    package var atFirstFileOfFolder: EffectOptions {
        guard scene == .lottie, let folder = given["file"], let first = LottieEffect.files(inFolder: folder)?.first else { return self }
        var options = self
        options.given["file"] = first
        return options
    }

    /// Whether the effect takes the option (its registry entry lists it).
    private func takes(_ option: String) -> Bool { Effects.named(scene)?.options.contains(option) ?? false }
}
