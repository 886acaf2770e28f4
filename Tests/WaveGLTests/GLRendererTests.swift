import CGL
import WaveCore
import WaveEffects
import WaveGL
import WaveTestSupport
import XCTest

/// Every scene through both strategies, compared (the Skia DM model).
final class GLRendererTests: XCTestCase {
    /// One headless context for the whole suite.
    private func frames(_ cells: SineCells, _ times: [Double]) throws -> (gl: [RGBAImage], cpu: [RGBAImage]) {
        let scene = try cells.scene()
        let gl = try Frames.render(try glRenderer(), scene, at: times)
        XCTAssertEqual(pendingGLErrors(), [], "GL errors after drawing \(times)")
        return (gl, try Frames.render(CPURenderer(), scene, at: times))
    }

    private var sevenCells: SineCells {
        var s = SineCells(width: 280, height: 140)
        s.cellCount = 7
        s.wave.amplitude = 0.35
        s.wave.cycles = 2
        return s
    }

    func testGLEqualsCPUAtWholePixelOffsets() throws {
        for scene in [SineCells(width: 800, height: 200), sevenCells] {
            let w = Double(scene.width)
            let times = [0, 1, 17, 399, scene.width - 1].map { Double($0) / w * scene.wave.period }
            let (gl, cpu) = try frames(scene, times)
            for i in times.indices {
                assertImagesMatch(gl[i], cpu[i], mean: 0.02, max: 1, name: "gl-vs-cpu-\(scene.cellCount)cells-\(i)")
            }
        }
    }

    func testGLEqualsCPUWithSnapAtFractionalTimes() throws {
        for var scene in [SineCells(width: 800, height: 200), sevenCells] {
            scene.snapToPixel = true
            let times = [0.0123, 0.3337, 0.77777, 2.5]
            let (gl, cpu) = try frames(scene, times)
            for i in times.indices {
                assertImagesMatch(gl[i], cpu[i], mean: 0.02, max: 1, name: "gl-vs-cpu-snap-\(scene.cellCount)cells-\(i)")
            }
        }
    }

    func testRightwardTravelAndTallPagedScenesMatchTheCPU() throws {
        var right = sevenCells
        right.wave.direction = .right
        // Taller than the driver's largest texture: drawn in pages.
        _ = try glRenderer()
        var maxSize: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &maxSize)
        var tall = SineCells(width: 64, height: Int(maxSize) + 3616)
        tall.cellCount = 250
        tall.wave.amplitude = 0.4
        for scene in [right, tall] {
            let t = 5.0 / Double(scene.width) * scene.wave.period
            let (gl, cpu) = try frames(scene, [t])
            assertImagesMatch(gl[0], cpu[0], mean: 0.02, max: 1, name: "gl-vs-cpu-\(scene.height)rows-\(scene.wave.direction)")
        }
        let target = try XCTUnwrap(try glRenderer().makeTarget() as? GLFramebufferTarget)
        XCTAssertGreaterThan(target.pageCount, 1, "the tall scene was not drawn in pages")
    }

    /// Cells of 28 and 29 rows: every layer is rasterised on the whole
    /// scene's vertex grid, so the pictures are the CPU's exactly.
    func testCellsOfUnequalHeightsMatchTheCPU() throws {
        var scene = SineCells(width: 100, height: 57)
        scene.cellCount = 2
        scene.wave.cycles = 5
        scene.wave.amplitude = 0.45
        let times = [0.0, 0.13, 0.71]
        let (gl, cpu) = try frames(scene, times)
        for i in times.indices {
            assertImagesMatch(gl[i], cpu[i], mean: 0.02, max: 1, name: "gl-vs-cpu-unequal-cells-\(i)")
        }
    }

    func testNoSeamAcrossTheWrap() throws {
        let scene = sevenCells
        let p = scene.wave.period, w = Double(scene.width)
        // One period apart: identical. One pixel before the wrap and at it: a one-pixel shift.
        let (gl, _) = try frames(scene, [0.3, 0.3 + p, (w - 1) / w * p, p])
        XCTAssertEqual(gl[0], gl[1], "frames one period apart differ")
        let before = gl[2], after = gl[3]
        var shifted = before
        for y in 0..<before.height {
            for x in 0..<before.width { shifted[x, y] = before[(x + 1) % before.width, y] }
        }
        assertImagesMatch(after, shifted, mean: 0, max: 1, name: "gl-wrap-step")
    }

    func testSnappingChangesFractionalFramesAndMatchesTheCPU() throws {
        var scene = SineCells(width: 400, height: 120)
        scene.wave.amplitude = 0.45
        scene.wave.cycles = 3
        let t = 0.3712 // u = 148.48 pixels
        let (unsnapped, _) = try frames(scene, [t])
        scene.snapToPixel = true
        let (snapped, cpu) = try frames(scene, [t])
        let d = ImageComparison.difference(unsnapped[0], snapped[0])
        XCTAssertGreaterThan(d.maxAbsolute, 8, "snapping made no visible difference at a fractional offset")
        assertImagesMatch(snapped[0], cpu[0], mean: 1, max: 1, name: "gl-snapped-vs-cpu")
    }

    // MARK: Exact sub-pixel motion

    /// The steep wave the issue measured blur on, and seven cells of different phases.
    private var steep: SineCells {
        var s = SineCells(width: 800, height: 200)
        s.wave.amplitude = 0.45
        s.wave.cycles = 5
        return s
    }

    /// GL frames drawn with `subpixel` (the shared renderer goes back to linear after).
    private func glFrames(_ cells: SineCells, _ times: [Double], subpixel: SubpixelMode) throws -> [RGBAImage] {
        let gl = try glRenderer()
        gl.subpixel = subpixel
        defer { gl.subpixel = .linear }
        let frames = try Frames.render(gl, try cells.scene(), at: times)
        XCTAssertEqual(pendingGLErrors(), [], "GL errors after drawing \(times) with \(subpixel)")
        return frames
    }

    /// The shared renderer prepared for `cells` with `subpixel` (the caller sets linear back).
    private func prepared(_ cells: SineCells, subpixel: SubpixelMode) throws -> GLRenderer {
        let gl = try glRenderer()
        gl.subpixel = subpixel
        try gl.prepare(scene: try cells.scene())
        return gl
    }

    /// Exact mode at fractional offsets, against the independent reference
    /// (the CPU backend's own tolerances) and against the CPU strategy
    /// (mean 1/255, max 16/255): still rendered once, no blur.
    func testExactSubpixelMatchesTheReferenceAndTheCPUAtFractionalOffsets() throws {
        for scene in [steep, sevenCells] {
            // Offsets with every kind of fraction: near a half, between phases, just past a whole pixel.
            let times = [0.300625, 0.1234567, 0.7001, 0.55555].map { $0 * scene.wave.period }
            let gl = try glFrames(scene, times, subpixel: .exact)
            let cpu = try Frames.render(CPURenderer(), try scene.scene(), at: times)
            for i in times.indices {
                let name = "gl-exact-\(scene.cellCount)cells-\(i)"
                assertImagesMatch(gl[i], Reference.render(scene, time: times[i]), mean: 0.5, max: 8, name: name + "-vs-reference")
                assertImagesMatch(gl[i], cpu[i], mean: 1, max: 16, name: name + "-vs-cpu")
            }
        }
    }

    /// The shader's exact mode, as a real GPU draws a moving fixed shape
    /// that is not alone in its clip (a hairline box reaches every cell):
    /// the nearest of 16 pre-rasterised phases read at a whole-pixel offset.
    func testExactThroughTheShaderMatchesTheCPUAtFractionalOffsets() throws {
        let gl = try glRenderer()
        gl.prefersCopies = false
        gl.subpixel = .exact
        defer { gl.prefersCopies = true; gl.subpixel = .linear }
        for cells in [steep, sevenCells] {
            var scene = try cells.scene()
            var hairline = Layer(name: "hairline", frame: Rect(x: 0, y: 0, width: 1, height: Double(cells.height)),
                                 contents: .box(Box(color: RGBA8(255, 255, 255))))
            hairline.anchorPoint = Point(0, 0)
            hairline.position = AnimatablePoint(Double(cells.width) / 2, 0)
            scene.tree!.root.sublayers.append(hairline)
            let times = [0.300625, 0.1234567, 0.7001].map { $0 * cells.wave.period }
            let frames = try Frames.render(gl, scene, at: times)
            let cpu = try Frames.render(CPURenderer(), scene, at: times)
            for i in times.indices {
                assertImagesMatch(frames[i], cpu[i], mean: 1, max: 16, name: "gl-exact-shader-\(cells.cellCount)cells-\(i)")
            }
            XCTAssertEqual(gl.exactPhases, 16)
            XCTAssertNil(gl.copyPhases, "the shader draws, no clip is alone")
        }
    }

    /// Under the GPU policy the cells alone in their clips are one quad a
    /// page (their pictures painted once at 16 phases, each cell's x
    /// evaluated on the GPU): the CPU's pixels at fractional offsets, on a
    /// frame of several pages too.
    func testCellsAreOneInstancedDrawUnderTheGPUPolicy() throws {
        let gl = try glRenderer()
        gl.prefersCopies = false
        defer { gl.prefersCopies = true }
        var maxSize: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &maxSize)
        var tall = SineCells(width: 64, height: Int(maxSize) + 3616)
        tall.cellCount = 250
        tall.wave.amplitude = 0.4
        for cells in [sevenCells, tall] {
            let times = [0.300625, 0.1234567, 0.7001].map { $0 * cells.wave.period }
            let frames = try glFrames(cells, times, subpixel: .exact)
            let cpu = try Frames.render(CPURenderer(), try cells.scene(), at: times)
            for i in times.indices {
                assertImagesMatch(frames[i], cpu[i], mean: 1, max: 16, name: "gl-instances-\(cells.cellCount)cells-\(i)")
            }
            let prepared = try self.prepared(cells, subpixel: .exact)
            XCTAssertEqual(prepared.copyPhases, 16)
            // One quad a page, whatever the count of cells.
            let target = try XCTUnwrap(try prepared.makeTarget() as? GLFramebufferTarget)
            try prepared.draw(time: 0.3, into: target)
            XCTAssertEqual(prepared.clipCallsLastFrame, target.pageCount, "\(cells.cellCount) cells: one draw a page")
            let mechanisms = Set(try prepared.explain(time: 0.3).map(\.mechanism))
            XCTAssertEqual(mechanisms, ["clip lookup"])
            // Counted as the copies count: every pixel written once, none blended, nothing offscreen.
            let counts = PixelCounts(width: cells.width, height: cells.height)
            prepared.pixelCounts = counts
            _ = try Frames.render(prepared, try cells.scene(), at: [0.3])
            prepared.pixelCounts = nil
            XCTAssertEqual(counts.totals.written, cells.width * cells.height)
            XCTAssertEqual(counts.totals.blended, 0)
            XCTAssertEqual(counts.totals.offscreen, 0)
            prepared.subpixel = .linear
        }
    }

    /// Clips side by side in the same rows, and one spanning the rows of
    /// two others, under the GPU policy: each pixel finds its own clip among
    /// its row's (not only the one clip of a table's row), and every clip is
    /// drawn as the CPU draws it, at fractional offsets, in one quad.
    func testClipsSharingRowsEachFindTheirOwnUnderTheGPUPolicy() throws {
        let gl = try glRenderer()
        gl.prefersCopies = false
        gl.subpixel = .exact
        defer { gl.prefersCopies = true; gl.subpixel = .linear }
        var builder = PathBuilder()
        try builder.move(to: 0, 4)
        try builder.line(to: 37.5, 2)
        try builder.line(to: 21, 19.5)
        builder.close()
        let wedge = builder.path
        var cells: [Layer] = []
        // A grid of 100x20 cells, three across and four down, but for one 100x40 cell holding the right of the top two rows.
        for row in 0..<4 {
            for column in 0..<3 where !(column == 2 && row == 1) {
                let tall = column == 2 && row == 0, k = cells.count
                var shape = Layer(name: "wedge \(k)", frame: Rect(x: 0, y: 0, width: 140, height: tall ? 40 : 20),
                                  contents: .shape(Shape(path: wedge, fill: .solid(RGBA8(UInt8(60 + 15 * k), UInt8(230 - 12 * k), 90)))))
                shape.anchorPoint = Point(0, 0)
                shape.position = AnimatablePoint(Double(5 * k), tall ? 12 : 0)
                shape.transform.translationX = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 71.3, duration: 1.3))])
                shape.timing = .endlessLoop(duration: 1.3, timeOffset: 0.11 * Double(k))
                var cell = Layer(name: "cell \(k)", frame: Rect(x: Double(100 * column), y: Double(20 * row), width: 100, height: tall ? 40 : 20),
                                 sublayers: [shape])
                cell.masksToBounds = true
                cells.append(cell)
            }
        }
        let root = Layer(name: "grid", frame: Rect(x: 0, y: 0, width: 300, height: 80), sublayers: cells)
        let scene = Scene(width: 300, height: 80, background: RGBA8(12, 14, 30), tree: LayerTree(root: root))
        let times = [0.2031, 0.77777, 1.4142]
        let frames = try Frames.render(gl, scene, at: times)
        XCTAssertEqual(pendingGLErrors(), [], "GL errors after drawing the grid of clips")
        let cpu = try Frames.render(CPURenderer(), scene, at: times)
        for i in times.indices { assertImagesMatch(frames[i], cpu[i], mean: 1, max: 16, name: "gl-clip-lookup-grid-\(i)") }
        XCTAssertEqual(Set(try gl.explain(time: 0.5).map(\.mechanism)), ["clip lookup"], "every cell is a sole clip drawn by the lookup")
        let target = try gl.makeTarget()
        try gl.draw(time: 0.5, into: target)
        XCTAssertEqual(gl.clipCallsLastFrame, 1, "one quad for the page")
        // The software-driver policy's copies paint the same pictures: each wedge in its own colour (the evaluator
        // numbers contents by path alone, so a picture is keyed by its colour too).
        gl.prefersCopies = true
        let copied = try Frames.render(gl, scene, at: times)
        for i in times.indices { assertImagesMatch(copied[i], cpu[i], mean: 1, max: 16, name: "gl-clip-copies-grid-\(i)") }
    }

    /// The phasing the exact mode removes: linear filtering at a half-pixel
    /// offset is visibly off on a steep wave, the exact mode is not.
    func testLinearBlursASteepWaveWhereExactDoesNot() throws {
        let t = 0.300625 // u = 240.5 px
        let cpu = try Frames.render(CPURenderer(), try steep.scene(), at: [t])[0]
        let linear = try glFrames(steep, [t], subpixel: .linear)[0]
        let exact = try glFrames(steep, [t], subpixel: .exact)[0]
        XCTAssertGreaterThan(ImageComparison.difference(linear, cpu).maxAbsolute, 16, "linear filtering showed no phasing")
        XCTAssertLessThanOrEqual(ImageComparison.difference(exact, cpu).maxAbsolute, 16)
    }

    /// Six cells of three distinct pictures, each painted at 16 phases and
    /// copied into its cell once a frame (a band of so large a frame would be over its budget).
    func testExactInBandsMatchesTheCPUToo() throws {
        var scene = SineCells(width: 1024, height: 600)
        scene.cellCount = 6
        scene.wave.amplitude = 0.45
        scene.wave.cycles = 3
        let times = [0.2001, 0.61234]
        let gl = try glFrames(scene, times, subpixel: .exact)
        let renderer = try prepared(scene, subpixel: .exact)
        defer { renderer.subpixel = .linear }
        XCTAssertEqual(renderer.copyPhases, 16)
        XCTAssertEqual(renderer.copiesPerFrame, 6, "one copy a cell: their band (2050 x 600 at 16 phases, 79 MB) is over its budget")
        let cpu = try Frames.render(CPURenderer(), try scene.scene(), at: times)
        for i in times.indices { assertImagesMatch(gl[i], cpu[i], mean: 1, max: 16, name: "gl-exact-bands-\(i)") }
    }

    func testExactUsesSixteenPhasesAndSnappingOne() throws {
        let gl = try prepared(sevenCells, subpixel: .exact)
        defer { gl.subpixel = .linear }
        XCTAssertEqual(gl.copyPhases, 16)
        XCTAssertEqual(gl.copiesPerFrame, 1, "the cells scroll together: one copy of their band")
        XCTAssertNil(gl.subpixelNotice)
        var snapped = sevenCells
        snapped.snapToPixel = true
        try gl.prepare(scene: try snapped.scene())
        XCTAssertEqual(gl.copyPhases, 1)
        gl.subpixel = .linear
        try gl.prepare(scene: try sevenCells.scene())
        XCTAssertNil(gl.copyPhases, "linear asked for: the filtering shader draws")
    }

    /// Two cells that keep together at time 0 (a band is painted) but not
    /// after (the second's loop runs twice as fast): the frames that find
    /// them apart copy each cell from its own picture, as the CPU draws them.
    func testCellsThatStopScrollingTogetherAreCopiedOneByOne() throws {
        var cells = SineCells(width: 120, height: 40)
        cells.cellCount = 2
        var scene = try cells.scene()
        scene.tree!.root.sublayers[1].sublayers[0].timing.speed = 2
        try assertCopiesMatchTheCPU(scene, copiesPerFrame: 1, name: "apart")
    }

    /// A second cell whose content does not repeat with the loop (a
    /// triangle): its picture turned by a period would differ from its own,
    /// so no band is painted and each cell is copied on its own.
    func testCellsWhoseContentDoesNotRepeatMakeNoBand() throws {
        var cells = SineCells(width: 120, height: 40)
        cells.cellCount = 2
        var scene = try cells.scene()
        var triangle = PathBuilder()
        try triangle.move(to: 10, 20)
        try triangle.line(to: 50, 2)
        try triangle.line(to: 90, 20)
        triangle.close()
        scene.tree!.root.sublayers[1].sublayers[0].contents = .shape(Shape(path: triangle.path, fill: .solid(cells.wave.color)))
        try assertCopiesMatchTheCPU(scene, copiesPerFrame: 2, name: "no-band")
    }

    /// `scene` drawn by exact copies (as on a software driver) at times across its loop, against the CPU.
    private func assertCopiesMatchTheCPU(_ scene: Scene, copiesPerFrame: Int, name: String) throws {
        let gl = try glRenderer()
        let prefersCopies = gl.prefersCopies
        gl.prefersCopies = true
        gl.subpixel = .exact
        defer { gl.subpixel = .linear; gl.prefersCopies = prefersCopies }
        let times = [0, 0.1234, 0.3, 0.55, 0.61, 0.9]
        let frames = try Frames.render(gl, scene, at: times)
        XCTAssertEqual(gl.copyPhases, 16)
        XCTAssertEqual(gl.copiesPerFrame, copiesPerFrame)
        let cpu = try Frames.render(CPURenderer(), scene, at: times)
        for i in times.indices { assertImagesMatch(frames[i], cpu[i], mean: 1, max: 16, name: "gl-copies-\(name)-\(i)") }
    }

    func testCellsSharingAPictureShareALayer() throws {
        let gl = try glRenderer()
        var scene = SineCells(width: 320, height: 80 * 100)
        scene.cellCount = 100
        try gl.prepare(scene: try scene.scene())
        // Phase k/100 of 320 px is 3.2k px: fractions k*320 mod 100 take 5 values.
        XCTAssertEqual(gl.pictureCount, 5)
    }

    func testFrameDrawsNoGLErrorsAndReportsARenderer() throws {
        let gl = try glRenderer()
        try gl.prepare(scene: try SineCells(width: 64, height: 32).scene())
        let target = try gl.makeTarget()
        for t in stride(from: 0.0, to: 1, by: 0.1) { try gl.draw(time: t, into: target) }
        XCTAssertEqual(pendingGLErrors(), [])
        XCTAssertFalse(gl.rendererName.isEmpty)
        XCTAssertNotEqual(gl.rendererName, "unknown")
    }

    /// The chooser knows the backends that registered: GL once `GLBackend`
    /// registered it; `auto` falls back to the CPU, saying why, where GL's
    /// maker fails; a backend never registered is unavailable.
    func testTheChooserMakesTheBackendsThatRegistered() throws {
        let scene = try SineCells(width: 64, height: 32).scene()
        BackendChooser.register(.gl) { _, _ in throw RendererError.unavailable(.gl, reason: "a test's GL") }
        defer { GLBackend.register() }
        let fallback = try BackendChooser.make(.auto, for: scene)
        XCTAssertEqual(fallback.renderer.backend, .cpu)
        XCTAssert(fallback.notice?.contains("a test's GL") == true, "\(String(describing: fallback.notice))")
        XCTAssertThrowsError(try BackendChooser.make(.gl, for: scene)) { XCTAssert($0 is RendererError) }
        GLBackend.register()
        let gl = try GLRequirement.need("a GL renderer") { try BackendChooser.make(.gl, for: scene, subpixel: .exact).renderer }
        XCTAssert(gl is GLRenderer)
        XCTAssertEqual(gl.subpixel, .exact)
        XCTAssertEqual(try BackendChooser.make(.cpu, for: scene).renderer.backend, .cpu)
    }
}
