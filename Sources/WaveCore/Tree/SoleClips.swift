/// Sole clips: a fixed shape with a solid fill that alone draws every pixel
/// of a clip rectangle that never moves (a table cell holding one scrolling
/// wave). No other item can reach the rectangle, so a backend may write its
/// pixels outright, the paint over the background, instead of clearing
/// them and compositing: the CPU strategy paints coverage 0 as the
/// background (its clear folded into the paint), and the GL strategy on a
/// software driver copies a picture painted once. Found once per scene from
/// the compiled tree, conservatively: anything that might move is taken to
/// reach wherever its clip lets it.

/// One shape's clip, in whole scene pixels.
package struct SoleClip: Equatable, Sendable {
    /// The compiled node drawing it (`LayerTreeEvaluator.nodes`).
    package var node: Int
    package var rows: Range<Int>
    package var columns: Range<Int>
    /// The shape's y in scene pixels (its world transform's ty, never animated).
    package var y: Double
    /// The smallest and largest x translation its layer's timeline can take,
    /// in scene pixels (the world transform's tx); nil where it is unbounded
    /// or not known (a travel that never wraps, an overshooting curve).
    package var xRange: ClosedRange<Double>?
    /// Whether every x it takes is a whole pixel (snapped or still).
    package var wholeX: Bool
    /// Its world tx less its layer's x translation (what is still about it).
    package var xOffset: Double
    /// The nodes whose timings take scene time to its layer's, the root's first and its own last.
    package var timeChain: [Int]
}

extension SoleClip {
    /// The rows of a `width` x `height` frame that no clip of `clips` spans
    /// whole (every column): what a frame must clear first, as runs.
    package static func rowsToClear(_ clips: [SoleClip], width: Int, height: Int) -> [Range<Int>] {
        var cleared = [Bool](repeating: true, count: height)
        for clip in clips where clip.columns == 0..<width { for r in clip.rows { cleared[r] = false } }
        var runs: [Range<Int>] = []
        var r = 0
        while r < height {
            if !cleared[r] { r += 1; continue }
            let start = r
            while r < height && cleared[r] { r += 1 }
            runs.append(start..<r)
        }
        return runs
    }
}

extension LayerTreeEvaluator {
    /// Every sole clip of the tree drawn in a `width` x `height` frame, by node.
    package func soleClips(width: Int, height: Int) -> [SoleClip] {
        // A clip paints its background in; a tree that blends draws over transparency.
        if blends { return [] }
        // Each node's parent, and whether it and everything above it keep still (their placement never animated).
        var parent = [Int](repeating: -1, count: nodes.count)
        var stillChain = [Bool](repeating: false, count: nodes.count)
        var underReplicatorOrMask = [Bool](repeating: false, count: nodes.count)
        for i in nodes.indices {
            var child = i + 1
            while child < nodes[i].subtreeEnd {
                parent[child] = i
                child = nodes[child].subtreeEnd
            }
        }
        for i in nodes.indices {
            let up = parent[i]
            let layer = nodes[i].layer
            stillChain[i] = nodes[i].still != nil && nodes[i].stillOpacity == nil && (up < 0 || stillChain[up])
            underReplicatorOrMask[i] = layer.mask != nil
                || (up >= 0 && (underReplicatorOrMask[up] || nodes[up].layer.replicator != nil))
        }
        // The frame at time 0: clips and positions of whatever keeps still.
        let frame = presentation(at: 0)
        var itemOf = [Int](repeating: -1, count: nodes.count)
        for (k, item) in frame.items.enumerated() where itemOf[item.layer] < 0 { itemOf[item.layer] = k }
        let whole = Rect(x: 0, y: 0, width: Double(width), height: Double(height))

        // Candidates: a fixed shape with a solid fill and no shadow, untinted and at full opacity, drawn once a frame, moved only along x
        // under still ancestors that keep it axis-aligned at unit scale, inside a whole-pixel clip.
        var candidates: [SoleClip] = []
        for i in nodes.indices {
            let node = nodes[i], layer = node.layer
            guard node.rasterized < 0, layer.shadow == nil, case let .shape(shape)? = layer.contents, case .fixed = shape.path, case .solid = shape.fill, shape.color == nil, shape.fillRule == .nonZero,
                  !layer.isHidden, !underReplicatorOrMask[i], parent[i] < 0 || stillChain[parent[i]],
                  layer.timing.speed != 0 || layer.timing.isPassThrough, layer.timeRemap == nil, node.blend == .normal, itemOf[i] >= 0 else { continue }
            let t = layer.transform
            guard layer.opacity.isConstant, layer.opacity.value >= 1, layer.position.x.isConstant, layer.position.y.isConstant,
                  layer.boundsOrigin.x.isConstant, layer.boundsOrigin.y.isConstant, t.translationY.isConstant,
                  t.rotation.isConstant, t.rotation.value == 0, t.skew.isConstant, t.skew.value == 0, t.scaleX.isConstant, t.scaleX.value == 1,
                  t.scaleY.isConstant, t.scaleY.value == 1 else { continue }
            let item = frame.items[itemOf[i]]
            let m = item.transform
            guard m.a == 1, m.b == 0, m.c == 0, m.d == 1, item.opacity >= 1, item.tint == .identity else { continue }
            let clip = item.clip.intersection(whole)
            guard !clip.isEmpty, clip.x == clip.x.rounded(), clip.y == clip.y.rounded(), clip.maxX == clip.maxX.rounded(),
                  clip.maxY == clip.maxY.rounded() else { continue }
            // The world tx is the layer's translation plus what is still about it.
            let offset = m.tx - t.translationX.value(at: item.time)
            let range = t.translationX.valueRange.map { (offset + $0.lowerBound)...(offset + $0.upperBound) }
            var chain = [i]
            while parent[chain[0]] >= 0 { chain.insert(parent[chain[0]], at: 0) }
            candidates.append(SoleClip(node: i, rows: Int(clip.y)..<Int(clip.maxY), columns: Int(clip.x)..<Int(clip.maxX), y: m.ty,
                                       xRange: range, wholeX: offset == offset.rounded() && t.translationX.takesOnlyWholeValues,
                                       xOffset: offset, timeChain: chain))
        }
        guard !candidates.isEmpty else { return [] }

        // Where everything else may draw: a still item its area at time 0; anything else its clip (its ancestors
        // keep still, so the clip does) or, where even that may move, the whole frame.
        var reaches: [(node: Int, rows: Range<Int>, columns: Range<Int>)] = []
        for i in nodes.indices where nodes[i].layer.contents != nil || nodes[i].drawsCopies || nodes[i].rasterized >= 0 {
            let up = parent[i]
            if stillChain[i] && !underReplicatorOrMask[i] && !nodes[i].drawsCopies, itemOf[i] >= 0 {
                for k in itemOf[i]..<frame.items.count where frame.items[k].layer == i {
                    if let area = area(of: frame.items[k], width: width, height: height) { reaches.append((i, area.rows, area.columns)) }
                }
                continue
            }
            if up < 0 || stillChain[up], itemOf[i] >= 0 || nodes[i].drawsCopies {
                let clip = itemOf[i] >= 0 ? frame.items[itemOf[i]].clip : .unclipped
                if clip != .unclipped {
                    let c = clip.intersection(whole)
                    if !c.isEmpty {
                        let rows = Int(c.y.rounded(.down))..<Int(c.maxY.rounded(.up))
                        reaches.append((i, rows, Int(c.x.rounded(.down))..<Int(c.maxX.rounded(.up))))
                    }
                    continue
                }
            }
            reaches.append((i, 0..<height, 0..<width))
        }
        return candidates.filter { candidate in
            !reaches.contains { $0.node != candidate.node && $0.rows.overlaps(candidate.rows) && $0.columns.overlaps(candidate.columns) }
        }
    }
}

extension LayerTreeEvaluator {
    /// Whether the only items any frame can hold are those of the nodes `drawn(node)` says are drawn by
    /// themselves (sole clips a backend writes outright): no other layer has contents, no replicator's
    /// copies are drawn whole, no layer has a mask. Then a frame need evaluate nothing but those nodes.
    package func itemsAreOnly(_ drawn: (Int) -> Bool) -> Bool {
        maskNodes.isEmpty && nodes.indices.allSatisfy {
            drawn($0) || (nodes[$0].layer.contents == nil && !nodes[$0].drawsCopies && nodes[$0].rasterized < 0)
        }
    }

    /// The clip's shape's x (its world transform's tx) at scene time t, as
    /// `evaluate` finds it, without evaluating the rest of the tree: its
    /// placement is still but for its x translation. Allocates nothing.
    @inline(__always)
    package func x(of clip: SoleClip, at t: Double) -> Double {
        var time = t, k = 0
        while k < clip.timeChain.count {
            time = Self.localTime(nodes[clip.timeChain[k]].layer.timing, time)
            k += 1
        }
        return clip.xOffset + nodes[clip.node].layer.transform.translationX.value(at: time, sources: sources)
    }
}

extension Timeline where Value == Double {
    /// The values the timeline can take, nil where they are unbounded or not
    /// known here: its model value and every animation's, a basic animation's
    /// from and to (linear or discrete timing only: a curve may overshoot),
    /// a keyframe animation's values, each cumulative pass's further on (the
    /// last of n passes by n - 1 steps).
    package var valueRange: ClosedRange<Double>? {
        var low = value, high = value
        func take(_ values: [Double], cumulative: Bool, timing: MediaTiming) -> Bool {
            guard let first = values.first, let last = values.last else { return true }
            var passes = 0.0
            if cumulative {
                guard timing.passes.isFinite, !timing.isAlwaysRunning else { return false }
                // A time offset ahead starts part way in, so the last pass may be one further.
                let ahead = timing.cycle > 0 && timing.cycle.isFinite ? Swift.max(0, timing.timeOffset) / timing.cycle : 0
                passes = Swift.max(0, (timing.passes + ahead).rounded(.up) - 1)
            }
            let step = last - first
            for v in values {
                low = Swift.min(low, v, v + passes * step)
                high = Swift.max(high, v, v + passes * step)
            }
            return true
        }
        for animation in animations {
            switch animation {
            case let .basic(a):
                guard a.function == .linear, take([a.from, a.to], cumulative: a.isCumulative, timing: a.timing) else { return nil }
            case let .keyframes(a):
                guard a.function == .linear, take(a.values, cumulative: a.isCumulative, timing: a.timing) else { return nil }
            case .spring, .driven:
                return nil
            }
        }
        return low.isFinite && high.isFinite ? low...high : nil
    }

    /// Whether every value it takes is a whole number: whole still values and
    /// discrete keyframes of whole values (whole-pixel steps).
    package var takesOnlyWholeValues: Bool {
        guard value == value.rounded() else { return false }
        return animations.allSatisfy { animation in
            guard case let .keyframes(a) = animation, a.calculation == .discrete else { return false }
            return a.values.allSatisfy { $0 == $0.rounded() }
        }
    }
}
