import ArgumentParser
import Foundation
import WaveCatalogue
import WaveAudio
import WaveCore
import WaveEffects
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
        abstract: "Write the manifest of every audio file in folders (or of files), in name order, to stdout.",
        discussion: """
            Example: waves batch plan tracks/ --out 'out/{name}.dat' --set samples-per-pixel=512 --set bits=16 > manifest.jsonl
            """
    )

    @Argument(help: "Folders (every audio file directly in each, by libsndfile's extensions) or audio files.")
    var inputs: [String]

    @Option(help: "Each item's output: a pattern holding {name} (the track's name without its extension); .dat or .json make peaks, .png images.")
    var out: String

    @Option(help: "peaks or render (default: render for a .png pattern, else peaks).")
    var kind: String?

    @Option(name: .customLong("set"), help: "An option of every item, NAME=VALUE as the command names it (samples-per-pixel=512, fit=true, size=1800x140); repeatable.")
    var settings: [String] = []

    @Option(name: .customLong("output-root"), help: "The folder every output must resolve under (default: the current folder).")
    var outputRoot: String?

    @Flag(name: .customLong("allow-outside-root"), help: "Plan outputs outside the output root too.")
    var allowOutsideRoot = false

    func run() throws {
        let root = try OutputRoot(outputRoot ?? ".", allowsOutside: allowOutsideRoot)
        let kind = try self.kind.map { text in
            guard let kind = BatchItem.Kind(rawValue: text) else { throw ValueError(option: "--kind", value: text, accepted: "peaks or render") }
            return kind
        } ?? (out.lowercased().hasSuffix(".png") ? .render : .peaks)
        var options: [(String, Any)] = []
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !BatchManifest.fields.contains(String(parts[0])) else {
                throw ValueError(option: "--set", value: setting, accepted: "NAME=VALUE, NAME an option of the items' command (not id, input, output or kind)")
            }
            let value = String(parts[1])
            options.append((String(parts[0]), value == "true" ? true : value == "false" ? false : Int(value).map { $0 as Any } ?? Double(value).map { $0 as Any } ?? value))
        }
        print(try BatchManifest.plan(folders: inputs, pattern: out, kind: kind, options: options, root: root), terminator: "")
    }
}

/// `waves batch --manifest FILE`: this task's shard of the manifest.
struct BatchRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Do this task's shard of a manifest (the default: 'waves batch --manifest ...')."
    )

    enum Progress: String, ExpressibleByArgument, CaseIterable { case bar, json, none }

    @Option(help: "The manifest: one JSON object a line, {\"id\", \"input\", \"output\", \"kind\": \"peaks\" or \"render\", options named as the command names them}; - for standard input. An item with no \"id\" is named by its input (ids given must differ); with no \"kind\", an output ending .png is render, any other peaks.")
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
    var progress: Progress?

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
        let log = try results.map { path in
            let resolved = ProtectedInputs.resolved(path)
            if let item = all.first(where: { ProtectedInputs.resolved($0.output) == resolved }) {
                throw ValueError(option: "--results", value: path, accepted: "a file no item writes (item \(item.id)'s output is \(item.output))")
            }
            try TrackBatch.makeFolder(for: path)
            return try ResultsLog(path: path)
        }
        let items = BatchManifest.shard(all, index: index, count: count)
        let show = progress ?? (isatty(STDERR_FILENO) == 1 ? .bar : .none)
        let outcome = BatchRun(items: items, jobs: min(jobs ?? cores, max(1, items.count)), force: force, progress: show,
                               root: root, log: log).run()
        print("waves batch: shard \(index)/\(count): " + outcome.summary)
        try log?.finish()
        if outcome.status != 0 { throw ExitCode(outcome.status) }
    }
}

/// One shard's items done: each prepared on the main thread (its options
/// parsed and checked as its command would), then done `jobs` at a time.
struct BatchRun {
    let items: [BatchItem]
    let jobs: Int
    let force: Bool
    let progress: BatchRunCommand.Progress
    let root: OutputRoot
    /// Where each item's line goes as it ends (nil: no --results).
    let log: ResultsLog?

    struct Result {
        var status = "failed", reason: String?, seconds = 0.0, peakRSS = 0.0
        /// The exit status of a failure (0: none).
        var code: Int32 = 0
    }

    /// What one item does off the main thread: its output's bytes made, then written.
    typealias Work = () throws -> () throws -> Void

    func run() -> (summary: String, status: Int32) {
        let start = Date()
        var results = [Result](repeating: Result(), count: items.count)
        var works = [Work?](repeating: nil, count: items.count)
        for (i, item) in items.enumerated() {
            do {
                try root.check(item.output)
                // An output that is an input, a link or not a regular file fails here, before any work.
                try OutputPaths.checkTarget(item.output)
                works[i] = try BatchRun.prepare(item)
            } catch { results[i] = Self.failure(error, item: item) }
        }
        // Only where an item may write: never in a folder an item was refused.
        Self.removeStaleTemporaries(items.indices.filter { works[$0] != nil }.map { items[$0].output })
        let bar = progress == .bar ? FrameProgress(total: items.count, unit: "item") : nil
        let prepared = results
        results = ConcurrentItems.run(count: items.count, jobs: jobs, { [items, works, force, root] i, serially in
            let item = items[i]
            var result = prepared[i]
            guard let work = works[i] else { return result }
            let began = Date()
            let fingerprint = Self.fingerprint(item)
            if !force, let fingerprint, Self.recorded(for: item.output) == fingerprint {
                result.status = "skipped"
            } else {
                do {
                    let write = try work()
                    try serially {
                        // Checked again at the moment of writing: a folder swapped for a link since is still refused.
                        try root.check(item.output)
                        try TrackBatch.makeFolder(for: item.output)
                        try root.check(item.output)
                        try write()
                        // Recorded once the output is whole: a task killed before this redoes the item.
                        if let fingerprint { try AtomicFile.write(fingerprint, to: Self.sidecar(item.output)) }
                    }
                    result.status = "ok"
                } catch {
                    result = Self.failure(error, item: item)
                }
            }
            result.seconds = Date().timeIntervalSince(began)
            result.peakRSS = Self.peakRSSMegabytes()
            return result
        }, finished: { [items, progress, log] i, result, done in
            let item = items[i]
            log?.append(Self.line(item, result))
            if result.code != 0, let reason = result.reason { printFailure(reason, of: item.input, id: item.id) }
            switch progress {
            case .json: printError(Self.json(["done": done, "total": items.count, "id": item.id, "status": result.status]))
            case .bar: bar?.update(done: done)
            case .none: break
            }
        })
        bar?.finish()
        let seconds = Date().timeIntervalSince(start)
        let ok = results.filter { $0.status == "ok" }.count, skipped = results.filter { $0.status == "skipped" }.count
        let failed = results.count - ok - skipped
        let rate = seconds > 0 && ok > 0 ? String(format: ", %.1f tracks/s", Double(ok) / seconds) : ""
        let summary = counted(items.count, "item") + ": \(ok) ok, \(skipped) skipped, \(failed) failed in " + String(format: "%.2f s", seconds) + rate
        let codes = results.map(\.code).filter { $0 != 0 }
        let status: Int32 = codes.isEmpty ? 0 : codes.contains(where: Self.retryable) ? 75 : 65
        return (summary, status)
    }

    /// An item's line of the results file.
    static func line(_ item: BatchItem, _ r: Result) -> String {
        json(["id": item.id, "input": item.input, "output": item.output, "status": r.status, "reason": r.reason ?? NSNull(),
              "exit_status": r.code == 0 ? NSNull() : NSNumber(value: retryable(r.code) ? 75 : 65),
              "seconds": (r.seconds * 1000).rounded() / 1000, "peak_rss_mb": (r.peakRSS * 10).rounded() / 10]) + "\n"
    }

    /// The item's options parsed and checked by its command, its work ready
    /// to run on any thread (nothing it touches is shared).
    static func prepare(_ item: BatchItem) throws -> Work {
        let reserved = ["audio", "peaks", "out", "json", "dat", "jobs", "force", "strict"]
        if let key = item.arguments.first(where: { reserved.contains(String($0.dropFirst(2))) }) {
            throw ValueError(option: key, value: "", accepted: "not an item's option: the item's \"input\" and \"output\" name its files, and jobs, force and strict are waves batch's own")
        }
        switch item.kind {
        case .peaks:
            let format = item.output.lowercased().hasSuffix(".json") ? "--json" : "--dat"
            let command = try PeaksCommand.parse(["--audio", item.input, format, item.output] + item.arguments)
            try command.checkOptions()
            let (json, dat) = format == "--json" ? (item.output, nil as String?) : (nil as String?, item.output)
            let (samplesPerPixel, bits) = (command.samplesPerPixel, command.bits)
            return {
                let data = try PeaksCommand.peaks(of: item.input, samplesPerPixel: samplesPerPixel, bits: bits)
                return { try PeaksCommand.write(data, json: json, dat: dat) }
            }
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
                let target = try RenderSettings.drawTrack(item.input, settings: settings, request: request, time: time,
                                                          start: start, end: end, peaks: nil)
                return { try PNG.write(target, to: item.output) }
            }
        }
    }

    static func failure(_ error: Error, item: BatchItem) -> Result {
        var result = Result()
        result.code = ExitStatus.of(error)
        // An output refused for what is in its place fails for good, whatever its status alone.
        if case .refused? = error as? FileError { result.code = ExitStatus.badData }
        let message = ExitStatus.message(of: error)
        result.reason = message
        return result
    }

    /// A failure a retry can help: no memory, no space or an I/O error writing, an unavailable resource.
    static func retryable(_ code: Int32) -> Bool { [69, 71, 73, 75].contains(code) }

    /// What the output depends on: the item (less its id), the input's size
    /// and modification time, and Waves' version. Nil where the input cannot be read (the item will fail).
    static func fingerprint(_ item: BatchItem) -> String? {
        var info = stat()
        guard stat(item.input, &info) == 0 else { return nil }
        return "\(item.canonical)\ninput \(info.st_size) bytes, modified \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\nwaves \(Waves.version)\n"
    }

    /// The fingerprint recorded beside an output, nil where there is none or the output is gone.
    static func recorded(for output: String) -> String? {
        guard FileManager.default.fileExists(atPath: output) else { return nil }
        return try? String(contentsOfFile: sidecar(output), encoding: .utf8)
    }

    /// `out/.a.dat.waves`: the fingerprint of `out/a.dat`, hidden beside it.
    static func sidecar(_ output: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".waves").path
    }

    /// Temporary files (the atomic writer's) left in the outputs' folders by
    /// a process that is gone (a task killed mid-write): this machine's whose
    /// process has ended, another's a day old (`PendingFile.isStale`).
    static func removeStaleTemporaries(_ outputs: [String]) {
        let folders = Set(outputs.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
        for folder in folders {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where PendingFile.isStale(name, in: folder) {
                unlink(folder + "/" + name)
            }
        }
    }

    static func peakRSSMegabytes() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    static func json(_ object: [String: Any]) -> String {
        String(data: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data(), encoding: .utf8) ?? "{}"
    }
}
