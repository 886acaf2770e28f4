import Foundation
import WaveCore

/// A track whose decoding stopped early (damaged or truncated): one warning
/// line on stderr per input, what decoded drawn or written; under `--strict`
/// (render, peaks) the same line as the error, exit 65, nothing written.
package enum DecodeReport {
    /// `InputPolicy.strict`, the command line's --strict.
    package static var strict: Bool {
        get { InputPolicy.strict }
        set { InputPolicy.strict = newValue }
    }
    /// What the command does with what was read, for the warning ("drew what was read").
    nonisolated(unsafe) package static var outcome = "drew what was read"
    nonisolated(unsafe) private static var warned: Set<String> = []
    private static let lock = NSLock()

    /// Call once `reader` has been read to its end (from any thread: a batch reads tracks in parallel).
    package static func check(_ reader: AudioReader) throws {
        guard let report = reader.stoppedEarly else { return }
        try self.report(path: reader.path, report)
    }

    /// A track at `path` whose decoding stopped early, for `report`: warned once, or refused under --strict.
    package static func report(path: String, _ report: String) throws {
        if strict { throw AudioError.stoppedEarly(path: path, report: report) }
        lock.lock()
        let first = warned.insert(path).inserted
        lock.unlock()
        if first { printError("waves: \(path): \(report); \(outcome)") }
    }
}
