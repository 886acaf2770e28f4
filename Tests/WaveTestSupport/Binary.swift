import Foundation

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
    /// xvfb-run) in front when given.
    public static func run(_ arguments: [String], in directory: String? = nil,
                           environment: [String: String?] = [:], launcher: [String] = [],
                           stdin: String? = nil, timeout: TimeInterval = 120) throws -> Result {
        let process = Process()
        let command = launcher + [path] + arguments
        process.executableURL = URL(fileURLWithPath: command[0].hasPrefix("/") ? command[0] : "/usr/bin/env")
        process.arguments = command[0].hasPrefix("/") ? Array(command.dropFirst()) : command
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        // Read while it runs so a full pipe cannot block it.
        final class Box: @unchecked Sendable { var data = Data() }
        let outData = Box(), errData = Box()
        let group = DispatchGroup()
        group.enter(); DispatchQueue.global().async { outData.data = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter(); DispatchQueue.global().async { errData.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData.data, as: UTF8.self),
                      stderr: String(decoding: errData.data, as: UTF8.self))
    }

    /// A new empty folder for one test.
    public static func temporaryFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "waves-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}
