import WaveAudio
import WaveCore
import XCTest

/// The microphone's meter and the live level it feeds, without a device:
/// the chapter's dB scale, its level, and each reading animated over 0.1 s
/// from where the level is. (Opening a device is tried through the command
/// line, in `DotsAndVoiceCommandTests`: with none, exit 69 and one line.)
final class MicrophoneTests: XCTestCase {
    func testTheMeterIsTheChaptersDecibelScale() {
        XCTAssertEqual(Microphone.decibels(rms: 1), 0, accuracy: 1e-12)
        XCTAssertEqual(Microphone.decibels(rms: 0.1), -20, accuracy: 1e-9)
        XCTAssertEqual(Microphone.decibels(rms: 0), -160)
        XCTAssertEqual(Microphone.decibels(rms: 1e-12), -160, "the meter's floor")
        XCTAssertEqual(Microphone.level(decibels: -60), 0)
        XCTAssertEqual(Microphone.level(decibels: -30), 0.5, accuracy: 1e-12)
        XCTAssertEqual(Microphone.level(decibels: 6), 1)
        XCTAssertEqual(Microphone.level(decibels: -160), 0)
    }

    /// Each new reading: a straight line over 0.1 s from the value the level had when a frame first saw it.
    func testEachReadingIsAnimatedOverATenthOfASecond() {
        let level = LiveLevel(start: 0, smoothing: LevelSmoothing(), ramp: 0.1)
        XCTAssertEqual(level.value(at: 1.0), 0)
        level.set(0.8)
        XCTAssertEqual(level.value(at: 1.0), 0, "the ramp starts where the level is")
        XCTAssertEqual(level.value(at: 1.05), 0.4, accuracy: 1e-12)
        // A new reading halfway: from 0.4 toward 0.2, over the next 0.1 s.
        level.set(0.2)
        XCTAssertEqual(level.value(at: 1.05), 0.4, accuracy: 1e-12)
        XCTAssertEqual(level.value(at: 1.10), 0.3, accuracy: 1e-12)
        XCTAssertEqual(level.value(at: 1.20), 0.2, accuracy: 1e-12)
        XCTAssertEqual(level.value(at: 5.0), 0.2, accuracy: 1e-12)
    }
}
