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
    /// Samples in the track as its header claims them (an audio file's exact
    /// count, never an estimate), until decoding has counted them.
    private var claimedCount: Int?
    /// Samples in the track, known for certain: a peaks file's, the generated
    /// track's, or what decoding to the end found.
    private(set) var verifiedCount: Int?
    private var cache: [Int: BarPeaks] = [:]

    /// Opens (and for peaks files, reads) the input, so a bad file fails before any work.
    init(audio: String?, peaks: String?) throws {
        switch (audio, peaks) {
        case let (audio?, nil):
            source = .audio(audio)
            let reader = try AudioReader(path: audio)
            sampleRate = reader.sampleRate
            if reader.countIsExact { claimedCount = reader.announcedFrames }
        case let (nil, peaks?):
            let data = try WaveformData.read(path: peaks)
            source = .peaks(data, path: peaks)
            sampleRate = data.sampleRate
            verifiedCount = data.sampleCount
        case (nil, nil):
            let track = GeneratedTrack(seconds: Self.generatedSeconds)
            source = .generated(seconds: Self.generatedSeconds)
            sampleRate = track.sampleRate
            verifiedCount = track.sampleCount
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
    func barPeaks(samplesPerBar: Int, maxBars: Int = .max) throws -> BarPeaks {
        if let cached = cache[samplesPerBar] { return cached }
        let peaks: BarPeaks
        switch source {
        case let .peaks(data, path):
            peaks = data.barPeaks(samplesPerBar: samplesPerBar)
            if peaks.sampleCount == 0 { throw AudioError.unreadable(path: path, reason: "it holds no peaks") }
        case let .audio(path):
            let reader = try AudioReader(path: path)
            peaks = try BarPeaks.scan(reader, samplesPerBar: samplesPerBar, maxBars: maxBars)
            guard peaks.peaks.count <= maxBars else { return peaks }
            try DecodeReport.check(reader)
        case let .generated(seconds):
            peaks = try BarPeaks.scan(GeneratedTrack(seconds: seconds), samplesPerBar: samplesPerBar)
        }
        verifiedCount = peaks.sampleCount
        cache[samplesPerBar] = peaks
        return peaks
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

    /// Call once `reader` has been read to its end.
    static func check(_ reader: AudioReader) throws {
        guard let report = reader.stoppedEarly else { return }
        if strict { throw AudioError.stoppedEarly(path: reader.path, report: report) }
        if warned.insert(reader.path).inserted { printError("waves: \(reader.path): \(report); \(outcome)") }
    }
}
