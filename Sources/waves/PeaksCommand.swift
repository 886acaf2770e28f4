import ArgumentParser
import WaveCatalogue
import WaveAudio
import WaveCore
import WaveImageIO

/// `waves peaks`: an audio file's min/max peaks in BBC audiowaveform's
/// formats (JSON version 2, binary .dat, its text), for peaks.js,
/// wavesurfer.js, audiowaveform itself, or `--peaks` here; or a peaks file
/// converted. The work is WaveCatalogue's `PeaksRequest`.
struct PeaksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peaks",
        abstract: "Write an audio file's peaks as audiowaveform JSON, .dat or text.",
        discussion: """
            The values are audiowaveform's, byte for byte: samples read as 16-bit integers (a float track's times 32767, \
            truncated), each frame's channels summed and divided by their count toward zero (or one pair a channel with \
            --split-channels); an MP3 decoded by libmad as audiowaveform decodes it; 8-bit values are the 16-bit ones / 256, \
            truncated toward zero. --peaks converts a .dat or JSON file instead (to a coarser --samples-per-pixel, as \
            audiowaveform rescales). An output of - is standard output (this line then goes to stderr).

            Several tracks (--audio a.mp3 b.flac, or a folder: every audio file directly in it) are read in parallel \
            (--jobs), each output named by a pattern holding {name} (the track's name without its extension); an output \
            newer than its track is left as it is unless --force; a track that cannot be read is one line on stderr and \
            the others go on; a summary line ends the run, and the exit status is the first failure's (0 when none failed).

            Examples:
              waves peaks --audio song.mp3 --json song.json
              waves peaks --audio song.flac --dat song.dat --samples-per-pixel 512 --bits 8
              waves peaks --audio song.wav --split-channels --amplitude-scale auto --json - | head -c 200
              waves peaks --peaks song.dat --samples-per-pixel 1024 --txt song.txt
              waves peaks --audio tracks/ --dat 'out/{name}.dat'
              waves render waveform --peaks song.json --out bars.png
            """
    )

    @Option(parsing: .upToNextOption, help: "The audio file (anything libsndfile reads: WAV, FLAC, Ogg/Vorbis, Opus, MP3), or - for standard input; the format is recognised by content. Several files, or folders, for a batch.")
    var audio: [String] = []

    @Option(help: "A peaks file (.dat or JSON, told apart by content; - for standard input) to convert instead of audio.")
    var peaks: String?

    @Option(help: "Write audiowaveform JSON (version 2) to this file (- standard output; a batch: a pattern holding {name}).")
    var json: String?

    @Option(help: "Write audiowaveform binary .dat to this file (version 1 for one channel, as audiowaveform writes it; - standard output; a batch: a pattern).")
    var dat: String?

    @Option(help: "Write audiowaveform's text, a line a pair (- standard output; a batch: a pattern).")
    var txt: String?

    @Option(parsing: .unconditional, help: "A batch's tracks read at once (default: the core count).")
    var jobs: Int?

    @Flag(help: "A batch: write every output, even one newer than its track.")
    var force = false

    @Option(name: .customLong("samples-per-pixel"), parsing: .unconditional, help: "Samples per min/max pair (audiowaveform's -z; default 256, or a peaks file's own).")
    var samplesPerPixel: Int?

    @Option(parsing: .unconditional, help: "Resolution of the values: 8 or 16 bits (default 8, or a peaks file's own).")
    var bits: Int?

    @Flag(name: .customLong("split-channels"), help: "A pair for each channel instead of one for their mix.")
    var splitChannels = false

    @Option(name: .customLong("amplitude-scale"), parsing: .unconditional, help: "auto (scale the values to fill the range, as audiowaveform's auto) or a factor (values held to the range).")
    var amplitudeScale: String?

    @Option(name: .customLong("dat-version"), parsing: .unconditional, help: "A one-channel .dat's version: 1 (audiowaveform's) or 2.")
    var datVersion = 1

    @Flag(help: "Refuse (exit 65, nothing written) a track whose decoding stopped early (damaged or truncated) instead of writing the peaks of what was read, with a warning.")
    var strict = false

    @Flag(name: .customLong("follow-links"), help: ArgumentHelp(AtomicFile.followLinksHelp))
    var followLinks = false

    /// The run these options ask for, checked.
    func request() throws -> PeaksRequest {
        var request = PeaksRequest()
        (request.audio, request.peaksFile, request.json, request.dat, request.txt) = (audio, peaks, json, dat, txt)
        (request.jobs, request.force) = (jobs, force)
        (request.settings.samplesPerPixel, request.settings.bits) = (samplesPerPixel, bits)
        (request.settings.splitChannels, request.settings.datVersion) = (splitChannels, datVersion)
        request.settings.amplitude = try amplitudeScale.map(PeaksSettings.Amplitude.init) ?? .unchanged
        try request.check()
        return request
    }

    func run() throws {
        AtomicFile.followsLinks = followLinks
        DecodeReport.strict = strict
        DecodeReport.outcome = "wrote the peaks of what was read"
        let request = try request()
        guard request.isBatch else {
            let line = try request.run()
            return request.outputs.contains("-") ? printError(line) : print(line)
        }
        let batch = try TrackBatch(audio: audio, jobs: jobs, force: force)
        try batch.checkPatterns([("--json", json), ("--dat", dat), ("--txt", txt)].compactMap { option, pattern in pattern.map { (option, $0) } })
        let outputs = request.outputs
        let summary = batch.run(outputs: { track in outputs.map { TrackBatch.output($0, for: track) } }) { track in try request.work(for: track) }
        try batch.finish(summary, command: "peaks")
    }
}
