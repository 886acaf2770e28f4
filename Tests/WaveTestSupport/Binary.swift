import Foundation
import XCTest
import WaveImageIO
import WaveCore

/// Runs the built `waves` executable, as a person would.
public enum WavesBinary {
    /// $WAVES_BIN, else `waves` beside the test bundle (SwiftPM builds both
    /// into the same folder).
    public static var path: String {
        if let explicit = ProcessInfo.processInfo.environment["WAVES_BIN"] { return explicit }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if folder.lastPathComponent == "MacOS" || folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        let candidate = folder.appendingPathComponent("waves").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        return folder.deletingLastPathComponent().appendingPathComponent("waves").path
    }

    public struct Result {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Runs `waves` with `arguments` in `directory`, with `environment` changes
    /// (a nil value removes the variable), `stdin` as its input (else none), and `launcher` (for example
    /// xvfb-run) in front when given. Spawned and waited for with posix_spawn
    /// and waitpid on its own process id (Foundation's Process can miss a
    /// child's exit and poll forever), stdout and stderr read to their ends
    /// on two threads so a full pipe cannot block it; killed after `timeout`.
    public static func run(_ arguments: [String], in directory: String? = nil,
                           environment: [String: String?] = [:], launcher: [String] = [],
                           stdin: String? = nil, timeout: TimeInterval = 120) throws -> Result {
        try execute(launcher + [path] + arguments, in: directory, environment: environment, stdin: stdin, timeout: timeout)
    }

    /// Any command (found on the PATH unless absolute), the same way; `onSpawn`
    /// runs with its process id before the wait (to signal it, say). A
    /// process ended by signal s has status 128 + s.
    public static func execute(_ command: [String], in directory: String? = nil,
                               environment: [String: String?] = [:], stdin: String? = nil,
                               timeout: TimeInterval = 120, onSpawn: ((pid_t) -> Void)? = nil) throws -> Result {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0], inPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0, pipe(&inPipe) == 0 else { throw POSIXError(.EMFILE) }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if stdin != nil {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in inPipe + outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        // env -C changes the directory (glibc's posix_spawn chdir action is not in Swift's Glibc module).
        let executable = "/usr/bin/env"
        let argv = ([executable] + (directory.map { ["-C", $0] } ?? []) + command).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(outPipe[1]); close(errPipe[1]); close(inPipe[0])
        guard spawned == 0 else {
            close(outPipe[0]); close(errPipe[0]); close(inPipe[1])
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT)
        }
        // A child that exits before reading its input must not end this process.
        signal(SIGPIPE, SIG_IGN)
        final class Box: @unchecked Sendable { var data = Data() }
        let outData = Box(), errData = Box()
        let finished = DispatchSemaphore(value: 0)
        // Readers first, so a child that fills its output before reading its input cannot block.
        func drain(_ fd: Int32, into box: Box) {
            Thread {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    box.data.append(contentsOf: buffer[0..<n])
                }
                close(fd)
                finished.signal()
            }.start()
        }
        drain(outPipe[0], into: outData)
        drain(errPipe[0], into: errData)
        let input = inPipe[1]
        let bytes = Array((stdin ?? "").utf8)
        Thread {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                offset += n
            }
            close(input)
        }.start()
        onSpawn?(pid)
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid || (done < 0 && errno != EINTR) { break }
            if Date() >= deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(5_000)
        }
        // The readers end when the pipes close (every holder of the write ends has exited).
        let readDeadline = DispatchTime.now() + 10
        _ = finished.wait(timeout: readDeadline)
        _ = finished.wait(timeout: readDeadline)
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: exitStatus,
                      stdout: String(decoding: outData.data, as: UTF8.self),
                      stderr: String(decoding: errData.data, as: UTF8.self))
    }

    /// `waves` with `arguments` plus `--backend B --out NAME` in `folder`,
    /// the PNG read back (a failed run fails the test). GL that cannot run
    /// here (69) is a failure in CI and a skip elsewhere.
    public static func renderPNG(_ arguments: [String], backend: String, in folder: String, name: String? = nil,
                                 file: StaticString = #filePath, line: UInt = #line) throws -> RGBAImage {
        let out = name ?? "\(backend).png"
        let r = try run(arguments + ["--backend", backend, "--out", out], in: folder)
        if backend == "gl" && r.status == 69 {
            _ = try GLRequirement.need("waves render --backend gl", file: file, line: line) {
                throw RendererError.unavailable(.gl, reason: r.stderr)
            }
        }
        XCTAssertEqual(r.status, 0, "\(arguments) --backend \(backend): \(r.stderr)", file: file, line: line)
        return try PNG.read(from: folder + "/" + out)
    }

    /// A new empty folder for one test (`TestFolders`).
    public static func temporaryFolder() throws -> String { try TestFolders.make("test") }
}
