import Foundation
import WaveAudio
import WaveCore
import WaveImageIO
import WaveTestSupport
import XCTest

/// What a new user meets first: installing, --version, help that shows every
/// default and examples, and frame folders and stdout as outputs.
final class InstallAndHelpTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    private func shell(_ command: String, in directory: URL) throws -> (status: Int32, output: String) {
        let r = try WavesBinary.execute(["/bin/bash", "-c", command], in: directory.path)
        return (r.status, r.stdout + r.stderr)
    }

    /// make install into a temporary prefix (the debug build the tests use),
    /// then the installed binary run from there: its version names this
    /// commit, it renders, and the man page and completions are in place.
    func testInstallIntoAPrefixAndRunFromThere() throws {
        let generator = repository.appendingPathComponent(".build/debug/generate-manual").path
        // make test builds it; in CI its absence is a failure, never a skip.
        try GLRequirement.needPrograms([generator], hint: "swift build --product generate-manual")
        let prefix = folder + "/prefix"
        let install = try shell("make install-files PREFIX='\(prefix)' CONFIG=debug", in: repository)
        XCTAssertEqual(install.status, 0, install.output)
        let head = try shell("git rev-parse --short HEAD", in: repository).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let version = try shell("'\(prefix)/bin/waves' --version", in: URL(fileURLWithPath: folder))
        XCTAssertEqual(version.status, 0, version.output)
        XCTAssert(version.output.hasPrefix("waves 0.5.0 (commit \(head)"), version.output)
        let render = try shell("'\(prefix)/bin/waves' render --backend cpu --size 60x20 --out installed.png", in: URL(fileURLWithPath: folder))
        XCTAssertEqual(render.status, 0, render.output)
        XCTAssertNoThrow(try PNG.read(from: folder + "/installed.png"))
        let man = try String(contentsOfFile: prefix + "/share/man/man1/waves.1", encoding: .utf8)
        XCTAssert(man.contains(".Sh NAME") && man.contains("--level-from"), "the man page documents the options")
        let bash = try String(contentsOfFile: prefix + "/share/bash-completion/completions/waves", encoding: .utf8)
        XCTAssert(bash.contains("complete") && bash.contains("waveform") && bash.contains("--audio"), "bash completion")
        for path in ["/share/zsh/site-functions/_waves", "/share/fish/vendor_completions.d/waves.fish"] {
            XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: prefix + path)).count, 100, path)
        }
        // Run from the build tree, the binary says it was not installed.
        let local = try WavesBinary.run(["--version"], in: folder)
        XCTAssert(local.stdout.contains("commit unknown"), local.stdout)
        // No audiowaveform link unless asked; with AUDIOWAVEFORM_LINK=1 it is waves, run as audiowaveform.
        XCTAssertFalse(FileManager.default.fileExists(atPath: prefix + "/bin/audiowaveform"))
        let linked = try shell("make install-files PREFIX='\(prefix)' CONFIG=debug AUDIOWAVEFORM_LINK=1", in: repository)
        XCTAssertEqual(linked.status, 0, linked.output)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: prefix + "/bin/audiowaveform"), "waves")
        let audiowaveform = try shell("'\(prefix)/bin/audiowaveform' --version", in: URL(fileURLWithPath: folder))
        XCTAssertEqual(audiowaveform.output, "AudioWaveform v1.10.3\n")
        XCTAssertEqual(try shell("make uninstall PREFIX='\(prefix)'", in: repository).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: prefix + "/bin/audiowaveform"))
    }

    /// Every option that has a default shows it once, including those parsed
    /// with a transform (which ArgumentParser cannot show); every command has examples.
    func testHelpShowsEveryDefaultOnceAndExamples() throws {
        let expectations: [([String], [String])] = [
            (["render", "sine"], ["--size", "--cycles", "--cells", "--color", "--background", "--time", "--fps", "--amplitude"]),
            (["demo", "sine"], ["--size", "--pacing", "--stall"]),
            (["bench", "sine"], ["--size", "--frames", "--warmup", "--cells"]),
        ]
        for (command, options) in expectations {
            let paragraphs = HelpText.options(try WavesBinary.run(command + ["--help"], in: folder).stdout)
            for option in options {
                guard let paragraph = paragraphs[option] else { XCTFail("\(command) --help does not list \(option)"); continue }
                XCTAssert(paragraph.contains("default"), "\(command) \(option): no default shown: \(paragraph)")
            }
        }
        for command in ["render", "demo", "bench"] {
            XCTAssert(try WavesBinary.run([command, "--help"], in: folder).stdout.contains("Examples:"), "\(command) --help has no examples")
        }
        let root = try WavesBinary.run(["--help"], in: folder).stdout
        XCTAssert(root.contains("Exit statuses") && root.contains("73"), root)
        XCTAssertFalse(try WavesBinary.run(["bench", "--help"], in: folder).stdout.contains("Sources/"), "help points at a source file")
    }

    /// A sequence's folder is made when missing; a folder holding frames is
    /// refused unless --overwrite, which removes them; --out - writes one PNG to stdout.
    func testFrameFoldersAndStdout() throws {
        let sequence = ["render", "--backend", "cpu", "--size", "40x20", "--frames", "3", "--out", "made/here"]
        XCTAssertEqual(try WavesBinary.run(sequence, in: folder).status, 0)
        let again = try WavesBinary.run(sequence, in: folder)
        XCTAssertEqual(again.status, 73, again.stderr)
        XCTAssert(again.stderr.contains("--overwrite"), again.stderr)
        let fewer = try WavesBinary.run(["render", "--backend", "cpu", "--size", "40x20", "--frames", "2", "--out", "made/here", "--overwrite"], in: folder)
        XCTAssertEqual(fewer.status, 0, fewer.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/made/here").sorted(), ["frame-0000.png", "frame-0001.png"])
        // stdout into a file by the shell, then decoded: a whole PNG of the asked size.
        let stdout = try WavesBinary.execute(["/bin/sh", "-c", "exec \"$0\" render --backend cpu --size 40x20 --out - > piped.png",
                                              WavesBinary.path], in: folder)
        XCTAssertEqual(stdout.status, 0, stdout.stderr)
        let piped = try PNG.read(from: folder + "/piped.png")
        XCTAssertEqual(piped.width, 40)
        XCTAssertEqual(piped.height, 20)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/-"), "no file named -")
        let slash = try WavesBinary.run(["render", "--backend", "cpu", "--size", "40x20", "--out", "made/"], in: folder)
        XCTAssertEqual(slash.status, 64, slash.stderr)
    }

    /// `waves render --help`, `demo --help` and `bench --help` list the
    /// options they take (their default effect's, with the command's own),
    /// then their effects.
    func testACommandWithEffectsListsItsOptionsInItsHelp() throws {
        for (command, options) in [("render", ["--out", "--size", "--frames", "--backend", "--follow-links", "--amplitude"]),
                                   ("demo", ["--pacing", "--hud", "--overlay", "--headless"]),
                                   ("bench", ["--frames", "--preset", "--json", "--chart", "--warmup", "--seconds"])] {
            for flag in ["--help", "-h"] {
                let r = try WavesBinary.run([command, flag], in: folder)
                XCTAssertEqual(r.status, 0, r.stderr)
                for option in options { XCTAssert(r.stdout.contains("  \(option) "), "waves \(command) \(flag) lists \(option): \(r.stdout)") }
                XCTAssert(r.stdout.contains("SUBCOMMANDS:") && r.stdout.contains("USAGE: waves \(command) [<effect>] <options>"), r.stdout)
            }
        }
    }

    /// Counts read as English: "1 track", "1 job", "1 item", "2 frames".
    func testOneOfAThingIsSingular() throws {
        try FileManager.default.createDirectory(atPath: folder + "/one", withIntermediateDirectories: true)
        let track = GeneratedTrack(seconds: 1, sampleRate: 8000)
        try AudioWriter.write(to: folder + "/one/a.wav", format: .wav, sampleRate: 8000, frames: track.sampleCount) { n, _ in track.sample(n) }
        let peaks = try WavesBinary.run(["peaks", "--audio", "one/", "--dat", "out/{name}.dat"], in: folder)
        XCTAssert(peaks.stdout.contains("1 track: 1 written") && peaks.stdout.contains("on 1 job"), peaks.stdout)
        let batch = try WavesBinary.run(["batch", "--manifest", "-"], in: folder, stdin: "{\"input\": \"one/a.wav\", \"output\": \"b.dat\"}\n")
        XCTAssert(batch.stdout.contains("1 item: 1 ok"), batch.stdout)
        let frames = try WavesBinary.run(["render", "--backend", "cpu", "--size", "40x20", "--frames", "2", "--out", "two"], in: folder)
        XCTAssert(frames.stdout.contains("wrote 2 frames"), frames.stdout)
    }

    /// The manual's dots and jelly examples (docs/cli.md) stay inside their
    /// picture at every moment: the top and bottom rows are the background
    /// throughout (a curl or an overshoot past the edge would be cut off).
    func testTheManualsMovingExamplesStayInsideTheirPicture() throws {
        let manual = try String(contentsOf: repository.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let examples = manual.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { ($0.hasPrefix("waves render dots ") || $0.hasPrefix("waves render jelly ")) && !$0.contains("--loop") }
        XCTAssertEqual(examples.count, 2, "the manual's dots and jelly examples: \(examples)")
        for example in examples {
            var words = example.split(separator: " ").map(String.init).dropFirst().map { $0 }
            for option in ["--out", "--frames", "--time"] {
                if let i = words.firstIndex(of: option) { words.removeSubrange(i...(i + 1)) }
            }
            for step in 0..<27 {
                let t = Double(step) * 0.15
                let r = try WavesBinary.run(words + ["--backend", "cpu", "--time", "\(t)", "--out", "edge.png"], in: folder)
                XCTAssertEqual(r.status, 0, r.stderr)
                let image = try PNG.read(from: folder + "/edge.png")
                let background = Scene.defaultBackground
                for row in [0, image.height - 1] {
                    XCTAssert((0..<image.width).allSatisfy { image[$0, row] == background }, "\(example) at t = \(t): row \(row) is drawn on")
                }
            }
        }
    }
}
