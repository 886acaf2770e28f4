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
