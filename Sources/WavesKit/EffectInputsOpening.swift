import Foundation
import WaveAudio
import WaveCore
import WaveEffects

/// Opens the files an effect names (`EffectInputs`, declared with the
/// effects): the waveform's track or peaks, once a run (decoding is the
/// expensive part), and the outline's path data. A batch of tracks is the
/// render's and the peaks' own (WaveCatalogue's `TrackBatch`). See README.md, "The waveform".
extension EffectInputs {
    /// The one audio file, nil for none (the generated track) or a batch.
    package var audioFile: String? { audio.count == 1 && !InputFile.isFolder(audio[0]) ? audio[0] : nil }

    package var isBatch: Bool { InputFile.isBatch(audio) }

    /// Opened once: decoding is the expensive part.
    nonisolated(unsafe) private static var opened: [String: AudioTrack] = [:]

    /// The waveform's source: the audio file or peaks, or the generated track.
    package func waveformInput() throws -> AudioTrack {
        let key = "\(audioFile ?? "")|\(peaks ?? "")|\(start ?? 0)|\(end ?? -1)"
        if let input = Self.opened[key] { return input }
        let input = try Self.track(audio: audioFile, peaks: peaks, start: start ?? 0, end: end)
        Self.opened[key] = input
        return input
    }

    /// A track opened for the command line: a decoding that stops early is reported (`DecodeReport`).
    package static func track(audio: String?, peaks: String?, start: Double, end: Double?) throws -> AudioTrack {
        let track = try AudioTrack(audio: audio, peaks: peaks, start: start, end: end)
        track.onStoppedEarly = { try DecodeReport.report(path: $0, $1) }
        return track
    }

    /// One track here (several are the render's and the peaks' own), its
    /// batch options only with several, and the input opened.
    package func checkWaveformInput() throws {
        if isBatch {
            throw ValueError(option: "--audio", value: audio.joined(separator: " "),
                             accepted: "one audio file here (several tracks, or a folder, with waves render waveform or waves peaks)")
        }
        let several = "only when several tracks are drawn (waves render waveform --audio with several files or a folder)"
        if let jobs { throw ValueError(option: "--jobs", value: "\(jobs)", accepted: several) }
        if force { throw ValueError(option: "--force", value: "", accepted: several) }
        _ = try waveformInput()
    }

    /// The outline's path data, read and parsed: a missing file is 66, bytes
    /// that are not path data (or a coordinate that is not finite) 65.
    package func outlinePath() throws -> Path {
        guard let outline else { throw ValueError(option: "--outline", value: "(none)", accepted: "a file of SVG path data") }
        let input = try InputFile.open(outline)
        var data = try input.bytes(limit: 16 << 20)
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        guard let text = String(data: data, encoding: .utf8) else {
            throw AudioError.unreadable(path: input.name, reason: "it is not UTF-8 text")
        }
        do {
            let path = try PathData.parse(text)
            guard !path.isEmpty else { throw AudioError.unreadable(path: input.name, reason: "it holds no path") }
            return path
        } catch let error as PathData.SyntaxError {
            throw AudioError.unreadable(path: input.name, reason: "\(error)")
        } catch let error as PathError {
            throw AudioError.unreadable(path: input.name, reason: "\(error)")
        }
    }
}
