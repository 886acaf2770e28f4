import Foundation
import WaveAudio
import WaveCore
import WaveEffects

/// Opens the level the dots and the voice follow (`LevelInput`, declared
/// with them): constant, a file's envelope, live from standard input or the
/// microphone. Each source is opened once a run.
package enum LevelOpener {
    /// The level sources opened (a file is decoded once; stdin has one reader).
    nonisolated(unsafe) private static var levels: [String: Level] = [:]
    /// The microphone, once opened (`--level-from mic`): kept open for the run, read by the demo's meter.
    nonisolated(unsafe) package static var microphone: Microphone?

    package static func open(_ input: LevelInput) throws -> Level {
        guard let levelFrom = input.from else { return .constant(input.constant) }
        let key = "\(levelFrom)|\(input.attack)|\(input.release)"
        if let made = levels[key] { return made }
        let made: Level
        if levelFrom == "-" {
            let live = LiveLevel(start: input.constant, smoothing: input.smoothing)
            StdinLevelReader.start(feeding: live)
            made = .live(live)
        } else if levelFrom == "mic" {
            // The chapter's meter: each reading animated over 0.1 s from where the level is.
            let live = LiveLevel(start: 0, smoothing: input.smoothing, ramp: 0.1)
            let microphone = try Microphone(feeding: live)
            Self.microphone = microphone
            printError("waves: listening to \(microphone.deviceName)")
            made = .live(live)
        } else {
            let reader = try AudioReader(path: levelFrom)
            made = .envelope(try AudioLevel.envelope(of: reader, smoothing: input.smoothing))
            try DecodeReport.check(reader)
        }
        levels[key] = made
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
