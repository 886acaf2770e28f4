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

/// "only with the dots or voice effect".
func onlyWithEffects(_ names: [EffectName]) -> String {
    "only with the " + names.map(\.rawValue).joined(separator: " or ") + " effect"
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
            throw UsageError(option: option, value: description,
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

    @Flag(help: "Round the offset to whole pixels (removes amplitude phasing; slow motion steps).")
    var snap = false

    @Option(name: .customLong("subpixel"), help: "How the GL backend moves cached curves by fractions of a pixel: exact (pictures pre-rasterised at 16 sub-pixel phases, the nearest shown at a whole-pixel offset: the CPU's pixels, no blur; on a software GL driver, sine cells are painted per phase and copied by whole pixels, no shader pass) or linear (bilinear filtering in a shader: a steep edge blurs at half-pixel offsets). A layer tree's cached shapes (waveform bars, an outline) get the same phases where they are only translated; pictures, and turned or scaled shapes, are filtered. (default: exact)")
    var subpixelChoice: SubpixelMode?

    /// The mode asked for, exact when none was.
    var subpixel: SubpixelMode { subpixelChoice ?? .exact }

    /// Says so on stderr when exact was asked for by name but the GL renderer filters instead.
    func reportSubpixel(of renderer: Renderer) {
        guard subpixelChoice == .exact, let notice = (renderer as? GLRenderer)?.subpixelNotice else { return }
        printError("waves: \(notice)")
    }
}

/// The waving sine's shape and motion (sine cells, the table's rows).
struct SineWaveOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Wave amplitude as a fraction of the cell height, 0 to 0.5.")
    var amplitude: Double = WaveParameters().amplitude

    @Option(parsing: .unconditional, help: "Wave baseline as a fraction of the cell height from its top, 0 to 1.")
    var baseline: Double = WaveParameters().baseline

    @Option(parsing: .unconditional, help: "Whole cycles across the width (only whole cycles wrap without a seam) (default: 1).",
            transform: parseWhole("a whole number of cycles from 1: only whole cycles make the wave wrap without a seam"))
    var cycles: Int = WaveParameters().cycles

    @Option(parsing: .unconditional, help: "Seconds for one full width of travel.")
    var period: Double = WaveParameters().period

    @Option(help: "Direction of travel: left or right.")
    var direction: Direction = .left
}

/// `--cells`: sine cells stacked, or voice panels (a bench sweeps a list of them).
struct CellsOption: ParsableArguments {
    @Option(help: "Cells (sine) or voice panels stacked vertically, each with its own phase (k/N of a cycle); waves bench: the counts to sweep, a comma-separated list (default: 1; waves bench: sine 1,10,100,1000, voice 1,10,100).")
    var cells: String?
}

/// A user's outline and how fast it travels.
struct OutlineOptions: ParsableArguments {
    @Option(help: "A file of SVG path data in pixels (- for standard input): M, L, H, V, Q, T, C, S, Z, absolute or relative; cubic curves are drawn as quadratic ones; arcs (A) are refused.")
    var outline: String?

    @Option(parsing: .unconditional, help: "Pixels per second the outline travels left (negative: right), at most 1000000 either way.")
    var speed: Double = 0

    /// The outline file, read and parsed: a missing file is 66, bytes that
    /// are not path data (or a coordinate that is not finite) 65.
    func outlinePath() throws -> Path {
        guard let outline = self.outline else { throw UsageError(option: "--outline", value: "(none)", accepted: "a file of SVG path data") }
        let input = try InputFile.open(outline)
        var data = try input.bytes(limit: 16 << 20)
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        guard let text = String(data: data, encoding: .utf8) else {
            throw AudioError.unreadable(path: input.name, reason: "it is not UTF-8 text")
        }
        do {
            let path = try PathData.parse(text)
            guard !path.isEmpty else { throw AudioError.unreadable(path: input.name, reason: "it holds no path") }
            return path
        } catch let error as PathData.SyntaxError {
            throw AudioError.unreadable(path: input.name, reason: "\(error)")
        } catch let error as PathError {
            throw AudioError.unreadable(path: input.name, reason: "\(error)")
        }
    }
}

/// Every group's defaults: parsing no arguments gives each (it cannot fail).
func defaultValues<Group: ParsableArguments>(of group: Group.Type = Group.self) -> Group {
    (try? Group.parse([])) ?? Group()
}

/// Every option that picks and shapes an effect: the effect, its look, and
/// every effect's group. A command fills the groups it declares (the short
/// form `--scene NAME` declares all, hidden from its help; `waves render
/// NAME` only the effect's); the rest keep their defaults.
struct EffectOptions {
    var scene: EffectName = .sine
    var look: LookOptions = defaultValues()
    var sine: SineWaveOptions = defaultValues()
    var cells: CellsOption = defaultValues()
    var outline: OutlineOptions = defaultValues()
    var waveform: WaveformOptions = defaultValues()
    var replica: ReplicaOptions = defaultValues()
    var dots: DotsOptions = defaultValues()
    var level: LevelOptions = defaultValues()
    var voice: VoiceOptions = defaultValues()
    var jelly: JellyOptions = defaultValues()
    var steps: StepOptions = defaultValues()
    var crates: CratesOptions = defaultValues()
    var table: TableOptions = defaultValues()
    var ball: BallOptions = defaultValues()
    /// Whether a count option (`--cells`, `--dots`, `--rows`, `--crates`) is a bench's list of counts to sweep.
    var countsAreLists = false

    var snap: Bool { look.snap }
    var subpixel: SubpixelMode { look.subpixel }

    func reportSubpixel(of renderer: Renderer) { look.reportSubpixel(of: renderer) }

    /// The effect's scene for `request`, validated against the contract.
    func makeScene(_ request: SceneRequest) throws -> Scene {
        guard let effect = Effects.named(scene) else {
            throw UsageError(option: "--scene", value: scene.rawValue, accepted: Effects.names.joined(separator: ", "))
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
    func countText(_ option: String) -> String? {
        switch option {
        case "--cells": cells.cells
        case "--dots": replica.dots
        case "--crates": crates.crates
        case "--rows": table.rows
        default: nil
        }
    }

    /// What the options say of every effect, the inputs the chosen one needs
    /// opened (`openingInputs` false: none, for what does not draw).
    func settings(openingInputs: Bool = true) throws -> EffectSettings {
        var settings = EffectSettings()
        settings.background = look.background ?? Scene.defaultBackground
        settings.color = look.color
        settings.sine.amplitude = sine.amplitude
        settings.sine.baseline = sine.baseline
        settings.sine.cycles = sine.cycles
        settings.sine.period = sine.period
        settings.sine.direction = sine.direction
        if openingInputs && scene == .outline {
            var made = Outline(width: 1, height: 1, path: try outline.outlinePath())
            made.pixelsPerSecond = outline.speed
            settings.outline = made
        }
        settings.waveform = try waveform.template()
        if openingInputs && scene == .waveform { settings.waveformSource = try waveform.input() }
        settings.dots = dots.dots(replica: replica)
        settings.voice.style = voice.style
        if openingInputs && takes(scene, "--level") { settings.level = try level.levelSource() }
        settings.jelly = try jelly.template()
        settings.crates.gravity = crates.gravity
        settings.crates.step = steps.physicsStep ?? settings.crates.step
        settings.table = table.template()
        settings.ball = ball.template(step: steps.physicsStep)
        return settings
    }

    /// Checks that hold whatever the size: every option given belongs to
    /// the scene (the registry's lists), the input it needs is there, read
    /// and parsed, so a bad input costs nothing.
    func check() throws {
        if let needs = Effects.named(scene)?.needs, needs == "--outline", outline.outline == nil {
            throw UsageError(option: needs, value: "(none)", accepted: "a file of SVG path data with --scene \(scene)")
        }
        if scene == .outline { _ = try outline.outlinePath() }
        try checkCounts()
        try waveform.check(scene: scene)
        try replica.check(scene: scene)
        try dots.check(scene: scene, dotSize: replica.dotSize)
        try level.check(scene: scene)
        try jelly.check(scene: scene)
        try steps.check(scene: scene)
        try crates.check(scene: scene)
        try table.check(scene: scene)
        try ball.check(scene: scene)
    }

    /// A count option belongs to the effects it counts, and (but in a bench's list) is one whole number in range.
    private func checkCounts() throws {
        for option in ["--cells", "--dots", "--rows", "--crates"] {
            guard let text = countText(option) else { continue }
            let counted = Effects.all.filter { $0.count?.option == option }
            guard let effect = counted.first(where: { $0.name == scene }) else {
                throw UsageError(option: option, value: text, accepted: onlyWithEffects(counted.map(\.name)))
            }
            guard !countsAreLists else { continue }
            let limit = option == "--cells" ? Scene.maxHeight : effect.count?.sweepLimit ?? 1
            guard let count = Int(text), (1...limit).contains(count) else {
                throw UsageError(option: option, value: text, accepted: "a whole number of \(effect.count?.unit ?? "items") from 1 to \(limit)")
            }
        }
    }
}

/// A time option must be a finite number.
func checkFinite(_ value: Double, option: String) throws {
    guard value.isFinite else {
        throw UsageError(option: option, value: "\(value)", accepted: "a finite number of seconds")
    }
}

