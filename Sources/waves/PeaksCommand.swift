import ArgumentParser
import Foundation
import WaveCatalogue
import WaveAudio
import WaveCore
import WaveImageIO

/// `waves peaks`: an audio file's min/max peaks in BBC audiowaveform's
/// formats (JSON version 2, binary .dat version 1 mono), for peaks.js,
/// wavesurfer.js, audiowaveform itself, or `--peaks` here.
struct PeaksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peaks",
        abstract: "Write an audio file's peaks as audiowaveform JSON or .dat.",
        discussion: """
            The values are audiowaveform's: samples read as 16-bit integers (a float track's times 32767, truncated), \
            each frame's channels summed and divided by their count toward zero; 8-bit values are the 16-bit ones / 256, \
            truncated toward zero. WAV, FLAC, Ogg and Opus peaks are audiowaveform's byte for byte (MP3 is decoded by \
            libsndfile's mpg123, not libmad: close, not the same).

            Several tracks (--audio a.mp3 b.flac, or a folder: every audio file directly in it) are read in parallel \
            (--jobs), each output named by a pattern holding {name} (the track's name without its extension); an output \
            newer than its track is left as it is unless --force; a track that cannot be read is one line on stderr and \
            the others go on; a summary line ends the run, and the exit status is the first failure's (0 when none failed).

            Examples:
              waves peaks --audio song.mp3 --json song.json
              waves peaks --audio song.flac --dat song.dat --samples-per-pixel 512 --bits 8
              waves peaks --audio tracks/ --dat 'out/{name}.dat'
              waves render waveform --peaks song.json --out bars.png
            """
    )

    @Option(parsing: .upToNextOption, help: "The audio file (anything libsndfile reads: WAV, FLAC, Ogg/Vorbis, Opus, MP3), or - for standard input; the format is recognised by content. Several files, or folders, for a batch.")
    var audio: [String]

    @Option(help: "Write audiowaveform JSON (version 2) to this file (a batch: a pattern holding {name}).")
    var json: String?

    @Option(help: "Write audiowaveform binary .dat (version 1) to this file (a batch: a pattern holding {name}).")
    var dat: String?

    @Option(parsing: .unconditional, help: "A batch's tracks read at once (default: the core count).")
    var jobs: Int?

    @Flag(help: "A batch: write every output, even one newer than its track.")
    var force = false

    @Option(name: .customLong("samples-per-pixel"), parsing: .unconditional, help: "Samples per min/max pair (audiowaveform's -z).")
    var samplesPerPixel: Int = 256

    @Option(parsing: .unconditional, help: "Resolution of the values: 8 or 16 bits.")
    var bits: Int = 8

    @Flag(help: "Refuse (exit 65, nothing written) a track whose decoding stopped early (damaged or truncated) instead of writing the peaks of what was read, with a warning.")
    var strict = false

    @Flag(name: .customLong("follow-links"), help: ArgumentHelp(AtomicFile.followLinksHelp))
    var followLinks = false

    func run() throws {
        AtomicFile.followsLinks = followLinks
        DecodeReport.strict = strict
        DecodeReport.outcome = "wrote the peaks of what was read"
        try checkOptions()
        if InputFile.isBatch(audio) { return try runBatch() }
        if let jobs { throw ValueError(option: "--jobs", value: "\(jobs)", accepted: "only when several tracks are read (--audio with several files or a folder)") }
        if force { throw ValueError(option: "--force", value: "", accepted: "only when several tracks are read (--audio with several files or a folder)") }
        guard let audio = audio.first else { throw ValueError(option: "--audio", value: "(none)", accepted: "an audio file, several, or a folder") }
        ProtectedInputs.add(audio)
        for path in [json, dat].compactMap({ $0 }) { try OutputPaths.checkFile(path) }
        let data = try WaveformData.peaks(of: audio, samplesPerPixel: samplesPerPixel, bits: bits)
        try data.write(json: json, dat: dat)
        print("wrote \([json, dat].compactMap { $0 }.joined(separator: ", ")): \(data.length) peaks of \(samplesPerPixel) samples at \(data.sampleRate) Hz, \(bits)-bit")
    }

    /// The outputs and the peaks' resolution.
    func checkOptions() throws {
        guard json != nil || dat != nil else {
            throw ValueError(option: "--json", value: "(none)", accepted: "--json FILE or --dat FILE (or both)")
        }
        try WaveformData.checkResolution(samplesPerPixel: samplesPerPixel, bits: bits)
    }

    /// Every track's peaks, `jobs` at a time, each written to its pattern's files.
    private func runBatch() throws {
        let batch = try TrackBatch(audio: audio, jobs: jobs, force: force)
        try batch.checkPatterns([("--json", json), ("--dat", dat)].compactMap { option, pattern in pattern.map { (option, $0) } })
        let (json, dat, samplesPerPixel, bits) = (self.json, self.dat, self.samplesPerPixel, self.bits)
        let summary = batch.run(outputs: { track in [json, dat].compactMap { $0.map { TrackBatch.output($0, for: track) } } }) { track in
            let data = try WaveformData.peaks(of: track, samplesPerPixel: samplesPerPixel, bits: bits)
            return { try data.write(json: json.map { TrackBatch.output($0, for: track) }, dat: dat.map { TrackBatch.output($0, for: track) }) }
        }
        try batch.finish(summary, command: "peaks")
    }
}
