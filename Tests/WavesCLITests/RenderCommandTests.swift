import Foundation
import WaveCore
import WaveEffects
import WaveImageIO
import WaveTestSupport
import XCTest

/// `waves render` driven as a person would, through the built binary.

final class RenderCommandTests: XCTestCase {
    private var folder: String!

    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func files() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
    }

    func testRendersTheDocumentedExampleMatchingTheCPURenderer() throws {
        let r = try WavesBinary.run(["render", "--backend", "cpu", "--scene", "sine", "--size", "800x200",
                                     "--time", "0.25", "--out", "wave.png"], in: folder)
        XCTAssertEqual(r.status, 0, r.stderr)
        let written = try PNG.read(from: folder + "/wave.png")
        XCTAssertEqual(written, try Frames.render(CPURenderer(), try SineCells(width: 800, height: 200).scene(), at: [0.25])[0])
    }

    func testEveryOptionReachesTheScene() throws {
        let r = try WavesBinary.run(["render", "--backend", "cpu", "--size", "90x60", "--time", "0.3",
                                     "--amplitude", "0.4", "--baseline", "0.6", "--cycles", "3", "--period", "2",
                                     "--cells", "3", "--direction", "right", "--color", "#FF000080",
                                     "--background", "#00FF00", "--snap", "--out", "w.png"], in: folder)
        XCTAssertEqual(r.status, 0, r.stderr)
        var s = SineCells(width: 90, height: 60)
        s.wave.amplitude = 0.4; s.wave.baseline = 0.6; s.wave.cycles = 3; s.wave.period = 2
        s.cellCount = 3; s.wave.direction = .right; s.wave.color = RGBA8(255, 0, 0, 128)
        s.background = RGBA8(0, 255, 0); s.snapToPixel = true
        assertImagesMatch(try PNG.read(from: folder + "/w.png"), Reference.render(s, time: 0.3),
                          mean: 0.5, max: 8, name: "cli-all-options")
    }

    func testFramesWritesANumberedSequence() throws {
        let r = try WavesBinary.run(["render", "--backend", "cpu", "--size", "40x20", "--frames", "3",
                                     "--fps", "10", "--time", "0.5", "--out", "."], in: folder)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(files(), ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
        XCTAssertEqual(try PNG.read(from: folder + "/frame-0002.png"),
                       try Frames.render(CPURenderer(), try SineCells(width: 40, height: 20).scene(), at: [0.7])[0])
    }

    /// Every bad input: its status, one line naming the option, nothing written.
    func testBadInputGivesOneLineAndStatusAndWritesNothing() throws {
        let cases: [([String], Int32, String)] = [
            (["--size", "0x5"], 64, "--size"), (["--size", "-3x5"], 64, "--size"), (["--size", "wide"], 64, "--size"),
            (["--size", "16385x10"], 64, "16384"), (["--size", "10x20000"], 64, "--size"),
            (["--cycles", "1.5"], 64, "seam"), (["--cycles", "0"], 64, "seam"),
            (["--amplitude", "0.51"], 64, "--amplitude"), (["--amplitude", "-0.1"], 64, "--amplitude"),
            (["--baseline", "1.2"], 64, "--baseline"), (["--period", "0"], 64, "--period"),
            (["--period", "-2"], 64, "--period"), (["--period", "inf"], 64, "--period"),
            (["--time", "nan"], 64, "--time"), (["--time", "inf"], 64, "--time"),
            (["--cells", "0"], 64, "--cells"), (["--cells", "201"], 64, "--cells"),
            (["--scene", "square"], 64, "--scene"), (["--backend", "vulkan"], 64, "--backend"),
            (["--color", "blue"], 64, "--color"), (["--background", "#12345"], 64, "--background"),
            (["--direction", "up"], 64, "--direction"), (["--frames", "0"], 64, "--frames"),
            (["--fps", "0"], 64, "--fps"),
            (["--scene", "table", "--rows", "0"], 64, "--rows"), (["--rows", "5"], 64, "--rows"),
            (["--scene", "table", "--scroll", "sideways"], 64, "--scroll"), (["--scene", "table", "--scroll-speed", "-1"], 64, "--scroll-speed"),
            (["--scene", "table", "--row-height", "5"], 64, "--row-height"), (["--scene", "table", "--row-height", "600"], 64, "--row-height"),
            (["--scene", "table", "--no-shadow-cache"], 64, "--shadow"), (["--shadow"], 64, "--shadow"),
            (["--out", "missing/wave.png"], 73, "missing/wave.png"),
            (["--frames", "2", "--out", "/proc/waves-cannot-make-this"], 73, "/proc/waves-cannot-make-this"),
        ]
        for (arguments, status, mention) in cases {
            let r = try WavesBinary.run(["render", "--backend", "cpu"] + arguments, in: folder)
            XCTAssertEqual(r.status, status, "\(arguments): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(arguments) printed \(lines.count) lines: \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(mention), "\(arguments): '\(r.stderr)' does not mention \(mention)")
            XCTAssertFalse(r.stderr.contains("Fatal") || r.stderr.contains("Stack"), r.stderr)
            XCTAssertEqual(files(), [], "\(arguments) wrote something")
        }
    }

    /// /proc refuses new files even to root; the status is 73 and nothing is left.
    func testUnwritableFolderIsStatus73() throws {
        let r = try WavesBinary.run(["render", "--backend", "cpu", "--size", "8x8", "--out", "/proc/wave.png"], in: folder)
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/proc/wave.png"))
    }
}

/// The GL backend from the command line, and what happens where GL cannot start.
final class RenderBackendTests: XCTestCase {
    /// glvnd with no vendor library: what a machine without any GL driver sees.
    private let noGL: [String: String?] = ["__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent/none.json"]

    func testGLBackendWritesTheSamePNGAsCPUAtWholePixelOffsets() throws {
        let folder = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let common = ["render", "--size", "300x120", "--cells", "4", "--cycles", "2", "--time", "0.1"]
        let gl = try WavesBinary.renderPNG(common, backend: "gl", in: folder)
        assertImagesMatch(gl, try WavesBinary.renderPNG(common, backend: "cpu", in: folder), mean: 1, max: 1, name: "cli-gl-vs-cpu")
    }

    func testGLWithoutAContextIsStatus69WithTheReasonAndWritesNothing() throws {
        let folder = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = try WavesBinary.run(["render", "--backend", "gl", "--out", "w.png"], in: folder, environment: noGL)
        XCTAssertEqual(r.status, 69, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("EGL") || r.stderr.contains("GL"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/w.png"))
    }

    /// A cell the whole height of the largest render (16384 rows), its wave
    /// reaching the top, filtered through the shader (linear: no copies):
    /// its coverage picture is 16386 rows with its margins, more than
    /// llvmpipe's textures (16384) allow. Auto draws with the CPU and says
    /// why; gl is unavailable (69). (Cells are no longer layers of one
    /// texture array, so many one-row cells no longer reach a limit.)
    func testAScenePastTheDriversLimitsFallsBackOrIsUnavailable() throws {
        let folder = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scene = ["render", "--size", "4x16384", "--cells", "1", "--amplitude", "0.5", "--subpixel", "linear"]
        let auto = try WavesBinary.run(scene + ["--out", "auto.png"], in: folder)
        XCTAssertEqual(auto.status, 0, auto.stderr)
        if !auto.stderr.contains("GL_MAX") {
            // No context at all: the limit cannot be reached here.
            _ = try GLRequirement.need("a GL context") { throw RendererError.unavailable(.gl, reason: auto.stderr) }
        }
        XCTAssertEqual(auto.stderr.split(separator: "\n").count, 1, auto.stderr)
        XCTAssertTrue(auto.stderr.contains("using the CPU backend") && auto.stderr.contains("GL_MAX_TEXTURE_SIZE"),
                      auto.stderr)
        let gl = try WavesBinary.run(scene + ["--backend", "gl", "--out", "gl.png"], in: folder)
        XCTAssertEqual(gl.status, 69, gl.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/gl.png"))
    }

    func testTimesWhoseRatioToThePeriodOverflowStillRender() throws {
        let folder = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (i, arguments) in [["--time", "1e308", "--period", "0.1"], ["--time", "1", "--period", "1e-320"]].enumerated() {
            let r = try WavesBinary.run(["render", "--size", "40x20", "--out", "w\(i).png"] + arguments, in: folder)
            XCTAssertEqual(r.status, 0, "\(arguments): \(r.stderr)")
        }
        let r = try WavesBinary.run(["render", "--size", "40x20", "--frames", "3", "--fps", "5e-324", "--out", "."], in: folder)
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertTrue(r.stderr.contains("--fps"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/frame-0000.png"))
    }

    func testAutoFallsBackToTheCPUWithOneLineSayingWhy() throws {
        let folder = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = try WavesBinary.run(["render", "--size", "64x32", "--out", "w.png"], in: folder, environment: noGL)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("using the CPU backend"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/w.png"))
    }
}

/// `--scene outline`: geometry from a file, the input where untrusted numbers arrive.
final class OutlineCommandTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func write(_ name: String, _ bytes: [UInt8]) {
        FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes))
    }

    private func render(_ extra: [String]) throws -> WavesBinary.Result {
        try WavesBinary.run(["render", "--scene", "outline", "--size", "120x50", "--out", "o.png"] + extra, in: folder)
    }

    func testAnOutlineRendersTheSameOnBothBackends() throws {
        write("shape.txt", Array("M 10 45 Q 40 -5 70 45 Z m 50 -35 h 40 v 30 h -40 z".utf8))
        let cpu = try render(["--outline", "shape.txt", "--speed", "10", "--time", "2", "--backend", "cpu"])
        XCTAssertEqual(cpu.status, 0, cpu.stderr)
        let expected = try PNG.read(from: folder + "/o.png")
        let gl = try render(["--outline", "shape.txt", "--speed", "10", "--time", "2", "--backend", "gl"])
        if gl.status == 69 {
            _ = try GLRequirement.need("waves render --backend gl") { throw RendererError.unavailable(.gl, reason: gl.stderr) }
        }
        XCTAssertEqual(gl.status, 0, gl.stderr)
        assertImagesMatch(try PNG.read(from: folder + "/o.png"), expected, mean: 0.05, max: 1, name: "cli-outline-gl-vs-cpu")
        // The outline moved 20 px left: its rectangle's left edge (content x 60) is at x = 40.
        XCTAssertNotEqual(expected[41, 20], expected[38, 20])
    }

    /// A coordinate that is not a finite number is refused: 65, one line naming the file, nothing written.
    func testNonFiniteCoordinatesAreBadDataNotACrash() throws {
        for (i, text) in ["M 0 0 L nan 5 L 3 3 Z", "M 0 0 L 1e999 5 Z", "M 0 0 Q 1 -inf 4 4 Z"].enumerated() {
            write("bad\(i).txt", Array(text.utf8))
            let r = try render(["--outline", "bad\(i).txt"])
            XCTAssertEqual(r.status, 65, "\(text): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("bad\(i).txt") && r.stderr.contains("not a finite number"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/o.png"))
        }
    }

    func testMissingMalformedAndRandomFilesAreOneLineAndNeverACrash() throws {
        let missing = try render(["--outline", "nowhere.txt"])
        XCTAssertEqual(missing.status, 66, missing.stderr)
        XCTAssertEqual(try render([]).status, 64, "--scene outline needs --outline")
        let sine = try WavesBinary.run(["render", "--outline", "x.txt", "--out", "o.png"], in: folder)
        XCTAssertEqual(sine.status, 64, sine.stderr)
        write("words.txt", Array("M 1 2 L three 4".utf8))
        write("empty.txt", [])
        write("latin1.txt", [0x4D, 0x20, 0xE9, 0xFF])
        var generator = SystemRandomNumberGenerator()
        for i in 0..<6 {
            write("random\(i).txt", (0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        for name in ["words.txt", "empty.txt", "latin1.txt"] + (0..<6).map({ "random\($0).txt" }) {
            let r = try render(["--outline", name, "--backend", "cpu"])
            XCTAssertEqual(r.status, 65, "\(name): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(name), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/o.png"))
    }

    /// `--explain` draws nothing and lists every item with its mechanism and
    /// why, under the driver's policy or the one WAVES_GL_POLICY names: the
    /// table's boxes are split on a software driver and one draw each on a GPU.
    func testExplainListsEveryItemsMechanism() throws {
        let software = try WavesBinary.run(["render", "table", "--explain", "--time", "0.5", "--backend", "gl"], in: folder,
                                           environment: ["WAVES_GL_POLICY": "software"])
        if software.status == 69 { _ = try GLRequirement.need("the GL backend") { throw RendererError.unavailable(.gl, reason: software.stderr) } }
        XCTAssertEqual(software.status, 0, software.stderr)
        XCTAssert(software.stdout.contains("item  layer") && software.stdout.contains("split box"), software.stdout)
        let gpu = try WavesBinary.run(["render", "table", "--explain", "--time", "0.5", "--backend", "gl"], in: folder,
                                      environment: ["WAVES_GL_POLICY": "gpu"])
        XCTAssertEqual(gpu.status, 0, gpu.stderr)
        XCTAssert(gpu.stdout.contains("box polygon") && !gpu.stdout.contains("split box"), gpu.stdout)
        let cpu = try WavesBinary.run(["render", "dots", "--explain", "--backend", "cpu"], in: folder)
        XCTAssert(cpu.stdout.contains("CPU redraw"), cpu.stdout)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [], [], "nothing written")
        let bad = try WavesBinary.run(["render", "--explain", "--backend", "gl"], in: folder, environment: ["WAVES_GL_POLICY": "fast"])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
        XCTAssert(bad.stderr.contains("WAVES_GL_POLICY fast: expected software or gpu"), bad.stderr)
        // It draws nothing, however asked: one frame, no output, no batch, no animation.
        for extra in [["--out", "x.png"], ["--loop"], ["--frames", "3"], ["--loop", "--out", "a.gif"]] {
            XCTAssertEqual(try WavesBinary.run(["render", "--explain"] + extra, in: folder).status, 64, "\(extra)")
        }
        XCTAssertEqual(try WavesBinary.run(["render", "waveform", "--audio", "a.wav", "b.wav", "--explain"], in: folder).status, 64)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [], [], "nothing written")
    }
}
