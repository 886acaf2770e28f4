import WaveCore

/// A world's state at any scene time, from fixed steps counted from time 0:
/// the world at t has taken every whole step up to t, whatever frames asked
/// for it and in whatever order (a later time steps on; an earlier one
/// starts again from the world's description). Never a wall-clock delta,
/// so a render at t equals the t-th frame of a sequence. The step may be
/// made coarser from some time on (the physics budget's remedy): the
/// schedule of steps is part of the inputs, so the same schedule gives the
/// same world.
package final class Simulation {
    /// From which time each step size holds: the first from 0, each later from a time the one before reaches exactly.
    package private(set) var schedule: [(from: Double, step: Double)]
    private let make: () -> PhysicsWorld
    package private(set) var world: PhysicsWorld
    /// The schedule entry the world is in, and the steps it has taken there.
    private var segment = 0, stepsInSegment = 0
    /// Gravity changes (pixels per second squared, y down), each taking effect at the first step that starts at or
    /// after its time: timed inputs, so a replay from 0 meets them where the first run did (the demo's tilt).
    package private(set) var gravityChanges: [(from: Double, gravity: (x: Double, y: Double))] = []
    /// Changes the world has met.
    private var gravityMet = 0
    /// Steps run since this was made (every world's, when time went back) and the thread CPU seconds they took.
    package private(set) var stepsRun = 0
    package private(set) var steppingSeconds = 0.0

    /// `step`: seconds a step (1/120 by default, the chapter's); `make` builds the world at time 0.
    package init(step: Double = 1.0 / 120, make: @escaping () -> PhysicsWorld) {
        schedule = [(0, step)]
        self.make = make
        world = make()
    }

    /// Seconds a step now (the schedule's last).
    package var step: Double { schedule[schedule.count - 1].step }

    /// The time the world has reached: its segment's start plus its whole steps there.
    package var time: Double { schedule[segment].from + Double(stepsInSegment) * schedule[segment].step }

    /// Whole steps of `entry` from its start up to t (a time a hair under a whole step counts that step).
    private func steps(_ entry: Int, upTo t: Double) -> Int {
        let (from, step) = schedule[entry]
        guard t.isFinite, t > from else { return 0 }
        return Int(((t - from) / step + 1e-9).rounded(.down))
    }

    /// Brings the world to time t; returns the steps it ran.
    @discardableResult
    package func advance(to t: Double) -> Int {
        // Back in time: before the segment's start (less the tolerance its last step was counted with), or fewer
        // whole steps into it than taken (the same rule that counts them, so a time read twice never rewinds).
        let owed = steps(segment, upTo: t)
        let back = (segment > 0 && t < schedule[segment].from - 1e-9 * schedule[segment - 1].step) || owed < stepsInSegment
        // Most calls (every channel a frame reads) find the world there already: no clock read.
        let nextChange = segment + 1 < schedule.count ? schedule[segment + 1].from : Double.infinity
        if !back && t < nextChange && owed == stepsInSegment { return 0 }
        if back {
            world = make()
            segment = 0
            stepsInSegment = 0
            gravityMet = 0
        }
        let start = Clocks.threadCPU()
        var ran = 0
        while true {
            let next = segment + 1 < schedule.count ? schedule[segment + 1].from : Double.infinity
            let target = t >= next ? steps(segment, upTo: next) : steps(segment, upTo: t)
            while stepsInSegment < target {
                if gravityMet < gravityChanges.count { meetGravityChanges() }
                world.step(schedule[segment].step)
                stepsInSegment += 1
                ran += 1
            }
            guard t >= next else { break }
            segment += 1
            stepsInSegment = 0
        }
        if ran > 0 {
            stepsRun += ran
            steppingSeconds += Clocks.threadCPU() - start
        }
        return ran
    }

    /// Applies the gravity changes due by the world's time.
    private func meetGravityChanges() {
        let now = time
        while gravityMet < gravityChanges.count && gravityChanges[gravityMet].from <= now + 1e-12 {
            world.gravity = gravityChanges[gravityMet].gravity
            gravityMet += 1
        }
    }

    /// The gravity last asked for (the latest change listed, which the world
    /// meets at its time), else the world's.
    package var gravity: (x: Double, y: Double) { gravityChanges.last?.gravity ?? world.gravity }

    /// Sets gravity from time t on (or from the world's time, if later: the
    /// past is not rewritten). Later changes already listed are dropped.
    package func setGravity(_ gravity: (x: Double, y: Double), from t: Double) {
        let from = Swift.max(t, time)
        gravityChanges.removeAll { $0.from >= from }
        gravityMet = Swift.min(gravityMet, gravityChanges.count)
        gravityChanges.append((from, gravity))
    }

    /// Steps of `step` seconds from the world's time on (it must be in the
    /// schedule's last entry; earlier times keep theirs). Returns whether it
    /// changed: false where the world is back in an earlier entry.
    @discardableResult
    package func changeStep(to step: Double) -> Bool {
        guard segment == schedule.count - 1, step > 0, step.isFinite else { return false }
        if stepsInSegment == 0 {
            schedule[segment].step = step
        } else {
            schedule.append((time, step))
            segment += 1
            stepsInSegment = 0
        }
        return true
    }
}
