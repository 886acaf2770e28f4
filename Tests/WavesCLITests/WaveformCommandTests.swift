import Foundation
import WaveAudio
import WaveCore
import WaveImageIO
import WaveTestSupport
import XCTest

/// `--scene waveform` and `waves peaks` driven as a person would.
final class WaveformCommandTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func waves(_ arguments: [String]) throws -> WavesBinary.Result { try WavesBinary.run(arguments, in: folder) }

    private func files() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? [] }

    /// Ten seconds of bursts at 8 kHz, written by libsndfile.
    private func writeTrack(_ name: String, format: AudioWriter.Format = .wav) throws {
        let track = GeneratedTrack(seconds: 10)
        try AudioWriter.write(to: folder + "/" + name, format: format, sampleRate: track.sampleRate, frames: track.sampleCount) {
            n, _ in track.sample(n)
        }
    }

    func testTheBuiltInTrackRendersTheSameOnBothBackends() throws {
        // t = 10 s: u = 10 * 50 - 300 = 200, a whole pixel.
        let common = ["render", "--scene", "waveform", "--size", "600x100", "--time", "10", "--played-color-bottom", "#FFD000"]
        let cpu = try WavesBinary.renderPNG(common, backend: "cpu", in: folder)
        for method in ["mask", "two-clips"] {
            assertImagesMatch(try WavesBinary.renderPNG(common + ["--split", method], backend: "gl", in: folder), cpu,
                              mean: 0.05, max: 1, name: "cli-waveform-\(method)")
        }
    }

    /// The defaults are the lesson's look: played bars in the gradient
    /// (#FF5500 to #FFA030) and motion snapped to whole pixels, so a frame at
    /// a half-pixel playhead is the snapped frame; --no-snap and a solid
    /// bottom colour give the other looks.
    func testTheWaveformsDefaultsAreTheLessonsLook() throws {
        // t = 10.01 s: u = 10.01 * 50 - 300 = 200.5, half a pixel.
        let common = ["render", "waveform", "--size", "600x100", "--time", "10.01"]
        let standard = try WavesBinary.renderPNG(common, backend: "cpu", in: folder, name: "standard.png")
        let lesson = try WavesBinary.renderPNG(common + ["--snap", "--played-color-bottom", "#FFA030"], backend: "cpu", in: folder, name: "lesson.png")
        assertImagesMatch(standard, lesson, mean: 0, max: 0, name: "waveform-default-look")
        let unsnapped = try WavesBinary.renderPNG(common + ["--no-snap"], backend: "cpu", in: folder, name: "unsnapped.png")
        XCTAssertGreaterThan(ImageComparison.difference(standard, unsnapped).differingPixels, 100, "--no-snap moves by half a pixel")
        let solid = try WavesBinary.renderPNG(common + ["--played-color-bottom", "#FF5500"], backend: "cpu", in: folder, name: "solid.png")
        XCTAssertGreaterThan(ImageComparison.difference(standard, solid).differingPixels, 100, "the gradient's lower bars are not #FF5500")
        // Another top colour alone is solid: no fade to the lesson's orange.
        let green = try WavesBinary.renderPNG(common + ["--played-color", "#00FF00"], backend: "cpu", in: folder, name: "green.png")
        let colours = Set(stride(from: 0, to: green.pixels.count, by: 4).map { Array(green.pixels[$0..<$0 + 3]) })
        XCTAssertFalse(colours.contains { $0[0] > 0xE0 && $0[1] > 0x20 && $0[1] < 0xD0 && $0[2] < 0x40 }, "no orange among the green bars")
    }

    /// Peaks written by `waves peaks` (16-bit, groups that divide the bars)
    /// draw exactly what the audio draws.
    func testPeaksFilesStandInForTheAudio() throws {
        try writeTrack("track.wav")
        let peaks = try waves(["peaks", "--audio", "track.wav", "--json", "p.json", "--dat", "p.dat",
                               "--samples-per-pixel", "240", "--bits", "16"])
        XCTAssertEqual(peaks.status, 0, peaks.stderr)
        XCTAssertEqual(try WaveformData.read(path: folder + "/p.json"), try WaveformData.read(path: folder + "/p.dat"))
        let common = ["render", "--scene", "waveform", "--backend", "cpu", "--size", "300x60", "--time", "4"]
        XCTAssertEqual(try waves(common + ["--audio", "track.wav", "--out", "a.png"]).status, 0)
        for file in ["p.json", "p.dat"] {
            let r = try waves(common + ["--peaks", file, "--out", "p.png"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try PNG.read(from: folder + "/p.png"), try PNG.read(from: folder + "/a.png"), file)
        }
    }

    func testFLACAndMP3AreRead() throws {
        try writeTrack("track.flac", format: .flac)
        try writeTrack("track.mp3", format: .mp3)
        for file in ["track.flac", "track.mp3"] {
            let r = try waves(["render", "--scene", "waveform", "--audio", file, "--fit", "--backend", "cpu", "--size", "200x50",
                               "--out", "w.png"])
            XCTAssertEqual(r.status, 0, "\(file): \(r.stderr)")
        }
    }

    /// Every bad input: its status, one line naming what is wrong, nothing written.
    func testBadInputIsOneLineAndStatusAndWritesNothing() throws {
        FileManager.default.createFile(atPath: folder + "/notes.txt", contents: Data("not audio at all".utf8))
        try AudioWriter.write(to: folder + "/empty.wav", format: .wav, sampleRate: 8000, frames: 0) { _, _ in 0 }
        FileManager.default.createFile(atPath: folder + "/v9.json", contents: Data("{\"version\":9}".utf8))
        FileManager.default.createFile(atPath: folder + "/short.dat", contents: Data([2, 0, 0]))
        // 20 bytes of peaks announcing a billion samples (10 groups of 100,000,000): refused before any allocation.
        var tiny: [UInt8] = []
        for v: Int32 in [2, 1, 1, 100_000_000, 10, 1] { withUnsafeBytes(of: v.littleEndian) { tiny += $0 } }
        tiny += [UInt8](repeating: 5, count: 20)
        FileManager.default.createFile(atPath: folder + "/tiny.dat", contents: Data(tiny))
        // 20 samples at 8 kHz: too short for the preset, which moves 680 px over the track.
        var blip: [UInt8] = []
        for v: Int32 in [2, 1, 8000, 2, 10, 1] { withUnsafeBytes(of: v.littleEndian) { blip += $0 } }
        blip += [UInt8](repeating: 5, count: 20)
        FileManager.default.createFile(atPath: folder + "/blip.dat", contents: Data(blip))
        let before = files()
        let render = ["render", "--scene", "waveform", "--backend", "cpu", "--out", "w.png"]
        let cases: [([String], Int32, String)] = [
            (render + ["--audio", "missing.wav"], 66, "missing.wav"),
            (render + ["--audio", "notes.txt"], 65, "notes.txt"),
            (render + ["--audio", "empty.wav"], 65, "empty.wav"),
            (render + ["--peaks", "v9.json"], 65, "unknown version 9"),
            (render + ["--peaks", "short.dat"], 65, "short.dat"),
            (render + ["--peaks", "nowhere.dat"], 66, "nowhere.dat"),
            (render + ["--bar-width", "0"], 64, "--bar-width"),
            (render + ["--bar-gap", "-1"], 64, "--bar-gap"),
            (render + ["--pixels-per-second", "nan"], 64, "--pixels-per-second"),
            (render + ["--pixels-per-second", "0"], 64, "--pixels-per-second"),
            (render + ["--playhead", "1.5"], 64, "--playhead"),
            (render + ["--bar-radius", "-2"], 64, "--bar-radius"),
            (render + ["--amplitude-scale", "loud"], 64, "--amplitude-scale"),
            (["render", "--audio", "notes.txt", "--out", "w.png"], 64, "--audio"),
            (["peaks", "--audio", "notes.txt", "--json", "p.json"], 65, "notes.txt"),
            (["peaks", "--audio", "missing.wav", "--json", "p.json"], 66, "missing.wav"),
            (["peaks", "--audio", "empty.wav", "--json", "p.json"], 65, "empty"),
            (["peaks", "--audio", "notes.txt"], 64, "--json"),
            (["peaks", "--audio", "notes.txt", "--dat", "p.dat", "--bits", "12"], 64, "--bits"),
            (["peaks", "--audio", "notes.txt", "--dat", "p.dat", "--samples-per-pixel", "1"], 64, "--samples-per-pixel"),
            (render + ["--peaks", "tiny.dat"], 64, "--pixels-per-second"),
            (render + ["--pixels-per-second", "1000000"], 64, "--pixels-per-second"),
            (["bench", "--headless", "--preset", "waveform", "--seconds", "1e300"], 64, "--seconds"),
            (["bench", "--headless", "--preset", "waveform", "--chart", "w.txt"], 64, "--chart"),
            (["bench", "--headless", "--preset", "waveform", "--bar-width", "0"], 64, "--bar-width"),
            (["bench", "--headless", "--preset", "waveform", "--peaks", "blip.dat"], 64, "--peaks"),
        ]
        for (arguments, status, mention) in cases {
            let r = try waves(arguments)
            XCTAssertEqual(r.status, status, "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(mention), "\(arguments): '\(r.stderr)' does not mention \(mention)")
            XCTAssertEqual(files(), before, "\(arguments) wrote something")
        }
    }

    /// --start without --end from a peaks file (JSON or .dat, fitted or not)
    /// draws the track from there on: it used to trap on an overflow (exit 132).
    func testStartWithoutEndFromAPeaksFileDrawsTheRest() throws {
        try writeTrack("t.wav")
        XCTAssertEqual(try waves(["peaks", "--audio", "t.wav", "--json", "p.json", "--dat", "p.dat"]).status, 0)
        for peaks in ["p.json", "p.dat"] {
            for extra in [[], ["--fit"]] {
                let r = try waves(["render", "waveform", "--peaks", peaks, "--start", "0.5", "--backend", "cpu", "--out", "s.png"] + extra)
                XCTAssertEqual(r.status, 0, "\(peaks) \(extra): \(r.stderr)")
            }
        }
        let past = try waves(["render", "waveform", "--peaks", "p.json", "--start", "1000", "--backend", "cpu", "--out", "s.png"])
        XCTAssertEqual(past.status, 65, past.stderr)
        XCTAssert(past.stderr.contains("no peaks from --start on"), past.stderr)
        XCTAssertEqual(past.stderr.split(separator: "\n").count, 1, past.stderr)
    }
}
