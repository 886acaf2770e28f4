import Foundation
import WaveAudio
import WaveCore
import WaveEffects
import WaveImageIO

/// Many tracks at once (`--audio tracks/` or `--audio a.mp3 b.flac ...`):
/// each track's outputs named by a pattern (`out/{name}.dat`), tracks
/// processed in parallel on `--jobs` threads, an output newer than its track
/// skipped unless `--force`, a bad track reported in one line and the rest
/// carried on, and one summary line at the end. The work per track is the
/// caller's; writing the outputs is serialised (the atomic writer holds one
/// pending file for its signal handler). Used by `waves render`, `waves
/// peaks` and `waves batch`.
package struct TrackBatch {
    /// The tracks, in name order: each file named, and every audio file
    /// (by extension: libsndfile's formats) directly in each folder named.
    package let tracks: [String]
    package let jobs: Int
    package let force: Bool


    /// The audio files directly in a folder (hidden ones left out), by extension.
    package static func audioFiles(in folder: String) throws -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw AudioError.unreadable(path: folder, reason: "the folder cannot be listed")
        }
        let extensions = Set(AudioReader.readableFormats)
        return names.filter { !$0.hasPrefix(".") && extensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
            .sorted().map { (folder.hasSuffix("/") ? folder : folder + "/") + $0 }
    }

    /// What a folder named is listed for: its audio files, or (`waves batch plan --kind lottie`) its Lottie files.
    package enum Listing { case audio, lottie }

    /// The files named in `audio` and those `listing` finds directly in each folder named; `option` names
    /// them in a refusal (`--audio`, or a command's arguments).
    package init(audio: [String], jobs: Int?, force: Bool, listing: Listing = .audio, option: String = "--audio") throws {
        var tracks: [String] = []
        for input in audio {
            if input == "-" { throw ValueError(option: option, value: "-", accepted: "files or folders when several tracks are read (standard input holds one)") }
            let listed = !InputFile.isFolder(input) ? [input]
                : listing == .audio ? try Self.audioFiles(in: input) : LottieEffect.files(inFolder: input) ?? []
            for track in listed where !tracks.contains(track) { tracks.append(track) }
        }
        guard !tracks.isEmpty else {
            throw ValueError(option: option, value: audio.joined(separator: " "),
                             accepted: listing == .lottie ? "files or folders holding Lottie files (*.json)"
                                : "files or folders holding audio files (" + AudioReader.readableFormats.joined(separator: ", ") + ")")
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if let jobs, !(1...1024).contains(jobs) {
            throw ValueError(option: "--jobs", value: "\(jobs)", accepted: "a whole number of parallel jobs from 1 to 1024 (default: the \(cores) cores)")
        }
        // No track may be any track's output.
        ProtectedInputs.add(tracks)
        self.tracks = tracks
        self.jobs = min(jobs ?? cores, tracks.count)
        self.force = force
    }

    /// `pattern` with `{name}` the track's file name without its extension.
    package static func output(_ pattern: String, for track: String) -> String {
        pattern.replacingOccurrences(of: "{name}", with: URL(fileURLWithPath: track).deletingPathExtension().lastPathComponent)
    }

    /// Every pattern names each track's output apart (it holds {name}), and no two tracks share one.
    package func checkPatterns(_ patterns: [(option: String, pattern: String)]) throws {
        for (option, pattern) in patterns {
            guard pattern.contains("{name}") else {
                throw ValueError(option: option, value: pattern, accepted: "a pattern holding {name} (the track's name without its extension) when several tracks are read, for example 'out/{name}.dat'")
            }
            var seen: [String: String] = [:]
            for track in tracks {
                let path = Self.output(pattern, for: track)
                if let other = seen[path] {
                    throw ValueError(option: option, value: pattern, accepted: "one output per track: \(other) and \(track) would both write \(path)")
                }
                // A pattern that names the tracks themselves is refused before any is read.
                if let input = ProtectedInputs.input(replacedBy: path) {
                    throw FileError.refused(path: path, reason: "it is an input of this run (\(input)); an output never replaces an input (\(option) \(pattern))")
                }
                seen[path] = track
            }
        }
    }

    package struct Summary {
        package var written = 0, upToDate = 0, failed = 0
        /// The status of the first failure, in track order (0: none failed).
        package var status: Int32 = 0
        package var seconds = 0.0

        package func line(tracks: Int, jobs: Int) -> String {
            let rate = seconds > 0 && written > 0 ? String(format: ", %.1f tracks/s", Double(written) / seconds) : ""
            return counted(tracks, "track") + ": \(written) written, \(upToDate) up to date, \(failed) failed "
                + String(format: "(%.2f s on %@%@)", seconds, counted(jobs, "job"), rate)
        }
    }

    /// Runs `work` for every track whose outputs (`outputs(track)`) are not
    /// all newer than it (or every track with `force`), `jobs` at a time;
    /// `work` returns the writes to make, run one at a time. Output folders
    /// are made as needed. A track's failure goes to `failed`, which reports
    /// it and says its exit status.
    package func run(outputs: (String) -> [String], failed: @escaping @Sendable (_ track: String, Error) -> Int32,
             work: @escaping @Sendable (String) throws -> () throws -> Void) -> Summary {
        let start = Date()
        let planned = tracks.map { outputs($0) }
        // nil: up to date; 0: written; else the failure's status.
        let statuses: [Int32?] = ConcurrentItems.run(count: tracks.count, jobs: jobs) { [tracks, force] i, serially in
            if !force && Self.upToDate(planned[i], track: tracks[i]) { return nil }
            do {
                let write = try work(tracks[i])
                try serially {
                    for path in planned[i] { try Self.makeFolder(for: path) }
                    try write()
                }
                return 0
            } catch {
                return failed(tracks[i], error)
            }
        }
        var summary = Summary()
        for status in statuses {
            guard let status else { summary.upToDate += 1; continue }
            if status == 0 { summary.written += 1 } else {
                summary.failed += 1
                if summary.status == 0 { summary.status = status }
            }
        }
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }

    /// Every output exists and was modified after the track.
    package static func upToDate(_ outputs: [String], track: String) -> Bool {
        guard let source = modified(track) else { return false }
        return outputs.allSatisfy { modified($0).map { $0 > source } ?? false }
    }

    private static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    package static func makeFolder(for path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard !InputFile.isFolder(folder) else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw FileError.cannotWrite(path: path, reason: "its folder \(folder) cannot be made")
        }
    }
}

