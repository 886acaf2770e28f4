import Foundation
import XCTest
import WaveCore
import WaveImageIO
import WaveTestSupport

/// `waves audiowaveform`'s images, WAV output and raw and MP3 input, and
/// `waves peaks`'s share of them, against expectations computed here from the
/// samples the tests write and audiowaveform's documented geometry: rows
/// sharing the height (the last taking what division leaves), a value v
/// drawn at row top + h - 1 - (v + 32768)·h / 65536, a vertical line from
/// max to min per pair ("normal"), a bar per width + gap pairs on the
/// track's grid ("bars"), a border, markers and labels with axis labels.
/// Images are compared pixel for pixel (no tolerance: these are integer
/// rasters); a failure writes actual, expected and diff.
final class AudiowaveformImageTests: XCTestCase {
    private var folder = ""
    private let track = AudiowaveformTrack(frames: 20_000)

    override func setUpWithError() throws {
        folder = try WavesBinary.temporaryFolder()
        FileManager.default.createFile(atPath: folder + "/t.wav", contents: track.wav)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func audiowaveform(_ words: [String]) throws -> WavesBinary.Result {
        let result = try WavesBinary.run(["audiowaveform", "-q"] + words, in: folder)
        XCTAssertEqual(result.status, 0, "\(words): \(result.stderr)")
        return result
    }

    private func image(_ name: String) throws -> RGBAImage { try PNG.read(from: folder + "/" + name) }
    private func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))) }

    private typealias RGBA = (UInt8, UInt8, UInt8, UInt8)
    private let background: RGBA = (255, 255, 255, 255), ink: RGBA = (0, 0, 255, 255), other: RGBA = (255, 128, 0, 255)
    private let colours = ["--background-color", "ffffff", "--waveform-color", "0000ff,ff8000"]

    /// A canvas of `background` that marks are painted on, clipped to it.
    struct Canvas {
        var image: RGBAImage
        init(image: RGBAImage) { self.image = image }
        init(_ width: Int, _ height: Int, _ colour: (UInt8, UInt8, UInt8, UInt8)) {
            image = RGBAImage(width: width, height: height, pixels: [UInt8]((0..<(width * height)).flatMap { _ in [colour.0, colour.1, colour.2, colour.3] }))
        }
        mutating func fill(x: ClosedRange<Int>, y: ClosedRange<Int>, _ c: (UInt8, UInt8, UInt8, UInt8)) {
            for yy in stride(from: max(0, y.lowerBound), through: min(image.height - 1, y.upperBound), by: 1) {
                for xx in stride(from: max(0, x.lowerBound), through: min(image.width - 1, x.upperBound), by: 1) {
                    let i = (yy * image.width + xx) * 4
                    (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], image.pixels[i + 3]) = c
                }
            }
        }
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * image.width + x) * 4; return Array(image.pixels[i..<(i + 4)]) }
    }

    /// Each channel's row (top, height) in an image `height` tall.
    private func rows(height: Int, channels: Int, labels: Bool) -> [(top: Int, height: Int)] {
        var available = labels ? height - 2 : height, top = labels ? 1 : 0
        let rowHeight = available / channels
        var rows: [(Int, Int)] = []
        for c in 0..<channels {
            let bottom = c == channels - 1 ? top + available - 1 : top + rowHeight
            rows.append((top, bottom - top + 1))
            available -= rowHeight + 1
            top += rowHeight + 1
        }
        return rows
    }

    private func y(_ v: Int, _ row: (top: Int, height: Int)) -> Int { row.top + row.height - 1 - (v + 32768) * row.height / 65536 }

    /// The normal style: a line from max to min for each pair from `start`.
    private func normal(_ pairs: [Int], channels: Int, width: Int, height: Int, labels: Bool = false, start: Int = 0) -> Canvas {
        var canvas = Canvas(width, height, background)
        let points = pairs.count / (2 * channels)
        for (c, row) in rows(height: height, channels: channels, labels: labels).enumerated() {
            for x in 0..<max(0, min(width, points - start)) {
                let low = pairs[(start + x) * 2 * channels + 2 * c], high = pairs[(start + x) * 2 * channels + 2 * c + 1]
                canvas.fill(x: x...x, y: y(high, row)...y(low, row), c == 0 ? ink : other)
            }
        }
        return canvas
    }

    func testTheNormalStyleIsALineFromMaxToMinForEachPairInEachChannelsRow() throws {
        _ = try audiowaveform(["-i", "t.wav", "-o", "mono.png", "-z", "64", "-w", "400", "-h", "61", "--no-axis-labels"] + colours)
        let mono = normal(track.pairs(samplesPerPixel: 64, split: false, bits: 16), channels: 1, width: 400, height: 61)
        assertImagesMatch(try image("mono.png"), mono.image, mean: 0, max: 0, name: "audiowaveform-normal-mono")
        _ = try audiowaveform(["-i", "t.wav", "-o", "split.png", "-z", "64", "-w", "400", "-h", "61", "--no-axis-labels", "--split-channels"] + colours)
        let split = normal(track.pairs(samplesPerPixel: 64, split: true, bits: 16), channels: 2, width: 400, height: 61)
        assertImagesMatch(try image("split.png"), split.image, mean: 0, max: 0, name: "audiowaveform-normal-split")
        // From a 16-bit .dat at a coarser zoom (pairs merged two by two) and from --start, the same geometry.
        _ = try audiowaveform(["-i", "t.wav", "-o", "t.dat", "-z", "64", "-b", "16"])
        _ = try audiowaveform(["-i", "t.dat", "-o", "coarse.png", "-z", "128", "-s", "0.25", "-w", "100", "-h", "40", "--no-axis-labels"] + colours)
        let coarse = normal(track.pairs(samplesPerPixel: 128, split: false, bits: 16), channels: 1, width: 100, height: 40, start: 31)
        assertImagesMatch(try image("coarse.png"), coarse.image, mean: 0, max: 0, name: "audiowaveform-normal-rescaled-start")
    }

    func testAutoScaleFillsTheHeightWithWhatIsShown() throws {
        _ = try audiowaveform(["-i", "t.wav", "-o", "auto.png", "-z", "64", "-w", "50", "-h", "80", "--no-axis-labels",
                               "--amplitude-scale", "auto"] + colours)
        let pairs = track.pairs(samplesPerPixel: 64, split: false, bits: 16)
        let shown = pairs.prefix(100)
        let high = shown.enumerated().filter { $0.offset % 2 == 1 }.map(\.element).max()!
        let low = shown.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).min()!
        let factor = abs(min(32767 / Double(high), 32767 / Double(low)))
        let scaled = pairs.map { Int(min(32767, max(-32768, Double($0) * factor))) }
        assertImagesMatch(try image("auto.png"), normal(scaled, channels: 1, width: 50, height: 80).image, mean: 0, max: 0, name: "audiowaveform-auto-scale")
    }

    func testBarsStandOnTheTracksGridWhateverTheStart() throws {
        // 0.05 s at 16 samples a pair is pair 50; bars of 3 + 4 pairs start at 49, one pixel left of the image.
        _ = try audiowaveform(["-i", "t.wav", "-o", "bars.png", "-z", "16", "-s", "0.05", "-w", "120", "-h", "50", "--no-axis-labels",
                               "--waveform-style", "bars", "--bar-width", "3", "--bar-gap", "4"] + colours)
        let pairs = track.pairs(samplesPerPixel: 16, split: false, bits: 16), points = pairs.count / 2
        var expected = Canvas(120, 50, background)
        let row = rows(height: 50, channels: 1, labels: false)[0]
        var i = 49, x = -1
        while x < 120 {
            let group = (i..<min(i + 7, points)).flatMap { [pairs[2 * $0], pairs[2 * $0 + 1]] }
            let size = group.isEmpty ? 0 : min(32767, group.map { abs($0) }.max()!)
            if y(size, row) != y(-size, row) { expected.fill(x: x...(x + 2), y: y(size, row)...y(-size, row), ink) }
            i += 7; x += 7
        }
        assertImagesMatch(try image("bars.png"), expected.image, mean: 0, max: 0, name: "audiowaveform-bars-grid")
    }

    func testTheAxisHasABorderMarkersAndTheLabelsThatFit() throws {
        // 16000 Hz at 64 samples a pair: 250 pixels a second, so a marker each second (the first >= 60 pixels of 1, 2, 5, ...).
        _ = try audiowaveform(["-i", "t.wav", "-o", "axis.png", "-z", "64", "-w", "300", "-h", "60", "--border-color", "00ff00",
                               "--axis-label-color", "ff0000"] + colours)
        let shown = Canvas(image: try image("axis.png"))
        var expected = normal(track.pairs(samplesPerPixel: 64, split: false, bits: 16), channels: 1, width: 300, height: 60, labels: true)
        let green: RGBA = (0, 255, 0, 255)
        expected.fill(x: 0...299, y: 0...0, green); expected.fill(x: 0...299, y: 59...59, green)
        expected.fill(x: 0...0, y: 0...59, green); expected.fill(x: 299...299, y: 0...59, green)
        for x in [0, 250] { expected.fill(x: x...x, y: 0...10, green); expected.fill(x: x...x, y: 49...59, green) }
        // "00:01" in the 6x13 small font, centred on its marker above the bottom one ("00:00" would start left of 0: not drawn).
        let label = (x: (250 - 15 + 1)..<(250 - 15 + 1 + 30), y: (60 - 1 - 10 - 1 - 13)..<(60 - 1 - 10 - 1))
        var red = 0
        for yy in 0..<60 {
            for xx in 0..<300 {
                let got = shown.pixel(xx, yy)
                if label.x.contains(xx) && label.y.contains(yy) && got == [255, 0, 0, 255] { red += 1; continue }
                XCTAssertEqual(got, expected.pixel(xx, yy), "(\(xx), \(yy))")
                if got != expected.pixel(xx, yy) { return }
            }
        }
        XCTAssertGreaterThan(red, 20, "the label's glyphs")
    }

    func testZoomAutoFitsTheTrackToTheWidth() throws {
        // Audio: 20000 frames at 16000 Hz across 100 pixels is 200 samples a pair.
        _ = try audiowaveform(["-i", "t.wav", "-o", "fit.png", "-z", "auto", "-w", "100", "-h", "40", "--no-axis-labels"] + colours)
        assertImagesMatch(try image("fit.png"), normal(track.pairs(samplesPerPixel: 200, split: false, bits: 16), channels: 1, width: 100, height: 40).image,
                          mean: 0, max: 0, name: "audiowaveform-fit-audio")
        // Peaks: audiowaveform takes their length in whole seconds (1.25 s is 1), so 125 pixels are 128 samples a pair.
        _ = try audiowaveform(["-i", "t.wav", "-o", "t.dat", "-z", "64", "-b", "16"])
        _ = try audiowaveform(["-i", "t.dat", "-o", "fitdat.png", "-z", "auto", "-w", "125", "-h", "40", "--no-axis-labels"] + colours)
        assertImagesMatch(try image("fitdat.png"), normal(track.pairs(samplesPerPixel: 128, split: false, bits: 16), channels: 1, width: 125, height: 40).image,
                          mean: 0, max: 0, name: "audiowaveform-fit-peaks")
    }

    func testColourSchemesAndColoursWithAlpha() throws {
        // 20 pairs across 40 pixels: the right half is background.
        _ = try audiowaveform(["-i", "t.wav", "-o", "audition.png", "-z", "1000", "-w", "40", "-h", "30", "--colors", "audition"])
        // audiowaveform's documented audition scheme: background 003f22, border 9d9d9d.
        XCTAssertEqual(Canvas(image: try image("audition.png")).pixel(30, 15), [0, 63, 34, 255])
        XCTAssertEqual(Canvas(image: try image("audition.png")).pixel(30, 0), [157, 157, 157, 255])
        _ = try audiowaveform(["-i", "t.wav", "-o", "alpha.png", "-z", "1000", "-w", "40", "-h", "30", "--no-axis-labels",
                               "--background-color", "00000000", "--waveform-color", "11223380"])
        let alpha = Canvas(image: try image("alpha.png"))
        XCTAssertEqual(alpha.pixel(30, 15)[3], 0, "a transparent background stays transparent")
        let middle = alpha.pixel(5, 15)
        XCTAssertEqual(Array(middle[0..<3]), [0x11, 0x22, 0x33])
        // libgd keeps 7 bits of alpha (127 - a / 2), so 0x80 comes back within 2.
        XCTAssertLessThanOrEqual(abs(Int(middle[3]) - 0x80), 2)
    }

    func testRawAudioInAndWAVOutAreTheSamplesAsTheyAre() throws {
        let pcm = track.pcm
        FileManager.default.createFile(atPath: folder + "/t.raw", contents: Data(pcm))
        let raw = ["--input-format", "raw", "--raw-samplerate", "16000", "--raw-channels", "2", "--raw-format"]
        _ = try audiowaveform(["-i", "t.raw", "-o", "out.wav"] + raw + ["s16le"])
        XCTAssertEqual(try bytes("out.wav"), [UInt8](track.wav), "a canonical 44-byte header, then the samples")
        // Big-endian and float: the same samples (a float's times 32767, truncated) in the peaks.
        let swapped = stride(from: 0, to: pcm.count, by: 2).flatMap { [pcm[$0 + 1], pcm[$0]] }
        FileManager.default.createFile(atPath: folder + "/be.raw", contents: Data(swapped))
        _ = try audiowaveform(["-i", "be.raw", "-o", "be.dat", "-z", "64", "-b", "16"] + raw + ["s16be"])
        _ = try audiowaveform(["-i", "t.wav", "-o", "le.dat", "-z", "64", "-b", "16"])
        XCTAssertEqual(try bytes("be.dat"), try bytes("le.dat"))
        let floats = (0..<track.frames).flatMap { n in [track.sample(n, 0), track.sample(n, 1)] }.map { Float($0) / 32768 }
        FileManager.default.createFile(atPath: folder + "/f.raw", contents: floats.withUnsafeBufferPointer { Data(buffer: $0) })
        _ = try audiowaveform(["-i", "f.raw", "-o", "f.dat", "-z", "1000", "-b", "16"] + raw + ["f32le"])
        _ = try audiowaveform(["-i", "f.dat", "-o", "f.txt"])
        let truncated = floats.map { Int(($0 * 32767).rounded(.towardZero)) }
        var expected = ""
        for start in stride(from: 0, to: track.frames, by: 1000) {
            let mixed: [Int] = (start..<min(track.frames, start + 1000)).map { n -> Int in (truncated[2 * n] + truncated[2 * n + 1]) / 2 }
            expected += "\(mixed.min()!),\(mixed.max()!)\n"
        }
        XCTAssertEqual(String(decoding: try bytes("f.txt"), as: UTF8.self), expected)
    }

    /// Extremes a user can type end in an image, peaks or audiowaveform's
    /// one-line refusal (status 0 or 1), never a trap: times past any track
    /// (C's conversion to int is undefined there; Waves holds them to 32 bits),
    /// huge sizes, bars and factors.
    func testExtremesEndInOutputOrOneLineNeverATrap() throws {
        _ = try audiowaveform(["-i", "t.wav", "-o", "t.dat", "-z", "64"])
        let cases: [[String]] = [
            ["-i", "t.dat", "-o", "x.png", "-s", "1e300"], ["-i", "t.dat", "-o", "x.png", "-e", "1e300"],
            ["-i", "t.wav", "-o", "x.dat", "-e", "1e300"], ["-i", "t.wav", "-o", "x.png", "-s", "1e300", "-e", "1e301"],
            ["-i", "t.dat", "-o", "x.png", "-s", "1e300", "--waveform-style", "bars"], ["-i", "t.dat", "-o", "x.png", "-z", "2147483647"],
            ["-i", "t.dat", "-o", "x.png", "--waveform-style", "bars", "--bar-width", "2147483647", "--bar-gap", "2147483647"],
            ["-i", "t.dat", "-o", "x.png", "-w", "2000000000", "-h", "2000000000"],
            ["-i", "t.dat", "-o", "x.png", "--amplitude-scale", String(repeating: "9", count: 400)],
            ["-i", "t.dat", "-o", "x.png", "--waveform-style", "bars", "--bar-style", "rounded", "--bar-width", "3", "-h", "2"],
            ["-i", "t.dat", "-o", "x.png", "--waveform-color", ""],
        ]
        for words in cases {
            let result = try WavesBinary.run(["audiowaveform", "-q"] + words, in: folder)
            XCTAssertTrue([0, 1].contains(result.status), "\(words): \(result.status) \(result.stderr)")
            XCTAssertLessThanOrEqual(result.stderr.split(separator: "\n").count, 2, "\(words): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Fatal error") || result.stderr.contains("Backtrace"), "\(words): \(result.stderr)")
        }
    }

    /// An MP3 is decoded as audiowaveform's libmad reader decodes it: the
    /// encoder's delay plus libmad's 529 samples dropped (ffmpeg drops the
    /// same), the padding kept (ffmpeg drops it). Checked against ffmpeg's
    /// own decoder, within 2 (two decoders' rounding), and the LAME header's
    /// padding, read here from its documented place.
    func testMP3IsDecodedWithTheEncoderDelayDroppedAndItsPaddingKept() throws {
        try GLRequirement.need("ffmpeg encoding and decoding an MP3 (make deps installs it)") {
            for command in [["ffmpeg", "-v", "error", "-y", "-i", "t.wav", "-c:a", "libmp3lame", "t.mp3"],
                            ["ffmpeg", "-v", "error", "-y", "-i", "t.mp3", "-f", "s16le", "ffmpeg.raw"]] {
                let r = try WavesBinary.execute(command, in: folder)
                guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
            }
        }
        _ = try audiowaveform(["-i", "t.mp3", "-o", "mad.wav"])
        func shorts(_ bytes: ArraySlice<UInt8>) -> [Int] { stride(from: bytes.startIndex, to: bytes.endIndex - 1, by: 2).map { Int(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) } }
        let mad = shorts(try bytes("mad.wav")[44...]), reference = shorts(try bytes("ffmpeg.raw")[...])
        let mp3 = try bytes("t.mp3")
        let lame = try XCTUnwrap((0..<(mp3.count - 4)).first { Array(mp3[$0..<($0 + 4)]) == Array("LAME".utf8) || Array(mp3[$0..<($0 + 4)]) == Array("Lavc".utf8) })
        let padding = (Int(mp3[lame + 22] & 0x0f) << 8 | Int(mp3[lame + 23])) - 529
        XCTAssertEqual(mad.count, reference.count + 2 * max(0, padding), "ffmpeg's frames plus the padding (stereo)")
        let worst = zip(mad, reference).map { abs($0 - $1) }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, 2)
        XCTAssertEqual(mad.count / 2 > 19_000, true, "the whole track decoded")
        // waves peaks recognises the MP3 by content (named .bin) and makes the same peaks.
        try FileManager.default.copyItem(atPath: folder + "/t.mp3", toPath: folder + "/song.bin")
        XCTAssertEqual(try WavesBinary.run(["peaks", "--audio", "song.bin", "--dat", "p.dat", "--samples-per-pixel", "64"], in: folder).status, 0)
        _ = try audiowaveform(["-i", "t.mp3", "-o", "a.dat", "-z", "64", "-b", "8"])
        XCTAssertEqual(try bytes("p.dat"), try bytes("a.dat"))
    }

    /// waves peaks's own syntax for the same abilities, the same bytes.
    func testWavesPeaksSplitsScalesConvertsAndWritesToStandardOutput() throws {
        let pairs: [(waves: [String], audiowaveform: [String])] = [
            (["--audio", "t.wav", "--split-channels", "--dat", "w.dat"], ["-i", "t.wav", "--split-channels", "-b", "8", "-o", "a.dat"]),
            (["--audio", "t.wav", "--amplitude-scale", "auto", "--bits", "16", "--json", "w.json"],
             ["-i", "t.wav", "--amplitude-scale", "auto", "-o", "a.json"]),
            (["--peaks", "a.dat", "--samples-per-pixel", "1000", "--json", "r.json"], ["-i", "a.dat", "-z", "1000", "-o", "ar.json"]),
            (["--peaks", "a.dat", "--txt", "w.txt"], ["-i", "a.dat", "-o", "a.txt"]),
        ]
        for (waves, theirs) in pairs {
            _ = try audiowaveform(theirs)
            let result = try WavesBinary.run(["peaks"] + waves, in: folder)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try bytes(waves.last!), try bytes(theirs.last!), "\(waves)")
        }
        let split = track.pairs(samplesPerPixel: 256, split: true, bits: 8)
        XCTAssertEqual(Array(try bytes("w.dat")[24...]), split.map { UInt8(bitPattern: Int8($0)) }, "version 2, two channels")
        let stdout = try WavesBinary.run(["peaks", "--audio", "t.wav", "--json", "-"], in: folder)
        XCTAssertEqual(stdout.status, 0, stdout.stderr)
        _ = try audiowaveform(["-i", "t.wav", "-o", "b.json", "-b", "8"])
        XCTAssertEqual(Array(stdout.stdout.utf8), try bytes("b.json"))
        XCTAssertTrue(stdout.stderr.hasPrefix("wrote standard output:"), stdout.stderr)
        let v2 = try WavesBinary.run(["peaks", "--audio", "t.wav", "--dat", "v2.dat", "--dat-version", "2"], in: folder)
        XCTAssertEqual(v2.status, 0, v2.stderr)
        XCTAssertEqual(Array(try bytes("v2.dat")[0..<4]), AudiowaveformTrack.int32(2))
        XCTAssertEqual(Array(try bytes("v2.dat")[20..<24]), AudiowaveformTrack.int32(1), "one channel, said")
    }
}

