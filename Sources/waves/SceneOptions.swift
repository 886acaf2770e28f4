import ArgumentParser
import Foundation
import WaveAudio
import WaveCore
import WaveEffects
import WaveGL

/// The options that pick and shape an effect, shared by every command, and
/// the parsers that turn option text into values with messages that say what
/// is accepted.

extension BackendChoice: ExpressibleByArgument {}
extension Direction: ExpressibleByArgument {}
extension EffectName: ExpressibleByArgument {
    public init?(argument: String) {
        guard Effects.named(EffectName(rawValue: argument)) != nil else { return nil }
        self.init(rawValue: argument)
    }

    public static var allValueStrings: [String] { Effects.names }
    public var defaultValueDescription: String { rawValue }
}

/// Whether the scene takes the option (its registry entry lists it).
func takes(_ scene: EffectName, _ option: String) -> Bool { Effects.named(scene)?.options.contains(option) ?? false }
extension SplitMethod: ExpressibleByArgument {}
extension SubpixelMode: ExpressibleByArgument {}

/// Pixel size as WxH, parsed with a message that says what is accepted.
struct PixelSize: ExpressibleByArgument, CustomStringConvertible {
    let width: Int
    let height: Int

    init(width: Int, height: Int) { self.width = width; self.height = height }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        self.init(width: w, height: h)
    }

    var description: String { "\(width)x\(height)" }

    /// Both sides whole numbers from 1 to `limit`.
    func validated(option: String = "--size", limit: Int = Scene.maxRenderDimension) throws -> PixelSize {
        guard (1...limit).contains(width), (1...limit).contains(height) else {
            throw ValueError(option: option, value: description,
                             accepted: "WxH with each side a whole number from 1 to \(limit)")
        }
        return self
    }
}

/// Parses a size option, turning ArgumentParser's "invalid value" into our message.
/// ArgumentParser prefixes this with the option and the value.
struct Expected: Error, CustomStringConvertible {
    let accepted: String
    var description: String { "expected \(accepted)" }
}

func parseSize(_ text: String) throws -> PixelSize {
    guard let size = PixelSize(argument: text) else {
        throw Expected(accepted: "WxH with each side a whole number from 1 to \(Scene.maxRenderDimension), for example 800x200")
    }
    return size
}

func parseWhole(_ accepted: String) -> (String) throws -> Int {
    { text in
        guard let value = Int(text) else { throw Expected(accepted: accepted) }
        return value
    }
}

func parseColor(_ text: String) throws -> RGBA8 {
    guard let color = RGBA8(hex: text) else { throw Expected(accepted: "a colour as #RRGGBB or #RRGGBBAA") }
    return color
}

/// What every effect takes: its colours and how it moves by fractions of a pixel.
struct LookOptions: ParsableArguments {
    @Option(help: "Fill colour, #RRGGBB or #RRGGBBAA (default: the effect's own; #3A9BFF for waves, #FFFFFF for dots and voice, which dots multiply by their tint).", transform: parseColor)
    var color: RGBA8?

    @Option(help: "Background colour, #RRGGBB or #RRGGBBAA (default: #10182A).", transform: parseColor)
    var background: RGBA8?

    @Flag(name: .customLong("snap"), inversion: .prefixedNo,
          help: "Round the offset to whole pixels (removes amplitude phasing; slow motion steps) (default: on for the waveform, as the lesson's discrete keyframes step it one device pixel at a time; off for the others).")
    var snapChoice: Bool?

    @Option(name: .customLong("subpixel"), help: "How the GL backend moves cached curves by fractions of a pixel: exact (pictures pre-rasterised at 16 sub-pixel phases, the nearest shown at a whole-pixel offset: the CPU's pixels, no blur; on a software GL driver, sine cells are painted per phase and copied by whole pixels, no shader pass) or linear (bilinear filtering in a shader: a steep edge blurs at half-pixel offsets). A layer tree's cached shapes (waveform bars, an outline) get the same phases where they are only translated; pictures, and turned or scaled shapes, are filtered. (default: exact)")
    var subpixelChoice: SubpixelMode?

    /// The mode asked for, exact when none was.
    var subpixel: SubpixelMode { subpixelChoice ?? .exact }

    /// Says so on stderr when exact was asked for by name but the GL renderer filters instead.
    func reportSubpixel(of renderer: Renderer) {
        guard subpixelChoice == .exact, let notice = renderer.subpixelNotice else { return }
        printError("waves: \(notice)")
    }
}

/// Every option that picks and shapes an effect: the effect, its look, and
/// its declared parameters as given (`DeclaredOptions`), which the effect's
/// declarations read and check.
struct EffectOptions {
    var scene: EffectName = .sine
    /// The effect's declared parameters as typed, by name.
    var given: [String: String] = [:]
    var look = Self.standardLook

    /// The look with nothing given, parsed once (an unparsed group's options cannot be read).
    nonisolated(unsafe) private static let standardLook = (try? LookOptions.parse([])) ?? LookOptions()

    /// The files the effect names, as given.
    func inputs() throws -> EffectInputs { try declared(EffectInputs.parameters, defaults: EffectInputs()) }

    /// Refuses any of `names` given (`reason`: why this command fixes them).
    func refuseGiven(_ names: [String], reason: String) throws {
        if let name = names.first(where: { given[$0] != nil }) {
            throw ValueError(option: "--" + name, value: given[name] ?? "", accepted: "nothing here: \(reason)")
        }
    }

    /// The frame loop's settings the effect takes, as given.
    func frameLoop() throws -> FrameLoopSettings { try declared(FrameLoopSettings.parameters, defaults: FrameLoopSettings()) }

    /// Refuses a parameter given for a frame loop where there is none (`place`: "render", "a sweep"), but those in `allowing`.
    func refuseLoopParameters(in place: String, allowing: [ParameterInfo.Scope]) throws {
        for info in Effects.named(scene)?.parameters ?? [] where given[info.name] != nil && info.scope != .scene && !allowing.contains(info.scope) {
            let commands = info.scope == .pacedLoop ? "waves demo or bench --preset pacing" : "waves demo or waves bench"
            throw ValueError(option: info.option, value: given[info.name] ?? "", accepted: "only with \(commands) (\(place) has no frame loop)")
        }
    }

    /// A declared model of the effect's (its table, its frame loop) with the values given, checked.
    func declared<Model>(_ parameters: ParameterList<Model>, defaults: Model) throws -> Model {
        try parameters.applying(given, to: defaults)
    }

    /// Whether a count option (`--cells`, `--dots`, `--rows`, `--crates`) is a bench's list of counts to sweep.
    var countsAreLists = false

    /// Whether motion snaps to whole pixels: as asked, else the effect's own look (the waveform's lesson snaps).
    var snap: Bool { look.snapChoice ?? Self.snapsByDefault(scene) }

    static func snapsByDefault(_ effect: EffectName) -> Bool { effect == .waveform }
    var subpixel: SubpixelMode { look.subpixel }

    func reportSubpixel(of renderer: Renderer) { look.reportSubpixel(of: renderer) }

    /// The effect's scene for `request`, validated against the contract.
    func makeScene(_ request: SceneRequest) throws -> Scene {
        guard let effect = Effects.named(scene) else {
            throw ValueError(option: "--scene", value: scene.rawValue, accepted: Effects.names.joined(separator: ", "))
        }
        return try effect.scene(try settings(), request)
    }

    /// The request for a size: the effect's count from its option (0: the effect's standard count).
    func request(width: Int, height: Int) -> SceneRequest {
        SceneRequest(width: width, height: height, count: askedCount ?? 0, snapsToPixel: snap)
    }

    func makeScene(width: Int, height: Int) throws -> Scene { try makeScene(request(width: width, height: height)) }

    /// The count the effect's own option asks for, nil where none is given (or where it is a list).
    var askedCount: Int? {
        guard !countsAreLists, let option = Effects.named(scene)?.count?.option else { return nil }
        return countText(option).flatMap { Int($0) }
    }

    /// The text of a count option (`--cells`, `--dots`, `--rows`, `--crates`), nil where it is not given or not one.
    func countText(_ option: String) -> String? { given[String(option.dropFirst(2))] }

    /// What the options say of every effect, the inputs the chosen one needs
    /// opened (`openingInputs` false: none, for what does not draw).
    func settings(openingInputs: Bool = true) throws -> EffectSettings {
        var settings = EffectSettings()
        settings.background = look.background ?? Scene.defaultBackground
        settings.color = look.color
        settings.given = given
        guard openingInputs else { return settings }
        // The inputs the effect names, opened.
        if takes(scene, "--outline") { settings.outline = Outline(width: 1, height: 1, path: try inputs().outlinePath()) }
        if takes(scene, "--audio") { settings.waveformSource = try inputs().waveformInput() }
        if takes(scene, "--level") { settings.level = try LevelOpener.open(declared(LevelInput.parameters, defaults: LevelInput())) }
        return settings
    }

    /// Checks that hold whatever the size: the effect's parameters, its
    /// count, and the inputs it names, read and parsed, so a bad input costs nothing.
    func check() throws {
        if let needs = Effects.named(scene)?.needs, given[String(needs.dropFirst(2))] == nil {
            throw ValueError(option: needs, value: "(none)", accepted: "a file of SVG path data with --scene \(scene)")
        }
        try checkCount()
        try Effects.named(scene)?.checkGiven(given)
        // The inputs the effect names, opened (read and parsed).
        if takes(scene, "--outline") { _ = try inputs().outlinePath() }
        if takes(scene, "--audio") { try inputs().checkWaveformInput() }
        if takes(scene, "--level") { _ = try LevelOpener.open(declared(LevelInput.parameters, defaults: LevelInput())) }
    }

    /// The effect's count option (`--cells`, `--dots`, `--rows`, `--crates`), but in a bench's list, is one whole number in range.
    private func checkCount() throws {
        guard !countsAreLists, let count = Effects.named(scene)?.count, let text = countText(count.option) else { return }
        _ = try count.value(text)
    }
}

/// A time option must be a finite number.
func checkFinite(_ value: Double, option: String) throws {
    guard value.isFinite else {
        throw ValueError(option: option, value: "\(value)", accepted: "a finite number of seconds")
    }
}

