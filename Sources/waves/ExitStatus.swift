import ArgumentParser
import Foundation
import WaveCatalogue
import WaveAudio
import WaveBench
import WaveCore
import WaveImageIO

/// The one mapping from errors to what a person sees and the exit status.
enum ExitStatus {
    static let usage: Int32 = 64, badData: Int32 = 65, missingInput: Int32 = 66, unavailable: Int32 = 69
    static let cannotCreate: Int32 = 73

    static func of(_ error: Error) -> Int32 {
        switch error {
        case is ValueError: return usage
        case is OutsideOutputRoot: return badData
        case let audio as AudioError:
            switch audio {
            case .missing: return missingInput
            case .unreadable, .stoppedEarly: return badData
            case .cannotWrite: return cannotCreate
            }
        // A scene built from input data that no backend can draw.
        case is LayerTreeError, is PathError: return badData
        case let png as FileError:
            if case .cannotRead = png { return badData }
            return cannotCreate
        case let renderer as RendererError:
            if case .unavailable = renderer { return unavailable }
            return 70
        case is ResourceError: return 71
        case is MicrophoneError, is Blend2DUnavailable: return unavailable
        case let animation as AnimationError:
            if case .ffmpegMissing = animation { return unavailable }
            return cannotCreate
        case let code as ExitCode: return code.rawValue
        default:
            let code = Waves.exitCode(for: error).rawValue
            return code == 1 ? 70 : code
        }
    }

    static func message(of error: Error) -> String {
        switch error {
        case is ValueError, is FileError, is RendererError, is LayerTreeError, is PathError, is AudioError,
             is ResourceError, is AnimationError, is MicrophoneError, is Blend2DUnavailable, is OutsideOutputRoot:
            return "\(error)"
        default:
            return oneLine(Waves.message(for: error))
        }
    }

    /// ArgumentParser's own message, kept to its first line, with the values
    /// an option accepts kept on it: ArgumentParser names up to five in words
    /// ("Please provide one of 'a', 'b' or 'c'.") and puts more on the lines
    /// below ("Please provide one of the following:" then "  - a" ...); both
    /// become "expected one of: a, b, c".
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n").map(String.init)
        guard let first = lines.first else { return message }
        let values: [String]
        let cut: Range<String.Index>
        if let range = first.range(of: ". Please provide one of the following:") {
            cut = range
            values = lines.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("- ") }.map { String($0.dropFirst(2)) }
        } else if let range = first.range(of: ". Please provide one of ") {
            cut = range.lowerBound..<first.endIndex
            values = first[range.upperBound...].split(separator: "'", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        } else {
            return first
        }
        guard !values.isEmpty else { return first }
        return first[..<cut.lowerBound] + ": expected one of: " + values.joined(separator: ", ")
    }
}

/// A line (or, for progress, part of one) on stderr.
func printError(_ text: String, newline: Bool = true) {
    // write(2), whose failure (stderr closed or full) is ignored: FileHandle's would end the process.
    let line = text + (newline ? "\n" : "")
    // Through QuietOutput: while another thread's libsndfile call has stderr silenced, the line still reaches it.
    Array(line.utf8).withUnsafeBytes { QuietOutput.stderr.write($0) }
}

/// What a command says when it wanted a window and goes on headless: the
/// reason there is no window, then what it does instead (GL is still used:
/// "the gl backend is unavailable" would say the opposite).
func headlessFallback(_ error: Error, doing: String) -> String {
    guard case let .unavailable(_, reason)? = error as? RendererError else { return "\(error); " + doing }
    let why = reason.hasPrefix("no window: ") ? String(reason.dropFirst("no window: ".count)) : reason
    return "no window (\(why)); " + doing
}
