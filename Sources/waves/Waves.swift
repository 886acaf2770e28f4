import ArgumentParser
import Foundation

/// The root command: its subcommands, and `--version`.

struct Waves: ParsableCommand {
    /// The package's version; `make install` records the git commit beside the binary.
    static let version = "0.5.0"

    static let configuration = CommandConfiguration(
        commandName: "waves",
        abstract: "Animate a wave two ways (redraw on the CPU every tick, or render once and slide it on the GPU) and measure both.",
        discussion: """
            Exit statuses: 0 success; 64 bad usage; 65 bad data (an input file's bytes); 66 a missing input file; \
            69 a backend unavailable (no GL context, or past the driver's limits); 71 not enough memory; \
            73 cannot create an output (it would replace an input, it is a symbolic link without --follow-links, or cannot be written); 130 interrupted (Ctrl-C), 143 stopped by SIGTERM. See 'waves help <subcommand>' and 'man waves'.
            """,
        version: versionLine,
        subcommands: [RenderCommand.self, DemoCommand.self, BenchCommand.self, PeaksCommand.self, BatchCommand.self, AudiowaveformCommand.self]
    )

    /// "waves 0.5.0 (commit abc1234)": the commit `make install` wrote to
    /// PREFIX/share/waves/commit beside PREFIX/bin/waves, or "unknown" for a
    /// binary run from the build tree.
    static var versionLine: String {
        "waves \(version) (commit \(installedCommit ?? "unknown: not installed with make install"))"
    }

    static var installedCommit: String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let prefix = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
        let file = prefix.appendingPathComponent("share/waves/commit").path
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let commit = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return commit.isEmpty ? nil : commit
    }
}
