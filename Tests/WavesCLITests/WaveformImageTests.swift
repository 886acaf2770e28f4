import Foundation
import WaveAudio
import WaveCore
import WaveEffects
import WaveImageIO
import WaveTestSupport
import XCTest

/// Waveform images as audiowaveform's users make them: a segment of a track
/// (`--start/--end`), one band per channel (`--split-channels`), a time axis
/// (`--axis`), and whole folders of tracks in parallel.
final class WaveformImageTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func waves(_ arguments: [String]) throws -> WavesBinary.Result { try WavesBinary.run(arguments, in: folder) }

    private func render(_ arguments: [String], _ name: String) throws -> RGBAImage {
        try WavesBinary.renderPNG(["render", "waveform"] + arguments, backend: "cpu", in: folder, name: name)
    }

    /// 20 s of the generated track at 8 kHz; channel 1 (where asked) a
    /// quieter copy 1.3 s later, so the two channels differ everywhere.
    private func writeTrack(_ name: String, channels: Int = 1, frames: Range<Int> = 0..<160_000, pick: Int? = nil) throws {
        let track = GeneratedTrack(seconds: 20)
        func sample(_ n: Int, _ channel: Int) -> Float { channel == 0 ? track.sample(n) : 0.4 * track.sample((n + 10_400) % 160_000) }
        try AudioWriter.write(to: folder + "/" + name, format: .wav, sampleRate: 8000, channels: channels, frames: frames.count) { n, c in
            sample(frames.lowerBound + n, pick ?? c)
        }
    }

    /// Scroll mode: the segment's frame is the longer track's wherever the
    /// view lies inside the segment (S = 8000 * 3 / 50 = 480 samples a bar,
    /// the segment starting on bar 80). Fit mode: the segment drawn is the
    /// segment cut from the track into a file of its own, drawn whole.
    func testASegmentIsTheSameSegmentOfTheLongerTrack() throws {
        try writeTrack("long.wav")
        let common = ["--size", "400x80", "--amplitude-scale", "1"]
        let whole = try render(["--audio", "long.wav", "--time", "9.8"] + common, "whole.png")
        let segment = try render(["--audio", "long.wav", "--start", "4.8", "--end", "14.8", "--time", "9.8"] + common, "segment.png")
        assertImagesMatch(segment, whole, mean: 0, max: 0, name: "segment-scroll")
        // Past the segment's end the view shows background where the track goes on.
        let late = try render(["--audio", "long.wav", "--start", "4.8", "--end", "14.8", "--time", "14"] + common, "late.png")
        let lateWhole = try render(["--audio", "long.wav", "--time", "14"] + common, "late-whole.png")
        XCTAssertGreaterThan(ImageComparison.difference(late, lateWhole).differingPixels, 100)
        try writeTrack("cut.wav", frames: 38_400..<118_400)
        let cut = try render(["--audio", "cut.wav", "--fit", "--time", "5"] + common, "cut.png")
        let fitted = try render(["--audio", "long.wav", "--start", "4.8", "--end", "14.8", "--fit", "--time", "9.8"] + common, "fitted.png")
        assertImagesMatch(fitted, cut, mean: 0, max: 0, name: "segment-fit")
        let bad = try waves(["render", "waveform", "--audio", "long.wav", "--start", "5", "--end", "4", "--out", "x.png"])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssert(bad.stderr.contains("--end"), bad.stderr)
    }

    /// Each band of a split stereo track is that channel drawn alone at half the height.
    func testSplitChannelsDrawsEachChannelInItsOwnBand() throws {
        try writeTrack("stereo.wav", channels: 2)
        try writeTrack("left.wav", pick: 0)
        try writeTrack("right.wav", pick: 1)
        // Solid played bars: a gradient spans the whole picture, not each band.
        let common = ["--fit", "--time", "7", "--amplitude-scale", "1", "--played-color-bottom", "#FF5500"]
        let split = try render(["--audio", "stereo.wav", "--split-channels", "--size", "400x80"] + common, "split.png")
        let left = try render(["--audio", "left.wav", "--size", "400x40"] + common, "left.png")
        let right = try render(["--audio", "right.wav", "--size", "400x40"] + common, "right.png")
        assertImagesMatch(split.cropped(rows: 0..<40), left, mean: 0, max: 0, name: "split-left")
        assertImagesMatch(split.cropped(rows: 40..<80), right, mean: 0, max: 0, name: "split-right")
        XCTAssertGreaterThan(ImageComparison.difference(left, right).differingPixels, 500, "the channels differ")
        let mixed = try render(["--audio", "stereo.wav", "--size", "400x80"] + common, "mixed.png")
        XCTAssertGreaterThan(ImageComparison.difference(mixed, split).differingPixels, 500, "without the flag, one band of the mix")
    }

    /// The normal style (audiowaveform's): each 1 px bar spans its pair's
    /// least to greatest value about the middle, y from floor(H/2 - high H/2)
    /// to ceil(H/2 - low H/2) (at least a pixel), computed here from the pairs
    /// a .dat written here holds; 100 pairs of 64 samples fitted to 100 px are
    /// a bar a pair. Both backends draw exactly that.
    func testTheNormalStyleSpansEachBarsLeastToGreatestSampleOnBothBackends() throws {
        let (width, height) = (100, 60)
        var pairs: [Int] = []
        for i in 0..<width {
            let high = (i * 7919) % 30_000 - 5_000, low = high - (i * 104_729) % 25_000
            pairs += [low, high]
        }
        let peaks = WaveformData(sampleRate: 8000, samplesPerPixel: 64, bits: 16, data: pairs)
        FileManager.default.createFile(atPath: folder + "/p.dat", contents: peaks.dat())
        let (ink, ground): ([UInt8], [UInt8]) = ([255, 255, 255, 255], [0, 0, 0, 255])
        var expected = [UInt8](repeating: 0, count: width * height * 4)
        for x in 0..<width {
            let (low, high) = (Double(pairs[2 * x]) / 32768, Double(pairs[2 * x + 1]) / 32768)
            let half = Double(height) / 2
            let top = max(0, Int((half - high * half).rounded(.down)))
            let bottom = min(height, max(top + 1, Int((half - low * half).rounded(.up))))
            for y in 0..<height { expected.replaceSubrange(((y * width + x) * 4)..<((y * width + x) * 4 + 4), with: (top..<bottom).contains(y) ? ink : ground) }
        }
        let reference = RGBAImage(width: width, height: height, pixels: expected)
        let words = ["render", "waveform", "--peaks", "p.dat", "--fit", "--style", "normal", "--bar-width", "1", "--bar-gap", "0",
                     "--amplitude-scale", "1", "--size", "\(width)x\(height)", "--unplayed-color", "#FFFFFF", "--background", "#000000"]
        for backend in ["cpu", "gl"] {
            let image = try WavesBinary.renderPNG(words, backend: backend, in: folder, name: "normal-\(backend).png")
            assertImagesMatch(image, reference, mean: 0, max: 0, name: "waveform-normal-\(backend)")
        }
        // audiowaveform's audition scheme: its waveform colour for every bar, on its background.
        let audition = expected.enumerated().map { i, v -> UInt8 in
            let pixel = i / 4 * 4, lit = expected[pixel] == 255
            return i % 4 == 3 ? 255 : (lit ? [134, 252, 199] : [0, 63, 34])[i % 4]
        }
        let schemed = Array(words[0..<15]) + ["--colors", "audition"]
        for backend in ["cpu", "gl"] {
            let image = try WavesBinary.renderPNG(schemed, backend: backend, in: folder, name: "audition-\(backend).png")
            assertImagesMatch(image, RGBAImage(width: width, height: height, pixels: audition), mean: 0, max: 0, name: "waveform-audition-\(backend)")
        }
        // The bars style of the same file is another picture (centred, as tall as the loudest sample).
        let bars = try WavesBinary.renderPNG(Array(words[0..<5]) + Array(words[7...]), backend: "cpu", in: folder, name: "bars.png")
        XCTAssertGreaterThan(ImageComparison.difference(bars, reference).differingPixels, 300)
    }

    /// 20 s fitted to 800 px: 40 px a second, so a tick every 2 s (80 px;
    /// 1 s would be under 60 px), 10 px long at the top and bottom edges, in
    /// the unplayed colour, each labelled above its bottom tick.
    func testTheAxisTicksEveryNiceIntervalAtLeastSixtyPixelsApart() throws {
        try writeTrack("long.wav")
        let common = ["--audio", "long.wav", "--fit", "--size", "800x80", "--amplitude-scale", "0.4", "--time", "0"]
        let plain = try render(common, "plain.png")
        let axis = try render(common + ["--axis"], "axis.png")
        let unplayed = RGBA8(0xB0, 0xB0, 0xB8), background = RGBA8(0x10, 0x18, 0x2A)
        for x in stride(from: 80, to: 800, by: 80) {
            for y in [0, 5, 9, 70, 79] { XCTAssertEqual(axis[x, y], unplayed, "tick at x \(x), y \(y)") }
            XCTAssertEqual(axis[x, 10], background, "a tick is 10 px long (x \(x))")
            XCTAssertEqual(axis[x + 1, 2], background, "a tick is 1 px wide (x \(x))")
            XCTAssertEqual(axis[x - 40, 2], background, "no tick between (x \(x - 40))")
            // The label: something drawn in the 7 rows above the bottom tick, around the tick.
            let label = (x - 12...x + 12).flatMap { lx in (62..<69).map { axis[lx, $0] } }
            XCTAssert(label.contains(unplayed), "a label over x \(x)")
        }
        // Only ticks and labels were added, in the unplayed colour, and the labels' plates of the background.
        for y in 0..<80 {
            for x in 0..<800 where axis[x, y] != plain[x, y] {
                XCTAssert(axis[x, y] == unplayed || axis[x, y] == background, "x \(x), y \(y): \(axis[x, y])")
            }
        }
        // Over bars that fill the picture, each label is still legible: its box holds the text's colour and the
        // plate's, and the plate hides the bars behind it.
        let loud = try render(["--audio", "long.wav", "--fit", "--size", "800x80", "--amplitude-scale", "20", "--time", "0", "--axis",
                               "--bar-width", "1", "--bar-gap", "0"], "loud.png")
        for x in stride(from: 80, to: 800, by: 80) {
            let box = (x - 8...x + 8).flatMap { lx in (62..<69).map { loud[lx, $0] } }
            XCTAssertGreaterThan(box.filter { $0 == unplayed }.count, 5, "the label's strokes over x \(x)")
            XCTAssertGreaterThan(box.filter { $0 == background }.count, 20, "the plate around them over x \(x)")
        }
        XCTAssertEqual(Waveform.axisInterval(pixelsPerSecond: 50), 2)
        XCTAssertEqual(Waveform.axisInterval(pixelsPerSecond: 0.5), 120)
        XCTAssertEqual(Waveform.axisLabel(seconds: 3723), "1:02:03")
        XCTAssertEqual(Waveform.axisLabel(seconds: 65), "1:05")
    }

    /// A folder of tracks with one that is not audio: the others are written
    /// (each the same as its track done alone), one line names the bad one,
    /// the status says a track failed; a second run writes nothing.
    func testAFolderOfTracksGoesOnPastABadOneAndASecondRunWritesNothing() throws {
        try FileManager.default.createDirectory(atPath: folder + "/tracks", withIntermediateDirectories: true)
        for (i, name) in ["a", "b", "c"].enumerated() { try writeTrack("tracks/\(name).wav", frames: 0..<(16_000 * (i + 1))) }
        try Data("not audio at all, just words".utf8).write(to: URL(fileURLWithPath: folder + "/tracks/bad.wav"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder + "/tracks/notes.txt"))
        let runs: [(command: [String], outputs: [String], alone: (String) -> [String])] = [
            (["peaks", "--audio", "tracks", "--dat", "out/{name}.dat", "--jobs", "2"], ["out/a.dat", "out/b.dat", "out/c.dat"],
             { ["peaks", "--audio", "tracks/\($0).wav", "--dat", "alone.dat"] }),
            (["render", "waveform", "--audio", "tracks/", "--fit", "--size", "300x60", "--backend", "cpu", "--out", "img/{name}.png"],
             ["img/a.png", "img/b.png", "img/c.png"],
             { ["render", "waveform", "--audio", "tracks/\($0).wav", "--fit", "--size", "300x60", "--backend", "cpu", "--out", "alone.png"] }),
        ]
        for run in runs {
            let first = try waves(run.command)
            XCTAssertEqual(first.status, 65, "\(run.command): \(first.stderr)")
            XCTAssertEqual(first.stderr.split(separator: "\n").count, 1, first.stderr)
            XCTAssert(first.stderr.contains("tracks/bad.wav"), first.stderr)
            XCTAssert(first.stdout.contains("4 tracks: 3 written, 0 up to date, 1 failed"), first.stdout)
            for (name, output) in zip(["a", "b", "c"], run.outputs) {
                let alone = try waves(run.alone(name))
                XCTAssertEqual(alone.status, 0, alone.stderr)
                let made = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + output))
                let expected = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + (output.hasSuffix(".dat") ? "alone.dat" : "alone.png")))
                XCTAssertEqual(made, expected, output)
            }
            let stamps = try run.outputs.map { try FileManager.default.attributesOfItem(atPath: folder + "/" + $0)[.modificationDate] as? Date }
            let second = try waves(run.command)
            XCTAssertEqual(second.status, 65, second.stderr)
            XCTAssert(second.stdout.contains("4 tracks: 0 written, 3 up to date, 1 failed"), second.stdout)
            XCTAssertEqual(try run.outputs.map { try FileManager.default.attributesOfItem(atPath: folder + "/" + $0)[.modificationDate] as? Date },
                           stamps, "the second run wrote nothing")
        }
        // A pattern without {name} would write every track to one file: refused before any work.
        let clash = try waves(["peaks", "--audio", "tracks", "--dat", "all.dat"])
        XCTAssertEqual(clash.status, 64, clash.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/all.dat"))
    }
}
