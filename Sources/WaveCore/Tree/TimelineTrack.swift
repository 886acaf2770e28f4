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
/// is asked from the top as before. Eight bytes an animation.
package struct TimelineTrack {
    /// Per animation, its begin time (nil: the timeline is asked from the top).
    private let begins: UnsafeMutablePointer<Double>?
    private let count: Int

    /// `timeline`'s begin times, where they can be used; free them with `deallocate`.
    package init(_ timeline: Timeline<Double>) {
        guard let times = Self.beginTimes(timeline) else {
            (begins, count) = (nil, 0)
            return
        }
        let begins = UnsafeMutablePointer<Double>.allocate(capacity: times.count)
        begins.initialize(from: times, count: times.count)
        (self.begins, count) = (begins, times.count)
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
    package var halves: Bool { begins != nil }

    package func deallocate() { begins?.deallocate() }

    /// The index to ask the timeline's animations from, down, at t: the last that begins at or before t, or the
    /// first (which may fill backwards); `count` - 1 where the track does not halve.
    @inline(__always)
    func first(at t: Double, of animations: Int) -> Int {
        guard let begins else { return animations &- 1 }
        var low = 0, high = count
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

/// A layer's placement timelines (opacity, position, bounds origin and
/// the transform's parts) as tracks (`TimelineTrack`), laid out once for
/// a layer whose placement a frame evaluates, where some of them halve.
package final class PlacementTracks {
    let opacity: TimelineTrack
    let x: TimelineTrack, y: TimelineTrack
    let originX: TimelineTrack, originY: TimelineTrack
    let translationX: TimelineTrack, translationY: TimelineTrack
    let rotation: TimelineTrack, scaleX: TimelineTrack, scaleY: TimelineTrack
    let skew: TimelineTrack, skewAxis: TimelineTrack

    /// The layer's tracks, where some of them halve (nil otherwise: its timelines are read as they are).
    static func halving(_ layer: Layer) -> PlacementTracks? {
        let tracks = PlacementTracks(layer)
        return tracks.all.contains(where: \.halves) ? tracks : nil
    }

    private var all: [TimelineTrack] {
        [opacity, x, y, originX, originY, translationX, translationY, rotation, scaleX, scaleY, skew, skewAxis]
    }

    private init(_ layer: Layer) {
        opacity = TimelineTrack(layer.opacity)
        (x, y) = (TimelineTrack(layer.position.x), TimelineTrack(layer.position.y))
        (originX, originY) = (TimelineTrack(layer.boundsOrigin.x), TimelineTrack(layer.boundsOrigin.y))
        let transform = layer.transform
        (translationX, translationY) = (TimelineTrack(transform.translationX), TimelineTrack(transform.translationY))
        rotation = TimelineTrack(transform.rotation)
        (scaleX, scaleY) = (TimelineTrack(transform.scaleX), TimelineTrack(transform.scaleY))
        (skew, skewAxis) = (TimelineTrack(transform.skew), TimelineTrack(transform.skewAxis))
    }

    deinit { for track in all { track.deallocate() } }

    /// The node's layer's transform at its local time t (`AnimatableTransform.matrix(at:sources:)`): these are
    /// its layer's tracks. The layer is read in place through its node (a copy of it would retain every reference in it).
    @inline(__always)
    func matrix(of node: LayerTreeEvaluator.Node, at t: Double, sources: DrivenSources?) -> Affine {
        let k = node.layer.transform.skew.value(at: t, sources: sources, track: skew)
        return AnimatableTransform.matrix(translationX: node.layer.transform.translationX.value(at: t, sources: sources, track: translationX),
                                          translationY: node.layer.transform.translationY.value(at: t, sources: sources, track: translationY),
                                          rotation: node.layer.transform.rotation.value(at: t, sources: sources, track: rotation),
                                          scaleX: node.layer.transform.scaleX.value(at: t, sources: sources, track: scaleX),
                                          scaleY: node.layer.transform.scaleY.value(at: t, sources: sources, track: scaleY),
                                          skew: k, skewAxis: k == 0 ? 0 : node.layer.transform.skewAxis.value(at: t, sources: sources, track: skewAxis))
    }
}
