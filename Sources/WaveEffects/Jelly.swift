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
    /// UIKit's spring of damping 0.85 over 1 s (`Spring(movingIn:dampingRatio:)`): the move ends at 1 s.
    public var spring = Spring(movingIn: 1, dampingRatio: 0.85)
    /// Seconds a move lasts, as UIKit's duration is the move's (the spring within 0.1% of
    /// the travel by then); nil: the spring's settling duration (a spring given by its constants).
    public var moveDuration: Double? = 1
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

    /// Seconds of one move: its duration, or the spring's settling time.
    public var move: Double { moveDuration ?? spring.settlingDuration() }

    public func validate() throws {
        try Scene.validate(width: width, height: height)
        if let size = blockSize {
            guard size.width.isFinite, size.height.isFinite, size.width >= 1, size.height >= 1,
                  size.width <= Double(width), size.height <= Double(height) / 2 else {
                throw SceneError(parameter: "block-size", value: "\(size.width)x\(size.height)",
                                 accepted: "WxH from 1x1 up to the width by half the height (\(width)x\(height / 2))")
            }
        }
        guard spring.isValid else {
            throw SceneError(parameter: "stiffness", value: "\(spring.stiffness)",
                             accepted: "a spring with positive mass and stiffness, damping of 0 or more, and a natural frequency up to 10000 rad/s")
        }
        if let moveDuration, !(moveDuration.isFinite && moveDuration >= 0.01 && moveDuration <= 60) {
            throw SceneError(parameter: "spring-duration", value: "\(moveDuration)", accepted: "seconds from 0.01 to 60")
        }
        guard moveDuration != nil || spring.settlingDuration() < 60 else {
            throw SceneError(parameter: "damping", value: "\(spring.damping)", accepted: "a spring that settles within 60 s")
        }
        guard rest.isFinite, rest >= 0, rest <= 60 else {
            throw SceneError(parameter: "rest", value: "\(rest)", accepted: "seconds from 0 to 60")
        }
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
