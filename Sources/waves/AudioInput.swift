import Foundation
import WaveAudio
import WaveCore
import WaveEffects

/// Where the waveform's samples come from: an audio file (libsndfile), an
/// audiowaveform peaks file, or the built-in generated track. Peaks are
/// computed once per bar size and kept, so the demo's resizes do not decode
/// again unless the bar grid changed (fit mode).
final class AudioInput {
    enum Source {
        case audio(String)
        case peaks(WaveformData, path: String)
        case generated(seconds: Double)
    }

    let source: Source
    let sampleRate: Int
    private var cachedCount: Int?
    private var cache: [Int: BarPeaks] = [:]

    /// Opens (and for peaks files, reads) the input, so a bad file fails before any work.
    init(audio: String?, peaks: String?) throws {
        switch (audio, peaks) {
        case let (audio?, nil):
            source = .audio(audio)
            let reader = try AudioReader(path: audio)
            sampleRate = reader.sampleRate
            // The header's count (an MP3's is an estimate) plans the grid; a scan replaces it with the exact one.
            if reader.announcedFrames > 0 { cachedCount = reader.announcedFrames }
        case let (nil, peaks?):
            let data = try WaveformData.read(path: peaks)
            source = .peaks(data, path: peaks)
            sampleRate = data.sampleRate
            cachedCount = data.length * data.samplesPerPixel
        case (nil, nil):
            let track = GeneratedTrack(seconds: Self.generatedSeconds)
            source = .generated(seconds: Self.generatedSeconds)
            sampleRate = track.sampleRate
            cachedCount = track.sampleCount
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

    private func makeReader() throws -> SampleSource {
        switch source {
        case let .audio(path): return try AudioReader(path: path)
        case let .generated(seconds): return GeneratedTrack(seconds: seconds)
        case let .peaks(_, path): throw AudioError.unreadable(path: path, reason: "a peaks file holds no samples to decode")
        }
    }

    /// Samples in the track, for planning the bar grid and its length before
    /// any decoding: exact once bars were scanned, and for peaks files and the
    /// generated track; before that, an audio file's header count (an MP3's
    /// is an estimate), or a counting pass where the header has none.
    func sampleCount() throws -> Int {
        if let cachedCount { return cachedCount }
        let count = try BarPeaks.scan(try makeReader(), samplesPerBar: Int(Int32.max)).sampleCount
        guard count > 0 else {
            if case let .audio(path) = source { throw AudioError.unreadable(path: path, reason: "the track is empty") }
            throw AudioError.unreadable(path: "the track", reason: "it is empty")
        }
        cachedCount = count
        return count
    }

    /// Peaks for bars of `samplesPerBar` samples.
    func barPeaks(samplesPerBar: Int) throws -> BarPeaks {
        if let cached = cache[samplesPerBar] { return cached }
        let peaks: BarPeaks
        if case let .peaks(data, _) = source {
            peaks = data.barPeaks(samplesPerBar: samplesPerBar)
        } else {
            peaks = try BarPeaks.scan(try makeReader(), samplesPerBar: samplesPerBar)
        }
        if peaks.sampleCount == 0 {
            switch source {
            case let .audio(path): throw AudioError.unreadable(path: path, reason: "the track is empty")
            case let .peaks(_, path): throw AudioError.unreadable(path: path, reason: "it holds no peaks")
            case .generated: break
            }
        }
        cachedCount = peaks.sampleCount
        cache[samplesPerBar] = peaks
        return peaks
    }
}
