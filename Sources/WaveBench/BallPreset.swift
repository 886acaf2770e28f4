import Foundation
import WaveCore

/// `--preset pacing --scene ball`: the timer chapter's ball under each
/// driver (display, timer, fixed), each strategy drawing it paced at 60 fps
/// (or every `frameInterval`-th tick) by sleeping to absolute deadlines,
/// with the loop's own work (`BusyWork`) done before its sources run, as a
/// run loop does. Per run: how far the ball is from the ideal trajectory at
/// each frame's measured time, the timer's late, doubled and skipped
/// callbacks, and the visible stutter.
package enum BallPreset {
    /// Rows of the chart's trace: the first seconds of each driver's run.
    package static let traceSeconds = 3.0

    /// Whether the ball's shown animation time stood still or jumped: it
    /// advanced by under a quarter, or over 1.75 times, the measured time since the last frame.
    package static func stutters(shownStep: Double, measuredStep: Double) -> Bool {
        guard measuredStep > 0 else { return false }
        return shownStep < 0.25 * measuredStep || shownStep > 1.75 * measuredStep
    }
}

/// One (strategy, driver) run.
package struct BallRow: Codable, Equatable {
    package var backend: String
    package var driver: String
    package var seconds: Double
    package var frames: Int
    /// Frames drawn more than 1.5 intervals after the last.
    package var missed: Int
    /// The ball's distance from the ideal trajectory at each frame's
    /// measured time, pixels, over the frames whose shown time is in the
    /// same fall as the measured one (across the restart at the top, any
    /// lag is the whole drop for a frame, and says nothing more).
    package var errorMaxPx: Double
    package var errorP99Px: Double
    /// The largest |measured - shown| animation time over the run, ms: how far the ball's clock drifted.
    package var lagMaxMs: Double
    /// The timer driver's callbacks (nil for the others): run, late (over a quarter interval), doubled (turns that ran two or more), skipped.
    package var callbacks: Int?
    package var late: Int?
    package var doubled: Int?
    package var skipped: Int?
    /// Frames whose shown time stood still or jumped (`BallPreset.stutters`).
    package var stutter: Int

    enum CodingKeys: String, CodingKey {
        case backend, driver, seconds, frames, missed, callbacks, late, doubled, skipped, stutter
        case errorMaxPx = "error_max_px"
        case errorP99Px = "error_p99_px"
        case lagMaxMs = "lag_max_ms"
    }
}

/// One driver's first seconds, for the chart: each frame's measured time and the ball's height drawn, pixels from the top.
package struct BallTrace: Codable, Equatable {
    package var driver: String
    package var times: [Double]
    package var y: [Double]
}

/// `--preset pacing --scene ball`'s figures (the `ball` object of the JSON).
package struct BallReport: Codable, Equatable {
    package var displayPeriodMs: Double
    package var frameInterval: Int
    package var busyMs: Double
    package var busyPattern: String
    package var timerMode: String
    /// Scene pixels from the top of the fall to its bottom.
    package var travelPx: Double
    package var rows: [BallRow]
    /// The first strategy's runs, the first `BallPreset.traceSeconds` of each.
    package var traces: [BallTrace]

    enum CodingKeys: String, CodingKey {
        case rows, traces
        case displayPeriodMs = "display_period_ms"
        case frameInterval = "frame_interval"
        case busyMs = "busy_ms"
        case busyPattern = "busy_pattern"
        case timerMode = "timer_mode"
        case travelPx = "travel_px"
    }

    /// The terminal table.
    package func table(renderer: String) -> String {
        let header = ["strategy", "driver", "frames", "missed", "error max px", "error p99 px", "lag max ms", "callbacks", "late", "doubled",
                      "skipped", "stutter"]
        let body = rows.map { r -> [String] in
            [r.backend, r.driver, "\(r.frames)", "\(r.missed)", String(format: "%.2f", r.errorMaxPx), String(format: "%.2f", r.errorP99Px),
             String(format: "%.1f", r.lagMaxMs),
             r.callbacks.map(String.init) ?? "-", r.late.map(String.init) ?? "-", r.doubled.map(String.init) ?? "-",
             r.skipped.map(String.init) ?? "-", "\(r.stutter)"]
        }
        let work = busyMs > 0 ? String(format: "%.0f ms of work %@", busyMs, busyPattern == "every" ? "every frame" : "while tracking (0.5 s of every 2 s)")
                              : "no work"
        return "waves bench --preset pacing --scene ball: \(Int((1000 / displayPeriodMs / Double(frameInterval)).rounded())) fps paced by sleeping, "
            + "\(work) on the loop, the timer in \(timerMode) mode; a \(String(format: "%.0f", travelPx)) px fall; GL_RENDERER: \(renderer)\n"
            + BenchReport.table(header: header, rows: body)
            + "error: the ball's distance from the ideal trajectory at the frame's measured time (frames within one fall); lag: "
            + "measured less shown animation time; late: callbacks run over a quarter interval "
            + "after they came due; doubled: loop turns that ran two or more; skipped: due times that never ran; stutter: frames whose "
            + "animation stood still or jumped (under a quarter or over 1.75 times the time since the last frame)\n"
    }
}

extension BenchRunner {
    /// Runs the ball under each driver for `seconds`, each strategy.
    /// `makeScene` makes the ball's scene for a driver (its size the pacing screen's).
    package func runBall(seconds: Double, busy: BusyWork?, frameInterval: Int, timerMode: RunLoopTimer.Mode,
                        makeScene: (DriverClock.Driver) throws -> Scene, progress: ((BenchProgress) -> Void)? = nil) throws -> BenchReport {
        guard seconds.isFinite, seconds > 0 else { throw BenchError.invalid("the pacing preset needs a positive duration") }
        guard (1...3).contains(frameInterval) else { throw BenchError.invalid("the frame interval is 1, 2 or 3") }
        let backends = try usableBackends()
        let drivers = DriverClock.Driver.allCases
        var rows: [BallRow] = [], traces: [BallTrace] = [], travel = 0.0
        for (b, backend) in backends.enumerated() where !config.isInterrupted() {
            let strategy = try BenchStrategy(backend, host: host)
            for (d, driver) in drivers.enumerated() where !config.isInterrupted() {
                progress?(BenchProgress(done: b * drivers.count + d, total: backends.count * drivers.count,
                                        label: "ball: \(backend.rawValue), \(driver.rawValue)"))
                let scene = try makeScene(driver)
                guard let clock = scene.computedValues(DriverClock.self).first else { throw BenchError.invalid("the ball's scene has no driver clock") }
                try strategy.prepare(scene: scene)
                travel = Self.travel(of: scene)
                let meter = makeMeter(strategy, timer: nil, capacity: Int(seconds * 60) + 16)
                defer { clock.stop() }
                let (row, trace) = try ballRun(meter, clock: clock, backend: backend, seconds: seconds, busy: busy,
                                               frameInterval: frameInterval, travel: travel)
                rows.append(row)
                if b == 0 { traces.append(trace) }
                try host.checkErrors("the ball, \(backend.rawValue), \(driver.rawValue)")
            }
        }
        var report = BenchReport(renderer: rendererName, results: [])
        report.ball = BallReport(displayPeriodMs: 1000.0 / 60, frameInterval: frameInterval, busyMs: busy?.milliseconds ?? 0,
                                 busyPattern: busy?.pattern.rawValue ?? "every", timerMode: timerMode.rawValue,
                                 travelPx: travel, rows: rows, traces: traces)
        report.interrupted = config.isInterrupted()
        return report
    }

    /// The scene pixels the ball's centre falls: its driven animation's span.
    static func travel(of scene: Scene) -> Double {
        guard let ball = scene.tree?.root.sublayers.first,
              case let .driven(driven)? = ball.position.y.animations.first else { return 0 }
        return abs(driven.to - driven.from)
    }

    private func ballRun(_ meter: FrameMeter, clock: DriverClock, backend: Backend, seconds: Double, busy: BusyWork?,
                         frameInterval: Int, travel: Double) throws -> (BallRow, BallTrace) {
        let capacity = Int(seconds * 60) + 16
        var errors: [Double] = [], times: [Double] = [], ys: [Double] = []
        errors.reserveCapacity(capacity); times.reserveCapacity(capacity); ys.reserveCapacity(capacity)
        var missed = 0, stutter = 0, frames = 0, lag = 0.0
        var last: (measured: Double, shown: Double)?
        var start = 0.0
        let period = Double(frameInterval) / 60
        _ = try PacedRun.run(seconds: seconds, framesPerSecond: 60 / Double(frameInterval)) { time in
            // The wait ended at the tick: the loop's own work, its sources (the timer), then the frame.
            let waitEnded = Clocks.wall()
            if times.isEmpty { start = waitEnded - time }
            let elapsed = waitEnded - start
            busy?.run(at: elapsed)
            clock.frame(at: elapsed, wall: Clocks.wall(), waitEnded: waitEnded, tracking: busy?.isTracking(at: elapsed) ?? false)
            _ = try meter.frame(time: elapsed, measured: true)
            let progress = clock.value(0), ideal = clock.idealProgress(at: clock.measured)
            frames += 1
            lag = max(lag, abs(clock.measured - clock.shown))
            let sameFall = (clock.shown / clock.duration).rounded(.down) == (clock.measured / clock.duration).rounded(.down)
            if errors.count < capacity && sameFall { errors.append(abs(progress - ideal) * travel) }
            if elapsed <= BallPreset.traceSeconds && times.count < capacity { times.append(elapsed); ys.append(progress * travel) }
            if let last {
                if clock.measured - last.measured > 1.5 * period { missed += 1 }
                if BallPreset.stutters(shownStep: clock.shown - last.shown, measuredStep: clock.measured - last.measured) { stutter += 1 }
            }
            last = (clock.measured, clock.shown)
            clock.willWait(at: Clocks.wall())
            return Clocks.wall()
        }
        let sorted = errors.sorted()
        let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, max(0, Int((0.99 * Double(sorted.count)).rounded(.up)) - 1))]
        let timer = clock.timer
        let row = BallRow(backend: backend.rawValue, driver: clock.driver.rawValue, seconds: seconds, frames: frames, missed: missed,
                          errorMaxPx: rounded(sorted.last ?? 0, places: 3), errorP99Px: rounded(p99, places: 3), lagMaxMs: rounded(lag * 1000, places: 2),
                          callbacks: timer?.delivered, late: timer?.late, doubled: timer?.doubled, skipped: timer?.skipped, stutter: stutter)
        return (row, BallTrace(driver: clock.driver.rawValue, times: times.map { rounded($0, places: 4) }, y: ys.map { rounded($0, places: 2) }))
    }
}

/// The ball's chart (`--preset pacing --scene ball --chart`): the ball's
/// height against the measured time of each frame, one line per driver
/// (the first strategy's runs, their first seconds), over the ideal
/// trajectory: the display driver's points lie on it, the timer's drift and
/// stutter away from it under the loop's work, the fixed driver's trail it
/// by a step.
package struct BallChart {
    package let report: BallReport
    package let renderer: String

    package init(report: BallReport, renderer: String) {
        self.report = report
        self.renderer = renderer
    }

    static let colors = ["display": "#2f9e44", "timer": "#d9480f", "fixed": "#1971c2"]

    package func svg() -> String {
        let size = BenchChart.size, p = BenchChart.plot
        let end = Swift.max(0.5, report.traces.flatMap(\.times).max() ?? 1)
        let travel = Swift.max(1, report.travelPx)
        func px(_ x: Double) -> Double { p.left + x / end * (p.right - p.left) }
        // The fall goes down the screen: its top at the plot's top.
        func py(_ y: Double) -> Double { p.top + y / travel * (p.bottom - p.top) }
        var out = SVGWriter(width: size.width, height: size.height)
        out.text("The bouncing ball: where each driver draws it, frame by frame", x: 20, y: 30, size: 17, weight: "bold")
        let work = report.busyMs > 0 ? String(format: "%.0f ms of work a frame%@", report.busyMs, report.busyPattern == "every" ? "" : " while tracking")
                                     : "no work"
        out.text("\(work) on the loop \u{B7} the timer in \(report.timerMode) mode \u{B7} GL_RENDERER: \(renderer)", x: 20, y: 52, size: 12, color: "#555")
        var s = 0.0
        while s <= end + 1e-9 {
            out.line(px(s), p.top, px(s), p.bottom, color: "#eee")
            out.text(String(format: "%g", s), x: px(s), y: p.bottom + 18, size: 12, anchor: "middle")
            s += 0.5
        }
        for k in 0...4 {
            let y = travel * Double(k) / 4
            out.text(String(format: "%.0f", y), x: p.left - 8, y: py(y) + 4, size: 12, anchor: "end")
        }
        out.rect(p.left, p.top, p.right - p.left, p.bottom - p.top, stroke: "#888")
        out.text("seconds (each frame's measured time)", x: (p.left + p.right) / 2, y: p.bottom + 42, size: 13, anchor: "middle")
        out.text("ball's fall, px from the top", x: 24, y: (p.top + p.bottom) / 2, size: 13, anchor: "middle", rotate: -90)
        // The ideal trajectory, finely sampled.
        let ideal = (0...600).map { i -> (Double, Double) in
            let t = end * Double(i) / 600, f = t - t.rounded(.down)
            return (px(t), py(TimingFunction.bounceOut(f) * travel))
        }
        out.polyline(ideal, color: "#aaa", dashed: true)
        let series = report.traces.map { trace in
            BenchChart.Series(label: trace.driver, color: Self.colors[trace.driver] ?? "#555", dashed: false,
                              points: zip(trace.times, trace.y).map { ($0, $1) })
        }
        out.legend(series + [BenchChart.Series(label: "ideal", color: "#aaa", dashed: true, points: [])])
        out.lines(series, at: { (px($0.x), py($0.y)) }, marker: { _ in 1.8 }, labelX: p.right + 10) { s in
            let row = report.rows.first { $0.driver == s.label }
            return "\(s.label): error max \(String(format: "%.1f", row?.errorMaxPx ?? 0)) px"
        }
        out.text("Dots: frames drawn; the dashed grey curve is the ideal trajectory at the measured time.",
                 x: 20, y: p.bottom + 66, size: 11, color: "#666")
        return out.finish()
    }
}
