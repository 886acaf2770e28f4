import Foundation
import WaveAudio
import WaveTestSupport
import XCTest

/// `waves batch` driven by real schedulers started on this machine: a
/// one-node Slurm (contrib/slurm) and a local Ray (contrib/ray), each giving
/// the outputs `waves peaks` gives alone. `make test` installs both (`make
/// cluster-deps`); where one cannot start, CI (WAVES_REQUIRE_CLUSTER=1)
/// fails and says why, and elsewhere the test is skipped.
final class SchedulerTests: XCTestCase {
    private var folder: String!
    private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    override func setUpWithError() throws {
        folder = try WavesBinary.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/tracks", withIntermediateDirectories: true)
        // Six short tracks, one long one (a child worth killing while it works) and one that is not audio.
        for (i, seconds) in [2.0, 3, 4, 5, 6, 7, 240].enumerated() {
            let track = GeneratedTrack(seconds: seconds, sampleRate: 8000)
            try AudioWriter.write(to: folder + "/tracks/t\(i).wav", format: .wav, sampleRate: 8000, frames: track.sampleCount) { n, _ in
                track.sample(n)
            }
        }
        try Data("not a track".utf8).write(to: URL(fileURLWithPath: folder + "/tracks/bad.wav"))
        let plan = try WavesBinary.run(["batch", "plan", "tracks", "--out", "out/{name}.dat", "--set", "samples-per-pixel=4"], in: folder)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        // And a Lottie file written whole as an animation and as a folder of frames (issue 43), last: positions 8 and 9,
        // tasks 0 and 1 of 4.
        try LottieFixtures.everyEffect.write(toFile: folder + "/anim.json", atomically: true, encoding: .utf8)
        let lottie = ##"{"id":"anim","input":"anim.json","output":"out/anim.apng","size":"40x40","background":"#FFFFFF"}"##
        let frames = ##"{"id":"anim-frames","input":"anim.json","output":"out/anim-frames/","size":"24x16"}"##
        try (plan.stdout + lottie + "\n" + frames + "\n").write(toFile: folder + "/manifest.jsonl", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func shell(_ command: String, environment: [String: String?] = [:], timeout: TimeInterval = 180,
                       onSpawn: ((pid_t) -> Void)? = nil) throws -> WavesBinary.Result {
        try WavesBinary.execute(["/bin/bash", "-c", command], in: folder, environment: environment, timeout: timeout, onSpawn: onSpawn)
    }

    /// Every good track's output is the one `waves peaks` writes alone; the results say so, the bad track failed.
    private func checkCatalogue(results: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let lines = try String(contentsOfFile: folder + "/" + results, encoding: .utf8).split(separator: "\n")
        let items = try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(items.compactMap { $0["id"] as? String }.sorted(),
                       (["anim", "anim-frames", "tracks/bad.wav"] + (0..<7).map { "tracks/t\($0).wav" }).sorted(), file: file, line: line)
        for item in items {
            let failed = item["id"] as? String == "tracks/bad.wav"
            XCTAssertEqual(item["status"] as? String == "failed", failed, "\(item)", file: file, line: line)
        }
        // The animation is the one `waves render lottie` writes alone.
        let animation = try WavesBinary.run(["render", "lottie", "--file", "anim.json", "--size", "40x40", "--background", "#FFFFFF",
                                             "--backend", "cpu", "--out", "alone.apng"], in: folder)
        XCTAssertEqual(animation.status, 0, animation.stderr, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/out/anim.apng")),
                       try Data(contentsOf: URL(fileURLWithPath: folder + "/alone.apng")), "anim", file: file, line: line)
        let frames = try WavesBinary.run(["render", "lottie", "--file", "anim.json", "--size", "24x16", "--backend", "cpu", "--out", "alone-frames/"],
                                         in: folder)
        XCTAssertEqual(frames.status, 0, frames.stderr, file: file, line: line)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/alone-frames").sorted()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/out/anim-frames").sorted(), names, file: file, line: line)
        for name in names {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/out/anim-frames/" + name)),
                           try Data(contentsOf: URL(fileURLWithPath: folder + "/alone-frames/" + name)), name, file: file, line: line)
        }
        for i in 0..<7 {
            let alone = try WavesBinary.run(["peaks", "--audio", "tracks/t\(i).wav", "--dat", "alone.dat", "--samples-per-pixel", "4"], in: folder)
            XCTAssertEqual(alone.status, 0, alone.stderr, file: file, line: line)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/out/t\(i).dat")),
                           try Data(contentsOf: URL(fileURLWithPath: folder + "/alone.dat")), "t\(i)", file: file, line: line)
        }
    }

    private func stamps() throws -> [Date?] {
        try (0..<7).map { try FileManager.default.attributesOfItem(atPath: folder + "/out/t\($0).dat")[.modificationDate] as? Date }
    }

    /// A 4-task array, 2 at a time, through contrib/slurm/waves-array.sbatch:
    /// the catalogue done; a finished task requeued skips its items and
    /// changes no output.
    func testASlurmArrayDoesTheCatalogueAndARequeuedTaskChangesNothing() throws {
        let slurmFolder = folder + "/slurm"
        let environment: [String: String?] = ["WAVES_SLURM_DIR": slurmFolder]
        let start = try shell("'\(repository)/contrib/slurm/start-local-slurm.sh'", environment: environment)
        defer { _ = try? shell("'\(repository)/contrib/slurm/stop-local-slurm.sh'", environment: environment) }
        let conf = try GLRequirement.need("a one-node Slurm (contrib/slurm/start-local-slurm.sh, make cluster-deps)", flag: "WAVES_REQUIRE_CLUSTER") {
            guard start.status == 0, let line = start.stdout.split(separator: "\n").first(where: { $0.hasPrefix("SLURM_CONF=") }) else {
                throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "exit \(start.status): \(start.stderr)"])
            }
            return String(line.dropFirst("SLURM_CONF=".count))
        }
        let run = "'\(repository)/contrib/slurm/run-array.sh' --tasks 4 --parallel 2 --timeout 120 --results results.jsonl manifest.jsonl"
        let environmentForJobs: [String: String?] = ["SLURM_CONF": conf, "WAVES": WavesBinary.path]
        let first = try shell(run, environment: environmentForJobs)
        XCTAssertEqual(first.status, 65, "the bad track failed for good: \(first.stderr)")
        try checkCatalogue(results: "results.jsonl")
        // A finished task requeued (scontrol requeue: Slurm runs it again, as after a node failure) skips its items.
        let before = try stamps()
        let job = first.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let taskResults = folder + "/results-1.jsonl"
        let written = { (try? FileManager.default.attributesOfItem(atPath: taskResults)[.modificationDate]) as? Date }
        let firstWrite = written()
        // A task just ended may still be completing for a moment: Slurm refuses to requeue it until it is done.
        var requeue = try shell("scontrol requeue \(job)_1", environment: ["SLURM_CONF": conf])
        for _ in 0..<40 where requeue.status != 0 {
            Thread.sleep(forTimeInterval: 0.25)
            requeue = try shell("scontrol requeue \(job)_1", environment: ["SLURM_CONF": conf])
        }
        XCTAssertEqual(requeue.status, 0, requeue.stderr)
        let deadline = Date().addingTimeInterval(90)
        var rerun = false
        while Date() < deadline {
            let queued = try shell("squeue -h -j \(job)_1", environment: ["SLURM_CONF": conf]).stdout
            if queued.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, let now = written(), now != firstWrite { rerun = true; break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        XCTAssert(rerun, "the requeued task did not run again within 90 s")
        let statuses = try String(contentsOfFile: taskResults, encoding: .utf8).split(separator: "\n").map {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["status"] as? String ?? ""
        }
        XCTAssertEqual(statuses, ["skipped", "skipped", "skipped"], "task 1 holds items 1, 5 and 9 of the manifest (9: the frames)")
        XCTAssertEqual(try stamps(), before, "the requeued task changed an output")
    }

    /// contrib/ray/waves_ray.py with ray.init(num_cpus=2), four chunks: the
    /// first chunk's `waves batch` is killed (SIGKILL) as it works and its
    /// process dies by SIGKILL; Ray retries the chunk, and the outputs are the
    /// ones `waves peaks` writes alone.
    func testRayRetriesAKilledChildAndTheOutputsMatch() throws {
        try GLRequirement.need("Ray's venv (make cluster-deps)", flag: "WAVES_REQUIRE_CLUSTER") {
            guard FileManager.default.isExecutableFile(atPath: repository + "/.build/ray-venv/bin/python") else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: repository + "/.build/ray-venv/bin/python"])
            }
        }
        // The first chunk to start has its `waves batch` killed (SIGKILL) 50 ms in, and then dies by SIGKILL
        // itself, as a chunk whose process the kernel killed; every later start is waves as it is.
        let wrapper = folder + "/waves-killed-once"
        try """
            #!/bin/bash
            if mkdir "\(folder!)/killed" 2>/dev/null; then
              '\(WavesBinary.path)' "$@" & child=$!
              sleep 0.05; kill -9 $child; kill -9 $$
            fi
            exec '\(WavesBinary.path)' "$@"
            """.write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        let ray = try shell("'\(repository)/contrib/ray/waves-ray.sh' --manifest manifest.jsonl --results ray.jsonl --waves '\(wrapper)' --chunks 4 --timeout 150")
        XCTAssert(FileManager.default.fileExists(atPath: folder + "/killed"), "no chunk was killed: \(ray.stderr)")
        XCTAssertEqual(ray.status, 65, "the bad track failed for good: \(ray.stderr)")
        XCTAssert(ray.stderr.contains("Ray retries it"), ray.stderr)
        try checkCatalogue(results: "ray.jsonl")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { $0.hasSuffix(".tmp") }, [])
    }

}
