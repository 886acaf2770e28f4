@testable import WaveCore
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

    /// An outline crossing every band: a star (its points outside the frame too), curves, and a sub-path wholly
    /// above the frame.
    private func crossingOutline(_ r: CoverageRasterizer) {
        r.move(to: 18.3, -4.2); r.line(to: 24.9, 20.1); r.line(to: 41.5, 21.7); r.line(to: 27.2, 33.9)
        r.line(to: 31.8, 57.4); r.line(to: 18.1, 41.6); r.line(to: 3.3, 55.2); r.line(to: 8.7, 32.8)
        r.line(to: -2.6, 19.4); r.line(to: 12.4, 19.9); r.close()
        r.move(to: 2.5, 3.5)
        r.quad(from: Point(2.5, 3.5), control: Point(30, -10), to: Point(34.5, 26.25))
        r.quad(from: Point(34.5, 26.25), control: Point(20, 70), to: Point(5.25, 47.5))
        r.close()
        r.move(to: 1, -9); r.line(to: 30, -9.5); r.line(to: 12, -3); r.close()
    }

    /// A closed zigzag of 800 edges down the frame's height: more edges below any band than a rasteriser keeps.
    private func zigzagOutline(_ r: CoverageRasterizer) {
        r.move(to: 30, -1)
        for k in 0...800 { r.line(to: k % 2 == 0 ? 3.1 : 4.7, -1 + 55 * Double(k) / 800) }
        r.line(to: 30, 54)
        r.close()
    }

    /// A rasteriser that holds a band of rows fills an outline band by band with exactly the levels a rasteriser of
    /// the whole frame gives (every row of the frame or a range of them, by either fill rule), and writes no row
    /// outside the range. The outline is asked for once where the edges reaching below the first band fit what the
    /// rasteriser keeps of them, and once a band where they do not.
    func testFillingBandByBandGivesTheWholeFramesLevels() throws {
        for evenOdd in [false, true] {
            try checkBandByBand(crossingOutline, keptEdgesFit: true, evenOdd: evenOdd)
            try checkBandByBand(zigzagOutline, keptEdgesFit: false, evenOdd: evenOdd)
        }
    }

    private func checkBandByBand(_ outline: (CoverageRasterizer) -> Void, keptEdgesFit: Bool, evenOdd: Bool) throws {
        let (width, height) = (37, 53)
        let whole = try CoverageRasterizer(width: width, height: height)
        whole.evenOdd = evenOdd
        outline(whole)
        let reference = levels(whole, width: width, height: height)
        XCTAssertGreaterThan(Set(reference).count, 10, "the outline reaches too few levels to tell anything")
        for bandRows in [1, 5, 16, 53, 80] {
            let banded = try CoverageRasterizer(width: width, height: height, bandRows: bandRows)
            XCTAssertEqual(banded.bandRows, Swift.min(bandRows, height))
            banded.evenOdd = evenOdd
            for rows in [0..<height, 7..<41] {
                var out = [UInt8](repeating: 7, count: width * height), asked = 0
                out.withUnsafeMutableBufferPointer { buffer in
                    var sink = CoverageBytes(rowZero: buffer.baseAddress!, rowStride: width)
                    banded.fill(rows: rows, into: &sink) {
                        asked += 1
                        outline(banded)
                    }
                }
                let bands = (rows.count + banded.bandRows - 1) / banded.bandRows
                XCTAssertEqual(asked, keptEdgesFit ? 1 : bands, "bands of \(bandRows) over rows \(rows)")
                for row in 0..<height {
                    let got = Array(out[(row * width)..<((row + 1) * width)]).map(Int.init)
                    let expected = rows.contains(row) ? Array(reference[(row * width)..<((row + 1) * width)])
                        : [Int](repeating: 7, count: width)
                    XCTAssertEqual(got, expected, "row \(row), bands of \(bandRows), rows \(rows), even-odd \(evenOdd)")
                }
            }
        }
    }

    /// Each pixel's level and how many times it was given.
    private struct Recorder: CoverageBlitter {
        let width: Int
        var levels: [Int], times: [Int]
        init(width: Int, height: Int) { (self.width, levels, times) = (width, [Int](repeating: -1, count: width * height), [Int](repeating: 0, count: width * height)) }
        mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
            for x in x0..<x1 { levels[row * width + x] = level; times[row * width + x] += 1 }
        }
    }

    /// A rectangle with sides along the axes filled as one (`fill(rows:into:rectangle:)`) gives every pixel of
    /// the rows once, at the level its four edges give it as an outline: over random rectangles from a fixed seed
    /// (sides on whole pixels, within one pixel, past the image's sides inside the box round it, either way round),
    /// both fill rules and parts of the rows; a corner outside that box is left to the outline.
    func testARectangleFilledAsOneGivesTheLevelsOfItsEdges() throws {
        let (width, height) = (23, 17)
        let r = try CoverageRasterizer(width: width, height: height)
        var random: UInt64 = 12345
        func next(_ lo: Double, _ hi: Double) -> Double {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            let u = Double(random >> 11) / Double(1 << 53)
            // One draw in four on a whole or half pixel.
            let v = lo + (hi - lo) * u
            return (random >> 5) % 4 == 0 ? (v * 2).rounded() / 2 : v
        }
        var filled = 0, left = 0
        for k in 0..<400 {
            let (x0, x1) = (next(-1.5, Double(width) + 1.5), k % 9 == 0 ? 0 : next(-1.5, Double(width) + 1.5))
            let (y0, y1) = (next(-1.5, Double(height) + 1.5), k % 11 == 0 ? next(3, 3.2) : next(-1.5, Double(height) + 1.5))
            guard let rectangle = r.gridRectangle(x0, y0, x1, y1) else { left += 1; continue }
            filled += 1
            r.evenOdd = k % 2 == 1
            let rows = k % 3 == 0 ? 4..<13 : 0..<height
            var outline = Recorder(width: width, height: height), asOne = Recorder(width: width, height: height)
            // As the painter fills an item: its edges held to its rows.
            r.clipRows = rows
            r.fill(rows: rows, into: &outline) {
                r.move(to: x0, y0); r.line(to: x1, y0); r.line(to: x1, y1); r.line(to: x0, y1); r.close()
            }
            r.clipRows = 0..<height
            r.fill(rows: rows, into: &asOne, rectangle: rectangle)
            XCTAssertEqual(asOne.levels, outline.levels, "(\(x0), \(y0)) to (\(x1), \(y1)), rows \(rows), even-odd \(r.evenOdd)")
            for row in 0..<height {
                XCTAssertEqual(Array(asOne.times[(row * width)..<((row + 1) * width)]), [Int](repeating: rows.contains(row) ? 1 : 0, count: width),
                               "row \(row): each pixel of the rows once")
            }
        }
        XCTAssertGreaterThan(filled, 200)
        XCTAssertGreaterThan(left, 20, "corners outside the box round the image are left to the outline")
    }

    /// One sub-path of straight segments round its bounds' four corners in turn is a rectangle, either way round
    /// and closed on its first point or not; a turned square, a curve, a second sub-path, no area, a corner twice
    /// or an L are not.
    func testWhatIsAnAxisAlignedRectangle() throws {
        func path(_ subpaths: [[Point]], curve: Bool = false) throws -> Path {
            var b = PathBuilder()
            for points in subpaths {
                try b.move(to: points[0].x, points[0].y)
                for p in points.dropFirst() { try b.line(to: p.x, p.y) }
                if curve { try b.quad(control: 0, 9, to: points[0].x, points[0].y) }
                b.close()
            }
            return b.path
        }
        let square = [Point(1, 2), Point(6, 2), Point(6, 5), Point(1, 5)]
        for yes in [[square], [square.reversed()], [square + [square[0]]], [[square[2], square[3], square[0], square[1]]]] {
            XCTAssertTrue(try path(yes).isAxisAlignedRectangle, "\(yes)")
        }
        let no: [[[Point]]] = [
            [[Point(3, 0), Point(6, 3), Point(3, 6), Point(0, 3)]],
            [square, [Point(10, 10), Point(12, 10), Point(12, 12), Point(10, 12)]],
            [[Point(1, 2), Point(6, 2), Point(6, 2), Point(1, 2)]],
            [[Point(1, 2), Point(6, 2), Point(1, 2), Point(6, 2)]],
            [[Point(1, 2), Point(6, 2), Point(6, 5), Point(1, 5), Point(6, 2)]],
            [[Point(0, 0), Point(4, 0), Point(4, 2), Point(2, 2), Point(2, 4), Point(0, 4)]],
            [[Point(1, 2), Point(6, 2), Point(6, 5)]],
        ]
        for points in no { XCTAssertFalse(try path(points).isAxisAlignedRectangle, "\(points)") }
        XCTAssertFalse(try path([Array(square.prefix(3))], curve: true).isAxisAlignedRectangle, "a curve")
    }

    /// A sink that counts what it is given, keeping rows 10..<20.
    private final class CountingSink: OutlineSink {
        var lines = 0
        func move(to x: Double, _ y: Double) {}
        func line(to x: Double, _ y: Double) { lines += 1 }
        func close() {}
        var keptRows: (top: Double, bottom: Double)? { (10, 20) }
    }

    /// A curve wholly above or below the rows a sink keeps comes as one chord; one reaching into them is flattened.
    func testACurveOutsideTheKeptRowsIsOneChord() {
        let sink = CountingSink()
        sink.quad(from: Point(0, 0), control: Point(50, 10), to: Point(100, 2))
        XCTAssertEqual(sink.lines, 1)
        sink.lines = 0
        sink.quad(from: Point(0, 30), control: Point(50, 20), to: Point(100, 25))
        XCTAssertEqual(sink.lines, 1)
        sink.lines = 0
        sink.quad(from: Point(0, 0), control: Point(50, 30), to: Point(100, 2))
        XCTAssertGreaterThan(sink.lines, 10, "a curve through the kept rows, flattened")
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
