import Foundation
import WaveCore
import WaveImageIO

/// One shard of a manifest done (`waves batch`): each item prepared on the
/// calling thread (its options parsed and checked as its command would, by
/// `prepare`), then done `jobs` at a time; an item whose recorded
/// fingerprint still holds is skipped, each output is renamed into place and
/// its fingerprint recorded beside it once it is whole.
package struct BatchRun {
    package enum Progress: String, CaseIterable, Sendable { case bar, json, none }

    package let items: [BatchItem]
    package let jobs: Int
    package let force: Bool
    package let progress: Progress
    package let root: OutputRoot
    /// Where each item's line goes as it ends (nil: no --results).
    package let log: ResultsLog?
    /// The version of Waves doing the items, part of each fingerprint.
    package let version: String
    /// An item's options parsed and checked, its work ready to run on any thread.
    package let prepare: (BatchItem) throws -> Work
    /// An item's failure: its exit status and its line.
    package let describe: @Sendable (Error) -> (status: Int32, message: String)

    package init(items: [BatchItem], jobs: Int, force: Bool, progress: Progress, root: OutputRoot, log: ResultsLog?,
                 version: String, prepare: @escaping (BatchItem) throws -> Work,
                 describe: @escaping @Sendable (Error) -> (status: Int32, message: String)) {
        (self.items, self.jobs, self.force, self.progress, self.root, self.log) = (items, jobs, force, progress, root, log)
        (self.version, self.prepare, self.describe) = (version, prepare, describe)
    }

    struct Result {
        var status = "failed", reason: String?, seconds = 0.0, peakRSS = 0.0
        /// The exit status of a failure (0: none).
        var code: Int32 = 0
    }

    /// What one item does off the main thread: its output's bytes made, then written.
    package typealias Work = () throws -> () throws -> Void

    package func run() -> (summary: String, status: Int32) {
        let start = Date()
        var results = [Result](repeating: Result(), count: items.count)
        var works = [Work?](repeating: nil, count: items.count)
        for (i, item) in items.enumerated() {
            do {
                try root.check(item.output)
                // An output that is an input, a link or not a regular file (or for frames, not a folder) fails here, before any work.
                if let folder = OutputPaths.frameFolder(item.output) { try OutputPaths.checkFrameFolder(folder) } else { try OutputPaths.checkTarget(item.output) }
                works[i] = try prepare(item)
            } catch { results[i] = Self.failure(error, describe) }
        }
        // Only where an item may write: never in a folder an item was refused.
        Self.removeStaleTemporaries(items.indices.filter { works[$0] != nil }.map { items[$0].output })
        let bar = progress == .bar ? TerminalProgress(unit: "item") : nil
        let prepared = results
        results = ConcurrentItems.run(count: items.count, jobs: jobs, { [items, works, force, root, version, describe] i, serially in
            let item = items[i]
            var result = prepared[i]
            guard let work = works[i] else { return result }
            let began = Date()
            let fingerprint = Self.fingerprint(item, version: version)
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
                    result = Self.failure(error, describe)
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
            case .bar: bar?.update(done: done, of: items.count)
            case .none: break
            }
        })
        bar?.finish()
        let seconds = Date().timeIntervalSince(start)
        let ok = results.filter { $0.status == "ok" }.count, skipped = results.filter { $0.status == "skipped" }.count
        let failed = results.count - ok - skipped
        let rate = seconds > 0 && ok > 0 ? String(format: ", %.1f items/s", Double(ok) / seconds) : ""
        let summary = counted(items.count, "item") + ": \(ok) ok, \(skipped) skipped, \(failed) failed in " + String(format: "%.2f s", seconds) + rate
        let codes = results.map(\.code).filter { $0 != 0 }
        let status: Int32 = codes.isEmpty ? 0 : codes.contains(where: ExitStatus.isRetryable) ? ExitStatus.tryAgain : ExitStatus.badData
        return (summary, status)
    }

    /// An item's line of the results file.
    static func line(_ item: BatchItem, _ r: Result) -> String {
        json(["id": item.id, "input": item.input, "output": item.output, "status": r.status, "reason": r.reason ?? NSNull(),
              "exit_status": r.code == 0 ? NSNull() : NSNumber(value: ExitStatus.isRetryable(r.code) ? ExitStatus.tryAgain : ExitStatus.badData),
              "seconds": (r.seconds * 1000).rounded() / 1000, "peak_rss_mb": (r.peakRSS * 10).rounded() / 10]) + "\n"
    }

    static func failure(_ error: Error, _ describe: (Error) -> (status: Int32, message: String)) -> Result {
        var result = Result()
        (result.code, result.reason) = describe(error)
        // An output refused for what is in its place fails for good, whatever its status alone.
        if case .refused? = error as? FileError { result.code = ExitStatus.badData }
        return result
    }

    /// What the output depends on: the item (less its id), the input's size
    /// and modification time, and Waves' version. Nil where the input cannot be read (the item will fail).
    static func fingerprint(_ item: BatchItem, version: String) -> String? {
        var info = stat()
        guard stat(item.input, &info) == 0 else { return nil }
        return "\(item.canonical)\ninput \(info.st_size) bytes, modified \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\nwaves \(version)\n"
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
        // An output's folder (its fingerprint's too), and an output that is a folder of frames itself.
        let folders = Set(outputs.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } + outputs.compactMap(OutputPaths.frameFolder))
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

/// A track's failure, one line on stderr: the message, led by the track's name (`id`) where it does not name the file.
package func printFailure(_ message: String, of input: String, id: String? = nil) {
    printError("waves: " + (message.contains(input) ? message : "\(id ?? input): \(message)"))
}
