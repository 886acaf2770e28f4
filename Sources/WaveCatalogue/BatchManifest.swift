import Foundation
import WaveAudio
import WaveImageIO
import WaveCore

/// `waves batch`'s manifest: one JSON object a line, `{"id", "input",
/// "output", "kind": "peaks"|"render"|"lottie", ...options}`, the options
/// named as the commands name them (`"samples-per-pixel": 512`, `"fit":
/// true`). A `lottie` item is a Lottie file written whole, as an animation or
/// as a folder of frames (an output ending in `/`). The items in line order
/// are the shards' positions: shard K of N takes the items whose position
/// mod N is K.
package struct BatchItem: Equatable {
    package enum Kind: String {
        case peaks, render, lottie

        /// The kind an item means where it names none, one rule for a manifest's lines and for `waves batch plan`:
        /// a Lottie file (.json) to an animation (.mp4, .webm, .gif, .apng, or an animated .png) or to a folder
        /// of frames (a name ending in `/`) is `lottie`; an output ending .png is `render`; any other `peaks`.
        /// With no input known (a plan's pattern, before its folders are listed) a .png is `render`.
        package static func implied(output: String, input: String? = nil) -> Kind {
            let png = output.lowercased().hasSuffix(".png")
            let lottieInput = input.map { $0.lowercased().hasSuffix(".json") } ?? !png
            if BatchItem.isLottieOutput(output) && lottieInput { return .lottie }
            return png ? .render : .peaks
        }

        /// A plan's `--kind` as given, or the kind its pattern implies.
        package static func named(_ text: String?, pattern: String) throws -> Kind {
            guard let text else { return implied(output: pattern) }
            guard let kind = Kind(rawValue: text) else { throw ValueError(option: "--kind", value: text, accepted: "peaks, render or lottie") }
            return kind
        }
    }

    /// Whether a Lottie item can write `output`: an animation (.mp4, .webm, .gif, .apng or an animated .png), or a
    /// folder of frames (a name ending in `/`).
    package static func isLottieOutput(_ output: String) -> Bool {
        OutputPaths.frameFolder(output) != nil || AnimationFormat(path: output, frames: 2) != nil
    }
    /// What a Lottie item's output may be, as a refusal says it.
    package static let lottieOutputs = "an animation (.mp4, .webm, .gif or .apng) or a folder of frames (a name ending in /)"

    /// A lottie item as `waves render lottie`'s arguments: the whole animation drawn by the CPU unless the item
    /// says otherwise; into a folder of frames with `--overwrite`, so frames a run killed before its fingerprint
    /// left there are replaced. Refused where the output is neither an animation nor a folder.
    package func lottieRenderArguments() throws -> [String] {
        guard Self.isLottieOutput(output) else { throw ValueError(option: "output", value: output, accepted: Self.lottieOutputs + " for a Lottie item") }
        let overwrite = OutputPaths.frameFolder(output) != nil && !arguments.contains("--overwrite") ? ["--overwrite"] : []
        return ["--backend", "cpu", "--file", input, "--out", output] + overwrite + arguments
    }

    package let id: String
    package let input: String
    package let output: String
    package let kind: Kind
    /// The options, in the manifest's order, as command-line arguments.
    package let arguments: [String]
    /// The item less its id, keys sorted: what its output depends on, with the input's stamp and Waves' version.
    package let canonical: String
}

package enum BatchManifest {
    /// The keys every item has; the others are options.
    package static let fields: Set<String> = ["id", "input", "output", "kind"]

    /// The items of `text`; a line that is not an item is refused with its
    /// number (exit 65): a broken manifest does nothing rather than part of a shard.
    package static func parse(_ text: String, name: String) throws -> [BatchItem] {
        var items: [BatchItem] = []
        var outputs: [String: Int] = [:], ids: [String: (line: Int, given: Bool)] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            let number = index + 1
            func refuse(_ reason: String) -> AudioError { .unreadable(path: name, reason: "line \(number): \(reason)") }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(trimmed.utf8), options: [.fragmentsAllowed])) as? [String: Any] else {
                throw refuse("not a JSON object (one item a line: {\"id\", \"input\", \"output\", \"kind\": \"peaks\", \"render\" or \"lottie\", options})")
            }
            guard let input = object["input"] as? String, !input.isEmpty else { throw refuse("no \"input\" (the track's path)") }
            guard let output = object["output"] as? String, !output.isEmpty else { throw refuse("no \"output\" (the file to write)") }
            let kindText = object["kind"] as? String ?? BatchItem.Kind.implied(output: output, input: input).rawValue
            guard let kind = BatchItem.Kind(rawValue: kindText) else { throw refuse("\"kind\" \(kindText): expected peaks, render or lottie") }
            let given = (object["id"] as? String) ?? (object["id"] as? NSNumber)?.stringValue
            if object["id"] != nil && given == nil { throw refuse("\"id\": expected a string or a number") }
            let id = given ?? input
            // Ids must tell items apart wherever one was given; items with none may share their input as their id.
            if let other = ids[id], given != nil || other.given {
                throw refuse("\"id\" \(id) is line \(other.line)'s too: ids must differ (an item with none is named by its input)")
            }
            if ids[id] == nil || given != nil { ids[id] = (number, given != nil) }
            if let other = outputs[output] { throw refuse("\"output\" \(output) is line \(other)'s too: each item writes its own") }
            outputs[output] = number
            var arguments: [String] = []
            // Options in a stable order (JSONSerialization's dictionaries have none): by name.
            for key in object.keys.sorted() where !fields.contains(key) {
                let value = object[key]!
                if let number = value as? NSNumber, String(cString: number.objCType) == "c" {
                    // JSON's true and false (an NSNumber of type char here; 1 and 0 are numbers).
                    if number.boolValue { arguments.append("--" + key) }
                } else if let number = value as? NSNumber {
                    arguments += ["--" + key, number.stringValue]
                } else if let text = value as? String {
                    arguments += ["--" + key, text]
                } else {
                    throw refuse("\"\(key)\": expected a string, a number, true or false")
                }
            }
            var described = object
            described.removeValue(forKey: "id")
            described["kind"] = kind.rawValue
            let canonical = String(data: try JSONSerialization.data(withJSONObject: described, options: [.sortedKeys]), encoding: .utf8) ?? ""
            items.append(BatchItem(id: id, input: input, output: output, kind: kind, arguments: arguments, canonical: canonical))
        }
        return items
    }

    /// Shard `index` of `count`: the positions whose remainder is `index`.
    package static func shard<T>(_ items: [T], index: Int, count: Int) -> [T] {
        items.enumerated().filter { $0.offset % count == index }.map(\.element)
    }

    /// `NAME=VALUE` (`waves batch plan --set`): an option of every item, its
    /// value as JSON would hold it (true, false, a number, else text).
    package static func setting(_ text: String) throws -> (String, Any) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !fields.contains(String(parts[0])) else {
            throw ValueError(option: "--set", value: text, accepted: "NAME=VALUE, NAME an option of the items' command (not id, input, output or kind)")
        }
        let value = String(parts[1])
        return (String(parts[0]), value == "true" ? true : value == "false" ? false : Int(value).map { $0 as Any } ?? Double(value).map { $0 as Any } ?? value)
    }

    /// A manifest of every audio file in `folders` (as the folder mode finds
    /// them, in name order), or for `lottie` every Lottie file (*.json), each
    /// written to `pattern`, with `options`.
    package static func plan(folders: [String], pattern: String, kind: BatchItem.Kind, options: [(String, Any)], root: OutputRoot) throws -> String {
        // Each input named must be there: a folder, or a file (a typo plans nothing).
        for input in folders where input != "-" {
            var info = stat()
            guard stat(input, &info) == 0 else { throw AudioError.missing(path: input) }
        }
        if kind == .lottie && !BatchItem.isLottieOutput(pattern) {
            throw ValueError(option: "--out", value: pattern, accepted: BatchItem.lottieOutputs + " for Lottie items")
        }
        let batch = try TrackBatch(audio: folders, jobs: 1, force: false, listing: kind == .lottie ? .lottie : .audio, option: "<inputs>")
        try batch.checkPatterns([("--out", pattern)])
        var lines: [String] = []
        for track in batch.tracks {
            let output = TrackBatch.output(pattern, for: track)
            do { try root.check(output) } catch {
                throw ValueError(option: "--out", value: pattern, accepted: "outputs under the output root \(root.path) (\(output) is not; --output-root or --allow-outside-root)")
            }
            var object: [String: Any] = ["id": track, "input": track, "output": output, "kind": kind.rawValue]
            for (key, value) in options { object[key] = value }
            lines.append(String(data: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
                                encoding: .utf8) ?? "")
        }
        return lines.map { $0 + "\n" }.joined()
    }
}

/// Which shard this task is: `K/N` as given, or the scheduler's array index
/// and size from its environment (Slurm's; AWS Batch's and a Kubernetes
/// Indexed Job's index, with `--shards N` their size: neither tells a task
/// how many there are).
package enum BatchShard {
    package static func resolve(_ text: String?, shards: Int?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (index: Int, count: Int) {
        guard let text else {
            if let shards { throw ValueError(option: "--shards", value: "\(shards)", accepted: "only with --shard auto (a Kubernetes Indexed Job's count)") }
            return (0, 1)
        }
        if text == "auto" {
            // A variable that is set must be a whole number: "abc" is named, not taken for "none is set".
            func number(_ key: String) throws -> Int? {
                guard let text = environment[key] else { return nil }
                guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                    throw ValueError(option: "--shard", value: "auto", accepted: "a whole number in \(key) (it is '\(text)')")
                }
                return value
            }
            if let id = try number("SLURM_ARRAY_TASK_ID"), let count = try number("SLURM_ARRAY_TASK_COUNT") {
                return try checked(id - (try number("SLURM_ARRAY_TASK_MIN") ?? 0), count, "SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN")
            }
            if let index = try number("AWS_BATCH_JOB_ARRAY_INDEX") {
                // AWS Batch gives a child job its index only: the array's size is --shards (or a variable the job sets).
                guard let count = try shards ?? number("AWS_BATCH_JOB_ARRAY_SIZE") else {
                    throw ValueError(option: "--shard", value: "auto", accepted: "--shards N with an AWS Batch array job (AWS_BATCH_JOB_ARRAY_INDEX; N its array size)")
                }
                return try checked(index, count, "AWS_BATCH_JOB_ARRAY_INDEX")
            }
            if let index = try number("JOB_COMPLETION_INDEX") {
                guard let shards else {
                    throw ValueError(option: "--shard", value: "auto", accepted: "--shards N with a Kubernetes Indexed Job (JOB_COMPLETION_INDEX; N its completions)")
                }
                return try checked(index, shards, "JOB_COMPLETION_INDEX")
            }
            throw ValueError(option: "--shard", value: "auto", accepted: "a scheduler's array index in the environment (SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT; AWS_BATCH_JOB_ARRAY_INDEX or JOB_COMPLETION_INDEX, each with --shards N); none is set")
        }
        if shards != nil { throw ValueError(option: "--shards", value: "\(shards!)", accepted: "only with --shard auto") }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, (0..<n).contains(k) else {
            throw ValueError(option: "--shard", value: text, accepted: "K/N with 0 <= K < N (shard K of N), or auto")
        }
        return (k, n)
    }

    private static func checked(_ index: Int, _ count: Int, _ source: String) throws -> (index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else {
            throw ValueError(option: "--shard", value: "auto", accepted: "an index from 0 to the count less 1 (\(source) is \(index) of \(count))")
        }
        return (index, count)
    }
}

/// The folder a batch's outputs must stay in: an item's output (made
/// absolute from the current folder, its links and `..` resolved as far as
/// it exists) must lie under it, unless the operator allows outside.
/// Running as root changes nothing.
package struct OutputRoot {
    /// The root, resolved.
    package let path: String
    package let allowsOutside: Bool

    package init(_ folder: String, allowsOutside: Bool) throws {
        guard InputFile.isFolder(folder) else {
            throw ValueError(option: "--output-root", value: folder, accepted: "an existing folder")
        }
        path = ProtectedInputs.resolved(folder)
        self.allowsOutside = allowsOutside
    }

    /// Refuses (65) an output that resolves outside the root.
    package func check(_ output: String) throws {
        guard !allowsOutside else { return }
        let resolved = ProtectedInputs.resolved(output)
        guard resolved == path || resolved.hasPrefix(path == "/" ? "/" : path + "/") else {
            throw OutsideOutputRoot(output: output, resolved: resolved, root: path)
        }
    }
}

/// An item's output that leaves the output root (exit 65: bad data in the manifest).
package struct OutsideOutputRoot: Error, CustomStringConvertible {
    package let output: String, resolved: String, root: String
    package var description: String {
        "cannot write \(output): it is outside the output root \(root)" + (resolved == output ? "" : " (it resolves to \(resolved))")
            + "; --output-root or --allow-outside-root"
    }
}

extension OutsideOutputRoot: UserFacingError {
    package var exitStatus: Int32 { ExitStatus.badData }
}

/// `--results`: one JSON line an item, written with one write(2) the moment
/// the item ends, so a run killed at any point leaves a file that lists
/// exactly the items that finished (in the order they did). The file is
/// this run's: made or emptied when the run starts, never through a link.
package final class ResultsLog: @unchecked Sendable {
    private let path: String
    private let descriptor: Int32
    private let lock = NSLock()
    private var failure: FileError?

    package init(path: String) throws {
        try OutputPaths.checkFile(path)
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_APPEND, 0o644)
        guard descriptor >= 0 else { throw AtomicFile.failure(path) }
        self.path = path
    }

    deinit { close(descriptor) }

    /// The log at `path` for a manifest's `items`, its folder made: refused
    /// where an item writes that file (its output would be lost to the log).
    package static func opening(_ path: String, for items: [BatchItem]) throws -> ResultsLog {
        let resolved = ProtectedInputs.resolved(path)
        if let item = items.first(where: { ProtectedInputs.resolved($0.output) == resolved }) {
            throw ValueError(option: "--results", value: path, accepted: "a file no item writes (item \(item.id)'s output is \(item.output))")
        }
        try TrackBatch.makeFolder(for: path)
        return try ResultsLog(path: path)
    }

    package func append(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        let bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count && failure == nil {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { failure = AtomicFile.failure(path); break }
            offset += n
        }
    }

    /// The first write that failed, if any (exit 73), once every item is done.
    package func finish() throws {
        if fsync(descriptor) != 0 && errno != EINVAL && failure == nil { failure = AtomicFile.failure(path) }
        if let failure { throw failure }
    }
}
