import WaveCore
import WaveEffects
import XCTest

/// Frames only when something changes (`ChangeSchedule`): counted over a
/// second (or a minute) of 60 Hz ticks, from the layer tree alone.
final class ChangeScheduleTests: XCTestCase {
    private let ticks = (0..<60).map { Double($0) / 60 }

    func testALoopingSineDrawsEveryFrame() throws {
        let scene = try SineCells(SceneRequest(width: 200, height: 50, count: 1, snapsToPixel: false), wave: WaveParameters(),
                                  background: Scene.defaultBackground).scene()
        XCTAssertEqual(try ChangeSchedule.framesNeeded(in: scene, at: ticks), 60)
    }

    func testAPausedSceneDrawsOnce() throws {
        var scene = try SineCells(SceneRequest(width: 200, height: 50, count: 1, snapsToPixel: false), wave: WaveParameters(),
                                  background: Scene.defaultBackground).scene()
        // A paused clock: the same time every tick.
        XCTAssertEqual(try ChangeSchedule.framesNeeded(in: scene, at: Array(repeating: 3.5, count: 60)), 1)
        // A paused layer (speed 0): its time stands still however the scene's runs.
        scene.tree!.root.timing = MediaTiming(duration: .infinity, speed: 0, fillMode: .both)
        XCTAssertEqual(try ChangeSchedule.framesNeeded(in: scene, at: ticks), 1)
        // Going back in time draws again.
        let schedule = try ChangeSchedule(scene: scene)
        schedule.drew(at: 2)
        XCTAssertFalse(schedule.needsFrame(at: 2.5))
        XCTAssertTrue(schedule.needsFrame(at: 1))
    }

    /// SoundCloud's case: 680 px of bars over 10 minutes, snapped to whole
    /// pixels: about 1.13 new positions a second, so between 1 and 2 frames
    /// a second (the first frame counted once).
    func testASnappedWaveformDrawsAboutOneFrameASecond() throws {
        var waveform = Waveform(width: 375, height: 100, peaks: (0..<340).map { Float(0.2 + 0.6 * abs(sin(Double($0) * 0.3))) },
                                duration: 600)
        (waveform.barWidth, waveform.barGap, waveform.pixelsPerSecond, waveform.snapToPixel) = (1, 1, 680.0 / 600, true)
        let minute = (0..<3600).map { 300 + Double($0) / 60 }
        let drawn = try ChangeSchedule.framesNeeded(in: try waveform.scene(), at: minute)
        XCTAssertGreaterThanOrEqual(Double(drawn) / 60, 1)
        XCTAssertLessThanOrEqual(Double(drawn) / 60, 2)
        // Unsnapped, it moves every frame.
        waveform.snapToPixel = false
        XCTAssertEqual(try ChangeSchedule.framesNeeded(in: try waveform.scene(), at: ticks), 60)
    }
}
