import WaveCore

/// A world's state at any scene time, from fixed steps counted from time 0:
/// the world at t has taken floor(t / step) steps, whatever frames asked
/// for it and in whatever order (a later time steps on; an earlier one
/// starts again from the world's description). Never a wall-clock delta,
/// so a render at t equals the t-th frame of a sequence.
public final class Simulation {
    public let step: Double
    private let make: () -> PhysicsWorld
    public private(set) var world: PhysicsWorld
    /// Steps run since this was made (every world's, when time went back) and the thread CPU seconds they took.
    public private(set) var stepsRun = 0
    public private(set) var steppingSeconds = 0.0

    /// `step`: seconds a step (1/120 by default, the chapter's); `make` builds the world at time 0.
    public init(step: Double = 1.0 / 120, make: @escaping () -> PhysicsWorld) {
        self.step = step
        self.make = make
        world = make()
    }

    /// Steps the world at time t has taken.
    public func steps(at t: Double) -> Int {
        guard t.isFinite, t > 0 else { return 0 }
        // A time a hair under a whole step (t = n * step in floating point) counts that step.
        return Int((t / step + 1e-9).rounded(.down))
    }

    /// Brings the world to time t; returns the steps it ran.
    @discardableResult
    public func advance(to t: Double) -> Int {
        let target = steps(at: t)
        if target < world.steps { world = make() }
        guard world.steps < target else { return 0 }
        let start = Clocks.threadCPU()
        var ran = 0
        while world.steps < target {
            world.step(step)
            ran += 1
        }
        stepsRun += ran
        steppingSeconds += Clocks.threadCPU() - start
        return ran
    }
}
