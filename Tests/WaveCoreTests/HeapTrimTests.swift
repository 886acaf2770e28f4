import WaveCore
import XCTest

/// The heap tuning the `waves` executable makes at start-up (`HeapTrim`):
/// glibc's option is found and taken, so a driver's per-frame blocks reuse
/// kept pages (its effect on a frame is measured in the bench, not here).
final class HeapTrimTests: XCTestCase {
    func testGlibcTakesTheTrimThreshold() {
        XCTAssertTrue(HeapTrim.keepFreed(bytes: 64 << 20), "mallopt(M_TRIM_THRESHOLD) was not found or refused")
        // A block past it (freed at once) and the next one still work: the heap is intact.
        let block = malloc(96 << 20)
        XCTAssertNotNil(block)
        free(block)
        let small = malloc(16)
        XCTAssertNotNil(small)
        free(small)
    }
}
