import Foundation

/// A C library's own printing, silenced: around a call, a standard
/// descriptor points at /dev/null and is put back afterwards, so Waves'
/// own output is all it carries. Used for stderr around libsndfile's reads
/// (its MP3 decoder, mpg123, writes notes and warnings straight to stderr,
/// "Note: Illegal Audio-MPEG-Header ...", and libsndfile offers no setting
/// that reaches mpg123's quiet flag) and for stdout around Chipmunk's first
/// space (Debian's build prints two lines there, which would corrupt a PNG
/// written to standard output).
///
/// Process-wide while it lasts (descriptors are): calls nest, and calls on
/// other threads run at the same time (a batch decodes tracks in
/// parallel), the descriptor silenced until the last one ends. Waves' own
/// lines go through `write`, to where the descriptor pointed before, so a
/// line printed by one thread while another decodes is never lost. Where
/// the descriptor is closed, /dev/null stands in for the call and it is
/// closed again afterwards, so nothing opened meanwhile can take its number
/// (the binary also opens /dev/null on a closed descriptor 2 at start).
package final class QuietOutput: @unchecked Sendable {
    package static let stderr = QuietOutput(descriptor: STDERR_FILENO, stream: Glibc.stderr)
    package static let stdout = QuietOutput(descriptor: STDOUT_FILENO, stream: Glibc.stdout)

    private let descriptor: Int32
    private let stream: UnsafeMutablePointer<FILE>
    private let lock = NSRecursiveLock()
    private var depth = 0
    /// Where the descriptor was, while silenced; -1 where it was closed.
    private var saved: Int32 = -1
    private var silenced = false

    private init(descriptor: Int32, stream: UnsafeMutablePointer<FILE>) {
        self.descriptor = descriptor
        self.stream = stream
    }

    package func run<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        if depth == 0 { silence() }
        depth += 1
        lock.unlock()
        defer {
            lock.lock()
            depth -= 1
            if depth == 0 { restore() }
            lock.unlock()
        }
        return try body()
    }

    /// Writes `bytes` where the descriptor pointed before any silencing (nowhere where it was closed).
    package func write(_ bytes: UnsafeRawBufferPointer) {
        lock.lock()
        defer { lock.unlock() }
        let target = silenced ? saved : descriptor
        guard target >= 0, var next = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let written = Glibc.write(target, next, left)
            if written < 0 && errno == EINTR { continue }
            // A reader that went away, or a full disk: the line is dropped, never the process.
            guard written > 0 else { return }
            next += written
            left -= written
        }
    }

    private func silence() {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { return } // no /dev/null: leave it as it is
        fflush(stream)
        saved = fcntl(descriptor, F_DUPFD_CLOEXEC, 3) // -1: it is closed
        dup2(null, descriptor)
        close(null)
        silenced = true
    }

    private func restore() {
        guard silenced else { return }
        fflush(stream)
        if saved >= 0 {
            dup2(saved, descriptor)
            close(saved)
        } else {
            close(descriptor)
        }
        saved = -1
        silenced = false
    }
}
