import Foundation
import WaveAudio
import WaveCore
import WaveEffects
import XCTest

/// The readers met with input as it arrives in the world: an audio file cut
/// short (its length unknowable to libsndfile), a stream read once and then
/// at any offset, peaks behind a byte-order mark or under the wrong name,
/// and SVG path data in every form its grammar allows.
final class HostileReaderTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "waves-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func track(_ name: String, _ format: AudioWriter.Format) throws -> Data {
        let generated = GeneratedTrack(seconds: 6)
        let path = folder + "/" + name
        try AudioWriter.write(to: path, format: format, sampleRate: generated.sampleRate, channels: 2, frames: generated.sampleCount) {
            n, _ in generated.sample(n)
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    // MARK: Audio

    /// libsndfile announces SF_COUNT_MAX frames for an Ogg cut short: no
    /// count at all (it was planned from, and overflowed), and the frames
    /// that decode are kept with a report of where decoding stopped.
    func testAnOggCutShortHasNoCountAndReportsWhereDecodingStopped() throws {
        let whole = try track("whole.ogg", .ogg)
        FileManager.default.createFile(atPath: folder + "/cut.ogg", contents: whole.prefix(whole.count * 97 / 100))
        let full = try AudioReader(path: folder + "/whole.ogg")
        let fullPeaks = try BarPeaks.scan(full, samplesPerBar: 400)
        XCTAssertEqual(full.announcedFrames, fullPeaks.sampleCount)
        XCTAssertNil(full.stoppedEarly)

        let cut = try AudioReader(path: folder + "/cut.ogg")
        XCTAssertNil(cut.announcedFrames, "SF_COUNT_MAX is no count")
        XCTAssertNil(cut.stoppedEarly, "nothing to say before the end")
        let peaks = try BarPeaks.scan(cut, samplesPerBar: 400)
        XCTAssertGreaterThan(peaks.sampleCount, fullPeaks.sampleCount / 2)
        XCTAssertLessThan(peaks.sampleCount, fullPeaks.sampleCount)
        XCTAssertEqual(Array(peaks.peaks.prefix(10)), Array(fullPeaks.peaks.prefix(10)), "what decodes is the track")
        let report = try XCTUnwrap(cut.stoppedEarly)
        XCTAssertTrue(report.hasPrefix("decoding stopped at ") && report.contains("damaged or truncated"), report)
    }

    /// Nothing decodable is refused with the real reason; the format is
    /// recognised by content, so random bytes named .mp3 are no MP3.
    func testUndecodableInputIsRefusedWithTheRealReason() throws {
        var generator = SystemRandomNumberGenerator()
        let cases: [(String, Data, String)] = [
            ("junk.mp3", Data((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }), "unrecognised format"),
            ("empty.wav", Data(), "empty"),
        ]
        for (name, bytes, reason) in cases {
            FileManager.default.createFile(atPath: folder + "/" + name, contents: bytes)
            XCTAssertThrowsError(try AudioReader(path: folder + "/" + name)) { error in
                guard case let .unreadable(_, text)? = error as? AudioError else { return XCTFail("\(name): \(error)") }
                XCTAssertTrue(text.contains(reason), "\(name): \(text)")
            }
        }
        XCTAssertTrue(AudioReader.readableFormats.contains("mp3") && AudioReader.readableFormats.contains("ogg"), "\(AudioReader.readableFormats)")
    }

    /// A pipe is read to its end once, then read again at any offset.
    func testAStreamIsCopiedOnceAndReadAtAnyOffset() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let writer = Thread {
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = write(ends[1], buffer.baseAddress! + offset, buffer.count - offset)
                    if n <= 0 { break }
                    offset += n
                }
            }
            close(ends[1])
        }
        writer.start()
        let name = "/dev/fd/\(ends[0])"
        let input = try InputFile.open(name)
        close(ends[0])
        XCTAssertEqual(input.size, bytes.count)
        XCTAssertEqual(try input.bytes(), bytes)
        XCTAssertTrue(try InputFile.open(name) === input, "the stream is read once")
        var middle = [UInt8](repeating: 0, count: 10)
        XCTAssertEqual(middle.withUnsafeMutableBytes { input.read(at: 50_000, into: $0) }, 10)
        XCTAssertEqual(Data(middle), bytes[50_000..<50_010])
    }

    // MARK: Peaks

    func testPeaksAreRecognisedByContentAndARefusalNamesTheFormatTried() throws {
        let data = WaveformData(sampleRate: 8000, samplesPerPixel: 100, bits: 16, data: [-5, 7, -300, 200])
        FileManager.default.createFile(atPath: folder + "/bom.json", contents: Data([0xEF, 0xBB, 0xBF]) + data.json())
        FileManager.default.createFile(atPath: folder + "/named.json", contents: data.dat())
        XCTAssertEqual(try WaveformData.read(path: folder + "/bom.json"), data)
        XCTAssertEqual(try WaveformData.read(path: folder + "/named.json"), data)
        for (name, bytes, tried) in [("a.dat", Data("{\"version\":2}".utf8), "JSON"), ("b.json", Data([7, 0, 0, 0, 1, 2, 3]), ".dat")] {
            FileManager.default.createFile(atPath: folder + "/" + name, contents: bytes)
            XCTAssertThrowsError(try WaveformData.read(path: folder + "/" + name)) { error in
                XCTAssertTrue("\(error)".contains("not audiowaveform \(tried) peaks"), "\(error)")
            }
        }
    }

    // MARK: SVG path data

    func testCompactNumbersExponentsAndRepeatsReadAsTheSpacedForm() throws {
        let spaced = try PathData.parse("M 0.5 0.5 L 100.5 0.5 L 50 70 Z")
        for text in ["M.5.5L100.5.5L50 70Z", "M0.5,0.5 100.5,0.5 50,70z", "M5e-1 .5E0L1.005e+2 5e-1l-50.5 69.5Z", "m.5.5l100 0-50.5 69.5z"] {
            XCTAssertEqual(try PathData.parse(text), spaced, text)
        }
        XCTAssertEqual(try PathData.parse("M0 0H10 20V5 7h-1v-1").elements,
                       [.move(Point(0, 0)), .line(Point(10, 0)), .line(Point(20, 0)), .line(Point(20, 5)), .line(Point(20, 7)),
                        .line(Point(19, 7)), .line(Point(19, 6))])
    }

    /// T reflects the last quadratic's control; S the last cubic's; a cubic
    /// becomes quadratic pieces within 1/16 px of it.
    func testSmoothCurvesReflectAndCubicsStayWithinTheTolerance() throws {
        XCTAssertEqual(try PathData.parse("M0 0Q10 10 20 0T40 0"), try PathData.parse("M0 0Q10 10 20 0Q30 -10 40 0"))
        XCTAssertEqual(try PathData.parse("M0 0C0 10 20 10 20 0S40 -10 40 0"), try PathData.parse("M0 0C0 10 20 10 20 0C20 -10 40 -10 40 0"))
        XCTAssertEqual(try PathData.parse("M0 0T10 0").elements, [.move(Point(0, 0)), .quad(control: Point(0, 0), end: Point(10, 0))])

        let (p0, c1, c2, p3) = (Point(0, 0), Point(0, 300), Point(400, -200), Point(400, 100))
        let path = try PathData.parse("M0 0C0 300 400 -200 400 100")
        var quads: [(Point, Point, Point)] = []
        var last = p0
        for element in path.elements {
            if case let .quad(control, end) = element { quads.append((last, control, end)); last = end }
        }
        XCTAssertGreaterThan(quads.count, 1)
        XCTAssertLessThanOrEqual(quads.count, 256)
        XCTAssertEqual(last, p3)
        func cubic(_ t: Double) -> Point {
            let u = 1 - t
            return Point(u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p3.x,
                         u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p3.y)
        }
        // Piece i covers t in [i/n, (i+1)/n] of the cubic, evenly.
        let n = Double(quads.count)
        for (i, (a, c, b)) in quads.enumerated() {
            for k in 0...8 {
                let s = Double(k) / 8, u = 1 - s
                let q = Point(u * u * a.x + 2 * u * s * c.x + s * s * b.x, u * u * a.y + 2 * u * s * c.y + s * s * b.y)
                let exact = cubic((Double(i) + s) / n)
                XCTAssertLessThanOrEqual(((q.x - exact.x) * (q.x - exact.x) + (q.y - exact.y) * (q.y - exact.y)).squareRoot(), 1.0 / 16,
                                         "piece \(i) at \(s)")
            }
        }
    }

    func testArcsAndBadSyntaxAreOneClearLine() throws {
        let cases: [(String, String)] = [
            ("M0 0 A 5 5 0 0 1 10 10", "arcs are not supported"), ("M0 0 L", "a number"), ("M 1 2 L three 4", "a number"),
            ("10 10", "a command"), ("M0 0 L 1 2 x", "a command"), ("M0 0 L 1 2\nZ\n#", "a command"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try PathData.parse(text)) { error in
                guard let syntax = error as? PathData.SyntaxError else { return XCTFail("\(text): \(error)") }
                XCTAssertTrue(syntax.description.contains(expected), "\(text): \(syntax)")
                XCTAssertFalse(syntax.description.contains("\n"), "\(text): one line")
            }
        }
        for text in ["M0 0 L nan 5", "M0 0 L 1e999 5", "M0 0 Q 1 -inf 4 4"] {
            XCTAssertThrowsError(try PathData.parse(text)) { XCTAssertTrue($0 is PathError, "\(text): \($0)") }
        }
    }
}
