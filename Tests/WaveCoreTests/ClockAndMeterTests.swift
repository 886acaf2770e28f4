import WaveCore
import XCTest

/// The pausable clock and the demo's meters.

final class ClockAndMeterTests: XCTestCase {
    func testPauseAndResumeKeepThePhase() {
        var clock = AnimationClock(startingAt: 0.25, wallNow: 100)
        XCTAssertEqual(clock.time(atWall: 101), 1.25)
        clock.pause(atWall: 101)
        XCTAssertEqual(clock.time(atWall: 150), 1.25, "time moved while paused")
        clock.resume(atWall: 150)
        XCTAssertEqual(clock.time(atWall: 150.5), 1.75, "the wave jumped on resume")
        clock.toggle(atWall: 151)
        XCTAssertTrue(clock.isPaused)
        XCTAssertEqual(clock.time(atWall: 999), 2.25)
    }

    func testStartingPausedHoldsTheStartTime() {
        let clock = AnimationClock(startingAt: 0.4, wallNow: 10, paused: true)
        XCTAssertEqual(clock.time(atWall: 12), 0.4)
    }

    func testMeterAveragesOverItsWindow() {
        var meter = StrategyMeter(wallNow: 0)
        for _ in 0..<30 { meter.addFrame(cpuMilliseconds: 2) }
        meter.addGPU(milliseconds: 1); meter.addGPU(milliseconds: 3)
        XCTAssertFalse(meter.refresh(atWall: 0.4))
        XCTAssertTrue(meter.refresh(atWall: 0.5))
        XCTAssertEqual(meter.latest.framesPerSecond, 60, accuracy: 1e-9)
        XCTAssertEqual(meter.latest.cpuMilliseconds, 2)
        XCTAssertEqual(meter.latest.gpuMilliseconds, 2)
        meter.addFrame(cpuMilliseconds: 5)
        XCTAssertTrue(meter.refresh(atWall: 1.0))
        XCTAssertEqual(meter.latest.cpuMilliseconds, 5)
        XCTAssertEqual(meter.latest.gpuMilliseconds, 2, "GPU figure kept while no new query arrived")
        let overall = meter.overallSnapshot(atWall: 2)
        XCTAssertEqual(overall.frames, 31)
        XCTAssertEqual(overall.framesPerSecond, 15.5, accuracy: 1e-9, "31 frames in 2 s")
        XCTAssertEqual(overall.cpuMilliseconds, 65.0 / 31, accuracy: 1e-9)
    }
}
