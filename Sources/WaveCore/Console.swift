import Foundation

/// What a person at a terminal sees of a command: its lines on stderr, its
/// progress redrawn in place, and the sysexits status an error ends it with
/// (each error type says its own, `UserFacingError`).

/// The statuses a command exits with (sysexits.h).
package enum ExitStatus {
    package static let usage: Int32 = 64, badData: Int32 = 65, missingInput: Int32 = 66, unavailable: Int32 = 69
    package static let software: Int32 = 70, noMemory: Int32 = 71, cannotCreate: Int32 = 73, tryAgain: Int32 = 75

    /// A failure a retry can help: no memory, no space or an I/O error writing, an unavailable resource.
    package static func isRetryable(_ status: Int32) -> Bool { [unavailable, noMemory, cannotCreate, tryAgain].contains(status) }
}

/// An error whose one-line description is what a user reads, and the status
/// the command then exits with.
package protocol UserFacingError: Error, CustomStringConvertible {
    var exitStatus: Int32 { get }
}

extension ValueError: UserFacingError {
    package var exitStatus: Int32 { ExitStatus.usage }
}

// A scene built from input data that no backend can draw.
extension LayerTreeError: UserFacingError {
    package var exitStatus: Int32 { ExitStatus.badData }
}

extension PathError: UserFacingError {
    package var exitStatus: Int32 { ExitStatus.badData }
}

extension ResourceError: UserFacingError {
    package var exitStatus: Int32 { ExitStatus.noMemory }
}

extension RendererError: UserFacingError {
    package var exitStatus: Int32 {
        if case .unavailable = self { return ExitStatus.unavailable }
        return ExitStatus.software
    }
}

/// A line (or, for progress, part of one) on stderr.
package func printError(_ text: String, newline: Bool = true) {
    // write(2), whose failure (stderr closed or full) is ignored: FileHandle's would end the process.
    let line = text + (newline ? "\n" : "")
    // Through QuietOutput: while another thread's libsndfile call has stderr silenced, the line still reaches it.
    Array(line.utf8).withUnsafeBytes { QuietOutput.stderr.write($0) }
}

/// "[######..........] 12/120 frames, 0:03 elapsed, 0:27 left" on a
/// terminal's stderr, redrawn in place at most ten times a second. Where
/// stderr is not a terminal (a cluster's log, a pipe) a long run may ask for
/// plain lines instead (`forTerminal(orLogEvery:)`): "waves: 40%, 1:00
/// elapsed, about 1:30 left  mnemonics.json", the first after that many
/// seconds and then at most one as often, so a short run's log stays as it was.
package final class TerminalProgress {
    private let unit: String
    private let start = Clocks.wall()
    private var lastDraw = -Double.infinity
    private var drawn = false
    /// Plain lines at most this many seconds apart (nil: the terminal's bar).
    private let logInterval: Double?
    /// Where a line goes (stderr; a test's own sink).
    private let write: (String, _ newline: Bool) -> Void

    /// `unit`: what is counted ("frame", "item"); nil where the label says it.
    package init(unit: String? = nil, logEvery logInterval: Double? = nil,
                 write: @escaping (String, _ newline: Bool) -> Void = { printError($0, newline: $1) }) {
        self.unit = unit ?? ""
        self.logInterval = logInterval
        self.write = write
    }

    /// A progress display where stderr is a terminal, nil elsewhere.
    package static func forTerminal(unit: String? = nil) -> TerminalProgress? {
        isatty(STDERR_FILENO) == 1 ? TerminalProgress(unit: unit) : nil
    }

    /// The bar where stderr is a terminal; elsewhere plain lines, at most one every `seconds`.
    package static func forTerminal(unit: String? = nil, orLogEvery seconds: Double) -> TerminalProgress {
        TerminalProgress(unit: unit, logEvery: isatty(STDERR_FILENO) == 1 ? nil : seconds)
    }

    package func update(done: Int, of total: Int, label: String = "") {
        let now = Clocks.wall()
        if let logInterval {
            // The first line once a run has gone on that long, none for the end (the report follows it).
            guard done < total, now - Swift.max(start, lastDraw) >= logInterval else { return }
        } else {
            guard done >= total || now - lastDraw >= 0.1 else { return }
        }
        lastDraw = now
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        // Elapsed, and what is left at the rate so far.
        let elapsed = now - start
        let left = fraction > 0.01 ? elapsed / fraction * (1 - fraction) : nil
        let count = unit.isEmpty ? "\(Int(fraction * 100))%" : "\(done)/\(total) \(unit)s"
        let times = "\(Self.clock(elapsed)) elapsed" + (left.map { ", about \(Self.clock($0)) left" } ?? "")
        if logInterval != nil {
            write("waves: \(count), \(times)" + (label.isEmpty ? "" : "  " + label), true)
            return
        }
        let filled = Int((fraction * 24).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 24 - filled)
        // \r back to the line's start, ESC[K clears what a longer label left.
        write("\r\u{1B}[K[\(bar)] \(count)  \(times)" + (label.isEmpty ? "" : "  " + label), false)
        drawn = true
    }

    /// Clears the line so what follows starts on a clean one.
    package func finish() {
        if drawn { write("\r\u{1B}[K", false) }
        drawn = false
    }

    package static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
