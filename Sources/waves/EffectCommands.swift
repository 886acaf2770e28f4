import ArgumentParser
import WaveEffects

/// One command per effect under `render`, `demo` and `bench` (`waves render
/// waveform ...`): each effect's bundle declares only the option groups that
/// shape it, so a help lists that effect's options and the command's own,
/// nothing else. `--scene NAME` on the parent command stays the short form.

/// The option groups of one effect, as its commands declare them.
protocol EffectBundle: ParsableArguments {
    static var effect: EffectName { get }
    /// Puts the groups this bundle parsed into `options` (the others keep their defaults).
    func fill(_ options: inout EffectOptions)
}

extension EffectBundle {
    /// The effect's options: the look, this bundle's groups, every other group's defaults.
    func options(look: LookOptions) -> EffectOptions {
        var options = EffectOptions()
        options.scene = Self.effect
        options.look = look
        fill(&options)
        return options
    }

    static var summary: String { Effects.named(effect)?.summary ?? effect.rawValue }
}

/// Every effect's bundle, in the registry's order (a test checks they match).
enum EffectBundles {
    static let all: [any EffectBundle.Type] = [
        SineBundle.self, TableBundle.self, DotsBundle.self, VoiceBundle.self, JellyBundle.self, RingBundle.self,
        CratesBundle.self, BallBundle.self, WaveformBundle.self, OutlineBundle.self,
    ]

    /// The command of an effect named where none is: the sine's.
    static let standard: any EffectBundle.Type = SineBundle.self

    static var render: [ParsableCommand.Type] { all.map { $0.renderCommand } }
    static var demo: [ParsableCommand.Type] { all.map { $0.demoCommand } }
    static var bench: [ParsableCommand.Type] { all.map { $0.benchCommand } }
}

extension EffectBundle {
    static var renderCommand: ParsableCommand.Type { RenderEffectCommand<Self>.self }
    static var demoCommand: ParsableCommand.Type { DemoEffectCommand<Self>.self }
    static var benchCommand: ParsableCommand.Type { BenchEffectCommand<Self>.self }
}

// MARK: - The commands

/// `waves render NAME`.
struct RenderEffectCommand<Bundle: EffectBundle>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Bundle.effect.rawValue, abstract: "Render " + Bundle.summary + ".")
    }

    @OptionGroup var effect: Bundle
    @OptionGroup(title: "Look") var look: LookOptions
    @OptionGroup(title: "Render") var settings: RenderSettings

    func run() throws { try settings.run(effect.options(look: look)) }
}

/// `waves demo NAME`.
struct DemoEffectCommand<Bundle: EffectBundle>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Bundle.effect.rawValue, abstract: "Both strategies side by side: " + Bundle.summary + ".",
                             discussion: DemoSettings.keysAndDisplay)
    }

    @OptionGroup var effect: Bundle
    @OptionGroup(title: "Look") var look: LookOptions
    @OptionGroup(title: "Demo") var settings: DemoSettings

    func run() throws { try settings.run(effect.options(look: look)) }
}

/// `waves bench NAME`.
struct BenchEffectCommand<Bundle: EffectBundle>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Bundle.effect.rawValue, abstract: "Measure both strategies: " + Bundle.summary + ".")
    }

    @OptionGroup var effect: Bundle
    @OptionGroup(title: "Look") var look: LookOptions
    @OptionGroup(title: "Bench") var settings: BenchSettings

    func run() throws {
        var options = effect.options(look: look)
        options.countsAreLists = true
        try settings.run(options)
    }
}

/// The short form: `waves render --scene dots ...` is `waves render dots
/// ...`, rewritten before parsing, so each effect's command parses exactly its
/// own options whichever form is typed. A parent command with no effect named
/// runs the sine (its default subcommand), or in a bench the effect its
/// preset draws. In a bench's short form `--cells` sweeps whatever the
/// effect counts.
enum ShortForm {
    static let commands = ["render", "demo", "bench"]

    static func expand(_ arguments: [String]) throws -> [String] {
        // The command is the first argument ('waves render ...'): a later "render" is an option's value.
        guard let first = arguments.first, commands.contains(first) else { return arguments }
        let at = 0
        var rest = Array(arguments[(at + 1)...])
        var scene: String?
        var i = 0
        while i < rest.count {
            if rest[i] == "--" { break }
            if rest[i] == "--scene" || rest[i].hasPrefix("--scene=") {
                let value: String
                if rest[i] == "--scene" {
                    guard i + 1 < rest.count else { throw UsageError(option: "--scene", value: "(none)", accepted: Effects.names.joined(separator: ", ")) }
                    value = rest[i + 1]
                    rest.removeSubrange(i...(i + 1))
                } else {
                    value = String(rest[i].dropFirst("--scene=".count))
                    rest.remove(at: i)
                }
                guard Effects.names.contains(value) else { throw UsageError(option: "--scene", value: value, accepted: Effects.names.joined(separator: ", ")) }
                if let scene, scene != value { throw UsageError(option: "--scene", value: value, accepted: "one effect (--scene \(scene) was given first)") }
                scene = value
                continue
            }
            i += 1
        }
        // A bench preset with no effect named draws its own: the table, the waveform, the jelly (pacing), the sine (raster).
        if scene == nil, arguments[at] == "bench", !(rest.first.map(Effects.names.contains) ?? false),
           let p = rest.firstIndex(where: { $0 == "--preset" || $0.hasPrefix("--preset=") }) {
            let preset = rest[p] == "--preset" ? (p + 1 < rest.count ? rest[p + 1] : "") : String(rest[p].dropFirst("--preset=".count))
            scene = ["table": "table", "waveform": "waveform", "pacing": "jelly", "raster": "sine"][preset]
        }
        guard let scene else { return arguments }
        if let named = rest.first, Effects.names.contains(named) {
            guard named == scene else { throw UsageError(option: "--scene", value: scene, accepted: "nothing here: the effect is \(named) ('waves \(arguments[at]) \(named)')") }
            rest.removeFirst()
        }
        if arguments[at] == "bench", let option = Effects.named(EffectName(rawValue: scene))?.count?.option, option != "--cells" {
            rest = rest.map { $0 == "--cells" ? option : $0.hasPrefix("--cells=") ? option + $0.dropFirst("--cells".count) : $0 }
        }
        return Array(arguments[...at]) + [scene] + rest
    }
}

// MARK: - The bundles

struct SineBundle: EffectBundle {
    static let effect = EffectName.sine
    @OptionGroup(title: "Wave") var sine: SineWaveOptions
    @OptionGroup(title: "Cells") var cells: CellsOption
    func fill(_ options: inout EffectOptions) { (options.sine, options.cells) = (sine, cells) }
}

struct TableBundle: EffectBundle {
    static let effect = EffectName.table
    @OptionGroup(title: "Table") var table: TableOptions
    @OptionGroup(title: "Each row's wave") var sine: SineWaveOptions
    func fill(_ options: inout EffectOptions) { (options.table, options.sine) = (table, sine) }
}

struct DotsBundle: EffectBundle {
    static let effect = EffectName.dots
    @OptionGroup(title: "Dots") var replica: ReplicaOptions
    @OptionGroup(title: "The row and its states") var dots: DotsOptions
    @OptionGroup(title: "Level") var level: LevelOptions
    func fill(_ options: inout EffectOptions) { (options.replica, options.dots, options.level) = (replica, dots, level) }
}

struct VoiceBundle: EffectBundle {
    static let effect = EffectName.voice
    @OptionGroup(title: "Voice") var voice: VoiceOptions
    @OptionGroup(title: "Panels") var cells: CellsOption
    @OptionGroup(title: "Level") var level: LevelOptions
    func fill(_ options: inout EffectOptions) { (options.voice, options.cells, options.level) = (voice, cells, level) }
}

struct JellyBundle: EffectBundle {
    static let effect = EffectName.jelly
    @OptionGroup(title: "Jelly") var jelly: JellyOptions
    @OptionGroup(title: "Frame loop") var steps: StepOptions
    func fill(_ options: inout EffectOptions) { (options.jelly, options.steps) = (jelly, steps) }
}

struct RingBundle: EffectBundle {
    static let effect = EffectName(rawValue: "ring")
    @OptionGroup(title: "Ring") var replica: ReplicaOptions
    func fill(_ options: inout EffectOptions) { options.replica = replica }
}

struct CratesBundle: EffectBundle {
    static let effect = EffectName.crates
    @OptionGroup(title: "Crates") var crates: CratesOptions
    @OptionGroup(title: "Frame loop") var steps: StepOptions
    func fill(_ options: inout EffectOptions) { (options.crates, options.steps) = (crates, steps) }
}

struct BallBundle: EffectBundle {
    static let effect = EffectName.ball
    @OptionGroup(title: "Ball") var ball: BallOptions
    @OptionGroup(title: "Frame loop") var steps: StepOptions
    func fill(_ options: inout EffectOptions) { (options.ball, options.steps) = (ball, steps) }
}

struct WaveformBundle: EffectBundle {
    static let effect = EffectName.waveform
    @OptionGroup(title: "Waveform") var waveform: WaveformOptions
    func fill(_ options: inout EffectOptions) { options.waveform = waveform }
}

struct OutlineBundle: EffectBundle {
    static let effect = EffectName.outline
    @OptionGroup(title: "Outline") var outline: OutlineOptions
    func fill(_ options: inout EffectOptions) { options.outline = outline }
}
