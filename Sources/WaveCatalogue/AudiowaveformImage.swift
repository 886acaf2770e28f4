import CGD
import Foundation
import WaveAudio
import WaveCore
import WaveEffects

/// audiowaveform 1.10.3's waveform image (its GdImageRenderer, read for what
/// it draws): the marks worked out here from the peaks and the settings, then
/// drawn by libgd, the library audiowaveform draws with, so the pixels are
/// its pixels. The marks, in order: the background; each channel's row, a
/// vertical line per pair ("normal") or a bar per `barWidth + barGap` pairs
/// on the track's bar grid ("bars", square or with rounded corners); then,
/// with axis labels, the border, a marker at each label's time (top and
/// bottom) and the time in libgd's small font.
package struct AudiowaveformImage {
    /// A colour as audiowaveform reads it: exactly `rrggbb` or `rrggbbaa`
    /// (no `#`; alpha 255 is opaque), through WaveCore's parser.
    package static func color(_ text: String) -> RGBA8? {
        text.hasPrefix("#") ? nil : RGBA8(hex: text)
    }

    /// The four colours audiowaveform names, a waveform colour a channel (repeating).
    package struct Colors: Equatable {
        package var border, background: RGBA8
        package var waveform: [RGBA8]
        package var axisLabel: RGBA8

        /// The scheme `--colors` names (WaveEffects' `AudiowaveformScheme`: declared once, for `waves render waveform` too).
        package init(_ scheme: AudiowaveformScheme) {
            (border, background, waveform, axisLabel) = (scheme.border, scheme.background, [scheme.waveform], scheme.axisLabel)
        }

        var hasAlpha: Bool { ([border, background, axisLabel] + waveform).contains { $0.a != 255 } }
    }

    package enum Style: Equatable {
        case normal
        case bars(width: Int, gap: Int, rounded: Bool)
    }

    /// Which of the colours a mark is drawn in.
    package enum Paint: Equatable {
        case border, background, axisLabel
        /// The waveform colour of this channel.
        case waveform(channel: Int)
    }

    /// One drawing call, in libgd's terms (corners inclusive, angles in degrees clockwise from 3 o'clock).
    package enum Mark: Equatable {
        case filledRectangle(left: Int, top: Int, right: Int, bottom: Int, Paint)
        case rectangle(left: Int, top: Int, right: Int, bottom: Int, Paint)
        case line(x1: Int, y1: Int, x2: Int, y2: Int, Paint)
        /// A quarter of a filled ellipse centred at (x, y), `width` x `height`, from `start` to `end` degrees.
        case filledArc(x: Int, y: Int, width: Int, height: Int, start: Int, end: Int, Paint)
        /// Text in the small font, its top left at (x, y).
        case text(x: Int, y: Int, String, Paint)
    }

    package var width = 800
    package var height = 250
    package var colors = Colors(.audacity)
    package var style = Style.normal
    package var axisLabels = true
    /// nil: audiowaveform's `auto`, the factor that fills the height with what is shown.
    package var amplitudeScale: Double? = 1
    /// Seconds into the peaks the image starts at.
    package var startTime = 0.0

    package init() {}

    /// The small font's glyph size in pixels: libgd's own (6x13), or that where libgd is missing (no image is then drawn).
    static let glyph: (width: Int, height: Int) = {
        guard case let .success(gd) = GDLibrary.shared else { return (6, 13) }
        return (Int(gd.smallFont.pointee.w), Int(gd.smallFont.pointee.h))
    }()

    /// The first pair drawn: `startTime` in pairs, truncated.
    package func startIndex(of peaks: WaveformData) -> Int {
        Self.whole(startTime * Double(peaks.sampleRate) / Double(peaks.samplesPerPixel))
    }

    /// The factor the values are drawn at: the one given, or `auto`'s over the pairs shown.
    package func factor(for peaks: WaveformData) -> Double {
        if let amplitudeScale { return amplitudeScale }
        let start = startIndex(of: peaks)
        return peaks.fullScaleFactor(over: start..<max(start, min(start + width, peaks.length)))
    }

    /// What is drawn for `peaks` (16-bit values; 8-bit ones are read times 256), in order.
    package func marks(for peaks: WaveformData) -> [Mark] {
        let peaks = peaks.atBits(16)
        var marks: [Mark] = [.filledRectangle(left: 0, top: 0, right: width - 1, bottom: height - 1, .background)]
        let factor = self.factor(for: peaks), start = startIndex(of: peaks)
        // Rows share the height, the last taking what division leaves; a border's lines are not drawn over.
        let topY = axisLabels ? 1 : 0, bottomY = axisLabels ? height - 2 : height - 1
        var available = bottomY - topY + 1
        let rowHeight = available / peaks.channels
        var rowTop = topY
        let stride = 2 * peaks.channels
        /// A value's y in a row `rowHeight` tall from `top`: the 16-bit range mapped onto it, top down.
        func y(_ value: Int, top: Int, height: Int) -> Int { top + height - 1 - (WaveformData.scale(value, by: factor) + 32768) * height / 65536 }
        for channel in 0..<peaks.channels {
            let rowBottom = channel == peaks.channels - 1 ? rowTop + available - 1 : rowTop + rowHeight
            let h = rowBottom - rowTop + 1
            let paint = Paint.waveform(channel: channel)
            switch style {
            case .normal:
                var x = 0, i = start
                while x < width && i < peaks.length {
                    let low = peaks.data[i * stride + 2 * channel], high = peaks.data[i * stride + 2 * channel + 1]
                    marks.append(.line(x1: x, y1: y(high, top: rowTop, height: h), x2: x, y2: y(low, top: rowTop, height: h), paint))
                    x += 1; i += 1
                }
            case let .bars(barWidth, gap, rounded):
                // Bars stand on the track's grid: the first starts at or before the image's left edge.
                let total = barWidth + gap
                var i = start / total * total, x = i - start
                while x < width {
                    let size = barSize(peaks, channel: channel, from: i, count: total)
                    let top = y(size, top: rowTop, height: h), bottom = y(-size, top: rowTop, height: h)
                    if top != bottom {
                        if rounded && barWidth > 2 && h >= 3 {
                            marks += roundedBar(left: x, top: top, right: x + barWidth - 1, bottom: bottom,
                                                radius: barWidth > 4 ? barWidth / 4 : barWidth / 2, paint)
                        } else {
                            marks.append(.filledRectangle(left: x, top: top, right: x + barWidth - 1, bottom: bottom, paint))
                        }
                    }
                    i += total; x += total
                }
            }
            available -= rowHeight + 1
            rowTop += rowHeight + 1
        }
        if axisLabels {
            marks.append(.rectangle(left: 0, top: 0, right: width - 1, bottom: height - 1, .border))
            marks += timeAxis(sampleRate: peaks.sampleRate, samplesPerPixel: peaks.samplesPerPixel)
        }
        return marks
    }

    /// A bar's half height: the largest size, below or above zero, of `count` pairs from `index` (0 past the end).
    private func barSize(_ peaks: WaveformData, channel: Int, from index: Int, count: Int) -> Int {
        guard index < peaks.length else { return 0 }
        var low = Int.max, high = Int.min
        let stride = 2 * peaks.channels
        for i in index..<min(index + count, peaks.length) {
            low = min(low, peaks.data[i * stride + 2 * channel])
            high = max(high, peaks.data[i * stride + 2 * channel + 1])
        }
        return max(min(abs(low), 32767), min(abs(high), 32767))
    }

    /// A bar with quarter-ellipse corners of `radius`: the middle, then each
    /// corner and the strip between two corners, as audiowaveform draws them.
    private func roundedBar(left: Int, top: Int, right: Int, bottom: Int, radius: Int, _ paint: Paint) -> [Mark] {
        let (leftArc, topArc, rightArc, bottomArc, d) = (left + radius, top + radius, right - radius, bottom - radius, radius * 2)
        return [
            .filledRectangle(left: left, top: topArc, right: right, bottom: bottomArc, paint),
            .filledArc(x: leftArc, y: topArc, width: d, height: d, start: 180, end: 270, paint),
            .filledArc(x: rightArc, y: topArc, width: d, height: d, start: 270, end: 0, paint),
            .filledRectangle(left: leftArc, top: top, right: rightArc, bottom: topArc, paint),
            .filledArc(x: leftArc, y: bottomArc, width: d, height: d, start: 90, end: 180, paint),
            .filledArc(x: rightArc, y: bottomArc, width: d, height: d, start: 0, end: 90, paint),
            .filledRectangle(left: leftArc, top: bottomArc, right: rightArc, bottom: bottom, paint),
        ]
    }

    /// The time axis: a marker 10 pixels long at the top and bottom every
    /// `labelInterval` seconds from the first whole multiple at or after the
    /// start, each with its time (mm:ss, or hh:mm:ss from an hour) centred
    /// above the bottom marker where it does not start left of the image.
    private func timeAxis(sampleRate: Int, samplesPerPixel: Int) -> [Mark] {
        let markerHeight = 10
        let interval = labelInterval(sampleRate: sampleRate, samplesPerPixel: samplesPerPixel)
        let first = Self.roundUp(startTime, toMultipleOf: interval)
        let offsetPixels = Self.whole((Double(first) - startTime) * Double(sampleRate)) / samplesPerPixel
        var marks: [Mark] = []
        var seconds = first
        while true {
            let x = offsetPixels + (seconds - first) * sampleRate / samplesPerPixel
            guard x < width else { break }
            marks.append(.line(x1: x, y1: 0, x2: x, y2: markerHeight, .border))
            marks.append(.line(x1: x, y1: height - 1, x2: x, y2: height - 1 - markerHeight, .border))
            let label = Self.clock(seconds)
            let labelX = x - label.count * Self.glyph.width / 2 + 1
            if labelX >= 0 {
                marks.append(.text(x: labelX, y: height - 1 - markerHeight - 1 - Self.glyph.height, label, .axisLabel))
            }
            seconds += interval
        }
        return marks
    }

    /// Seconds between labels: the first of 1, 2, 5, 10, 20, 30 seconds, then
    /// minutes, then hours, that puts them at least 60 pixels apart.
    private func labelInterval(sampleRate: Int, samplesPerPixel: Int) -> Int {
        var base = 1
        while base < Int.max / 3600 {
            for step in [1, 2, 5, 10, 20, 30] {
                let seconds = base * step
                if Int(Double(seconds) * Double(sampleRate) / Double(samplesPerPixel)) >= 60 { return seconds }
            }
            base *= 60
        }
        return base
    }

    /// `value` rounded up to a multiple of `multiple` (from zero, by its size).
    static func roundUp(_ value: Double, toMultipleOf multiple: Int) -> Int {
        let sign = value < 0 ? -1 : 1
        let up = whole(abs(value).rounded(.up))
        return sign * ((up + multiple - 1) / multiple) * multiple
    }

    /// A number as audiowaveform's `int` holds it: truncated, and held to
    /// 32 bits where C's conversion would be undefined (a start of 1e300 s
    /// then starts past any track, and nothing is drawn).
    package static func whole(_ value: Double) -> Int {
        value.isNaN ? 0 : Int(min(Double(Int32.max), max(Double(Int32.min), value.rounded(.towardZero))))
    }

    /// A label's text: mm:ss, or hh:mm:ss from an hour.
    static func clock(_ seconds: Int) -> String {
        let (hours, minutes, rest) = (seconds / 3600, seconds % 3600 / 60, seconds % 60)
        return hours > 0 ? String(format: "%02d:%02d:%02d", hours, minutes, rest) : String(format: "%02d:%02d", minutes, rest)
    }

    /// The image drawn by libgd and encoded as PNG at `compression` (-1: zlib's default, 0...9).
    package func png(for peaks: WaveformData, compression: Int) throws -> Data {
        guard width >= 1 else { throw ImageFailure(message: "Invalid image width: minimum 1") }
        guard height >= 1 else { throw ImageFailure(message: "Invalid image height: minimum 1") }
        guard peaks.sampleRate > 0 else { throw ImageFailure(message: "Invalid sample rate: \(peaks.sampleRate) Hz") }
        guard peaks.length >= 1 else { throw ImageFailure(message: "Empty waveform buffer") }
        guard peaks.samplesPerPixel >= 1 else { throw ImageFailure(message: "Invalid waveform scale: \(peaks.samplesPerPixel)") }
        let gd: GDLibrary
        switch GDLibrary.shared {
        case let .success(library): gd = library
        case let .failure(missing): throw ImageFailure(message: missing.message)
        }
        let bytes = width.multipliedReportingOverflow(by: height).partialValue.multipliedReportingOverflow(by: 4)
        guard bytes.overflow == false, let image = try CheckedMemory.allocating(bytes: bytes.partialValue, for: "a \(width)x\(height) image", {
            gd.createTrueColor(Int32(clamping: width), Int32(clamping: height))
        }) else { throw ImageFailure(message: "Failed to create image") }
        defer { gd.destroy(image) }
        if colors.hasAlpha {
            gd.saveAlpha(image, 1)
            gd.alphaBlending(image, 0)
        }
        func allocate(_ color: RGBA8) -> Int32 {
            color.a != 255
                ? gd.colorAllocateAlpha(image, Int32(color.r), Int32(color.g), Int32(color.b), Int32(127 - color.a / 2))
                : gd.colorAllocate(image, Int32(color.r), Int32(color.g), Int32(color.b))
        }
        let border = allocate(colors.border), background = allocate(colors.background)
        let waveform = colors.waveform.map(allocate), axisLabel = allocate(colors.axisLabel)
        func color(_ paint: Paint) -> Int32 {
            switch paint {
            case .border: return border
            case .background: return background
            case .axisLabel: return axisLabel
            case let .waveform(channel): return waveform[channel % waveform.count]
            }
        }
        for mark in marks(for: peaks) {
            switch mark {
            case let .filledRectangle(left, top, right, bottom, paint):
                gd.filledRectangle(image, Int32(left), Int32(top), Int32(right), Int32(bottom), color(paint))
            case let .rectangle(left, top, right, bottom, paint):
                gd.rectangle(image, Int32(left), Int32(top), Int32(right), Int32(bottom), color(paint))
            case let .line(x1, y1, x2, y2, paint):
                gd.line(image, Int32(x1), Int32(y1), Int32(x2), Int32(y2), color(paint))
            case let .filledArc(x, y, w, h, start, end, paint):
                // audiowaveform passes gdStyledBrushed as the style: its bits ask for a pie, filled, edged.
                gd.filledArc(image, Int32(x), Int32(y), Int32(w), Int32(h), Int32(start), Int32(end), color(paint), gdStyledBrushed)
            case let .text(x, y, text, paint):
                var bytes = Array(text.utf8) + [0]
                gd.string(image, gd.smallFont, Int32(x), Int32(y), &bytes, color(paint))
            }
        }
        var size: Int32 = 0
        guard let encoded = gd.pngPtrEx(image, &size, Int32(compression)) else { throw ImageFailure(message: "Failed to encode image") }
        defer { gd.free(encoded) }
        return Data(bytes: encoded, count: Int(size))
    }

    /// Why an image could not be made, in audiowaveform's words.
    package struct ImageFailure: Error { package let message: String }
}
