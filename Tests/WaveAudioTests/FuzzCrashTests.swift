import Foundation
@testable import WaveAudio
import WaveCore
import WaveEffects
import XCTest

/// Every input `make fuzz` found to crash a reader, kept as a file in
/// Tests/FuzzCrashes/<target>/ (dat, json, path, level: the fuzz targets of
/// Fuzz/; lottie's are fed by WaveGLTests' LottieMutationTests) and fed here to that reader with the fuzz target's own checks: a
/// clean refusal of one line, or a result that holds (peaks that write and
/// read back equal, a path drawn, levels in 0...1).
final class FuzzCrashTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzCrashes").path

    /// The kept inputs of one target, by file name.
    private func inputs(_ target: String) throws -> [(name: String, bytes: Data)] {
        let folder = Self.root + "/" + target
        guard FileManager.default.fileExists(atPath: folder) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map {
            ($0, try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)))
        }
    }

    func testTheCrashesAreKept() throws {
        // The first fault make fuzz found: a cubic whose control point is 10^66 px away.
        XCTAssertFalse(try inputs("path").isEmpty, "Tests/FuzzCrashes/path is empty or gone")
        // The JSON peaks reader's grammar against JSONSerialization's (the fourth: Foundation reading
        // "{\0}\0" as UTF-16, where the reader takes UTF-8 only; the oracle now leaves such input out).
        XCTAssertEqual(try inputs("json").count, 4, "Tests/FuzzCrashes/json")
    }

    func testPathDataCrashesAreRefusedOrDrawn() throws {
        for (name, bytes) in try inputs("path") {
            let path: Path
            do {
                path = try PathData.parse(String(decoding: bytes, as: UTF8.self))
            } catch {
                XCTAssertFalse("\(error)".contains("\n"), "\(name): \(error)")
                continue
            }
            if let b = path.bounds { XCTAssert([b.minX, b.minY, b.maxX, b.maxY].allSatisfy(\.isFinite), name) }
            guard let scene = try? Outline(width: 48, height: 24, path: path).scene() else { continue }
            let renderer = CPURenderer()
            XCTAssertNoThrow(try renderer.prepare(scene: scene), name)
            let target = try renderer.makeTarget()
            XCTAssertNoThrow(try renderer.draw(time: 0.5, into: target), name)
        }
    }

    private func checkPeaks(_ peaks: WaveformData, _ name: String) throws {
        XCTAssertEqual(try WaveformData.parseDat(peaks.dat()), peaks, "\(name): .dat written reads back different")
        XCTAssertEqual(try WaveformData.parse(peaks.json(), name: name), peaks, "\(name): JSON written reads back different")
        let bars = peaks.barPeaks(samplesPerBar: max(1, peaks.sampleCount / 1000 + 1))
        XCTAssert(bars.peaks.allSatisfy { (0...1).contains($0) }, name)
    }

    func testPeaksCrashesAreRefusedWithOneLineOrRoundTrip() throws {
        for (name, bytes) in try inputs("dat") {
            if let peaks = try? WaveformData.parseDat(bytes) { try checkPeaks(peaks, name) }
        }
        for (name, bytes) in try inputs("json") {
            // The grammar is JSONSerialization's (the reader before PeaksJSON): a trailing comma read, a number past Double and half a surrogate pair refused.
            var grammar = true
            do { _ = try WaveformData.parseJSON(bytes) } catch let problem as WaveformData.Problem { grammar = problem.text != "not a JSON object" }
            if bytes.prefix(4).contains(0) {
                // Foundation sniffs UTF-16 or UTF-32 here; the reader takes UTF-8 only and refuses it.
                XCTAssertFalse(grammar, "\(name): read as UTF-8 JSON")
            } else {
                let foundation = (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any] != nil
                XCTAssertEqual(grammar, foundation, "\(name): JSONSerialization \(foundation ? "reads" : "refuses") it")
            }
            do {
                try checkPeaks(try WaveformData.parse(bytes, name: name), name)
            } catch let error as AudioError {
                XCTAssertFalse(error.description.contains("\n"), "\(name): \(error)")
            }
        }
    }

    func testLevelStreamCrashesGiveLevelsOrOneLineWarnings() throws {
        for (name, bytes) in try inputs("level") {
            var stream = LevelStream()
            var lines = 0
            let emit = { (number: Int, line: LevelLine) in
                lines += 1
                XCTAssertEqual(number, lines, name)
                if case let .level(v) = line { XCTAssert((0...1).contains(v), name) }
                if let warning = LevelStream.warning(line: number, line) { XCTAssertFalse(warning.contains("\n"), name) }
            }
            bytes.withUnsafeBytes { stream.feed($0, emit) }
            stream.finish(emit)
        }
    }
}
