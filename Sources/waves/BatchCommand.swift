import ArgumentParser
import Foundation
import WaveCatalogue
import WaveAudio
import WaveCore
import WaveEffects
import WavesKit
import WaveImageIO

/// `waves batch`: a catalogue's manifest done item by item, each exactly as
/// `waves peaks` or `waves render waveform --backend cpu` would do it alone,
/// in shards that any array scheduler can hand out (Slurm, AWS Batch, a
/// Kubernetes Indexed Job) and safe to run again: outputs are renamed into
/// place, an item whose recorded fingerprint still holds is skipped, and a
/// task killed at any moment leaves nothing half-written behind it.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Do a manifest of tracks (peaks or waveform images), a shard at a time, safe to run again.",
        discussion: """
            Every output must resolve under the output root (--output-root: by default the manifest's folder, or the \
            current folder for a manifest on standard input): an item whose output is an absolute path or climbs out with \
            .. (or through a link) fails (65) unless --allow-outside-root. No output may be an input of the manifest, and \
            an output that is a symbolic link is refused unless --follow-links, whoever runs it (root too).

            Exit statuses: 0 every item ok or skipped; 65 some items failed for good (bad input, an output outside the \
            root: a retry cannot help; the others are done); 75 some failed for a reason a retry can help (no space, an \
            I/O error, out of memory); 64 bad usage; 66 the manifest is missing; 73 the results file cannot be written. \
            docs/cli.md, "Catalogues", and contrib/ hold the schedulers' recipes.

            Examples:
              waves batch plan tracks/ --out 'out/{name}.dat' > manifest.jsonl
              waves batch --manifest manifest.jsonl --jobs 2 --results results.jsonl
              waves batch --manifest manifest.jsonl --shard 1/4
              sbatch --array=0-3 --wrap "waves batch --manifest manifest.jsonl --shard auto"
            """,
        subcommands: [BatchRunCommand.self, BatchPlanCommand.self],
        defaultSubcommand: BatchRunCommand.self
    )
}

/// `waves batch plan DIR --out PATTERN`: the manifest of a folder, to stdout.
struct BatchPlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Write the manifest of every audio file (or Lottie file) in folders, or of files, in name order, to stdout.",
        discussion: """
            Examples:
              waves batch plan tracks/ --out 'out/{name}.dat' --set samples-per-pixel=512 --set bits=16 > manifest.jsonl
              waves batch plan animations/ --out 'out/{name}.mp4' --set size=512x512 > manifest.jsonl
            """
    )

    @Argument(help: "Folders (every audio file directly in each, by libsndfile's extensions; for lottie every *.json file) or files.")
    var inputs: [String]

    @Option(help: "Each item's output: a pattern holding {name} (the input's name without its extension); .dat or .json make peaks, .png images, an animation (.mp4, .webm, .gif, .apng) or a folder (ending in /) a Lottie file's frames.")
    var out: String

    @Option(help: "peaks, render or lottie (default: lottie for an animation or a folder, render for a .png pattern, else peaks).")
    var kind: String?

    @Option(name: .customLong("set"), help: "An option of every item, NAME=VALUE as the command names it (samples-per-pixel=512, fit=true, size=1800x140); repeatable.")
    var settings: [String] = []

    @Option(name: .customLong("output-root"), help: "The folder every output must resolve under (default: the current folder).")
    var outputRoot: String?

    @Flag(name: .customLong("allow-outside-root"), help: "Plan outputs outside the output root too.")
    var allowOutsideRoot = false

    func run() throws {
        let root = try OutputRoot(outputRoot ?? ".", allowsOutside: allowOutsideRoot)
        let kind = try BatchItem.Kind.named(self.kind, pattern: out)
        let options = try settings.map(BatchManifest.setting)
        print(try BatchManifest.plan(folders: inputs, pattern: out, kind: kind, options: options, root: root), terminator: "")
    }
}

extension BatchRun.Progress: ExpressibleByArgument {}

/// `waves batch --manifest FILE`: this task's shard of the manifest.
struct BatchRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Do this task's shard of a manifest (the default: 'waves batch --manifest ...')."
    )

    @Option(help: "The manifest: one JSON object a line, {\"id\", \"input\", \"output\", \"kind\": \"peaks\", \"render\" or \"lottie\", options named as the command names them}; - for standard input. An item with no \"id\" is named by its input (ids given must differ); with no \"kind\", a .json input to an animation (.mp4, .webm, .gif, .apng) or a folder of frames (an output ending in /) is lottie, an output ending .png is render, any other peaks.")
    var manifest: String

    @Option(name: .customLong("output-root"), help: "The folder every item's output must resolve under (default: the manifest's folder; the current folder for -).")
    var outputRoot: String?

    @Flag(name: .customLong("allow-outside-root"), help: "Let items write outside the output root (absolute paths, .. or links that leave it).")
    var allowOutsideRoot = false

    @Option(help: "This task's shard: K/N (the items whose line position mod N is K), or auto (the scheduler's array index and count: Slurm's; AWS Batch's or a Kubernetes Indexed Job's index with --shards N) (default: every item).")
    var shard: String?

    @Option(parsing: .unconditional, help: "With --shard auto under an AWS Batch array job (its size) or a Kubernetes Indexed Job (its completions): how many shards there are.")
    var shards: Int?

    @Option(parsing: .unconditional, help: "Items done at once (default: the core count).")
    var jobs: Int?

    @Option(help: "Write one JSON line per item of the shard as it ends (so a killed run's file lists what finished): id, input, output, status (ok, skipped, failed), reason, exit_status, seconds, peak_rss_mb.")
    var results: String?

    @Option(help: "Progress on stderr: bar (a terminal's default), json (one JSON line per item done) or none (the default elsewhere).")
    var progress: BatchRun.Progress?

    @Flag(help: "Redo items whose recorded fingerprint holds.")
    var force = false

    @Flag(help: "An item whose decoding stopped early (damaged or truncated) fails instead of being done with what was read.")
    var strict = false

    @Flag(name: .customLong("follow-links"), help: ArgumentHelp(AtomicFile.followLinksHelp))
    var followLinks = false

    func run() throws {
        let (index, count) = try BatchShard.resolve(shard, shards: shards)
        AtomicFile.followsLinks = followLinks
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if let jobs, !(1...1024).contains(jobs) {
            throw ValueError(option: "--jobs", value: "\(jobs)", accepted: "a whole number of parallel items from 1 to 1024 (default: the \(cores) cores)")
        }
        DecodeReport.strict = strict
        DecodeReport.outcome = "did the item with what was read"
        let input = try InputFile.open(manifest)
        guard let text = String(data: try input.bytes(limit: 1 << 30), encoding: .utf8) else {
            throw AudioError.unreadable(path: input.name, reason: "the manifest is not UTF-8 text")
        }
        let all = try BatchManifest.parse(text, name: input.name)
        let root = try OutputRoot(outputRoot ?? (manifest == "-" ? "." : URL(fileURLWithPath: manifest).deletingLastPathComponent().path),
                                  allowsOutside: allowOutsideRoot)
        // No item of any shard may write over an input of another.
        ProtectedInputs.add(all.map(\.input))
        let log = try results.map { try ResultsLog.opening($0, for: all) }
        let items = BatchManifest.shard(all, index: index, count: count)
        let show = progress ?? (isatty(STDERR_FILENO) == 1 ? .bar : .none)
        let outcome = BatchRun(items: items, jobs: min(jobs ?? cores, max(1, items.count)), force: force, progress: show,
                               root: root, log: log, version: Waves.version, prepare: BatchItemWork.prepare,
                               describe: { (Failure.status(of: $0), Failure.message(of: $0)) }).run()
        print("waves batch: shard \(index)/\(count): " + outcome.summary)
        try log?.finish()
        if outcome.status != 0 { throw ExitCode(outcome.status) }
    }
}

/// How `waves batch` does an item: its options parsed and checked by its
/// command (`waves peaks`, `waves render waveform`), its work ready to run
/// on any thread (nothing it touches is shared).
enum BatchItemWork {
    /// The item's options parsed and checked by its command, its work ready
    /// to run on any thread (nothing it touches is shared).
    static func prepare(_ item: BatchItem) throws -> BatchRun.Work {
        let reserved = ["audio", "peaks", "file", "out", "json", "dat", "txt", "jobs", "force", "strict"]
        if let key = item.arguments.first(where: { reserved.contains(String($0.dropFirst(2))) }) {
            throw ValueError(option: key, value: "", accepted: "not an item's option: the item's \"input\" and \"output\" name its files, and jobs, force and strict are waves batch's own")
        }
        switch item.kind {
        case .peaks:
            let format = item.output.lowercased().hasSuffix(".json") ? "--json" : "--dat"
            let request = try PeaksCommand.parse(["--audio", item.input, format, item.output] + item.arguments).request()
            return { try request.work(for: item.input, literal: true) }
        case .lottie:
            // The whole animation, drawn by the CPU unless the item says otherwise, written as `waves render lottie` writes it (quietly).
            let command = try EffectCommands.parseRender(.lottie, try item.lottieRenderArguments())
            return { { try QuietOutput.stdout.run { try command.settings.run(command.options) } } }
        case .render:
            let command = try EffectCommands.parseRender(.waveform, ["--audio", item.input, "--out", item.output] + item.arguments)
            try command.settings.checkOneImagePerTrack()
            let size = try command.settings.size.validated()
            var wave = command.options
            let inputs = try wave.inputs()
            // Every option but the track checked once here, as the command checks them (on the generated track).
            wave.given["audio"] = nil
            try wave.check()
            let settings = try wave.settings(openingInputs: false)
            let request = wave.request(width: size.width, height: size.height)
            let (time, start, end) = (command.settings.time, inputs.start ?? 0, inputs.end)
            return {
                let target = try TrackBatch.drawWaveform(item.input, settings: settings, request: request, time: time,
                                                          start: start, end: end, peaks: nil)
                return { try PNG.write(target, to: item.output) }
            }
        }
    }
}
