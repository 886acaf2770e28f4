import CStbEasyFont
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
/// - A segment of a track (`startTime`): its first sample is the bars' time 0,
///   and the scene's clock is the track's (the playhead at track time t).
/// - The normal style (`style`, audiowaveform's default): instead of bars
///   centred on the middle, each bar i spans its least to its greatest
///   sample, y in [M - high * H/2 * s, M - low * H/2 * s] about the band's
///   middle M, at least one pixel tall (a line from max to min per column
///   with 1 px bars and no gap, as audiowaveform draws it).
/// - Split channels (`bands`): one band per channel, top to bottom, each
///   H / n tall, its bars centred in it; one scale for all.
/// - The time axis (`axis`, as audiowaveform draws it): a tick 10 px long at
///   the top and bottom edges every 1, 2, 5, 10, 20 or 30 seconds, minutes
///   or hours (the first of those at least 60 px apart), each labelled m:ss
///   (h:mm:ss from an hour) centred above its bottom tick, in the unplayed
///   bars' colour on a plate of the background (a pixel wider than the
///   text all round), so a label over the bars stays legible; moving with
///   the bars.
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
    public var playedTop = Waveform.lessonPlayed.top
    /// The played gradient's bottom colour (the lesson's played bars are a
    /// gradient; nil or the top colour: solid).
    public var playedBottom: RGBA8? = Waveform.lessonPlayed.bottom
    public var unplayed = RGBA8(0xB0, 0xB0, 0xB8)
    public var background = Scene.defaultBackground
    /// Whether the bars move by whole device pixels (the lesson's discrete
    /// keyframes: no amplitude phasing, and about one new frame a second for
    /// a 680 px track over 10 minutes).
    public var snapToPixel = true
    /// How each painting is held to its side of the playhead.
    public var composition = SplitMethod.twoClips
    /// The track time of the first sample drawn (a segment's start; 0: the whole track).
    public var startTime = 0.0
    /// One list of peaks per band (split channels), top to bottom; empty: one band of `peaks`.
    public var bands: [[Float]] = []
    /// Whether time labels and ticks are drawn (audiowaveform's axis labels).
    public var axis = false
    /// Whether `scene(from:)` asks its source for one band per channel.
    public var splitsChannels = false
    /// Bars centred on the middle, or each spanning its least to its greatest sample.
    public var style = WaveformStyle.bars
    /// audiowaveform's scheme the colours came from (`--colors`); nil: the lesson's.
    public private(set) var colorScheme: AudiowaveformScheme?

    /// `--colors`: every bar, played or not, in the scheme's waveform colour
    /// (audiowaveform has no playhead), on its background unless the
    /// command's `--background` gives another (the effect's caller decides:
    /// `schemeBackground`). A colour option given with it wins.
    public var colors: AudiowaveformScheme? {
        get { colorScheme }
        set {
            colorScheme = newValue
            guard let scheme = newValue else { return }
            (playedTop, playedBottom, unplayed) = (scheme.waveform, nil, scheme.waveform)
        }
    }
    /// The normal style's least and greatest sample per bar (-1...1), one list per band; empty: symmetric (-peak, peak).
    public var lows: [[Float]] = [], highs: [[Float]] = []

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
    /// The lesson's played colours: the gradient's top and bottom.
    public static let lessonPlayed = (top: RGBA8(0xFF, 0x55, 0x00), bottom: RGBA8(0xFF, 0xA0, 0x30))

    /// The played bars' top colour as the command line sets it: the lesson's
    /// gradient goes with its own top colour; another top colour alone is
    /// solid (a bottom colour given after it makes a gradient again).
    public var playedColor: RGBA8 {
        get { playedTop }
        set {
            playedTop = newValue
            if newValue != Self.lessonPlayed.top { playedBottom = nil }
        }
    }

    /// The bars' look and motion, declared once (the track is an input: `EffectInputs`).
    public static let parameters = ParameterList(defaults: Waveform(width: 1, height: 1, peaks: [], duration: 1), [
        .whole("bar-width", \.barWidth, 1...4096, what: "pixels", help: "Bar width in whole pixels."),
        .whole("bar-gap", \.barGap, 0...4096, what: "pixels", help: "Gap between bars in whole pixels."),
        .number("pixels-per-second", \.pixelsPerSecond, 0...1e6, above: true, what: "a number", valueName: "pixels",
                help: "Scroll speed, and so the bar grid: samples per bar = round(rate * (width + gap) / pps)."),
        .value("amplitude-scale", \.amplitudeScale, valueName: "scale", accepted: "a positive, finite number, or auto",
               help: "Bar height per unit of peak as a fraction of the height, or auto (the loudest bar full height).",
               defaultText: "auto",
               parse: { text in text == "auto" ? .some(nil) : ParameterText.parseNumber(text).map { .some($0) } },
               show: { $0.map(ParameterText.number) ?? "auto" }, holds: { $0.map { $0 > 0 } ?? true }),
        .number("bar-radius", \.barRadius, 0...4096, what: "pixels", valueName: "pixels",
                help: "Rounded bar ends: corner radius in pixels (0: square; held to half the bar's width and height)."),
        .number("playhead", \.playhead, 0...1, what: "a fraction of the width", valueName: "fraction",
                help: "The fixed playhead's column as a fraction of the width (scroll mode)."),
        .flag("fit", \.fit,
              help: "Fit the whole track (or the --start/--end segment) to the width; nothing moves and the playhead crosses it."),
        .flag("axis", \.axis,
              help: "Time labels and ticks along the top and bottom edges, in the unplayed bars' colour, as audiowaveform's axis labels: every 1, 2, 5, 10, 20 or 30 seconds, minutes or hours, at least 60 px apart."),
        .flag("split-channels", \.splitsChannels,
              help: "One band per channel, top to bottom (audiowaveform's --split-channels), instead of their mix."),
        .choice("colors", \.colors,
                help: "audiowaveform's colour scheme: audacity or audition (its waveform colour for every bar, its background unless --background is given); a colour option given too wins."),
        .color("played-color", \.playedColor, help: "Played bars: the gradient's top colour."),
        .value("played-color-bottom", \.playedBottom, valueName: "color", accepted: "a colour as #RRGGBB or #RRGGBBAA",
               help: "Played bars: the gradient's bottom colour.",
               defaultText: "#FFA030, the lesson's gradient, with the default top colour; with another --played-color, that colour: solid bars",
               parse: { RGBA8(hex: $0).map { .some($0) } }, show: { $0?.hex }),
        .color("unplayed-color", \.unplayed, help: "Unplayed bars' colour."),
        .choice("style", \.style,
                help: "bars (centred, each as tall as its loudest sample) or normal (audiowaveform's default: each bar from its least to its greatest sample; with --bar-width 1 --bar-gap 0 a line per column)."),
        .choice("split", \.composition,
                help: "How each painting of the bars is held to its side of the playhead, on both backends: two-clips (two clip layers; scissors on GL) or mask (a mask layer each; drawn into a mask texture first on GL)."),
    ])

    public func validate() throws {
        try Scene.validate(width: width, height: height)
        try Self.parameters.check(self)
        guard duration.isFinite, duration > 0 else {
            throw ValueError(parameter: "audio", value: "\(duration) s", accepted: "a track with at least one sample")
        }
        guard startTime.isFinite, startTime >= 0 else {
            throw ValueError(parameter: "start", value: "\(startTime)", accepted: "seconds from 0")
        }
        guard bands.count <= height else {
            throw ValueError(parameter: "split-channels", value: "\(bands.count) channels",
                             accepted: "at most one channel per pixel of height (\(height))")
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
        let bands = self.bands.isEmpty ? [peaks] : self.bands
        let loudest = Double(bands.map { $0.max() ?? 0 }.max() ?? 0)
        let scale = amplitudeScale ?? (loudest > 0 ? 1 / loudest : 1)
        var builder = PathBuilder()
        // Fit mode: the bars fill the width exactly (their grid, rounded to
        // whole samples per bar, may fall a little short or long of it).
        let barCount = bands.map(\.count).max() ?? 0
        let stretch = fit && barCount > 0 ? Double(width) / Double(barCount * pitch) : 1
        let h = Double(height), w = Double(barWidth) * stretch
        for (band, peaks) in bands.enumerated() {
            // Band edges on whole pixels: band b spans rows [b H / n, (b + 1) H / n).
            let bandTop = Double(band * height / bands.count), bandHeight = Double((band + 1) * height / bands.count) - bandTop
            for (i, peak) in peaks.enumerated() {
                let x = Double(i * pitch) * stretch
                if style == .normal {
                    // From the greatest sample down to the least about the middle, held to the band, a pixel at least.
                    let (low, high) = range(band: band, bar: i, peak: peak)
                    let middle = bandTop + bandHeight / 2, half = bandHeight / 2 * scale
                    let top = max(bandTop, (middle - Double(high) * half).rounded(.down))
                    let bottom = min(bandTop + bandHeight, max(top + 1, (middle - Double(low) * half).rounded(.up)))
                    if bottom > top { try addBar(&builder, x: x, y: top, width: w, height: bottom - top) }
                    continue
                }
                let barHeight = min(bandHeight, Double(peak) * bandHeight * scale)
                if !(barHeight > 0) { continue }
                let top = bandTop + (bandHeight - barHeight) / 2
                try addBar(&builder, x: x, y: top, width: w, height: barHeight)
            }
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
        if axis {
            let (marks, plates) = try axisPaths(pixelsPerSecond: fit ? Double(width) / duration : pixelsPerSecond)
            for (name, path, color) in [("time axis plates", plates, background), ("time axis", marks, unplayed)] {
                var layer = Layer(name: name, frame: frame, contents: .shape(Shape(path: path, fill: .solid(color))))
                layer.transform.translationX = motion
                layer.shouldRasterize = true
                sides.append(layer)
            }
        }
        var root = Layer(name: "waveform", frame: frame, sublayers: sides)
        // A segment: the bars' time 0 is the track's startTime.
        if startTime > 0 { root.timing = MediaTiming(duration: .infinity, timeOffset: -startTime, fillMode: .both) }
        // Checked once, where it is drawn: a renderer's prepare validates every scene.
        return Scene(width: width, height: height, background: background, tree: LayerTree(root: root))
    }

    /// Bar i of a band's least and greatest sample: the source's, or -peak, peak.
    private func range(band: Int, bar: Int, peak: Float) -> (low: Float, high: Float) {
        guard band < lows.count, band < highs.count, bar < lows[band].count, bar < highs[band].count else { return (-peak, peak) }
        return (lows[band][bar], highs[band][bar])
    }

    /// Seconds between the axis' ticks: the first of 1, 2, 5, 10, 20, 30
    /// seconds, then minutes, then hours, at least 60 px apart.
    public static func axisInterval(pixelsPerSecond: Double) -> Double {
        for unit in [1.0, 60, 3600] {
            for step in [1.0, 2, 5, 10, 20, 30] where step * unit * pixelsPerSecond >= 60 { return step * unit }
        }
        return 86_400 * max(1, (60 / (86_400 * pixelsPerSecond)).rounded(.up))
    }

    /// "0:05", "12:30", "1:02:03".
    public static func axisLabel(seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60
        return h > 0 ? "\(h):" + String(format: "%02d:%02d", m, s) : "\(m):" + String(format: "%02d", s)
    }

    /// The ticks and labels, and the plates behind the labels, in the bars'
    /// coordinates (x 0 at the segment's start), at the playhead's pixels per
    /// second: stb_easy_font's glyphs are whole-pixel rectangles, so both
    /// strategies draw them alike.
    private func axisPaths(pixelsPerSecond pps: Double) throws -> (marks: Path, plates: Path) {
        var builder = PathBuilder(), plates = PathBuilder()
        let interval = Self.axisInterval(pixelsPerSecond: pps)
        let tick = Double(min(10, height / 2)), h = Double(height)
        var quads = [UInt8](repeating: 0, count: 64 * 200)
        var label = (startTime / interval).rounded(.up) * interval
        let end = startTime + duration
        while label <= end {
            let x = ((label - startTime) * pps).rounded()
            try builder.rectangle(x: x, y: 0, width: 1, height: tick)
            try builder.rectangle(x: x, y: h - tick, width: 1, height: tick)
            let text = Self.axisLabel(seconds: Int(label.rounded()))
            let textWidth = Double(waves_text_width(text)), textHeight = Double(waves_text_height(text))
            let left = x - (textWidth / 2).rounded(.down) + 1, top = h - tick - 1 - textHeight
            if left >= 0 && top >= 0 {
                try plates.rectangle(x: left - 1, y: top - 1, width: textWidth + 1, height: textHeight + 1)
                let count = quads.withUnsafeMutableBytes { Int(waves_text_quads(Float(left), Float(top), text, $0.baseAddress, Int32($0.count))) }
                try quads.withUnsafeBytes { raw in
                    for q in 0..<count {
                        let x0 = Double(raw.load(fromByteOffset: q * 64, as: Float.self)), y0 = Double(raw.load(fromByteOffset: q * 64 + 4, as: Float.self))
                        let x1 = Double(raw.load(fromByteOffset: q * 64 + 32, as: Float.self)), y1 = Double(raw.load(fromByteOffset: q * 64 + 36, as: Float.self))
                        try builder.rectangle(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
                    }
                }
            }
            label += interval
        }
        return (builder.path, plates.path)
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

/// audiowaveform's colour schemes (its `--colors`), declared once: what
/// `waves audiowaveform` draws its images in and `waves render waveform
/// --colors` paints the bars and background with.
public enum AudiowaveformScheme: String, CaseIterable, Sendable {
    case audacity, audition

    public var waveform: RGBA8 { self == .audacity ? RGBA8(63, 77, 155) : RGBA8(134, 252, 199) }
    public var background: RGBA8 { self == .audacity ? RGBA8(214, 214, 214) : RGBA8(0, 63, 34) }
    public var border: RGBA8 { self == .audacity ? RGBA8(0, 0, 0) : RGBA8(157, 157, 157) }
    public var axisLabel: RGBA8 { self == .audacity ? RGBA8(0, 0, 0) : RGBA8(190, 190, 190) }
}

/// The waveform's shape: bars centred on the middle (the lesson's), or
/// audiowaveform's normal style, each from its least to its greatest sample.
public enum WaveformStyle: String, CaseIterable, Sendable {
    case bars, normal
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
    /// The same bars for each channel alone, top to bottom (one list for a mono track).
    func channelBars(samplesPerBar: Int, maxBars: Int) throws -> (bands: [[Float]], sampleCount: Int, duration: Double)
    /// Each bar's least and greatest sample (-1...1) for the normal style, one
    /// list pair per band: the mix, or with `channels` each channel alone.
    func ranges(samplesPerBar: Int, maxBars: Int, channels: Bool) throws -> (lows: [[Float]], highs: [[Float]])
}

extension WaveformSource {
    /// A source that knows only peaks: each bar from -peak to peak.
    public func ranges(samplesPerBar: Int, maxBars: Int, channels: Bool) throws -> (lows: [[Float]], highs: [[Float]]) {
        let bands = channels ? try channelBars(samplesPerBar: samplesPerBar, maxBars: maxBars).bands
                             : [try bars(samplesPerBar: samplesPerBar, maxBars: maxBars).peaks]
        return (bands.map { $0.map { -$0 } }, bands)
    }

    /// A source without channels of its own: one band, the mix.
    public func channelBars(samplesPerBar: Int, maxBars: Int) throws -> (bands: [[Float]], sampleCount: Int, duration: Double) {
        let bars = try bars(samplesPerBar: samplesPerBar, maxBars: maxBars)
        return ([bars.peaks], bars.sampleCount, bars.duration)
    }
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
        func refuseLength(samples count: Int, bars: Int?) -> ValueError {
            let seconds = Int(Double(count) / Double(source.sampleRate))
            let size = bars.map { "this \(seconds) s track would be " + String(Int((Double($0) * Double(effect.pitch)).rounded())) + " px" }
                ?? "this track would be longer (\(seconds) s of it make more already)"
            return ValueError(parameter: fit ? "bar-width" : "pixels-per-second", value: fit ? "\(barWidth)" : "\(pixelsPerSecond)",
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
        func scan(_ samplesPerBar: Int) throws -> (bands: [[Float]], sampleCount: Int, duration: Double) {
            if splitsChannels { return try source.channelBars(samplesPerBar: samplesPerBar, maxBars: maxBars) }
            let mix = try source.bars(samplesPerBar: samplesPerBar, maxBars: maxBars)
            return ([mix.peaks], mix.sampleCount, mix.duration)
        }
        var bars = try scan(samplesPerBar)
        let count = { bars.bands.map(\.count).max() ?? 0 }
        if fit, count() <= maxBars, bars.sampleCount != planned {
            // The header's count was not the track's: plan again from what decoded.
            samplesPerBar = grid(samples: bars.sampleCount)
            bars = try scan(samplesPerBar)
        }
        if count() > maxBars { throw refuseLength(samples: bars.sampleCount, bars: nil) }
        effect.peaks = bars.bands.first ?? []
        effect.bands = bars.bands.count > 1 ? bars.bands : []
        if style == .normal {
            (effect.lows, effect.highs) = try source.ranges(samplesPerBar: samplesPerBar, maxBars: maxBars, channels: splitsChannels)
        }
        effect.duration = bars.duration
        return try effect.scene()
    }
}
