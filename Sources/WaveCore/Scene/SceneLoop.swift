import Foundation

extension Scene {
    /// The shortest time after which every layer's picture repeats (for a
    /// file that loops without a jump): the least common multiple of the
    /// layers' periods (a scroll's loop, the dots' three animations, a voice
    /// curve's phase, the jelly's two moves), found among whole multiples of
    /// the longest up to `limit` seconds. 0 when nothing moves; nil when a
    /// layer never repeats (travel at a speed, a moving playhead, a level
    /// from input) or the periods do not meet within `limit`. Dots repeat
    /// once every dot has started (after count times the instance delay).
    public func loopPeriod(limit: Double = 60) -> Double? {
        var periods: [Double] = []
        for layer in layers {
            switch layer.motion.kind {
            case .still: break
            case let .loop(_, period, _): periods.append(period)
            case let .travel(_, speed): if speed != 0 { return nil }
            }
            if case let .split(split, _, _) = layer.paint, split.pixelsPerSecond != 0 { return nil }
            switch layer.content {
            case .repeatingCurve, .strip: break
            case let .instances(i):
                guard case .constant = i.animation.level else { return nil }
                let a = i.animation
                periods += [2 * a.scale.duration, 2 * a.opacity.duration, 2 * a.tint.duration]
            case let .modulatedSine(m):
                guard case .constant = m.level else { return nil }
                if m.phaseRate != 0 { periods.append(2 * Double.pi / abs(m.phaseRate)) }
            case let .springBlock(b):
                periods.append(2 * Double(b.stepsPerLeg) * b.step)
            }
        }
        guard let longest = periods.max() else { return 0 }
        var multiple = 1.0
        while multiple * longest <= limit {
            let candidate = multiple * longest
            if periods.allSatisfy({ p in let r = candidate / p; return abs(r - r.rounded()) <= 1e-6 * r }) { return candidate }
            multiple += 1
        }
        return nil
    }
}
