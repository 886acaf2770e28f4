import ArgumentParser
import Foundation
import WaveCore
import WaveEffects
import WavesKit

/// An effect's declared parameters (`Effect.allParameters`, each declared
/// once in its effect's file) as its command's options: ArgumentParser
/// learns options from properties, so each effect's command holds a fixed
/// number of slots named, at run time, after its parameters, in the order
/// they are declared; a slot the effect does not use is hidden, under a name
/// no argument can spell (a name holding "=" is split there). What a value
/// means, its range and its refusal are the declaration's
/// (`ParameterList.applying`): this file only carries the text.
struct DeclaredOptions<Place: EffectPlace>: ParsableArguments {
    // A list first (the waveform's --audio), then the options that take a value, then the flags.
    @Option(name: Slots.name(Place.index, .list, 0), parsing: .upToNextOption, help: Slots.help(Place.index, .list, 0))
    var l0: [String] = []

    @Option(name: Slots.name(Place.index, .option, 0), parsing: .unconditional, help: Slots.help(Place.index, .option, 0), completion: Slots.completion(Place.index, 0))
    var o0: String?
    @Option(name: Slots.name(Place.index, .option, 1), parsing: .unconditional, help: Slots.help(Place.index, .option, 1), completion: Slots.completion(Place.index, 1))
    var o1: String?
    @Option(name: Slots.name(Place.index, .option, 2), parsing: .unconditional, help: Slots.help(Place.index, .option, 2), completion: Slots.completion(Place.index, 2))
    var o2: String?
    @Option(name: Slots.name(Place.index, .option, 3), parsing: .unconditional, help: Slots.help(Place.index, .option, 3), completion: Slots.completion(Place.index, 3))
    var o3: String?
    @Option(name: Slots.name(Place.index, .option, 4), parsing: .unconditional, help: Slots.help(Place.index, .option, 4), completion: Slots.completion(Place.index, 4))
    var o4: String?
    @Option(name: Slots.name(Place.index, .option, 5), parsing: .unconditional, help: Slots.help(Place.index, .option, 5), completion: Slots.completion(Place.index, 5))
    var o5: String?
    @Option(name: Slots.name(Place.index, .option, 6), parsing: .unconditional, help: Slots.help(Place.index, .option, 6), completion: Slots.completion(Place.index, 6))
    var o6: String?
    @Option(name: Slots.name(Place.index, .option, 7), parsing: .unconditional, help: Slots.help(Place.index, .option, 7), completion: Slots.completion(Place.index, 7))
    var o7: String?
    @Option(name: Slots.name(Place.index, .option, 8), parsing: .unconditional, help: Slots.help(Place.index, .option, 8), completion: Slots.completion(Place.index, 8))
    var o8: String?
    @Option(name: Slots.name(Place.index, .option, 9), parsing: .unconditional, help: Slots.help(Place.index, .option, 9), completion: Slots.completion(Place.index, 9))
    var o9: String?
    @Option(name: Slots.name(Place.index, .option, 10), parsing: .unconditional, help: Slots.help(Place.index, .option, 10), completion: Slots.completion(Place.index, 10))
    var o10: String?
    @Option(name: Slots.name(Place.index, .option, 11), parsing: .unconditional, help: Slots.help(Place.index, .option, 11), completion: Slots.completion(Place.index, 11))
    var o11: String?
    @Option(name: Slots.name(Place.index, .option, 12), parsing: .unconditional, help: Slots.help(Place.index, .option, 12), completion: Slots.completion(Place.index, 12))
    var o12: String?
    @Option(name: Slots.name(Place.index, .option, 13), parsing: .unconditional, help: Slots.help(Place.index, .option, 13), completion: Slots.completion(Place.index, 13))
    var o13: String?
    @Option(name: Slots.name(Place.index, .option, 14), parsing: .unconditional, help: Slots.help(Place.index, .option, 14), completion: Slots.completion(Place.index, 14))
    var o14: String?
    @Option(name: Slots.name(Place.index, .option, 15), parsing: .unconditional, help: Slots.help(Place.index, .option, 15), completion: Slots.completion(Place.index, 15))
    var o15: String?
    @Option(name: Slots.name(Place.index, .option, 16), parsing: .unconditional, help: Slots.help(Place.index, .option, 16), completion: Slots.completion(Place.index, 16))
    var o16: String?
    @Option(name: Slots.name(Place.index, .option, 17), parsing: .unconditional, help: Slots.help(Place.index, .option, 17), completion: Slots.completion(Place.index, 17))
    var o17: String?
    @Option(name: Slots.name(Place.index, .option, 18), parsing: .unconditional, help: Slots.help(Place.index, .option, 18), completion: Slots.completion(Place.index, 18))
    var o18: String?
    @Option(name: Slots.name(Place.index, .option, 19), parsing: .unconditional, help: Slots.help(Place.index, .option, 19), completion: Slots.completion(Place.index, 19))
    var o19: String?
    @Option(name: Slots.name(Place.index, .option, 20), parsing: .unconditional, help: Slots.help(Place.index, .option, 20), completion: Slots.completion(Place.index, 20))
    var o20: String?
    @Option(name: Slots.name(Place.index, .option, 21), parsing: .unconditional, help: Slots.help(Place.index, .option, 21), completion: Slots.completion(Place.index, 21))
    var o21: String?
    @Option(name: Slots.name(Place.index, .option, 22), parsing: .unconditional, help: Slots.help(Place.index, .option, 22), completion: Slots.completion(Place.index, 22))
    var o22: String?
    @Option(name: Slots.name(Place.index, .option, 23), parsing: .unconditional, help: Slots.help(Place.index, .option, 23), completion: Slots.completion(Place.index, 23))
    var o23: String?
    @Flag(name: Slots.name(Place.index, .flag, 0), help: Slots.help(Place.index, .flag, 0))
    var f0 = false
    @Flag(name: Slots.name(Place.index, .flag, 1), help: Slots.help(Place.index, .flag, 1))
    var f1 = false
    @Flag(name: Slots.name(Place.index, .flag, 2), help: Slots.help(Place.index, .flag, 2))
    var f2 = false
    @Flag(name: Slots.name(Place.index, .flag, 3), help: Slots.help(Place.index, .flag, 3))
    var f3 = false
    @Flag(name: Slots.name(Place.index, .flag, 4), help: Slots.help(Place.index, .flag, 4))
    var f4 = false
    @Flag(name: Slots.name(Place.index, .flag, 5), help: Slots.help(Place.index, .flag, 5))
    var f5 = false

    /// The values given, by parameter name (a flag's value is empty; a list's values joined by NUL).
    var given: [String: String] {
        var given: [String: String] = [:]
        for (slot, value) in [o0, o1, o2, o3, o4, o5, o6, o7, o8, o9, o10, o11, o12, o13, o14, o15, o16, o17, o18, o19, o20, o21, o22, o23].enumerated() {
            if let value, let info = Slots.info(Place.index, .option, slot) { given[info.name] = value }
        }
        if !l0.isEmpty, let info = Slots.info(Place.index, .list, 0) { given[info.name] = l0.joined(separator: String(ParameterText.listSeparator)) }
        for (slot, named) in [f0, f1, f2, f3, f4, f5].enumerated() where named {
            if let info = Slots.info(Place.index, .flag, slot) { given[info.name] = "" }
        }
        return given
    }

}

/// Which parameter each slot of an effect's command carries.
enum Slots {
    static let options = 24, flags = 6, lists = 1

    /// The effect's parameters that take a value, its flags and its lists, in order.
    static func declared(_ effect: Int) -> (options: [ParameterInfo], flags: [ParameterInfo], lists: [ParameterInfo]) {
        guard effect < Effects.all.count else { return ([], [], []) }
        lock.lock()
        defer { lock.unlock() }
        if let sorted = sortedByEffect[effect] { return sorted }
        let all = Effects.all[effect].allParameters
        let sorted = (options: all.filter { !$0.isFlag && !$0.isList }, flags: all.filter(\.isFlag), lists: all.filter(\.isList))
        sortedByEffect[effect] = sorted
        return sorted
    }

    /// Each effect's parameters sorted into slots, when its command is first made (each slot reads them).
    nonisolated(unsafe) private static var sortedByEffect: [Int: (options: [ParameterInfo], flags: [ParameterInfo], lists: [ParameterInfo])] = [:]
    private static let lock = NSLock()

    /// The kinds of slot: a list, an option that takes a value, a flag.
    enum Kind: String { case list = "l", option = "o", flag = "f" }

    /// The parameter a slot carries, nil for a slot the effect does not use.
    static func info(_ effect: Int, _ kind: Kind, _ slot: Int) -> ParameterInfo? {
        let sorted = declared(effect)
        let list = switch kind {
        case .list: sorted.lists
        case .option: sorted.options
        case .flag: sorted.flags
        }
        return slot < list.count ? list[slot] : nil
    }

    static func name(_ effect: Int, _ kind: Kind, _ slot: Int) -> NameSpecification {
        .customLong(info(effect, kind, slot)?.name ?? "unused=\(kind.rawValue)\(slot)")
    }

    static func help(_ effect: Int, _ kind: Kind, _ slot: Int) -> ArgumentHelp {
        guard let info = info(effect, kind, slot) else { return ArgumentHelp(visibility: .private) }
        return kind == .flag ? ArgumentHelp(info.help) : ArgumentHelp(helpLine(info), valueName: info.valueName)
    }

    static func completion(_ effect: Int, _ slot: Int) -> CompletionKind {
        guard let info = info(effect, .option, slot), !info.choices.isEmpty else { return .default }
        return .list(info.choices)
    }

    /// The help, then what is accepted and the default: "... (seconds from 0 to 60; default: 0.3)".
    static func helpLine(_ info: ParameterInfo) -> String {
        let sentence = info.help.hasSuffix(".") ? String(info.help.dropLast()) : info.help
        return sentence + " (" + info.accepted + (info.defaultText.map { "; default: " + $0 } ?? "") + ")."
    }
}
