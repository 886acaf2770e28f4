import WaveAudio
import WaveEffects

/// An audio file as a waveform's source: `Waveform.scene(from:)` plans the
/// bar grid for the file's sample rate and length, then decodes it into one
/// peak per bar (libsndfile: WAV, FLAC, Ogg/Vorbis, Opus, MP3).
///
/// ```swift
/// let scene = try Waveform(width: 800, height: 200).scene(from: AudioTrack(path: "song.wav"))
/// ```
///
/// The file is opened (and its header checked) when the track is made, and
/// read from the start each time bars are asked for; a length is only
/// ever exact: the header's where it is exact, else what decoding found.
public final class AudioTrack: WaveformSource, @unchecked Sendable {
    public let path: String
    public let sampleRate: Int
    /// The header's frame count, where the format makes it exact.
    private let claimedCount: Int?
    /// The frames decoding found, once the file has been read to its end.
    public private(set) var verifiedCount: Int?
    /// Why the last decoding stopped before the end (a damaged or truncated
    /// file), nil when it read the whole file: the bars then show what was read.
    public private(set) var stoppedEarly: String?

    /// Opens `path`; throws `AudioError` for a missing or unreadable file.
    public init(path: String) throws {
        let reader = try AudioReader(path: path)
        self.path = path
        sampleRate = reader.sampleRate
        claimedCount = reader.countIsExact ? reader.announcedFrames : nil
    }

    public func sampleCount() throws -> Int {
        if let count = verifiedCount ?? claimedCount { return count }
        return try bars(samplesPerBar: Int(Int32.max), maxBars: .max).sampleCount
    }

    public func samplesPerBar(pitch: Int, pixelsPerSecond: Double) -> Int {
        BarPeaks.samplesPerBar(sampleRate: sampleRate, pitch: pitch, pixelsPerSecond: pixelsPerSecond)
    }

    public func bars(samplesPerBar: Int, maxBars: Int) throws -> (peaks: [Float], sampleCount: Int, duration: Double) {
        let reader = try AudioReader(path: path)
        let bars = try BarPeaks.scan(reader, samplesPerBar: samplesPerBar, maxBars: maxBars)
        // A scan cut short at maxBars has not counted the whole track.
        if bars.peaks.count <= maxBars {
            verifiedCount = bars.sampleCount
            stoppedEarly = reader.stoppedEarly
        }
        return (bars.peaks, bars.sampleCount, bars.duration)
    }
}

extension Waveform {
    /// A waveform of this size with the default look, its bars to come from
    /// a source (`scene(from:)`).
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, peaks: [], duration: 1)
    }
}
