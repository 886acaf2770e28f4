import Foundation
import WaveCore

/// `--preset pacing`: the timer chapters measured. Each strategy draws the
/// scene (the jelly by default) for `seconds` under each pacing: a plain
/// timer (sleep 1/60 s after every frame), free (no pacing), and, in a
/// window whose display really paces swaps, vsync. Scene time comes from
/// measured time through the fixed-timestep loop (at most `maxSteps`
/// physics steps a frame); `stall` milliseconds are slept inside one frame
/// every second (from half a second in), so the cap can be seen at work.
///
/// A scene with a simulation (the crates) also reports the physics' own
/// cost a frame, and each strategy runs once more under the timer with no
/// cap: where a step costs more than it simulates, every late frame owes
/// more steps and the frames grow longer and longer (the death spiral).
/// That run stops at its first frame of over `spiralStop` seconds.
package enum PacingPreset {
    package static let name = "pacing"
    /// The display period frames are judged against where none is measured (60 Hz).
    package static let defaultPeriod = 1.0 / 60

    /// Room for every frame of a run: unpaced, a small scene on a fast
    /// machine draws tens of thousands a second; a run ends early (and says
    /// so in its seconds) rather than overflow.
    static func capacity(seconds: Double) -> Int { Int(min(seconds * 50_000, 5_000_000)) + 16 }

    /// An uncapped run ends at its first frame longer than this.
    package static let spiralStop = 0.5
}

/// One (strategy, pacing) run.
package struct PacingRow: Codable, Equatable {
    package var backend: String
    package var pacing: String
    package var seconds: Double
    package var frames: Int
    package var intervalP50Ms: Double
    package var intervalP99Ms: Double
    /// Intervals over 1.5 display periods.
    package var missed: Int
    /// Intervals under half a display period.
    package var bunched: Int
    /// Largest |n/60 - measured time| over the run: what animating by an assumed 1/60 s a frame gets wrong.
    package var assumedFrameErrorMs: Double
    package var maxStepsPerFrame: Int
    package var meanStepsPerFrame: Double
    /// Frame time the fixed-timestep cap dropped, seconds.
    package var droppedSeconds: Double
    package var cpuMs: Stats
    package var processCpuPercent: Double
    /// The most physics steps a frame may run; nil: no cap (the spiral's run).
    package var cap: Int?
    /// The scene's simulation: thread CPU a frame spent stepping, ms (nil: no simulation).
    package var physicsMs: Double?
    /// The mean interval of the run's first and last tenth of frames, ms: flat when paced, growing in a spiral.
    package var firstIntervalsMs: Double
    package var lastIntervalsMs: Double
    /// With a simulation: every frame's interval, ms, in order (what the spiral chart draws).
    package var intervalsMs: [Double]?
    /// The physics budget the run kept to (`--physics-budget`), nil: none.
    package var physicsBudget: Double?
    /// What the budget did, in order ("t 0.26 s: coarser step, 1/60 s (...)"); nil without a budget.
    package var remedies: [String]?

    enum CodingKeys: String, CodingKey {
        case backend, pacing, seconds, frames, missed, bunched, cap, remedies
        case intervalsMs = "intervals_ms"
        case physicsBudget = "physics_budget"
        case physicsMs = "physics_ms"
        case firstIntervalsMs = "first_intervals_ms"
        case lastIntervalsMs = "last_intervals_ms"
        case intervalP50Ms = "interval_p50_ms"
        case intervalP99Ms = "interval_p99_ms"
        case assumedFrameErrorMs = "assumed_frame_error_ms"
        case maxStepsPerFrame = "max_steps_per_frame"
        case meanStepsPerFrame = "mean_steps_per_frame"
        case droppedSeconds = "dropped_seconds"
        case cpuMs = "cpu_ms"
        case processCpuPercent = "process_cpu_percent"
    }
}

/// `--preset pacing`'s figures (the `pacing` object of the JSON).
package struct PacingReport: Codable, Equatable {
    package var displayPeriodMs: Double
    package var physicsStepMs: Double
    package var maxSteps: Int
    package var stallMs: Double
    /// "window (vsync paced)", "window (swaps not paced: no vsync)" or "headless".
    package var host: String
    package var rows: [PacingRow]

    enum CodingKeys: String, CodingKey {
        case rows, host
        case displayPeriodMs = "display_period_ms"
        case physicsStepMs = "physics_step_ms"
        case maxSteps = "max_steps"
        case stallMs = "stall_ms"
    }

    /// The terminal table.
    package func table(renderer: String) -> String {
        let physics = rows.contains { $0.physicsMs != nil }
        let header = ["strategy", "pacing", "cap", "budget", "frames", "p50 ms", "p99 ms", "first/last ms", "missed", "bunched", "1/60 error ms",
                      "steps/frame max", "mean", "dropped s", "CPU ms"] + (physics ? ["physics ms"] : []) + ["process CPU %"]
        let body = rows.map { r -> [String] in
            let cap: String = r.cap.map { "\($0)" } ?? "none", budget: String = r.physicsBudget.map { "\($0)" } ?? "-"
            return [r.backend, r.pacing, cap, budget, "\(r.frames)", String(format: "%.2f", r.intervalP50Ms),
             String(format: "%.2f", r.intervalP99Ms), String(format: "%.1f/%.1f", r.firstIntervalsMs, r.lastIntervalsMs),
             "\(r.missed)", "\(r.bunched)", String(format: "%.1f", r.assumedFrameErrorMs), "\(r.maxStepsPerFrame)",
             String(format: "%.2f", r.meanStepsPerFrame), String(format: "%.3f", r.droppedSeconds),
             Format.milliseconds(r.cpuMs.median)] + (physics ? [r.physicsMs.map { String(format: "%.3f", $0) } ?? "-"] : [])
                + [String(format: "%.1f", r.processCpuPercent)]
        }
        return "waves bench --preset pacing: \(host); display period \(String(format: "%.2f", displayPeriodMs)) ms, "
            + "physics step \(String(format: "%.2f", physicsStepMs)) ms, at most \(maxSteps) a frame"
            + (stallMs > 0 ? ", a \(Int(stallMs)) ms stall every second" : "") + "; GL_RENDERER: \(renderer)\n"
            + BenchReport.table(header: header, rows: body)
            + "missed: intervals over 1.5 periods; bunched: under half a period; 1/60 error: how far frame count / 60 drifts from the measured time\n"
            + "first/last: mean interval of the first and last tenth of the frames"
            + (physics ? "; physics: thread CPU a frame spent stepping the simulation; cap none: no cap on steps a frame"
                + " (where a step costs more than it simulates, frames grow until one takes over \(PacingPreset.spiralStop) s)" : "") + "\n"
            + remedyLines
    }

    /// One line per budgeted run: what the budget did.
    private var remedyLines: String {
        var lines = ""
        for r in rows {
            guard let share = r.physicsBudget else { continue }
            let did: [String] = r.remedies ?? []
            let text: String = did.isEmpty ? "nothing to do" : did.joined(separator: "; ")
            lines += "\(r.backend) with a physics budget of \(share): \(text)\n"
        }
        return lines
    }
}

extension BenchRunner {
    /// Runs every usable strategy under every pacing the host offers.
    /// `physicsBudget`: with a simulation, one more run per strategy, under the timer with the cap, keeping to it (`PhysicsBudget`).
    package func runPacing(seconds: Double, stallMilliseconds: Double, step: Double, maxSteps: Int, physicsBudget: Double? = nil,
                          progress: ((BenchProgress) -> Void)? = nil) throws -> BenchReport {
        guard seconds.isFinite, seconds > 0 else { throw BenchError.invalid("the pacing preset needs a positive duration") }
        let backends = try usableBackends()
        let simulated = try config.scene(cells: 1).simulationCost != nil
        let refresh = host.vsyncInterval?()
        var pacings: [Pacing] = [.timer, .free]
        if refresh != nil { pacings.insert(.vsync, at: 0) }
        let period = refresh ?? PacingPreset.defaultPeriod
        let total = backends.count * pacings.count
        var rows: [PacingRow] = []
        for (b, backend) in backends.enumerated() {
            let strategy = try BenchStrategy(backend, host: host)
            // One scene a strategy (its runs start again from time 0); the budgeted run gets a fresh one (it changes the step).
            var scene = try config.scene(cells: 1)
            try strategy.prepare(scene: scene)
            for (p, pacing) in pacings.enumerated() where !config.isInterrupted() {
                host.setVsync?(pacing == .vsync)
                progress?(BenchProgress(done: b * pacings.count + p, total: total, label: "pacing preset: \(backend.rawValue), \(pacing.rawValue)"))
                let meter = makeMeter(strategy, timer: nil, capacity: PacingPreset.capacity(seconds: seconds))
                for i in 0..<config.warmup { try meter.frame(time: Double(i) / 60, measured: false) }
                rows.append(try pacedRun(meter, backend: backend, pacing: pacing, seconds: seconds, period: period,
                                         stall: stallMilliseconds / 1000, step: step, maxSteps: maxSteps, scene: scene))
            }
            // With a simulation, the same under the timer with no cap: the spiral, where steps cost more than they simulate;
            // and, asked for, with the cap and the chapter's remedy.
            if simulated && !config.isInterrupted() {
                host.setVsync?(false)
                let meter = makeMeter(strategy, timer: nil, capacity: PacingPreset.capacity(seconds: seconds))
                for i in 0..<config.warmup { try meter.frame(time: Double(i) / 60, measured: false) }
                rows.append(try pacedRun(meter, backend: backend, pacing: .timer, seconds: seconds, period: period,
                                         stall: stallMilliseconds / 1000, step: step, maxSteps: nil, scene: scene))
            }
            if simulated, let physicsBudget, !config.isInterrupted() {
                scene = try config.scene(cells: 1)
                try strategy.prepare(scene: scene)
                let meter = makeMeter(strategy, timer: nil, capacity: PacingPreset.capacity(seconds: seconds))
                for i in 0..<config.warmup { try meter.frame(time: Double(i) / 60, measured: false) }
                rows.append(try pacedRun(meter, backend: backend, pacing: .timer, seconds: seconds, period: period,
                                         stall: stallMilliseconds / 1000, step: step, maxSteps: maxSteps, scene: scene,
                                         budget: PhysicsBudget(share: physicsBudget)))
            }
        }
        host.setVsync?(false)
        var report = BenchReport(renderer: rendererName, results: [])
        report.pacing = PacingReport(displayPeriodMs: period * 1000, physicsStepMs: step * 1000, maxSteps: maxSteps,
                                     stallMs: stallMilliseconds,
                                     host: host.show == nil ? "headless" : refresh == nil ? "window (swaps not paced: no vsync)" : "window (vsync paced)",
                                     rows: rows)
        return report
    }

    private func pacedRun(_ meter: FrameMeter, backend: Backend, pacing: Pacing, seconds: Double, period: Double,
                          stall: Double, step: Double, maxSteps: Int?, scene: Scene, budget: PhysicsBudget? = nil) throws -> PacingRow {
        var budget = budget
        var clock = FixedTimestep(step: step, maxSteps: maxSteps ?? Int.max / 2)
        let physicsStart = scene.simulationCost
        let capacity = PacingPreset.capacity(seconds: seconds)
        var starts: [Double] = []
        starts.reserveCapacity(capacity)
        var steps = 0, maxTaken = 0
        let start = Clocks.wall(), processStart = Clocks.processCPU()
        var last = start, nextStall = start + 0.5
        while true {
            let now = Clocks.wall()
            if now - start >= seconds || starts.count == capacity { break }
            // No cap: a spiral ends the run at its first frame over the limit.
            if maxSteps == nil, let previous = starts.last, now - previous > PacingPreset.spiralStop {
                starts.append(now)
                break
            }
            starts.append(now)
            let taken = clock.advance(by: now - last)
            last = now
            steps += taken
            maxTaken = max(maxTaken, taken)
            if stall > 0 && now >= nextStall {
                PacedRun.sleep(until: Clocks.wall() + stall)
                nextStall += 1
            }
            let physicsBefore = budget == nil ? 0 : scene.simulationCost?.seconds ?? 0
            try meter.frame(time: clock.time, measured: true)
            if budget != nil, let remedy = budget!.frame(physics: (scene.simulationCost?.seconds ?? 0) - physicsBefore,
                                                         simulated: Double(taken) * clock.step, work: Clocks.wall() - now,
                                                         step: clock.step, period: period, time: clock.time),
               case let .step(coarser) = remedy, scene.changePhysicsStep(to: coarser) {
                clock.changeStep(to: coarser)
            }
            if let budget {
                // Every `frameInterval`-th refresh from the frame's start, as a display link with frameInterval fires.
                PacedRun.sleep(until: Swift.max(Clocks.wall(), now + period * Double(budget.frameInterval)))
            } else if pacing == .timer {
                PacedRun.sleep(until: Clocks.wall() + PacingPreset.defaultPeriod)
            }
        }
        let wall = Clocks.wall() - start, process = Clocks.processCPU() - processStart
        let physics = scene.simulationCost.flatMap { end in physicsStart.map { (end.seconds - $0.seconds) * 1000 / Double(starts.count) } }
        let tenth = Swift.max(1, starts.count / 10)
        func meanInterval(_ from: Int, _ to: Int) -> Double {
            to > from ? (starts[to] - starts[from]) / Double(to - from) * 1000 : 0
        }
        let summary = try finish(meter, step: "the pacing preset, \(backend.rawValue) \(pacing.rawValue)", ifEmpty: "no frame was drawn")
        guard let stats = PacingStats(frameStarts: starts, period: period) else {
            throw BenchError.invalid("the pacing preset drew fewer than two frames in \(seconds) s")
        }
        return PacingRow(backend: backend.rawValue, pacing: budget == nil ? pacing.rawValue : "interval", seconds: rounded(wall, places: 3), frames: stats.frames,
                         intervalP50Ms: rounded(stats.intervalP50, places: 3), intervalP99Ms: rounded(stats.intervalP99, places: 3),
                         missed: stats.missed, bunched: stats.bunched,
                         assumedFrameErrorMs: rounded(stats.assumedFrameError, places: 2), maxStepsPerFrame: maxTaken,
                         meanStepsPerFrame: rounded(Double(steps) / Double(starts.count), places: 3),
                         droppedSeconds: rounded(clock.dropped, places: 4),
                         cpuMs: Stats(median: rounded(summary.cpuMs.median, places: 5), p95: rounded(summary.cpuMs.p95, places: 5)),
                         processCpuPercent: rounded(process / wall * 100, places: 2), cap: maxSteps,
                         physicsMs: physics.map { rounded($0, places: 4) },
                         firstIntervalsMs: rounded(meanInterval(0, Swift.min(tenth, starts.count - 1)), places: 2),
                         lastIntervalsMs: rounded(meanInterval(Swift.max(0, starts.count - 1 - tenth), starts.count - 1), places: 2),
                         intervalsMs: physicsStart == nil ? nil : (1..<starts.count).map { rounded((starts[$0] - starts[$0 - 1]) * 1000, places: 2) },
                         physicsBudget: budget?.share, remedies: budget.map { $0.actions.map(\.description) })
    }
}
