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
/// Where stderr is closed already there is nothing to silence and the body
/// runs as it is.
enum QuietStderr {
    private static let lock = NSRecursiveLock()
    nonisolated(unsafe) private static var depth = 0
    nonisolated(unsafe) private static var saved: Int32 = -1

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
        saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        guard saved >= 0 else { return } // stderr closed: nothing to silence
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else {
            close(saved)
            saved = -1
            return
        }
        fflush(stderr)
        dup2(null, STDERR_FILENO)
        close(null)
    }

    private static func restore() {
        guard saved >= 0 else { return }
        fflush(stderr)
        dup2(saved, STDERR_FILENO)
        close(saved)
        saved = -1
    }
}
