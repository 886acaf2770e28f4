import Foundation
import WaveAudio
import XCTest

/// Peaks from real files (written by libsndfile) against an independent
/// computation from the samples that made them; audiowaveform's formats
/// against hand-made files; the readers against broken and random bytes.
final class PeaksTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "waves-audio-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private let rate = 8000, samplesPerBar = 400
    /// Bar amplitudes: tone bursts of known level, silences, full scale.
    private let levels: [Double] = [0.8, 0, 0.25, 0.5, 0, 1.0, 0.05, 0.6]

    /// A tone at rate/4 hits exactly 0, +a, 0, -a: its peak is a.
    private func sample(_ n: Int) -> Float {
        let a = levels[min(levels.count - 1, n / samplesPerBar)]
        switch n % 4 { case 1: return Float(a); case 3: return Float(-a); default: return 0 }
    }

    /// What a 16-bit file stores for a, read back as libsndfile returns it.
    private func stored(_ a: Double) -> Float { Float((a * 32767).rounded()) / 32768 }

    func testBarPeaksOfWAVAndFLACAreTheLargestMagnitudePerBar() throws {
        let frames = levels.count * samplesPerBar - 150 // the last bar is partial
        for format in [AudioWriter.Format.wav, .flac] {
            let path = folder + "/tones.\(format.rawValue)"
            try AudioWriter.write(to: path, format: format, sampleRate: rate, frames: frames) { n, _ in self.sample(n) }
            let peaks = try BarPeaks.scan(try AudioReader(path: path), samplesPerBar: samplesPerBar)
            XCTAssertEqual(peaks.sampleCount, frames, "\(format)")
            XCTAssertEqual(peaks.peaks.count, levels.count, "\(format): a partial last bar is a bar")
            for (i, level) in levels.enumerated() {
                XCTAssertEqual(peaks.peaks[i], stored(level), accuracy: 1e-6, "\(format) bar \(i)")
            }
        }
    }

    func testStereoChannelsAreMixedAsTheirMean() throws {
        let path = folder + "/stereo.wav"
        // Opposite channels cancel; a second file has one channel silent: half the level.
        try AudioWriter.write(to: path, format: .wav, sampleRate: rate, channels: 2, frames: 1600) { n, c in
            c == 0 ? self.sample(n) : -self.sample(n)
        }
        XCTAssertEqual(try BarPeaks.scan(try AudioReader(path: path), samplesPerBar: samplesPerBar).peaks, [0, 0, 0, 0])
        let half = folder + "/half.wav"
        try AudioWriter.write(to: half, format: .wav, sampleRate: rate, channels: 2, frames: 400) { n, c in
            c == 0 ? self.sample(n) : 0
        }
        XCTAssertEqual(try BarPeaks.scan(try AudioReader(path: half), samplesPerBar: 400).peaks[0], stored(0.8) / 2, accuracy: 1e-6)
    }

    /// A source that hides the reader, so the scans take their float path.
    private final class AsFloats: SampleSource {
        let reader: AudioReader
        init(_ reader: AudioReader) { self.reader = reader }
        var sampleRate: Int { reader.sampleRate }
        func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int { try reader.read(into: buffer) }
    }

    /// audiowaveform's peaks of a PCM track, computed here from each
    /// channel's samples on its own: each frame the channels' sum divided by
    /// their count, truncated toward zero (C's integer division), then each
    /// group's min and max, 8-bit values those / 256 truncated.
    private func audiowaveformPeaks(_ path: String, samplesPerPixel: Int, bits: Int, channel: Int? = nil) throws -> WaveformData {
        let channels = try AudioReader(path: path).channels
        let samples = try (channel.map { [$0] } ?? Array(0..<channels)).map { c -> [Int] in
            let source = AsFloats(try AudioReader(path: path, channel: c))
            let chunk = UnsafeMutableBufferPointer<Float>.allocate(capacity: 4096)
            defer { chunk.deallocate() }
            var all: [Int] = []
            while case let n = try source.read(into: chunk), n > 0 { all += chunk[..<n].map { Int($0 * 32768) } }
            return all
        }
        let count = samples.count
        let mixed = (0..<samples[0].count).map { i in samples.reduce(0) { $0 + $1[i] } / count }
        var data: [Int] = []
        for start in stride(from: 0, to: mixed.count, by: samplesPerPixel) {
            let group = mixed[start..<min(mixed.count, start + samplesPerPixel)]
            data += [group.min()!, group.max()!].map { bits == 8 ? $0 / 256 : $0 }
        }
        return WaveformData(sampleRate: rate, samplesPerPixel: samplesPerPixel, bits: bits, data: data)
    }

    /// PCM tracks (16-bit WAV and FLAC, mono, stereo and three channels, odd
    /// sums of both signs in every chunk position) give audiowaveform's
    /// peaks, mixed and split, and the bars of those mixes; a track that is
    /// not PCM (Ogg) is read through libsndfile's integers as audiowaveform
    /// reads it, its split channels each within a step of the float decoding.
    func testPCMTracksGiveAudiowaveformsPeaks() throws {
        var made: [(name: String, integers: Bool)] = []
        for (name, format, channels) in [("w16.wav", AudioWriter.Format.wav, 1), ("s16.wav", .wav, 2), ("s16.flac", .flac, 2),
                                         ("three.wav", .wav, 3), ("s.ogg", .ogg, 2)] {
            // Full scale both ways, and neighbours whose sums are odd, in every chunk position.
            try AudioWriter.write(to: folder + "/" + name, format: format, sampleRate: rate, channels: channels, frames: 70_001) { n, c in
                let v = Float((n * 7919 + c * 104_729) % 65_536 - 32_768) / 32_768
                return n % 1000 == 0 ? (c == 0 ? 1 : -1) : v * (format == .ogg ? 0.5 : 1)
            }
            made.append((name, format != .ogg))
        }
        for (name, integers) in made {
            let path = folder + "/" + name
            let reader = try AudioReader(path: path)
            XCTAssertEqual(reader.readsIntegers, integers, name)
            for (spp, bits) in [(2, 16), (3, 8), (256, 8), (1000, 16)] {
                let peaks = try WaveformData.make(try AudioReader(path: path), samplesPerPixel: spp, splitChannels: false).atBits(bits)
                let split = try WaveformData.make(try AudioReader(path: path), samplesPerPixel: spp, splitChannels: true).atBits(bits)
                XCTAssertEqual(split.channels, reader.channels)
                if integers {
                    XCTAssertEqual(peaks, try audiowaveformPeaks(path, samplesPerPixel: spp, bits: bits), "\(name) \(spp) \(bits)")
                    for c in 0..<reader.channels {
                        let alone = try audiowaveformPeaks(path, samplesPerPixel: spp, bits: bits, channel: c).data
                        let picked = stride(from: 2 * c, to: split.data.count, by: 2 * reader.channels).flatMap { split.data[$0...($0 + 1)] }
                        XCTAssertEqual(picked, alone, "\(name) channel \(c) \(spp) \(bits)")
                    }
                } else if bits == 16 {
                    for c in 0..<reader.channels {
                        let floats = try audiowaveformPeaks(path, samplesPerPixel: spp, bits: 16, channel: c).data
                        let picked = stride(from: 2 * c, to: split.data.count, by: 2 * reader.channels).flatMap { split.data[$0...($0 + 1)] }
                        XCTAssertEqual(picked.count, floats.count)
                        XCTAssertLessThanOrEqual(zip(picked, floats).map { abs($0 - $1) }.max() ?? 0, 1, "\(name) channel \(c)")
                    }
                }
            }
            for bar in [1, 7, 400, 65_537] {
                let bars = try BarPeaks.scan(try AudioReader(path: path), samplesPerBar: bar)
                if integers {
                    // The bars of the mix the peaks hold: the largest |value| of each bar's samples.
                    let mix = try audiowaveformPeaks(path, samplesPerPixel: bar, bits: 16).data
                    let expected = stride(from: 0, to: mix.count, by: 2).map { Float(max(abs(mix[$0]), abs(mix[$0 + 1]))) / 32768 }
                    XCTAssertEqual(bars.peaks, expected, "\(name) bars of \(bar)")
                }
                let picked = try BarPeaks.scan(try AudioReader(path: path, channel: 0), samplesPerBar: bar)
                XCTAssertEqual(picked, try BarPeaks.scan(AsFloats(try AudioReader(path: path, channel: 0)), samplesPerBar: bar), "\(name) channel 0 bars of \(bar)")
            }
        }
    }

    func testTheBarGridIsAnchoredToSampleIndices() throws {
        XCTAssertEqual(BarPeaks.samplesPerBar(sampleRate: 44100, pitch: 3, pixelsPerSecond: 50), 2646)
        XCTAssertEqual(BarPeaks.samplesPerBar(sampleRate: 8000, pitch: 1, pixelsPerSecond: 1e9), 1, "at least one sample")
        // Reading in any chunking gives the same bars: bar i is samples [i*S, (i+1)*S).
        let track = GeneratedTrack(seconds: 20)
        let whole = try BarPeaks.scan(track, samplesPerBar: 333)
        for bar in [0, 7, 123, whole.peaks.count - 1] {
            let range = (bar * 333)..<min(track.sampleCount, (bar + 1) * 333)
            let expected = range.map { abs(track.sample($0)) }.max() ?? 0
            XCTAssertEqual(whole.peaks[bar], expected, "bar \(bar)")
        }
    }

    func testTheGeneratedTrackIsDeterministicWithLoudQuietAndSilentParts() throws {
        let a = try BarPeaks.scan(GeneratedTrack(seconds: 60), samplesPerBar: 4000)
        let b = try BarPeaks.scan(GeneratedTrack(seconds: 60), samplesPerBar: 4000)
        XCTAssertEqual(a, b)
        XCTAssertTrue(a.peaks.contains(0), "no silence")
        XCTAssertGreaterThan(a.peaks.max() ?? 0, 0.6, "no loud part")
        XCTAssertTrue(a.peaks.contains { $0 > 0 && $0 < 0.2 }, "no quiet part")
    }

    // MARK: audiowaveform's formats

    private let example = WaveformData(sampleRate: 48000, samplesPerPixel: 512, bits: 8, channels: 1,
                                       data: [-65, 63, -66, 64, -40, 41])

    func testDatMatchesAHandMadeFileOfTheDocumentedFormat() throws {
        var expected: [UInt8] = []
        // One channel: version 1, five header fields, as audiowaveform writes it.
        for v: Int32 in [1, 1, 48000, 512, 3] { withUnsafeBytes(of: v.littleEndian) { expected += $0 } }
        expected += [-65, 63, -66, 64, -40, 41].map { UInt8(bitPattern: Int8($0)) }
        XCTAssertEqual([UInt8](example.dat()), expected)
        // Two: version 2, the channels a sixth field.
        var stereo = example
        stereo.channels = 2
        stereo.data = [-65, 63, -66, 64]
        XCTAssertEqual(Array([UInt8](stereo.dat())[0..<24]), [2, 0, 0, 0, 1, 0, 0, 0, 0x80, 0xBB, 0, 0, 0, 2, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0])
        // 16-bit: flags 0, values little-endian int16.
        var sixteen = example
        sixteen.bits = 16
        sixteen.data = [-32768, 32767]
        let bytes = [UInt8](sixteen.dat())
        XCTAssertEqual(Array(bytes[4..<8]), [0, 0, 0, 0])
        XCTAssertEqual(Array(bytes[20...]), [0x00, 0x80, 0xFF, 0x7F])
    }

    func testJSONMatchesTheDocumentedExample() throws {
        let text = String(decoding: example.json(), as: UTF8.self)
        XCTAssertEqual(text, "{\"version\":2,\"channels\":1,\"sample_rate\":48000,\"samples_per_pixel\":512,\"bits\":8,\"length\":3,\"data\":[-65,63,-66,64,-40,41]}\n")
    }

    func testWritersRoundTripThroughTheReadersAndVersionOneIsRead() throws {
        for (name, data) in [("p.json", example.json()), ("p.dat", example.dat())] {
            FileManager.default.createFile(atPath: folder + "/" + name, contents: data)
            XCTAssertEqual(try WaveformData.read(path: folder + "/" + name), example, name)
        }
        var v1: [UInt8] = []
        for v: Int32 in [1, 0, 44100, 256, 1] { withUnsafeBytes(of: v.littleEndian) { v1 += $0 } }
        v1 += [0x00, 0x80, 0xFF, 0x7F] // -32768, 32767
        FileManager.default.createFile(atPath: folder + "/v1.dat", contents: Data(v1))
        XCTAssertEqual(try WaveformData.read(path: folder + "/v1.dat"),
                       WaveformData(sampleRate: 44100, samplesPerPixel: 256, bits: 16, channels: 1, data: [-32768, 32767]))
        // audiowaveform's older JSON has no "version": version 1.
        FileManager.default.createFile(atPath: folder + "/old.json",
                                       contents: Data("{\"sample_rate\":8000,\"samples_per_pixel\":64,\"bits\":8,\"length\":1,\"data\":[-3,4]}".utf8))
        XCTAssertEqual(try WaveformData.read(path: folder + "/old.json"),
                       WaveformData(sampleRate: 8000, samplesPerPixel: 64, bits: 8, channels: 1, data: [-3, 4]))
        FileManager.default.createFile(atPath: folder + "/v3.json", contents: Data("{\"version\":3}".utf8))
        XCTAssertThrowsError(try WaveformData.read(path: folder + "/v3.json")) { XCTAssertTrue("\($0)".contains("unknown version 3"), "\($0)") }
    }

    func testScannedPeaksFollowTheSamplesAndBecomeBars() throws {
        let path = folder + "/tones.wav"
        try AudioWriter.write(to: path, format: .wav, sampleRate: rate, frames: levels.count * samplesPerBar) { n, _ in self.sample(n) }
        let data = try WaveformData.make(try AudioReader(path: path), samplesPerPixel: 200, splitChannels: false)
        XCTAssertEqual(data.length, levels.count * 2)
        for (i, level) in levels.enumerated() {
            let v = Int((Double(stored(level)) * 32768).rounded())
            XCTAssertEqual(Array(data.data[(i * 4)..<(i * 4 + 4)]), [-v, v, -v, v], "groups of bar \(i)")
        }
        let bars = data.barPeaks(samplesPerBar: samplesPerBar)
        for (i, level) in levels.enumerated() { XCTAssertEqual(bars.peaks[i], stored(level), accuracy: 1e-6) }
        let eight = try WaveformData.make(try AudioReader(path: path), samplesPerPixel: 400, splitChannels: false).atBits(8)
        XCTAssertEqual(eight.data[0...1], [-102, 102], "0.8 full scale: 26214 / 256, truncated toward zero as audiowaveform does")
    }

    // MARK: Bytes that are not what they claim

    func testTruncatedAndRandomFilesAreErrorsNotCrashes() throws {
        let wav = folder + "/ok.wav"
        try AudioWriter.write(to: wav, format: .wav, sampleRate: rate, frames: 2000) { n, _ in self.sample(n) }
        let wavBytes = try Data(contentsOf: URL(fileURLWithPath: wav))
        let datBytes = example.dat(), jsonBytes = example.json()
        var generator = SystemRandomNumberGenerator()
        var cases: [(String, Data)] = []
        for cut in [0, 3, 12, 44, 45, 100, wavBytes.count - 1] { cases.append(("cut\(cut).wav", wavBytes.prefix(cut))) }
        for cut in [0, 4, 19, 20, 23, 24, 25, datBytes.count - 1] { cases.append(("cut\(cut).dat", datBytes.prefix(cut))) }
        for cut in [1, 10, jsonBytes.count - 3] { cases.append(("cut\(cut).json", jsonBytes.prefix(cut))) }
        for i in 0..<8 {
            cases.append(("random\(i).wav", Data((0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) })))
            var header = datBytes.prefix(24)
            header += Data((0..<40).map { _ in UInt8.random(in: 0...255, using: &generator) })
            cases.append(("random\(i).dat", header))
        }
        // A header announcing more groups than any file holds.
        var huge: [UInt8] = []
        for v: UInt32 in [2, 1, 8000, 1, 0xFFFF_FFFF, 0x7FFF_FFFF] { withUnsafeBytes(of: v.littleEndian) { huge += $0 } }
        cases.append(("huge.dat", Data(huge)))
        for (name, bytes) in cases {
            let path = folder + "/" + name
            FileManager.default.createFile(atPath: path, contents: bytes)
            if name.hasSuffix(".wav") {
                do { _ = try BarPeaks.scan(try AudioReader(path: path), samplesPerBar: 100) } catch let error as AudioError {
                    guard case .unreadable = error else { return XCTFail("\(name): \(error)") }
                }
            } else {
                do { _ = try WaveformData.read(path: path) } catch let error as AudioError {
                    guard case .unreadable = error else { return XCTFail("\(name): \(error)") }
                }
            }
        }
        XCTAssertThrowsError(try AudioReader(path: folder + "/none.wav")) { XCTAssertEqual($0 as? AudioError, .missing(path: folder + "/none.wav")) }
    }

    /// A segment to the end (a count of Int.max, as --start without --end
    /// asks) holds the groups from the start's on, and never overflows;
    /// neither does a start past the end or a count past Int.max's reach.
    func testASegmentToTheEndNeverOverflows() {
        let data = WaveformData(sampleRate: 8000, samplesPerPixel: 100, bits: 16, data: (0..<40).map { $0 % 2 == 0 ? -$0 : $0 })
        XCTAssertEqual(data.length, 20)
        XCTAssertEqual(data.segment(start: 550, count: .max).length, 15, "groups 5 to 19: the one holding sample 550 on")
        XCTAssertEqual(data.segment(start: 550, count: .max).data, Array(data.data[10...]))
        XCTAssertEqual(data.segment(start: .max, count: .max).length, 0)
        XCTAssertEqual(data.segment(start: 0, count: 250).length, 3)
        XCTAssertEqual(data.segment(start: -5, count: .max).length, 20)
    }
}
