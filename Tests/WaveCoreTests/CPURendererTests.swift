import WaveCore
import WaveEffects
import WaveTestSupport
import XCTest

/// The CPU strategy on the sine cells: coverage against the formula, time,
/// cells and validation.

final class CPURendererTests: XCTestCase {
    private func render(_ cells: SineCells, at time: Double) throws -> RGBAImage {
        try Frames.render(CPURenderer(), try cells.scene(), at: [time])[0]
    }

    private func scene(_ w: Int, _ h: Int, _ configure: (inout SineCells) -> Void = { _ in }) -> SineCells {
        var s = SineCells(width: w, height: h)
        configure(&s)
        return s
    }

    // MARK: Coverage against the formula

    func testCoverageMatchesNumericalIntegration() throws {
        let cases: [(String, SineCells, Double)] = [
            ("default", scene(160, 48), 0),
            ("steep-5-cycles-fractional", scene(97, 61) { $0.wave.amplitude = 0.45; $0.wave.cycles = 5 }, 0.1234),
            ("seven-cells-right", scene(120, 90) {
                $0.cellCount = 7; $0.wave.amplitude = 0.3; $0.wave.cycles = 2; $0.wave.direction = .right
            }, 0.37),
            ("translucent", scene(64, 64) {
                $0.wave.color = RGBA8(255, 0, 0, 128); $0.background = RGBA8(0, 255, 0, 192)
                $0.wave.baseline = 0.2; $0.wave.amplitude = 0.45
            }, 0.61),
            ("clipped-at-top", scene(80, 40) { $0.wave.baseline = 0; $0.wave.amplitude = 0.5; $0.wave.period = 3 }, 1.7),
            ("snapped", scene(100, 30) { $0.snapToPixel = true; $0.cellCount = 3; $0.wave.cycles = 3 }, 0.4321),
            ("tall-one-cycle", scene(40, 200) { $0.wave.amplitude = 0.45 }, 0.05),
        ]
        for (name, scene, time) in cases {
            let actual = try render(scene, at: time)
            let expected = Reference.render(scene, time: time)
            assertImagesMatch(actual, expected, mean: 0.5, max: 8, name: "cpu-coverage-\(name)")
        }
    }

    // MARK: Time

    func testFramesOnePeriodApartAreIdentical() throws {
        let s = scene(120, 40) { $0.wave.period = 2.5; $0.wave.cycles = 2; $0.cellCount = 2 }
        for t in [0.0, 0.3, 1.77] {
            XCTAssertEqual(try render(s, at: t), try render(s, at: t + 2.5), "t = \(t)")
        }
    }

    func testNegativeTimesFollowTheSameRule() throws {
        let s = scene(100, 30)
        XCTAssertEqual(try render(s, at: -0.25), try render(s, at: 0.75))
    }

    func testCurveIsContinuousAcrossTheWrap() throws {
        let s = scene(90, 60) { $0.wave.amplitude = 0.4; $0.wave.cycles = 3 }
        let image = try render(s, at: 0.2)
        // Filled height of each column, from its coverage.
        func filled(_ x: Int) -> Double {
            (0..<image.height).reduce(0.0) { sum, y in
                sum + Double(Int(image[x, y].b) - Int(s.background.b)) / Double(Int(s.wave.color.b) - Int(s.background.b))
            }
        }
        let heights = (0..<s.width).map(filled)
        let steepestInside = zip(heights, heights.dropFirst()).map { abs($0 - $1) }.max()!
        XCTAssertLessThanOrEqual(abs(heights[s.width - 1] - heights[0]), steepestInside + 0.05,
                                 "the wave jumps where the right edge meets the left")
    }

    func testWholePixelOffsetIsTheFirstFrameShiftedLeft() throws {
        for (cells, direction) in [(1, Direction.left), (7, .left), (3, .right)] {
            let s = scene(128, 56) { $0.cellCount = cells; $0.wave.direction = direction; $0.wave.amplitude = 0.4 }
            let first = try render(s, at: 0)
            for shift in [1, 13, 127] {
                // u = shift pixels (leftwards) or -shift (rightwards).
                let t = Double(shift) / Double(s.width) * s.wave.period
                let frame = try render(s, at: t)
                let u = direction == .left ? shift : -shift
                var expected = first
                for y in 0..<s.height {
                    for x in 0..<s.width {
                        expected[x, y] = first[((x + u) % s.width + s.width) % s.width, y]
                    }
                }
                if frame != expected {
                    assertImagesMatch(frame, expected, mean: 0, max: 0, name: "cpu-shift-\(cells)-\(direction)-\(shift)")
                }
            }
        }
    }

    /// t/p overflows for t = 1e308, p = 0.1; the offset must still be a number.
    func testHugeTimesAndTinyPeriodsGiveFiniteOffsets() throws {
        var s = scene(100, 10)
        s.wave.period = 0.1
        for t in [1e308, -1e308, 1e-300] {
            let u = s.contentOffset(at: t)
            XCTAssertTrue(u.isFinite && (0..<100).contains(u), "u(\(t)) = \(u)")
        }
        s.wave.period = 1e-320
        XCTAssertTrue(s.contentOffset(at: 1).isFinite)
        XCTAssertEqual(s.contentOffset(at: .nan), 0)
        s.wave.period = 0.1
        _ = try render(s, at: 1e308)
    }

    func testSnappingRoundsTheOffset() {
        var s = scene(100, 10)
        s.snapToPixel = true
        XCTAssertEqual(s.contentOffset(at: 0.123), 12)
        XCTAssertEqual(s.contentOffset(at: 0.126), 13)
        s.wave.direction = .right
        XCTAssertEqual(s.contentOffset(at: 0.126), -13)
        s.snapToPixel = false
        XCTAssertEqual(s.contentOffset(at: 0.25), -25, accuracy: 1e-12)
    }

    // MARK: Cells

    func testCellsTileTheImageExactly() {
        for (h, n) in [(90, 7), (80, 80), (1000, 999), (13, 5), (80_000, 1000)] {
            let s = scene(10, h) { $0.cellCount = n }
            var owner = [Int](repeating: -1, count: h)
            for k in 0..<n {
                let rows = s.cellRows(k)
                XCTAssertFalse(rows.isEmpty, "cell \(k) of \(n) in \(h) rows has no row")
                for r in rows {
                    XCTAssertEqual(owner[r], -1, "row \(r) shared by cells \(owner[r]) and \(k)")
                    owner[r] = k
                }
            }
            XCTAssertFalse(owner.contains(-1), "a row belongs to no cell (\(h) rows, \(n) cells)")
        }
    }

    // MARK: Validation

    func testInvalidScenesNameTheParameter() {
        func parameter(_ configure: (inout SineCells) -> Void) -> String? {
            var s = SineCells(width: 100, height: 50)
            configure(&s)
            do { try s.validate(); return nil } catch let e as ValueError { return e.parameter } catch { return "?" }
        }
        XCTAssertNil(parameter { _ in })
        XCTAssertEqual(parameter { $0.wave.amplitude = 0.6 }, "amplitude")
        XCTAssertEqual(parameter { $0.wave.baseline = -0.1 }, "baseline")
        XCTAssertEqual(parameter { $0.wave.cycles = 0 }, "cycles")
        XCTAssertEqual(parameter { $0.wave.period = 0 }, "period")
        XCTAssertEqual(parameter { $0.wave.period = .infinity }, "period")
        XCTAssertEqual(parameter { $0.cellCount = 51 }, "cells")
        XCTAssertEqual(parameter { $0.width = 0 }, "size")
        XCTAssertEqual(parameter { $0.width = 16385 }, "size")
    }
}

final class RowOrderTests: XCTestCase {
    /// The pixmap's row order is the caller's choice; the picture is the same.
    func testBottomUpStorageReadsBackTheSameImage() throws {
        var cells = SineCells(width: 50, height: 31)
        cells.cellCount = 3
        let renderer = CPURenderer()
        try renderer.prepare(scene: try cells.scene())
        let topDown = Pixmap(width: 50, height: 31), bottomUp = Pixmap(width: 50, height: 31, rowStride: -50)
        // The caller's own memory, rows padded to 64 words, with a marker in the padding.
        var lent = [UInt32](repeating: 0xDEAD_BEEF, count: 64 * 31)
        let image = try lent.withUnsafeMutableBufferPointer { buffer -> RGBAImage in
            let padded = Pixmap(wrapping: buffer.baseAddress!, width: 50, height: 31, rowStride: 64)
            for target in [topDown, bottomUp, padded] { try renderer.draw(time: 0.37, into: target) }
            let image = try topDown.readback()
            XCTAssertEqual(try padded.readback(), image)
            return image
        }
        XCTAssertEqual(lent[50], 0xDEAD_BEEF, "the padding was written")
        XCTAssertEqual(try bottomUp.readback(), image)
        // In memory, the bottom-up frame's first row is the image's last.
        let lastRow = Array(image.pixels[(30 * 50 * 4)..<(31 * 50 * 4)])
        XCTAssertEqual(Array(UnsafeRawBufferPointer(bottomUp.memory).prefix(50 * 4)), lastRow)
    }

    func testATargetOfAnotherSizeIsRefused() throws {
        let renderer = CPURenderer()
        try renderer.prepare(scene: try SineCells(width: 20, height: 10).scene())
        XCTAssertThrowsError(try renderer.draw(time: 0, into: Pixmap(width: 21, height: 10))) { error in
            guard case RendererError.wrongTarget = error else { return XCTFail("\(error)") }
        }
    }
}
