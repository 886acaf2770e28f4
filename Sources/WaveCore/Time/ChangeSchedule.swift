/// Frames only when something changes: a frame loop asks before each frame
/// whether the picture at that scene time may differ from the last one it
/// drew (the layer tree's `nextChange(after:)`), and where it cannot, skips
/// the frame and sleeps until the next change (or for ever: a still or
/// paused scene). What Core Animation's render server does for a layer whose
/// animations are discrete (content travelling slowly by whole pixels:
/// about one frame a second) or over. A live or simulated value counts as
/// always changing.
package final class ChangeSchedule {
    private let evaluator: LayerTreeEvaluator?
    /// Scene time of the last frame drawn (nil: none yet).
    package private(set) var lastDrawn: Double?

    package init(scene: Scene) throws {
        evaluator = try scene.tree?.makeEvaluator()
    }

    /// Whether a frame at scene time t may differ from the last one drawn
    /// (the first frame, and any time before the last, always do).
    package func needsFrame(at t: Double) -> Bool {
        guard let last = lastDrawn, t >= last else { return true }
        if t == last { return false }
        guard let next = nextChange else { return false }
        return next <= t
    }

    /// Records a frame drawn at t.
    package func drew(at t: Double) { lastDrawn = t }

    /// The earliest scene time after the last frame drawn at which the
    /// picture may differ from it: that frame's own time while something
    /// moves continuously, nil when nothing will change again or no frame
    /// was drawn yet (`needsFrame` is then true whatever the time).
    package var nextChange: Double? {
        guard let last = lastDrawn else { return nil }
        return evaluator?.nextChange(after: last)
    }

    /// Of frames at `times` (ascending), how many need drawing with this schedule (the first always does).
    package static func framesNeeded(in scene: Scene, at times: [Double]) throws -> Int {
        let schedule = try ChangeSchedule(scene: scene)
        var drawn = 0
        for t in times where schedule.needsFrame(at: t) {
            schedule.drew(at: t)
            drawn += 1
        }
        return drawn
    }
}
