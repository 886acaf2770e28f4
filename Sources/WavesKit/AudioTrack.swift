import WaveAudio
import WaveCore
import WaveEffects

/// A track as a waveform's source: an audio file (libsndfile: WAV, FLAC,
/// Ogg/Vorbis, Opus, MP3), an audiowaveform peaks file, or the built-in
/// generated track, whole or a segment of it. `Waveform.scene(from:)` plans
/// the bar grid for the track's sample rate and length, then asks for one
/// peak per bar.
///
/// ```swift
/// let scene = try Waveform(width: 800, height: 200).scene(from: AudioTrack(path: "song.wav"))
/// ```
///
/// The file is opened (its header checked; a peaks file read) when the
/// track is made. Peaks are computed once per bar size and kept, so a
/// resize that keeps the bar grid decodes nothing again. A length is only
/// ever exact: a header's where it is exact, else what decoding to the real
/// end found; never a guess.
public final class AudioTrack: WaveformSource, @unchecked Sendable {
    /// Where the samples come from.
    public enum Source: Sendable {
        case audio(path: String)
        case peaks(WaveformData, path: String)
        case generated(seconds: Double)
    }

    public let source: Source
    public let sampleRate: Int
    /// The track's channels (a peaks file's; 1 for the generated track).
    public let channels: Int
    /// The samples drawn: [start, start + count) of the track (count nil: to its end).
    public let segment: (start: Int, count: Int?)
    /// The header's frame count within the segment, where the format makes it exact.
    private var claimedCount: Int?
    /// Samples in the segment, known for certain: a peaks file's, the
    /// generated track's, or what decoding to the end found.
    public private(set) var verifiedCount: Int?
    /// Why the last decoding stopped before the end (a damaged or truncated
    /// file), nil when it read the whole file: the bars then show what was read.
    public private(set) var stoppedEarly: String?
    /// Called when a decoding stops before the end, with the file and why
    /// (the command line warns, or under --strict refuses the track).
    public var onStoppedEarly: ((_ path: String, _ report: String) throws -> Void)?
    private var cache: [CacheKey: BarPeaks] = [:]

    /// The built-in track's length: three minutes.
    public static let generatedSeconds = 180.0

    /// Opens the audio file at `path`, whole; throws `AudioError` for a missing or unreadable file.
    public convenience init(path: String) throws {
        try self.init(audio: path, peaks: nil)
    }

    /// Opens an audio file, or reads a peaks file, or (neither) the
    /// generated track; `start` and `end` (seconds of the track, end nil: to
    /// its end) choose a segment. A bad file fails here, before any work.
    public init(audio: String?, peaks: String?, start: Double = 0, end: Double? = nil) throws {
        func segment(rate: Int) -> (start: Int, count: Int?) {
            let first = Int((start * Double(rate)).rounded())
            return (first, end.map { max(0, Int(($0 * Double(rate)).rounded()) - first) })
        }
        func within(_ total: Int?, rate: Int) -> Int? {
            guard let total else { return nil }
            let range = segment(rate: rate), left = max(0, total - range.start)
            return range.count.map { min($0, left) } ?? left
        }
        switch (audio, peaks) {
        case let (audio?, nil):
            let reader = try AudioReader(path: audio)
            (source, sampleRate, channels) = (.audio(path: audio), reader.sampleRate, reader.channels)
            self.segment = segment(rate: sampleRate)
            if reader.countIsExact { claimedCount = within(reader.announcedFrames, rate: sampleRate) }
        case let (nil, peaks?):
            let data = try WaveformData.read(path: peaks)
            (source, sampleRate, channels) = (.peaks(data, path: peaks), data.sampleRate, data.channels)
            self.segment = segment(rate: sampleRate)
            verifiedCount = within(data.sampleCount, rate: sampleRate)
        case (nil, nil):
            let track = GeneratedTrack(seconds: Self.generatedSeconds)
            (source, sampleRate, channels) = (.generated(seconds: Self.generatedSeconds), track.sampleRate, 1)
            self.segment = segment(rate: sampleRate)
            verifiedCount = within(track.sampleCount, rate: sampleRate)
        case (_?, _?):
            throw ValueError(parameter: "peaks", value: peaks ?? "", accepted: "either --audio or --peaks, not both")
        }
    }

    /// The file's path (nil: the generated track).
    public var path: String? {
        switch source {
        case let .audio(path), let .peaks(_, path): path
        case .generated: nil
        }
    }

    /// The option that names this kind of track, for messages.
    public var optionName: String {
        switch source {
        case .audio: "--audio"
        case .peaks: "--peaks"
        case .generated: "--track-minutes"
        }
    }

    /// Samples in the segment, to plan a grid before any decoding: the count
    /// known for certain, else the header's exact count (a plan the scan
    /// checks), else a counting pass that decodes to the real end. Never an estimate.
    public func sampleCount() throws -> Int {
        if let count = verifiedCount ?? claimedCount { return count }
        return try barPeaks(samplesPerBar: Int(Int32.max)).sampleCount
    }

    public func samplesPerBar(pitch: Int, pixelsPerSecond: Double) -> Int {
        BarPeaks.samplesPerBar(sampleRate: sampleRate, pitch: pitch, pixelsPerSecond: pixelsPerSecond)
    }

    public func bars(samplesPerBar: Int, maxBars: Int) throws -> (peaks: [Float], sampleCount: Int, duration: Double) {
        let bars = try barPeaks(samplesPerBar: samplesPerBar, maxBars: maxBars)
        return (bars.peaks, bars.sampleCount, bars.duration)
    }

    public func channelBars(samplesPerBar: Int, maxBars: Int) throws -> (bands: [[Float]], sampleCount: Int, duration: Double) {
        let bands = try (0..<channels).map { try barPeaks(samplesPerBar: samplesPerBar, maxBars: maxBars, channel: channels > 1 ? $0 : nil) }
        return (bands.map(\.peaks), bands.map(\.sampleCount).max() ?? 0, bands.map(\.duration).max() ?? 0)
    }

    public func ranges(samplesPerBar: Int, maxBars: Int, channels splitting: Bool) throws -> (lows: [[Float]], highs: [[Float]]) {
        let picked: [Int?] = splitting && channels > 1 ? (0..<channels).map { $0 } : [nil]
        let bands = try picked.map { try barPeaks(samplesPerBar: samplesPerBar, maxBars: maxBars, channel: $0) }
        return (bands.map { b in b.peaks.indices.map { b.range($0).low } }, bands.map { b in b.peaks.indices.map { b.range($0).high } })
    }

    /// Peaks for bars of `samplesPerBar` samples, read to the end or until
    /// there are more than `maxBars` (a track too long to draw: the result
    /// is then partial, not kept). `channel`: that channel's bars alone (nil: the mix).
    public func barPeaks(samplesPerBar: Int, maxBars: Int = .max, channel: Int? = nil) throws -> BarPeaks {
        let key = CacheKey(samplesPerBar: samplesPerBar, channel: channel)
        if let cached = cache[key] { return cached }
        let whole = segment.start == 0 && segment.count == nil
        // The segment's samples of a mono source (all of them without one).
        func segmented(_ source: SampleSource) -> SampleSource {
            whole ? source : TrackSegment(source, start: segment.start, count: segment.count ?? .max)
        }
        let peaks: BarPeaks
        switch source {
        case let .peaks(data, path):
            let part = whole ? data : data.segment(start: segment.start, count: segment.count ?? .max)
            peaks = part.barPeaks(samplesPerBar: samplesPerBar, channel: channel)
            if peaks.sampleCount == 0 {
                throw AudioError.unreadable(path: path, reason: part.length < data.length ? "it holds no peaks from --start on" : "it holds no peaks")
            }
        case let .audio(path):
            let reader = try AudioReader(path: path, channel: channel)
            peaks = try BarPeaks.scan(segmented(reader), samplesPerBar: samplesPerBar, maxBars: maxBars)
            // A scan cut short at maxBars has not counted the whole track.
            guard peaks.peaks.count <= maxBars else { return peaks }
            if peaks.sampleCount == 0 { throw AudioError.unreadable(path: path, reason: "the track ends before --start") }
            // A segment that ends before the track does is read in full without reaching the end.
            if segment.count == nil || peaks.sampleCount < segment.count! {
                stoppedEarly = reader.stoppedEarly
                if let report = reader.stoppedEarly { try onStoppedEarly?(path, report) }
            }
        case let .generated(seconds):
            peaks = try BarPeaks.scan(segmented(GeneratedTrack(seconds: seconds)), samplesPerBar: samplesPerBar)
            if peaks.sampleCount == 0 {
                throw ValueError(parameter: "start", value: "", accepted: "a time within the track (\(Int(seconds)) s)")
            }
        }
        verifiedCount = peaks.sampleCount
        cache[key] = peaks
        return peaks
    }

    private struct CacheKey: Hashable {
        let samplesPerBar: Int
        let channel: Int?
    }
}

extension Waveform {
    /// A waveform of this size with the default look, its bars to come from
    /// a source (`scene(from:)`).
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, peaks: [], duration: 1)
    }
}
