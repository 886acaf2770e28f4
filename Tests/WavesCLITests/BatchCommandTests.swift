import Foundation
import WaveAudio
import WaveImageIO
import WaveTestSupport
import XCTest

/// `waves batch`'s contract without a scheduler: shards that never overlap
/// and cover the manifest, items done exactly as their commands do them
/// alone, failures told apart (65 for good, 75 worth a retry), a second run
/// that changes nothing, and a killed run that finishes cleanly.
final class BatchCommandTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws {
        folder = try WavesBinary.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/tracks", withIntermediateDirectories: true)
        for i in 0..<6 {
            let track = GeneratedTrack(seconds: Double(2 + i), sampleRate: 8000)
            try AudioWriter.write(to: folder + "/tracks/t\(i).wav", format: i % 2 == 0 ? .wav : .flac, sampleRate: 8000,
                                  frames: track.sampleCount) { n, _ in track.sample(n) }
        }
        // .wav by name, text by content.
        try Data("this is not a track".utf8).write(to: URL(fileURLWithPath: folder + "/tracks/bad.wav"))
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func waves(_ arguments: [String], environment: [String: String?] = [:]) throws -> WavesBinary.Result {
        try WavesBinary.run(arguments, in: folder, environment: environment)
    }

    private func plan(_ pattern: String, _ settings: [String] = []) throws -> [String] {
        let r = try waves(["batch", "plan", "tracks", "--out", pattern] + settings.flatMap { ["--set", $0] })
        XCTAssertEqual(r.status, 0, r.stderr)
        try r.stdout.write(toFile: folder + "/manifest.jsonl", atomically: true, encoding: .utf8)
        return r.stdout.split(separator: "\n").map(String.init)
    }

    private func results(_ name: String) throws -> [[String: Any]] {
        try String(contentsOfFile: folder + "/" + name, encoding: .utf8).split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    private func data(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path)) }

    private func stamps(_ paths: [String]) throws -> [Date?] {
        try paths.map { try FileManager.default.attributesOfItem(atPath: folder + "/" + $0)[.modificationDate] as? Date }
    }

    func testShardsAreDisjointCoverTheManifestAndMatchTheCommandsAlone() throws {
        let lines = try plan("out/{name}.dat", ["samples-per-pixel=400", "bits=16"])
        XCTAssertEqual(lines.count, 7)
        var seen: [String] = []
        for k in 0..<4 {
            let r = try waves(["batch", "--manifest", "manifest.jsonl", "--shard", "\(k)/4", "--results", "r\(k).jsonl", "--jobs", "2"])
            let shard = try results("r\(k).jsonl")
            let ids = shard.compactMap { $0["id"] as? String }
            XCTAssertEqual(r.status, ids.contains("tracks/bad.wav") ? 65 : 0, r.stderr)
            XCTAssert(r.stdout.contains("shard \(k)/4: \(ids.count) item\(ids.count == 1 ? "" : "s"):"), r.stdout)
            seen += ids
            for item in shard where item["id"] as? String == "tracks/bad.wav" {
                XCTAssertEqual(item["status"] as? String, "failed")
                XCTAssert((item["reason"] as? String ?? "").contains("bad.wav"), "\(item)")
                XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "stderr: \(r.stderr) stdout: \(r.stdout)")
            }
        }
        XCTAssertEqual(seen.sorted(), (["tracks/bad.wav"] + (0..<6).map { "tracks/t\($0).wav" }).sorted(), "disjoint, and every item once")
        for i in 0..<6 {
            let alone = try waves(["peaks", "--audio", "tracks/t\(i).wav", "--dat", "alone.dat", "--samples-per-pixel", "400", "--bits", "16"])
            XCTAssertEqual(alone.status, 0, alone.stderr)
            XCTAssertEqual(try data("out/t\(i).dat"), try data("alone.dat"), "t\(i)")
        }
        // The shard's position is the line's: K/N and the schedulers' indices agree.
        let slurm = try waves(["batch", "--manifest", "manifest.jsonl", "--shard", "auto", "--results", "slurm.jsonl"],
                              environment: ["SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "4"])
        XCTAssertEqual(slurm.status, 0, slurm.stderr)
        // (A results file lists items as they end: compared as sets.)
        XCTAssertEqual(Set(try results("slurm.jsonl").compactMap { $0["id"] as? String }), Set(try results("r2.jsonl").compactMap { $0["id"] as? String }))
        let kubernetes = try waves(["batch", "--manifest", "manifest.jsonl", "--shard", "auto", "--shards", "4", "--results", "k8s.jsonl"],
                                   environment: ["JOB_COMPLETION_INDEX": "1"])
        XCTAssertEqual(Set(try results("k8s.jsonl").compactMap { $0["id"] as? String }), Set(try results("r1.jsonl").compactMap { $0["id"] as? String }),
                       kubernetes.stderr)
        let none = try waves(["batch", "--manifest", "manifest.jsonl", "--shard", "auto"], environment: ["SLURM_ARRAY_TASK_ID": nil])
        XCTAssertEqual(none.status, 64, none.stderr)
        XCTAssertEqual(none.stderr.split(separator: "\n").count, 1, none.stderr)
    }

    func testRenderItemsAreTheRenderCommandsImages() throws {
        _ = try plan("img/{name}.png", ["fit=true", "size=300x60", "time=1.5", "axis=true"])
        let r = try waves(["batch", "--manifest", "manifest.jsonl"])
        XCTAssertEqual(r.status, 65, r.stderr)
        for i in [0, 3] {
            let alone = try waves(["render", "waveform", "--audio", "tracks/t\(i).wav", "--fit", "--size", "300x60", "--time", "1.5", "--axis",
                                   "--backend", "cpu", "--out", "alone.png"])
            XCTAssertEqual(alone.status, 0, alone.stderr)
            XCTAssertEqual(try data("img/t\(i).png"), try data("alone.png"), "t\(i)")
        }
    }

    /// Lottie items (issue 43): each file written whole, as an animation or
    /// as a folder of frames, as `waves render lottie` writes it alone (the
    /// same bytes); a kind inferred from a .json input and an animated output
    /// or a folder; a second run skips them; a folder a killed run left (its
    /// fingerprint missing, a stale frame and a dead writer's temporary file
    /// in it) is done again and holds the animation's frames alone; an item
    /// whose output is neither fails with one line, and one whose folder is a
    /// file fails for good.
    func testLottieItemsAreTheWholeAnimationAsRenderWritesIt() throws {
        try GLRequirement.needPrograms(["/usr/bin/ffmpeg"], hint: "apt-get install ffmpeg")
        let file = folder + "/anim.json"
        try LottieFixtures.everyEffect.write(toFile: file, atomically: true, encoding: .utf8)
        try """
            {"id":"a","input":"anim.json","output":"anim/a.apng","size":"48x32","background":"#FFFFFF"}
            {"id":"b","input":"anim.json","output":"anim/b.gif","kind":"lottie","size":"40x40"}
            {"id":"c","input":"anim.json","output":"anim/frames/","size":"24x16"}
            {"id":"d","input":"anim.json","output":"anim/d.txt","kind":"lottie"}
            {"id":"e","input":"anim.json","output":"anim/taken/"}
            """.write(toFile: folder + "/lottie.jsonl", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder + "/anim", withIntermediateDirectories: true)
        try Data("a file".utf8).write(to: URL(fileURLWithPath: folder + "/anim/taken"))
        let r = try waves(["batch", "--manifest", "lottie.jsonl", "--results", "lottie-results.jsonl"])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").filter { $0.contains("d: output anim/d.txt") }.count, 1, r.stderr)
        // A file where the frames' folder would be: refused for good (65, not worth a retry), and left as it was.
        let taken = try results("lottie-results.jsonl").first { $0["id"] as? String == "e" }
        XCTAssertEqual(taken?["exit_status"] as? Int, 65, "\(String(describing: taken))")
        XCTAssertEqual(try data("anim/taken"), Data("a file".utf8))
        let alone = try waves(["render", "lottie", "--file", "anim.json", "--size", "48x32", "--background", "#FFFFFF", "--backend", "cpu",
                               "--out", "alone.apng"])
        XCTAssertEqual(alone.status, 0, alone.stderr)
        XCTAssertEqual(try data("anim/a.apng"), try data("alone.apng"), "the batch's animation is render's")
        XCTAssertGreaterThan(try data("anim/b.gif").count, 0)
        let frames = try waves(["render", "lottie", "--file", "anim.json", "--size", "24x16", "--backend", "cpu", "--out", "alone/"])
        XCTAssertEqual(frames.status, 0, frames.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/alone").sorted()
        XCTAssertGreaterThan(names.count, 1)
        func sameFrames(_ note: String) throws {
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/anim/frames").sorted(), names, note)
            for name in names { XCTAssertEqual(try data("anim/frames/" + name), try data("alone/" + name), "\(name): \(note)") }
        }
        try sameFrames("the batch's frames are render's")
        let again = try waves(["batch", "--manifest", "lottie.jsonl", "--results", "again.jsonl"])
        XCTAssertEqual(again.status, 65, again.stderr)
        func statuses(_ name: String) throws -> [String: String] {
            Dictionary(uniqueKeysWithValues: try results(name).map { ($0["id"] as? String ?? "", $0["status"] as? String ?? "") })
        }
        XCTAssertEqual(try statuses("again.jsonl"), ["a": "skipped", "b": "skipped", "c": "skipped", "d": "failed", "e": "failed"])
        // As a task killed while writing the frames leaves them: no fingerprint, a frame of an earlier sequence, a writer's file.
        try FileManager.default.removeItem(atPath: folder + "/anim/.frames.waves")
        let stale = folder + "/anim/frames/" + OutputPaths.frameName(names.count + 5)
        try Data("old".utf8).write(to: URL(fileURLWithPath: stale))
        let pending = folder + "/anim/frames/.w999999-1-\(PendingFile.hostTag).tmp"
        try Data("half a frame".utf8).write(to: URL(fileURLWithPath: pending))
        let redo = try waves(["batch", "--manifest", "lottie.jsonl", "--results", "redo.jsonl"])
        XCTAssertEqual(redo.status, 65, redo.stderr)
        XCTAssertEqual(try statuses("redo.jsonl"), ["a": "skipped", "b": "skipped", "c": "ok", "d": "failed", "e": "failed"])
        try sameFrames("a folder done again holds the animation's frames alone")
    }

    /// `waves batch plan` of a folder of animations (issue 43): its Lottie
    /// files alone (hidden ones left out), in name order, as lottie items for an animation or a
    /// folder pattern (or an animated PNG asked for by kind); a folder holding
    /// none is one line naming the inputs and what they must hold (64), a
    /// Lottie pattern that is no animation one naming --out, and nothing is
    /// written; a peaks pattern over the folder plans its audio alone.
    func testAPlanOfAnimationsListsTheirLottieFiles() throws {
        let animations = folder + "/animations"
        try FileManager.default.createDirectory(atPath: animations, withIntermediateDirectories: true)
        for name in ["b.json", "a.json", ".hidden.json"] {
            try LottieFixtures.everyEffect.write(toFile: animations + "/" + name, atomically: true, encoding: .utf8)
        }
        try FileManager.default.copyItem(atPath: folder + "/tracks/t0.wav", toPath: animations + "/t0.wav")
        for (pattern, kind) in [("out/{name}.mp4", [String]()), ("out/{name}/", []), ("out/{name}.png", ["--kind", "lottie"])] {
            let r = try waves(["batch", "plan", "animations", "--out", pattern, "--set", "size=64x64"] + kind)
            XCTAssertEqual(r.status, 0, r.stderr)
            let items = try r.stdout.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]) }
            XCTAssertEqual(items.map { $0["input"] }, ["animations/a.json", "animations/b.json"], pattern)
            XCTAssertEqual(items.map { $0["kind"] }, ["lottie", "lottie"], pattern)
            XCTAssertEqual(items.map { $0["output"] }, ["a", "b"].map { pattern.replacingOccurrences(of: "{name}", with: $0) })
            XCTAssertEqual(items.map { $0["size"] }, ["64x64", "64x64"])
        }
        let audioOnly = try waves(["batch", "plan", "tracks", "--out", "out/{name}.mp4"])
        XCTAssertEqual(audioOnly.status, 64, audioOnly.stderr)
        XCTAssertEqual(audioOnly.stderr.split(separator: "\n").count, 1, audioOnly.stderr)
        XCTAssert(audioOnly.stderr.contains("<inputs> tracks: expected files or folders holding Lottie files (*.json) (see 'waves batch plan --help')"),
                  audioOnly.stderr)
        XCTAssertEqual(audioOnly.stdout, "")
        let notAnimation = try waves(["batch", "plan", "animations", "--out", "out/{name}.dat", "--kind", "lottie"])
        XCTAssertEqual(notAnimation.status, 64, notAnimation.stderr)
        XCTAssert(notAnimation.stderr.contains("--out out/{name}.dat: expected an animation"), notAnimation.stderr)
        XCTAssertEqual(notAnimation.stdout, "")
        // Peaks of a folder of animations: its one track.
        let peaks = try waves(["batch", "plan", "animations", "--out", "out/{name}.dat"])
        XCTAssertEqual(peaks.status, 0, peaks.stderr)
        XCTAssertEqual(peaks.stdout.split(separator: "\n").count, 1, peaks.stdout)
        XCTAssert(peaks.stdout.contains("\"kind\":\"peaks\""), peaks.stdout)
    }

    /// Done items are skipped by their fingerprint: no output's time changes;
    /// touching a track redoes it alone; --force redoes every one.
    func testASecondRunSkipsWhatIsDoneAndChangesNoFile() throws {
        _ = try plan("out/{name}.json")
        let outputs = (0..<6).map { "out/t\($0).json" }
        XCTAssertEqual(try waves(["batch", "--manifest", "manifest.jsonl"]).status, 65)
        let before = try stamps(outputs)
        let second = try WavesBinary.run(["batch", "--manifest", "-", "--results", "again.jsonl"], in: folder,
                                         stdin: try String(contentsOfFile: folder + "/manifest.jsonl", encoding: .utf8))
        XCTAssertEqual(second.status, 65, second.stderr)
        XCTAssert(second.stdout.contains("7 items: 0 ok, 6 skipped, 1 failed"), second.stdout)
        XCTAssertEqual(try stamps(outputs), before)
        // A track changed since: that item alone is done again.
        Thread.sleep(forTimeInterval: 0.05)
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: folder + "/tracks/t2.wav")
        let third = try waves(["batch", "--manifest", "manifest.jsonl"])
        XCTAssert(third.stdout.contains("1 ok, 5 skipped, 1 failed"), third.stdout)
        let forced = try waves(["batch", "--manifest", "manifest.jsonl", "--force"])
        XCTAssert(forced.stdout.contains("6 ok, 0 skipped, 1 failed"), forced.stdout)
    }

    /// A task killed (SIGKILL) while it works, run again, finishes with every
    /// output whole and no temporary file left, even one a dead task left.
    func testAKilledRunFinishesCleanlyWhenRunAgain() throws {
        _ = try plan("out/{name}.dat", ["samples-per-pixel=2"])
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        // What a task killed mid-write leaves: the atomic writer's temporary file, its process gone (on this
        // machine); and another machine's, a day old, and a fresh one of another machine's, which is kept.
        try Data("partial".utf8).write(to: URL(fileURLWithPath: folder + "/out/.w999999-1-\(PendingFile.hostTag).tmp"))
        try Data("partial".utf8).write(to: URL(fileURLWithPath: folder + "/out/.w999999-2-0badcafe.tmp"))
        var old = [timeval(tv_sec: time(nil) - 2 * 86_400, tv_usec: 0), timeval(tv_sec: time(nil) - 2 * 86_400, tv_usec: 0)]
        XCTAssertEqual(utimes(folder + "/out/.w999999-2-0badcafe.tmp", &old), 0)
        try Data("in progress".utf8).write(to: URL(fileURLWithPath: folder + "/out/.w1-1-0badcafe.tmp"))
        var child: pid_t = 0
        let killer = Thread {
            Thread.sleep(forTimeInterval: 0.15)
            if child > 0 { kill(child, SIGKILL) }
        }
        killer.start()
        // Killed part way, or (on a fast machine) finished first: either way the rerun must finish the shard cleanly.
        _ = try WavesBinary.execute([WavesBinary.path, "batch", "--manifest", "manifest.jsonl", "--jobs", "2"], in: folder,
                                    onSpawn: { child = $0 })
        let rerun = try waves(["batch", "--manifest", "manifest.jsonl", "--results", "rerun.jsonl"])
        XCTAssertEqual(rerun.status, 65, rerun.stderr)
        let statuses = try results("rerun.jsonl").map { $0["status"] as? String ?? "" }
        XCTAssertEqual(statuses.filter { $0 == "failed" }.count, 1)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { $0.hasSuffix(".tmp") }
        XCTAssertEqual(left, [".w1-1-0badcafe.tmp"], "only another machine's fresh temporary file is left")
        for i in 0..<6 {
            let alone = try waves(["peaks", "--audio", "tracks/t\(i).wav", "--dat", "alone.dat", "--samples-per-pixel", "2"])
            XCTAssertEqual(alone.status, 0, alone.stderr)
            XCTAssertEqual(try data("out/t\(i).dat"), try data("alone.dat"), "t\(i)")
        }
    }

    /// A failure a retry can help (the output cannot be written) is 75; a
    /// broken manifest line does nothing at all (65).
    func testFailuresSayWhetherARetryCanHelp() throws {
        let item = #"{"id": "a", "input": "tracks/t0.wav", "output": "/proc/waves-no/a.dat", "kind": "peaks"}"#
        // Outside the output root (the current folder) only when allowed: the write itself is what fails here.
        let r = try WavesBinary.run(["batch", "--manifest", "-", "--allow-outside-root"], in: folder, stdin: item + "\n")
        XCTAssertEqual(r.status, 75, r.stderr)
        let broken = try WavesBinary.run(["batch", "--manifest", "-"], in: folder,
                                         stdin: #"{"input": "tracks/t0.wav", "output": "x.dat"}"# + "\nnot json\n")
        XCTAssertEqual(broken.status, 65, broken.stderr)
        XCTAssert(broken.stderr.contains("line 2"), broken.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/x.dat"))
        let option = try WavesBinary.run(["batch", "--manifest", "-"], in: folder,
                                         stdin: #"{"input": "tracks/t0.wav", "output": "y.dat", "bits": 12}"# + "\n")
        XCTAssertEqual(option.status, 65, option.stderr)
        XCTAssert(option.stderr.contains("--bits"), option.stderr)
    }
}
