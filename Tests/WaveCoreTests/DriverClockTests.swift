@testable import WaveCore

import XCTest

/// The drivers' clock (`DriverClock`, as the bouncing ball uses it) and the run-loop timer
/// (`RunLoopTimer`), with due times given by the test: each rule of
/// delivery, counted.
final class DriverClockTests: XCTestCase {
    func testDisplayDriverIsTheIdealTrajectoryAndFixedTrailsItByAStep() {
        let display = DriverClock(driver: .display, function: .bounceOut), fixed = DriverClock(driver: .fixed, function: .bounceOut, step: 0.01)
        for t in [0, 0.1, 0.3, 4.0 / 11, 0.5, 0.8, 0.95, 1.25, 3.7] {
            display.advance(to: t)
            let f = t - t.rounded(.down)
            XCTAssertEqual(display.value(0), TimingFunction.bounceOut(f), accuracy: 1e-12, "t \(t)")
            XCTAssertEqual(display.shown, t)
            fixed.advance(to: t)
            XCTAssertEqual(fixed.shown, max(0, t - 0.01), accuracy: 1e-12)
        }
        // On a step the fixed driver shows that step's position exactly; between two, the line between them.
        fixed.advance(to: 0.31)
        XCTAssertEqual(fixed.value(0), TimingFunction.bounceOut(0.30), accuracy: 1e-9)
        fixed.advance(to: 0.315)
        XCTAssertEqual(fixed.value(0), (TimingFunction.bounceOut(0.30) + TimingFunction.bounceOut(0.31)) / 2, accuracy: 1e-9)
        // Across the restart the ball stays down a step rather than drawing a line up the screen.
        fixed.advance(to: 1.005)
        XCTAssertEqual(fixed.value(0), TimingFunction.bounceOut(0.99), accuracy: 1e-9)
    }

    func testATimerFiresEachDueTimeThatFindsTheLoopWaiting() {
        let timer = RunLoopTimer(interval: 1.0 / 60, mode: .default)
        timer.willWait(at: 1.000)
        timer.record(due: 1.004)
        timer.record(due: 1.0207)
        XCTAssertEqual(timer.service(at: 1.025, waitEnded: 1.024, tracking: false), 2, "both came while it waited")
        XCTAssertEqual([timer.delivered, timer.late, timer.skipped, timer.doubled], [2, 0, 0, 1])
    }

    func testDueTimesWhileBusyAreOneLateCallback() {
        let timer = RunLoopTimer(interval: 1.0 / 60, mode: .default)
        // Due during the last turn's drawing (before the wait), during the wait, and twice during this turn's work.
        timer.willWait(at: 2.000)
        timer.record(due: 1.990)
        timer.record(due: 2.007)
        timer.record(due: 2.024)
        timer.record(due: 2.041)
        XCTAssertEqual(timer.service(at: 2.050, waitEnded: 2.010, tracking: false), 3)
        // 1.990 ran late as the loop went idle (10 ms); 2.007 on time; 2.024 and 2.041 as one, late (26 ms), one skipped.
        XCTAssertEqual([timer.delivered, timer.late, timer.skipped, timer.doubled], [3, 2, 1, 1])
    }

    func testADefaultModeTimerStallsWhileTrackingAndACommonOneDoesNot() {
        for mode in RunLoopTimer.Mode.allCases {
            let timer = RunLoopTimer(interval: 1.0 / 60, mode: mode)
            var run = 0
            for k in 0..<6 {
                let t = 3.0 + Double(k) / 60
                timer.willWait(at: t - 0.010)
                timer.record(due: t - 0.005)
                run += timer.service(at: t, waitEnded: t - 0.001, tracking: true)
            }
            timer.willWait(at: 4.0)
            run += timer.service(at: 4.01, waitEnded: 4.005, tracking: false)
            if mode == .default {
                XCTAssertEqual(run, 1, "nothing while tracking, then one late callback")
                XCTAssertEqual([timer.late, timer.skipped], [1, 5])
            } else {
                XCTAssertEqual(run, 6)
                XCTAssertEqual([timer.late, timer.skipped], [0, 0])
            }
        }
    }

    func testATimerDriverCountsItsCallbacksAsTime() throws {
        let clock = DriverClock(driver: .timer, function: .bounceOut)
        // Fed by a loop: the ball shows 1/60 s per callback, whatever the measured time.
        clock.frame(at: 0, wall: 10, waitEnded: 10, tracking: false)
        let timer = try XCTUnwrap(clock.timer)
        timer.stop()
        clock.willWait(at: 10.001)
        timer.record(due: 10.0167)
        timer.record(due: 10.0333)
        timer.record(due: 10.05)
        clock.frame(at: 0.06, wall: 10.061, waitEnded: 10.06, tracking: false)
        XCTAssertEqual(clock.shown, 3.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(clock.value(0), TimingFunction.bounceOut(3.0 / 60), accuracy: 1e-12)
        XCTAssertEqual(clock.measured, 0.06)
        // Paused (the loop's time stands still): callbacks still come, the ball does not move.
        clock.willWait(at: 10.062)
        timer.record(due: 10.0667)
        clock.frame(at: 0.06, wall: 10.08, waitEnded: 10.079, tracking: false)
        XCTAssertEqual(clock.shown, 3.0 / 60, accuracy: 1e-12)
    }

    func testBusyWorkRunsEveryFrameOrWhileTracking() {
        let every = BusyWork(milliseconds: 2), tracking = BusyWork(milliseconds: 2, pattern: .tracking)
        XCTAssertFalse(every.isTracking(at: 1.2))
        XCTAssertEqual([0.5, 0.99, 1.0, 1.49, 1.5, 3.2, 5.6].map { tracking.isTracking(at: $0) }, [false, false, true, true, false, true, false])
        let start = Clocks.threadCPU()
        every.run(at: 0)
        XCTAssertGreaterThanOrEqual(Clocks.threadCPU() - start, 0.002)
        let idle = Clocks.threadCPU()
        tracking.run(at: 0.2)
        XCTAssertLessThan(Clocks.threadCPU() - idle, 0.002, "no work outside tracking")
    }
}
