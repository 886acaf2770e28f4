/// Exact sub-pixel motion's one rule, shared by the shader batches and the
/// whole-pixel copies: content is prepared at `count` phases a pixel apart
/// by 1/count, and an offset u is shown as the nearest phase at a whole
/// pixel offset, so nothing is ever filtered.
enum SubpixelPhases {
    /// Phases a pixel when exact motion is asked for, and the fewest that
    /// still keep a moving edge within the CPU tolerance (16/255: 1/16 pixel).
    static let exact = 16
    static let fewest = 8

    /// The whole pixels and the phase for content offset `u`: the phase
    /// nearest its fraction (rounding up to the next whole pixel).
    static func split(_ u: Double, phases: Int) -> (whole: Int, phase: Int) {
        let floor = u.rounded(.down)
        var whole = Int(Swift.max(Swift.min(floor, 1e15), -1e15))
        var phase = Int(((u - floor) * Double(phases)).rounded())
        if phase == phases { phase = 0; whole += 1 }
        return (whole, phase)
    }

    /// `value` mod `period`, from 0 to period - 1.
    static func wrapped(_ value: Int, _ period: Int) -> Int {
        let r = value % period
        return r < 0 ? r + period : r
    }
}
