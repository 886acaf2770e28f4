import Foundation
import WaveCore
import WaveImageIO
import XCTest

/// PNG reading and writing, and atomic output files.

final class PNGTests: XCTestCase {
    private var folder: String!

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "waves-png-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testRoundTripIsExact() throws {
        var image = RGBAImage(width: 37, height: 11)
        for i in image.pixels.indices { image.pixels[i] = UInt8((i * 7919 + i / 3) % 256) }
        let path = folder + "/round.png"
        try PNG.write(image, to: path)
        XCTAssertEqual(try PNG.read(from: path), image)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["round.png"],
                       "the temporary file was left behind")
    }

    /// A CPU frame is written from its own rows, wherever they lie: top
    /// down, padded, or bottom up (GL's order); the PNG is the read-back's.
    func testAPixmapIsWrittenFromItsRowsAsItsReadBackWouldBe() throws {
        for stride in [37, 40, -37, -41] {
            let pixmap = Pixmap(width: 37, height: 11, rowStride: stride)
            let view = pixmap.view
            for y in 0..<11 {
                for x in 0..<37 { view.row(y)[x] = UInt32(truncatingIfNeeded: (x * 7919 + y * 104_729) &* 2_654_435_761) }
            }
            let path = folder + "/pixmap\(stride).png"
            try PNG.write(pixmap, to: path)
            XCTAssertEqual(try PNG.read(from: path), try pixmap.readback(), "row stride \(stride)")
        }
    }

    func testWriteIntoMissingFolderFailsAndLeavesNoFile() {
        let path = folder + "/missing/out.png"
        XCTAssertThrowsError(try PNG.write(RGBAImage(width: 2, height: 2), to: path)) { error in
            XCTAssertEqual(error as? FileError, .missingFolder(path: path))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testOverwriteReplacesWholeFileAndFailedWriteKeepsTheOld() throws {
        let path = folder + "/keep.png"
        let old = RGBAImage(width: 3, height: 3, fill: RGBA8(1, 2, 3))
        try PNG.write(old, to: path)
        // A read-only folder makes the temporary file impossible; the old PNG must survive.
        guard getuid() != 0 else {
            // root ignores folder permissions; check the replacement path instead.
            try PNG.write(RGBAImage(width: 1, height: 1), to: path)
            XCTAssertEqual(try PNG.read(from: path).width, 1)
            return
        }
        chmod(folder, 0o555)
        defer { chmod(folder, 0o755) }
        XCTAssertThrowsError(try PNG.write(RGBAImage(width: 1, height: 1), to: path))
        XCTAssertEqual(try PNG.read(from: path), old)
    }

    func testReadingNotAPNGIsATypedError() throws {
        let path = folder + "/text.png"
        try "hello".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PNG.read(from: path)) { error in
            guard case .cannotRead? = error as? FileError else { return XCTFail("\(error)") }
        }
    }
}
