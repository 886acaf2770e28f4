import WaveCore
@testable import WaveGL
import WaveTestSupport
import XCTest

/// What each strategy counts of a frame's pixels (`PixelCounts`: the demo's
/// overlays and the benchmark's `pixels_per_frame`), against counts worked
/// out by hand for 20x10 scenes of whole-pixel boxes. The hand rules:
/// - the CPU resolves each item over its area (its box widened by a pixel
///   each side, inside the frame and its clip) and stores, blending, only
///   the pixels its coverage reaches (and its mask lets through); a frame
///   starts with a clear of every row no shape alone in its clip paints whole;
/// - GL draws each box as one quad over that same area and blends every
///   fragment of it (transparent ones too); a mask is a texture a page in
///   size, cleared, with a whole-pixel box in it a scissored clear; a shape
///   alone in its clip is a copy (on a software renderer): written, not blended.
final class PixelCountTests: XCTestCase {
    private let frame = Rect(x: 0, y: 0, width: 20, height: 10)

    private func scene(_ layers: [Layer]) -> Scene {
        Scene(width: 20, height: 10, tree: LayerTree(root: Layer(frame: frame, sublayers: layers)))
    }

    /// The frame at each time drawn with counting on; the counts of the last, and the frames.
    private func counted(_ scene: Scene, on renderer: Renderer & PixelCounting, at times: [Double] = [0])
        throws -> (counts: PixelCounts, frames: [RGBAImage], totals: [PixelCounts.Totals]) {
        let counts = PixelCounts(width: scene.width, height: scene.height)
        renderer.pixelCounts = counts
        defer { renderer.pixelCounts = nil }
        try renderer.prepare(scene: scene)
        let target = try renderer.makeTarget()
        var frames: [RGBAImage] = [], totals: [PixelCounts.Totals] = []
        for t in times {
            try renderer.draw(time: t, into: target)
            frames.append(try target.readback())
            totals.append(counts.totals)
        }
        return (counts, frames, totals)
    }

    /// A 20x10 map: each rectangle (columns, rows) adds its value.
    private func map(_ rects: [(columns: Range<Int>, rows: Range<Int>, value: UInt8)]) -> [UInt8] {
        var m = [UInt8](repeating: 0, count: 200)
        for r in rects { for y in r.rows { for x in r.columns { m[y * 20 + x] += r.value } } }
        return m
    }

    private func assertMap(_ actual: UnsafeMutableBufferPointer<UInt8>, _ expected: [UInt8], _ what: String,
                           file: StaticString = #filePath, line: UInt = #line) {
        let rows = { (m: [UInt8]) in (0..<10).map { y in m[(y * 20)..<(y * 20 + 20)].map(String.init).joined() }.joined(separator: "\n") }
        XCTAssertEqual(Array(actual), expected, "\(what):\n\(rows(Array(actual)))\nexpected\n\(rows(expected))", file: file, line: line)
    }

    /// An opaque 8x4 box at (2, 3) under a translucent 6x4 box at (6, 5).
    func testTwoOverlappingBoxes() throws {
        let a = Layer(name: "a", frame: Rect(x: 2, y: 3, width: 8, height: 4), contents: .box(Box(color: RGBA8(255, 0, 0))))
        let b = Layer(name: "b", frame: Rect(x: 6, y: 5, width: 6, height: 4), contents: .box(Box(color: RGBA8(0, 0, 255, 128))))
        let scene = scene([a, b])
        // Areas: a's box widened by a pixel, columns 1..<11 and rows 2..<8 (60 pixels); b's 5..<13 and 4..<10 (48).
        let cpu = try counted(scene, on: CPURenderer())
        XCTAssertEqual(cpu.counts.totals, PixelCounts.Totals(rasterized: 60 + 48, written: 200 + 32 + 24, blended: 32 + 24, offscreen: 0))
        assertMap(cpu.counts.blendedLayers, map([(2..<10, 3..<7, 1), (6..<12, 5..<9, 1)]), "CPU blended layers")
        XCTAssertEqual(cpu.counts.updatedPixels, 200, "the CPU paints every pixel in software")
        XCTAssertEqual(cpu.counts.mostBlendedLayers, 2)

        let gl = try counted(scene, on: try glRenderer())
        XCTAssertEqual(gl.counts.totals, PixelCounts.Totals(rasterized: 0, written: 200 + 60 + 48, blended: 60 + 48, offscreen: 0))
        assertMap(gl.counts.blendedLayers, map([(1..<11, 2..<8, 1), (5..<13, 4..<10, 1)]), "GL blended layers")
        XCTAssertEqual(gl.counts.updatedPixels, 0, "GL paints nothing in software")
        // Counting leaves the frames as they are.
        assertImagesMatch(cpu.frames[0], try Frames.render(CPURenderer(), scene, at: [0])[0], mean: 0, max: 0, name: "counted-cpu")
        assertImagesMatch(gl.frames[0], try Frames.render(try glRenderer(), scene, at: [0])[0], mean: 0, max: 0, name: "counted-gl")
    }

    /// A 10x4 box at (2, 3) under a mask of 6x10 at the left edge.
    func testAMaskIsOffscreenWork() throws {
        var masked = Layer(name: "masked", frame: frame, sublayers: [
            Layer(name: "box", frame: Rect(x: 2, y: 3, width: 10, height: 4), contents: .box(Box(color: RGBA8(255, 0, 0))))])
        masked.mask = Layer(name: "mask", frame: Rect(x: 0, y: 0, width: 6, height: 10), contents: .box(Box(color: RGBA8(255, 255, 255))))
        let scene = scene([masked])
        // The mask's area: columns 0..<7, rows 0..<10 (70), 60 covered; the box's: 1..<13 x 2..<8 (72), 16 let through.
        // The CPU rasterises the box only where the mask wrote (1..<7 x 2..<8, 36): past it nothing shows.
        let cpu = try counted(scene, on: CPURenderer())
        XCTAssertEqual(cpu.counts.totals, PixelCounts.Totals(rasterized: 70 + 36, written: 200 + 16, blended: 16, offscreen: 60))
        assertMap(cpu.counts.blendedLayers, map([(2..<6, 3..<7, 1)]), "CPU blended layers")

        let gl = try counted(scene, on: try glRenderer())
        XCTAssertEqual(gl.counts.totals, PixelCounts.Totals(rasterized: 0, written: 200 + 72, blended: 72, offscreen: 200 + 60))
        assertMap(gl.counts.blendedLayers, map([(1..<13, 2..<8, 1)]), "GL blended layers")
    }

    /// Two 6x4 shapes at (2, 3) and (11, 5) that stand still: the CPU rasterises their areas (each widened by
    /// a pixel, 48 pixels) on the two frames it takes to see that, then plays the coverage it kept
    /// (`KeptCoverage`); their stores are counted every frame, and every frame is the one a renderer that
    /// kept nothing draws.
    func testStillShapesCoverageIsKeptOnTheCPU() throws {
        var square = PathBuilder()
        try square.rectangle(x: 0, y: 0, width: 6, height: 4)
        let shape = Contents.shape(Shape(path: square.path, fill: .solid(RGBA8(255, 0, 0, 200))))
        let scene = scene([Layer(name: "one", frame: Rect(x: 2, y: 3, width: 6, height: 4), contents: shape),
                           Layer(name: "two", frame: Rect(x: 11, y: 5, width: 6, height: 4), contents: shape)])
        let cpu = try counted(scene, on: CPURenderer(), at: [0, 0.5, 1, 1.5])
        XCTAssertEqual(cpu.totals.map { $0.rasterized }, [96, 96, 0, 0])
        for (k, totals) in cpu.totals.enumerated() {
            XCTAssertEqual(totals, PixelCounts.Totals(rasterized: totals.rasterized, written: 200 + 48, blended: 48, offscreen: 0))
            assertImagesMatch(cpu.frames[k], try Frames.render(CPURenderer(), scene, at: [Double(k) / 2])[0], mean: 0, max: 0,
                              name: "kept-cpu-\(k)")
        }
    }

    /// A 30x4 bar alone in a 12x6 clip at (3, 2).
    func testAShapeAloneInItsClipIsWrittenNotBlended() throws {
        var bar = PathBuilder()
        try bar.rectangle(x: 0, y: 0, width: 30, height: 4)
        var clip = Layer(name: "clip", frame: Rect(x: 3, y: 2, width: 12, height: 6), sublayers: [
            Layer(frame: Rect(x: 0, y: 1, width: 30, height: 6), contents: .shape(Shape(path: bar.path, fill: .solid(RGBA8(0, 255, 0)))))])
        clip.masksToBounds = true
        let scene = scene([clip])
        // Every row is cleared (the clip is narrower than the frame), then the clip's 72 pixels painted over the background.
        let cpu = try counted(scene, on: CPURenderer())
        XCTAssertEqual(cpu.counts.totals, PixelCounts.Totals(rasterized: 72, written: 200 + 72, blended: 0, offscreen: 0))
        let renderer = try glRenderer()
        let prefers = renderer.prefersCopies
        renderer.prefersCopies = true
        defer { renderer.prefersCopies = prefers }
        let gl = try counted(scene, on: renderer)
        XCTAssertEqual(renderer.copiesPerFrame, 1)
        XCTAssertEqual(gl.counts.totals, PixelCounts.Totals(rasterized: 0, written: 200 + 72, blended: 0, offscreen: 0))
        XCTAssertEqual(gl.counts.mostBlendedLayers, 0)
    }

    /// A card's shadow, cached (`shouldRasterize`) or painted again every
    /// frame: GL's software work is the picture, its updated region the
    /// picture where it lands, in every frame that paints it and no other.
    func testAShadowNotCachedIsPaintedInSoftwareEveryFrame() throws {
        for cached in [false, true] {
            var card = Layer(name: "card", frame: Rect(x: 4, y: 2, width: 8, height: 4), contents: .box(Box(color: RGBA8(250, 250, 250))))
            card.shadow = Shadow(opacity: 0.5, offset: Point(0, 1), radius: 1)
            card.shouldRasterize = cached
            let scene = scene([card])
            let renderer = try glRenderer()
            let gl = try counted(scene, on: renderer, at: [0, 0.5])
            let picture = try XCTUnwrap(renderer.treeRasterPictures).pixelsPaintedThisFrame
            // The picture is drawn as one quad of its own size at a whole-pixel place: its fragments are its pixels.
            let fragments = gl.counts.blendedLayers.reduce(0) { $0 + Int($1) }
            XCTAssertEqual(gl.totals[0], gl.totals[1], "cached \(cached): each frame counted afresh")
            XCTAssertEqual(gl.counts.totals.blended, fragments)
            if cached {
                XCTAssertEqual(picture, 0)
                XCTAssertEqual(gl.counts.totals.rasterized, 0)
                XCTAssertEqual(gl.counts.updatedPixels, 0)
            } else {
                XCTAssertGreaterThan(picture, 32, "the card and its shadow")
                XCTAssertEqual(gl.counts.totals, PixelCounts.Totals(rasterized: picture, written: 200 + picture, blended: picture,
                                                                    offscreen: picture))
                XCTAssertEqual(Array(gl.counts.updated), gl.counts.blendedLayers.map { $0 > 0 ? 1 : 0 }, "updated where the picture lands")
            }
        }
    }

    /// Counting into counts of another size is refused, as is a GL target that cannot hold a stencil.
    func testCountsOfTheWrongSizeOrTargetAreRefused() throws {
        let scene = scene([Layer(frame: Rect(x: 1, y: 1, width: 4, height: 4), contents: .box(Box(color: RGBA8(255, 0, 0))))])
        for renderer in [CPURenderer(), try glRenderer()] as [Renderer & PixelCounting] {
            try renderer.prepare(scene: scene)
            let target = try renderer.makeTarget()
            renderer.pixelCounts = PixelCounts(width: 10, height: 10)
            defer { renderer.pixelCounts = nil }
            XCTAssertThrowsError(try renderer.draw(time: 0, into: target)) { error in
                XCTAssertTrue("\(error)".contains("pixel counts of 10x10 for a 20x10 scene"), "\(error)")
            }
        }
        let gl = try glRenderer()
        try gl.prepare(scene: scene)
        gl.pixelCounts = PixelCounts(width: 20, height: 10)
        defer { gl.pixelCounts = nil }
        XCTAssertThrowsError(try gl.draw(time: 0, into: GLFramebufferRegion(viewport: Viewport(x: 0, y: 0, width: 20, height: 10))))
    }
}
