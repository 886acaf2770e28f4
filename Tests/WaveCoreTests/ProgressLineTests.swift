import WaveCore
import XCTest

/// A command's progress on stderr: the bar redrawn in place on a terminal,
/// plain lines now and then where stderr is a log (`TerminalProgress`).
final class ProgressLineTests: XCTestCase {
    /// What a progress display wrote: each piece with whether it ended its line.
    private final class Sink {
        var pieces: [(text: String, newline: Bool)] = []
        func write(_ text: String, _ newline: Bool) { pieces.append((text, newline)) }
    }

    func testALogGetsPlainLinesWithTheCountTheTimesAndTheLabelButNoneAtTheEnd() {
        let sink = Sink()
        let progress = TerminalProgress(logEvery: 0, write: sink.write)
        progress.update(done: 1, of: 4, label: "a.json")
        progress.update(done: 2, of: 4, label: "b.json")
        progress.update(done: 4, of: 4, label: "done")
        progress.finish()
        XCTAssertEqual(sink.pieces.count, 2, "\(sink.pieces)")
        for (piece, (percent, label)) in zip(sink.pieces, [("25%", "a.json"), ("50%", "b.json")]) {
            XCTAssert(piece.newline)
            XCTAssert(piece.text.hasPrefix("waves: \(percent), 0:00 elapsed, about 0:00 left"), piece.text)
            XCTAssert(piece.text.hasSuffix("  " + label), piece.text)
            XCTAssertFalse(piece.text.contains("\r") || piece.text.contains("\u{1B}"), "no terminal controls in a log: \(piece.text)")
        }
    }

    func testALogStaysQuietForARunShorterThanItsInterval() {
        let sink = Sink()
        let progress = TerminalProgress(unit: "file", logEvery: 3600, write: sink.write)
        for done in 0...10 { progress.update(done: done, of: 10, label: "x") }
        progress.finish()
        XCTAssert(sink.pieces.isEmpty, "\(sink.pieces)")
    }

    func testATerminalGetsTheBarRedrawnInPlaceAndClearedAtTheEnd() {
        let sink = Sink()
        let progress = TerminalProgress(unit: "frame", write: sink.write)
        progress.update(done: 3, of: 12)
        progress.finish()
        XCTAssertEqual(sink.pieces.count, 2, "\(sink.pieces)")
        XCTAssertEqual(sink.pieces.first?.text.hasPrefix("\r\u{1B}[K[######..................] 3/12 frames  0:00 elapsed"), true,
                       sink.pieces.first?.text ?? "")
        XCTAssertEqual(sink.pieces.map(\.newline), [false, false])
        XCTAssertEqual(sink.pieces.last?.text, "\r\u{1B}[K")
    }
}
