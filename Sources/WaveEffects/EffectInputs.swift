import WaveCore

/// The files an effect is drawn from, as the command line names them,
/// declared once: the waveform's audio (one file, or several files and
/// folders for a batch of images) or peaks, the segment of the track it
/// draws, and the outline's path data. The command line opens them (the
/// effect is handed what was read: `EffectSettings.waveformSource`,
/// `EffectSettings.outline`).
public struct EffectInputs: Equatable, Sendable {
    public var audio: [String] = []
    public var peaks: String?
    public var start: Double?
    public var end: Double?
    public var jobs: Int?
    public var force = false
    public var outline: String?

    public init() {}

    /// The longest track time a segment may name.
    public static let latestTime = 1e7

    public static let parameters = ParameterList(defaults: EffectInputs(), [
        .list("audio", \.audio, valueName: "file",
              help: "An audio file (WAV, FLAC, Ogg/Vorbis, Opus, MP3: anything libsndfile reads, recognised by content), or - for standard input; waves render: several files or folders for a batch, each track's image named by --out's pattern holding {name}.",
              defaultText: "a generated 3-minute track"),
        .text("peaks", \.peaks, valueName: "file", accepted: "a file name, or - for standard input",
              help: "An audiowaveform peaks file (JSON or .dat, recognised by content), or - for standard input, instead of --audio."),
        .number("start", \.start, 0...latestTime, what: "seconds", valueName: "seconds",
                help: "Draw the track from this many seconds in (audiowaveform's --start); the playhead's time stays the track's.",
                defaultText: "0"),
        .number("end", \.end, 0...latestTime, above: true, what: "seconds", valueName: "seconds",
                help: "Draw the track up to this many seconds in (audiowaveform's --end).", defaultText: "its end"),
        .whole("jobs", \.jobs, 1...1024, what: "jobs", help: "waves render, several tracks: how many are drawn at once.",
               defaultText: "the core count"),
        .flag("force", \.force, help: "waves render, several tracks: draw every image, even one newer than its track."),
        .text("outline", \.outline, valueName: "file", accepted: "a file of SVG path data, or - for standard input",
              help: "A file of SVG path data in pixels (- for standard input): M, L, H, V, Q, T, C, S, Z, absolute or relative; cubic curves are drawn as quadratic ones; arcs (A) are refused."),
    ], rules: [{ inputs in
        if let end = inputs.end, end <= inputs.start ?? 0 {
            throw ValueError(parameter: "end", value: ParameterText.number(end),
                             accepted: "seconds after --start (\(ParameterText.number(inputs.start ?? 0))), up to 10000000")
        }
    }])
}
