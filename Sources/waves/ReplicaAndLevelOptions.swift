import ArgumentParser
import Foundation
import WaveAudio
import WaveCore
import WaveEffects

/// The dots', the ring's and the voice's options: the replicated dot's look
/// and beat (dots, ring), the dots' row and states, the voice style, and the
/// level that drives dots and voice (constant, from an audio file, live from
/// stdin or the microphone). See docs/contract.md.
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

/// A replicated dot's look and beat, shared by the dots' row and the ring.
struct ReplicaOptions: ParsableArguments {
    @Option(help: "Dots in all; waves bench: the counts to sweep, a comma-separated list (default: dots, as many as fit one row of the width; ring, 12; waves bench: dots 10,100,1000,10000, ring 10,100,1000).")
    var dots: String?

    @Option(name: .customLong("dot-size"), parsing: .unconditional, help: "A dot's side in pixels at scale 1.")
    var dotSize = 6.0

    @Option(name: .customLong("instance-delay"), parsing: .unconditional, help: "Seconds each dot runs behind the one before.")
    var instanceDelay = 0.02

    @Option(name: .customLong("dot-beat"), parsing: .unconditional, help: "Seconds of one scale swing (and of the fade; the tint takes twice as long).")
    var dotBeat = 0.33

    @Option(name: .customLong("dot-tint"), help: "The tint's two colours FROM,TO (default: #FF00FF,#00FFFF).", transform: parseColorPair)
    var dotTint: (RGBA8, RGBA8) = (RGBA8(0xFF, 0x00, 0xFF), RGBA8(0x00, 0xFF, 0xFF))

    func check() throws {
        guard dotSize.isFinite, dotSize > 0, dotSize <= 1000 else {
            throw UsageError(option: "--dot-size", value: "\(dotSize)", accepted: "a size in pixels above 0 up to 1000")
        }
        guard instanceDelay.isFinite, instanceDelay >= 0, instanceDelay <= 60 else {
            throw UsageError(option: "--instance-delay", value: "\(instanceDelay)", accepted: "seconds from 0 to 60")
        }
        guard dotBeat.isFinite, dotBeat >= 0.001, dotBeat <= 3600 else {
            throw UsageError(option: "--dot-beat", value: "\(dotBeat)", accepted: "seconds from 0.001 to 3600")
        }
    }
}

/// The dots' row: spacing, shape, swing, curl and the voice assistant's states.
struct DotsOptions: ParsableArguments {
    @Option(name: .customLong("dot-spacing"), parsing: .unconditional, help: "Pixels from one dot's centre to the next.")
    var dotSpacing = 8.0

    @Option(name: .customLong("corner-radius"), parsing: .unconditional, help: "The dot's corner radius in pixels.")
    var cornerRadius = 1.5

    @Option(name: .customLong("dot-scale"), help: "The scale XxY a dot swings to at level 1 (default: 1.4x15).", transform: parseScalePair)
    var dotScale: (x: Double, y: Double) = (1.4, 15)

    @Option(parsing: .unconditional, help: "Radians each dot turns more than the one before at the height of the row's curl, 0 for a straight row.")
    var curl = 0.01

    @Option(name: .customLong("dot-fade"), parsing: .unconditional, help: "The opacity a dot fades to, 0 to 1.")
    var dotFade = 0.2

    @Option(help: "The voice assistant's states in turn, NAME@SECONDS separated by commas: idle (grey, at rest), speak (the replicated animation) or listen (following the level); each switch moves every property from where it is to the next state's start over 0.33 s (default: one state, listen with --level-from, else speak). Example: speak@0,listen@3,idle@6.",
            transform: parseStates)
    var states: [Dots.StateSwitch]?

    /// Each of the row's options within its bounds.
    func check(dotSize: Double) throws {
        guard dotSpacing.isFinite, dotSpacing >= 1, dotSpacing <= 100_000 else {
            throw UsageError(option: "--dot-spacing", value: "\(dotSpacing)", accepted: "pixels from 1 to 100000")
        }
        guard cornerRadius.isFinite, cornerRadius >= 0, cornerRadius <= dotSize / 2 else {
            throw UsageError(option: "--corner-radius", value: "\(cornerRadius)",
                             accepted: "pixels from 0 to half the dot size (\(dotSize / 2))")
        }
        guard curl.isFinite, abs(curl) <= Double.pi else {
            throw UsageError(option: "--curl", value: "\(curl)", accepted: "radians from -3.14159 to 3.14159")
        }
        guard dotFade.isFinite, (0...1).contains(dotFade) else {
            throw UsageError(option: "--dot-fade", value: "\(dotFade)", accepted: "an opacity from 0 to 1")
        }
    }

    /// The dots these options describe, with the replicated look (the size and level come later).
    func dots(replica: ReplicaOptions) -> Dots {
        var effect = Dots(width: 1, height: 1)
        effect.dotSize = replica.dotSize
        effect.spacing = dotSpacing
        effect.cornerRadius = cornerRadius
        effect.delay = replica.instanceDelay
        effect.maxScale = Scale(x: dotScale.x, y: dotScale.y)
        effect.fade = dotFade
        effect.beat = replica.dotBeat
        effect.tint = ColorRamp(from: replica.dotTint.0, to: replica.dotTint.1)
        effect.curl = curl
        effect.states = states
        return effect
    }
}

/// The voice wave's style.
struct VoiceOptions: ParsableArguments {
    @Option(help: "classic (siriwave) or ios7 (SCSiriWaveformView).")
    var style: Voice.Style = .classic
}

/// The level the dots and the voice follow: constant, a file's envelope, live
/// from standard input or the microphone, and how it is smoothed.
struct LevelOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "A constant level from 0 to 1 when no --level-from is given.")
    var level = Voice.defaultLevel

    @Option(name: .customLong("level-from"), help: "An audio file (the RMS level around each moment), - for one level from 0 to 1 a line on stdin, read as frames are drawn, or mic for the default input device (PortAudio; each 50 ms reading animated over 0.1 s, as the chapter's meter).")
    var levelFrom: String?

    @Option(parsing: .unconditional, help: "Seconds the level takes to rise 63% of the way.")
    var attack = 0.05

    @Option(parsing: .unconditional, help: "Seconds the level takes to fall 63% of the way.")
    var release = 0.3

    /// The level source, made once (a file is decoded once; stdin has one reader).
    nonisolated(unsafe) private static var levels: [String: Level] = [:]
    /// The microphone, once opened (`--level-from mic`): kept open for the run, read by the demo's meter.
    nonisolated(unsafe) static var microphone: Microphone?

    var smoothing: LevelSmoothing { LevelSmoothing(attack: attack, release: release) }

    func check() throws {
        guard level.isFinite, (0...1).contains(level) else {
            throw UsageError(option: "--level", value: "\(level)", accepted: "a number from 0 to 1")
        }
        for (option, value) in [("--attack", attack), ("--release", release)] where !(value.isFinite && value >= 0 && value <= 60) {
            throw UsageError(option: option, value: "\(value)", accepted: "seconds from 0 to 60")
        }
        _ = try levelSource()
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
