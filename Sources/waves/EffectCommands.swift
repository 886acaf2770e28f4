import WaveCore
import ArgumentParser
import WaveEffects
import WavesKit

/// One command per effect under `render`, `demo` and `bench` (`waves render
/// waveform ...`), keyed by the effect's place in the registry
/// (`EffectCommand<RenderSettings, Place3>`): its options are the effect's
/// declared parameters (`DeclaredOptions`), the look and the command's own,
/// so a help lists that effect's options and the command's, nothing else.
/// Adding an effect to the registry adds its commands; nothing here names an
/// effect. Groups are never nested: a debug build's ArgumentParser checks a
/// nested group again at every level, and the tests start the debug binary
/// hundreds of times. `--scene NAME` on the parent command stays the short form.

/// Every effect's commands, in the registry's order.
enum EffectCommands {
    /// The most effects the registry may hold: one command type per place (a test checks the registry fits).
    static let places = 16

    static func all<Settings: EffectCommandSettings>(_ settings: Settings.Type) -> [ParsableCommand.Type] {
        (0..<min(Effects.all.count, places)).map { command(Settings.self, at: $0) }
    }

    /// The command of the effect at `place` (only the places in use are made: each is a type to instantiate).
    private static func command<Settings: EffectCommandSettings>(_ settings: Settings.Type, at place: Int) -> ParsableCommand.Type {
        switch place {
        case 0: EffectCommand<Settings, Place0>.self
        case 1: EffectCommand<Settings, Place1>.self
        case 2: EffectCommand<Settings, Place2>.self
        case 3: EffectCommand<Settings, Place3>.self
        case 4: EffectCommand<Settings, Place4>.self
        case 5: EffectCommand<Settings, Place5>.self
        case 6: EffectCommand<Settings, Place6>.self
        case 7: EffectCommand<Settings, Place7>.self
        case 8: EffectCommand<Settings, Place8>.self
        case 9: EffectCommand<Settings, Place9>.self
        case 10: EffectCommand<Settings, Place10>.self
        case 11: EffectCommand<Settings, Place11>.self
        case 12: EffectCommand<Settings, Place12>.self
        case 13: EffectCommand<Settings, Place13>.self
        case 14: EffectCommand<Settings, Place14>.self
        default: EffectCommand<Settings, Place15>.self
        }
    }

    static var render: [ParsableCommand.Type] { all(RenderSettings.self) }
    static var demo: [ParsableCommand.Type] { all(DemoSettings.self) }
    static var bench: [ParsableCommand.Type] { all(BenchSettings.self) }

    /// The command of an effect named where none is: the first effect's (the sine).
    static var standardRender: ParsableCommand.Type { render[0] }
    static var standardDemo: ParsableCommand.Type { demo[0] }
    static var standardBench: ParsableCommand.Type { bench[0] }

    /// `waves render NAME` parsed from `arguments` (a batch's item).
    static func parseRender(_ name: EffectName, _ arguments: [String]) throws -> (settings: RenderSettings, options: EffectOptions) {
        guard let place = Effects.all.firstIndex(where: { $0.name == name }),
              let command = try render[place].parse(arguments) as? any ParsedEffectCommand,
              let settings = command.commandSettings as? RenderSettings else {
            throw ValueError(option: "--scene", value: name.rawValue, accepted: Effects.names.joined(separator: ", "))
        }
        return (settings, command.options)
    }
}

// MARK: - The commands

/// What a command (render, demo, bench) adds to an effect's options: its
/// own options, under its title, and what it does with them all.
protocol EffectCommandSettings: ParsableArguments {
    static var title: String { get }
    static func configuration(effect: EffectName, summary: String) -> CommandConfiguration
    func run(_ options: EffectOptions) throws
}

/// A parsed effect command: its effect's options and its command's settings.
protocol ParsedEffectCommand {
    var options: EffectOptions { get }
    var commandSettings: any EffectCommandSettings { get }
}

/// A place in the registry, as a type: a command is a type, one for each
/// effect. (Marker types rather than integer generic parameters: the
/// runtime makes their metadata directly, where an integer's goes through
/// the demangler, which cost every process about a millisecond.)
protocol EffectPlace { static var index: Int { get } }
enum Place0: EffectPlace { static let index = 0 }
enum Place1: EffectPlace { static let index = 1 }
enum Place2: EffectPlace { static let index = 2 }
enum Place3: EffectPlace { static let index = 3 }
enum Place4: EffectPlace { static let index = 4 }
enum Place5: EffectPlace { static let index = 5 }
enum Place6: EffectPlace { static let index = 6 }
enum Place7: EffectPlace { static let index = 7 }
enum Place8: EffectPlace { static let index = 8 }
enum Place9: EffectPlace { static let index = 9 }
enum Place10: EffectPlace { static let index = 10 }
enum Place11: EffectPlace { static let index = 11 }
enum Place12: EffectPlace { static let index = 12 }
enum Place13: EffectPlace { static let index = 13 }
enum Place14: EffectPlace { static let index = 14 }
enum Place15: EffectPlace { static let index = 15 }

/// `waves render NAME`, `waves demo NAME`, `waves bench NAME`: the effect at `Place` in the registry.
struct EffectCommand<Settings: EffectCommandSettings, Place: EffectPlace>: ParsableCommand, ParsedEffectCommand {
    private static var effect: Int { Place.index }

    static var configuration: CommandConfiguration {
        Settings.configuration(effect: Effects.all[effect].name, summary: Effects.all[effect].summary)
    }

    @OptionGroup(title: Effects.all[Place.index].name.rawValue.capitalized) var parameters: DeclaredOptions<Place>
    @OptionGroup(title: "Look") var look: LookOptions
    @OptionGroup(title: Settings.title) var settings: Settings

    var options: EffectOptions {
        var options = EffectOptions()
        options.scene = Effects.all[Place.index].name
        options.look = look.look
        options.given = parameters.given
        return options
    }

    var commandSettings: any EffectCommandSettings { settings }

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
                    guard i + 1 < rest.count else { throw ValueError(option: "--scene", value: "(none)", accepted: Effects.names.joined(separator: ", ")) }
                    value = rest[i + 1]
                    rest.removeSubrange(i...(i + 1))
                } else {
                    value = String(rest[i].dropFirst("--scene=".count))
                    rest.remove(at: i)
                }
                guard Effects.names.contains(value) else { throw ValueError(option: "--scene", value: value, accepted: Effects.names.joined(separator: ", ")) }
                if let scene, scene != value { throw ValueError(option: "--scene", value: value, accepted: "one effect (--scene \(scene) was given first)") }
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
            guard named == scene else { throw ValueError(option: "--scene", value: scene, accepted: "nothing here: the effect is \(named) ('waves \(arguments[at]) \(named)')") }
            rest.removeFirst()
        }
        if arguments[at] == "bench", let option = Effects.named(EffectName(rawValue: scene))?.count?.option, option != "--cells" {
            rest = rest.map { $0 == "--cells" ? option : $0.hasPrefix("--cells=") ? option + $0.dropFirst("--cells".count) : $0 }
        }
        return Array(arguments[...at]) + [scene] + rest
    }
}

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
