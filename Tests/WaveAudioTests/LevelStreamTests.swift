import CMallocCounter
import Foundation
import WaveAudio
import XCTest

/// The live level stream (`--level-from -`): lines split from any chunks,
/// each a level, blank, not a level, or too long; a line is never held past
/// `LevelStream.maxLineBytes`, however long it runs.
final class LevelStreamTests: XCTestCase {
    private func lines(_ text: [UInt8], chunk: Int) -> [LevelLine] {
        var stream = LevelStream()
        var out: [LevelLine] = []
        var offset = 0
        text.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let end = min(bytes.count, offset + chunk)
                stream.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { out.append($1) }
                offset = end
            }
        }
        stream.finish { out.append($1) }
        return out
    }

    func testLinesAreTheSameWhateverTheChunks() {
        let long = String(repeating: "9", count: LevelStream.maxLineBytes + 1)
        let text = Array("0.5\nloud\r\n\n 0.25 \r\n\(long)\n1\n2\n\(String(repeating: " ", count: 20))0.75".utf8)
        let expected: [LevelLine] = [.level(0.5), .notALevel("loud"), .blank, .level(0.25), .tooLong, .level(1), .notALevel("2"), .level(0.75)]
        for chunk in [1, 2, 3, 7, 128, 4096] {
            XCTAssertEqual(lines(text, chunk: chunk), expected, "chunks of \(chunk)")
        }
        // A line of exactly the limit is read.
        let padded = String(repeating: " ", count: LevelStream.maxLineBytes - 3) + "0.5"
        XCTAssertEqual(lines(Array(padded.utf8), chunk: 5), [.level(0.5)])
    }

    func testAWarningIsOneLineAndSaysWhatIsAccepted() {
        let tooLong = LevelStream.warning(line: 3, .tooLong) ?? ""
        XCTAssert(tooLong.contains("line 3 is longer than \(LevelStream.maxLineBytes) bytes"), tooLong)
        XCTAssert(tooLong.contains("a level from 0 to 1"), tooLong)
        // Control characters are not echoed: the warning stays one line.
        guard case let .notALevel(shown) = LevelStream.parse(Array("a\u{0B}b\u{1B}[2J".utf8)) else { return XCTFail() }
        let warning = LevelStream.warning(line: 1, .notALevel(shown)) ?? ""
        XCTAssertFalse(warning.contains { $0.isNewline || $0 == "\u{1B}" }, warning)
        XCTAssertNil(LevelStream.warning(line: 1, .level(0.5)))
    }

    /// Ten MB without a line break cost the reader a line's room, not ten MB.
    func testAnEndlessLineIsNeverHeld() {
        let chunk = [UInt8](repeating: UInt8(ascii: "7"), count: 1 << 16)
        var stream = LevelStream()
        var out: [LevelLine] = []
        waves_malloc_counter_start()
        chunk.withUnsafeBytes { bytes in
            for _ in 0..<160 { stream.feed(bytes) { out.append($1) } }
        }
        let count = waves_malloc_counter_stop(), bytes = waves_malloc_counter_bytes()
        stream.finish { out.append($1) }
        XCTAssertEqual(out, [.tooLong])
        XCTAssertEqual(waves_malloc_counter_active(), 1, "the interposed malloc is not the one in use")
        XCTAssertLessThanOrEqual(count, 2, "\(count) allocations feeding 10 MB")
        XCTAssertLessThan(bytes, 4096, "\(bytes) bytes allocated feeding 10 MB")
    }
}
