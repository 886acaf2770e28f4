import Foundation
import WaveCore

/// An input named on the command line (`--audio`, `--peaks`, `--outline`,
/// `--level-from`), opened once per process whatever its form: a regular
/// file is read in place; standard input (`-`), a FIFO, `/dev/stdin` or a
/// process substitution (`<(cmd)`) is copied once, as it arrives, into an
/// unlinked temporary file, so every later reader (libsndfile seeks, a
/// counting pass and a peaks pass) reads the same bytes at any offset and
/// the stream itself is read exactly once.
package final class InputFile: @unchecked Sendable {
    /// As given on the command line ("-" for standard input).
    package let argument: String
    /// For messages: the argument, or "standard input" for "-".
    package let name: String
    /// The bytes' length.
    package let size: Int
    /// Open for reading at any offset (pread): the file itself, or the unlinked copy of a stream.
    private let descriptor: Int32

    private init(argument: String, descriptor: Int32, size: Int) {
        self.argument = argument
        name = argument == "-" ? "standard input" : argument
        self.descriptor = descriptor
        self.size = size
    }

    deinit { close(descriptor) }

    /// Whether `paths` name a batch of inputs: several, or a folder.
    package static func isBatch(_ paths: [String]) -> Bool {
        paths.count > 1 || paths.contains { isFolder($0) }
    }

    package static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    /// Every stream copied so far, by argument: a stream is read once however
    /// often it is asked for. (A regular file is opened afresh each time, so a
    /// file replaced meanwhile is read as it is now.)
    nonisolated(unsafe) private static var streams: [String: InputFile] = [:]
    private static let lock = NSLock()

    /// The input named `argument` ("-": standard input): a missing file is
    /// `AudioError.missing`, a folder or an unreadable file `.unreadable`, a
    /// stream that cannot be copied `.cannotWrite` (the temporary folder).
    package static func open(_ argument: String) throws -> InputFile {
        lock.lock()
        defer { lock.unlock() }
        if let input = streams[argument] { return input }
        let (input, isStream) = try make(argument)
        if isStream { streams[argument] = input }
        return input
    }

    /// The input, and whether it is a stream (copied).
    private static func make(_ argument: String) throws -> (InputFile, Bool) {
        let display = argument == "-" ? "standard input" : argument
        let fd: Int32
        if argument == "-" {
            fd = dup(STDIN_FILENO)
            guard fd >= 0 else { throw AudioError.unreadable(path: display, reason: "standard input is closed") }
        } else {
            // Blocking open: a FIFO waits for its writer, as cat(1) does.
            fd = Glibc.open(argument, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                let code = errno
                if code == ENOENT || code == ENOTDIR { throw AudioError.missing(path: argument) }
                throw AudioError.unreadable(path: argument, reason: String(cString: strerror(code)))
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw AudioError.unreadable(path: display, reason: reason)
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            close(fd)
            throw AudioError.unreadable(path: display, reason: "it is a folder")
        case S_IFREG:
            // No output of this process may replace it.
            ProtectedInputs.add(argument)
            return (InputFile(argument: argument, descriptor: fd, size: Int(info.st_size)), false)
        default:
            // A pipe, a FIFO, a terminal, a socket or a device: read to its end once, into a copy.
            defer { close(fd) }
            let (copy, size) = try spool(fd, name: display)
            return (InputFile(argument: argument, descriptor: copy, size: size), true)
        }
    }

    /// Copies `fd` to its end into a temporary file unlinked at once (nothing
    /// is left behind however the process ends); returns the copy, open.
    private static func spool(_ fd: Int32, name: String) throws -> (Int32, Int) {
        let folder = NSTemporaryDirectory()
        var template = Array((folder + (folder.hasSuffix("/") ? "" : "/") + "waves-input-XXXXXX").utf8CString)
        let copy = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard copy >= 0 else { throw AudioError.cannotWrite(path: folder, reason: String(cString: strerror(errno))) }
        unlink(String(cString: template))
        _ = fcntl(copy, F_SETFD, FD_CLOEXEC)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                let reason = String(cString: strerror(errno))
                close(copy)
                throw AudioError.unreadable(path: name, reason: reason)
            }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = buffer[written..<n].withUnsafeBytes { Glibc.write(copy, $0.baseAddress, $0.count) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else {
                    let reason = String(cString: strerror(errno))
                    close(copy)
                    throw AudioError.cannotWrite(path: folder, reason: "a copy of \(name): \(reason)")
                }
                written += w
            }
            total += n
        }
        return (copy, total)
    }

    /// Reads up to `buffer.count` bytes at `offset` (fewer only at the end); -1 on a read error.
    package func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard offset >= 0, offset < size, let base = buffer.baseAddress else { return 0 }
        let wanted = min(buffer.count, size - offset)
        var done = 0
        while done < wanted {
            let n = pread(descriptor, base + done, wanted - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return -1 }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// The whole input, for the readers of small text and peaks files;
    /// refused past `limit` bytes.
    package func bytes(limit: Int = 1 << 30) throws -> Data {
        guard size <= limit else {
            throw AudioError.unreadable(path: name, reason: "\(size) bytes, more than the \(limit >> 20) MiB accepted")
        }
        var data = try CheckedMemory.allocating(bytes: size, for: "reading \(name)") { Data(count: size) }
        let got = data.withUnsafeMutableBytes { read(at: 0, into: $0) }
        guard got == size else {
            throw AudioError.unreadable(path: name, reason: got < 0 ? String(cString: strerror(errno)) : "it changed while read")
        }
        return data
    }
}
