import WaveCore

/// The SoundCloud-style audio waveform: one bar per group of samples, the
/// played part painted with a vertical gradient and the rest plain, split at
/// the playhead. Turns its options into one layer: a strip of bars (still
/// content, anchored to sample indices), a split paint, and a motion.
///
/// - Bar i occupies content x in [i*p, i*p + w] (pitch p = w + gap), centred
///   vertically: y in [(H - h)/2, (H + h)/2], h = peak * H * scale.
/// - Scroll mode: the playhead is fixed at column P = round(playhead * W);
///   at playback time t the offset is u = t * pps - P (snapped if asked).
/// - Fit mode: the whole track fills the width (the grid is built for
///   pps = W / duration, then stretched so the bars span exactly W), nothing
///   moves, and the playhead is at round(W * t / duration).
/// - Columns left of the playhead get the played paint, the playhead's column
///   and those right of it the unplayed paint.
public struct Waveform: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// One peak per bar, 0...1.
    public var peaks: [Float]
    /// The track's length in seconds.
    public var duration: Double
    public var barWidth = 2
    public var barGap = 1
    /// Scroll speed in scroll mode (and the bar grid's density in both modes).
    public var pixelsPerSecond = 50.0
    /// Bar height per unit of peak, as a fraction of the height; nil: the loudest bar is full height.
    public var amplitudeScale: Double?
    /// Corner radius in pixels (held to half the bar's width and height).
    public var barRadius = 0.0
    /// The playhead's column as a fraction of the width (scroll mode).
    public var playhead = 0.5
    public var fit = false
    public var playedTop = RGBA8(0xFF, 0x55, 0x00)
    public var playedBottom: RGBA8?
    public var unplayed = RGBA8(0xB0, 0xB0, 0xB8)
    public var background = Scene.defaultBackground
    public var snapToPixel = false

    public init(width: Int, height: Int, peaks: [Float], duration: Double) {
        self.width = width
        self.height = height
        self.peaks = peaks
        self.duration = duration
    }

    public var pitch: Int { barWidth + barGap }

    /// The pixels per second the bar grid is built for: `pixelsPerSecond`, or in fit mode W / duration.
    public static func gridPixelsPerSecond(fit: Bool, width: Int, duration: Double, pixelsPerSecond: Double) -> Double {
        fit ? Double(width) / max(duration, 1e-9) : pixelsPerSecond
    }

    /// Checks every option; the error names it and says what is accepted.
    public func validate() throws {
        try Scene.validate(width: width, height: height)
        guard barWidth >= 1 && barWidth <= 4096 else {
            throw SceneError(parameter: "bar-width", value: "\(barWidth)", accepted: "a whole number of pixels from 1 to 4096")
        }
        guard barGap >= 0 && barGap <= 4096 else {
            throw SceneError(parameter: "bar-gap", value: "\(barGap)", accepted: "a whole number of pixels from 0 to 4096")
        }
        guard pixelsPerSecond.isFinite, pixelsPerSecond > 0, pixelsPerSecond <= 1e6 else {
            throw SceneError(parameter: "pixels-per-second", value: "\(pixelsPerSecond)", accepted: "a positive, finite number up to 1000000")
        }
        if let scale = amplitudeScale, !(scale.isFinite && scale > 0) {
            throw SceneError(parameter: "amplitude-scale", value: "\(scale)", accepted: "a positive, finite number, or auto")
        }
        guard barRadius.isFinite, barRadius >= 0 else {
            throw SceneError(parameter: "bar-radius", value: "\(barRadius)", accepted: "a number of pixels from 0")
        }
        guard playhead.isFinite, (0...1).contains(playhead) else {
            throw SceneError(parameter: "playhead", value: "\(playhead)", accepted: "a fraction of the width from 0 to 1")
        }
        guard duration.isFinite, duration > 0 else {
            throw SceneError(parameter: "audio", value: "\(duration) s", accepted: "a track with at least one sample")
        }
    }

    /// The playhead column in scroll mode.
    public var playheadColumn: Int { Int((playhead * Double(width)).rounded()) }

    public func scene() throws -> Scene {
        try validate()
        let loudest = Double(peaks.max() ?? 0)
        let scale = amplitudeScale ?? (loudest > 0 ? 1 / loudest : 1)
        var builder = PathBuilder()
        // Fit mode: the bars fill the width exactly (their grid, rounded to
        // whole samples per bar, may fall a little short or long of it).
        let stretch = fit && !peaks.isEmpty ? Double(width) / Double(peaks.count * pitch) : 1
        let h = Double(height), w = Double(barWidth) * stretch
        for (i, peak) in peaks.enumerated() {
            let barHeight = min(h, Double(peak) * h * scale)
            if !(barHeight > 0) { continue }
            let x = Double(i * pitch) * stretch, top = (h - barHeight) / 2
            try addBar(&builder, x: x, y: top, width: w, height: barHeight)
        }
        let gradient = LinearGradient(start: Point(0, 0), end: Point(0, h), startColor: playedTop,
                                      endColor: playedBottom ?? playedTop)
        let played: Fill = playedBottom == nil || playedBottom == playedTop ? .solid(playedTop) : .linearGradient(gradient)
        let split: PaintSplit
        let motion: Motion
        if fit {
            split = PaintSplit(column: 0, pixelsPerSecond: Double(width) / duration)
            motion = .still
        } else {
            let p = Double(playheadColumn)
            split = PaintSplit(column: p)
            motion = Motion(.travel(start: -p, pixelsPerSecond: pixelsPerSecond), snapsToPixel: snapToPixel)
        }
        let layer = FlatLayer(content: .strip(Strip(path: builder.path)),
                          paint: .split(split, left: played, right: .solid(unplayed)), motion: motion)
        let scene = Scene(width: width, height: height, background: background, layers: [layer])
        try scene.validate()
        return scene
    }

    /// A rectangle, its corners rounded by quadratic curves (control point at
    /// the corner) of radius r = min(barRadius, width/2, height/2).
    private func addBar(_ b: inout PathBuilder, x: Double, y: Double, width w: Double, height h: Double) throws {
        let r = min(barRadius, w / 2, h / 2)
        if r <= 0 { return try b.rectangle(x: x, y: y, width: w, height: h) }
        try b.move(to: x + r, y)
        try b.line(to: x + w - r, y)
        try b.quad(control: x + w, y, to: x + w, y + r)
        try b.line(to: x + w, y + h - r)
        try b.quad(control: x + w, y + h, to: x + w - r, y + h)
        try b.line(to: x + r, y + h)
        try b.quad(control: x, y + h, to: x, y + h - r)
        try b.line(to: x, y + r)
        try b.quad(control: x, y, to: x + r, y)
        b.close()
    }
}
