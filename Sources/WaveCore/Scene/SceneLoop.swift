import Foundation

extension Scene {
    /// The shortest time after which every layer's picture repeats (for a
    /// file that loops without a jump): the least common multiple of the
    /// layers' periods (a scroll's loop, the tree's repeating timings), found among
    /// whole multiples of the longest up to `limit` seconds. 0 when nothing
    /// moves; nil when a layer never repeats (a cumulative travel, a moving
    /// playhead, a level from input) or the periods do not meet within
    /// `limit`.
    public func loopPeriod(limit: Double = 60) -> Double? {
        var periods: [Double] = []
        if let tree {
            guard let treePeriods = tree.periods() else { return nil }
            periods += treePeriods
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

extension LayerTree {
    /// The periods the tree's picture repeats with: a layer whose own time
    /// repeats forever repeats its subtree with its cycle; otherwise every
    /// animation that repeats forever adds its cycle (finite animations
    /// beneath one are hidden by it once it starts). Nil when something
    /// never repeats: a finite animation on its own, a cumulative one (each
    /// pass goes further), a value from a recorded or live source. Copies of
    /// a replicator only shift in time.
    func periods() -> [Double]? {
        var periods: [Double] = []
        func timeline<V>(_ t: Timeline<V>) -> Bool {
            var sawForever = false
            for animation in t.animations.reversed() {
                if case let .driven(d) = animation {
                    guard d.source < sources.count, case .constant = sources[d.source] else { return false }
                    continue
                }
                guard let timing = animation.timing else { continue }
                if animation.isCumulative && timing.speed != 0 && animation.changesWhileRunning { return false }
                if timing.activeDuration.isInfinite && timing.speed != 0 {
                    periods.append(timing.cycle / abs(timing.speed))
                    sawForever = true
                } else if !sawForever && timing.speed != 0 && animation.changesWhileRunning {
                    return false
                }
            }
            return true
        }
        func walk(_ layer: Layer) -> Bool {
            if layer.timing.duration.isFinite && layer.timing.passes.isInfinite && layer.timing.speed != 0 {
                periods.append(layer.timing.cycle / abs(layer.timing.speed))
                return true
            }
            // Remapped, everything of it changes with the remapping only.
            if let remap = layer.timeRemap { return timeline(remap) }
            var ok = (layer.geometryTimelines + [layer.opacity]).allSatisfy(timeline)
            if let r = layer.replicator { ok = ok && r.instanceTransform.timelines.allSatisfy(timeline) }
            switch layer.contents {
            case let .shape(shape)?:
                ok = ok && shape.parameters.allSatisfy(timeline) && (shape.color.map(timeline) ?? true)
                    && (shape.gradientPoints.map(timeline) ?? true)
            case let .box(box)?: ok = ok && timeline(box.fillColor)
            default: break
            }
            if let mask = layer.mask { ok = ok && walk(mask) }
            return ok && layer.sublayers.allSatisfy(walk)
        }
        return walk(root) ? periods : nil
    }
}
