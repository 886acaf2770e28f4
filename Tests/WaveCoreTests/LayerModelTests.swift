import WaveCore
import WaveEffects
import WaveTestSupport
import XCTest

/// Paths, paints, motions and compositing on the CPU, each against a
/// reference computed here from its definition.
final class LayerModelTests: XCTestCase {
    private let background = RGBA8(0x10, 0x20, 0x30)

    private func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) throws -> Path {
        var b = PathBuilder()
        try b.rectangle(x: x, y: y, width: w, height: h)
        return b.path
    }

    private func render(_ scene: Scene, at t: Double = 0) throws -> RGBAImage {
        try Frames.render(CPURenderer(), scene, at: [t])[0]
    }

    /// Shape layers the scene's size, in order, each moved by its x translation.
    private func shapes(_ width: Int, _ height: Int, background: RGBA8, _ layers: [(Path, Fill, Double)]) -> Scene {
        let frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        let sublayers = layers.map { path, fill, x in
            var layer = Layer(frame: frame, contents: .shape(Shape(path: path, fill: fill)))
            layer.transform.translationX = .constant(x)
            return layer
        }
        return Scene(width: width, height: height, background: background, tree: LayerTree(root: Layer(frame: frame, sublayers: sublayers)))
    }

    // MARK: Paths

    func testNonFiniteCoordinatesAreATypedErrorNotATrap() throws {
        for bad in [Double.nan, .infinity, -.infinity] {
            var b = PathBuilder()
            XCTAssertNoThrow(try b.move(to: 1, 2))
            XCTAssertThrowsError(try b.line(to: bad, 3)) { error in
                XCTAssertEqual((error as? PathError)?.element, 1)
                XCTAssertTrue("\(error)".contains("not a finite number"), "\(error)")
            }
            XCTAssertThrowsError(try b.quad(control: 0, bad, to: 1, 1)) { XCTAssertTrue($0 is PathError) }
        }
        // Straight into the rasteriser (which only PathBuilder's paths reach), a NaN or a huge number does not trap.
        let r = try CoverageRasterizer(width: 4, height: 4)
        r.move(to: 0, 0); r.line(to: .nan, 2); r.line(to: 1e300, -1e300); r.close()
        var sink = Sink()
        r.resolve(rows: 0..<4, into: &sink)
    }

    private struct Sink: CoverageBlitter {
        mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {}
    }

    /// The area under a quadratic from (0, 10) through control (8, -6) to
    /// (16, 10) down to y = 10 is 2/3 * base * height of the parabola: the
    /// flattened curve's coverage must add up to it.
    func testQuadraticCurvesAreFlattenedToTheirArea() throws {
        var b = PathBuilder()
        try b.move(to: 0, 10)
        try b.quad(control: 8, -6, to: 16, 10)
        b.close()
        let scene = shapes(16, 12, background: RGBA8(0, 0, 0, 0), [(b.path, .solid(RGBA8(255, 255, 255)), 0)])
        let image = try render(scene)
        let covered = stride(from: 3, to: image.pixels.count, by: 4).reduce(0.0) { $0 + Double(image.pixels[$1]) / 255 }
        // The curve's apex is at y = 2 (half way to the control point): height 8 over a base of 16.
        // Chords inside a convex curve lose area: at most the tolerance (0.05 px) times the
        // curve's length (about 24 px); one chord (no flattening) would lose it all.
        let area = 2.0 / 3.0 * 16 * 8
        XCTAssertLessThanOrEqual(covered, area + 0.05)
        XCTAssertGreaterThanOrEqual(covered, area - 0.05 * 24)
    }

    /// An edge whose ends lie millions of pixels away keeps its slope where
    /// it crosses the image, however far the motion moves it: the line from
    /// (-4e6, 0) to (4e6, 1000), moved by -u, meets x = 0 at row (4e6 + u) / 8000.
    func testFarAwayVerticesDoNotBendTheVisibleEdge() throws {
        var b = PathBuilder()
        try b.move(to: -4e6, 0)
        try b.line(to: 4e6, 1000)
        try b.line(to: -4e6, 1000)
        b.close()
        for (u, row) in [(0.0, 500), (-2e6, 250), (1e6, 625)] {
            let scene = shapes(4, 1000, background: RGBA8(0, 0, 0), [(b.path, .solid(RGBA8(255, 255, 255)), -u)])
            let image = try render(scene)
            XCTAssertEqual((0..<1000).first { image[0, $0].r > 127 }, row, "u = \(u)")
        }
    }

    /// As in SVG, drawing on after Z starts from the closed sub-path's start.
    func testALineAfterCloseStartsAtTheClosedSubpathsStart() throws {
        var b = PathBuilder()
        try b.move(to: 0, 0); try b.line(to: 10, 0); try b.line(to: 10, 10); b.close()
        try b.line(to: 20, 10); try b.line(to: 20, 0); b.close()
        XCTAssertEqual(b.path.subpaths.count, 2)
        XCTAssertEqual(b.path.elements[3], .move(Point(0, 0)))
    }

    func testPathDataReadsSVGsCompactForms() throws {
        let path = try PathData.parse("M0,0 L10-5l-2.5e1+1e-1ZH3V-4q1 1 2 2z")
        XCTAssertEqual(path.elements, [.move(Point(0, 0)), .line(Point(10, -5)), .line(Point(-15, -4.9)),
                                       .move(Point(0, 0)), .line(Point(3, 0)), .line(Point(3, -4)),
                                       .quad(control: Point(4, -3), end: Point(5, -2))])
    }

    // MARK: Motion

    /// A loop that has always been running (begin time minus infinity):
    /// the same at t and t + period, negative times included, and a
    /// time offset runs it ahead.
    func testEndlessLoopsRepeatBeforeTimeZeroToo() {
        let loop = MediaTiming.endlessLoop(duration: 2)
        XCTAssertEqual(loop.simpleTime(at: 0.5)!, 0.5, accuracy: 1e-12)
        XCTAssertEqual(loop.simpleTime(at: 2.5)!, 0.5, accuracy: 1e-12)
        XCTAssertEqual(loop.simpleTime(at: -1.5)!, 0.5, accuracy: 1e-12)
        XCTAssertEqual(loop.simpleTime(at: -1e300)!, loop.simpleTime(at: -1e300 + 0)!)
        XCTAssertEqual(MediaTiming.endlessLoop(duration: 2, timeOffset: 0.25).simpleTime(at: -1.5)!, 0.75, accuracy: 1e-12)
        XCTAssertEqual(loop.completedPasses(at: -1.5), -1)
        XCTAssertNil(loop.nextBoundary(after: -5))
        // A travel is a layer's x translation, -u: -10 + 30.4 = 20.4 at t = 1, snapped to 20.
        XCTAssertEqual(Timeline<Double>.travel(start: -10, pixelsPerSecond: 30.4, snapsToPixel: true).value(at: 1), -20)
        XCTAssertEqual(Timeline<Double>.travel(start: -10, pixelsPerSecond: 30.4, snapsToPixel: false).value(at: 1), -20.4, accuracy: 1e-12)
    }

    // MARK: Paint and compositing

    /// Two overlapping translucent rectangles: the second composites over
    /// the first, source-over, in order.
    func testOverlappingTranslucentLayersCompositeInOrder() throws {
        let red = RGBA8(255, 0, 0, 128), green = RGBA8(0, 255, 0, 160)
        let scene = shapes(12, 6, background: background, [(try rectangle(1, 1, 6, 4), .solid(red), 0),
                                                           (try rectangle(4, 2, 7, 3), .solid(green), 0)])
        let image = try render(scene)
        func expected(_ x: Int, _ y: Int) -> RGBA8 {
            var c = background
            if (1..<7).contains(x) && (1..<5).contains(y) { c = Reference.composite(red, 1, c) }
            if (4..<11).contains(x) && (2..<5).contains(y) { c = Reference.composite(green, 1, c) }
            return c
        }
        var reference = RGBAImage(width: 12, height: 6)
        for y in 0..<6 { for x in 0..<12 { reference[x, y] = expected(x, y) } }
        assertImagesMatch(image, reference, mean: 0, max: 1, name: "composite-in-order")
        XCTAssertNotEqual(image[5, 3], Reference.composite(red, 1, Reference.composite(green, 1, background)),
                          "the order of the layers made no difference")
    }

    func testALinearGradientIsEvaluatedAtPixelCentres() throws {
        let top = RGBA8(255, 40, 0), bottom = RGBA8(0, 40, 255, 200)
        let gradient = LinearGradient(start: Point(0, 0), end: Point(0, 8), startColor: top, endColor: bottom)
        let scene = shapes(5, 8, background: background, [(try rectangle(0, 0, 5, 8), .linearGradient(gradient), 0)])
        let image = try render(scene)
        for y in 0..<8 {
            let t = (Double(y) + 0.5) / 8
            func mix(_ a: UInt8, _ b: UInt8) -> Double { Double(a) + (Double(b) - Double(a)) * t }
            let color = ColorValue(r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: mix(top.a, bottom.a))
            XCTAssertEqual(image[2, y], composite(color, coverage: 1, onto: background), "row \(y)")
        }
    }

    // MARK: Validation

    func testLayersOutsideTheContractAreRefusedWithTheirName() throws {
        for timing in [MediaTiming.endlessLoop(duration: 0), MediaTiming(beginTime: -.infinity, duration: 1, repeatCount: 3)] {
            var cell = Layer(name: "cell 1", frame: Rect(x: 0, y: 0, width: 2, height: 4),
                             contents: .shape(Shape(path: try rectangle(0, 0, 2, 4), fill: .solid(background))))
            cell.timing = timing
            let scene = Scene(width: 2, height: 4, tree: LayerTree(root: Layer(frame: Rect(x: 0, y: 0, width: 2, height: 4), sublayers: [cell])))
            XCTAssertThrowsError(try scene.validate()) { error in
                XCTAssertEqual((error as? LayerTreeError)?.layer, "cell 1", "\(error)")
            }
        }
    }
}
