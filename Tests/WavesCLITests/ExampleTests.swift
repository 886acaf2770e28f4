import Foundation
import WaveAudio
import WaveCore
import WaveEffects
import WaveImageIO
import WaveTestSupport
import XCTest

/// The example apps in Examples/ (built by `make examples`, which `make test`
/// runs first), run as a person would: each must draw what `waves render`
/// draws of the same scene. A missing example binary is a failure in CI
/// (WAVES_REQUIRE_GL=1) and a skip elsewhere.
final class ExampleTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// Examples/.build/debug/NAME, or $WAVES_EXAMPLES_BIN/NAME.
    private func example(_ name: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let binaries = ProcessInfo.processInfo.environment["WAVES_EXAMPLES_BIN"] ?? root.path + "/Examples/.build/debug"
        let path = binaries + "/" + name
        try GLRequirement.needPrograms([path], hint: "make examples builds it")
        return path
    }

    /// render-waveform writes the very PNG `waves render waveform --backend cpu` writes of the same track, size and time.
    func testRenderWaveformWritesWhatWavesRenderWrites() throws {
        let render = try example("render-waveform")
        let track = GeneratedTrack(seconds: 10)
        try AudioWriter.write(to: folder + "/track.wav", format: .wav, sampleRate: track.sampleRate, frames: track.sampleCount) {
            n, _ in track.sample(n)
        }
        let made = try WavesBinary.execute([render, "track.wav", "example.png", "640x120", "4.5"], in: folder)
        XCTAssertEqual(made.status, 0, made.stderr)
        let waves = try WavesBinary.run(["render", "waveform", "--audio", "track.wav", "--size", "640x120", "--time", "4.5",
                                         "--backend", "cpu", "--out", "waves.png"], in: folder)
        XCTAssertEqual(waves.status, 0, waves.stderr)
        let example = try Data(contentsOf: URL(fileURLWithPath: folder + "/example.png"))
        XCTAssertEqual(example, try Data(contentsOf: URL(fileURLWithPath: folder + "/waves.png")), "the PNG files differ")
        // Not a blank picture: both sides of the playhead have bars.
        let image = try PNG.read(from: folder + "/example.png")
        let colors = Set(stride(from: 0, to: image.pixels.count, by: 4).map { Array(image.pixels[$0..<$0 + 3]) })
        // Played bars in the lesson's gradient (#FF5500 at the top to #FFA030 at the bottom), unplayed ones plain.
        let played = colors.contains { $0[0] == 0xFF && (0x55...0xA0).contains($0[1]) && $0[2] <= 0x30 }
        XCTAssertTrue(played && colors.contains([0xB0, 0xB0, 0xB8]), "no played and unplayed bars")

        let missing = try WavesBinary.execute([render, "nothing.wav", "x.png"], in: folder)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("nothing.wav"), missing.stderr)
        XCTAssertEqual(try WavesBinary.execute([render], in: folder).status, 64)
    }

    /// gl-window opens its own window under Xvfb, draws the dots with the GL
    /// renderer for 12 frames and exits; its last frame, read back from the
    /// window, is the CPU's frame at the same time within the effect's agreement.
    func testGLWindowDrawsAnEffectInItsOwnWindow() throws {
        let window = try example("gl-window")
        try GLRequirement.needPrograms(["/usr/bin/xvfb-run"], hint: "apt-get install xvfb xauth")
        let frames = 12
        let run = try WavesBinary.execute(["/usr/bin/xvfb-run", "-a", "-s", "-screen 0 800x600x24",
                                           window, "dots", "--frames", "\(frames)", "--screenshot", "window.png"], in: folder)
        if run.status != 0 {
            _ = try GLRequirement.need("gl-window under Xvfb") { throw RendererError.unavailable(.gl, reason: run.stderr) }
        }
        XCTAssertTrue(run.stdout.contains("\(frames) frames of dots"), run.stdout)
        let shown = try PNG.read(from: folder + "/window.png")
        let cpu = try WavesBinary.renderPNG(["render", "dots", "--size", "800x200", "--time", "\(Double(frames - 1) / 60)"],
                                            backend: "cpu", in: folder)
        let background = Scene.defaultBackground
        let painted = stride(from: 0, to: shown.pixels.count, by: 4).filter {
            Array(shown.pixels[$0..<$0 + 3]) != [background.r, background.g, background.b]
        }.count
        XCTAssertGreaterThan(painted, 2000, "the window's frame is (nearly) blank")
        let agreement = try XCTUnwrap(Effects.named(.dots)).agreement
        assertImagesMatch(shown, cpu, mean: agreement.mean, max: agreement.max, name: "gl-window-dots")

        let unknown = try WavesBinary.execute([window, "tides"], in: folder)
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("unknown effect tides"), unknown.stderr)
    }
}
