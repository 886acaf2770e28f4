import Foundation
import WaveImageIO
import WaveAudio
import WaveCore
import WaveEffects
import WavesKit

/// The waveform preset's input: the track (the generated one of the
/// published length, or the user's audio or peaks) drawn as the waveform
/// effect in the published player's view, and the decoding speed of its formats.
extension WaveformPresetInput {
    /// The generated track of `minutes`, or the user's `--audio` / `--peaks` (`audio` not generated).
    package static func track(minutes: Double, audio: AudioTrack) throws -> WaveformPresetInput {
        let generated: Bool
        if case .generated = audio.source { generated = true } else { generated = false }
        let seconds = generated ? minutes * 60 : Double(try audio.sampleCount()) / Double(audio.sampleRate)
        guard seconds >= 1 else {
            throw ValueError(option: audio.optionName, value: audio.path ?? "", accepted: "a track of at least a second "
                             + "(the preset moves \(Int(WaveformPreset.travel)) px of bars over the whole track)")
        }
        let pps = WaveformPreset.travel / seconds
        let pitch = WaveformPreset.bar.width + WaveformPreset.bar.gap
        let samplesPerBar = { (rate: Int) in BarPeaks.samplesPerBar(sampleRate: rate, pitch: pitch, pixelsPerSecond: pps) }
        let track = generated ? GeneratedTrack(seconds: seconds) : nil
        let peaks = try track.map { try BarPeaks.scan($0, samplesPerBar: samplesPerBar($0.sampleRate)) }
            ?? audio.barPeaks(samplesPerBar: samplesPerBar(audio.sampleRate))
        let view: (Double, Bool, SplitMethod) throws -> WaveformPresetView = { playedFraction, snap, composition in
            var w = Waveform(width: WaveformPreset.view.width, height: WaveformPreset.view.height, peaks: peaks.peaks,
                             duration: peaks.duration)
            w.barWidth = WaveformPreset.bar.width
            w.barGap = WaveformPreset.bar.gap
            w.pixelsPerSecond = pps
            w.playhead = playedFraction
            w.playedTop = RGBA8(0xFF, 0x55, 0x00)
            w.playedBottom = RGBA8(0xFF, 0xA0, 0x30)
            w.unplayed = RGBA8(0xCC, 0xCC, 0xCC)
            w.snapToPixel = snap
            w.composition = composition
            return WaveformPresetView(scene: try w.scene(), unplayed: w.unplayed,
                                      playback: WaveformPreset.Playback(offset: w.contentOffset(at:), playheadColumn: w.playheadColumn(at:)))
        }
        return WaveformPresetInput(trackSeconds: peaks.duration, view: view) {
            switch audio.source {
            case .generated: return try decodeSpeed(seconds: seconds)
            case let .audio(path: path): return [try decodeSpeed(of: path, samplesPerBar: samplesPerBar(audio.sampleRate))]
            case .peaks: return []
            }
        }
    }

    /// The user's file decoded to the preset's bar peaks.
    static func decodeSpeed(of path: String, samplesPerBar: Int) throws -> DecodeResult {
        let start = Clocks.wall()
        let reader = try AudioReader(path: path)
        let peaks = try BarPeaks.scan(reader, samplesPerBar: samplesPerBar)
        try DecodeReport.check(reader)
        let format = URL(fileURLWithPath: path).pathExtension.lowercased()
        return DecodeResult(format: format.isEmpty ? "audio" : format, audioSeconds: peaks.duration, decodeSeconds: Clocks.wall() - start)
    }

    /// The track at 44.1 kHz written as WAV and MP3 (libsndfile's encoder),
    /// then each decoded to the preset's bar peaks: wall time, files in a
    /// temporary folder removed afterwards.
    static func decodeSpeed(seconds: Double) throws -> [DecodeResult] {
        // A fresh folder of our own (mkdtemp): nothing planted there beforehand is written through.
        var template = Array((NSTemporaryDirectory() + "waves-decode-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw FileError.cannotWrite(path: NSTemporaryDirectory(), reason: String(cString: strerror(errno)))
        }
        let folder = String(cString: template)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let track = GeneratedTrack(seconds: seconds, sampleRate: 44100)
        let samplesPerBar = BarPeaks.samplesPerBar(sampleRate: 44100, pitch: 2, pixelsPerSecond: WaveformPreset.travel / seconds)
        return try [AudioWriter.Format.wav, .mp3].map { format in
            let path = folder + "/track." + format.rawValue
            try AudioWriter.write(to: path, format: format, sampleRate: 44100, frames: track.sampleCount) { n, _ in track.sample(n) }
            let start = Clocks.wall()
            let peaks = try BarPeaks.scan(try AudioReader(path: path), samplesPerBar: samplesPerBar)
            return DecodeResult(format: format.rawValue, audioSeconds: peaks.duration, decodeSeconds: Clocks.wall() - start)
        }
    }
}
