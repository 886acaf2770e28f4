@testable import WaveCore
import WaveTestSupport
import XCTest

/// `PictureBlocks`: a sample is called clear exactly where its four texels
/// are, on every block edge, and a clear image marks nothing.
final class PictureBlocksTests: XCTestCase {
    func testASampleIsClearOnlyWhereItsFourTexelsAre() {
        var random = SeededGenerator(seed: 7)
        for (width, height, chance) in [(37, 29, 0.02), (64, 16, 0.2), (9, 9, 0.0), (8, 17, 0.5)] {
            var image = RGBAImage(width: width, height: height, fill: RGBA8(10, 20, 30, 0))
            for y in 0..<height {
                for x in 0..<width where Double.random(in: 0..<1, using: &random) < chance {
                    image[x, y] = RGBA8(200, 100, 50, UInt8.random(in: 1...255, using: &random))
                }
            }
            let blocks = PictureBlocks(image)
            var clearSamples = 0
            for j in 0..<(height - 1) {
                for i in 0..<(width - 1) {
                    let clear = [image[i, j], image[i + 1, j], image[i, j + 1], image[i + 1, j + 1]].allSatisfy { $0.a == 0 }
                    if clear { clearSamples += 1 }
                    // Called clear only where it is; where it is, called so unless its block holds a texel that shows.
                    if blocks.isClear(i: i, j: j) { XCTAssertTrue(clear, "\(width)x\(height): sample \(i), \(j) has a texel that shows") }
                }
            }
            if chance == 0 {
                XCTAssertEqual(blocks.markedFraction, 0, "a clear image marks nothing")
                XCTAssertEqual(clearSamples, (width - 1) * (height - 1))
            }
        }
        // One texel that shows marks only the blocks of the samples that read it.
        var image = RGBAImage(width: 40, height: 40, fill: RGBA8(0, 0, 0, 0))
        image[16, 24] = RGBA8(1, 2, 3, 4)
        let blocks = PictureBlocks(image)
        for (i, j) in [(15, 23), (16, 23), (15, 24), (16, 24)] { XCTAssertFalse(blocks.isClear(i: i, j: j), "sample \(i), \(j)") }
        // Past those blocks (texels 8...23 across, 16...31 down), clear.
        for (i, j) in [(24, 24), (16, 32), (8, 8), (30, 30), (7, 20)] { XCTAssertTrue(blocks.isClear(i: i, j: j), "sample \(i), \(j)") }
    }
}
