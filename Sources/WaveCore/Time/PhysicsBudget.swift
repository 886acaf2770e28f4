/// The timer chapter's remedy for the death spiral (`--physics-budget`):
/// keep the physics under a share of the time it simulates, and where
/// frames cannot keep to the display, lower the frame rate on purpose
/// (every 2nd or 3rd refresh, as `frameInterval` does) rather than drop
/// frames at random. A frame loop reports each frame's physics CPU, the
/// simulated time it advanced and its own work; every window of about a
/// quarter of a second of simulated time this decides:
/// - physics over the share: the step is made twice as coarse (1/120 s to
///   1/60 s, then 1/30 s at most), which halves the steps a simulated
///   second needs; the world then differs from the fine step's (the
///   remedy is recorded, so a replay with the same schedule agrees);
/// - else frames longer than the refresh period times the interval: the
///   interval goes up (30 FPS, then 20), so frames come evenly.
/// Pure arithmetic: the loop applies the change and the budget records it.
package struct PhysicsBudget: Equatable, Sendable {
    /// The most of the simulated time the physics may take (0.5: the chapter's half).
    package let share: Double
    /// Refreshes a frame: 1, 2 or 3.
    package private(set) var frameInterval = 1
    /// What it did, in order.
    package private(set) var actions: [Action] = []

    package static let coarsestStep = 1.0 / 30
    package static let maxFrameInterval = 3
    /// Simulated seconds a decision looks back over.
    package static let window = 0.25

    package enum Remedy: Equatable, Sendable {
        /// Step this many seconds from now on.
        case step(Double)
        /// Draw every this many refreshes.
        case frameInterval(Int)
    }

    package struct Action: Equatable, Sendable, CustomStringConvertible {
        /// The loop's simulated time when it acted (seconds since its first frame).
        package var time: Double
        package var remedy: Remedy
        /// What it saw: physics' share of the simulated time, or the frame's work against its period.
        package var reason: String

        package var description: String {
            switch remedy {
            case let .step(s): "\(Self.seconds(time)): coarser step, 1/\(Int((1 / s).rounded())) s (\(reason))"
            case let .frameInterval(n): "\(Self.seconds(time)): frame rate lowered to every \(n == 2 ? "2nd" : "3rd") refresh (\(reason))"
            }
        }

        private static func seconds(_ t: Double) -> String {
            let tenths = (t * 100).rounded() / 100
            return "t \(tenths) s"
        }
    }

    private var physics = 0.0, simulated = 0.0, work = 0.0, frames = 0

    package init(share: Double) { self.share = share }

    /// The shares a budget may be: more than 0, at most 1.
    package static func validShare(_ share: Double) -> Bool { share.isFinite && share > 0 && share <= 1 }

    /// Adds one frame: `physics` thread CPU seconds spent stepping,
    /// `simulated` seconds the steps covered, `work` seconds the frame took
    /// (stepping and drawing, not waiting); `step` the step now, `period`
    /// the display's refresh period, `time` the scene time. Returns the
    /// remedy to apply now (the loop changes the step or its pacing).
    package mutating func frame(physics: Double, simulated: Double, work: Double, step: Double, period: Double,
                               time: Double) -> Remedy? {
        self.physics += physics
        self.simulated += simulated
        self.work += work
        frames += 1
        guard self.simulated >= Self.window else { return nil }
        let seen = self.physics / self.simulated, frameWork = self.work / Double(frames)
        (self.physics, self.simulated, self.work, frames) = (0, 0, 0, 0)
        if seen > share && step * 2 <= Self.coarsestStep * (1 + 1e-9) {
            let remedy = Remedy.step(step * 2)
            actions.append(Action(time: time, remedy: remedy,
                                  reason: "physics took \(Self.percent(seen)) of the simulated time, over \(Self.percent(share))"))
            return remedy
        }
        if frameWork > period * Double(frameInterval) && frameInterval < Self.maxFrameInterval {
            frameInterval += 1
            let remedy = Remedy.frameInterval(frameInterval)
            actions.append(Action(time: time, remedy: remedy,
                                  reason: "frames took \(Self.milliseconds(frameWork)) ms, over \(Self.milliseconds(period * Double(frameInterval - 1))) ms"))
            return remedy
        }
        return nil
    }

    private static func percent(_ x: Double) -> String { "\((x * 1000).rounded() / 10)%" }
    private static func milliseconds(_ s: Double) -> String { "\((s * 10_000).rounded() / 10)" }
}
