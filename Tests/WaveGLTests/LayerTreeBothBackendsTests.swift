import CMallocCounter
import WaveCore
import WaveEffects
@testable import WaveGL
import WaveTestSupport
import XCTest

/// The layer tree through both strategies (`TreeScenes`): the GL strategy's
/// frame against the CPU's redraw, and neither allocating per frame.
final class LayerTreeBothBackendsTests: XCTestCase {
    /// Whole-pixel motion: cached coverage is the CPU's own, polygons follow
    /// the rasteriser's rule in floating point: mean 1/255, max 8/255. Turned
    /// and scaled cached pictures are sampled bilinearly, as Core Animation
    /// samples a cached layer: their edges differ by up to 96/255 in the
    /// worst pixel, mean 1/255 over the frame.
    func testEveryTreeMatchesTheCPUOnGL() throws {
        for c in try TreeScenes.all() {
            let gl = try Frames.render(try glRenderer(), c.scene, at: c.times)
            let cpu = try Frames.render(CPURenderer(), c.scene, at: c.times)
            XCTAssertEqual(pendingGLErrors(), [])
            for i in c.times.indices {
                assertImagesMatch(gl[i], cpu[i], mean: 1, max: c.wholePixels ? 8 : 96, name: "\(c.name)-\(i)")
            }
        }
    }

    /// Every mask mode, its layer's coverage inverted or not, in a mask
    /// inverted or not: box A (x 0 to 60, opacity 0.6, added) then box B
    /// (x 40 to 100, opacity 0.8, by the mode), over a red box filling the
    /// frame. Each third of the frame against the coverage worked out here
    /// from the modes' definitions (After Effects'), on both backends.
    func testEveryMaskModeFoldsAsDefinedOnBothBackends() throws {
        let definitions: [MaskMode: (Double, Double) -> Double] = [
            .add: { m, s in m + s - m * s }, .subtract: { m, s in m - m * s }, .intersect: { m, s in m * s },
            .lighten: { m, s in max(m, s) }, .darken: { m, s in min(m, s) }, .difference: { m, s in abs(m - s) + 2 * min(m, s) * (1 - max(m, s)) },
        ]
        XCTAssertEqual(Set(definitions.keys), Set(MaskMode.allCases))
        let frame = Rect(x: 0, y: 0, width: 100, height: 10)
        for mode in MaskMode.allCases {
            for invertsItem in [false, true] {
                for invertsMask in [false, true] {
                    var a = Layer(name: "a", frame: Rect(x: 0, y: 0, width: 60, height: 10), contents: .box(Box(color: RGBA8(0, 0, 0))))
                    a.opacity = .constant(0.6)
                    var b = Layer(name: "b", frame: Rect(x: 40, y: 0, width: 60, height: 10), contents: .box(Box(color: RGBA8(0, 0, 0))))
                    b.opacity = .constant(0.8)
                    b.maskMode = mode
                    b.invertsMaskCoverage = invertsItem
                    var masked = Layer(frame: frame, sublayers: [Layer(frame: frame, contents: .box(Box(color: RGBA8(255, 0, 0))))])
                    var mask = Layer(frame: frame, sublayers: [a, b])
                    mask.anchorPoint = Point(0, 0)
                    mask.position = AnimatablePoint(0, 0)
                    masked.mask = mask
                    masked.invertsMask = invertsMask
                    let scene = Scene(width: 100, height: 10, background: RGBA8(255, 255, 255), tree: LayerTree(root: Layer(frame: frame, sublayers: [masked])))
                    let cpu = try Frames.render(CPURenderer(), scene, at: [0])[0]
                    let gl = try Frames.render(try glRenderer(), scene, at: [0])[0]
                    let name = "mask-\(mode)-\(invertsItem ? "inverted" : "plain")-in-\(invertsMask ? "inverted" : "plain")"
                    assertImagesMatch(gl, cpu, mean: 0.5, max: 2, name: name)
                    for (x, inA, inB) in [(20, true, false), (50, true, true), (80, false, true)] {
                        let s0 = inB ? 0.8 : 0.0, s = invertsItem ? 1 - s0 : s0
                        let fold = definitions[mode]!(inA ? 0.6 : 0, s), coverage = invertsMask ? 1 - fold : fold
                        // Red over white at that coverage: green is 255 (1 - coverage).
                        XCTAssertEqual(Double(cpu[x, 5].g), 255 * (1 - coverage), accuracy: 1.5, "\(name) at x \(x)")
                    }
                }
            }
        }
    }

    /// A luminance mask (a luma matte): its layers' luminance times their
    /// alpha, Rec. 709's weights, inverted or not, on both backends: an
    /// opaque green box over the left half, a half-transparent blue one
    /// over the right, masking red.
    func testALuminanceMaskReadsItsLayersColours() throws {
        let frame = Rect(x: 0, y: 0, width: 100, height: 10)
        for inverted in [false, true] {
            let green = Layer(frame: Rect(x: 0, y: 0, width: 50, height: 10), contents: .box(Box(color: RGBA8(0, 255, 0))))
            var blue = Layer(frame: Rect(x: 50, y: 0, width: 50, height: 10), contents: .box(Box(color: RGBA8(0, 0, 255))))
            blue.opacity = .constant(0.5)
            var mask = Layer(frame: frame, sublayers: [green, blue])
            mask.anchorPoint = Point(0, 0)
            mask.position = AnimatablePoint(0, 0)
            var masked = Layer(frame: frame, sublayers: [Layer(frame: frame, contents: .box(Box(color: RGBA8(255, 0, 0))))])
            masked.mask = mask
            masked.masksByLuminance = true
            masked.invertsMask = inverted
            let scene = Scene(width: 100, height: 10, background: RGBA8(255, 255, 255), tree: LayerTree(root: Layer(frame: frame, sublayers: [masked])))
            let cpu = try Frames.render(CPURenderer(), scene, at: [0])[0]
            let gl = try Frames.render(try glRenderer(), scene, at: [0])[0]
            assertImagesMatch(gl, cpu, mean: 0.5, max: 2, name: "luminance-mask-\(inverted)")
            for (x, luminance) in [(25, 0.7152), (75, 0.0722 * 0.5)] {
                let coverage = inverted ? 1 - luminance : luminance
                XCTAssertEqual(Double(cpu[x, 5].g), 255 * (1 - coverage), accuracy: 1.5, "x \(x), inverted \(inverted)")
            }
        }
        // The shaders read a mask with the same weights, written once in the file every masked shader includes.
        let w = MaskLuminance.weights
        XCTAssertTrue(EmbeddedShaders.files["coverage_reads.inc"]!.contains("const vec3 MASK_LUMINANCE = vec3(\(w.r), \(w.g), \(w.b));"))
        for file in ["item.frag.glsl", "box.frag.glsl", "pictures.frag.glsl", "instance_runs.frag.glsl"] {
            XCTAssertTrue(EmbeddedShaders.files[file]!.contains("#include \"coverage_reads.inc\""), file)
        }
    }

    /// Every blend mode through both backends: the CPU's blending (written
    /// from the W3C's definitions) against the driver's own
    /// KHR_blend_equation_advanced equations (llvmpipe's, Mesa's code), a pink
    /// box at 0.8 over a blue one and over nothing; over nothing every mode
    /// draws as normal (the tree draws over transparency, the background
    /// under it). Multiply checked by hand: blue times pink.
    func testEveryBlendModeMatchesTheDriversEquationsAndMeetsOnlyTheTree() throws {
        let frame = Rect(x: 0, y: 0, width: 100, height: 10)
        var normal: RGBAImage?
        for mode in BlendMode.allCases {
            let blue = Layer(frame: Rect(x: 0, y: 0, width: 50, height: 10), contents: .box(Box(color: RGBA8(51, 128, 230))))
            var pink = Layer(frame: Rect(x: 25, y: 0, width: 75, height: 10), contents: .box(Box(color: RGBA8(230, 77, 153))))
            pink.opacity = .constant(0.8)
            pink.blendMode = mode
            let scene = Scene(width: 100, height: 10, background: RGBA8(255, 255, 255), tree: LayerTree(root: Layer(frame: frame, sublayers: [blue, pink])))
            let cpu = try Frames.render(CPURenderer(), scene, at: [0])[0]
            let gl = try Frames.render(try glRenderer(), scene, at: [0])[0]
            XCTAssertEqual(pendingGLErrors(), [])
            assertImagesMatch(gl, cpu, mean: 0.5, max: 2, name: "blend-\(mode)")
            if mode == .normal { normal = cpu }
            XCTAssertEqual(cpu[80, 5], normal?[80, 5], "\(mode) over nothing draws as normal")
            if mode == .multiply {
                // Each channel: under + 0.8 (under x over / 255 - under).
                func multiplied(_ under: Double, _ over: Double) -> Double { under + 0.8 * (under * over / 255 - under) }
                XCTAssertEqual(Double(cpu[40, 5].r), multiplied(51, 230), accuracy: 1)
                XCTAssertEqual(Double(cpu[40, 5].g), multiplied(128, 77), accuracy: 1)
                XCTAssertEqual(Double(cpu[40, 5].b), multiplied(230, 153), accuracy: 1)
            }
        }
    }

    /// A masked layer under a masked layer is clipped by both masks (their
    /// coverages multiplied), on both backends: the outer mask covers x 0 to
    /// 60, the inner x 40 to 100 (inverted: 0 to 40), the inner at 0.5.
    func testNestedMasksMultiply() throws {
        let frame = Rect(x: 0, y: 0, width: 100, height: 10)
        func maskLayer(_ x0: Double, _ x1: Double, opacity: Double = 1) -> Layer {
            var part = Layer(frame: Rect(x: x0, y: 0, width: x1 - x0, height: 10), contents: .box(Box(color: RGBA8(0, 0, 0))))
            part.opacity = .constant(opacity)
            var mask = Layer(frame: frame, sublayers: [part])
            mask.anchorPoint = Point(0, 0)
            mask.position = AnimatablePoint(0, 0)
            return mask
        }
        for inverted in [false, true] {
            var inner = Layer(frame: frame, sublayers: [Layer(frame: frame, contents: .box(Box(color: RGBA8(255, 0, 0))))])
            inner.mask = maskLayer(40, 100, opacity: 0.5)
            inner.invertsMask = inverted
            var outer = Layer(frame: frame, sublayers: [inner])
            outer.mask = maskLayer(0, 60)
            let scene = Scene(width: 100, height: 10, background: RGBA8(255, 255, 255), tree: LayerTree(root: Layer(frame: frame, sublayers: [outer])))
            let cpu = try Frames.render(CPURenderer(), scene, at: [0])[0]
            let gl = try Frames.render(try glRenderer(), scene, at: [0])[0]
            assertImagesMatch(gl, cpu, mean: 0.5, max: 2, name: "nested-masks-\(inverted)")
            // Coverage by third: outer 1, 1, 0; inner 0, 0.5, 0.5 (inverted: 1, 0.5, 0.5).
            for (x, coverage) in [(20, inverted ? 1.0 : 0), (50, 0.5), (80, 0)] {
                XCTAssertEqual(Double(cpu[x, 5].g), 255 * (1 - coverage), accuracy: 1.5, "x \(x), inverted \(inverted)")
            }
        }
    }

    /// A replicator of boxes is one item for the GL strategy whatever its
    /// count (its copies are evaluated on the GPU); the CPU's list has one per copy.
    /// A mask drawn before any other item (its texture made while a
    /// polygon table's unit was active once replaced that table), over a
    /// fixed shape and over a box.
    func testAMaskAsTheFirstThingDrawnMasksFixedShapesAndBoxes() throws {
        var b = PathBuilder()
        try b.rectangle(x: 2, y: 2, width: 30, height: 10)
        let frame = Rect(x: 0, y: 0, width: 40, height: 16)
        let contents: [Layer] = [Layer(frame: frame, contents: .shape(Shape(path: b.path, fill: .solid(RGBA8(255, 0, 0))))),
                                 Layer(frame: Rect(x: 2, y: 2, width: 30, height: 10), contents: .box(Box(color: RGBA8(0, 200, 255))))]
        for (i, layer) in contents.enumerated() {
            var masked = Layer(frame: frame, sublayers: [layer])
            masked.mask = Layer(frame: Rect(x: 0, y: 0, width: 20.5, height: 16), contents: .box(Box(color: RGBA8(255, 255, 255, 200))))
            let scene = Scene(width: 40, height: 16, tree: LayerTree(root: Layer(frame: frame, sublayers: [masked])))
            let gl = try Frames.render(try glRenderer(), scene, at: [0])[0], cpu = try Frames.render(CPURenderer(), scene, at: [0])[0]
            assertImagesMatch(gl, cpu, mean: 0.05, max: 1, name: "first-mask-\(i)")
            XCTAssertNotEqual(cpu[5, 5], scene.background, "nothing drawn under the mask")
        }
    }

    func testCopiesAreOneItemForTheGPUWhateverTheCount() throws {
        for count in [10, 10_000] {
            var scene = TreeScenes.copies()
            scene.tree!.root.sublayers[0].replicator!.count = count
            let tree = try XCTUnwrap(scene.tree)
            let gpu = try tree.makeEvaluator(drawsCopies: { GLCopies.canDraw($0, levels: tree.sources) }).presentation(at: 0.5)
            let cpu = try tree.makeEvaluator().presentation(at: 0.5)
            // The curl, then the grid of rows of cells.
            XCTAssertEqual(gpu.items.map(\.primitive), [.copies, .copies], "\(count)")
            XCTAssertEqual(cpu.items.count, 2 * count + 15)
        }
    }

    /// Copies that only translate but crowd (more than 256 can reach one
    /// pixel) are drawn instanced rather than as a lattice, and still as the CPU draws them.
    func testCrowdedStraightCopiesAreDrawnInstanced() throws {
        // Opaque, in one place, at one time: 300 translucent or staggered edges would measure the framebuffer's rounding at each blend.
        var box = Layer(name: "box", frame: Rect(x: 10, y: 10, width: 20, height: 12),
                        contents: .box(Box(color: RGBA8(250, 120, 40), cornerRadius: 3)))
        box.transform.scaleY = Timeline(1, animations: [.basic(BasicAnimation(from: 1, to: 1.5, duration: 1, repeatCount: .infinity))])
        var crowd = Layer(name: "crowd", frame: Rect(x: 0, y: 0, width: 96, height: 64), sublayers: [box])
        crowd.replicator = Replicator(count: 300, instanceTransform: AnimatableTransform(), instanceDelay: 0)
        let scene = Scene(width: 96, height: 64, background: TreeScenes.background,
                          tree: LayerTree(root: Layer(name: "root", frame: Rect(x: 0, y: 0, width: 96, height: 64), sublayers: [crowd])))
        let gl = try glRenderer()
        let times = [0.2, 0.75]
        let drawn = try Frames.render(gl, scene, at: times), cpu = try Frames.render(CPURenderer(), scene, at: times)
        let copies = try XCTUnwrap(gl.treeCopies)
        XCTAssertEqual(copies.latticeDraws, 0)
        XCTAssertEqual(copies.instancedDraws, times.count)
        for i in times.indices { assertImagesMatch(drawn[i], cpu[i], mean: 1, max: 8, name: "tree-crowd-\(i)") }
    }

    /// Copies reading a live level `k` delays in the past: the GPU reads the
    /// history the CPU keeps, and the two frames agree while the level moves.
    func testCopiesReadALiveLevelsHistoryAsTheCPUDoes() throws {
        let live = LiveLevel(start: 0, smoothing: LevelSmoothing(attack: 0.05, release: 0.1))
        var scene = TreeScenes.copies()
        scene.tree!.sources = [.live(live)]
        let gl = try glRenderer(), cpu = CPURenderer()
        try gl.prepare(scene: scene)
        try cpu.prepare(scene: scene)
        let glTarget = try gl.makeTarget(), cpuTarget = try cpu.makeTarget()
        for frame in 0..<24 {
            live.set(frame % 6 < 3 ? 1 : 0.1)
            let t = Double(frame) / 30
            try cpu.draw(time: t, into: cpuTarget)
            try gl.draw(time: t, into: glTarget)
        }
        assertImagesMatch(try glTarget.readback(), try cpuTarget.readback(), mean: 1, max: 8, name: "tree-copies-live")
        XCTAssertEqual(pendingGLErrors(), [])
    }

    /// The bench's primitives (`--preset primitives`), each alone on the
    /// table's screen at fractional offsets: an axis-aligned box is drawn as
    /// a rectangle's coverage with its corners' pixels apart, and must still
    /// be the CPU's (mean 1/255, max 8/255 where motion stays exact; the
    /// moving picture is sampled between texels).
    func testEveryBenchPrimitiveMatchesTheCPUOnGL() throws {
        let times = [0.0, 0.137, 0.61, 1.2345]
        let renderer = try glRenderer()
        let software = renderer.prefersCopies
        defer { renderer.prefersCopies = software }
        for item in Primitives.all {
            let scene = try item.make(375, 667)
            let cpu = try Frames.render(CPURenderer(), scene, at: times)
            // As a software driver draws it (boxes split, clips copied), and as a GPU would.
            for prefersCopies in [true, false] {
                renderer.prefersCopies = prefersCopies
                let gl = try Frames.render(renderer, scene, at: times)
                XCTAssertEqual(pendingGLErrors(), [])
                for i in times.indices {
                    assertImagesMatch(gl[i], cpu[i], mean: 1, max: item.name.hasPrefix("picture") ? 96 : 8,
                                      name: "primitive-\(item.name.replacingOccurrences(of: " ", with: "-"))-\(prefersCopies)-\(i)")
                }
            }
        }
    }

    /// Boxes whose transform keeps them axis-aligned are split (the
    /// rectangle's closed form away from the corners), turned ones are not,
    /// and the split partitions the box's pixels.
    func testAnAxisAlignedBoxIsSplitAtItsCornersPixels() throws {
        var card = Layer(name: "card", frame: Rect(x: 10.3, y: 20.6, width: 100, height: 40),
                         contents: .box(Box(color: RGBA8(200, 100, 50), cornerRadius: 8)))
        let tree = LayerTree(root: Layer(name: "root", frame: Rect(x: 0, y: 0, width: 200, height: 100), sublayers: [card]))
        let evaluator = try tree.makeEvaluator(drawsCopies: { _ in false }, rasterizes: true)
        var list = evaluator.makeList()
        evaluator.evaluate(at: 0, into: &list)
        let item = try XCTUnwrap(list.items.first)
        let box = Box(color: RGBA8(200, 100, 50), cornerRadius: 8)
        let split = try XCTUnwrap(BoxSplit(item, box))
        XCTAssertEqual([split.left, split.right, split.top, split.bottom], [19, 102, 29, 52])
        let (left, middle, right) = split.columns(within: 10..<111)
        XCTAssertEqual([left, middle, right], [10..<19, 19..<102, 102..<111])
        let (top, sides, bottom) = split.rows(within: 20..<61)
        XCTAssertEqual([top, sides, bottom], [20..<29, 29..<52, 52..<61])
        card.transform.rotation = Timeline(0.1)
        let turned = LayerTree(root: Layer(name: "root", frame: Rect(x: 0, y: 0, width: 200, height: 100), sublayers: [card]))
        let turnedEvaluator = try turned.makeEvaluator(drawsCopies: { _ in false }, rasterizes: true)
        var turnedList = turnedEvaluator.makeList()
        turnedEvaluator.evaluate(at: 0, into: &turnedList)
        XCTAssertNil(BoxSplit(try XCTUnwrap(turnedList.items.first), box))
    }

    func testATreeFrameAllocatesNothingOnEitherBackend() throws {
        // Every tree scene, and the bench's moving cards (boxes drawn in parts).
        for c in try TreeScenes.all().map({ (name: $0.name, scene: $0.scene) }) + [(name: "cards", scene: try Primitives.all[1].make(375, 667))] {
            for renderer in [CPURenderer(), try glRenderer()] as [Renderer] {
                XCTAssertEqual(try frameAllocations(renderer, c.scene, step: 0.17), 0, "\(renderer.backend) \(c.name)")
            }
        }
    }
}

/// The polygon lists, planned without a context: every edge under each
/// row and run of 16 columns it crosses, nothing else, and each run's cover
/// from the edges wholly left of it.
final class PolygonRowsTests: XCTestCase {
    func testEdgesAreListedUnderEveryRowAndRunTheyCross() {
        let rows = PolygonRows()
        rows.begin()
        // A rectangle from x 1 to 20, y 1.5 to 4: its left edge in the first run, its right edge in the second.
        rows.move(to: 1, 1.5); rows.line(to: 20, 1.5); rows.line(to: 20, 4); rows.line(to: 1, 4); rows.close()
        let base = rows.finish(rows: 0..<6, columns: 0..<40)
        XCTAssertEqual(base, 0)
        XCTAssertEqual(rows.edgeCount, 2, "horizontal edges add nothing")
        XCTAssertEqual(PolygonRows.buckets(0..<40), 3)
        func slot(_ r: Int, _ b: Int) -> (count: Int32, cover: Float) {
            let k = (r * 3 + b) * 4
            return (rows.rows[k + 1], Float(bitPattern: UInt32(bitPattern: rows.rows[k + 2])))
        }
        XCTAssertEqual((0..<6).map { slot($0, 0).count }, [0, 1, 1, 1, 0, 0])
        XCTAssertEqual((0..<6).map { slot($0, 1).count }, [0, 1, 1, 1, 0, 0])
        XCTAssertEqual((0..<6).map { slot($0, 2).count }, [0, 0, 0, 0, 0, 0])
        // Left of the second run lies the left edge, drawn upwards: its whole height with winding -1.
        XCTAssertEqual((0..<6).map { slot($0, 1).cover }, [0, -0.5, -1, -1, 0, 0])
        // Left of the third, both edges: they cancel.
        XCTAssertEqual((0..<6).map { slot($0, 2).cover }, [0, 0, 0, 0, 0, 0])
        let second = rows.finish(rows: 2..<3, columns: 0..<16)
        XCTAssertEqual(second, 18, "a second item's slots follow the first's")
    }
}

/// Rasterized layers on the GL strategy: the atlas packed without a
/// context, and every crate of a scene one instance of one instanced draw.
final class RasterPicturesGLTests: XCTestCase {
    func testTheAtlasPacksTallestFirstWithAGapAndRefusesWhatCannotFit() {
        let atlas = GLRasterPictures.pack([(10, 4), (6, 8), (5, 8)], maxWidth: 16, maxHeight: 64)
        // 6x8 then 5x8 on the first shelf (7 + 6 columns), 10x4 on the next.
        XCTAssertEqual(atlas, GLRasterPictures.Atlas(places: [(0, 9), (0, 0), (7, 0)], width: 13, height: 14))
        XCTAssertNil(GLRasterPictures.pack([(16, 4)], maxWidth: 16, maxHeight: 64), "wider than a row with its gap")
        XCTAssertNil(GLRasterPictures.pack([(10, 40), (10, 40)], maxWidth: 16, maxHeight: 64), "taller than the atlas")
    }

    func testEveryCrateIsOneInstanceOfOneDrawAndStillCratesAreExact() throws {
        let gl = try GLRequirement.need("a headless GL context") { try GLRenderer() }
        var crates = Crates(width: 300, height: 300)
        crates.count = 200
        try gl.prepare(scene: try crates.scene())
        let target = try gl.makeTarget()
        try gl.draw(time: 1.2, into: target)
        let pictures = try XCTUnwrap(gl.treeRasterPictures)
        XCTAssertEqual(pictures.count, 200)
        XCTAssertEqual(pictures.draws, 1)
        // The chapter's five where they start, on whole pixels and unturned: the pictures' own pixels.
        let scene = try Crates(width: 300, height: 300).scene()
        assertImagesMatch(try Frames.render(gl, scene, at: [0])[0], try Frames.render(CPURenderer(), scene, at: [0])[0],
                          mean: 0.05, max: 2, name: "crates-still")
    }
}
