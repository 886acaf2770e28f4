import Foundation
import WaveCore

/// The spring "jelly" of the CADisplayLink post, as that post built it: a
/// block moved vertically by a spring (UIView's animateWithDuration:1
/// usingSpringWithDamping:0.85 initialSpringVelocity:0 on center.y), whose
/// drawRect reads the presentation layer's y every frame:
///
///     progress = 1 - (y - to) / (from - to),  d = H/2 * (0.5 - |progress - 0.5|)
///     move (0, d); quad to (W, d) control (W/2, 0); line (W, H);
///     quad to (0, H) control (W/2, H - d); close; fill
///
/// so both edges bow the same way, across the motion, most at mid-move
/// (H/4) and the other way while the spring overshoots. Here the block
/// goes down, rests, comes back up and rests, forever: one layer whose
/// position.y carries two spring animations in a repeating layer time, and
/// whose path is dynamic (`JellyPath`). See docs/contract.md, "The jelly".
public struct Jelly: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    public var color = RGBA8(0xFF, 0x7A, 0x45)
    /// The block's size (nil: half the height wide, a quarter of it tall).
    public var blockSize: Size?
    /// Seconds a move lasts, as UIKit's `animateWithDuration:` (nil: 1 s, or the settling time of a spring given by its constants).
    public var springDuration: Double?
    /// 1 less UIKit's damping ratio (nil: 0.15, the seed's usingSpringWithDamping:0.85).
    public var bounce: Double?
    /// A spring by its constants instead of a duration and bounce (mass nil: 1).
    public var mass: Double?, stiffness: Double?, damping: Double?
    /// Seconds the block rests at each end.
    public var rest = 0.3

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The block's size in pixels.
    public var block: Size {
        blockSize ?? Size((Double(height) / 2).rounded(), Swift.max(1, (Double(height) / 4).rounded()))
    }

    /// The centre's y at the top and the bottom of the move (a tenth of the height in from each edge).
    public var ends: (from: Double, to: Double) {
        let margin = (Double(height) / 10).rounded(), h = block.height
        return (margin + h / 2, Double(height) - margin - h / 2)
    }

    /// Seconds of one move and the rest after it.
    public var leg: Double { move + rest }

    /// Whether the spring is given by its constants.
    public var isPhysical: Bool { mass != nil || stiffness != nil || damping != nil }

    /// The spring: by its constants, or UIKit's for the duration and bounce
    /// (`Spring(movingIn:dampingRatio:)`: within 0.1% of the travel at the
    /// duration; the seed's damping 0.85 over 1 s ends its move at 1 s).
    public var spring: Spring {
        if isPhysical { return Spring(mass: mass ?? 1, stiffness: stiffness ?? 0, damping: damping ?? 0) }
        let bounce = self.bounce ?? 0.15
        return Spring(movingIn: springDuration ?? 1, dampingRatio: bounce >= 0 ? 1 - bounce : 1 / (1 + bounce))
    }

    /// Seconds a move lasts, as UIKit's duration is the move's; nil: the spring's settling duration (a spring given by its constants).
    public var moveDuration: Double? { isPhysical ? nil : springDuration ?? 1 }

    /// The jelly's parameters, declared once; the spring is either a duration and bounce or its constants (`springRule`).
    public static let parameters = ParameterList(defaults: Jelly(width: 1, height: 1), [
        .value("block-size", \.blockSize, valueName: "WxH", accepted: "WxH in pixels, each at least 1, for example 100x100",
               help: "The block's WxH in pixels, at most the width by half the height.",
               defaultText: "half the scene's height wide, a quarter of it tall",
               parse: { text in
                   let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
                   guard parts.count == 2, let w = ParameterText.parseNumber(String(parts[0])),
                         let h = ParameterText.parseNumber(String(parts[1])) else { return nil }
                   return .some(Size(w, h))
               },
               show: { $0.map { ParameterText.number($0.width) + "x" + ParameterText.number($0.height) } },
               holds: { $0.map { $0.width >= 1 && $0.height >= 1 } ?? true }),
        .number("spring-duration", \.springDuration, 0.01...60, what: "seconds", valueName: "seconds",
                help: "Seconds a move lasts, as UIKit's animateWithDuration: d usingSpringWithDamping: 1 - bounce defines it (the spring made as UIKit makes it: within 0.1% of the travel at d for the seed's damping; a very bouncy spring is still moving then, as in UIKit), with --bounce.",
                defaultText: "1, as the seed's animateWithDuration:1"),
        .number("bounce", \.bounce, -1...1, above: true, below: true, what: "a number", valueName: "bounce",
                help: "The spring's bounce: 1 less UIKit's damping ratio, 0 critically damped, above 0 bouncy, below 0 overdamped (damping ratio 1 / (1 + bounce)).",
                defaultText: "0.15, the seed's usingSpringWithDamping:0.85"),
        .number("mass", \.mass, 1e-6...1e9, what: "a number", valueName: "kg",
                help: "The spring's mass, with --stiffness and --damping instead of a duration and bounce.", defaultText: "1"),
        .number("stiffness", \.stiffness, 1e-6...1e9, what: "a number", valueName: "N/m",
                help: "The spring's stiffness (N/m), with --damping.", defaultText: "none"),
        .number("damping", \.damping, 0...1e9, what: "a number", valueName: "N s/m",
                help: "The spring's damping (N s/m), with --stiffness.", defaultText: "none"),
        .number("rest", \.rest, 0...60, what: "seconds", valueName: "seconds", help: "Seconds the block rests at each end."),
    ], rules: [springRule])

    /// Either a duration and bounce, or the constants (stiffness and damping together); the spring made must be one the step can follow.
    static func springRule(_ jelly: Jelly) throws {
        let either = "either a duration and bounce, or --stiffness and --damping (and --mass), not both"
        if jelly.isPhysical {
            if let duration = jelly.springDuration {
                throw ValueError(parameter: "spring-duration", value: ParameterText.number(duration), accepted: either)
            }
            if let bounce = jelly.bounce { throw ValueError(parameter: "bounce", value: ParameterText.number(bounce), accepted: either) }
            guard jelly.stiffness != nil, jelly.damping != nil else {
                throw ValueError(parameter: jelly.stiffness == nil ? "stiffness" : "damping", value: "(none)",
                                 accepted: "--stiffness and --damping together (with --mass, default 1)")
            }
            guard jelly.spring.isValid else {
                throw ValueError(parameter: "stiffness", value: ParameterText.number(jelly.stiffness ?? 0),
                                 accepted: "a spring whose natural frequency sqrt(k/m) is at most 10000 rad/s")
            }
            guard jelly.spring.settlingDuration() < 60 else {
                throw ValueError(parameter: "damping", value: ParameterText.number(jelly.damping ?? 0), accepted: "a spring that settles within 60 s")
            }
        } else if !jelly.spring.isValid {
            throw ValueError(parameter: "spring-duration", value: ParameterText.number(jelly.springDuration ?? 1),
                             accepted: "a duration long enough for --bounce \(ParameterText.number(jelly.bounce ?? 0.15)) (the spring it makes must stay under 10000 rad/s)")
        }
    }

    /// Seconds of one move: its duration, or the spring's settling time.
    public var move: Double { moveDuration ?? spring.settlingDuration() }

    public func validate() throws {
        try Scene.validate(width: width, height: height)
        if let size = blockSize {
            guard size.width.isFinite, size.height.isFinite, size.width >= 1, size.height >= 1,
                  size.width <= Double(width), size.height <= Double(height) / 2 else {
                throw ValueError(parameter: "block-size", value: "\(size.width)x\(size.height)",
                                 accepted: "WxH from 1x1 up to the width by half the height (\(width)x\(height / 2))")
            }
        }
        try Self.parameters.check(self)
    }

    public func scene() throws -> Scene {
        try validate()
        let size = block, (from, to) = ends, leg = self.leg, move = self.move
        let path = JellyPath(from: from, to: to)
        var layer = Layer(name: "jelly", frame: Rect(x: ((Double(width) - size.width) / 2).rounded(), y: from - size.height / 2,
                                                     width: size.width, height: size.height),
                          contents: .shape(Shape(dynamic: path, fill: .solid(color))))
        layer.position.y = Timeline(from, animations: [
            .spring(SpringAnimation(from: from, to: to, spring: spring, beginTime: 0, duration: move, fillMode: .forwards)),
            .spring(SpringAnimation(from: to, to: from, spring: spring, beginTime: leg, duration: move, fillMode: .forwards)),
        ])
        // Down and back up, forever: the layer's own time repeats every two moves.
        var loop = Layer(name: "loop", frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), sublayers: [layer])
        loop.timing = MediaTiming(duration: 2 * leg, repeatCount: .infinity, fillMode: .both)
        return Scene(width: width, height: height, background: background, tree: LayerTree(root: loop))
    }
}

/// The jelly's drawRect: its outline from the layer's presentation y and
/// size, in the layer's coordinates (0...W, 0...H).
public struct JellyPath: DynamicPath, Equatable {
    /// The centre's y at the start and the end of the move the progress is measured on.
    public var from: Double
    public var to: Double

    /// progress = 1 - (y - to) / (from - to).
    @inline(__always)
    public func progress(y: Double) -> Double { from != to ? 1 - (y - to) / (from - to) : 1 }

    /// d = H/2 * (0.5 - |progress - 0.5|).
    @inline(__always)
    public static func bulge(height: Double, progress p: Double) -> Double { height / 2 * (0.5 - abs(p - 0.5)) }

    public func outline<Sink: OutlineSink>(_ input: ShapeInput, into sink: Sink) {
        let w = input.size.width, h = input.size.height
        let d = Self.bulge(height: h, progress: progress(y: input.position.y))
        sink.move(to: 0, d)
        sink.quad(from: Point(0, d), control: Point(w / 2, 0), to: Point(w, d))
        sink.line(to: w, h)
        sink.quad(from: Point(w, h), control: Point(w / 2, h - d), to: Point(0, h))
        sink.close()
    }

    public var maxPoints: Int { 2 * 4096 + 4 }

    /// The edges stay within a height of the block above and below for any overshoot up to 2.
    public func reach(size: Size) -> Rect { Rect(x: -1, y: -size.height, width: size.width + 2, height: 3 * size.height) }
}
