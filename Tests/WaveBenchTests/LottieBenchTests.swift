import Foundation
import WaveBench
import WaveTestSupport
import XCTest

/// `waves bench lottie`: the verdict's and the summary's arithmetic, a peer
/// that crashes or cannot be loaded costing only its own figure, and a run
/// over a folder through the built binary, against the JSON schema: a file
/// whose paths never change is all cached on GL (no pixel rasterised on the
/// CPU after the first frame), a morphing path is redrawn every frame and
/// says so, and ThorVG's crash on dna.json leaves every other figure.
final class LottieBenchTests: XCTestCase {
    func testTheVerdictIsTheCheaperThreadByItsFactorWithTheReason() throws {
        let gl = try XCTUnwrap(LottieReport.Verdict.between(cpuMs: 2, glMs: 0.5, layers: 4, cached: 3, redrawn: 1))
        XCTAssertEqual(gl.strategy, "gl")
        XCTAssertEqual(gl.factor, 4)
        XCTAssert(gl.reason.hasPrefix("3 of 4 layers cached"), gl.reason)
        let cpu = try XCTUnwrap(LottieReport.Verdict.between(cpuMs: 0.3, glMs: 0.9, layers: 5, cached: 1, redrawn: 4))
        XCTAssertEqual(cpu.strategy, "cpu")
        XCTAssertEqual(cpu.factor, 3)
        XCTAssert(cpu.reason.hasPrefix("4 of 5 layers redrawn every frame"), cpu.reason)
        // GL cheaper with nothing cached: the GPU computes the coverage; CPU cheaper with nothing redrawn: the cost per item.
        let computed = try XCTUnwrap(LottieReport.Verdict.between(cpuMs: 1, glMs: 0.5, layers: 5, cached: 0, redrawn: 5))
        XCTAssert(computed.reason.hasPrefix("5 of 5 layers redrawn every frame, their coverage computed on the GPU"), computed.reason)
        let perItem = try XCTUnwrap(LottieReport.Verdict.between(cpuMs: 0.5, glMs: 1, layers: 36, cached: 36, redrawn: 0))
        XCTAssertEqual(perItem.strategy, "cpu")
        XCTAssert(perItem.reason.hasPrefix("36 layers, a draw each"), perItem.reason)
        XCTAssertNil(LottieReport.Verdict.between(cpuMs: nil, glMs: 1, layers: 1, cached: 1, redrawn: 0))
        XCTAssertNil(LottieReport.Verdict.between(cpuMs: 1, glMs: 0, layers: 1, cached: 1, redrawn: 0))
    }

    func testTheMediansAndTargetsComeFromTheRows() {
        func row(_ file: String, cpu: Double, gl: Double, rlottie: Double?, thorvg: Double?) -> LottieReport.Row {
            var r = LottieReport.Row(file: file, frames: 10, frameRate: 30)
            r.wavesCpuMs = Stats(median: cpu, p95: cpu)
            r.wavesGlMs = Stats(median: gl, p95: gl)
            r.rlottieMs = rlottie.map { Stats(median: $0, p95: $0) }
            r.thorvgMs = thorvg.map { Stats(median: $0, p95: $0) }
            return r
        }
        var report = LottieReport(size: [64, 64], rounds: 3)
        report.rows = [row("a", cpu: 1, gl: 0.2, rlottie: 0.5, thorvg: 2), row("b", cpu: 3, gl: 3, rlottie: nil, thorvg: 1),
                       row("c", cpu: 1, gl: 0.5, rlottie: 2, thorvg: 4)]
        report.summarise()
        // Nearest-rank medians: of 1, 1, 3 the second.
        XCTAssertEqual(report.medians.wavesCpuMs, 1)
        XCTAssertEqual(report.medians.rlottieMs, 0.5, "of the files rlottie drew, 0.5 and 2: the first by nearest rank")
        // Waves CPU over the faster peer: a 2, b 3, c 0.5.
        XCTAssertEqual(report.targets.cpuOverFasterPeerMedian, 2)
        XCTAssertEqual(report.targets.cpuOverFasterPeerWorst, 3)
        XCTAssertEqual(report.targets.worstFile, "b")
        // GL over CPU: 0.2, 1, 0.5.
        XCTAssertEqual(report.targets.glOverCpuMedian, 0.5)
        XCTAssertNil(report.targets.memoryMeasured, "no row measured its heap")
    }

    /// A run's peak over the tree, in frames: the larger of the import's
    /// peak and the tree plus the CPU run, less the tree.
    func testTheMemoryTargetComesFromEachRunsPeak() {
        func row(_ file: String, _ memory: LottieReport.Memory?) -> LottieReport.Row {
            var r = LottieReport.Row(file: file, frames: 10, frameRate: 30)
            r.memory = memory
            return r
        }
        // a: the run adds 2.5 frames. b: the import's peak is 4 frames over the tree. c: the run adds 3.
        let a = LottieReport.Memory(treeMb: 1, importPeakMb: 1.2, compiledMb: 0.1, cpuRunMb: 0.625, frameMb: 0.25)
        let b = LottieReport.Memory(treeMb: 1, importPeakMb: 2, compiledMb: 0.1, cpuRunMb: 0.5, frameMb: 0.25)
        let c = LottieReport.Memory(treeMb: 0, importPeakMb: 0, compiledMb: 0, cpuRunMb: 0.75, frameMb: 0.25)
        XCTAssertEqual(a.framesOverTree, 2.5, accuracy: 1e-9)
        XCTAssertEqual(b.framesOverTree, 4, accuracy: 1e-9)
        XCTAssert(c.withinTarget, "exactly 3 frames is within")
        var report = LottieReport(size: [256, 256], rounds: 1)
        report.rows = [row("a", a), row("b", b), row("c", c), row("d", nil)]
        report.summarise()
        XCTAssertEqual(report.targets.memoryMeasured, 3)
        XCTAssertEqual(report.targets.memoryWithin, 2)
        XCTAssertEqual(report.targets.memoryWorstFrames, 4)
        XCTAssertEqual(report.targets.memoryWorstFile, "b")
    }

    /// A peer's pass whose process dies, fails, or answers wrongly is one line, never the bench's end.
    func testAPeerThatCrashesFailsOrAnswersWronglyIsOneLine() throws {
        let folder = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func script(_ name: String, _ body: String) throws -> String {
            let path = folder + "/" + name
            try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
            return path
        }
        let cases: [(String, String)] = [
            (try script("segv", "kill -SEGV $$"), "crashed on x.json (signal 11, SIGSEGV)"),
            (try script("fails", "echo 'ThorVG: could not load x.json' >&2; exit 1"), "ThorVG: could not load x.json"),
            (try script("short", "echo 0.001 0.002"), "gave 2 frame times for 3 frames of x.json"),
        ]
        for (executable, expected) in cases {
            let pass = LottiePeerRun.pass(.thorvg, library: "lib.so", file: folder + "/x.json", width: 8, height: 8, frames: 3,
                                          executable: executable)
            XCTAssertEqual(pass, .failed(expected))
        }
        let good = try script("good", "echo 0.001 0.002 0.003")
        XCTAssertEqual(LottiePeerRun.pass(.rlottie, library: "lib.so", file: "x.json", width: 8, height: 8, frames: 3, executable: good),
                       .times([0.001, 0.002, 0.003]))
    }

    /// Two files of our own and dna.json, through the built binary with the peers' environment.
    func testAFolderIsARowAFileBesideThePeers() throws {
        let folder = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = folder + "/files"
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        typealias F = LottieFixtures
        // A rectangle moved by its layer: its path never changes.
        let moving = F.shapeLayer(items: [F.rectangle(x: 10, y: 10, width: 30, height: 20), F.fill(1, 0, 0)],
                                  position: F.keyframes([(0, "[0,0]"), (20, "[40,50]")]))
        try F.file([moving]).write(toFile: files + "/still-path.json", atomically: true, encoding: .utf8)
        // A triangle whose vertices move: its path is made again every frame.
        func triangle(_ top: Double) -> String {
            #"[{"c":true,"v":[[10,90],[50,\#(top)],[90,90]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}]"#
        }
        let morph = #"{"ty":"sh","ks":\#(F.keyframes([(0, triangle(10)), (20, triangle(60))]))}"#
        try F.file([F.shapeLayer(items: [morph, F.fill(0, 0, 1)])]).write(toFile: files + "/morph.json", atomically: true, encoding: .utf8)
        let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/lottie/dna.json").path
        try FileManager.default.copyItem(atPath: shared, toPath: files + "/dna.json")

        let peers = try LottiePeersEnvironment.folder()
        let r = try WavesBinary.run(["bench", "lottie", "--file", files, "--headless", "--size", "48x48", "--warmup", "2",
                                     "--peers", peers, "--json", "lottie.json"], in: folder, timeout: 600)
        XCTAssertEqual(r.status, 0, r.stderr)
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/lottie.json"))
        XCTAssertEqual(BenchSchema.problems(in: data), [])
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let lottie = try XCTUnwrap(root["lottie"] as? [String: Any])
        let rows = try XCTUnwrap(lottie["rows"] as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["file"] as? String }, ["dna.json", "morph.json", "still-path.json"])
        let byFile = Dictionary(uniqueKeysWithValues: rows.map { ($0["file"] as! String, $0) })
        for row in rows {
            for key in ["waves_cpu_ms", "rlottie_ms"] { XCTAssertNotNil(row[key], "\(row["file"]!): \(key)") }
            let allocations = try XCTUnwrap(row["allocations_per_frame"] as? [String: Double])
            XCTAssertEqual(allocations["cpu"], 0, "\(row["file"]!): no allocation per frame")
            if GLRequirement.required { XCTAssertEqual(allocations["gl"], 0, "\(row["file"]!): no allocation per frame") }
            XCTAssert(allocations.values.allSatisfy { $0 == 0 }, "\(allocations)")
            // The heap a CPU run needs: at least its accumulators and its frame, each about a frame's bytes.
            let memory = try XCTUnwrap(row["memory"] as? [String: Double], "\(row["file"]!): no heap figures")
            XCTAssertGreaterThanOrEqual(memory["cpu_run_mb"]!, 1.5 * memory["frame_mb"]!, "\(row["file"]!): \(memory)")
            XCTAssertGreaterThan(memory["tree_mb"]!, 0, "\(row["file"]!): \(memory)")
        }
        // ThorVG 1.0.4 dies on dna.json: that figure alone is missing, said in one line.
        let dna = try XCTUnwrap(byFile["dna.json"])
        XCTAssertNil(dna["thorvg_ms"])
        let why = try XCTUnwrap((dna["not_measured"] as? [String: String])?["thorvg"])
        XCTAssert(why.hasPrefix("crashed on dna.json (signal 11"), why)
        XCTAssert(r.stdout.contains("dna.json: thorvg not measured: crashed on dna.json"), r.stdout)
        XCTAssertNotNil(byFile["morph.json"]?["thorvg_ms"])
        guard GLRequirement.required || byFile["still-path.json"]?["waves_gl_ms"] != nil else { return }
        // A path that never changes: cached, nothing rasterised on the CPU per frame after the first; GL's thread the cheaper.
        let still = try XCTUnwrap(byFile["still-path.json"])
        XCTAssertEqual(still["layers"] as? Int, 1)
        XCTAssertEqual(still["cached_layers"] as? Int, 1)
        XCTAssertEqual(still["redrawn_layers"] as? Int, 0)
        XCTAssertEqual(still["cpu_rasterized_pixels_per_frame"] as? Int, 0)
        // The morph: redrawn every frame, and the verdict's reason says so.
        let morphRow = try XCTUnwrap(byFile["morph.json"])
        XCTAssertEqual(morphRow["redrawn_layers"] as? Int, 1)
        XCTAssertEqual(morphRow["cached_layers"] as? Int, 0)
        let verdict = try XCTUnwrap(morphRow["verdict"] as? [String: Any])
        XCTAssert((verdict["reason"] as? String)?.contains("1 redrawn every frame") == true
                  || (verdict["reason"] as? String)?.hasPrefix("1 of 1 layer redrawn every frame") == true, "\(verdict)")
        XCTAssert(r.stdout.contains("median"), r.stdout)
    }

    /// Without the peers' environment each peer is one line, and Waves' own figures stand.
    func testMissingPeersAreOneLineEachAndWavesIsStillMeasured() throws {
        let folder = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try LottieFixtures.write(LottieFixtures.file([LottieFixtures.shapeLayer(items: [
            LottieFixtures.rectangle(x: 10, y: 10, width: 30, height: 20), LottieFixtures.fill(1, 0, 0)])]))
        let r = try WavesBinary.run(["bench", "lottie", "--file", file, "--headless", "--size", "32x32", "--backend", "cpu",
                                     "--peers", folder + "/nowhere", "--json", "out.json"], in: folder, timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        for peer in ["rlottie", "ThorVG"] {
            XCTAssertEqual(r.stdout.split(separator: "\n").filter { $0.hasPrefix("\(peer) not measured: no ") }.count, 1, r.stdout)
        }
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/out.json"))) as? [String: Any])
        let row = try XCTUnwrap(((root["lottie"] as? [String: Any])?["rows"] as? [[String: Any]])?.first)
        XCTAssertNotNil(row["waves_cpu_ms"])
        XCTAssertNil(row["rlottie_ms"])
    }

    func testTheLottieBenchRefusesWhatItCannotUse() throws {
        let folder = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (arguments, option) in [(["--file", folder + "/missing.json"], "--file"), (["--file", folder], "--file"),
                                    ([String](), "--file")] {
            let r = try WavesBinary.run(["bench", "lottie", "--headless"] + arguments, in: folder, timeout: 60)
            XCTAssertEqual(r.status, 64, r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssert(r.stderr.contains(option), r.stderr)
        }
        let r = try WavesBinary.run(["bench", "sine", "--headless", "--peers", folder], in: folder, timeout: 60)
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssert(r.stderr.contains("--peers"), r.stderr)
    }
}
