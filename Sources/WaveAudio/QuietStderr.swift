import Foundation

/// The decoders' own printing, silenced. libsndfile's MP3 decoder, mpg123,
/// writes notes and warnings straight to stderr ("Note: Illegal
/// Audio-MPEG-Header ...", "Warning: Xing stream size off by more than
/// 1% ..."), and libsndfile offers no setting that reaches mpg123's quiet
/// flag (its handle is private to libsndfile). So, around each call into
/// libsndfile that reads, file descriptor 2 points at /dev/null and is put
/// back afterwards: Waves' own line is then all stderr carries.
///
/// Process-wide while it lasts (descriptors are): calls nest, and a thread
/// printing meanwhile (none does while audio decodes) would be silenced too.
/// Where stderr is closed, /dev/null stands in for the call and descriptor 2
/// is closed again afterwards, so nothing a decoder opens meanwhile can
/// become "stderr" (the binary also opens /dev/null on a closed descriptor 2
/// at start, so no file of its own is ever descriptor 2).
enum QuietStderr {
    private static let lock = NSRecursiveLock()
    nonisolated(unsafe) private static var depth = 0
    /// Where stderr was, while silenced; -1 where it was closed.
    nonisolated(unsafe) private static var saved: Int32 = -1
    nonisolated(unsafe) private static var silenced = false

    static func run<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        if depth == 0 { silence() }
        depth += 1
        defer {
            depth -= 1
            if depth == 0 { restore() }
        }
        return try body()
    }

    private static func silence() {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { return } // no /dev/null: leave stderr as it is
        fflush(stderr)
        saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3) // -1: stderr is closed
        dup2(null, STDERR_FILENO)
        close(null)
        silenced = true
    }

    private static func restore() {
        guard silenced else { return }
        fflush(stderr)
        if saved >= 0 {
            dup2(saved, STDERR_FILENO)
            close(saved)
        } else {
            close(STDERR_FILENO)
        }
        saved = -1
        silenced = false
    }
}
