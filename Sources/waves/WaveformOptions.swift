import ArgumentParser
import Foundation
import WaveAudio
import WaveCore
import WaveEffects

/// `--scene waveform`: the track and how its bars look. See README.md, "The waveform".
struct WaveformOptions: ParsableArguments {
    @Option(name: .customLong("audio"), parsing: .upToNextOption, help: "An audio file (WAV, FLAC, Ogg/Vorbis, Opus, MP3: anything libsndfile reads, recognised by content), or - for standard input (default: a generated 3-minute track); waves render: several files or folders for a batch, each track's image named by --out's pattern holding {name}.")
    var tracks: [String] = []

    @Option(parsing: .unconditional, help: "waves render, several tracks: how many are drawn at once (default: the core count).")
    var jobs: Int?

    @Flag(help: "waves render, several tracks: draw every image, even one newer than its track.")
    var force = false

    /// The one audio file, nil for none (the generated track) or a batch.
    var audio: String? { tracks.count == 1 && !TrackBatch.isFolder(tracks[0]) ? tracks[0] : nil }

    var isBatch: Bool { TrackBatch.isBatch(tracks) }

    @Option(help: "An audiowaveform peaks file (JSON or .dat, recognised by content), or - for standard input, instead of --audio.")
    var peaks: String?

    /// The bar options' defaults, in one place (the options and the preset's check read them).
    static let defaults = (barWidth: 2, barGap: 1, pixelsPerSecond: 50.0, amplitudeScale: "auto", barRadius: 0.0, playhead: 0.5)

    @Option(name: .customLong("bar-width"), parsing: .unconditional, help: "Bar width in whole pixels.")
    var barWidth: Int = Self.defaults.barWidth

    @Option(name: .customLong("bar-gap"), parsing: .unconditional, help: "Gap between bars in whole pixels.")
    var barGap: Int = Self.defaults.barGap

    @Option(name: .customLong("pixels-per-second"), parsing: .unconditional, help: "Scroll speed, and so the bar grid: samples per bar = round(rate * (width + gap) / pps).")
    var pixelsPerSecond: Double = Self.defaults.pixelsPerSecond

    @Option(name: .customLong("amplitude-scale"), help: "Bar height per unit of peak as a fraction of the height, or auto (the loudest bar full height).")
    var amplitudeScale: String = Self.defaults.amplitudeScale

    @Option(name: .customLong("bar-radius"), parsing: .unconditional, help: "Rounded bar ends: corner radius in pixels (0: square).")
    var barRadius: Double = Self.defaults.barRadius

    @Option(parsing: .unconditional, help: "The fixed playhead's column as a fraction of the width, 0 to 1 (scroll mode).")
    var playhead: Double = Self.defaults.playhead

    @Flag(help: "Fit the whole track (or the --start/--end segment) to the width; nothing moves and the playhead crosses it.")
    var fit = false

    @Option(parsing: .unconditional, help: "Draw the track from this many seconds in (audiowaveform's --start); the playhead's time stays the track's (default: 0).")
    var start: Double?

    @Option(parsing: .unconditional, help: "Draw the track up to this many seconds in (audiowaveform's --end) (default: its end).")
    var end: Double?

    @Flag(help: "Time labels and ticks along the top and bottom edges, in the unplayed bars' colour, as audiowaveform's axis labels: every 1, 2, 5, 10, 20 or 30 seconds, minutes or hours, at least 60 px apart.")
    var axis = false

    @Flag(name: .customLong("split-channels"), help: "One band per channel, top to bottom (audiowaveform's --split-channels), instead of their mix.")
    var splitChannels = false

    @Option(name: .customLong("played-color"), help: "Played bars: the gradient's top colour (default: #FF5500).", transform: parseColor)
    var playedColor: RGBA8 = RGBA8(0xFF, 0x55, 0x00)

    @Option(name: .customLong("played-color-bottom"), help: "Played bars: the gradient's bottom colour (default: #FFA030, the lesson's gradient, with the default top colour; with another --played-color, that colour: solid bars).", transform: parseColor)
    var playedColorBottom: RGBA8?

    @Option(name: .customLong("unplayed-color"), help: "Unplayed bars' colour (default: #B0B0B8).", transform: parseColor)
    var unplayedColor: RGBA8 = RGBA8(0xB0, 0xB0, 0xB8)

    @Option(help: "How each painting of the bars is held to its side of the playhead, on both backends: two-clips (two clip layers; scissors on GL) or mask (a mask layer each; drawn into a mask texture first on GL) (default: two-clips).")
    var split: SplitMethod?

    /// Opened once: decoding is the expensive part.
    nonisolated(unsafe) private static var inputs: [String: AudioInput] = [:]

    func input() throws -> AudioInput {
        let key = "\(audio ?? "")|\(peaks ?? "")|\(start ?? 0)|\(end ?? -1)"
        if let input = Self.inputs[key] { return input }
        let input = try AudioInput(audio: audio, peaks: peaks, start: start ?? 0, end: end)
        Self.inputs[key] = input
        return input
    }

    /// One input here (a batch is the render's and the peaks' own), the
    /// scale and the segment checked, and the input opened.
    func check() throws {
        if isBatch {
            throw UsageError(option: "--audio", value: tracks.joined(separator: " "),
                             accepted: "one audio file here (several tracks, or a folder, with waves render waveform or waves peaks)")
        }
        if let jobs { throw UsageError(option: "--jobs", value: "\(jobs)", accepted: "only when several tracks are drawn (waves render waveform --audio with several files or a folder)") }
        if force { throw UsageError(option: "--force", value: "", accepted: "only when several tracks are drawn (waves render waveform --audio with several files or a folder)") }
        _ = try scale()
        try checkSegment()
        _ = try input()
    }

    /// Refuses options that change the bars, for callers that fix them.
    func refuseGeometry(reason: String) throws {
        let defaults = Self.defaults
        let given: [(String, String, Bool)] = [
            ("--bar-width", "\(barWidth)", barWidth != defaults.barWidth), ("--bar-gap", "\(barGap)", barGap != defaults.barGap),
            ("--pixels-per-second", "\(pixelsPerSecond)", pixelsPerSecond != defaults.pixelsPerSecond),
            ("--amplitude-scale", amplitudeScale, amplitudeScale != defaults.amplitudeScale),
            ("--bar-radius", "\(barRadius)", barRadius != defaults.barRadius), ("--playhead", "\(playhead)", playhead != defaults.playhead),
            ("--fit", "", fit), ("--start", "\(start ?? 0)", start != nil), ("--end", "\(end ?? 0)", end != nil),
            ("--axis", "", axis), ("--split-channels", "", splitChannels),
        ]
        if let (option, value, _) = given.first(where: { $0.2 }) {
            throw UsageError(option: option, value: value, accepted: "nothing here: \(reason)")
        }
    }

    /// `--start` and `--end`: seconds within a track, the end after the start.
    func checkSegment() throws {
        if let start, !(start.isFinite && start >= 0 && start <= 1e7) {
            throw UsageError(option: "--start", value: "\(start)", accepted: "seconds from 0 (up to 10000000)")
        }
        if let end, !(end.isFinite && end > (start ?? 0) && end <= 1e7) {
            throw UsageError(option: "--end", value: "\(end)", accepted: "seconds after --start (\(start ?? 0)), up to 10000000")
        }
    }

    func scale() throws -> Double? {
        if amplitudeScale == "auto" { return nil }
        guard let value = Double(amplitudeScale), value.isFinite, value > 0 else {
            throw UsageError(option: "--amplitude-scale", value: amplitudeScale, accepted: "a positive, finite number, or auto")
        }
        return value
    }

    /// The bars' look and motion (the size, track and background come later).
    func template() throws -> Waveform {
        var effect = Waveform(width: 1, height: 1, peaks: [], duration: 1)
        effect.barWidth = barWidth
        effect.barGap = barGap
        effect.pixelsPerSecond = pixelsPerSecond
        effect.amplitudeScale = try scale()
        effect.barRadius = barRadius
        effect.playhead = playhead
        effect.fit = fit
        effect.playedTop = playedColor
        // The lesson's gradient goes with its own top colour; another top colour alone is solid.
        let standard = Waveform(width: 1, height: 1, peaks: [], duration: 1)
        effect.playedBottom = playedColorBottom ?? (playedColor == standard.playedTop ? standard.playedBottom : playedColor)
        effect.unplayed = unplayedColor
        effect.composition = split ?? effect.composition
        effect.startTime = start ?? 0
        effect.axis = axis
        effect.splitsChannels = splitChannels
        return effect
    }
}

/// The command line's audio input is the waveform's source.
extension AudioInput: WaveformSource, @unchecked Sendable {
    func samplesPerBar(pitch: Int, pixelsPerSecond: Double) -> Int {
        BarPeaks.samplesPerBar(sampleRate: sampleRate, pitch: pitch, pixelsPerSecond: pixelsPerSecond)
    }

    func bars(samplesPerBar: Int, maxBars: Int) throws -> (peaks: [Float], sampleCount: Int, duration: Double) {
        let bars = try barPeaks(samplesPerBar: samplesPerBar, maxBars: maxBars)
        return (bars.peaks, bars.sampleCount, bars.duration)
    }

    func channelBars(samplesPerBar: Int, maxBars: Int) throws -> (bands: [[Float]], sampleCount: Int, duration: Double) {
        let bands = try (0..<channels).map { try barPeaks(samplesPerBar: samplesPerBar, maxBars: maxBars, channel: channels > 1 ? $0 : nil) }
        return (bands.map(\.peaks), bands.map(\.sampleCount).max() ?? 0, bands.map(\.duration).max() ?? 0)
    }
}
