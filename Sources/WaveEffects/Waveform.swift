import WaveCore

/// The SoundCloud-style audio waveform: one bar per group of samples, the
/// played part painted with a vertical gradient and the rest plain, split at
/// the playhead. A layer tree: the bars are one fixed shape (anchored to
/// sample indices), drawn twice, each painting held to its side of the
/// playhead by a clip layer (each painting rasterized: pre-painted once,
/// as the post's two views) or by a mask (`composition`); the bars travel
/// by their layers' x translation.
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
    /// How each painting is held to its side of the playhead.
    public var composition = SplitMethod.twoClips

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

    /// The content offset u at time t (scroll mode: t * pps - P, snapped if
    /// asked; fit mode: 0), as the bars' layers move.
    public func contentOffset(at t: Double) -> Double { -motion.value(at: t) }

    /// The playhead's column at time t: the first column painted unplayed.
    public func playheadColumn(at t: Double) -> Int { Int(playheadTimeline(offset: 0).value(at: t)) }

    /// The bars' x translation: -u(t).
    private var motion: Timeline<Double> {
        fit ? .constant(0) : .travel(start: -Double(playheadColumn), pixelsPerSecond: pixelsPerSecond, snapsToPixel: snapToPixel)
    }

    /// The playhead's column plus `offset`: fixed in scroll mode; in fit
    /// mode round(W t / duration) within 0...W, a `Timeline.steps` of one
    /// column each W-th of the duration.
    private func playheadTimeline(offset: Double) -> Timeline<Double> {
        guard fit else { return .constant(Double(playheadColumn) + offset) }
        return .steps(from: offset, by: 1, every: duration / Double(width), count: Double(width))
    }

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
        let frame = Rect(x: 0, y: 0, width: Double(width), height: h)
        let motion = motion
        func bars(_ fill: Fill, _ name: String) -> Layer {
            var layer = Layer(name: name, frame: frame, contents: .shape(Shape(path: builder.path, fill: fill)))
            layer.transform.translationX = motion
            return layer
        }
        // A layer the scene's size whose left edge is at the playhead plus
        // `edge` (0: from the playhead on, -W: up to it), its bounds origin
        // moved with it so what it holds stays where it is.
        func side(_ edge: Double, _ name: String, holding layer: Layer) -> Layer {
            var side = Layer(name: name, frame: frame, sublayers: [layer])
            side.position.x = playheadTimeline(offset: edge + Double(width) / 2)
            side.boundsOrigin.x = playheadTimeline(offset: edge)
            return side
        }
        var sides: [Layer] = []
        for (edge, fill, name) in [(-Double(width), played, "played"), (0, Fill.solid(unplayed), "unplayed")] {
            switch composition {
            case .twoClips:
                // The post's last method: each painting pre-painted once (rasterized: the GL strategy paints it, gradient
                // and all, into a picture and slides it; nothing is painted per pixel per frame), shown by a clip.
                var painted = bars(fill, "\(name) bars")
                painted.shouldRasterize = true
                var clip = side(edge, "\(name) clip", holding: painted)
                clip.masksToBounds = true
                sides.append(clip)
            case .mask:
                var masked = Layer(name: "\(name) side", frame: frame, sublayers: [bars(fill, "\(name) bars")])
                var box = Layer(name: "\(name) mask", frame: frame, contents: .box(Box(color: RGBA8(255, 255, 255))))
                box.position.x = playheadTimeline(offset: edge + Double(width) / 2)
                masked.mask = box
                sides.append(masked)
            }
        }
        let scene = Scene(width: width, height: height, background: background,
                          tree: LayerTree(root: Layer(name: "waveform", frame: frame, sublayers: sides)))
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

/// Where the waveform's bars come from (a decoded track, a peaks file, a
/// generated track): opened by the command line, planned here.
public protocol WaveformSource: AnyObject, Sendable {
    var sampleRate: Int { get }
    /// A count known for certain before decoding (a peaks file's, a generated track's), else nil.
    var verifiedCount: Int? { get }
    /// The track's length in samples, as well as it is known before decoding.
    func sampleCount() throws -> Int
    /// Samples a bar for this rate at `pitch` pixels a bar and that speed.
    func samplesPerBar(pitch: Int, pixelsPerSecond: Double) -> Int
    /// The bars, one peak (0...1) each, and the samples decoded; more than
    /// `maxBars` bars only when the track is at least that long (the scan stops there).
    func bars(samplesPerBar: Int, maxBars: Int) throws -> (peaks: [Float], sampleCount: Int, duration: Double)
}

extension Waveform {
    /// The scene of these options over `source`: the bar grid planned for
    /// the speed (or, fitting the track to the width, for its length), a
    /// track longer than a scene can hold refused before decoding where its
    /// length is certain, and in fit mode planned again when the decoded
    /// length differs from the header's.
    public func scene(from source: any WaveformSource) throws -> Scene {
        var effect = self
        try effect.validate() // the options, before any decoding
        // Bars a scene may hold in all; a track with more is refused (its scan stops there).
        let maxBars = Int(Path.maxExtent) / effect.pitch
        func grid(samples count: Int?) -> Int {
            let duration = Double(count ?? 0) / Double(source.sampleRate)
            let pps = Waveform.gridPixelsPerSecond(fit: fit, width: width, duration: duration, pixelsPerSecond: pixelsPerSecond)
            return source.samplesPerBar(pitch: effect.pitch, pixelsPerSecond: pps)
        }
        func refuseLength(samples count: Int, bars: Int?) -> SceneError {
            let seconds = Int(Double(count) / Double(source.sampleRate))
            let size = bars.map { "this \(seconds) s track would be " + String(Int((Double($0) * Double(effect.pitch)).rounded())) + " px" }
                ?? "this track would be longer (\(seconds) s of it make more already)"
            return SceneError(parameter: fit ? "bar-width" : "pixels-per-second", value: fit ? "\(barWidth)" : "\(pixelsPerSecond)",
                              accepted: "bars at most \(Int(Path.maxExtent)) px long in all: \(size) (fewer pixels per second, narrower bars, or --fit)")
        }
        // Only fit mode needs the length before the grid.
        let planned = fit ? try source.sampleCount() : nil
        var samplesPerBar = grid(samples: planned)
        // A count known for certain is refused before any decoding.
        if let count = source.verifiedCount {
            let bars = count / samplesPerBar + (count % samplesPerBar == 0 ? 0 : 1)
            if bars > maxBars { throw refuseLength(samples: count, bars: bars) }
        }
        var bars = try source.bars(samplesPerBar: samplesPerBar, maxBars: maxBars)
        if fit, bars.peaks.count <= maxBars, bars.sampleCount != planned {
            // The header's count was not the track's: plan again from what decoded.
            samplesPerBar = grid(samples: bars.sampleCount)
            bars = try source.bars(samplesPerBar: samplesPerBar, maxBars: maxBars)
        }
        if bars.peaks.count > maxBars { throw refuseLength(samples: bars.sampleCount, bars: nil) }
        effect.peaks = bars.peaks
        effect.duration = bars.duration
        return try effect.scene()
    }
}
