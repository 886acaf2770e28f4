/// Where a frame starts reading a `Timeline<Double>`: its animations'
/// begin times, laid out once, so that the animation in effect is found by
/// halving instead of by asking each from the top down (an imported file's
/// property is a basic animation per keyframe segment, and a long one has
/// hundreds; each asked is copied out of the timeline).
///
/// The value is `Timeline.value(at:sources:)`'s, bit for bit: the timeline
/// asks its animations in the same order, only starting below the ones that
/// begin after t. That skips nothing in effect where the animations are
/// basic ones, none after the first fills backwards or runs from other than
/// a finite begin time forwards, and their begin times never decrease (an
/// imported file's are so); any other timeline has no begin times here and
/// is asked from the top as before. Eight bytes an animation, and the
/// track itself one pointer (a moving layer holds twelve, most of them none).
package struct TimelineTrack {
    /// How many begin times, then per animation its begin time (nil: the timeline is asked from the top).
    private let block: UnsafeMutablePointer<Double>?

    /// `timeline`'s begin times, where they can be used; free them with `deallocate`.
    package init(_ timeline: Timeline<Double>) {
        guard let times = Self.beginTimes(timeline) else {
            block = nil
            return
        }
        let block = UnsafeMutablePointer<Double>.allocate(capacity: 1 + times.count)
        // A count of animations is far below 2^53: exact as a Double.
        block.initialize(to: Double(times.count))
        (block + 1).initialize(from: times, count: times.count)
        self.block = block
    }

    /// The animations' begin times where halving by them skips only animations not in effect (nil otherwise):
    /// more than one, all basic; after the first, none in effect before its begin time; begin times that never decrease.
    private static func beginTimes(_ timeline: Timeline<Double>) -> [Double]? {
        guard timeline.animations.count > 1 else { return nil }
        var times: [Double] = []
        for animation in timeline.animations {
            guard case let .basic(basic) = animation else { return nil }
            let timing = basic.timing
            guard timing.beginTime.isFinite, timing.speed > 0 else { return nil }
            if let last = times.last, timing.fillMode.fillsBackwards || timing.beginTime < last { return nil }
            times.append(timing.beginTime)
        }
        return times
    }

    /// Whether a frame reads the timeline by halving (false: from the top, as `Timeline.value(at:sources:)`).
    package var halves: Bool { block != nil }

    package func deallocate() { block?.deallocate() }

    /// The index to ask the timeline's animations from, down, at t: the last that begins at or before t, or the
    /// first (which may fill backwards); `animations` - 1 where the track does not halve.
    @inline(__always)
    func first(at t: Double, of animations: Int) -> Int {
        guard let block else { return animations &- 1 }
        let begins = block + 1
        var low = 0, high = Int(block.pointee)
        while low < high {
            let middle = (low &+ high) >> 1
            if begins[middle] <= t { low = middle &+ 1 } else { high = middle }
        }
        return Swift.max(low &- 1, 0)
    }

    /// Tracks for `timelines`, one each, in memory of their own, where some of them halve (nil otherwise): free
    /// them with `deallocate(_:count:)`.
    static func laidOut(_ timelines: ArraySlice<Timeline<Double>>) -> UnsafeMutablePointer<TimelineTrack>? {
        let laid = timelines.map(TimelineTrack.init)
        guard laid.contains(where: \.halves) else { return nil }
        let tracks = UnsafeMutablePointer<TimelineTrack>.allocate(capacity: laid.count)
        tracks.initialize(from: laid, count: laid.count)
        return tracks
    }

    /// Frees what `laidOut` made for `count` timelines.
    static func deallocate(_ tracks: UnsafeMutablePointer<TimelineTrack>?, count: Int) {
        guard let tracks else { return }
        for k in 0..<count { tracks[k].deallocate() }
        tracks.deallocate()
    }
}

extension Timeline where Value == Double {
    /// The value at time t (`value(at:sources:)`), its animations asked from where `track` says:
    /// `track` is the one laid out from this timeline.
    @inline(__always)
    package func value(at t: Double, sources: DrivenSources?, track: TimelineTrack) -> Double {
        var i = track.first(at: t, of: animations.count)
        while i >= 0 {
            if let v = animations[i].value(at: t, sources: sources) { return v }
            i -= 1
        }
        return value
    }
}

/// A timeline held with its track (`TimelineTrack`): read from memory that
/// never changes, so a frame asks it without copying it (a timeline read
/// through a node's layer in place, `LayerTreeEvaluator.Node.layer`, is
/// copied first, its animations retained and released).
struct TrackedTimeline {
    let timeline: Timeline<Double>
    let track: TimelineTrack

    init(_ timeline: Timeline<Double>) { (self.timeline, track) = (timeline, TimelineTrack(timeline)) }

    /// A timeline that does not move is its value, read here without a call (most of a moving layer's twelve).
    @inline(__always)
    func value(at t: Double, sources: DrivenSources?) -> Double {
        timeline.animations.isEmpty ? timeline.value : animatedValue(at: t, sources: sources)
    }

    @inline(never)
    private func animatedValue(at t: Double, sources: DrivenSources?) -> Double {
        timeline.value(at: t, sources: sources, track: track)
    }
}

/// A layer's placement timelines (opacity, position, bounds origin and
/// the transform's parts), each held with its track (`TrackedTimeline`),
/// laid out once for a layer whose placement a frame evaluates. Layers with
/// the same timelines share one (`shared`): an imported layer's parent is
/// repeated around each of its children, and a precomposition shown twice
/// repeats all its layers.
package final class PlacementTracks {
    let opacity: TrackedTimeline
    let x: TrackedTimeline, y: TrackedTimeline
    let originX: TrackedTimeline, originY: TrackedTimeline
    let translationX: TrackedTimeline, translationY: TrackedTimeline
    let rotation: TrackedTimeline, scaleX: TrackedTimeline, scaleY: TrackedTimeline
    let skew: TrackedTimeline, skewAxis: TrackedTimeline

    /// `layer`'s tracks: those in `made` with the same timelines, else new ones, kept there.
    static func shared(for layer: Layer, in made: inout [Int: [PlacementTracks]]) -> PlacementTracks {
        let timelines = Self.timelines(of: layer)
        var hasher = Hasher()
        for timeline in timelines {
            hasher.combine(timeline.value)
            hasher.combine(timeline.animations.count)
            if let timing = timeline.animations.first?.timing { hasher.combine(timing) }
        }
        let key = hasher.finalize()
        if let same = made[key]?.first(where: { $0.timelines == timelines }) { return same }
        let tracks = PlacementTracks(layer)
        made[key, default: []].append(tracks)
        return tracks
    }

    /// The tracks held, in the order `timelines(of:)` lists a layer's timelines.
    private var held: [TrackedTimeline] {
        [opacity, x, y, originX, originY, translationX, translationY, rotation, scaleX, scaleY, skew, skewAxis]
    }
    private var timelines: [Timeline<Double>] { held.map(\.timeline) }

    /// Its opacity, then its geometry (`Layer.geometryTimelines`: position, bounds origin, the transform's parts).
    private static func timelines(of layer: Layer) -> [Timeline<Double>] { [layer.opacity] + layer.geometryTimelines }

    private init(_ layer: Layer) {
        opacity = TrackedTimeline(layer.opacity)
        (x, y) = (TrackedTimeline(layer.position.x), TrackedTimeline(layer.position.y))
        (originX, originY) = (TrackedTimeline(layer.boundsOrigin.x), TrackedTimeline(layer.boundsOrigin.y))
        let transform = layer.transform
        (translationX, translationY) = (TrackedTimeline(transform.translationX), TrackedTimeline(transform.translationY))
        rotation = TrackedTimeline(transform.rotation)
        (scaleX, scaleY) = (TrackedTimeline(transform.scaleX), TrackedTimeline(transform.scaleY))
        (skew, skewAxis) = (TrackedTimeline(transform.skew), TrackedTimeline(transform.skewAxis))
    }

    deinit {
        for tracked in held { tracked.track.deallocate() }
    }

    /// The layer's transform at its local time t (`AnimatableTransform.matrix(at:sources:)`).
    @inline(__always)
    func matrix(at t: Double, sources: DrivenSources?) -> Affine {
        let k = skew.value(at: t, sources: sources)
        return AnimatableTransform.matrix(translationX: translationX.value(at: t, sources: sources),
                                          translationY: translationY.value(at: t, sources: sources),
                                          rotation: rotation.value(at: t, sources: sources),
                                          scaleX: scaleX.value(at: t, sources: sources), scaleY: scaleY.value(at: t, sources: sources),
                                          skew: k, skewAxis: k == 0 ? 0 : skewAxis.value(at: t, sources: sources))
    }
}
