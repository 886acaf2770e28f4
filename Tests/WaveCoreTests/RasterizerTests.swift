import WaveCore
import XCTest

/// The rasteriser is a general polygon filler, not a wave special case.
final class RasterizerTests: XCTestCase {
    /// Coverage levels (0...255) of a single polygon, white on transparent black.
    private func coverage(width: Int, height: Int, _ path: (CoverageRasterizer) -> Void) -> [Int] {
        guard let r = try? CoverageRasterizer(width: width, height: height) else {
            XCTFail("no rasteriser of \(width)x\(height)")
            return []
        }
        path(r)
        r.close()
        return levels(r, width: width, height: height)
    }

    private func levels(_ r: CoverageRasterizer, width: Int, height: Int) -> [Int] {
        var out = [UInt8](repeating: 7, count: width * height)
        out.withUnsafeMutableBufferPointer { buffer in
            var sink = CoverageBytes(rowZero: buffer.baseAddress!, rowStride: width)
            r.resolve(rows: 0..<height, into: &sink)
        }
        return out.map(Int.init)
    }

    func testRectangleWithFractionalEdgesHasExactAreaCoverage() {
        let c = coverage(width: 4, height: 3) { r in
            r.move(to: 0.25, 0.5); r.line(to: 2.75, 0.5); r.line(to: 2.75, 2); r.line(to: 0.25, 2)
        }
        let expected: [Double] = [0.375, 0.5, 0.375, 0,
                                  0.75, 1, 0.75, 0,
                                  0, 0, 0, 0]
        XCTAssertEqual(c, expected.map { Int(($0 * 255).rounded()) })
    }

    func testTriangleCoverageSumsToItsArea() {
        let c = coverage(width: 20, height: 20) { r in
            r.move(to: 1.3, 2.7)
            r.line(to: 18.1, 5.2)
            r.line(to: 7.9, 17.6)
        }
        // Shoelace area of the triangle.
        let (ax, ay, bx, by, cx, cy) = (1.3, 2.7, 18.1, 5.2, 7.9, 17.6)
        let cross: Double = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay)
        let area = abs(cross) / 2
        XCTAssertEqual(Double(c.reduce(0, +)) / 255, area, accuracy: 0.5)
    }

    func testWindingDirectionDoesNotMatterAndOutsidePartsAreClipped() {
        let clockwise = coverage(width: 6, height: 6) { r in
            r.move(to: -3, -2); r.line(to: 4.5, -2); r.line(to: 4.5, 3.5); r.line(to: -3, 3.5)
        }
        let counter = coverage(width: 6, height: 6) { r in
            r.move(to: -3, -2); r.line(to: -3, 3.5); r.line(to: 4.5, 3.5); r.line(to: 4.5, -2)
        }
        XCTAssertEqual(clockwise, counter)
        // Rows 0-2 full up to x = 4.5; row 3 half; columns 5 empty.
        XCTAssertEqual(Array(clockwise[0..<6]), [255, 255, 255, 255, 128, 0])
        XCTAssertEqual(Array(clockwise[18..<24]), [128, 128, 128, 128, 64, 0])
        XCTAssertEqual(Array(clockwise[24..<36]), [Int](repeating: 0, count: 12))
    }

    func testOverlappingSubpathsOfTheSameWindingDoNotDoubleCount() {
        let c = coverage(width: 4, height: 1) { r in
            r.move(to: 0, 0); r.line(to: 3, 0); r.line(to: 3, 1); r.line(to: 0, 1); r.close()
            r.move(to: 1, 0); r.line(to: 4, 0); r.line(to: 4, 1); r.line(to: 1, 1)
        }
        XCTAssertEqual(c, [255, 255, 255, 255])
    }

    func testResolvingClearsForTheNextPath() throws {
        let r = try CoverageRasterizer(width: 3, height: 2)
        r.move(to: 0, 0); r.line(to: 3, 0); r.line(to: 3, 2); r.line(to: 0, 2); r.close()
        XCTAssertEqual(levels(r, width: 3, height: 2), [255, 255, 255, 255, 255, 255])
        XCTAssertEqual(levels(r, width: 3, height: 2), [0, 0, 0, 0, 0, 0])
    }

    func testColourParsing() {
        XCTAssertEqual(RGBA8(hex: "#3A9BFF"), RGBA8(0x3A, 0x9B, 0xFF, 0xFF))
        XCTAssertEqual(RGBA8(hex: "#11223344"), RGBA8(0x11, 0x22, 0x33, 0x44))
        XCTAssertNil(RGBA8(hex: "#12345"))
        XCTAssertNil(RGBA8(hex: "red"))
        XCTAssertNil(RGBA8(hex: "#GG0000"))
        XCTAssertEqual(RGBA8(0x11, 0x22, 0x33, 0x44).description, "#11223344")
    }
}
