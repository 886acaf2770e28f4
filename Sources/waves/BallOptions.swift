import ArgumentParser
import WaveCore
import WaveEffects

/// The ball in the demo and the pacing preset: how the ball's frames
/// learn the time, and the work and pacing of the loop that draws them
/// (docs/contract.md, "The bouncing ball").
extension DriverClock.Driver: ExpressibleByArgument {}
extension RunLoopTimer.Mode: ExpressibleByArgument {}
extension BusyWork.Pattern: ExpressibleByArgument {}

struct BallOptions: ParsableArguments {
    @Option(help: "How each frame learns the time: display (the loop's measured time, a display link's), timer (a real 1/60 s timer on its own clock, each callback adding 1/60 s, as the chapter's first listing) or fixed (fixed steps of --physics-step, the ball drawn between the last two) (default: display). The headless demo has no frame loop to time: it draws the ideal ball.")
    var driver: DriverClock.Driver?

    @Option(name: .customLong("timer-mode"), help: "With --driver timer: the timer's run-loop mode: default (stalls while the loop tracks, see --busy-pattern) or common (fires in every mode) (default: default).")
    var timerMode: RunLoopTimer.Mode?

    @Option(parsing: .unconditional, help: "Milliseconds of work on the loop's thread a frame, 0 to 1000 (default: 0), as layout or a scroll's tracking would do.")
    var busy: Double?

    @Option(name: .customLong("busy-pattern"), help: "With --busy: every (the work every frame) or tracking (only while tracking: half a second of every two, when a default-mode timer stalls) (default: every).")
    var busyPattern: BusyWork.Pattern?

    @Option(name: .customLong("frame-interval"), parsing: .unconditional, help: "Draw every Nth refresh, 1, 2 or 3 (60, 30 or 20 fps at 60 Hz) (default: 1), as a display link's frameInterval.",
            transform: parseWhole("1, 2 or 3"))
    var frameInterval: Int?

    func check() throws {
        if let busy {
            guard busy.isFinite, (0...1000).contains(busy) else {
                throw UsageError(option: "--busy", value: "\(busy)", accepted: "milliseconds from 0 to 1000")
            }
        }
        if let busyPattern {
            guard busy != nil else { throw UsageError(option: "--busy-pattern", value: busyPattern.rawValue, accepted: "only with --busy") }
        }
        if let frameInterval {
            guard (1...3).contains(frameInterval) else {
                throw UsageError(option: "--frame-interval", value: "\(frameInterval)", accepted: "1, 2 or 3")
            }
        }
    }

    /// The ball's template (the size comes later); the fixed driver steps by `step`.
    func template(step: Double?) -> Ball {
        var ball = Ball(width: 1, height: 1)
        ball.driver = driver ?? ball.driver
        ball.timerMode = timerMode ?? ball.timerMode
        ball.step = step ?? ball.step
        return ball
    }

    /// The loop's work a frame (nil: none).
    var work: BusyWork? {
        guard let busy, busy > 0 || busyPattern == .tracking else { return nil }
        return BusyWork(milliseconds: busy, pattern: busyPattern ?? .every)
    }
}

extension BallOptions {
    /// The drivers and the loop's work shape a frame loop: refused where there is none (a render draws the ideal ball).
    func refuseLoopOptions(where place: String) throws {
        let given: [(String, String?)] = [
            ("--driver", driver?.rawValue), ("--timer-mode", timerMode?.rawValue), ("--busy", busy.map { "\($0)" }),
            ("--busy-pattern", busyPattern?.rawValue), ("--frame-interval", frameInterval.map { "\($0)" }),
        ]
        if let (option, value) = given.first(where: { $0.1 != nil }) {
            throw UsageError(option: option, value: value ?? "",
                             accepted: "only with waves demo or waves bench (\(place) has no frame loop: it draws the ideal ball)")
        }
    }
}
