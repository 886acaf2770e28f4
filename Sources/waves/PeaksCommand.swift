import ArgumentParser
import Foundation
import WaveAudio
import WaveImageIO

/// `waves peaks`: an audio file's min/max peaks in BBC audiowaveform's
/// formats (JSON version 2, binary .dat version 2), for peaks.js,
/// wavesurfer.js, audiowaveform itself, or `--peaks` here.
struct PeaksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peaks",
        abstract: "Write an audio file's peaks as audiowaveform JSON or .dat.",
        discussion: """
            Channels are mixed to mono (their mean). Values: round(sample * 32768) held to 16 bits; 8-bit values are \
            that / 256, truncated toward zero, as audiowaveform writes them.

            Examples:
              waves peaks --audio song.mp3 --json song.json
              waves peaks --audio song.flac --dat song.dat --samples-per-pixel 512 --bits 8
              waves render --scene waveform --peaks song.json --out bars.png
            """
    )

    @Option(help: "The audio file (anything libsndfile reads: WAV, FLAC, Ogg/Vorbis, Opus, MP3), or - for standard input; the format is recognised by content.")
    var audio: String

    @Option(help: "Write audiowaveform JSON (version 2) to this file.")
    var json: String?

    @Option(help: "Write audiowaveform binary .dat (version 2) to this file.")
    var dat: String?

    @Option(name: .customLong("samples-per-pixel"), parsing: .unconditional, help: "Samples per min/max pair (audiowaveform's -z).")
    var samplesPerPixel: Int = 256

    @Option(parsing: .unconditional, help: "Resolution of the values: 8 or 16 bits.")
    var bits: Int = 8

    @Flag(help: "Refuse (exit 65, nothing written) a track whose decoding stopped early (damaged or truncated) instead of writing the peaks of what was read, with a warning.")
    var strict = false

    func run() throws {
        DecodeReport.strict = strict
        DecodeReport.outcome = "wrote the peaks of what was read"
        guard json != nil || dat != nil else {
            throw UsageError(option: "--json", value: "(none)", accepted: "--json FILE or --dat FILE (or both)")
        }
        guard (2...100_000_000).contains(samplesPerPixel) else {
            throw UsageError(option: "--samples-per-pixel", value: "\(samplesPerPixel)",
                             accepted: "a whole number from 2 (audiowaveform's smallest) to 100000000")
        }
        guard bits == 8 || bits == 16 else {
            throw UsageError(option: "--bits", value: "\(bits)", accepted: "8 or 16")
        }
        for path in [json, dat].compactMap({ $0 }) { try OutputPaths.checkFile(path) }
        let reader = try AudioReader(path: audio)
        let data = try WaveformData.scan(reader, samplesPerPixel: samplesPerPixel, bits: bits)
        try DecodeReport.check(reader)
        if let json { try AtomicFile.write(data.json(), to: json) }
        if let dat { try AtomicFile.write(data.dat(), to: dat) }
        print("wrote \([json, dat].compactMap { $0 }.joined(separator: ", ")): \(data.length) peaks of \(samplesPerPixel) samples at \(data.sampleRate) Hz, \(bits)-bit")
    }
}
