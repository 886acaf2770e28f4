import ArgumentParser
import Foundation
import WaveCore

/// The one mapping from errors to what a person sees and the exit status:
/// Waves' own errors say both (`UserFacingError`); ArgumentParser's are its
/// message, kept to one line, and its status.
enum Failure {
    static func status(of error: Error) -> Int32 {
        if let known = error as? UserFacingError { return known.exitStatus }
        if let code = error as? ExitCode { return code.rawValue }
        let code = Waves.exitCode(for: error).rawValue
        return code == 1 ? ExitStatus.software : code
    }

    static func message(of error: Error) -> String {
        error is UserFacingError ? "\(error)" : oneLine(Waves.message(for: error))
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

/// What a command says when it wanted a window and goes on headless: the
/// reason there is no window, then what it does instead (GL is still used:
/// "the gl backend is unavailable" would say the opposite).
func headlessFallback(_ error: Error, doing: String) -> String {
    guard case let .unavailable(_, reason)? = error as? RendererError else { return "\(error); " + doing }
    let why = reason.hasPrefix("no window: ") ? String(reason.dropFirst("no window: ".count)) : reason
    return "no window (\(why)); " + doing
}
