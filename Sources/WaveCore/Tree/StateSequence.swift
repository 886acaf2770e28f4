/// States in turn, handed off smoothly (the replicator chapter's
/// challenge: animate back to a state suitable for the next animation
/// instead of removing animations). A property's value in each state is a
/// timeline; `Timeline.sequence` joins them: each state's animations from
/// its start, and at each switch a hand-off that moves the property from
/// its presentation value at the switch to the next state's value at its
/// start over `handOff` seconds, after which the next state's animations
/// run from their beginning. Built in the layer's own time, so a
/// replicator's copies, each behind the last, hand off in turn, each from
/// its own value: nothing jumps.

extension Animation {
    /// The animation `delta` seconds later, filling no earlier than it begins
    /// (a state's animations never reach back before the state).
    func starting(after delta: Double) -> Animation {
        func later(_ timing: MediaTiming) -> MediaTiming {
            var timing = timing
            timing.beginTime = timing.beginTime == -.infinity ? delta : timing.beginTime + delta
            switch timing.fillMode {
            case .backwards: timing.fillMode = .removed
            case .both: timing.fillMode = .forwards
            case .removed, .forwards: break
            }
            return timing
        }
        switch self {
        case var .basic(a): a.timing = later(a.timing); return .basic(a)
        case var .keyframes(a): a.timing = later(a.timing); return .keyframes(a)
        case var .spring(a): a.timing = later(a.timing); return .spring(a)
        case var .driven(d): d.begin = Swift.max(d.begin, delta); return .driven(d)
        }
    }

    /// The same, `delta` seconds later, its fill untouched (to read the value a state starts from).
    func shifted(by delta: Double) -> Animation {
        switch self {
        case var .basic(a): a.timing.beginTime = a.timing.beginTime == -.infinity ? delta : a.timing.beginTime + delta; return .basic(a)
        case var .keyframes(a): a.timing.beginTime = a.timing.beginTime == -.infinity ? delta : a.timing.beginTime + delta; return .keyframes(a)
        case var .spring(a): a.timing.beginTime = a.timing.beginTime == -.infinity ? delta : a.timing.beginTime + delta; return .spring(a)
        case var .driven(d): d.begin = Swift.max(d.begin, delta); return .driven(d)
        }
    }
}

extension Timeline {
    /// `states` in order of their start times (the first one's start is
    /// where its animations' time 0 falls), joined by hand-offs of
    /// `handOff` seconds (ease in, ease out). `sources`: the levels driven
    /// values read, to know a driven property's value at a switch.
    public static func sequence(_ states: [(start: Double, timeline: Timeline<Value>)], handOff: Double,
                                sources: DrivenSources?) -> Timeline<Value> {
        precondition(!states.isEmpty, "a sequence of no states")
        let first = states[0]
        // The first state as it is, from its start (before it, its backward fills hold as ever).
        var result = Timeline(first.timeline.value,
                              animations: first.start == 0 ? first.timeline.animations : first.timeline.animations.map { $0.shifted(by: first.start) })
        for state in states.dropFirst() {
            let switchAt = state.start, settled = state.start + handOff
            let from = result.value(at: switchAt, sources: sources)
            // The next state as it would be had it started at `settled` (its backward fill read, for the value it starts from).
            let next = Timeline(state.timeline.value, animations: state.timeline.animations.map { $0.shifted(by: settled) })
            let to = next.value(at: settled, sources: sources)
            result.animations.append(.basic(BasicAnimation(from: from, to: to, duration: handOff, beginTime: switchAt,
                                                           function: .easeInEaseOut, fillMode: .forwards)))
            result.animations += state.timeline.animations.map { $0.starting(after: settled) }
        }
        return result
    }
}
