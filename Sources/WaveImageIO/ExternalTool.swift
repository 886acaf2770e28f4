import Foundation

/// Programs waves hands work to (ffmpeg for animations, rsvg-convert for
/// PNG charts): found on the PATH, run with posix_spawn and waited for.
package enum ExternalTool {
    /// The program `name` on the PATH, or nil.
    package static func find(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A fresh file for a program's stderr, in the temporary folder.
    static func logPath(_ name: String) -> String {
        NSTemporaryDirectory() + "waves-\(name)-\(getpid())-\(UUID().uuidString.prefix(8)).log"
    }

    /// Starts `program` with `arguments`: stdin from `input` (else
    /// /dev/null), stdout into `output` (else /dev/null), stderr into `log`;
    /// `closing` are this process's descriptors the program must not keep (a
    /// pipe's other end). Throws the reason when it cannot start.
    static func spawn(_ program: String, _ arguments: [String], input: Int32? = nil, closing: [Int32] = [],
                      output: String? = nil, log: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
            posix_spawn_file_actions_addclose(&actions, input)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        for fd in closing { posix_spawn_file_actions_addclose(&actions, fd) }
        if let output {
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOEXEC) }
        return pid
    }

    /// Waits for `pid`: its exit status, or 128 + the signal that ended it.
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return exitStatus(status)
    }

    /// waitpid's status as a shell says it: the exit status, or 128 + the signal that ended the process.
    private static func exitStatus(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// The last line a program wrote to `log` (at most 300 characters).
    static func lastLine(of log: String) -> String? {
        (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").last.map { String($0.prefix(300)) }
    }

    /// Runs `program` with `arguments` to its end, or for `timeout` seconds
    /// (then it is killed): its exit status (128 + s for a signal; nil where
    /// it ran out of time), what it wrote to stdout, and the last line it
    /// wrote to stderr.
    package static func capture(_ program: String, _ arguments: [String], timeout: Double) -> (status: Int32?, output: String, lastWords: String?) {
        let log = logPath((program as NSString).lastPathComponent), out = log + ".out"
        defer { unlink(log); unlink(out) }
        let pid: pid_t
        do { pid = try spawn(program, arguments, output: out, log: log) } catch { return (127, "", "\(error)") }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { break }
            if Date() > deadline {
                kill(pid, SIGKILL)
                _ = wait(pid)
                return (nil, "", lastLine(of: log))
            }
            usleep(2_000)
        }
        let output = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        return (exitStatus(status), output, lastLine(of: log))
    }

    /// Runs `program` with `arguments` to its end; returns its exit status
    /// (128 + s for a signal) and the last line it wrote to stderr.
    package static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, lastWords: String?) {
        let log = logPath((program as NSString).lastPathComponent)
        defer { unlink(log) }
        let pid: pid_t
        do { pid = try spawn(program, arguments, log: log) } catch { return (127, "\(error)") }
        let status = wait(pid)
        return (status, lastLine(of: log))
    }
}

/// A chart as PNG: the SVG drawn by rsvg-convert (Debian's librsvg2-bin).
package enum ChartPNG {
    package static var available: Bool { ExternalTool.find("rsvg-convert") != nil }

    package static func write(svg: String, to path: String) throws {
        guard let tool = ExternalTool.find("rsvg-convert") else {
            throw FileError.cannotWrite(path: path, reason: "PNG charts are drawn by rsvg-convert, which is not installed (apt-get install librsvg2-bin), or write .svg")
        }
        try AtomicFile.replace(path) { temporary in
            // The SVG beside it, as a plain file (an AtomicFile inside another would unregister the outer).
            var template = Array((NSTemporaryDirectory() + "waves-chart-XXXXXX.svg").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
            guard fd >= 0 else { throw AtomicFile.failure(path) }
            let source = String(cString: template)
            defer { unlink(source) }
            let written = Array(svg.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
            guard written == svg.utf8.count else { throw AtomicFile.failure(path) }
            let (status, words) = try ExternalTool.run(tool, ["--format", "png", "--background-color", "white", "-o", temporary, source])
            guard status == 0 else { throw FileError.cannotWrite(path: path, reason: "rsvg-convert failed: \(words ?? "status \(status)")") }
        }
    }
}
