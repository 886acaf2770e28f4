import ArgumentParser
import WaveCatalogue

/// `waves audiowaveform ARGS...`: BBC audiowaveform 1.10.3's command line,
/// run by WaveCatalogue's `Audiowaveform` (main.swift hands the words over
/// before parsing, as it does for a binary started as `audiowaveform`).
struct AudiowaveformCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiowaveform",
        abstract: "Take audiowaveform 1.10.3's command line: peaks (.dat, .json, .txt) as it writes them.",
        discussion: "Its options, messages and exit statuses ('waves audiowaveform --help'); docs/cli.md maps them to Waves' own."
    )

    @Argument(parsing: .captureForPassthrough, help: "audiowaveform's options.")
    var words: [String] = []

    func run() throws { throw ExitCode(Audiowaveform.run(words, programName: "waves audiowaveform")) }
}
