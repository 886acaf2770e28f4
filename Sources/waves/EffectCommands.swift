import ArgumentParser
import WaveEffects

/// One command per effect under `render`, `demo` and `bench` (`waves render
/// waveform ...`): each effect's bundle names the option groups that shape
/// it (up to three), and its commands declare those groups side by side with
/// the look and the command's own, so a help lists that effect's options and
/// the command's, nothing else. Groups are never nested: a debug build's
/// ArgumentParser checks a nested group again at every level, and the tests
/// start the debug binary hundreds of times. `--scene NAME` on the parent
/// command stays the short form.

/// An option group an effect takes: it puts what it parsed into `EffectOptions`.
protocol EffectGroup: ParsableArguments {
    func fill(_ options: inout EffectOptions)
}

/// The empty slot of a bundle with fewer than three groups.
struct NoGroup: EffectGroup {
    func fill(_ options: inout EffectOptions) {}
}

/// The option groups of one effect, as its commands declare them, and their titles in its help.
protocol EffectBundle {
    associatedtype First: EffectGroup
    associatedtype Second: EffectGroup = NoGroup
    associatedtype Third: EffectGroup = NoGroup
    static var effect: EffectName { get }
    static var titles: [String] { get }
}

extension EffectBundle {
    static var summary: String { Effects.named(effect)?.summary ?? effect.rawValue }
    static func title(_ index: Int) -> String { index < titles.count ? titles[index] : "" }

    /// The effect's options: the look, the groups its command parsed, every other group's defaults.
    static func options(look: LookOptions, _ first: First, _ second: Second, _ third: Third) -> EffectOptions {
        var options = EffectOptions()
        options.scene = effect
        options.look = look
        first.fill(&options)
        second.fill(&options)
        third.fill(&options)
        return options
    }

    static var renderCommand: ParsableCommand.Type { EffectCommand<RenderSettings, Self>.self }
    static var demoCommand: ParsableCommand.Type { EffectCommand<DemoSettings, Self>.self }
    static var benchCommand: ParsableCommand.Type { EffectCommand<BenchSettings, Self>.self }
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

// MARK: - The commands

/// What a command (render, demo, bench) adds to an effect's groups: its
/// own options, under its title, and what it does with them all.
protocol EffectCommandSettings: ParsableArguments {
    static var title: String { get }
    static func configuration(effect: EffectName, summary: String) -> CommandConfiguration
    func run(_ options: EffectOptions) throws
}

/// `waves render NAME`, `waves demo NAME`, `waves bench NAME`.
struct EffectCommand<Settings: EffectCommandSettings, Bundle: EffectBundle>: ParsableCommand {
    static var configuration: CommandConfiguration { Settings.configuration(effect: Bundle.effect, summary: Bundle.summary) }

    @OptionGroup(title: Bundle.title(0)) var first: Bundle.First
    @OptionGroup(title: Bundle.title(1)) var second: Bundle.Second
    @OptionGroup(title: Bundle.title(2)) var third: Bundle.Third
    @OptionGroup(title: "Look") var look: LookOptions
    @OptionGroup(title: Settings.title) var settings: Settings

    var options: EffectOptions { Bundle.options(look: look, first, second, third) }

    func run() throws { try settings.run(options) }
}

extension RenderSettings: EffectCommandSettings {
    static let title = "Render"
    static func configuration(effect: EffectName, summary: String) -> CommandConfiguration {
        CommandConfiguration(commandName: effect.rawValue, abstract: "Render " + summary + ".")
    }
}

extension DemoSettings: EffectCommandSettings {
    static let title = "Demo"
    static func configuration(effect: EffectName, summary: String) -> CommandConfiguration {
        CommandConfiguration(commandName: effect.rawValue, abstract: "Both strategies side by side: " + summary + ".",
                             discussion: keysAndDisplay)
    }
}

extension BenchSettings: EffectCommandSettings {
    static let title = "Bench"
    static func configuration(effect: EffectName, summary: String) -> CommandConfiguration {
        CommandConfiguration(commandName: effect.rawValue, abstract: "Measure both strategies: " + summary + ".")
    }
}

/// The short form: `waves render --scene dots ...` is `waves render dots
/// ...`, rewritten before parsing, so each effect's command parses exactly its
/// own options whichever form is typed. A parent command with no effect named
/// runs the sine (its default subcommand), or in a bench the effect its
/// preset draws. In a bench's short form `--cells` sweeps whatever the
/// effect counts.
enum ShortForm {
    /// The commands whose effects are subcommands (`ParentHelp.commands`).
    static var commands: Dictionary<String, ParsableCommand.Type>.Keys { ParentHelp.commands.keys }

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

enum SineBundle: EffectBundle {
    typealias First = DeclaredOptions<0>
    static let effect = EffectName.sine
    static let titles = ["Wave"]
}

enum TableBundle: EffectBundle {
    typealias First = DeclaredOptions<1>
    static let effect = EffectName.table
    static let titles = ["Table"]
}

enum DotsBundle: EffectBundle {
    typealias First = DeclaredOptions<2>
    static let effect = EffectName.dots
    static let titles = ["Dots"]
}

enum VoiceBundle: EffectBundle {
    typealias First = DeclaredOptions<3>
    static let effect = EffectName.voice
    static let titles = ["Voice"]
}

enum JellyBundle: EffectBundle {
    typealias First = DeclaredOptions<4>
    static let effect = EffectName.jelly
    static let titles = ["Jelly"]
}

enum RingBundle: EffectBundle {
    typealias First = DeclaredOptions<5>
    static let effect = EffectName(rawValue: "ring")
    static let titles = ["Ring"]
}

enum CratesBundle: EffectBundle {
    typealias First = DeclaredOptions<6>
    static let effect = EffectName.crates
    static let titles = ["Crates"]
}

enum BallBundle: EffectBundle {
    typealias First = DeclaredOptions<7>
    static let effect = EffectName.ball
    static let titles = ["Ball"]
}

enum WaveformBundle: EffectBundle {
    typealias First = WaveformOptions
    static let effect = EffectName.waveform
    static let titles = ["Waveform"]
}

enum OutlineBundle: EffectBundle {
    typealias First = OutlineOptions
    static let effect = EffectName.outline
    static let titles = ["Outline"]
}

// MARK: - Each group into the effect's options

extension OutlineOptions: EffectGroup { func fill(_ options: inout EffectOptions) { options.outline = self } }
extension WaveformOptions: EffectGroup { func fill(_ options: inout EffectOptions) { options.waveform = self } }

/// `waves render --help`, `waves demo --help`, `waves bench --help`: the
/// command's own help with the options it takes (its default effect's,
/// which ArgumentParser leaves out of a parent command's help), then its
/// effects. Nil for any other arguments.
enum ParentHelp {
    /// The commands whose effects are subcommands.
    static let commands: [String: ParsableCommand.Type] = ["render": RenderCommand.self, "demo": DemoCommand.self, "bench": BenchCommand.self]

    static func text(for arguments: [String]) -> String? {
        guard arguments.count == 2, ["--help", "-h"].contains(arguments[1]), let command = commands[arguments[0]],
              let standard = command.configuration.defaultSubcommand else { return nil }
        let parent: String = Waves.helpMessage(for: command, columns: nil)
        let own: String = Waves.helpMessage(for: standard, columns: nil)
        guard let usage = parent.range(of: "USAGE:"), let effects = parent.range(of: "SUBCOMMANDS:"),
              let ownUsage = own.range(of: "USAGE:") else { return nil }
        let afterUsage: Substring = own[ownUsage.lowerBound...].drop { $0 != "\n" }
        let options: String = afterUsage.trimmingCharacters(in: .whitespacesAndNewlines)
        let name: String = standard.configuration.commandName ?? "the default"
        let head = String(parent[..<usage.lowerBound]), tail = String(parent[effects.lowerBound...])
        let verb = arguments[0]
        return head + "USAGE: waves \(verb) [<effect>] <options>\n\n"
            + "The options of the default effect, \(name), follow; each effect's are in 'waves \(verb) <effect> --help'.\n\n"
            + options + "\n\n" + tail
    }
}
