import WaveCore
import WaveEffects
@testable import WaveGL
import WaveTestSupport
import XCTest

/// The scrolling table (`--scene table`): the scroll view's motion, cell
/// reuse, a scrolled row against an unscrolled one, the cards' shadows
/// against a Gaussian computed here, and the shadow cache on GL counted.
final class TableTests: XCTestCase {
    private func table(_ scroll: ScrollMode, shadow: Bool = false, cached: Bool = true) -> Table {
        var table = Table(width: 200, height: 300)
        table.rows = 40
        table.rowHeight = 60
        table.scroll = scroll
        table.shadow = shadow
        table.cachesShadow = cached
        return table
    }

    // MARK: The scroll view

    func testAFlingDeceleratesAsAScrollViewDoesAndStops() {
        let motion = ScrollMotion(mode: .none, speed: 0, rows: 1000, rowHeight: 50, viewHeight: 500)
        motion.add(.fling(time: 1, velocity: 2000))
        XCTAssertEqual(motion.unroundedOffset(at: 1), 0)
        // v0 (1 - d^ms) / (1000 (-ln d)), d = 0.998.
        for t in [1.1, 1.5, 2.0] {
            let ms = (t - 1) * 1000
            XCTAssertEqual(motion.unroundedOffset(at: t), 2000 * (1 - pow(0.998, ms)) / (1000 * -log(0.998)), accuracy: 1e-6)
        }
        // It stops once under 10 px/s: the same offset from then on, short of the whole glide by 10 px/s's glide.
        let whole = 2000 / (1000 * -log(0.998)), rest = 10 / (1000 * -log(0.998))
        XCTAssertEqual(motion.unroundedOffset(at: 10), whole - rest, accuracy: 1e-6)
        XCTAssertEqual(motion.unroundedOffset(at: 100), motion.unroundedOffset(at: 10))
        // A page's fling travels about the page.
        let paged = ScrollMotion(mode: .none, speed: 0, rows: 1000, rowHeight: 50, viewHeight: 500)
        paged.add(.fling(time: 0, velocity: ScrollMotion.velocity(toTravel: 500)))
        XCTAssertEqual(paged.unroundedOffset(at: 20), 500, accuracy: 6)
    }

    func testTheOffsetStopsAtTheEndsAndDragsAndGlidesAreTimed() {
        let motion = ScrollMotion(mode: .none, speed: 0, rows: 10, rowHeight: 50, viewHeight: 200)
        XCTAssertEqual(motion.maxOffset, 300)
        motion.add(.fling(time: 0, velocity: -3000))
        XCTAssertEqual(motion.unroundedOffset(at: 1), 0, "no offset above the top")
        motion.add(.glide(time: 2, until: 3, speed: 1000))
        XCTAssertEqual(motion.unroundedOffset(at: 2.1), 100, accuracy: 1e-9)
        XCTAssertEqual(motion.unroundedOffset(at: 5), 300, "none past the end")
        // An input added earlier than the last is replayed in its place.
        motion.add(.drag(time: 2.05, by: -40))
        XCTAssertEqual(motion.unroundedOffset(at: 2.1), 10, accuracy: 1e-9, "the drag stopped the glide at 50 px and moved it up 40")
        // The constant mode goes down and back up.
        let pingPong = ScrollMotion(mode: .constant, speed: 100, rows: 10, rowHeight: 50, viewHeight: 200)
        XCTAssertEqual(pingPong.unroundedOffset(at: 2), 200, accuracy: 1e-9)
        XCTAssertEqual(pingPong.unroundedOffset(at: 4), 200, accuracy: 1e-9)
        XCTAssertEqual(pingPong.unroundedOffset(at: 6), 0, accuracy: 1e-9)
    }

    /// The replay resumed from the last frame equals one from the start, and any time is quick.
    func testAResumedReplayEqualsAFreshOneAndAnyTimeIsQuick() {
        func motion() -> ScrollMotion {
            let m = ScrollMotion(mode: .fling, speed: 3000, rows: 200, rowHeight: 50, viewHeight: 400)
            for k in 0..<300 { m.add(.drag(time: 20 + Double(k) * 0.01, by: k % 7 == 0 ? -30 : 12)) }
            m.add(.fling(time: 23.5, velocity: -4000))
            m.add(.glide(time: 26, until: 27, speed: 500))
            return m
        }
        let stepped = motion()
        for t in stride(from: 0.0, through: 30, by: 0.05) {
            XCTAssertEqual(stepped.unroundedOffset(at: t), motion().unroundedOffset(at: t), accuracy: 1e-9, "at \(t)")
        }
        // The mode's flicks alone: a pair of them ends where it began, so a late time replays from the last pair.
        let late = ScrollMotion(mode: .fling, speed: 3000, rows: 200, rowHeight: 50, viewHeight: 400)
        let early = ScrollMotion(mode: .fling, speed: 3000, rows: 200, rowHeight: 50, viewHeight: 400)
        XCTAssertEqual(late.unroundedOffset(at: 8_000_000 + 1.3), early.unroundedOffset(at: 1.3), accuracy: 1e-6)
        XCTAssertEqual(late.unroundedOffset(at: 8_000_000 + 5.2), early.unroundedOffset(at: 5.2), accuracy: 1e-6)
        XCTAssertTrue(late.unroundedOffset(at: 1e300).isFinite)
        XCTAssertTrue(late.unroundedOffset(at: -.infinity).isFinite)
    }

    func testEveryRowInViewIsShownByExactlyOneReusedCell() {
        let motion = ScrollMotion(mode: .fling, speed: 2500, rows: 100, rowHeight: 88, viewHeight: 667)
        XCTAssertEqual(motion.cells, 9, "8 rows fill 667 px at a row's top, plus one")
        for t in stride(from: 0.0, through: 12, by: 0.05) {
            motion.advance(to: t)
            let offset = motion.currentOffset
            XCTAssertEqual(offset, offset.rounded(), "whole pixels")
            let inView = Int(offset) / 88...Int(offset + 666) / 88
            let shown = (0..<motion.cells).map { motion.row(ofCell: $0) }
            XCTAssertEqual(Set(shown).count, motion.cells, "no two cells show one row at \(t)")
            for row in inView { XCTAssertTrue(shown.contains(row), "row \(row) in view at \(t) s has a cell") }
            for k in 0..<motion.cells { XCTAssertEqual(motion.value(1 + k), Double(shown[k] * 88)) }
        }
    }

    // MARK: The scene

    func testTheTableHoldsOnlyTheCellsInViewPlusOne() throws {
        let scene = try table(.fling).scene()
        XCTAssertEqual(scene.tree?.root.sublayers.count, 6, "300 px of 60 px rows: 5 in view plus one")
        var tall = table(.fling)
        tall.rows = 1_000_000
        XCTAssertEqual(try tall.scene().tree?.root.sublayers.count, 6, "however many rows the table has")
        var short = table(.fling)
        short.rows = 3
        XCTAssertEqual(try short.scene().tree?.root.sublayers.count, 3, "no more cells than rows")
        let evaluator = try scene.tree!.makeEvaluator()
        // A card and a wave a cell at most, however far it has scrolled (a cell wholly outside the view draws nothing).
        let counts = stride(from: 0.0, through: 9, by: 0.3).map { evaluator.presentation(at: $0).items.count }
        XCTAssertEqual(counts.max(), 12, "\(counts)")
        XCTAssertGreaterThanOrEqual(counts.min() ?? 0, 10, "\(counts)")
    }

    /// A row scrolled to any offset is the same pixels as a row of the still table, moved by the offset.
    func testAScrolledRowEqualsAStillRowMoved() throws {
        for shadow in [false, true] {
            let scrolled = table(.fling, shadow: shadow), still = table(.none, shadow: shadow)
            let scrolledScene = try scrolled.scene(), stillScene = try still.scene()
            let motion = try XCTUnwrap(scrolledScene.scrollViews.first)
            for t in [0.3, 0.9, 4.6] {
                motion.advance(to: t)
                let offset = Int(motion.currentOffset)
                XCTAssertGreaterThan(offset, 0)
                let moved = try Frames.render(CPURenderer(), scrolledScene, at: [t])[0]
                let plain = try Frames.render(CPURenderer(), stillScene, at: [t])[0]
                // Each row wholly in view below the first: its 60 rows against the still table's row 1.
                var compared = 0
                for row in (offset / 60 + 1)..<((offset + 300) / 60 + 1) where (row + 1) * 60 - offset <= 300 {
                    let top = row * 60 - offset
                    XCTAssertEqual(Array(moved.pixels[(top * 200 * 4)..<((top + 60) * 200 * 4)]),
                                   Array(plain.pixels[(60 * 200 * 4)..<(120 * 200 * 4)]),
                                   "row \(row) at offset \(offset), t = \(t), shadow \(shadow)")
                    compared += 1
                }
                XCTAssertGreaterThanOrEqual(compared, 3)
            }
        }
    }

    func testBothStrategiesAgreeWhileScrollingWithShadowsCachedOrNot() throws {
        let gl = try glRenderer()
        for cached in [true, false] {
            let scene = try table(.fling, shadow: true, cached: cached).scene()
            let times = [0.2, 0.7, 4.3]
            let a = try Frames.render(gl, scene, at: times), b = try Frames.render(CPURenderer(), scene, at: times)
            for i in times.indices { assertImagesMatch(a[i], b[i], mean: 0.5, max: 8, name: "table-shadow-\(cached)-\(i)") }
        }
    }

    /// The cache, counted: cached cards are painted once; without it every card is painted again every frame.
    func testTheShadowCacheOnGLIsPaintedOnceOrEveryFrame() throws {
        let gl = try glRenderer()
        for cached in [true, false] {
            try gl.prepare(scene: try table(.fling, shadow: true, cached: cached).scene())
            let target = try gl.makeTarget()
            for t in [0.5, 0.6, 0.7] {
                try gl.draw(time: t, into: target)
                XCTAssertEqual(gl.treeRasterPictures?.paintsThisFrame, cached ? 0 : 6, "cached \(cached) at \(t)")
            }
            gl.finish()
        }
    }

    // MARK: The shadow

    /// A shadowed shape alone in its clip, and a turned, scaled card: the CPU draws the shadow as the GL picture holds it.
    func testShadowsAgreeAloneInAClipAndUnderATurnAndAScale() throws {
        let triangle = try PathData.parse("M 10 10 L 70 20 L 30 50 Z")
        var shape = Layer(name: "shape", frame: Rect(x: 0, y: 0, width: 80, height: 60),
                          contents: .shape(Shape(path: triangle, fill: .solid(RGBA8(240, 200, 60)))))
        shape.shadow = Shadow(opacity: 0.8, offset: Point(5, 6), radius: 5)
        var clip = Layer(name: "clip", frame: Rect(x: 10, y: 10, width: 100, height: 80), sublayers: [shape])
        clip.masksToBounds = true
        var card = Layer(name: "card", frame: Rect(x: 120, y: 20, width: 60, height: 40),
                         contents: .box(Box(color: RGBA8(90, 160, 255), cornerRadius: 6)))
        card.shadow = Shadow(opacity: 0.7, offset: Point(4, 4), radius: 4)
        card.transform.rotation = .constant(0.4)
        card.transform.scaleX = .constant(1.5)
        card.transform.scaleY = .constant(1.5)
        let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 220, height: 120), sublayers: [clip, card])
        let scene = Scene(width: 220, height: 120, background: RGBA8(250, 250, 250), tree: LayerTree(root: root))
        let cpu = try Frames.render(CPURenderer(), scene, at: [0])[0], gl = try Frames.render(try glRenderer(), scene, at: [0])[0]
        assertImagesMatch(gl, cpu, mean: 1, max: 64, name: "shadow-clip-turn")
        // The shadows are there: the same scene without them differs below the shape.
        var plain = scene
        plain.tree?.root.sublayers[0].sublayers[0].shadow = nil
        plain.tree?.root.sublayers[1].shadow = nil
        let without = try Frames.render(CPURenderer(), plain, at: [0])[0]
        XCTAssertGreaterThan(ImageComparison.difference(cpu, without).maxAbsolute, 60)
    }

    /// A square's shadow against its coverage convolved with a Gaussian of
    /// sigma = radius / 2, computed here (the box blurs approximate it).
    func testAShadowIsTheContentsBlurredByAGaussian() throws {
        let size = 80, side = 30.0, origin = 20.0
        var square = Layer(name: "square", frame: Rect(x: origin, y: origin, width: side, height: side),
                           contents: .box(Box(color: RGBA8(255, 255, 255, 0))))
        square.shadow = Shadow(color: RGBA8(0, 0, 0, 255), opacity: 1, offset: Point(7, 5), radius: 8)
        let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: Double(size), height: Double(size)), sublayers: [square])
        let white = RGBA8(255, 255, 255, 255)
        let frame = try Frames.render(CPURenderer(), Scene(width: size, height: size, background: white, tree: LayerTree(root: root)), at: [0])[0]
        let sigma = 4.0
        // The 1-D Gaussian's integral over [a, b]: erf differences.
        func mass(_ a: Double, _ b: Double, _ c: Double) -> Double { 0.5 * (erf((b - c) / (sigma * 2.0.squareRoot())) - erf((a - c) / (sigma * 2.0.squareRoot()))) }
        var expected = RGBAImage(width: size, height: size, fill: white)
        for y in 0..<size {
            for x in 0..<size {
                let alpha = mass(origin + 7, origin + 7 + side, Double(x) + 0.5) * mass(origin + 5, origin + 5 + side, Double(y) + 0.5)
                let v = UInt8((255 * (1 - alpha)).rounded())
                expected[x, y] = RGBA8(v, v, v, 255)
            }
        }
        assertImagesMatch(frame, expected, mean: 1.5, max: 10, name: "shadow-gaussian")
    }
}
