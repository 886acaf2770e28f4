import CGL
import CMallocCounter
import WaveCore
import WaveEffects
@testable import WaveGL
import WaveTestSupport
import WaveWindow
import XCTest

/// Every effect and every layer kind through both backends, compared (the
/// Skia DM model): the GL frame against the CPU frame, and both against
/// references where one is computed here.
final class EveryLayerThroughBothBackendsTests: XCTestCase {
    private let background = RGBA8(0x10, 0x18, 0x2A)

    private func path(_ text: String) throws -> Path { try PathData.parse(text) }

    /// An outline with curves, a hole (the non-zero rule) and an overlap.
    private func outline(width: Int = 160, height: Int = 60, speed: Double = 37) throws -> Outline {
        var o = Outline(width: width, height: height, path: try path(
            "M 10 50 Q 40 -10 70 50 Z M 60 10 L 150 10 L 150 55 L 60 55 Z M 90 20 L 90 45 L 130 45 L 130 20 Z"))
        o.pixelsPerSecond = speed
        o.color = RGBA8(0xF5, 0xA6, 0x23, 0xE0)
        return o
    }

    /// The effects, each at times where its motion is a whole number of pixels.
    private func effectsAtWholePixels() throws -> [(String, Scene, [Double])] {
        var sine = SineCells(width: 240, height: 90)
        sine.cellCount = 3
        sine.wave.cycles = 2
        sine.wave.amplitude = 0.4
        var right = sine
        right.wave.direction = .right
        let w = Double(sine.width)
        return [
            ("sine", try sine.scene(), [0, 7, 61, 239].map { $0 / w * sine.wave.period }),
            ("sine-right", try right.scene(), [3, 100].map { $0 / w * sine.wave.period }),
            ("outline", try outline().scene(), [0, 1, 2, -1].map { $0 / 37 * 10 }),
        ]
    }

    func testEveryEffectAtWholePixelOffsetsIsTheCPUFrameOnEveryPixel() throws {
        for (name, scene, times) in try effectsAtWholePixels() {
            let gl = try Frames.render(try glRenderer(), scene, at: times)
            let cpu = try Frames.render(CPURenderer(), scene, at: times)
            XCTAssertEqual(pendingGLErrors(), [])
            for i in times.indices {
                assertImagesMatch(gl[i], cpu[i], mean: 0.02, max: 1, name: "dm-\(name)-\(i)")
            }
        }
    }

    func testEveryEffectWithSnappingAtFractionalTimesMatchesTheCPU() throws {
        var sine = SineCells(width: 200, height: 80)
        sine.cellCount = 5
        sine.wave.cycles = 3
        sine.snapToPixel = true
        var moving = try outline(speed: 23.7)
        moving.snapToPixel = true
        for (name, scene) in [("sine", try sine.scene()), ("outline", try moving.scene())] {
            let times = [0.0123, 0.3337, 1.77777]
            let gl = try Frames.render(try glRenderer(), scene, at: times)
            let cpu = try Frames.render(CPURenderer(), scene, at: times)
            for i in times.indices {
                assertImagesMatch(gl[i], cpu[i], mean: 1, max: 8, name: "dm-snap-\(name)-\(i)")
            }
        }
    }

    // MARK: Paint and compositing, both ways

    private func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) throws -> Path {
        var b = PathBuilder()
        try b.rectangle(x: x, y: y, width: w, height: h)
        return b.path
    }

    /// A shape layer the scene's size, travelling at `speed` px/s.
    private func shape(_ path: Path, _ fill: Fill, speed: Double = 0, width: Double = 120, height: Double = 48) -> Layer {
        var layer = Layer(frame: Rect(x: 0, y: 0, width: width, height: height), contents: .shape(Shape(path: path, fill: fill)))
        layer.transform.translationX = .travel(start: 0, pixelsPerSecond: speed, snapsToPixel: false)
        return layer
    }

    /// Repeating curves (the flat batches) under a layer tree of every
    /// paint, one part moving and held to two clips: GL equals CPU where the
    /// motion is whole pixels.
    private func mixedScene() throws -> Scene {
        var cells = SineCells(width: 120, height: 48)
        cells.cellCount = 2
        cells.wave.color = RGBA8(40, 160, 255, 200)
        let cellsRoot = try XCTUnwrap(try cells.scene().tree).root
        let gradient = LinearGradient(start: Point(0, 0), end: Point(0, 48), startColor: RGBA8(255, 80, 0),
                                      endColor: RGBA8(120, 0, 255, 140))
        let bar = try rectangle(10, 6, 50.5, 30.25)
        var left = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 48), sublayers: [shape(bar, .linearGradient(gradient), speed: -20)])
        left.masksToBounds = true
        var right = Layer(frame: Rect(x: 40, y: 0, width: 80, height: 48), sublayers: [shape(bar, .solid(RGBA8(255, 255, 255, 170)), speed: -20)])
        right.masksToBounds = true
        right.boundsOrigin = AnimatablePoint(40, 0)
        let tree = Layer(frame: Rect(x: 0, y: 0, width: 120, height: 48),
                         sublayers: [cellsRoot, left, right, shape(try rectangle(30, 20, 60, 20), .solid(RGBA8(0, 255, 120, 96)))])
        return Scene(width: 120, height: 48, background: background, tree: LayerTree(root: tree))
    }

    func testMixedLayersCompositeTheSameWayOnBothBackends() throws {
        let scene = try mixedScene()
        let times = [0.0, 0.5, 1.25] // offsets 0, 10, 25 px
        let gl = try Frames.render(try glRenderer(), scene, at: times)
        let cpu = try Frames.render(CPURenderer(), scene, at: times)
        for i in times.indices {
            // Max 2: the cells are blended by the GL blend unit, which rounds premultiplied colour to 8 bits, and the bars over them again.
            assertImagesMatch(gl[i], cpu[i], mean: 0.25, max: 2, name: "dm-mixed-\(i)")
        }
    }

    /// Exact motion where copies do not apply (several batches, translucent
    /// paints): the shader reads the nearest pre-rasterised phase, so a
    /// fractional offset is the CPU's frame within its tolerances.
    func testExactMotionOfCurvesAmongOtherLayersMatchesTheCPUAtFractionalOffsets() throws {
        var cells = SineCells(width: 120, height: 48)
        cells.cellCount = 2
        cells.wave.cycles = 3
        cells.wave.amplitude = 0.45
        cells.wave.color = RGBA8(40, 160, 255, 200)
        let tree = Layer(frame: Rect(x: 0, y: 0, width: 120, height: 48),
                         sublayers: [try XCTUnwrap(try cells.scene().tree).root,
                                     shape(try rectangle(30, 20, 60, 20), .solid(RGBA8(0, 255, 120, 96)))])
        let scene = Scene(width: 120, height: 48, background: background, tree: LayerTree(root: tree))
        let gl = try glRenderer()
        gl.subpixel = .exact
        // The shader's phases, as on a GPU (a software driver would copy the one batch instead).
        let prefersCopies = gl.prefersCopies
        gl.prefersCopies = false
        defer { gl.subpixel = .linear; gl.prefersCopies = prefersCopies }
        let times = [0.1234, 0.5071] // offsets 14.8 and 60.85 px
        let frames = try Frames.render(gl, scene, at: times)
        XCTAssertEqual(gl.exactPhases, 16)
        XCTAssertNil(gl.copyPhases)
        XCTAssertNil(gl.subpixelNotice)
        let cpu = try Frames.render(CPURenderer(), scene, at: times)
        for i in times.indices { assertImagesMatch(frames[i], cpu[i], mean: 1, max: 16, name: "dm-exact-among-layers-\(i)") }
    }

    /// Exact motion of a layer tree's cached shapes (the outline, the
    /// waveform's bars): each tile rasterised at 16 phases and the nearest
    /// read at a whole-pixel offset, so a fractional offset is the CPU's
    /// frame within its tolerances, where the filtered picture blurs.
    func testExactMotionOfATreesCachedShapesMatchesTheCPUAtFractionalOffsets() throws {
        var moving = try outline(speed: 23.7)
        moving.color = RGBA8(255, 255, 255)
        let scene = try moving.scene()
        let gl = try glRenderer()
        let times = [0.0123, 0.3337, 1.77777]
        let cpu = try Frames.render(CPURenderer(), scene, at: times)
        let filtered = try Frames.render(gl, scene, at: times)
        gl.subpixel = .exact
        defer { gl.subpixel = .linear }
        let exact = try Frames.render(gl, scene, at: times)
        XCTAssertNil(gl.subpixelNotice, "every moving shape has its phases")
        var worst = (filtered: 0, exact: 0)
        for i in times.indices {
            assertImagesMatch(exact[i], cpu[i], mean: 1, max: 16, name: "dm-exact-tree-\(i)")
            for p in stride(from: 0, to: cpu[i].pixels.count, by: 4) {
                worst.filtered = max(worst.filtered, abs(Int(filtered[i].pixels[p]) - Int(cpu[i].pixels[p])))
                worst.exact = max(worst.exact, abs(Int(exact[i].pixels[p]) - Int(cpu[i].pixels[p])))
            }
        }
        XCTAssertLessThan(worst.exact, worst.filtered, "the phases are no closer to the CPU than filtering")
    }

    func testTranslucentLayersOverATranslucentBackgroundStayWithinReadBackPrecision() throws {
        var scene = try mixedScene()
        scene.background = RGBA8(0, 0, 0, 200)
        let gl = try Frames.render(try glRenderer(), scene, at: [0.5])[0]
        let cpu = try Frames.render(CPURenderer(), scene, at: [0.5])[0]
        // Premultiplied 8-bit storage rounds a colour to within 255 / (2 * alpha) + 0.5.
        assertImagesMatch(gl, cpu, mean: 0.5, max: 2, name: "dm-translucent-background")
    }

    // MARK: Sharing and sole clips, without a context

    func testCellsShareTheirPathsAndEachAloneDrawsItsClip() throws {
        var cells = SineCells(width: 320, height: 80 * 100)
        cells.cellCount = 100
        let evaluator = try XCTUnwrap(try cells.scene().tree).makeEvaluator()
        // Phase k/100 of 320 px is 3.2k px: fractions k*320 mod 100 take 5 values, one path each.
        XCTAssertEqual(evaluator.contents.count, 5)
        let clips = evaluator.soleClips(width: 320, height: 8000)
        XCTAssertEqual(clips.count, 100, "every cell's wave alone in its clip")
        XCTAssertEqual(clips[7].rows, 560..<640)
        XCTAssertEqual(clips[7].columns, 0..<320)
        XCTAssertEqual(clips[7].xRange, -320...0)
        XCTAssertFalse(clips[7].wholeX)
        cells.snapToPixel = true
        XCTAssertTrue(try XCTUnwrap(try cells.scene().tree).makeEvaluator().soleClips(width: 320, height: 8000).allSatisfy(\.wholeX))

        // Bars and a rectangle over the cells: no cell is alone in its clip.
        let mixed = try XCTUnwrap(try mixedScene().tree).makeEvaluator()
        XCTAssertEqual(mixed.soleClips(width: 120, height: 48), [])
    }

    /// A fixed shape wider than a texture is cached in tiles (a texture
    /// array), and a cache past the memory budget is a limit, not an allocation.
    func testAWideShapeIsCachedInTilesWithinTheBudget() throws {
        _ = try glRenderer() // a current context
        var long = try outline()
        long.path = try path("M 0 0 L 1000 0 L 1000 10 L 0 10 Z")
        let scene = try long.scene()
        let draw = try GLTreeDraw(scene.tree!, scene: scene, caps: GLCapabilities(maxTextureSize: 256, maxArrayLayers: 8))
        // Columns -1 to 1001 (one outside the bounds each side), in tiles advancing 253.
        XCTAssertEqual(draw.tiles(ofContent: 0), 4)
        let budget = GLCapabilities(maxTextureSize: 16384, maxArrayLayers: 2048, maxCoverageBytes: 1000)
        XCTAssertThrowsError(try GLTreeDraw(scene.tree!, scene: scene, caps: budget)) { error in
            XCTAssertTrue("\(error)".contains("memory budget"), "\(error)")
        }
        let few = GLCapabilities(maxTextureSize: 256, maxArrayLayers: 3)
        XCTAssertThrowsError(try GLTreeDraw(scene.tree!, scene: scene, caps: few)) { error in
            XCTAssertTrue("\(error)".contains("GL_MAX_ARRAY_TEXTURE_LAYERS"), "\(error)")
        }
    }

    /// A shape wider than a texture (40,000 columns here) is drawn from
    /// overlapping tiles: at whole-pixel offsets it is the CPU frame, and at
    /// fractional ones no seam shows (a flat bar stays flat across tiles).
    func testAShapeInSeveralTilesHasNoSeams() throws {
        var long = try outline(width: 800, height: 40, speed: 1)
        long.path = try path("M 0 10 L 40000 10 L 40000 30 L 0 30 Z M 16000 2 Q 16400 -6 16800 8 Z")
        long.color = RGBA8(255, 255, 255)
        let scene = try long.scene()
        let gl = try glRenderer()
        XCTAssertGreaterThan(40002, gl.caps.maxTextureSize, "the shape should need several tiles on this driver")
        let seam = Double(gl.caps.maxTextureSize - 3) // near where tile 1 begins its own columns
        let whole = [seam - 400, seam - 799, 2 * seam - 10]
        let glFrames = try Frames.render(gl, scene, at: whole), cpuFrames = try Frames.render(CPURenderer(), scene, at: whole)
        for i in whole.indices {
            assertImagesMatch(glFrames[i], cpuFrames[i], mean: 0.02, max: 1, name: "dm-tiles-\(i)")
        }
        for t in [seam - 400.5, seam - 400.25, 2 * seam - 10.75] {
            let frame = try Frames.render(gl, scene, at: [t])[0]
            for x in 0..<800 { XCTAssertEqual(frame[x, 20], RGBA8(255, 255, 255), "column \(x) at t = \(t)") }
        }
    }

    /// A frame drawn wholly by copies of painted cells is written as it is
    /// (straight colour, not premultiplied): exact at any background alpha.
    /// (Blended items leave premultiplied 8-bit colour, which over an alpha
    /// of 4 cannot hold a colour within 1/255; so this asks for the copies,
    /// exact motion by copies, as on a software driver.)
    func testAFrameOfCopiesOverAnAlmostTransparentBackgroundIsTheCPUFrame() throws {
        var sine = SineCells(width: 64, height: 32)
        sine.background = RGBA8(0x10, 0x18, 0x2A, 4)
        sine.wave.color = RGBA8(0x3A, 0x9B, 0xFF, 0x80)
        let scene = try sine.scene()
        let gl = try glRenderer()
        let prefersCopies = gl.prefersCopies
        gl.prefersCopies = true
        gl.subpixel = .exact
        defer { gl.subpixel = .linear; gl.prefersCopies = prefersCopies }
        let frame = try Frames.render(gl, scene, at: [0])[0]
        XCTAssertEqual(gl.copyPhases, 16)
        assertImagesMatch(frame, try Frames.render(CPURenderer(), scene, at: [0])[0], mean: 0.02, max: 1, name: "dm-translucent-copies")
    }

    // MARK: No allocation per frame

    /// Allocations by the project's own code (the GL driver's are told apart
    /// by their caller) in `frames` warm draws.
    private func ownAllocations(_ renderer: Renderer, _ scene: Scene, frames: Int = 5) throws -> UInt64 {
        try renderer.prepare(scene: scene)
        let target = try renderer.makeTarget()
        try renderer.draw(time: 0, into: target)
        var own: UInt64 = 0
        for i in 1...frames {
            waves_malloc_counter_start()
            try renderer.draw(time: Double(i) * 0.37, into: target)
            let total = waves_malloc_counter_stop()
            own += total - waves_malloc_counter_foreign()
            renderer.finish()
        }
        return own
    }

    /// A scrolling table whose cards cast shadows, cached or painted every frame.
    private func table(cachesShadow: Bool) throws -> Scene {
        var table = Table(width: 120, height: 100)
        (table.rowHeight, table.shadow, table.cachesShadow) = (40, true, cachesShadow)
        return try table.scene()
    }

    private func liveVoice() throws -> Scene {
        var voice = Voice(width: 100, height: 40)
        voice.style = .ios7
        voice.level = .live(LiveLevel(start: 0.2, smoothing: LevelSmoothing()))
        return try voice.scene()
    }

    func testNoLayerKindAllocatesPerFrameInEitherBackend() throws {
        var snapped = SineCells(width: 100, height: 40)
        snapped.snapToPixel = true
        snapped.cellCount = 4
        let scenes = [("sine", try SineCells(width: 100, height: 40).scene()), ("sine-snapped", try snapped.scene()),
                      ("outline", try outline().scene()), ("mixed-paints", try mixedScene()),
                      ("dots", try Dots(width: 100, height: 60).scene()), ("voice", try Voice(width: 100, height: 40).scene()),
                      ("voice-live-level", try liveVoice()), ("jelly", try Jelly(width: 120, height: 60).scene()),
                      ("table-shadow-cached", try table(cachesShadow: true)), ("table-shadow-painted-every-frame", try table(cachesShadow: false))]
        for (name, scene) in scenes { XCTAssertEqual(try ownAllocations(CPURenderer(), scene), 0, "cpu \(name)") }
        let gl = try glRenderer()
        for (name, scene) in scenes { XCTAssertEqual(try ownAllocations(gl, scene), 0, "gl \(name)") }
        // Exact sub-pixel motion: the frame is whole-pixel copies of pre-rendered phases.
        gl.subpixel = .exact
        defer { gl.subpixel = .linear }
        for (name, scene) in scenes.prefix(2) { XCTAssertEqual(try ownAllocations(gl, scene), 0, "gl exact \(name)") }
        XCTAssertEqual(gl.copyPhases, 1, "the snapped scene is drawn by copies of one phase")
        // Under the GPU policy every scene again (the cells one quad a page, their x evaluated on the GPU).
        let policy = gl.policy
        gl.policy = policy == .gpu ? .software : .gpu
        defer { gl.policy = policy }
        for (name, scene) in scenes { XCTAssertEqual(try ownAllocations(gl, scene), 0, "gl exact, \(gl.policy.name): \(name)") }
    }
}

/// The demo's frame path (both strategies drawn, measured and shown, the
/// heads-up displays drawn: off, compact and full, each with its frame-time
/// graph written and uploaded every frame) allocates nothing between
/// refreshes of its text.
final class DemoFramePathTests: XCTestCase {
    /// Both halves of sine cells, `width` x `height`, drawn into an offscreen framebuffer on a headless context.
    private func withSineView(width: Int, height: Int, cells: Int, subpixel: SubpixelMode = .exact,
                              _ body: (ComparisonView) throws -> Void) throws {
        let context = try GLRequirement.need("a headless GL context") { try HeadlessGLContext() }
        try withExtendedLifetime(context) {
            let offscreen = try OffscreenFramebuffer(width: width, height: height)
            let view = try ComparisonView(request: SceneRequest(width: width, height: height, count: cells, snapsToPixel: false),
                                          effect: DemoEffect(name: "sine", countLabel: "cells", count: cells, makeScene: SineCells.maker()),
                                          layout: .both, context: context, wallNow: 0, subpixel: subpixel)
            view.drawTarget = offscreen.id
            try view.resize(width: width, height: height)
            try withExtendedLifetime(offscreen) { try body(view) }
        }
    }

    func testADemoFrameAllocatesNothing() throws {
        try withSineView(width: 240, height: 90, cells: 3) { view in
            XCTAssertEqual(view.hud, .compact, "the display starts compact")
            for (n, mode) in HUDMode.allCases.enumerated() {
                view.showHUD(mode)
                try view.drawFrame(time: 0, wallNow: 0) // lays the display out
                var own: UInt64 = 0
                for i in 1...5 {
                    waves_malloc_counter_start()
                    // Wall time stays inside the display's half-second window: no text refresh.
                    try view.drawFrame(time: Double(i) * 0.21, wallNow: 0.1)
                    let total = waves_malloc_counter_stop()
                    own += total - waves_malloc_counter_foreign()
                }
                XCTAssertEqual(own, 0, "heap allocations by the project's code in 5 demo frames, display \(mode)")
                XCTAssertEqual(pendingGLErrors(), [], "display \(mode)")
                XCTAssertEqual(view.meter(.cpu)?.overall.frames, 6 * (n + 1))
                XCTAssertEqual(view.meter(.gl)?.overall.frames, 6 * (n + 1))
            }
        }
    }

    /// The compact display says the motion (S) and whether the scene is
    /// paused (Space), as the full one does.
    func testTheCompactDisplayShowsTheMotionAndPause() throws {
        try withSineView(width: 200, height: 60, cells: 2) { view in
            try view.drawFrame(time: 0, wallNow: 0)
            XCTAssertEqual(view.hud, .compact)
            XCTAssert(view.displayedLines.contains { $0.contains("  motion ") && !$0.contains("PAUSED") }, "\(view.displayedLines)")
            view.setPaused(true)
            try view.drawFrame(time: 0, wallNow: 1)
            XCTAssert(view.displayedLines.contains { $0.contains("  motion ") && $0.hasSuffix("PAUSED") }, "\(view.displayedLines)")
            view.showHUD(.off)
            XCTAssertEqual(view.displayedLines, [])
        }
    }

    /// The S key: linear, exact, snap and back, each drawn without GL errors.
    func testTheMotionKeyCyclesLinearExactAndSnap() throws {
        try withSineView(width: 200, height: 60, cells: 2, subpixel: .linear) { view in
            var seen: [String] = []
            for step in 0..<4 {
                seen.append(view.motionLabel)
                try view.drawFrame(time: 0.3 + Double(step) * 0.17, wallNow: Double(step))
                XCTAssertEqual(pendingGLErrors(), [], "GL errors drawing with motion \(view.motionLabel)")
                try view.cycleMotion()
            }
            XCTAssertEqual(seen, ["linear", "exact", "snap", "linear"])
        }
    }
}

/// A scene past the GL driver's limits (here a picture wider than its
/// largest texture; in a window, one resized taller than its textures) is drawn by the CPU in
/// the GL half, which says so, instead of ending the demo; when the scene
/// fits again the half is GL's again.
final class DemoFallbackTests: XCTestCase {
    func testTheGLHalfFallsBackToTheCPUAndReturns() throws {
        let context = try GLRequirement.need("a headless GL context") { try HeadlessGLContext() }
        try withExtendedLifetime(context) {
            let offscreen = try OffscreenFramebuffer(width: 200, height: 60)
            let dots = DemoEffect(name: "dots", countLabel: "dots", count: 50) { request in
                var d = Dots(width: request.width, height: request.height)
                d.count = request.count
                return try d.scene()
            }
            let view = try ComparisonView(request: SceneRequest(width: 200, height: 60, count: 50, snapsToPixel: false),
                                          effect: dots, layout: .both, context: context, wallNow: 0)
            view.drawTarget = offscreen.id
            try view.resize(width: 200, height: 60)
            XCTAssertNil(view.glFallback)
            // A picture one texel wider than any texture can be.
            let wide = DemoEffect(name: "wide", countLabel: "pictures", count: 1) { request in
                let image = RGBAImage(width: 1 << 17, height: 1, fill: RGBA8(255, 255, 255))
                let layer = Layer(name: "wide", frame: Rect(x: 0, y: 0, width: Double(1 << 17), height: 1), contents: .picture(Picture(image)))
                return Scene(width: request.width, height: request.height, tree: LayerTree(root: layer))
            }
            try view.show(wide)
            XCTAssertNotNil(view.glFallback, "the GL half should be drawn by the CPU")
            try view.drawFrame(time: 0.5, wallNow: 0)
            XCTAssertEqual(pendingGLErrors(), [])
            try view.show(dots)
            XCTAssertNil(view.glFallback, "back to GL once the scene fits")
        }
    }
}

/// A scene taller than the window: both strategies show the same rows (its
/// top), whatever order the CPU pixmap keeps its rows in.
final class PresentTests: XCTestCase {
    func testBothStrategiesShowTheScenesTopRows() throws {
        let context = try GLRequirement.need("a headless GL context") { try HeadlessGLContext() }
        try withExtendedLifetime(context) {
            var cells = SineCells(width: 64, height: 300)
            cells.cellCount = 5
            cells.wave.amplitude = 0.4
            let scene = try cells.scene()
            let window = try OffscreenFramebuffer(width: 64, height: 100)
            let viewport = Viewport(x: 0, y: 0, width: 64, height: 100)
            func shown(_ frame: Presentable) -> RGBAImage {
                glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), window.id)
                frame.present(to: viewport)
                return readShownPixels(framebuffer: window.id, width: 64, height: 100)
            }
            let cpu = CPURenderer()
            try cpu.prepare(scene: scene)
            let expected = try Frames.render(cpu, scene, at: [19.0 / 64])[0].cropped(rows: 0..<100)
            for bottomUp in [true, false] {
                let pixmap = Pixmap(width: 64, height: 300, rowStride: bottomUp ? -64 : 64)
                try cpu.draw(time: 19.0 / 64, into: pixmap)
                let presenter = CPUFramePresenter(caps: context.capabilities)
                try presenter.prepare(width: 64, height: 300)
                presenter.upload(pixmap)
                assertImagesMatch(shown(presenter), expected, mean: 0, max: 0, name: "present-cpu-bottom-up-\(bottomUp)")
            }
            // Drawn in memory the GPU reads (no copy), shown through the buffer texture: the same pixels, twice
            // (the second frame waits on the first's fence), and another pixmap handed over is copied in.
            let shared = try SharedFramePresenter(caps: context.capabilities)
            try shared.prepare(width: 64, height: 300)
            for _ in 0..<2 {
                let frame = try XCTUnwrap(shared.sharedPixmap())
                try cpu.draw(time: 19.0 / 64, into: frame)
                shared.upload(frame)
                assertImagesMatch(shown(shared), expected, mean: 0, max: 0, name: "present-cpu-shared")
            }
            let own = Pixmap(width: 64, height: 300, rowStride: -64)
            try cpu.draw(time: 19.0 / 64, into: own)
            _ = shared.sharedPixmap()?.fill(RGBA8(255, 0, 0))
            shared.upload(own)
            assertImagesMatch(shown(shared), expected, mean: 0, max: 0, name: "present-cpu-shared-copied-in")
            let gl = try GLRenderer(context: context)
            try gl.prepare(scene: scene)
            let target = try XCTUnwrap(try gl.makeTarget() as? GLFramebufferTarget)
            try gl.draw(time: 19.0 / 64, into: target) // a whole-pixel offset
            assertImagesMatch(shown(target), expected, mean: 0.02, max: 1, name: "present-gl")
        }
    }
}
