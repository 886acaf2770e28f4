import Foundation
import WaveImageIO
import WaveTestSupport
import XCTest

/// The faults a person can run into, each reproduced: outputs that are not
/// regular files, read-only files, long names, signals mid-write, a dead
/// stderr, running out of memory, a folder given as a bench output.
final class FaultTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func waves(_ arguments: [String]) throws -> WavesBinary.Result { try WavesBinary.run(arguments, in: folder) }
    private let small = ["render", "--backend", "cpu", "--size", "40x20"]

    private func hiddenTemporaries(in path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasPrefix(".") }
    }

    func testAFIFOOrAFolderGivenAsTheOutputIsRefusedAndLeftUntouched() throws {
        XCTAssertEqual(mkfifo(folder + "/fifo", 0o644), 0)
        let r = try waves(small + ["--out", "fifo"])
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssert(r.stderr.contains("FIFO"), r.stderr)
        var info = stat()
        XCTAssertEqual(stat(folder + "/fifo", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "still a FIFO")
        try FileManager.default.createDirectory(atPath: folder + "/adir", withIntermediateDirectories: false)
        let d = try waves(small + ["--out", "adir"])
        XCTAssertEqual(d.status, 73, d.stderr)
        XCTAssert(d.stderr.contains("folder"), d.stderr)
        XCTAssertEqual(hiddenTemporaries(in: folder), [])
    }

    func testAReadOnlyFileIsRefusedNotReplaced() throws {
        let path = folder + "/kept.png"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, 0o444), 0)
        let r = try waves(small + ["--out", "kept.png"])
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssert(r.stderr.contains("read-only"), r.stderr)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "keep me")
        let mode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode, 0o444, "the mode is unchanged")
    }

    /// A replaced file keeps its mode; a symbolic link in the output's place
    /// is refused (the link and its target untouched), and written through
    /// with --follow-links (its target replaced, the link kept).
    func testAReplacedFileKeepsItsModeAndALinkIsWrittenThroughOnlyWhenAsked() throws {
        let target = folder + "/real.png"
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        XCTAssertEqual(chmod(target, 0o600), 0)
        XCTAssertEqual(symlink("real.png", folder + "/link.png"), 0)
        let refused = try waves(small + ["--out", "link.png"])
        XCTAssertEqual(refused.status, 73, refused.stderr)
        XCTAssert(refused.stderr.contains("symbolic link") && refused.stderr.contains("--follow-links"), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "old", "the target is untouched")
        let r = try waves(small + ["--out", "link.png", "--follow-links"])
        XCTAssertEqual(r.status, 0, r.stderr)
        var info = stat()
        XCTAssertEqual(lstat(folder + "/link.png", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK, "the link is kept")
        XCTAssertNoThrow(try PNG.read(from: target), "its target holds the PNG")
        XCTAssertEqual(stat(target, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "the mode is kept")
        XCTAssertEqual(hiddenTemporaries(in: folder), [])
    }

    func testALegal250ByteNameIsWritten() throws {
        let name = String(repeating: "w", count: 246) + ".png"
        let r = try waves(small + ["--out", name])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssert(FileManager.default.fileExists(atPath: folder + "/" + name))
    }

    /// SIGTERM while a sequence is being written: no temporary file is left.
    func testASignalMidSequenceLeavesNoTemporaryFile() throws {
        try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
        for attempt in 0..<3 {
            let seq = folder + "/seq"
            let r = try WavesBinary.execute([WavesBinary.path, "render", "--backend", "cpu", "--size", "2000x1500", "--frames", "400",
                                             "--out", "seq", "--overwrite"], in: folder) { pid in
                // Wait for the sequence to be under way, then a little more so the signal lands mid-write.
                let deadline = Date().addingTimeInterval(60)
                while ((try? FileManager.default.contentsOfDirectory(atPath: seq)) ?? []).count < 2 && Date() < deadline { usleep(10_000) }
                usleep(useconds_t(37_000 * (attempt + 1)))
                kill(pid, SIGTERM)
            }
            XCTAssertEqual(r.status, 128 + SIGTERM, "attempt \(attempt): it ends by the signal")
            XCTAssertEqual(hiddenTemporaries(in: seq), [], "attempt \(attempt)")
        }
    }

    /// A stderr that cannot be written (full, or closed) never crashes the process.
    func testADeadStderrNeverCrashes() throws {
        for (arguments, status) in [(small + ["--out", "ok.png"], Int32(0)), (["render", "--size", "0x5"], Int32(64))] {
            for redirect in ["2>/dev/full", "2>&-"] {
                let r = try WavesBinary.execute(["/bin/sh", "-c", "exec \"$0\" \"$@\" \(redirect)", WavesBinary.path] + arguments, in: folder)
                XCTAssertEqual(r.status, status, "\(arguments) \(redirect) (a status above 128 is a signal)")
            }
        }
    }

    /// A 16384x16384 frame (1 GiB, its read-back another, half a frame of accumulators) under a 2.2 GB
    /// address-space limit: one line, 71, nothing written.
    func testRunningOutOfMemoryIsOneLine() throws {
        let r = try WavesBinary.execute(["/bin/sh", "-c", "ulimit -v 2200000 && exec \"$0\" render --backend cpu --size 16384x16384 --out big.png",
                                         WavesBinary.path], in: folder)
        let text = r.stderr
        XCTAssertEqual(r.status, 71, text)
        XCTAssertEqual(text.split(separator: "\n").count, 1, text)
        XCTAssert(text.contains("not enough memory"), text)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [], [])
    }

    /// Every bench output is checked before the run: a folder given as the
    /// CSV writes no JSON and runs nothing.
    func testAFolderAsABenchOutputFailsBeforeAnythingRuns() throws {
        try FileManager.default.createDirectory(atPath: folder + "/adir", withIntermediateDirectories: false)
        let r = try waves(["bench", "--headless", "--json", "ok.json", "--csv", "adir"])
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/ok.json"))
    }
}
