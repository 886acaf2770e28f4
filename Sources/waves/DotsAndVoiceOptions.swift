import ArgumentParser
import Foundation
import WaveAudio
import WaveCore
import WaveEffects

/// `--scene dots` and `--scene voice`: the dots' look and animation, the
/// voice style, and the level that drives both (constant, from an audio
/// file, or live from stdin). See README.md, "Dots and the voice wave".
extension Voice.Style: ExpressibleByArgument {}

/// Two numbers XxY (a scale on each axis), parsed with a message that says what is accepted.
func parseScalePair(_ text: String) throws -> (x: Double, y: Double) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite,
          x > 0, y > 0, x <= 1000, y <= 1000 else {
        throw Expected(accepted: "XxY, two numbers above 0 up to 1000, for example 1.4x15")
    }
    return (x, y)
}

func parseColorPair(_ text: String) throws -> (RGBA8, RGBA8) {
    let parts = text.split(separator: ",")
    guard parts.count == 2, let a = RGBA8(hex: String(parts[0])), let b = RGBA8(hex: String(parts[1])) else {
        throw Expected(accepted: "two colours FROM,TO as #RRGGBB or #RRGGBBAA, for example '#FF00FF,#00FFFF'")
    }
    return (a, b)
}

struct DotsAndVoiceOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "--scene dots: dots in all (default: as many as fit one row of the width).",
            transform: parseWhole("a whole number of dots from 1 to \(Dots.maxCount)"))
    var dots: Int?

    @Option(name: .customLong("dot-size"), parsing: .unconditional, help: "--scene dots: a dot's side in pixels at scale 1 (default 6).")
    var dotSize = 6.0

    @Option(name: .customLong("dot-spacing"), parsing: .unconditional, help: "--scene dots: pixels from one dot's centre to the next (default 8).")
    var dotSpacing = 8.0

    @Option(name: .customLong("corner-radius"), parsing: .unconditional, help: "--scene dots: the dot's corner radius in pixels (default 1.5).")
    var cornerRadius = 1.5

    @Option(name: .customLong("instance-delay"), parsing: .unconditional, help: "--scene dots: seconds each dot runs behind the one before (default 0.02).")
    var instanceDelay = 0.02

    @Option(name: .customLong("dot-scale"), help: "--scene dots: the scale XxY a dot swings to at level 1 (default 1.4x15).", transform: parseScalePair)
    var dotScale: (x: Double, y: Double) = (1.4, 15)

    @Option(parsing: .unconditional, help: "--scene dots: radians each dot turns more than the one before at the height of the row's curl, 0 for a straight row (default 0.01).")
    var curl = 0.01
    @Option(name: .customLong("dot-fade"), parsing: .unconditional, help: "--scene dots: the opacity a dot fades to, 0 to 1 (default 0.2).")
    var dotFade = 0.2

    @Option(name: .customLong("dot-beat"), parsing: .unconditional, help: "--scene dots: seconds of one scale swing (and of the fade; the tint takes twice as long) (default 0.33).")
    var dotBeat = 0.33

    @Option(name: .customLong("dot-tint"), help: "--scene dots: the tint's two colours FROM,TO (default #FF00FF,#00FFFF).", transform: parseColorPair)
    var dotTint: (RGBA8, RGBA8) = (RGBA8(0xFF, 0x00, 0xFF), RGBA8(0x00, 0xFF, 0xFF))

    @Option(help: "--scene voice: classic (siriwave) or ios7 (SCSiriWaveformView) (default classic).")
    var style: Voice.Style = .classic

    @Option(parsing: .unconditional, help: "--scene dots|voice: a constant level from 0 to 1 when no --level-from is given (default \(Voice.defaultLevel)).")
    var level = Voice.defaultLevel

    @Option(name: .customLong("level-from"), help: "--scene dots|voice: an audio file (the RMS level around each moment), - for one level from 0 to 1 a line on stdin, read as frames are drawn, or mic for the default input device (PortAudio; each 50 ms reading animated over 0.1 s, as the chapter's meter).")
    var levelFrom: String?

    @Option(help: "--scene dots: the voice assistant's states in turn, NAME@SECONDS separated by commas: idle (grey, at rest), speak (the replicated animation) or listen (following the level); each switch moves every property from where it is to the next state's start over 0.33 s (default: one state, listen with --level-from, else speak). Example: speak@0,listen@3,idle@6.",
            transform: parseStates)
    var states: [Dots.StateSwitch]?

    @Option(parsing: .unconditional, help: "--scene dots|voice: seconds the level takes to rise 63% of the way (default 0.05).")
    var attack = 0.05

    @Option(parsing: .unconditional, help: "--scene dots|voice: seconds the level takes to fall 63% of the way (default 0.3).")
    var release = 0.3

    /// The level source, made once (a file is decoded once; stdin has one reader).
    nonisolated(unsafe) private static var levels: [String: Level] = [:]
    /// The microphone, once opened (`--level-from mic`): kept open for the run, read by the demo's meter.
    nonisolated(unsafe) static var microphone: Microphone?

    var smoothing: LevelSmoothing { LevelSmoothing(attack: attack, release: release) }

    /// Options given without the scene they shape are a usage error; with it, each is checked.
    func check(scene: EffectName) throws {
        let defaults = DotsAndVoiceOptions.defaults
        let dotsGiven: [(String, String, Bool)] = [
            ("--dots", "\(dots ?? 0)", dots != nil), ("--dot-size", "\(dotSize)", dotSize != defaults.dotSize),
            ("--dot-spacing", "\(dotSpacing)", dotSpacing != defaults.dotSpacing),
            ("--corner-radius", "\(cornerRadius)", cornerRadius != defaults.cornerRadius),
            ("--instance-delay", "\(instanceDelay)", instanceDelay != defaults.instanceDelay),
            ("--dot-scale", "\(dotScale.x)x\(dotScale.y)", dotScale != defaults.dotScale),
            ("--dot-fade", "\(dotFade)", dotFade != defaults.dotFade), ("--dot-beat", "\(dotBeat)", dotBeat != defaults.dotBeat),
            ("--dot-tint", "", dotTint != defaults.dotTint), ("--curl", "\(curl)", curl != defaults.curl),
            ("--states", states.map { $0.map { "\($0.state.rawValue)@\($0.at)" }.joined(separator: ",") } ?? "", states != nil),
        ]
        let levelGiven: [(String, String, Bool)] = [
            ("--level", "\(level)", level != defaults.level), ("--level-from", levelFrom ?? "", levelFrom != nil),
            ("--attack", "\(attack)", attack != defaults.attack), ("--release", "\(release)", release != defaults.release),
        ]
        for (option, value, given) in dotsGiven + levelGiven where given { try onlyWith(scene, option: option, value: value) }
        if style != .classic { try onlyWith(scene, option: "--style", value: style.rawValue) }
        guard takes(scene, "--level") else { return }
        guard level.isFinite, (0...1).contains(level) else {
            throw UsageError(option: "--level", value: "\(level)", accepted: "a number from 0 to 1")
        }
        for (option, value) in [("--attack", attack), ("--release", release)] where !(value.isFinite && value >= 0 && value <= 60) {
            throw UsageError(option: option, value: "\(value)", accepted: "seconds from 0 to 60")
        }
        if takes(scene, "--dots") {
            // The size-independent bounds, before anything (the bench's layout) uses them.
            guard dotSize.isFinite, dotSize > 0, dotSize <= 1000 else {
                throw UsageError(option: "--dot-size", value: "\(dotSize)", accepted: "a size in pixels above 0 up to 1000")
            }
            guard dotSpacing.isFinite, dotSpacing >= 1, dotSpacing <= 100_000 else {
                throw UsageError(option: "--dot-spacing", value: "\(dotSpacing)", accepted: "pixels from 1 to 100000")
            }
            guard cornerRadius.isFinite, cornerRadius >= 0, cornerRadius <= dotSize / 2 else {
                throw UsageError(option: "--corner-radius", value: "\(cornerRadius)",
                                 accepted: "pixels from 0 to half the dot size (\(dotSize / 2))")
            }
            guard instanceDelay.isFinite, instanceDelay >= 0, instanceDelay <= 60 else {
                throw UsageError(option: "--instance-delay", value: "\(instanceDelay)", accepted: "seconds from 0 to 60")
            }
            if let dots, !(1...Dots.maxCount).contains(dots) {
                throw UsageError(option: "--dots", value: "\(dots)", accepted: "a whole number of dots from 1 to \(Dots.maxCount)")
            }
            guard curl.isFinite, abs(curl) <= Double.pi else {
                throw UsageError(option: "--curl", value: "\(curl)", accepted: "radians from -3.14159 to 3.14159")
            }
            guard dotFade.isFinite, (0...1).contains(dotFade) else {
                throw UsageError(option: "--dot-fade", value: "\(dotFade)", accepted: "an opacity from 0 to 1")
            }
            guard dotBeat.isFinite, dotBeat >= 0.001, dotBeat <= 3600 else {
                throw UsageError(option: "--dot-beat", value: "\(dotBeat)", accepted: "seconds from 0.001 to 3600")
            }
        }
        _ = try levelSource()
    }

    static let defaults = DotsAndVoiceOptions.default

    private static var `default`: DotsAndVoiceOptions {
        // Parsing no arguments gives every default (it cannot fail).
        (try? DotsAndVoiceOptions.parse([])) ?? DotsAndVoiceOptions()
    }

    /// The level: constant, a file's envelope, or the live stdin level.
    func levelSource() throws -> Level {
        guard let levelFrom else { return .constant(level) }
        let key = "\(levelFrom)|\(attack)|\(release)"
        if let made = Self.levels[key] { return made }
        let made: Level
        if levelFrom == "-" {
            let live = LiveLevel(start: level, smoothing: smoothing)
            StdinLevelReader.start(feeding: live)
            made = .live(live)
        } else if levelFrom == "mic" {
            // The chapter's meter: each reading animated over 0.1 s from where the level is.
            let live = LiveLevel(start: 0, smoothing: smoothing, ramp: 0.1)
            let microphone = try Microphone(feeding: live)
            Self.microphone = microphone
            printError("waves: listening to \(microphone.deviceName)")
            made = .live(live)
        } else {
            let reader = try AudioReader(path: levelFrom)
            made = .envelope(try AudioLevel.envelope(of: reader, smoothing: smoothing))
            try DecodeReport.check(reader)
        }
        Self.levels[key] = made
        return made
    }

    /// The dots these options describe.
    func dots(width: Int, height: Int, level: Level) -> Dots {
        var effect = Dots(width: width, height: height)
        effect.dotSize = dotSize
        effect.spacing = dotSpacing
        effect.cornerRadius = cornerRadius
        effect.delay = instanceDelay
        effect.maxScale = Scale(x: dotScale.x, y: dotScale.y)
        effect.fade = dotFade
        effect.beat = dotBeat
        effect.tint = ColorRamp(from: dotTint.0, to: dotTint.1)
        effect.curl = curl
        effect.level = level
        effect.states = states
        return effect
    }
}

/// Reads levels from stdin on a thread of its own, one number from 0 to 1 a
/// line (`LevelStream`: at most 128 bytes of a line are held), so the frame
/// loop never waits for input. A line that is not such a number is skipped;
/// the first one gets one warning on stderr.
enum StdinLevelReader {
    static func start(feeding level: LiveLevel) {
        let thread = Thread {
            var warned = false
            LevelStream.read(STDIN_FILENO) { number, line in
                if case let .level(value) = line { return level.set(value) }
                if !warned, let warning = LevelStream.warning(line: number, line) {
                    warned = true
                    printError("waves: " + warning)
                }
            }
        }
        thread.start()
    }
}

/// `--states`: NAME@SECONDS, comma separated, in order.
func parseStates(_ text: String) throws -> [Dots.StateSwitch] {
    let accepted = "NAME@SECONDS separated by commas, NAME idle, speak or listen, each later than the last (for example speak@0,listen@3,idle@6)"
    var switches: [Dots.StateSwitch] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
        let parts = item.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let state = Dots.State(rawValue: parts[0].trimmingCharacters(in: .whitespaces)),
              let at = Double(parts[1].trimmingCharacters(in: .whitespaces)), at.isFinite, at >= 0, at <= 1e6 else { throw Expected(accepted: accepted) }
        guard switches.last.map({ $0.at < at }) ?? true, switches.count < 1000 else { throw Expected(accepted: accepted) }
        switches.append(Dots.StateSwitch(state, at: at))
    }
    return switches
}
