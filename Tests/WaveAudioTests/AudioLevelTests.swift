import Foundation
import WaveAudio
import WaveCore
import XCTest

/// `--level-from FILE`: the level curve of a file of known loudness.
final class AudioLevelTests: XCTestCase {
    /// dB of full scale mapped from -60 (0) to 0 (1).
    func testTheMappingFromRMSToLevel() {
        XCTAssertEqual(AudioLevel.level(rms: 1), 1)
        XCTAssertEqual(AudioLevel.level(rms: 0.001), 0, accuracy: 1e-12) // -60 dB
        XCTAssertEqual(AudioLevel.level(rms: 0.1), 2.0 / 3, accuracy: 1e-12) // -20 dB
        XCTAssertEqual(AudioLevel.level(rms: 0), 0)
        XCTAssertEqual(AudioLevel.level(rms: .nan), 0)
    }

    /// At 44.1 kHz, 200 grid points a second are 220.5 samples apart: the
    /// grid stays on time (a tone from 30 s, no smoothing: silent just before
    /// the window reaches it, loud just after).
    func testTheLevelGridKeepsTimeAtSampleRatesItDoesNotDivide() throws {
        let folder = NSTemporaryDirectory() + "waves-level-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rate = 44100, path = folder + "/late-tone.wav"
        try AudioWriter.write(to: path, format: .wav, sampleRate: rate, frames: rate * 302 / 10) { n, _ in
            n >= 30 * rate ? Float(0.5 * sin(Double(n) * 0.2)) : 0
        }
        let level = Level.envelope(try AudioLevel.envelope(of: AudioReader(path: path), smoothing: LevelSmoothing(attack: 0, release: 0)))
        XCTAssertEqual(level.value(at: 29.97), 0, "the 50 ms window ends at 29.995 s")
        XCTAssertEqual(level.value(at: 30.03), AudioLevel.level(rms: 0.5 / 2.0.squareRoot()), accuracy: 0.01)
    }

    /// 0.5 s of silence, 1 s of a tone of amplitude 0.5 (RMS 0.5/sqrt 2,
    /// -9.03 dB, level 0.8495), 1 s of silence.
    func testALevelCurveFollowsAFileOfKnownLoudness() throws {
        let folder = NSTemporaryDirectory() + "waves-level-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rate = 8000, path = folder + "/tone.wav"
        try AudioWriter.write(to: path, format: .wav, sampleRate: rate, frames: rate * 5 / 2) { n, _ in
            let t = Double(n) / Double(rate)
            return t >= 0.5 && t < 1.5 ? Float(0.5 * sin(2 * Double.pi * 440 * t)) : 0
        }
        let attack = 0.05, release = 0.3
        let envelope = try AudioLevel.envelope(of: AudioReader(path: path), smoothing: LevelSmoothing(attack: attack, release: release))
        let level = Level.envelope(envelope)
        let loud = AudioLevel.level(rms: 0.5 / 2.0.squareRoot())
        XCTAssertEqual(loud, 0.8495, accuracy: 1e-3)
        XCTAssertEqual(level.value(at: 0.3), 0, "the window has not reached the tone")
        XCTAssertEqual(level.value(at: 1.0), loud, accuracy: 0.005)
        XCTAssertEqual(level.value(at: 1.45), loud, accuracy: 0.005)
        // The tone has left the window by 1.525 s; from there the level falls with the release time.
        let fallen = level.value(at: 2.2)
        XCTAssertLessThanOrEqual(fallen, loud * exp(-(2.2 - 1.525) / release) + 0.005)
        XCTAssertGreaterThan(fallen, loud * exp(-(2.2 - 1.4) / release) - 0.005)
        // Rising: at 0.5 + 3 attack times it is within 5% of the loud level, never above it.
        XCTAssertGreaterThan(level.value(at: 0.5 + 3 * attack), 0.95 * loud - 0.01)
        XCTAssertLessThanOrEqual(level.value(at: 0.6), loud + 0.005)
    }
}
