import Foundation
import WaveCore

/// The timer chapter's first system: a ball falling from (150, 32) to
/// (150, 268) of a 300x300 view in 1 s with the chapter's bounce-ease-out,
/// starting at time 0 and falling again from the top every second. The
/// 300x300 square is scaled to the scene's smaller side and centred. The
/// ball is a round box layer whose centre's y is driven by a `DriverClock`,
/// which decides how each frame learns the time (display, timer or fixed).
public struct Ball: Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    public var color = RGBA8(0xE8, 0x4A, 0x3C)
    public var driver = DriverClock.Driver.display
    /// The timer driver's run-loop mode.
    public var timerMode = RunLoopTimer.Mode.default
    /// The fixed driver's step, seconds.
    public var step = 1.0 / 120

    /// The chapter's positions, in its 300x300 view.
    public static let side = 300.0
    public static let top = 32.0, bottom = 268.0, x = 150.0
    /// The ball's diameter there: it touches the view's top at the start and its bottom at the end.
    public static let diameter = 64.0

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Scene pixels per pixel of the chapter's view, and where that view's corner lies.
    public var placement: (scale: Double, x: Double, y: Double) {
        let scale = Double(Swift.min(width, height)) / Self.side
        return (scale, (Double(width) - Self.side * scale) / 2, (Double(height) - Self.side * scale) / 2)
    }

    /// Scene pixels from the top to the bottom of the fall.
    public var travel: Double { (Self.bottom - Self.top) * placement.scale }

    /// The ball's own parameters, declared once: how its frames learn the time (a render draws the ideal ball, so only a frame loop takes them).
    public static let parameters = ParameterList(defaults: Ball(width: 1, height: 1), [
        .choice("driver", \.driver,
                help: "How each frame learns the time: display (the loop's measured time, a display link's), timer (a real 1/60 s timer on its own clock, each callback adding 1/60 s, as the chapter's first listing) or fixed (fixed steps of --physics-step, the ball drawn between the last two). The headless demo has no frame loop to time: it draws the ideal ball.",
                scope: .frameLoop),
        .choice("timer-mode", \.timerMode,
                help: "With --driver timer: the timer's run-loop mode: default (stalls while the loop tracks, see --busy-pattern) or common (fires in every mode).",
                scope: .frameLoop),
    ])

    public func validate() throws {
        try Scene.validate(width: width, height: height)
        guard Swift.min(width, height) >= 30 else {
            throw ValueError(parameter: "size", value: "\(width)x\(height)", accepted: "at least 30 pixels each side for the ball")
        }
        guard step.isFinite, step >= 1.0 / 10_000, step <= 0.1 else {
            throw ValueError(parameter: "physics-step", value: "\(step)", accepted: "seconds from 0.0001 to 0.1")
        }
    }

    /// The scene, and the clock its ball reads (the loop feeds it).
    public func scene() throws -> Scene {
        try validate()
        let (scale, ox, oy) = placement, d = Self.diameter * scale
        let clock = DriverClock(driver: driver, function: .bounceOut, step: step, timerMode: timerMode)
        var ball = Layer(name: "ball", frame: Rect(x: ox + Self.x * scale - d / 2, y: oy + Self.top * scale - d / 2, width: d, height: d),
                         contents: .box(Box(color: color, cornerRadius: d / 2)))
        ball.position.y = Timeline(oy + Self.top * scale, animations: [
            .driven(Driven(source: 0, from: oy + Self.top * scale, to: oy + Self.bottom * scale)),
        ])
        let root = Layer(name: "view", frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), sublayers: [ball])
        return Scene(width: width, height: height, background: background,
                     tree: LayerTree(root: root, sources: [.simulated(SimulatedChannel(clock, channel: 0))]))
    }
}
