import WaveCore

/// The level as the command line asks for it, declared once (the dots and
/// the voice take it): a constant, or a source (`from`: an audio file, `-`
/// for standard input, `mic`) smoothed by `attack` and `release`. The
/// command line opens a source into a `Level`.
public struct LevelInput: Equatable, Sendable {
    public var constant = Voice.defaultLevel
    public var from: String?
    public var attack = 0.05
    public var release = 0.3

    public init() {}

    public var smoothing: LevelSmoothing { LevelSmoothing(attack: attack, release: release) }

    public static let parameters = ParameterList(defaults: LevelInput(), [
        .number("level", \.constant, 0...1, what: "a number", valueName: "level",
                help: "A constant level from 0 to 1 when no --level-from is given."),
        .value("level-from", \.from, valueName: "source", accepted: "an audio file, - for standard input, or mic",
               help: "An audio file (the RMS level around each moment), - for one level from 0 to 1 a line on stdin, read as frames are drawn, or mic for the default input device (PortAudio; each 50 ms reading animated over 0.1 s, as the chapter's meter).",
               defaultText: "none: the constant --level", parse: { $0.isEmpty ? nil : .some($0) }, show: { $0 }),
        .number("attack", \.attack, 0...60, what: "seconds", valueName: "seconds",
                help: "Seconds the level takes to rise 63% of the way."),
        .number("release", \.release, 0...60, what: "seconds", valueName: "seconds",
                help: "Seconds the level takes to fall 63% of the way."),
    ])
}
