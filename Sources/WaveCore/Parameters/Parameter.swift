import Foundation

/// An effect's parameters as data, declared once next to the effect (as
/// ffmpeg's option tables declare a filter's options): each parameter's
/// name, what it holds, its default, what is accepted and its help. The
/// command line's options, their help, the man page and completions, the
/// one-line refusal of a bad value, docs/cli.md's option tables and the
/// effect's own validation all read these declarations; nothing else
/// checks a parameter's range.

/// What a parameter is, without the model it sets: what the command line
/// and the docs show of it.
public struct ParameterInfo: Sendable, Equatable {
    /// The option's name without its dashes (`dot-size` is `--dot-size`).
    public let name: String
    /// One or two sentences, without the default (`defaultText` is added where shown).
    public let help: String
    /// The value's name in a usage line (`<seconds>`); empty for a flag.
    public let valueName: String
    /// What is accepted, as the refusal says it ("seconds from 0 to 60").
    public let accepted: String
    /// The default as typed, or in words; nil where there is none to show (a flag, a missing input).
    public internal(set) var defaultText: String?
    /// A flag takes no value: naming it sets the parameter.
    public let isFlag: Bool
    /// The values it takes, for completions and the docs (empty: any text).
    public let choices: [String]
    /// A list: the option takes every value up to the next option (`--audio a.wav b.wav`).
    public internal(set) var isList = false
    /// Where the parameter means something: every command, or only where a frame loop runs.
    public let scope: Scope
    /// Another parameter this one only goes with (its name), nil where none.
    public let requires: String?

    /// Where a parameter means something.
    public enum Scope: Sendable, Equatable {
        /// It shapes the scene: every command takes it.
        case scene
        /// It shapes a live frame loop (how frames learn the time, the loop's work): `waves demo` and `waves bench`.
        case frameLoop
        /// It paces a frame loop that steps physics (its cap and budget): `waves demo` and `waves bench --preset pacing`.
        case pacedLoop
    }

    package init(name: String, help: String, valueName: String, accepted: String, defaultText: String?, isFlag: Bool,
                 choices: [String], scope: Scope, requires: String?) {
        self.name = name; self.help = help; self.valueName = valueName; self.accepted = accepted
        self.defaultText = defaultText; self.isFlag = isFlag; self.choices = choices; self.scope = scope
        self.requires = requires
    }

    /// The option as typed: `--dot-size`.
    public var option: String { "--" + name }

    /// The help line with the default where there is one.
    public var helpWithDefault: String {
        guard let defaultText else { return help }
        return help + " (default: \(defaultText))"
    }
}

/// One parameter of a model (an effect's settings struct): its description,
/// how a typed value sets it, and whether the model's value is accepted.
public struct Parameter<Model>: @unchecked Sendable {
    public internal(set) var info: ParameterInfo
    /// Parses the text and sets the model; false where the text is not a value of this kind.
    let assign: (inout Model, String) -> Bool
    /// Whether the model's value is accepted (ranges may read other parameters of the model).
    let holds: (Model) -> Bool
    /// The model's value as it would be typed (nil: none set).
    let show: (Model) -> String?
    /// What is accepted, for this model (a bound that depends on another parameter names its value).
    let acceptedFor: (Model) -> String

    public var name: String { info.name }

    /// A parameter of any kind: how text becomes the value, how the value is
    /// shown and which values are accepted. The kinds below are made with it.
    public static func value<Value>(
        _ name: String, _ path: WritableKeyPath<Model, Value>, valueName: String, accepted: String,
        help: String, defaultText: String? = nil, choices: [String] = [], scope: ParameterInfo.Scope = .scene,
        requires: String? = nil,
        parse: @escaping (String) -> Value?, show: @escaping (Value) -> String?, holds: @escaping (Value) -> Bool = { _ in true },
        acceptedFor: ((Model) -> String)? = nil, holdsIn: ((Model) -> Bool)? = nil
    ) -> Parameter {
        let info = ParameterInfo(name: name, help: help, valueName: valueName, accepted: accepted,
                                 defaultText: defaultText, isFlag: false, choices: choices,
                                 scope: scope, requires: requires)
        return Parameter(
            info: info,
            assign: { model, text in
                guard let value = parse(text) else { return false }
                model[keyPath: path] = value
                return true
            },
            holds: { model in holds(model[keyPath: path]) && (holdsIn?(model) ?? true) },
            show: { show($0[keyPath: path]) },
            acceptedFor: acceptedFor ?? { _ in accepted })
    }

    /// A flag: naming it sets the model's value to `sets`.
    public static func flag(_ name: String, _ path: WritableKeyPath<Model, Bool>, sets: Bool = true, help: String,
                            scope: ParameterInfo.Scope = .scene, requires: String? = nil) -> Parameter {
        let info = ParameterInfo(name: name, help: help, valueName: "", accepted: "no value", defaultText: nil, isFlag: true,
                                 choices: [], scope: scope, requires: requires)
        return Parameter(info: info, assign: { model, _ in model[keyPath: path] = sets; return true },
                         holds: { _ in true }, show: { $0[keyPath: path] == sets ? "" : nil }, acceptedFor: { _ in "no value" })
    }

    /// The same parameter of a model held inside another (a shared list lifted into an effect's settings).
    public func lifted<Outer>(_ path: WritableKeyPath<Outer, Model>) -> Parameter<Outer> {
        let (assign, holds, show, acceptedFor) = (self.assign, self.holds, self.show, self.acceptedFor)
        return Parameter<Outer>(info: info,
                                assign: { outer, text in assign(&outer[keyPath: path], text) },
                                holds: { holds($0[keyPath: path]) },
                                show: { show($0[keyPath: path]) },
                                acceptedFor: { acceptedFor($0[keyPath: path]) })
    }

    /// The refusal of the model's value when it is not accepted.
    public func check(_ model: Model) throws {
        guard holds(model) else {
            throw ValueError(parameter: name, value: show(model) ?? "(none)", accepted: acceptedFor(model))
        }
    }
}

/// A model's parameters, in the order its help lists them.
public struct ParameterList<Model>: @unchecked Sendable {
    public var parameters: [Parameter<Model>]
    /// Checks across parameters that no one parameter's range says (either a duration or a spring's constants).
    var rules: [(Model) throws -> Void]

    /// The parameters of a model whose defaults are `defaults` (each help shows its default from them, unless it says its own).
    public init(defaults: Model, _ parameters: [Parameter<Model>], rules: [(Model) throws -> Void] = []) {
        self.parameters = parameters.map { parameter in
            var parameter = parameter
            if parameter.info.defaultText == nil, !parameter.info.isFlag { parameter.info.defaultText = parameter.show(defaults) }
            return parameter
        }
        self.rules = rules
    }

    /// No parameters, to add lists to (`with`).
    package static var empty: ParameterList { ParameterList(lifted: [], rules: []) }

    init(lifted parameters: [Parameter<Model>], rules: [(Model) throws -> Void]) {
        self.parameters = parameters
        self.rules = rules
    }

    public var infos: [ParameterInfo] { parameters.map(\.info) }

    /// This list with another model's list held inside this model, after it.
    public func with<Inner>(_ inner: ParameterList<Inner>, at path: WritableKeyPath<Model, Inner>) -> ParameterList<Model> {
        ParameterList(lifted: parameters + inner.parameters.map { $0.lifted(path) },
                      rules: rules + inner.rules.map { rule in { try rule($0[keyPath: path]) } })
    }

    /// The parameters of this list named, in its order (an effect that takes some of a shared list).
    public func only(_ names: [String]) -> ParameterList<Model> {
        ParameterList(lifted: parameters.filter { names.contains($0.name) }, rules: rules)
    }

    /// The model with the given values that parse set, unchecked (for a default that reads another parameter).
    public func applyingLeniently(_ given: [String: String], to model: Model) -> Model {
        var model = model
        for parameter in parameters { if let text = given[parameter.name] { _ = parameter.assign(&model, text) } }
        return model
    }

    /// Every parameter of the model within its range, then the rules across them.
    public func check(_ model: Model) throws {
        for parameter in parameters { try parameter.check(model) }
        for rule in rules { try rule(model) }
    }

    /// `model` with the given values (by parameter name, as typed; a flag's
    /// text is ignored) set and checked: a value that is not of its kind, or
    /// out of range, is refused in one line naming the option.
    /// Names this list does not hold are left for others.
    public func applying(_ given: [String: String], to model: Model) throws -> Model {
        var model = model
        for parameter in parameters {
            guard let text = given[parameter.name] else { continue }
            if let other = parameter.info.requires, given[other] == nil {
                throw ValueError(parameter: parameter.name, value: text, accepted: "only with --\(other)")
            }
            guard parameter.assign(&model, text) else {
                throw ValueError(parameter: parameter.name, value: text, accepted: parameter.acceptedFor(model))
            }
        }
        try check(model)
        return model
    }
}

/// How the kinds of value read and show their text.
public enum ParameterText {
    /// What joins a list's values in one text.
    public static let listSeparator: Character = "\u{0}"

    /// A number as a person would type it: 1, 0.25, 1e-06.
    public static func number(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%g", value)
    }

    /// A finite number (a fraction such as 1/120 where `fractions`).
    public static func parseNumber(_ text: String, fractions: Bool = false) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if fractions {
            let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), b != 0, (a / b).isFinite { return a / b }
        }
        guard let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// "from 0 to 60", "above 0 up to 1000", "above -1 and below 1".
    public static func range(_ range: ClosedRange<Double>, above: Bool = false, below: Bool = false) -> String {
        let low = number(range.lowerBound), high = number(range.upperBound)
        switch (above, below) {
        case (false, false): return "from \(low) to \(high)"
        case (true, false): return "above \(low) up to \(high)"
        case (false, true): return "from \(low) and below \(high)"
        case (true, true): return "above \(low) and below \(high)"
        }
    }
}

extension Parameter {
    /// A number in a range: "seconds from 0 to 60" (`what` is "seconds").
    public static func number(
        _ name: String, _ path: WritableKeyPath<Model, Double>, _ range: ClosedRange<Double>, above: Bool = false,
        below: Bool = false, what: String, valueName: String = "number", help: String, defaultText: String? = nil,
        fractions: Bool = false, scope: ParameterInfo.Scope = .scene
    ) -> Parameter {
        .value(name, path, valueName: valueName, accepted: "\(what) \(ParameterText.range(range, above: above, below: below))",
               help: help, defaultText: defaultText, scope: scope,
               parse: { ParameterText.parseNumber($0, fractions: fractions) }, show: { ParameterText.number($0) },
               holds: { Self.within($0, range, above: above, below: below) })
    }

    /// A number that may be left unset (the effect then chooses).
    public static func number(
        _ name: String, _ path: WritableKeyPath<Model, Double?>, _ range: ClosedRange<Double>, above: Bool = false,
        below: Bool = false, what: String, valueName: String = "number", help: String, defaultText: String? = nil,
        fractions: Bool = false, scope: ParameterInfo.Scope = .scene, requires: String? = nil
    ) -> Parameter {
        .value(name, path, valueName: valueName, accepted: "\(what) \(ParameterText.range(range, above: above, below: below))",
               help: help, defaultText: defaultText, scope: scope, requires: requires,
               // Text that is not a number is refused (nil), not read as "unset" (.some(nil)).
               parse: { ParameterText.parseNumber($0, fractions: fractions).map { .some($0) } }, show: { $0.map(ParameterText.number) },
               holds: { $0.map { Self.within($0, range, above: above, below: below) } ?? true })
    }

    /// A whole number in a range: "a whole number of pixels from 1 to 4096".
    public static func whole(
        _ name: String, _ path: WritableKeyPath<Model, Int>, _ range: ClosedRange<Int>, what: String,
        valueName: String = "n", help: String, defaultText: String? = nil, why: String? = nil, scope: ParameterInfo.Scope = .scene
    ) -> Parameter {
        .value(name, path, valueName: valueName, accepted: Self.wholeAccepted(range, what) + (why.map { ": " + $0 } ?? ""), help: help, defaultText: defaultText,
               scope: scope, parse: { Int($0.trimmingCharacters(in: .whitespaces)) }, show: { "\($0)" },
               holds: { range.contains($0) })
    }

    /// A whole number that may be left unset.
    public static func whole(
        _ name: String, _ path: WritableKeyPath<Model, Int?>, _ range: ClosedRange<Int>, what: String,
        valueName: String = "n", help: String, defaultText: String? = nil, scope: ParameterInfo.Scope = .scene
    ) -> Parameter {
        .value(name, path, valueName: valueName, accepted: Self.wholeAccepted(range, what), help: help, defaultText: defaultText,
               scope: scope, parse: { Int($0.trimmingCharacters(in: .whitespaces)).map { .some($0) } }, show: { $0.map { "\($0)" } },
               holds: { $0.map(range.contains) ?? true })
    }

    /// One of a set of names (an enumeration spelt as typed).
    public static func choice<Value: RawRepresentable & CaseIterable>(
        _ name: String, _ path: WritableKeyPath<Model, Value>, help: String, defaultText: String? = nil,
        scope: ParameterInfo.Scope = .scene, requires: String? = nil
    ) -> Parameter where Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        return .value(name, path, valueName: name, accepted: Self.oneOf(names), help: help, defaultText: defaultText,
                      choices: names, scope: scope, requires: requires,
                      parse: { Value(rawValue: $0) }, show: { $0.rawValue })
    }

    /// One of a set of names, or unset (the effect then chooses).
    public static func choice<Value: RawRepresentable & CaseIterable>(
        _ name: String, _ path: WritableKeyPath<Model, Value?>, help: String, defaultText: String? = nil,
        scope: ParameterInfo.Scope = .scene, requires: String? = nil
    ) -> Parameter where Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        return .value(name, path, valueName: name, accepted: Self.oneOf(names), help: help, defaultText: defaultText,
                      choices: names, scope: scope, requires: requires,
                      parse: { Value(rawValue: $0).map { .some($0) } }, show: { $0?.rawValue })
    }

    /// Text, as typed (a file name), or unset.
    public static func text(_ name: String, _ path: WritableKeyPath<Model, String?>, valueName: String, accepted: String,
                            help: String, defaultText: String? = nil) -> Parameter {
        .value(name, path, valueName: valueName, accepted: accepted, help: help, defaultText: defaultText,
               parse: { $0.isEmpty ? nil : .some($0) }, show: { $0 })
    }

    /// Several texts (file names), as the command line's values up to the
    /// next option; given as one text, the values joined by NUL (which no
    /// file name holds: `ParameterText.listSeparator`).
    public static func list(_ name: String, _ path: WritableKeyPath<Model, [String]>, valueName: String, help: String,
                            defaultText: String? = nil) -> Parameter {
        var parameter = Parameter.value(name, path, valueName: valueName, accepted: "one or more names", help: help,
                                        defaultText: defaultText,
                                        parse: { text in text.isEmpty ? nil : text.split(separator: ParameterText.listSeparator).map(String.init) },
                                        show: { $0.isEmpty ? nil : $0.joined(separator: " ") })
        parameter.info.isList = true
        return parameter
    }

    /// A colour, #RRGGBB or #RRGGBBAA.
    public static func color(_ name: String, _ path: WritableKeyPath<Model, RGBA8>, help: String,
                             defaultText: String? = nil) -> Parameter {
        .value(name, path, valueName: "color", accepted: "a colour as #RRGGBB or #RRGGBBAA", help: help,
               defaultText: defaultText, parse: { RGBA8(hex: $0) }, show: { $0.hex })
    }

    static func within(_ value: Double, _ range: ClosedRange<Double>, above: Bool, below: Bool) -> Bool {
        value.isFinite && (above ? value > range.lowerBound : value >= range.lowerBound)
            && (below ? value < range.upperBound : value <= range.upperBound)
    }

    static func wholeAccepted(_ range: ClosedRange<Int>, _ what: String) -> String {
        "a whole number of \(what) from \(range.lowerBound) to \(range.upperBound)"
    }

    /// "one of: a, b, c".
    static func oneOf(_ names: [String]) -> String { "one of: " + names.joined(separator: ", ") }
}
