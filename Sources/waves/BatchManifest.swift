import Foundation
import WaveAudio

/// `waves batch`'s manifest: one JSON object a line, `{"id", "input",
/// "output", "kind": "peaks"|"render", ...options}`, the options named as
/// the commands name them (`"samples-per-pixel": 512`, `"fit": true`). The
/// items in line order are the shards' positions: shard K of N takes the
/// items whose position mod N is K.
struct BatchItem: Equatable {
    enum Kind: String { case peaks, render }

    let id: String
    let input: String
    let output: String
    let kind: Kind
    /// The options, in the manifest's order, as command-line arguments.
    let arguments: [String]
    /// The item less its id, keys sorted: what its output depends on, with the input's stamp and Waves' version.
    let canonical: String
}

enum BatchManifest {
    /// The keys every item has; the others are options.
    static let fields: Set<String> = ["id", "input", "output", "kind"]

    /// The items of `text`; a line that is not an item is refused with its
    /// number (exit 65): a broken manifest does nothing rather than part of a shard.
    static func parse(_ text: String, name: String) throws -> [BatchItem] {
        var items: [BatchItem] = []
        var outputs: [String: Int] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            let number = index + 1
            func refuse(_ reason: String) -> AudioError { .unreadable(path: name, reason: "line \(number): \(reason)") }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(trimmed.utf8), options: [.fragmentsAllowed])) as? [String: Any] else {
                throw refuse("not a JSON object (one item a line: {\"id\", \"input\", \"output\", \"kind\": \"peaks\" or \"render\", options})")
            }
            guard let input = object["input"] as? String, !input.isEmpty else { throw refuse("no \"input\" (the track's path)") }
            guard let output = object["output"] as? String, !output.isEmpty else { throw refuse("no \"output\" (the file to write)") }
            let kindText = object["kind"] as? String ?? (output.lowercased().hasSuffix(".png") ? "render" : "peaks")
            guard let kind = BatchItem.Kind(rawValue: kindText) else { throw refuse("\"kind\" \(kindText): expected peaks or render") }
            let id = (object["id"] as? String) ?? (object["id"] as? NSNumber)?.stringValue ?? input
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
    static func shard<T>(_ items: [T], index: Int, count: Int) -> [T] {
        items.enumerated().filter { $0.offset % count == index }.map(\.element)
    }

    /// A manifest of every audio file in `folders` (as the folder mode finds
    /// them, in name order), each written to `pattern`, with `options`.
    static func plan(folders: [String], pattern: String, kind: BatchItem.Kind, options: [(String, Any)]) throws -> String {
        let batch = try TrackBatch(audio: folders, jobs: 1, force: false)
        try batch.checkPatterns([("--out", pattern)])
        var lines: [String] = []
        for track in batch.tracks {
            var object: [String: Any] = ["id": track, "input": track, "output": TrackBatch.output(pattern, for: track), "kind": kind.rawValue]
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
enum BatchShard {
    static func resolve(_ text: String?, shards: Int?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (index: Int, count: Int) {
        guard let text else {
            if let shards { throw UsageError(option: "--shards", value: "\(shards)", accepted: "only with --shard auto (a Kubernetes Indexed Job's count)") }
            return (0, 1)
        }
        if text == "auto" {
            func number(_ key: String) -> Int? { environment[key].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
            if let id = number("SLURM_ARRAY_TASK_ID"), let count = number("SLURM_ARRAY_TASK_COUNT") {
                return try checked(id - (number("SLURM_ARRAY_TASK_MIN") ?? 0), count, "SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN")
            }
            if let index = number("AWS_BATCH_JOB_ARRAY_INDEX") {
                // AWS Batch gives a child job its index only: the array's size is --shards (or a variable the job sets).
                guard let count = shards ?? number("AWS_BATCH_JOB_ARRAY_SIZE") else {
                    throw UsageError(option: "--shard", value: "auto", accepted: "--shards N with an AWS Batch array job (AWS_BATCH_JOB_ARRAY_INDEX; N its array size)")
                }
                return try checked(index, count, "AWS_BATCH_JOB_ARRAY_INDEX")
            }
            if let index = number("JOB_COMPLETION_INDEX") {
                guard let shards else {
                    throw UsageError(option: "--shard", value: "auto", accepted: "--shards N with a Kubernetes Indexed Job (JOB_COMPLETION_INDEX; N its completions)")
                }
                return try checked(index, shards, "JOB_COMPLETION_INDEX")
            }
            throw UsageError(option: "--shard", value: "auto", accepted: "a scheduler's array index in the environment (SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT; AWS_BATCH_JOB_ARRAY_INDEX or JOB_COMPLETION_INDEX, each with --shards N); none is set")
        }
        if shards != nil { throw UsageError(option: "--shards", value: "\(shards!)", accepted: "only with --shard auto") }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, (0..<n).contains(k) else {
            throw UsageError(option: "--shard", value: text, accepted: "K/N with 0 <= K < N (shard K of N), or auto")
        }
        return (k, n)
    }

    private static func checked(_ index: Int, _ count: Int, _ source: String) throws -> (index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else {
            throw UsageError(option: "--shard", value: "auto", accepted: "an index from 0 to the count less 1 (\(source) is \(index) of \(count))")
        }
        return (index, count)
    }
}
