import Foundation

/// Writes output files whole or not at all: into a temporary file in the
/// same folder, then renamed over the destination, so no reader (and no
/// failed or interrupted run) sees a partial file. Failures are
/// `FileError`s, the project's "cannot create output" errors (status 73).
///
/// - An output that is a symbolic link is refused unless `followsLinks`,
///   and one that is an input of the run (`ProtectedInputs`) always is.
/// - Only regular files are replaced: a device, FIFO or socket given as the
///   output is refused and left untouched (a rename would replace the node
///   itself), as is a folder; an existing read-only file is refused, not
///   replaced.
/// - Temporary names are short (`.w<pid>-<n>-<host>.tmp`), so any legal file name
///   can be written.
/// - While a temporary file exists, SIGINT, SIGTERM and SIGHUP remove it
///   before the process ends the way the signal asks (`PendingFile`).
package enum AtomicFile {
    /// Whether an output that is a symbolic link is written through (its
    /// target replaced, the link kept): `--follow-links`. Off, such an
    /// output is refused.
    nonisolated(unsafe) package static var followsLinks = false

    /// The help of every command's `--follow-links`.
    package static let followLinksHelp = "Write an output that is a symbolic link to what it points to (replaced whole, the link kept); without it such an output is refused."

    /// Calls `write` with a temporary path beside `path`, then renames it
    /// over `path`; on any failure the temporary file is removed.
    package static func replace(_ path: String, write: (_ temporaryPath: String) throws -> Void) throws {
        try OutputPaths.checkTarget(path)
        // A symbolic link is refused by checkTarget unless links are followed: then its target is replaced, the link kept.
        var target = path
        var info = stat()
        if lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent().path
        try OutputPaths.requireFolder(folder, for: path)
        // A replaced file keeps its permissions.
        var existing = stat()
        let oldMode: mode_t? = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : nil
        let temporary = folder + "/" + PendingFile.nextName()
        PendingFile.begin(temporary)
        defer { PendingFile.end() }
        // Made here, exclusively: a link planted at the temporary name is never written through.
        let made = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard made >= 0 else { throw failure(path) }
        close(made)
        do {
            try write(temporary)
            if let oldMode { chmod(temporary, oldMode) }
            guard rename(temporary, target) == 0 else { throw failure(path) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    package static func write(_ data: Data, to path: String) throws {
        try replace(path) { temporary in
            let fd = open(temporary, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { throw failure(path) }
            var failed: FileError?
            data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { failed = failure(path); return }
                    offset += written
                }
            }
            if close(fd) != 0 && failed == nil { failed = failure(path) }
            if let failed { throw failed }
        }
    }

    package static func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path)
    }

    package static func failure(_ path: String) -> FileError {
        .cannotWrite(path: path, reason: errno == EACCES ? "permission denied" : String(cString: strerror(errno)))
    }
}

/// The one temporary file being written, known to a signal handler that
/// only unlinks it and re-raises the signal with its default action (so the
/// process still ends as the signal asked). The path lives in memory made
/// once; the handler touches nothing else.
package enum PendingFile {
    private static let capacity = Int(PATH_MAX) + 1
    nonisolated(unsafe) private static let buffer: UnsafeMutablePointer<CChar> = {
        let b = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        b.initialize(repeating: 0, count: capacity)
        return b
    }()
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static var counter = 0

    /// `.w<pid>-<n>-<host>.tmp`: short, hidden, unique within the process;
    /// `<host>` (`hostTag`) tells whose process it was on a shared file system.
    static func nextName() -> String {
        counter += 1
        return ".w\(getpid())-\(counter)-\(hostTag).tmp"
    }

    /// Eight hex digits of this machine's name (FNV-1a): a process id means
    /// something only on the machine that gave it.
    package static let hostTag: String = {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        var hash: UInt32 = 2_166_136_261
        for byte in String(cString: name).utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return String(format: "%08x", hash)
    }()

    /// Whether `name` is a temporary file left by a process that is gone: one
    /// of this machine's whose process has ended, or another machine's (or of
    /// the older form, with no machine) untouched for a day.
    package static func isStale(_ name: String, in folder: String) -> Bool {
        guard name.hasPrefix(".w"), name.hasSuffix(".tmp") else { return false }
        let parts = name.dropFirst(2).dropLast(4).split(separator: "-")
        guard parts.count >= 2, let pid = Int32(parts[0]), parts[1].allSatisfy(\.isNumber) else { return false }
        if parts.count == 3 && parts[2] == hostTag {
            return pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
        }
        var info = stat()
        guard lstat(folder + "/" + name, &info) == 0 else { return false }
        return Double(time(nil) - info.st_mtim.tv_sec) > 86_400
    }

    static func begin(_ path: String) {
        installHandlers()
        let bytes = Array(path.utf8.prefix(capacity - 1))
        guard let first = bytes.first else { return end() }
        // The first byte last: until the copy is whole, a signal sees an empty path.
        buffer[0] = 0
        for i in bytes.indices.dropFirst() { buffer[i] = CChar(bitPattern: bytes[i]) }
        buffer[bytes.count] = 0
        buffer[0] = CChar(bitPattern: first)
    }

    static func end() { buffer[0] = 0 }

    private static func installHandlers() {
        guard !installed else { return }
        installed = true
        _ = buffer // made now: a handler must never be the first to touch it (lazy globals allocate)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                if PendingFile.pathIsSet { unlink(PendingFile.path) }
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            // Only where the signal has its default action (not ignored, not handled elsewhere).
            var old = sigaction()
            sigaction(sig, nil, &old)
            if old.__sigaction_handler.sa_handler == nil { sigaction(sig, &action, nil) }
        }
    }

    static var pathIsSet: Bool { buffer[0] != 0 }
    static var path: UnsafePointer<CChar> { UnsafePointer(buffer) }
}

/// Bytes written whole to standard output (`-` as an output), through write(2).
package enum StandardOutput {
    package static func write(_ bytes: Data) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileError.cannotWrite(path: "standard output", reason: String(cString: strerror(errno)))
                }
                offset += n
            }
        }
    }
}
