import ArgumentParser
import Foundation
import WaveCore
import WaveGL
import WaveImageIO

/// The one mapping from errors to what a person sees and the exit status.
enum ExitStatus {
    static let usage: Int32 = 64, badData: Int32 = 65, unavailable: Int32 = 69, cannotCreate: Int32 = 73

    static func of(_ error: Error) -> Int32 {
        switch error {
        case is SceneError, is UsageError: return usage
        case let png as FileError:
            if case .cannotRead = png { return badData }
            return cannotCreate
        case let renderer as RendererError:
            if case .unavailable = renderer { return unavailable }
            return 70
        // The driver cannot do it here (a limit, no context): unavailable.
        case is GLError, is GLContextError: return unavailable
        case let code as ExitCode: return code.rawValue
        default:
            let code = Waves.exitCode(for: error).rawValue
            return code == 1 ? 70 : code
        }
    }

    static func message(of error: Error) -> String {
        switch error {
        case is SceneError, is UsageError, is FileError, is RendererError, is GLError, is GLContextError:
            return "\(error)"
        default:
            // ArgumentParser's own message, kept to its first line.
            return Waves.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
        }
    }
}

/// Bad input caught by the command line itself: names the option, the value
/// and what is accepted.
struct UsageError: Error, CustomStringConvertible {
    let option: String
    let value: String
    let accepted: String
    var description: String { "\(option) \(value): expected \(accepted)" }
}

/// A line (or, for progress, part of one) on stderr.
func printError(_ text: String, newline: Bool = true) {
    FileHandle.standardError.write(Data((text + (newline ? "\n" : "")).utf8))
}
