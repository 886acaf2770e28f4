import Foundation
import WaveTestSupport
import XCTest

/// Bad input through the built binary: one line on stderr, the sysexits
/// status, and no file (not even a partial one).
final class BenchCLITests: XCTestCase {
    private func expectRejected(_ arguments: [String], status: Int32, naming option: String,
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let json = folder + "/results.json"
        let args = ["bench", "--headless"] + arguments + (arguments.contains("--json") ? [] : ["--json", json])
        let result = try WavesBinary.run(args, in: folder, timeout: 60)
        XCTAssertEqual(result.status, status, "\(args): \(result.stderr)", file: file, line: line)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "exactly one stderr line: \(result.stderr)", file: file, line: line)
        XCTAssert(lines.first?.hasPrefix("waves: ") == true, result.stderr, file: file, line: line)
        XCTAssert(result.stderr.contains(option), "the error names \(option): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "nothing written",
                       file: file, line: line)
    }

    func testZeroCellsIsAUsageError() throws {
        try expectRejected(["--cells", "0"], status: 64, naming: "--cells")
        try expectRejected(["--cells", "1,x"], status: 64, naming: "--cells")
    }

    func testZeroFramesIsAUsageError() throws {
        try expectRejected(["--frames", "0"], status: 64, naming: "--frames")
    }

    func testAnUnknownBackendIsAUsageError() throws {
        try expectRejected(["--backend", "metal"], status: 64, naming: "--backend")
    }

    func testAnUnwritableJSONPathCannotBeCreated() throws {
        try expectRejected(["--json", "/nonexistent-dir/x.json"], status: 73, naming: "/nonexistent-dir/x.json")
    }

    func testTooManyRowsIsAUsageError() throws {
        try expectRejected(["--cells", "10000", "--size", "320x16384"], status: 64, naming: "--cells")
    }
}

/// Without --headless every frame is shown in a window: the sweep and the
/// table preset run in a real one under Xvfb, and the preset says how it
/// was paced (Xvfb does not pace swaps by vsync, so: by sleeping).
final class BenchWindowTests: XCTestCase {
    func testTheSweepAndThePresetRunInAWindow() throws {
        try GLRequirement.need("xvfb-run") {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run") else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "/usr/bin/xvfb-run (apt install xvfb xauth)"])
            }
        }
        let folder = try WavesBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let xvfb = ["/usr/bin/xvfb-run", "-a", "-s", "-screen 0 800x600x24"]

        let sweep = try WavesBinary.run(["bench", "--cells", "1,3", "--size", "64x16", "--frames", "2", "--warmup", "1",
                                         "--json", "sweep.json"], in: folder, launcher: xvfb)
        XCTAssertEqual(sweep.status, 0, sweep.stderr)
        XCTAssertFalse(sweep.stderr.contains("headless"), "no window was opened: \(sweep.stderr)")
        let rows = try XCTUnwrap(try jsonObject(folder + "/sweep.json")["results"] as? [[String: Any]])
        XCTAssertEqual(rows.count, 4)

        let table = try WavesBinary.run(["bench", "--preset", "table", "--seconds", "0.3", "--warmup", "1",
                                         "--json", "table.json"], in: folder, launcher: xvfb)
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.contains("published (phone)"), table.stdout)
        let presetRows = try XCTUnwrap(try jsonObject(folder + "/table.json")["results"] as? [[String: Any]])
        XCTAssertEqual(presetRows.compactMap { $0["pacing"] as? String }, ["sleep", "sleep"])
    }

    private func jsonObject(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(BenchSchema.problems(in: data), [], path)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }
}
