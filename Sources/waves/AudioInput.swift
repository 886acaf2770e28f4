import Foundation
import WaveAudio
import WaveCore
import WaveEffects

/// Where the waveform's samples come from: an audio file (libsndfile), an
/// audiowaveform peaks file, or the built-in generated track. Peaks are
/// computed once per bar size and kept, so the demo's resizes do not decode
/// again unless the bar grid changed (fit mode). A track's length is only
/// ever an exact count: a header's where it is exact, else what decoding to
/// the real end found; never a guess.
final class AudioInput {
    enum Source {
        case audio(String)
        case peaks(WaveformData, path: String)
        case generated(seconds: Double)
    }

    let source: Source
    let sampleRate: Int
    /// The samples drawn: [start, start + count) of the track (count nil: to its end).
    let segment: (start: Int, count: Int?)
    /// The track's channels (a peaks file's; 1 for the generated track).
    let channels: Int
    /// Samples in the track as its header claims them (an audio file's exact
    /// count, never an estimate), until decoding has counted them.
    private var claimedCount: Int?
    /// Samples in the track, known for certain: a peaks file's, the generated
    /// track's, or what decoding to the end found.
    private(set) var verifiedCount: Int?
    private var cache: [CacheKey: BarPeaks] = [:]

    /// Opens (and for peaks files, reads) the input, so a bad file fails before any work.
    /// `start` and `end` (seconds of the track, end nil: to its end) choose a segment.
    init(audio: String?, peaks: String?, start: Double = 0, end: Double? = nil) throws {
        func segment(rate: Int) -> (start: Int, count: Int?) {
            let first = Int((start * Double(rate)).rounded())
            return (first, end.map { max(0, Int(($0 * Double(rate)).rounded()) - first) })
        }
        func within(_ total: Int?) -> Int? {
            guard let total else { return nil }
            let left = max(0, total - segment(rate: sampleRate).start)
            return segment(rate: sampleRate).count.map { min($0, left) } ?? left
        }
        switch (audio, peaks) {
        case let (audio?, nil):
            source = .audio(audio)
            let reader = try AudioReader(path: audio)
            sampleRate = reader.sampleRate
            channels = reader.channels
            self.segment = segment(rate: sampleRate)
            if reader.countIsExact { claimedCount = within(reader.announcedFrames) }
        case let (nil, peaks?):
            let data = try WaveformData.read(path: peaks)
            source = .peaks(data, path: peaks)
            sampleRate = data.sampleRate
            channels = data.channels
            self.segment = segment(rate: sampleRate)
            verifiedCount = within(data.sampleCount)
        case (nil, nil):
            let track = GeneratedTrack(seconds: Self.generatedSeconds)
            source = .generated(seconds: Self.generatedSeconds)
            sampleRate = track.sampleRate
            channels = 1
            self.segment = segment(rate: sampleRate)
            verifiedCount = within(track.sampleCount)
        case let (audio?, _?):
            throw UsageError(option: "--peaks", value: audio, accepted: "either --audio or --peaks, not both")
        }
    }

    /// The option that named the input, and its file, for messages.
    var optionName: String {
        switch source {
        case .audio: "--audio"
        case .peaks: "--peaks"
        case .generated: "--track-minutes"
        }
    }

    var path: String? {
        switch source {
        case let .audio(path): path
        case let .peaks(_, path): path
        case .generated: nil
        }
    }

    /// The built-in track's length: three minutes.
    static let generatedSeconds = 180.0

    /// Samples in the track, to plan a grid before any decoding: the count
    /// known for certain, else the header's exact count (a plan checked by
    /// the scan: `WaveformOptions.scene` plans again where they differ), else
    /// a counting pass that decodes to the real end (a damaged file's end
    /// included). Never an estimate.
    func sampleCount() throws -> Int {
        if let count = verifiedCount ?? claimedCount { return count }
        return try barPeaks(samplesPerBar: Int(Int32.max)).sampleCount
    }

    /// Peaks for bars of `samplesPerBar` samples, read to the end or until
    /// there are more than `maxBars` (a track too long to draw: the result
    /// is then partial, not kept). A track whose decoding stopped early is
    /// reported (or refused under --strict) by `DecodeReport`.
    /// `channel`: that channel's bars alone (nil: the mix).
    func barPeaks(samplesPerBar: Int, maxBars: Int = .max, channel: Int? = nil) throws -> BarPeaks {
        let key = CacheKey(samplesPerBar: samplesPerBar, channel: channel)
        if let cached = cache[key] { return cached }
        let peaks: BarPeaks
        // The segment's samples of a mono source (all of them without one).
        func segmented(_ source: SampleSource) -> SampleSource {
            segment.start == 0 && segment.count == nil ? source : TrackSegment(source, start: segment.start, count: segment.count ?? .max)
        }
        switch source {
        case let .peaks(data, path):
            let part = segment.start == 0 && segment.count == nil ? data : data.segment(start: segment.start, count: segment.count ?? .max)
            peaks = part.barPeaks(samplesPerBar: samplesPerBar, channel: channel)
            if peaks.sampleCount == 0 {
                throw AudioError.unreadable(path: path, reason: part.length < data.length ? "it holds no peaks from --start on" : "it holds no peaks")
            }
        case let .audio(path):
            let reader = try AudioReader(path: path, channel: channel)
            peaks = try BarPeaks.scan(segmented(reader), samplesPerBar: samplesPerBar, maxBars: maxBars)
            guard peaks.peaks.count <= maxBars else { return peaks }
            if peaks.sampleCount == 0 { throw AudioError.unreadable(path: path, reason: "the track ends before --start") }
            // A segment that ends before the track does is read in full without reaching the end.
            if segment.count == nil || peaks.sampleCount < segment.count! { try DecodeReport.check(reader) }
        case let .generated(seconds):
            peaks = try BarPeaks.scan(segmented(GeneratedTrack(seconds: seconds)), samplesPerBar: samplesPerBar)
            if peaks.sampleCount == 0 { throw UsageError(option: "--start", value: "", accepted: "a time within the track (\(Int(seconds)) s)") }
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

/// A track whose decoding stopped early (damaged or truncated): one warning
/// line on stderr per input, what decoded drawn or written; under `--strict`
/// (render, peaks) the same line as the error, exit 65, nothing written.
enum DecodeReport {
    nonisolated(unsafe) static var strict = false
    /// What the command does with what was read, for the warning ("drew what was read").
    nonisolated(unsafe) static var outcome = "drew what was read"
    nonisolated(unsafe) private static var warned: Set<String> = []
    private static let lock = NSLock()

    /// Call once `reader` has been read to its end (from any thread: a batch reads tracks in parallel).
    static func check(_ reader: AudioReader) throws {
        guard let report = reader.stoppedEarly else { return }
        if strict { throw AudioError.stoppedEarly(path: reader.path, report: report) }
        lock.lock()
        let first = warned.insert(reader.path).inserted
        lock.unlock()
        if first { printError("waves: \(reader.path): \(report); \(outcome)") }
    }
}
