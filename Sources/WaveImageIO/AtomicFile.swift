import Foundation

/// Writes output files whole or not at all: into a temporary file in the
/// same folder, then renamed over the destination, so no reader (and no
/// failed or interrupted run) sees a partial file. Failures are
/// `FileError`s, the project's "cannot create output" errors (status 73).
public enum AtomicFile {
    /// Calls `write` with a temporary path beside `path`, then renames it
    /// over `path`; on any failure the temporary file is removed.
    public static func replace(_ path: String, write: (_ temporaryPath: String) throws -> Void) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        try OutputPaths.requireFolder(folder, for: path)
        let temporary = folder + "/." + url.lastPathComponent + ".\(getpid()).partial"
        do {
            try write(temporary)
            guard rename(temporary, path) == 0 else { throw failure(path) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    public static func write(_ data: Data, to path: String) throws {
        try replace(path) { temporary in
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
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

    public static func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path)
    }

    static func failure(_ path: String) -> FileError {
        .cannotWrite(path: path, reason: errno == EACCES ? "permission denied" : String(cString: strerror(errno)))
    }
}
