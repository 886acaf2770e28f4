import Foundation

/// An outline that changes every frame by physics (the "jelly"): a block
/// that slides from one position to another on a spring, rests, and slides
/// back, forever. With p the progress of the current move (0 at its start,
/// 1 at its end, beyond 1 while overshooting), its top and bottom edges
/// bulge out by d = height/2 * (0.5 - |p - 0.5|) at the middle: each edge is
/// the quadratic from its corners through a control point 2d beyond its
/// middle (so the edge itself is d out), sampled at `samplesPerPixel` points
/// a pixel of width and joined by straight lines. Both backends fill exactly
/// that polygon.
///
/// Each move (a leg) starts at rest at one end and lasts until the spring
/// has settled within 0.05 px, plus `rest` seconds; its state is stepped
/// from the leg's start in fixed steps of `step` seconds (exact steps: see
/// `Spring.step`) and drawn interpolated between the two steps around the
/// time, so the picture at t is a function of t alone.
public struct SpringBlock: Equatable, Sendable {
    public var width: Double
    public var height: Double
    /// Scene y of the top edge's corners.
    public var top: Double
    /// The left edge's x at the two ends.
    public var from: Double
    public var to: Double
    public var spring: Spring
    /// Seconds per physics step.
    public var step: Double
    /// Seconds the block rests at each end once settled.
    public var rest: Double
    public var samplesPerPixel: Int

    public init(width: Double, height: Double, top: Double, from: Double, to: Double, spring: Spring,
                step: Double = 1.0 / 120, rest: Double = 0.3, samplesPerPixel: Int = 4) {
        self.width = width; self.height = height; self.top = top; self.from = from; self.to = to
        self.spring = spring; self.step = step; self.rest = rest; self.samplesPerPixel = samplesPerPixel
    }

    /// Where the block is drawn: its left edge and its bulge.
    public struct Pose: Equatable, Sendable {
        public var x: Double
        public var bulge: Double
        /// The move's progress p.
        public var progress: Double

        public init(x: Double, bulge: Double, progress: Double) {
            self.x = x; self.bulge = bulge; self.progress = progress
        }
    }

    /// The bulge for progress p.
    @inline(__always)
    public func bulge(progress p: Double) -> Double { height / 2 * (0.5 - abs(p - 0.5)) }

    /// Seconds from a leg's start until the spring is within 0.05 px and
    /// 0.05 px per step of rest, in whole steps; at most 60 s: a spring with
    /// no damping (or an overdamped one near bounce -1) that has not settled
    /// by then starts its way back from rest at the far end, a visible jump.
    public var settlingTime: Double {
        let distance = abs(to - from)
        guard distance > 0 else { return 0 }
        let one = spring.step(step)
        var state = (x: distance, v: 0.0)
        var n = 0
        let limit = Int(60 / step)
        while n < limit && !(abs(state.x) < 0.05 && abs(state.v) * step < 0.05) {
            state = one.apply(state)
            n += 1
        }
        return Double(n) * step
    }

    /// The number of whole steps a leg lasts.
    public var stepsPerLeg: Int { Int(((settlingTime + rest) / step).rounded(.up)) + 1 }

    /// The rows the block can reach (its bulge is at most height/4 out, or
    /// height/2 for a large overshoot: bounded by a full height each way).
    public func rows(sceneHeight: Int) -> Range<Int> {
        let first = Int(Swift.max(0, Swift.min(Double(sceneHeight), (top - height / 2 - 1).rounded(.down))))
        let last = Int(Swift.max(Double(first), Swift.min(Double(sceneHeight), (top + height * 1.5 + 1).rounded(.up))))
        return first..<last
    }

    func validate() -> String? {
        guard [width, height, top, from, to, step, rest].allSatisfy({ $0.isFinite && abs($0) <= Strip.maxExtent }),
              width >= 1, height >= 1, width <= 16384, rest >= 0, rest <= 60 else {
            return "a jelly block with a size, position or time that is not a finite, positive number"
        }
        guard step >= 1.0 / 10_000, step <= 0.1 else { return "a physics step of \(step) s (expected 0.0001 to 0.1)" }
        guard spring.isValid else { return "a spring with mass \(spring.mass), stiffness \(spring.stiffness), damping \(spring.damping)" }
        guard (1...16).contains(samplesPerPixel) else { return "\(samplesPerPixel) samples a pixel (expected 1 to 16)" }
        return nil
    }

    /// The state of the moving block, kept between frames so a frame steps
    /// on from the last one; any time (earlier, or in another leg) restarts
    /// from its leg's start. The recurrence is the same either way, so the
    /// pose at t is bit for bit the same however t was reached.
    public final class Simulation {
        public let block: SpringBlock
        private let one: SpringStep
        private let legSteps: Int
        private var leg = Double.nan
        private var n = 0
        private var state = (x: 0.0, v: 0.0)

        public init(_ block: SpringBlock) {
            self.block = block
            one = block.spring.step(block.step)
            legSteps = block.stepsPerLeg
        }

        /// The pose at scene time t (0 for a time that is not finite).
        public func pose(at time: Double) -> Pose {
            let t = time.isFinite ? time : 0
            let b = block
            let legSeconds = Double(legSteps) * b.step
            // The leg and the time into it, exact for any finite t (a remainder, never t - k * leg).
            let legIndex = (t / legSeconds).rounded(.down)
            var local = t.truncatingRemainder(dividingBy: legSeconds)
            if local < 0 { local += legSeconds }
            if !(local >= 0 && local < legSeconds) { local = 0 }
            let forward = legIndex.truncatingRemainder(dividingBy: 2) == 0
            let start = forward ? b.from : b.to, target = forward ? b.to : b.from
            let wanted = Int(Swift.min((local / b.step).rounded(.down), Double(legSteps)))
            let alpha = Swift.min(1, Swift.max(0, local / b.step - Double(wanted)))
            if legIndex != leg || wanted < n {
                leg = legIndex
                n = 0
                state = (start - target, 0)
            }
            while n < wanted {
                state = one.apply(state)
                n += 1
            }
            let next = one.apply(state)
            let displacement = state.x + (next.x - state.x) * alpha
            let x = target + displacement
            let span = target - start
            let progress = span != 0 ? (x - start) / span : 1
            return Pose(x: x, bulge: b.bulge(progress: progress), progress: progress)
        }
    }
}
