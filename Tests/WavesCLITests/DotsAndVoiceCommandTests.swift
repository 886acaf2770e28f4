import Foundation
import WaveAudio
import WaveCore
import WaveImageIO
import WaveTestSupport
import XCTest

/// `--scene dots` and `--scene voice` driven as a person would, with every
/// level source and the bad input a person can type.
final class DotsAndVoiceCommandTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func waves(_ arguments: [String], stdin: String? = nil) throws -> WavesBinary.Result {
        try WavesBinary.run(arguments, in: folder, stdin: stdin)
    }

    private func files() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? [] }

    func testBothEffectsRenderTheSameOnBothBackends() throws {
        for scene in [["--scene", "dots"], ["--scene", "voice"], ["--scene", "voice", "--style", "ios7", "--level", "0.5"],
                      ["--scene", "dots", "--dots", "90", "--dot-size", "4", "--dot-spacing", "6", "--corner-radius", "2",
                       "--dot-scale", "2x8", "--dot-fade", "0.5", "--dot-beat", "0.5", "--dot-tint", "#FFFF00,#0000FF"]] {
            let common = ["render", "--size", "320x120", "--time", "0.77"] + scene
            let cpu = try WavesBinary.renderPNG(common, backend: "cpu", in: folder)
            assertImagesMatch(try WavesBinary.renderPNG(common, backend: "gl", in: folder), cpu,
                              mean: 1, max: 8, name: "cli-\(scene.joined(separator: "_"))")
        }
    }

    /// A file that is loud only in its second half: the voice is flat at
    /// t = 0.5 and waving at t = 2.
    func testALevelFromAFileDrivesTheVoice() throws {
        try AudioWriter.write(to: folder + "/half.wav", format: .wav, sampleRate: 8000, frames: 8000 * 3) { n, _ in
            n < 8000 * 3 / 2 ? 0 : Float(0.7 * sin(Double(n) * 0.3))
        }
        var rows: [Int] = []
        for t in ["0.5", "2"] {
            let r = try waves(["render", "--scene", "voice", "--backend", "cpu", "--size", "200x100", "--time", t,
                               "--level-from", "half.wav", "--out", "v\(t).png", "--background", "#000000"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let image = try PNG.read(from: folder + "/v\(t).png")
            // Rows with any lit pixel: how tall the wave is.
            rows.append((0..<image.height).filter { y in (0..<image.width).contains { image.pixels[(y * image.width + $0) * 4] > 40 } }.count)
        }
        XCTAssertLessThanOrEqual(rows[0], 3, "silence: a flat line")
        XCTAssertGreaterThan(rows[1], 30, "loud: a wave")
    }

    func testLevelsOnStdinDriveTheWaveAndABadLineIsSkippedWithOneWarning() throws {
        try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: false)
        let r = try waves(["render", "--scene", "dots", "--backend", "cpu", "--size", "120x60", "--level-from", "-",
                           "--frames", "20", "--out", "frames"], stdin: "0.5\nloud\n0.7\n2\n\n0.1\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("warning") }
        XCTAssertEqual(warnings.count, 1, r.stderr)
        XCTAssert(warnings.first?.contains("line 2 'loud'") == true, r.stderr)
        XCTAssertFalse(r.stderr.contains("Fatal"), r.stderr)
    }

    /// A line past 128 bytes is not held whole: skipped with one warning that says why.
    func testAnOverLongStdinLineIsSkippedWithOneWarningNamingTheLimit() throws {
        try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: false)
        let r = try waves(["render", "--scene", "voice", "--backend", "cpu", "--size", "120x60", "--level-from", "-",
                           "--frames", "20", "--out", "frames"], stdin: "0.5\n" + String(repeating: "9", count: 100_000) + "\n0.7\nloud\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        let warnings = r.stderr.split(separator: "\n")
        XCTAssertEqual(warnings.count, 1, r.stderr)
        XCTAssert(warnings.first?.contains("stdin line 2 is longer than 128 bytes") == true, r.stderr)
        XCTAssertLessThan(r.stderr.utf8.count, 300, "the line is not echoed")
    }

    /// `--level-from mic` where no input device exists (CI, this project's
    /// machines): exit 69, one line naming the option and why, nothing
    /// written, none of PortAudio's or ALSA's own messages. Where a device
    /// exists, the run names it in one line and draws.
    func testTheMicrophoneWithNoInputDeviceIsOneLineAndStatus69() throws {
        for command in [["render", "--scene", "dots", "--level-from", "mic", "--out", "x.png"],
                        ["demo", "--headless", "--scene", "voice", "--level-from", "mic", "--screenshot", "x.png"]] {
            let r = try waves(command)
            let lines = r.stderr.split(separator: "\n")
            if r.status == 0 {
                XCTAssertTrue(lines.first?.hasPrefix("waves: listening to ") ?? false, "\(command): \(r.stderr)")
                XCTAssertEqual(files(), ["x.png"], "\(command)")
                try FileManager.default.removeItem(atPath: folder + "/x.png")
                continue
            }
            XCTAssertEqual(r.status, 69, "\(command): \(r.stderr)")
            XCTAssertEqual(lines.count, 1, "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--level-from mic"), r.stderr)
            XCTAssertEqual(files(), [], "nothing written")
        }
    }

    func testBadInputGetsOneLineAndTheRightStatus() throws {
        try Data("not audio at all".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        let cases: [([String], Int32, String)] = [
            (["--scene", "voice", "--level-from", "gone.wav"], 66, "gone.wav"),
            (["--scene", "dots", "--level-from", "notes.txt"], 65, "notes.txt"),
            (["--scene", "dots", "--level", "2"], 64, "--level"),
            (["--scene", "voice", "--level", "nan"], 64, "--level"),
            (["--scene", "dots", "--dots", "0"], 64, "--dots"),
            (["--scene", "dots", "--corner-radius", "4"], 64, "--corner-radius"),
            (["--scene", "dots", "--dot-size", "1e999"], 64, "--dot-size"),
            (["--scene", "dots", "--dot-scale", "3"], 64, "--dot-scale"),
            (["--scene", "dots", "--dot-tint", "#FF00FF"], 64, "--dot-tint"),
            (["--scene", "dots", "--instance-delay", "-1"], 64, "--instance-delay"),
            (["--scene", "dots", "--attack", "-1"], 64, "--attack"),
            (["--scene", "sine", "--style", "ios7"], 64, "--style"),
            (["--scene", "sine", "--level", "0.5"], 64, "--level"),
            (["--scene", "voice", "--dots", "5"], 64, "--dots"),
            (["--scene", "voice", "--cells", "1000"], 64, "--cells"),
            (["--scene", "dots", "--states", "speak@3,idle@1"], 64, "--states"),
            (["--scene", "dots", "--states", "dance@0"], 64, "--states"),
            (["--scene", "dots", "--states", "speak"], 64, "--states"),
            (["--scene", "voice", "--states", "speak@0"], 64, "--states"),
        ]
        for (arguments, status, mention) in cases {
            let r = try waves(["render", "--backend", "cpu", "--size", "100x60", "--out", "x.png"] + arguments)
            XCTAssertEqual(r.status, status, "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(arguments): \(r.stderr)")
            XCTAssert(r.stderr.contains(mention), "\(arguments): \(r.stderr)")
        }
        XCTAssertEqual(files(), ["notes.txt"], "nothing written on failure")
    }
}

/// `--scene jelly` driven as a person would.
final class JellyCommandTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func waves(_ arguments: [String]) throws -> WavesBinary.Result { try WavesBinary.run(arguments, in: folder) }

    func testTheJellyRendersTheSameOnBothBackendsWithEitherSpringDescription() throws {
        for spring in [["--spring-duration", "0.6", "--bounce", "0.4"], ["--mass", "2", "--stiffness", "300", "--damping", "10"],
                       ["--bounce", "-0.5", "--physics-step", "1/240", "--block-size", "80x60", "--rest", "0"]] {
            let common = ["render", "--scene", "jelly", "--size", "400x150", "--time", "0.21"] + spring
            let cpu = try WavesBinary.renderPNG(common, backend: "cpu", in: folder)
            assertImagesMatch(try WavesBinary.renderPNG(common, backend: "gl", in: folder), cpu,
                              mean: 1, max: 8, name: "cli-jelly-\(spring.joined(separator: "_"))")
        }
    }

    /// Any finite time draws, however far out (the leg is a remainder, not t - k * leg).
    func testAFarTimeDrawsTheJelly() throws {
        for time in ["1e37", "-1e300", "123456789.123"] {
            let r = try waves(["render", "--scene", "jelly", "--backend", "cpu", "--size", "200x80", "--time", time, "--out", "far.png"])
            XCTAssertEqual(r.status, 0, "\(time): \(r.stderr)")
        }
    }

    func testBadJellyInputGetsOneLineAndStatus64() throws {
        let cases: [([String], String)] = [
            (["--scene", "jelly", "--bounce", "1"], "--bounce"),
            (["--scene", "jelly", "--spring-duration", "0"], "--spring-duration"),
            (["--scene", "jelly", "--stiffness", "100"], "--damping"),
            (["--scene", "jelly", "--stiffness", "100", "--damping", "5", "--bounce", "0.2"], "--bounce"),
            (["--scene", "jelly", "--mass", "-1", "--stiffness", "100", "--damping", "5"], "--mass"),
            (["--scene", "jelly", "--stiffness", "1e12", "--damping", "5"], "--stiffness"),
            (["--scene", "jelly", "--physics-step", "1/0"], "--physics-step"),
            (["--scene", "jelly", "--physics-step", "1"], "--physics-step"),
            (["--scene", "jelly", "--block-size", "900x10"], "--block-size"),
            (["--scene", "jelly", "--rest", "nan"], "--rest"),
            (["--scene", "sine", "--bounce", "0.2"], "--bounce"),
            (["--scene", "jelly", "--max-steps", "0"], "--max-steps"),
            (["--scene", "jelly", "--max-steps", "4"], "--max-steps"),
        ]
        try assertRenderRefuses(cases, in: folder)
    }
}

/// `--scene crates` from the command line: both backends draw the same
/// crates at the same time, stdout carries only the PNG (Chipmunk's own
/// printing silenced), and bad input is one line, status 64, nothing written.
final class CratesCommandTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func waves(_ arguments: [String]) throws -> WavesBinary.Result { try WavesBinary.run(arguments, in: folder) }

    func testTheCratesRenderTheSameOnBothBackendsAndStdoutIsThePNG() throws {
        let common = ["render", "--scene", "crates", "--size", "240x200", "--crates", "30", "--gravity", "200,900", "--time", "1.3"]
        let cpu = try WavesBinary.renderPNG(common, backend: "cpu", in: folder)
        // Thirty turned crates: GL samples each crate's picture bilinearly where the CPU redraws its outline
        // (the registry's agreement for pictures, 64/255 at an edge at most).
        assertImagesMatch(try WavesBinary.renderPNG(common, backend: "gl", in: folder), cpu, mean: 1, max: 64, name: "cli-crates")
        let r = try waves(common + ["--backend", "cpu", "--out", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // The signature's first byte (0x89) is not UTF-8: read as text it is one replacement character.
        XCTAssertTrue(r.stdout.dropFirst().hasPrefix("PNG\r\n"), "stdout starts with \(r.stdout.prefix(40).debugDescription)")
        XCTAssertFalse(r.stdout.contains("Chipmunk"), "Chipmunk's own lines reached stdout")
    }

    func testBadCratesInputGetsOneLineAndStatus64() throws {
        let cases: [([String], String)] = [
            (["--scene", "crates", "--crates", "0"], "--crates"),
            (["--scene", "crates", "--crates", "1e9"], "--crates"),
            (["--scene", "crates", "--crates", "9000", "--size", "100x100"], "--crates"),
            (["--scene", "crates", "--gravity", "nan,1"], "--gravity"),
            (["--scene", "crates", "--gravity", "5"], "--gravity"),
            (["--scene", "crates", "--gravity", "2e6,0"], "--gravity"),
            (["--scene", "crates", "--physics-step", "0"], "--physics-step"),
            (["--scene", "sine", "--crates", "5"], "--crates"),
            (["--scene", "dots", "--gravity", "0,10"], "--gravity"),
            (["--scene", "crates", "--physics-budget", "0.5"], "--physics-budget"),
            (["--scene", "crates", "--physics-budget", "1.5"], "--physics-budget"),
            (["--scene", "sine", "--physics-budget", "0.5"], "--physics-budget"),
        ]
        try assertRenderRefuses(cases, in: folder)
    }
}

/// Each case (options after `render --backend cpu --size 200x100 --out x.png`) ends with status 64 and one
/// line on stderr naming `mention`, and nothing is written into `folder`.
private func assertRenderRefuses(_ cases: [(arguments: [String], mention: String)], in folder: String,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
    for (arguments, mention) in cases {
        let r = try WavesBinary.run(["render", "--backend", "cpu", "--size", "200x100", "--out", "x.png"] + arguments, in: folder)
        XCTAssertEqual(r.status, 64, "\(arguments): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(arguments): \(r.stderr)", file: file, line: line)
        XCTAssert(r.stderr.contains(mention), "\(arguments): \(r.stderr)", file: file, line: line)
    }
    XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [], [], "nothing written on failure",
                   file: file, line: line)
}
