/// How many items, masks and mask items one frame of a compiled tree can
/// hold (`LayerTreeEvaluator.capacity`): what the presentation list and
/// every backend's per-item memory are sized for, once, so that no frame
/// allocates.
///
/// Each compiled layer draws its own items (times its replicator ancestors'
/// counts) only at the times it is shown: a layer whose opacity is 0 draws
/// nothing, nor does anything under it, and an imported file shows each
/// layer between its in and out points that way. So each layer's shown
/// times are followed back, through its own timing and its ancestors'
/// (`MediaTiming.parentTimes`), to one clock, and the capacity is the most
/// that layers shown at one time draw together: an animation of thousands
/// of short-lived layers holds room for the ones on screen at once.
///
/// A layer whose time cannot be followed back to its parent's (a time
/// remapping, a timing that repeats, a replicator's delayed copies below
/// it) starts a clock of its own: its subtree's most at once, found on that
/// clock, counts whenever its parent is shown. So the capacity is never
/// below what one frame can draw, and at most every layer's items together.
extension LayerTreeEvaluator {
    typealias ItemCounts = (items: Int, masks: Int, maskItems: Int)

    /// Times [lower, upper) on one clock (empty where lower >= upper).
    private typealias Span = (lower: Double, upper: Double)
    private typealias Shown = [(span: Span, counts: ItemCounts)]
    private static let everywhere: Span = (-.infinity, .infinity)
    private static let never: Span = (.infinity, -.infinity)

    /// The most items, masks and mask items one frame can hold.
    func frameCapacity() throws -> ItemCounts {
        var shown: Shown = []
        let total = try count(0, in: nodes, multiplier: 1, within: Self.everywhere, clock: [], shown: &shown)
        guard total.items <= Self.maxItems, total.maskItems <= Self.maxItems else {
            throw LayerTreeError(layer: root.name, problem: "\(max(total.items, total.maskItems)) items a frame (at most \(Self.maxItems))")
        }
        let most = Self.mostAtOnce(shown)
        return (Swift.min(most.items, total.items), Swift.min(most.masks, total.masks), Swift.min(most.maskItems, total.maskItems))
    }

    /// The most that spans shown at one time hold together: swept in time order, starts before ends at one time.
    private static func mostAtOnce(_ shown: Shown) -> ItemCounts {
        var edges: [(time: Double, starts: Bool, counts: ItemCounts)] = []
        for (span, counts) in shown where span.lower < span.upper {
            edges.append((span.lower, true, counts))
            edges.append((span.upper, false, counts))
        }
        edges.sort { $0.time != $1.time ? $0.time < $1.time : $0.starts && !$1.starts }
        var now: ItemCounts = (0, 0, 0), most: ItemCounts = (0, 0, 0)
        for edge in edges {
            let sign = edge.starts ? 1 : -1
            now = (now.items + sign * edge.counts.items, now.masks + sign * edge.counts.masks,
                   now.maskItems + sign * edge.counts.maskItems)
            most = (Swift.max(most.items, now.items), Swift.max(most.masks, now.masks), Swift.max(most.maskItems, now.maskItems))
        }
        return most
    }

    /// Items, masks and mask items of the layer at `index` and its subtree (`list`: the nodes or the mask nodes),
    /// times its replicator ancestors' counts, at every time together. On the way, each layer's own go into
    /// `shown` with the times on the clock it can draw them (inside `within`, its parent's): `clock` holds the
    /// timings from that clock to its parent's time, outermost first.
    private func count(_ index: Int, in list: [Node], multiplier: Int, within: Span, clock: [MediaTiming],
                       shown: inout Shown) throws -> ItemCounts {
        let node = list[index], layer = node.layer
        if layer.timeRemap != nil || !layer.timing.growsWithParent {
            // A clock of its own: its subtree's most at once, whenever its parent is shown.
            var inner: Shown = []
            let total = try countShown(node, in: list, index: index, multiplier: multiplier, span: Self.shownSpan(of: layer, through: []),
                                       clock: [], shown: &inner)
            if within.lower < within.upper { shown.append((within, Self.mostAtOnce(inner))) }
            return total
        }
        let span = Self.shownSpan(of: layer, through: [layer.timing] + clock.reversed())
        return try countShown(node, in: list, index: index, multiplier: multiplier,
                              span: (Swift.max(span.lower, within.lower), Swift.min(span.upper, within.upper)),
                              clock: layer.timing.isPassThrough ? clock : clock + [layer.timing], shown: &shown)
    }

    /// `count` for a layer shown at `span` on the clock, its sublayers' times reached through `clock`.
    private func countShown(_ node: Node, in list: [Node], index: Int, multiplier: Int, span: Span, clock: [MediaTiming],
                            shown: inout Shown) throws -> ItemCounts {
        let layer = node.layer
        func counted(_ counts: ItemCounts) -> ItemCounts {
            if span.lower < span.upper && (counts.items > 0 || counts.masks > 0) { shown.append((span, counts)) }
            return counts
        }
        // One item, whatever it holds.
        if node.rasterized >= 0 { return counted((multiplier, 0, 0)) }
        var own = layer.contents == nil ? 0 : multiplier
        if case .box = layer.contents, !layer.sublayers.isEmpty { own *= 2 }
        if layer.shadow != nil && layer.contents != nil { own += multiplier }
        var result = (items: own, masks: 0, maskItems: 0)
        if node.maskRoot >= 0 {
            // Drawn whenever the layer it masks is: counted whole.
            var unused: Shown = []
            let m = try count(node.maskRoot, in: maskNodes, multiplier: multiplier, within: Self.everywhere, clock: [], shown: &unused)
            result.masks += multiplier
            result.maskItems += m.items
        }
        // The backend draws all the copies from one item.
        if node.drawsCopies {
            result.items += multiplier
            return counted(result)
        }
        _ = counted(result)
        let copies = layer.replicator.map { Swift.max(0, $0.count) } ?? 1
        let (inner, overflow) = multiplier.multipliedReportingOverflow(by: copies)
        guard !overflow, inner <= Self.maxItems else {
            throw LayerTreeError(layer: layer.name, problem: "replicators nested to more than \(Self.maxItems) copies")
        }
        // Copies delayed from one another: their sublayers on a clock of their own (each copy's count is at most
        // the most at once on it), whenever this layer is shown.
        let delayed = layer.replicator.map { $0.instanceDelay != 0 } ?? false
        var delayedShown: Shown = []
        var child = index + 1
        while child < node.subtreeEnd {
            let c = delayed
                ? try count(child, in: list, multiplier: inner, within: Self.everywhere, clock: [], shown: &delayedShown)
                : try count(child, in: list, multiplier: inner, within: span, clock: clock, shown: &shown)
            child = list[child].subtreeEnd
            result.items += c.items
            result.masks += c.masks
            result.maskItems += c.maskItems
            guard result.items <= Self.maxItems, result.maskItems <= Self.maxItems else {
                throw LayerTreeError(layer: layer.name, problem: "more than \(Self.maxItems) items a frame")
            }
        }
        if delayed && span.lower < span.upper { shown.append((span, Self.mostAtOnce(delayedShown))) }
        return result
    }

    /// The times on the clock at which `layer` can draw: the span of its own times at which its opacity is above 0
    /// (`shownLocally`), followed back through `timings` (innermost first), widened at each step (`widened`).
    private static func shownSpan(of layer: Layer, through timings: [MediaTiming]) -> Span {
        guard let local = shownLocally(layer) else { return never }
        var span = widened(local)
        for timing in timings {
            if span == everywhere || span.lower >= span.upper { return span }
            guard let parent = timing.parentTimes(whereLocalIn: span) else { return everywhere }
            span = widened(parent, meeting: span.lower / timing.speed, span.upper / timing.speed, timing.beginTime,
                           timing.timeOffset / timing.speed)
        }
        return span
    }

    /// `span` widened on both sides by a billionth of the largest finite magnitude its arithmetic met (its own
    /// ends, `magnitudes`, at least 1): the evaluator's own arithmetic on such numbers rounds by a few units in
    /// their last place, far inside that, so a time it finds shown lies inside the span.
    private static func widened(_ span: Span, meeting magnitudes: Double...) -> Span {
        guard span.lower < span.upper else { return never }
        var largest = 1.0
        for m in magnitudes + [span.lower, span.upper] where m.isFinite { largest = Swift.max(largest, abs(m)) }
        return (span.lower - 1e-9 * largest, span.upper + 1e-9 * largest)
    }

    /// The span of a layer's own times at which its opacity can be above 0 (nil: never; infinite ends: always).
    private static func shownLocally(_ layer: Layer) -> Span? {
        if layer.isHidden { return nil }
        let opacity = layer.opacity
        // The model value shows wherever no animation has an effect.
        if opacity.value > 0 || opacity.value.isNaN { return everywhere }
        if opacity.animations.isEmpty { return nil }
        var span = never
        for animation in opacity.animations {
            guard let timing = animation.timing else { return everywhere }
            let effect = timing.effectSpan
            span = (Swift.min(span.lower, effect.lower), Swift.max(span.upper, effect.upper))
        }
        return span
    }
}
