/// The layer tree's two whole-tree questions besides evaluation: is every
/// number in it one the backends can draw (`validate`), and when does the
/// picture next change (`nextChange`), so a frame loop can sleep until then.

extension LayerTreeEvaluator {
    /// Every layer's sizes, timings and timelines finite and in range, driven
    /// properties reading sources that exist; the error names the layer.
    static func validate(_ layer: Layer, sourceCount: Int) throws {
        func fail(_ problem: String) -> LayerTreeError { LayerTreeError(layer: layer.name, problem: problem) }
        func check<Value>(_ timeline: Timeline<Value>, _ what: String, finite: (Value) -> Bool) throws {
            guard finite(timeline.value), timeline.isValid else { throw fail("\(what) with a number that is not finite or a timing out of range") }
            for animation in timeline.animations {
                switch animation {
                case let .basic(a): guard finite(a.from), finite(a.to) else { throw fail("\(what) animated to a number that is not finite") }
                case let .keyframes(a): guard a.values.allSatisfy(finite) else { throw fail("\(what) with a keyframe that is not finite") }
                case let .spring(a): guard finite(a.from), finite(a.to) else { throw fail("\(what) sprung to a number that is not finite") }
                case let .driven(d):
                    guard finite(d.from), finite(d.to), d.source < sourceCount, d.begin == -.infinity || d.begin.isFinite else {
                        throw fail("\(what) driven by source \(d.source) of \(sourceCount)")
                    }
                }
            }
        }
        func check(_ timeline: Timeline<Double>, _ what: String) throws { try check(timeline, what, finite: \.isFinite) }
        func check(_ t: AnimatableTransform, _ what: String) throws {
            try check(t.translationX, "\(what) translation x"); try check(t.translationY, "\(what) translation y")
            try check(t.rotation, "\(what) rotation"); try check(t.scaleX, "\(what) scale x"); try check(t.scaleY, "\(what) scale y")
            try check(t.skew, "\(what) skew"); try check(t.skewAxis, "\(what) skew axis")
        }
        let limit = Path.maxExtent
        guard layer.size.width.isFinite, layer.size.height.isFinite, layer.size.width >= 0, layer.size.height >= 0,
              layer.size.width <= limit, layer.size.height <= limit else {
            throw fail("a size of \(layer.size.width)x\(layer.size.height) (expected 0 to \(Int(limit)) pixels each way)")
        }
        guard layer.anchorPoint.x.isFinite, layer.anchorPoint.y.isFinite else { throw fail("an anchor point that is not finite") }
        guard layer.timing.isPassThrough || layer.timing.isValid else { throw fail("a layer timing out of range") }
        if let remap = layer.timeRemap { try check(remap, "a time remapping") }
        try check(layer.position.x, "position x"); try check(layer.position.y, "position y")
        try check(layer.boundsOrigin.x, "bounds origin x"); try check(layer.boundsOrigin.y, "bounds origin y")
        try check(layer.transform, "transform")
        try check(layer.opacity, "opacity")
        if let r = layer.replicator {
            guard (0...Replicator.maxCount).contains(r.count) else { throw fail("\(r.count) copies (expected 0 to \(Replicator.maxCount))") }
            guard r.instanceDelay.isFinite, r.instanceDelay >= 0, r.instanceDelay <= 3600 else {
                throw fail("an instance delay of \(r.instanceDelay) s (expected 0 to 3600)")
            }
            let tints = [r.instanceColor, r.colorOffset]
            guard tints.allSatisfy({ [$0.r, $0.g, $0.b, $0.a].allSatisfy(\.isFinite) }) else { throw fail("a replicator colour that is not finite") }
            try check(r.instanceTransform, "instance transform")
        }
        if let shadow = layer.shadow {
            guard shadow.opacity.isFinite, (0...1).contains(shadow.opacity), shadow.offset.x.isFinite, shadow.offset.y.isFinite,
                  abs(shadow.offset.x) <= 4096, abs(shadow.offset.y) <= 4096,
                  shadow.radius.isFinite, (0...Shadow.maxRadius).contains(shadow.radius) else {
                throw fail("a shadow out of range (expected an opacity 0 to 1, offsets at most 4096 px, a radius 0 to \(Int(Shadow.maxRadius)) px)")
            }
            switch layer.contents {
            case .box?: break
            case let .shape(shape)?: if case .dynamic = shape.path { throw fail("a shadow on a shape whose outline changes (expected a box or a fixed shape)") }
            default: throw fail("a shadow without a box or a fixed shape to cast it")
            }
        }
        switch layer.contents {
        case let .shape(shape)?:
            guard shape.parameters.count <= Shape.maxParameters else {
                throw fail("\(shape.parameters.count) shape parameters (at most \(Shape.maxParameters))")
            }
            for p in shape.parameters { try check(p, "a shape parameter") }
            if let points = shape.gradientPoints { try check(points, "a gradient's points", finite: \.isFinite) }
            if case let .fixed(path) = shape.path, let problem = path.extentProblem { throw fail(problem) }
            if !shape.fill.isFinite {
                throw fail("a gradient with a point that is not finite")
            }
        case let .box(box)?:
            guard box.cornerRadius.isFinite, box.cornerRadius >= 0, box.borderWidth.isFinite, box.borderWidth >= 0 else {
                throw fail("a corner radius or border width that is not a finite number of pixels from 0")
            }
            guard box.fillColor.isValid, box.fillColor.animations.allSatisfy({ if case .driven = $0 { return false }; return true }) else {
                throw fail("a background colour animation out of range (colours are not driven)")
            }
        case .picture?, nil:
            break
        }
        if let mask = layer.mask { try validate(mask, sourceCount: sourceCount) }
        for sublayer in layer.sublayers { try validate(sublayer, sourceCount: sourceCount) }
    }

    // MARK: When the picture next changes

    /// The earliest scene time after `t` at which a frame may differ from
    /// the frame at t: `t` itself while something moves continuously, nil
    /// when nothing ever changes again (a still scene). A discrete keyframe
    /// animation gives the time of its next step.
    package func nextChange(after t: Double) -> Double? {
        delay(0, nodes: nodes, parentTime: t).map { t + $0 }
    }

    /// Seconds of parent time from `parentTime` until the subtree at `index`
    /// may change (0: continuously), nil: never.
    private func delay(_ index: Int, nodes: [Node], parentTime: Double) -> Double? {
        let node = nodes[index], layer = node.layer
        if layer.isHidden { return nil }
        let unmapped = Self.localTime(layer.timing, parentTime)
        let time = Self.localTime(layer, parentTime, sources: sources)
        var soonest: Double?
        func consider(_ d: Double?) { if let d { soonest = Swift.min(soonest ?? d, Swift.max(0, d)) } }
        func consider<Value>(_ timeline: Timeline<Value>?) { consider(timeline?.nextChange(after: time, sources: sources).map { $0 - time }) }
        func consider(_ transform: AnimatableTransform) {
            for timeline in transform.timelines { consider(timeline) }
        }
        if let remap = layer.timeRemap {
            // Everything of it runs on the remapped time: it changes only when the remapping does.
            consider(remap.nextChange(after: unmapped, sources: sources).map { $0 - unmapped })
        } else {
            consider(layer.position.x); consider(layer.position.y)
            consider(layer.boundsOrigin.x); consider(layer.boundsOrigin.y)
            consider(layer.transform)
            consider(layer.opacity)
            switch layer.contents {
            case let .shape(shape)?:
                for p in shape.parameters { consider(p) }
                consider(shape.color)
                consider(shape.gradientPoints)
            case let .box(box)?: consider(box.fillColor)
            default: break
            }
            if node.maskRoot >= 0 { consider(delay(node.maskRoot, nodes: maskNodes, parentTime: time)) }
            let copies = layer.replicator.map { Swift.max(0, $0.count) } ?? 1
            if let r = layer.replicator { consider(r.instanceTransform) }
            for k in 0..<copies where soonest != 0 {
                let copyTime = time - Double(k) * (layer.replicator?.instanceDelay ?? 0)
                var child = index + 1
                while child < node.subtreeEnd && soonest != 0 {
                    consider(delay(child, nodes: nodes, parentTime: copyTime))
                    child = nodes[child].subtreeEnd
                }
            }
        }
        // Local delays in the parent's time.
        let timing = layer.timing
        if timing.isPassThrough { return soonest }
        let boundary = timing.nextBoundary(after: parentTime).map { $0 - parentTime }
        guard timing.isRunning(at: parentTime) else { return boundary }
        guard let local = soonest else { return boundary }
        let l = timing.localTime(parentTime)
        var r = timing.duration.isInfinite ? l : l.truncatingRemainder(dividingBy: timing.cycle)
        if r < 0 { r += timing.cycle }
        if timing.speed < 0 || (timing.autoreverses && r > timing.duration) { return 0 }
        // Forwards: the child's delay, or the pass's end (local time jumps back), whichever is first.
        let passEnd = timing.duration.isInfinite ? Double.infinity : (timing.duration - r) / timing.speed
        return [local / timing.speed, passEnd, boundary ?? .infinity].min()!
    }
}
