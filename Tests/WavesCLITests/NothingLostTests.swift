import Foundation
import WaveAudio
import WaveTestSupport
import XCTest

/// Nothing a user has is lost and nothing is written where it should not
/// be: an output never replaces an input (by path, through a hard or a
/// symbolic link), a link in an output's place is refused unless
/// --follow-links, a batch's outputs stay under its output root (as root
/// too), running out of memory is one line at any limit, work has a
/// ceiling, and a killed batch's results list exactly what finished.
final class NothingLostTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws {
        folder = try WavesBinary.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/tracks", withIntermediateDirectories: true)
        for i in 0..<3 {
            let track = GeneratedTrack(seconds: Double(1 + i), sampleRate: 8000)
            try AudioWriter.write(to: folder + "/tracks/t\(i).wav", format: .wav, sampleRate: 8000, frames: track.sampleCount) { n, _ in
                track.sample(n)
            }
        }
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func waves(_ arguments: [String], environment: [String: String?] = [:], stdin: String? = nil) throws -> WavesBinary.Result {
        try WavesBinary.run(arguments, in: folder, environment: environment, stdin: stdin)
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path)) }

    private func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path.hasPrefix("/") ? path : folder + "/" + path, &info) == 0
    }

    private func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    private func temporaries(under path: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var found: [String] = []
        while let name = enumerator?.nextObject() as? String {
            let last = (name as NSString).lastPathComponent
            if last.hasPrefix(".w") && last.hasSuffix(".tmp") { found.append(name) }
        }
        return found
    }

    // MARK: An output never replaces an input

    func testAnOutputThatIsAnInputIsRefusedByPathHardLinkOrSymbolicLink() throws {
        let original = try bytes("tracks/t0.wav")
        XCTAssertEqual(link(folder + "/tracks/t0.wav", folder + "/hard.wav"), 0)
        XCTAssertEqual(symlink("tracks/t0.wav", folder + "/soft.dat"), 0)
        let cases: [[String]] = [
            ["peaks", "--audio", "tracks/t0.wav", "--dat", "tracks/t0.wav"],
            ["peaks", "--audio", "tracks/t0.wav", "--json", "./tracks/../tracks/t0.wav"],
            ["peaks", "--audio", "tracks/t0.wav", "--dat", "hard.wav"],
            ["peaks", "--audio", "tracks/t0.wav", "--dat", "soft.dat", "--follow-links"],
            ["render", "waveform", "--backend", "cpu", "--audio", "tracks/t0.wav", "--out", "tracks/t0.wav"],
            ["render", "waveform", "--backend", "cpu", "--audio", "hard.wav", "--out", "tracks/t0.wav"],
        ]
        for arguments in cases {
            let r = try waves(arguments)
            XCTAssertEqual(r.status, 73, "\(arguments): \(r.stderr)")
            XCTAssertEqual(lines(r.stderr).count, 1, "\(arguments): \(r.stderr)")
            XCTAssert(r.stderr.contains("an output never replaces an input"), "\(arguments): \(r.stderr)")
            XCTAssertEqual(try bytes("tracks/t0.wav"), original, "\(arguments): the input's bytes are unchanged")
        }
        XCTAssertEqual(temporaries(under: folder), [])
    }

    func testAFolderRunWhosePatternNamesItsTracksWritesNothing() throws {
        let before = try (0..<3).map { try bytes("tracks/t\($0).wav") }
        for arguments in [["peaks", "--audio", "tracks/", "--dat", "tracks/{name}.wav"],
                          ["render", "waveform", "--audio", "tracks/", "--out", "tracks/../tracks/{name}.wav"]] {
            let r = try waves(arguments)
            XCTAssertEqual(r.status, 73, "\(arguments): \(r.stderr)")
            XCTAssertEqual(lines(r.stderr).count, 1, "\(arguments): \(r.stderr)")
            XCTAssertEqual(try (0..<3).map { try bytes("tracks/t\($0).wav") }, before, "\(arguments)")
        }
    }

    func testABatchItemWritingOverAnyItemsInputFailsForGoodAndTheOthersAreDone() throws {
        let manifest = """
            {"id": "self", "input": "tracks/t0.wav", "output": "tracks/t0.wav", "kind": "peaks"}
            {"id": "other", "input": "tracks/t1.wav", "output": "tracks/t2.wav", "kind": "peaks"}
            {"id": "fine", "input": "tracks/t2.wav", "output": "out/t2.dat"}

            """
        try manifest.write(toFile: folder + "/m.jsonl", atomically: true, encoding: .utf8)
        let before = try (0..<3).map { try bytes("tracks/t\($0).wav") }
        let r = try waves(["batch", "--manifest", "m.jsonl", "--results", "r.jsonl"])
        XCTAssertEqual(r.status, 65, "an output that is an input fails for good: \(r.stderr)")
        XCTAssertEqual(try (0..<3).map { try bytes("tracks/t\($0).wav") }, before)
        XCTAssert(exists("out/t2.dat"))
        let results = try String(contentsOfFile: folder + "/r.jsonl", encoding: .utf8)
        XCTAssertEqual(lines(results).count, 3, results)
        XCTAssertEqual(lines(results).filter { $0.contains("\"exit_status\":65") }.count, 2, results)
    }

    // MARK: Links

    func testALinkInTheOutputsPlaceIsRefusedUnlessFollowed() throws {
        let outside = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try Data("precious".utf8).write(to: URL(fileURLWithPath: outside + "/account"))
        try FileManager.default.createDirectory(atPath: outside + "/dir", withIntermediateDirectories: false)
        XCTAssertEqual(symlink(outside + "/account", folder + "/out.dat"), 0)
        XCTAssertEqual(symlink(outside + "/nothere", folder + "/dangling.dat"), 0)
        XCTAssertEqual(symlink(outside + "/dir", folder + "/dir.dat"), 0)
        // The tests run as root in CI: the policy is the same for root.
        for name in ["out.dat", "dangling.dat", "dir.dat"] {
            for command in [["peaks", "--audio", "tracks/t0.wav", "--dat", name],
                            ["render", "--backend", "cpu", "--size", "40x20", "--out", name]] {
                let r = try waves(command)
                XCTAssertEqual(r.status, 73, "\(command): \(r.stderr)")
                XCTAssertEqual(lines(r.stderr).count, 1, r.stderr)
                XCTAssert(r.stderr.contains("symbolic link"), r.stderr)
            }
        }
        XCTAssertEqual(try String(contentsOfFile: outside + "/account", encoding: .utf8), "precious")
        XCTAssertFalse(exists(outside + "/nothere"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside + "/dir"), [])
        // Followed on request: the target replaced whole, the link kept; a link to nothing is still refused.
        let followed = try waves(["peaks", "--audio", "tracks/t0.wav", "--dat", "out.dat", "--follow-links"])
        XCTAssertEqual(followed.status, 0, followed.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: outside + "/account")).prefix(4), Data([1, 0, 0, 0]), "a mono .dat, version 1")
        XCTAssertEqual((try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/out.dat")), outside + "/account")
        XCTAssertEqual(try waves(["peaks", "--audio", "tracks/t0.wav", "--dat", "dangling.dat", "--follow-links"]).status, 73)
        XCTAssertFalse(exists(outside + "/nothere"))
        // A folder of frames that is a link: refused, nothing written into what it points to.
        let frames = try waves(["render", "--backend", "cpu", "--size", "40x20", "--frames", "2", "--out", "dir.dat"])
        XCTAssertEqual(frames.status, 73, frames.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside + "/dir"), [])
        // A batch's results file is never written through a link either.
        try "{\"input\": \"tracks/t0.wav\", \"output\": \"a.dat\"}\n".write(toFile: folder + "/m.jsonl", atomically: true, encoding: .utf8)
        XCTAssertEqual(symlink(outside + "/account", folder + "/r.jsonl"), 0)
        XCTAssertEqual(try waves(["batch", "--manifest", "m.jsonl", "--results", "r.jsonl"]).status, 73)
        XCTAssertFalse(exists("a.dat"), "nothing is done when the results cannot be written")
    }

    // MARK: A batch's outputs stay under its root

    func testABatchWritesNothingOutsideItsOutputRoot() throws {
        let outside = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createDirectory(atPath: folder + "/job", withIntermediateDirectories: true)
        XCTAssertEqual(symlink(outside, folder + "/job/escape"), 0)
        let manifest = """
            {"id": "absolute", "input": "tracks/t0.wav", "output": "\(outside)/a.dat"}
            {"id": "climbs", "input": "tracks/t0.wav", "output": "job/../b.dat"}
            {"id": "through-a-link", "input": "tracks/t0.wav", "output": "job/escape/c.dat"}
            {"id": "inside", "input": "tracks/t1.wav", "output": "job/out/d.dat"}

            """
        try manifest.write(toFile: folder + "/job/m.jsonl", atomically: true, encoding: .utf8)
        let r = try waves(["batch", "--manifest", "job/m.jsonl", "--results", "r.jsonl"])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertEqual(lines(r.stderr).filter { $0.contains("outside the output root") }.count, 3, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [], "nothing outside the root")
        XCTAssertFalse(exists("b.dat"), "job/../b.dat climbs out of the manifest's folder")
        XCTAssert(exists("job/out/d.dat"), "the item inside is done")
        // A manifest on standard input: the current folder is the root, so job/../b.dat is inside but the others are not.
        let piped = try waves(["batch", "--manifest", "-"], stdin: manifest)
        XCTAssertEqual(piped.status, 65, piped.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [])
        // The operator may allow it, or name the root.
        let allowed = try waves(["batch", "--manifest", "job/m.jsonl", "--allow-outside-root"])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: outside).filter { !$0.hasPrefix(".") }), ["a.dat", "c.dat"])
        // waves batch plan keeps to its root as well.
        let plan = try waves(["batch", "plan", "tracks", "--out", "\(outside)/{name}.dat"])
        XCTAssertEqual(plan.status, 64, plan.stderr)
        XCTAssertEqual(plan.stdout, "")
        XCTAssertEqual(try waves(["batch", "plan", "tracks", "--out", "\(outside)/{name}.dat", "--output-root", outside]).status, 0)
    }

    // MARK: Memory

    /// A 16384x16384 frame under address-space limits across the band where
    /// it used to abort (1.2 to 2.2 GB): exit 71 with one line, or success;
    /// never a signal. Through both backends, the waveform, and a batch,
    /// where the item fails (75) and the run goes on. The top limit stays
    /// below the CPU render's 2.5 GiB, whose frame a debug build would take
    /// half a minute to draw.
    func testRunningOutOfMemoryIsOneLineAtEveryLimit() throws {
        let big = ["--size", "16384x16384", "--out", "big.png"]
        try "{\"id\": \"big\", \"input\": \"tracks/t0.wav\", \"output\": \"big.png\", \"size\": \"16384x16384\"}\n{\"id\": \"small\", \"input\": \"tracks/t1.wav\", \"output\": \"small.png\"}\n"
            .write(toFile: folder + "/m.jsonl", atomically: true, encoding: .utf8)
        for limit in [1_000_000, 1_200_000, 1_500_000, 1_800_000, 2_000_000, 2_200_000, 2_600_000] {
            for command in [["render", "--backend", "cpu"] + big, ["render", "--backend", "gl"] + big,
                            ["render", "waveform", "--backend", "cpu", "--audio", "tracks/t0.wav"] + big,
                            ["batch", "--manifest", "m.jsonl", "--jobs", "2"]] {
                let r = try WavesBinary.execute(["/bin/sh", "-c", "ulimit -v \(limit) && exec \"$0\" \"$@\"", WavesBinary.path] + command,
                                                in: folder, environment: ["SWIFT_BACKTRACE": "enable=no"])
                let what = "\(command.prefix(3)) at \(limit) KB"
                XCTAssertLessThan(r.status, 128, "\(what): ended by a signal: \(r.stderr.prefix(300))")
                if command[0] == "batch" {
                    XCTAssert([0, 75].contains(r.status), "\(what): \(r.stderr)")
                    XCTAssert(exists("small.png"), "\(what): the run goes on")
                    if r.status == 75 { XCTAssertEqual(lines(r.stderr).count, 1, "\(what): \(r.stderr)") }
                } else {
                    XCTAssert([0, 71].contains(r.status), "\(what): \(r.stderr)")
                    if r.status == 71 {
                        XCTAssertEqual(lines(r.stderr).count, 1, "\(what): \(r.stderr)")
                        XCTAssert(r.stderr.contains("not enough memory"), "\(what): \(r.stderr)")
                        XCTAssertFalse(exists("big.png"), "\(what): nothing written")
                    }
                }
                for name in ["big.png", "small.png", ".big.png.waves", ".small.png.waves"] { unlink(folder + "/" + name) }
                XCTAssertEqual(temporaries(under: folder), [], what)
            }
        }
    }

    // MARK: Bounded work

    func testWorkBeyondACeilingIsRefusedBeforeItStarts() throws {
        let started = Date()
        for (arguments, names) in [(["render", "crates", "--time", "1e9", "--out", "c.png"], "3600 s"),
                                   (["render", "crates", "--time", "3000", "--frames", "100000", "--fps", "1", "--out", "frames"], "3600 s"),
                                   (["render", "crates", "--crates", "10000", "--physics-step", "0.0001", "--time", "3600", "--out", "c.png"],
                                    "up to 0.3 s"),
                                   (["demo", "crates", "--headless", "--time", "1e9"], "3600 s"),
                                   (["render", "--frames", "1e12"], "from 1 to 100000"),
                                   (["demo", "--headless", "--duration", "1e9"], "at most 86400")] {
            let r = try waves(arguments)
            XCTAssertEqual(r.status, 64, "\(arguments): \(r.stderr)")
            XCTAssertEqual(lines(r.stderr).count, 1, r.stderr)
            XCTAssert(r.stderr.contains(names), "\(arguments): \(r.stderr)")
        }
        XCTAssertFalse(exists("c.png") || exists("frames"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "refused at once, not simulated")
    }

    // MARK: A batch's record survives a kill

    /// Killed with SIGKILL at several moments: the results file lists only
    /// items that finished, each listed output is whole, a rerun completes
    /// the rest, and no temporary file outlives it.
    func testAKilledBatchKeepsARecordOfWhatFinished() throws {
        var manifest = ""
        for i in 0..<40 { manifest += "{\"id\": \"i\(i)\", \"input\": \"tracks/t\(i % 3).wav\", \"output\": \"out/p\(i).json\", \"samples-per-pixel\": 2}\n" }
        try manifest.write(toFile: folder + "/m.jsonl", atomically: true, encoding: .utf8)
        var generator = SeededGenerator(seed: 44)
        for attempt in 0..<4 {
            try? FileManager.default.removeItem(atPath: folder + "/out")
            let delay = useconds_t(Int.random(in: 20_000...250_000, using: &generator))
            _ = try WavesBinary.execute([WavesBinary.path, "batch", "--manifest", "m.jsonl", "--jobs", "2", "--results", "killed.jsonl"],
                                        in: folder) { pid in
                usleep(delay)
                kill(pid, SIGKILL)
            }
            let listed = (try? String(contentsOfFile: folder + "/killed.jsonl", encoding: .utf8)) ?? ""
            for line in lines(listed) {
                let item = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "attempt \(attempt): \(line)")
                XCTAssertEqual(item["status"] as? String, "ok", "attempt \(attempt)")
                let output = try XCTUnwrap(item["output"] as? String)
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: try bytes(output)), "attempt \(attempt): \(output) is whole")
            }
            let rerun = try waves(["batch", "--manifest", "m.jsonl", "--results", "rerun.jsonl"])
            XCTAssertEqual(rerun.status, 0, "attempt \(attempt): \(rerun.stderr)")
            let statuses = lines(try String(contentsOfFile: folder + "/rerun.jsonl", encoding: .utf8)).map { line in
                ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["status"] as? String ?? "?"
            }
            XCTAssertEqual(statuses.count, 40, "attempt \(attempt)")
            XCTAssertEqual(statuses.filter { $0 != "ok" && $0 != "skipped" }, [], "attempt \(attempt)")
            // Every item the killed run listed is skipped now (an item whose line the kill cut off may be too).
            XCTAssertGreaterThanOrEqual(statuses.filter { $0 == "skipped" }.count, lines(listed).count, "attempt \(attempt)")
            XCTAssertEqual(temporaries(under: folder), [], "attempt \(attempt)")
        }
    }

    // MARK: The smaller items

    func testTheBatchsSmallerRefusals() throws {
        let plan = try waves(["batch", "plan", "nothere/", "--out", "o/{name}.dat"])
        XCTAssertEqual(plan.status, 66, plan.stderr)
        XCTAssertEqual(plan.stdout, "")
        let slurm = try waves(["batch", "--manifest", "-", "--shard", "auto"],
                              environment: ["SLURM_ARRAY_TASK_ID": "abc", "SLURM_ARRAY_TASK_COUNT": "2"], stdin: "")
        XCTAssertEqual(slurm.status, 64, slurm.stderr)
        XCTAssert(slurm.stderr.contains("SLURM_ARRAY_TASK_ID") && slurm.stderr.contains("abc"), slurm.stderr)
        let duplicate = try waves(["batch", "--manifest", "-"],
                                  stdin: "{\"id\": \"a\", \"input\": \"tracks/t0.wav\", \"output\": \"x.dat\"}\n{\"id\": \"a\", \"input\": \"tracks/t1.wav\", \"output\": \"y.dat\"}\n")
        XCTAssertEqual(duplicate.status, 65, duplicate.stderr)
        XCTAssert(duplicate.stderr.contains("line 2") && duplicate.stderr.contains("\"id\" a"), duplicate.stderr)
        XCTAssertFalse(exists("x.dat") || exists("y.dat"))
        // A given id that is another item's default (its input) is refused too; items with no id may share an input.
        let defaulted = try waves(["batch", "--manifest", "-"],
                                  stdin: "{\"input\": \"tracks/t0.wav\", \"output\": \"x.dat\"}\n{\"id\": \"tracks/t0.wav\", \"input\": \"tracks/t1.wav\", \"output\": \"y.dat\"}\n")
        XCTAssertEqual(defaulted.status, 65, defaulted.stderr)
        let shared = try waves(["batch", "--manifest", "-"],
                               stdin: "{\"input\": \"tracks/t0.wav\", \"output\": \"x.dat\"}\n{\"input\": \"tracks/t0.wav\", \"output\": \"x.png\"}\n")
        XCTAssertEqual(shared.status, 0, shared.stderr)
        // The results file is never an item's output.
        let clash = try waves(["batch", "--manifest", "-", "--results", "x.dat"], stdin: "{\"input\": \"tracks/t0.wav\", \"output\": \"x.dat\"}\n")
        XCTAssertEqual(clash.status, 64, clash.stderr)
        let help = try waves(["batch", "--help"])
        XCTAssert(help.stdout.contains("73") && help.stdout.contains("--output-root") && help.stdout.contains("--follow-links"), help.stdout)
        let manifestHelp = try waves(["batch", "run", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssert(manifestHelp.contains("named by its input") && manifestHelp.contains("ending .png is render"), manifestHelp)
    }
}
