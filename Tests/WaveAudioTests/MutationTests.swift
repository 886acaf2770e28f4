import Foundation
import WaveAudio
import WaveCore
import WaveEffects
import WaveTestSupport
import XCTest

/// Every reader fed seeded mutations of a valid input (bit flips,
/// overwrites, truncation, insertion, repeats, extreme header fields), in
/// process: each case ends in a value or in the reader's own error, whose
/// message is one line; never a crash (a trap ends this test run) or
/// another error. The same inputs through the binary: HostileInputTests.
final class MutationTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "waves-mutation-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func oneLine(_ error: Error, _ name: String) {
        XCTAssertFalse("\(error)".contains("\n"), "\(name): \(error)")
    }

    func testAudioReadersEndInPeaksOrAnAudioError() throws {
        let track = GeneratedTrack(seconds: 1)
        var generator = SeededGenerator(seed: 2704)
        var outcomes = [String: Int]()
        for format in [AudioWriter.Format.wav, .flac, .ogg, .mp3] {
            let valid = folder + "/valid.\(format.rawValue)"
            try AudioWriter.write(to: valid, format: format, sampleRate: track.sampleRate, channels: 2, frames: track.sampleCount) {
                n, _ in track.sample(n)
            }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: valid))
            for i in 0..<250 {
                let name = "m\(i).\(format.rawValue)", path = folder + "/" + name
                FileManager.default.createFile(atPath: path, contents: Mutation.mutate(bytes, using: &generator))
                do {
                    let reader = try AudioReader(path: path)
                    let peaks = try BarPeaks.scan(reader, samplesPerBar: 256)
                    XCTAssertEqual(peaks.sampleCount, reader.framesRead, name)
                    XCTAssertTrue(peaks.peaks.allSatisfy { $0 >= 0 && $0 <= 1 }, name)
                    outcomes[reader.stoppedEarly == nil ? "whole" : "stopped early", default: 0] += 1
                } catch let error as AudioError {
                    guard case .unreadable = error else { return XCTFail("\(name): \(error)") }
                    oneLine(error, name)
                    outcomes["refused", default: 0] += 1
                }
            }
        }
        print("audio mutations: \(outcomes)")
        XCTAssertGreaterThan(outcomes["refused"] ?? 0, 0, "\(outcomes)")
        XCTAssertGreaterThan(outcomes["whole", default: 0] + outcomes["stopped early", default: 0], 0, "\(outcomes)")
    }

    /// MP3 through libmad (MP3Decoder, as waves audiowaveform reads it), then peaks
    /// (WaveformData.make): a real MP3 from libsndfile's LAME, mutated (the fuzz target: Fuzz/MP3DecoderFuzz.swift).
    func testMP3DecoderEndsInPeaksOrAnAudioError() throws {
        let track = GeneratedTrack(seconds: 0.5)
        let valid = folder + "/valid.mp3"
        try AudioWriter.write(to: valid, format: .mp3, sampleRate: track.sampleRate, channels: 2, frames: track.sampleCount) {
            n, _ in track.sample(n)
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: valid))
        // The file itself decodes, whole: stereo, every frame in a pair.
        let original = try MP3Decoder(path: valid)
        XCTAssertEqual(original.channels, 2)
        let originalPeaks = try WaveformData.make(original, samplesPerPixel: 64, splitChannels: false)
        XCTAssertGreaterThan(originalPeaks.length, 0)
        XCTAssertEqual(originalPeaks.length, (original.framesRead + 63) / 64)

        var generator = SeededGenerator(seed: 2707)
        var outcomes = [String: Int]()
        for i in 0..<200 {
            let name = "m\(i).mp3", path = folder + "/" + name
            FileManager.default.createFile(atPath: path, contents: Mutation.mutate(bytes, using: &generator))
            do {
                let decoder = try MP3Decoder(path: path)
                XCTAssert([1, 2].contains(decoder.channels), "\(name): \(decoder.channels) channels")
                let peaks = try WaveformData.make(decoder, samplesPerPixel: 64, splitChannels: false)
                XCTAssertEqual(peaks.channels, 1, name)
                XCTAssertEqual(peaks.length, (decoder.framesRead + 63) / 64, name)
                XCTAssertTrue(peaks.data.allSatisfy { (-32768...32767).contains($0) }, name)
                outcomes[peaks.length == originalPeaks.length ? "peaks" : "peaks of another length", default: 0] += 1
            } catch let error as AudioError {
                guard case .unreadable = error else { return XCTFail("\(name): \(error)") }
                oneLine(error, name)
                outcomes["refused", default: 0] += 1
            }
        }
        print("mp3 mutations: \(outcomes)")
        XCTAssertGreaterThan(outcomes["refused", default: 0], 0, "\(outcomes)")
        XCTAssertGreaterThan(outcomes["peaks", default: 0] + outcomes["peaks of another length", default: 0], 0, "\(outcomes)")
    }

    func testPeaksReadersEndInPeaksOrAnAudioError() throws {
        let data = WaveformData(sampleRate: 8000, samplesPerPixel: 64, bits: 16, channels: 2,
                                data: (0..<400).map { ($0 * 37 % 600) - 300 })
        var generator = SeededGenerator(seed: 2705)
        for (kind, bytes) in [("dat", data.dat()), ("json", data.json())] {
            for i in 0..<300 {
                let name = "m\(i).\(kind)", path = folder + "/" + name
                FileManager.default.createFile(atPath: path, contents: Mutation.mutate(bytes, using: &generator))
                do {
                    let read = try WaveformData.read(path: path)
                    // Bars a few hundred at most, whatever the header claims.
                    let bars = read.barPeaks(samplesPerBar: max(1, read.sampleCount / 300))
                    XCTAssertTrue(bars.peaks.allSatisfy { $0 >= 0 && $0 <= 1 }, name)
                } catch let error as AudioError {
                    guard case .unreadable = error else { return XCTFail("\(name): \(error)") }
                    oneLine(error, name)
                }
            }
        }
    }

    func testPathDataEndsInAPathOrASyntaxOrPathError() throws {
        let text = "M0 10 C 10 80 90 80 100 10 S 150 -50 200 10 Q 5 5 10 10 T 20 20 L 200 80 H 5 V 7 Z m1 1 l2 2 .5.5e1z"
        var generator = SeededGenerator(seed: 2706)
        for i in 0..<1000 {
            let bytes = Mutation.mutate(Data(text.utf8), using: &generator)
            let mutated = String(decoding: bytes, as: UTF8.self)
            do {
                _ = try PathData.parse(mutated)
            } catch let error as PathData.SyntaxError {
                oneLine(error, "case \(i): \(mutated)")
            } catch let error as PathError {
                oneLine(error, "case \(i): \(mutated)")
            }
        }
    }
}
