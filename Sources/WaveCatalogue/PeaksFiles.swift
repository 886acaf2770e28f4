import Foundation
import WaveAudio
import WaveCore
import WaveImageIO

/// What `waves peaks` (and a batch's peaks item) makes of a track or a
/// peaks file: audiowaveform's settings in Waves' names, one implementation
/// with `waves audiowaveform` (`WaveformData.make`, `scaled`, `rescaled`).
package struct PeaksSettings: Sendable {
    /// Samples a pair; nil: 256 for audio, a peaks file's own.
    package var samplesPerPixel: Int?
    /// 8 or 16; nil: 8 for audio, a peaks file's own.
    package var bits: Int?
    /// One pair a channel (audiowaveform's --split-channels) instead of the mix.
    package var splitChannels = false
    /// The values scaled: not at all, to fill the range (`auto`), or by a factor.
    package var amplitude = Amplitude.unchanged
    /// A one-channel .dat's version: 1 (audiowaveform's) or 2; several channels are always 2.
    package var datVersion = 1

    package enum Amplitude: Sendable, Equatable {
        case unchanged, auto
        case factor(Double)

        /// `--amplitude-scale`'s value: `auto` or a number from 0 up.
        package init(_ text: String) throws {
            if text == "auto" { self = .auto; return }
            guard let value = Double(text), value.isFinite, value >= 0 else {
                throw ValueError(option: "--amplitude-scale", value: text, accepted: "auto, or a number from 0 up (1 leaves the values as they are)")
            }
            self = value == 1 ? .unchanged : .factor(value)
        }
    }

    package init() {}

    /// The resolution asked for: audiowaveform's range of samples a pair, 8 or 16 bits, a .dat version.
    package func check() throws {
        if let samplesPerPixel, !(2...100_000_000).contains(samplesPerPixel) {
            throw ValueError(option: "--samples-per-pixel", value: "\(samplesPerPixel)",
                             accepted: "a whole number from 2 (audiowaveform's smallest) to 100000000")
        }
        if let bits, bits != 8 && bits != 16 {
            throw ValueError(option: "--bits", value: "\(bits)", accepted: "8 or 16")
        }
        guard datVersion == 1 || datVersion == 2 else {
            throw ValueError(option: "--dat-version", value: "\(datVersion)", accepted: "1 (audiowaveform's for one channel) or 2")
        }
    }
}

extension WaveformData {
    /// A track's peaks as audiowaveform makes them (any thread: nothing here
    /// is shared): recognised by content, an MP3 decoded by libmad as
    /// audiowaveform decodes it, everything else by libsndfile.
    package static func peaks(of track: String, settings: PeaksSettings) throws -> WaveformData {
        let reader = try AudioReader(path: track)
        let samplesPerPixel = settings.samplesPerPixel ?? 256
        var data: WaveformData
        if reader.isMPEG {
            let decoder = try MP3Decoder(input: InputFile.open(track))
            data = try make(decoder, samplesPerPixel: samplesPerPixel, splitChannels: settings.splitChannels)
            if decoder.skippedFrames > 0 { try DecodeReport.report(path: decoder.path, "\(decoder.skippedFrames) damaged frames skipped") }
        } else {
            data = try make(reader, samplesPerPixel: samplesPerPixel, splitChannels: settings.splitChannels)
            try DecodeReport.check(reader)
        }
        return data.scaled(settings.amplitude).atBits(settings.bits ?? 8)
    }

    /// A peaks file's peaks converted: rescaled to a coarser `samplesPerPixel`
    /// where one is asked for, scaled, at the bits asked for (else its own).
    package static func peaks(ofFile path: String, settings: PeaksSettings) throws -> WaveformData {
        var data = try read(path: path)
        let bits = settings.bits ?? data.bits
        if let wanted = settings.samplesPerPixel, wanted != data.samplesPerPixel {
            guard wanted > data.samplesPerPixel else {
                throw ValueError(option: "--samples-per-pixel", value: "\(wanted)",
                                 accepted: "at least the peaks file's own \(data.samplesPerPixel) (pairs are only ever merged)")
            }
            data = data.rescaled(to: wanted)
        }
        return data.scaled(settings.amplitude).atBits(bits)
    }

    /// The values scaled as `amplitude` says (16 bits where they change).
    func scaled(_ amplitude: PeaksSettings.Amplitude) -> WaveformData {
        switch amplitude {
        case .unchanged: return self
        case .auto: return scaled(by: fullScaleFactor)
        case let .factor(factor): return scaled(by: factor)
        }
    }

    /// The peaks written whole to each file named (`-`: standard output) as
    /// JSON, .dat (`datVersion` for one channel) or audiowaveform's text.
    package func write(json: String?, dat: String?, txt: String? = nil, datVersion: Int = 1) throws {
        // The encoded file and its copy: at most 7 bytes a value as JSON, twice.
        let bytes = self.data.count * 14
        let outputs: [(String?, String, () -> Data)] = [(json, "JSON", { self.json() }), (dat, ".dat", { self.dat(version: datVersion) }),
                                                        (txt, "text", { self.txt() })]
        for case let (path?, name, encode) in outputs {
            let encoded = try CheckedMemory.allocating(bytes: bytes, for: "the peaks as \(name)") { encode() }
            if path == "-" { try StandardOutput.write(encoded) } else { try AtomicFile.write(encoded, to: path) }
        }
    }
}

/// One run of `waves peaks`: its inputs (tracks, or one peaks file), its
/// outputs (JSON, .dat, text; `-` is standard output) and settings, checked
/// before anything is read.
package struct PeaksRequest {
    package var audio: [String] = []
    /// A peaks file to convert or rescale instead of audio.
    package var peaksFile: String?
    package var json, dat, txt: String?
    package var settings = PeaksSettings()
    package var jobs: Int?
    package var force = false

    package init() {}

    /// The outputs named, in the order JSON, .dat, text.
    package var outputs: [String] { [json, dat, txt].compactMap { $0 } }
    /// Whether several tracks are read (`TrackBatch`).
    package var isBatch: Bool { InputFile.isBatch(audio) }

    /// Each refusal one line naming what is wrong and what is accepted.
    package func check() throws {
        guard !outputs.isEmpty else {
            throw ValueError(option: "--json", value: "(none)", accepted: "--json FILE, --dat FILE or --txt FILE (any of them; - for standard output)")
        }
        guard outputs.filter({ $0 == "-" }).count <= 1 else {
            throw ValueError(option: "--json/--dat/--txt", value: "-", accepted: "standard output for one output at most")
        }
        try settings.check()
        if let peaksFile {
            guard audio.isEmpty else { throw ValueError(option: "--peaks", value: peaksFile, accepted: "either --audio or --peaks, not both") }
            if settings.splitChannels {
                throw ValueError(option: "--split-channels", value: "", accepted: "only with --audio (a peaks file's channels are its own)")
            }
        } else if audio.isEmpty {
            throw ValueError(option: "--audio", value: "(none)", accepted: "an audio file, several, or a folder (or --peaks FILE to convert)")
        }
        if !isBatch {
            let onlyBatch = "only when several tracks are read (--audio with several files or a folder)"
            if let jobs { throw ValueError(option: "--jobs", value: "\(jobs)", accepted: onlyBatch) }
            if force { throw ValueError(option: "--force", value: "", accepted: onlyBatch) }
        } else if outputs.contains("-") {
            throw ValueError(option: "--json/--dat/--txt", value: "-", accepted: "a pattern holding {name} for each output when several tracks are read")
        }
    }

    /// One track's (or the peaks file's) peaks, written; returns the line that says what was written.
    package func run() throws -> String {
        let input = peaksFile ?? audio[0]
        ProtectedInputs.add(input)
        for path in outputs where path != "-" { try OutputPaths.checkFile(path) }
        let data = peaksFile != nil ? try WaveformData.peaks(ofFile: input, settings: settings) : try WaveformData.peaks(of: input, settings: settings)
        try data.write(json: json, dat: dat, txt: txt, datVersion: settings.datVersion)
        let named = outputs.map { $0 == "-" ? "standard output" : $0 }.joined(separator: ", ")
        return "wrote \(named): \(data.length) peaks of \(data.samplesPerPixel) samples at \(data.sampleRate) Hz, \(data.bits)-bit"
            + (data.channels > 1 ? ", \(data.channels) channels" : "")
    }

    /// A batch's work for one track: its peaks made (any thread), then the
    /// writes to its outputs (patterns holding {name}, or with `literal` the paths as they are).
    package func work(for track: String, literal: Bool = false) throws -> () throws -> Void {
        let data = try WaveformData.peaks(of: track, settings: settings)
        let (json, dat, txt, version) = (json, dat, txt, settings.datVersion)
        func path(_ pattern: String?) -> String? { literal ? pattern : pattern.map { TrackBatch.output($0, for: track) } }
        return { try data.write(json: path(json), dat: path(dat), txt: path(txt), datVersion: version) }
    }
}
