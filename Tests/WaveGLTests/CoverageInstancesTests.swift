import WaveCore
@testable import WaveGL
import WaveTestSupport
import XCTest

/// Fixed paths with a solid fill on the GL strategy (`GLCoverageInstances`):
/// consecutive ones are instances of one draw, runs end where an item is
/// drawn otherwise and where the mask changes (not where the sampling does:
/// one tap or four), and every frame matches the CPU strategy's.
final class CoverageInstancesTests: XCTestCase {
    /// A wedge of its own (equal paths share one picture, and one scale), turning and moving by fractions of a pixel.
    private static func wedge(_ k: Int, fill: Fill, supersampled: Bool = false) throws -> Layer {
        var builder = PathBuilder()
        try builder.move(to: 0, 3 + Double(k) / 64)
        try builder.line(to: 27.5, 0.5)
        try builder.line(to: 15, 19.25)
        builder.close()
        var layer = Layer(name: "wedge \(k)", frame: Rect(x: 0, y: 0, width: 30, height: 20),
                          contents: .shape(Shape(path: builder.path, fill: fill)))
        layer.position = AnimatablePoint(20 + 37.3 * Double(k % 7), 18 + 31.7 * Double(k / 7))
        layer.transform.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 2 * Double.pi, duration: 3 + Double(k) / 5))])
        layer.opacity = Timeline(k % 3 == 0 ? 0.6 : 1)
        if supersampled {
            layer.rasterizesAtShownScale = true
            layer.transform.scaleX = Timeline(1.6)
            layer.transform.scaleY = Timeline(1.6)
        }
        return layer
    }

    /// `scene` with each solid fill a gradient from its colour to itself: no solid fill, so each item is drawn by itself.
    private static func eachAlone(_ scene: Scene) throws -> Scene {
        func alone(_ layer: Layer) -> Layer {
            var layer = layer
            layer.sublayers = layer.sublayers.map(alone)
            guard case var .shape(shape)? = layer.contents, case let .solid(c) = shape.fill else { return layer }
            shape.fill = .linearGradient(LinearGradient(start: Point(0, 0), end: Point(1, 0), startColor: c, endColor: c))
            layer.contents = .shape(shape)
            return layer
        }
        let root = try XCTUnwrap(scene.tree?.root)
        return Scene(width: scene.width, height: scene.height, background: scene.background, tree: LayerTree(root: alone(root)))
    }

    private static func color(_ k: Int) -> Fill { .solid(RGBA8(UInt8(40 + 9 * k), UInt8(220 - 7 * k), UInt8(90 + 5 * k), k % 4 == 0 ? 180 : 255)) }

    private func mechanisms(_ gl: GLRenderer, at time: Double) throws -> [String] { try gl.explain(time: time).map(\.mechanism) }

    func testConsecutiveSolidFixedPathsAreOneDrawARunAndMatchTheCPU() throws {
        let gl = try glRenderer()
        // Twelve at their layer's scale, six read with four taps (shown at 1.6), six more at their scale: one run.
        var layers: [Layer] = []
        for k in 0..<24 { layers.append(try Self.wedge(k, fill: Self.color(k), supersampled: (12..<18).contains(k))) }
        let root = Layer(name: "wedges", frame: Rect(x: 0, y: 0, width: 280, height: 130), sublayers: layers)
        let scene = Scene(width: 280, height: 130, background: RGBA8(250, 248, 240), tree: LayerTree(root: root))
        let times = [0.0, 0.4321, 1.7]
        let frames = try Frames.render(gl, scene, at: times)
        XCTAssertEqual(pendingGLErrors(), [], "GL errors after the runs of instances")
        // A turned picture is sampled between its texels (as Core Animation samples a cached layer): at a wedge's
        // sharp corners up to 61 of 255 from the CPU's exact coverage, so the mean is what holds it.
        let cpu = try Frames.render(CPURenderer(), scene, at: times)
        for i in times.indices { assertImagesMatch(frames[i], cpu[i], mean: 0.6, max: 64, name: "gl-coverage-instances-\(i)") }
        XCTAssertEqual(Set(try mechanisms(gl, at: 0.4321)), ["coverage instance"])
        let target = try gl.makeTarget()
        try gl.draw(time: 0.4321, into: target)
        let instances = try XCTUnwrap(gl.treeInstanceRuns)
        XCTAssertEqual(instances.count, 24)
        XCTAssertEqual(instances.draws, 1, "one run: each instance says how it is sampled")
        // The same wedges each drawn by itself: the same pixels but for the float arithmetic's order.
        let itemByItem = try Frames.render(gl, Self.eachAlone(scene), at: times)
        XCTAssertEqual(Set(try mechanisms(gl, at: 0.4321)), ["coverage picture, filtered"])
        for i in times.indices { assertImagesMatch(frames[i], itemByItem[i], mean: 0.05, max: 3, name: "gl-coverage-instances-alone-\(i)") }
    }

    func testRunsEndAtAnItemDrawnByItselfAndWhereTheMaskChanges() throws {
        let gl = try glRenderer()
        let gradient = Fill.linearGradient(LinearGradient(start: Point(0, 0), end: Point(30, 20), startColor: RGBA8(255, 0, 0),
                                                          endColor: RGBA8(0, 0, 255)))
        var layers = [try Self.wedge(0, fill: Self.color(0)), try Self.wedge(1, fill: Self.color(1)), try Self.wedge(2, fill: gradient)]
        // Two under one mask (a wedge's own shape, larger), then one added, then one more.
        var masked = Layer(name: "masked", frame: Rect(x: 0, y: 0, width: 280, height: 130),
                           sublayers: [try Self.wedge(3, fill: Self.color(3)), try Self.wedge(4, fill: Self.color(4))])
        var mask = try Self.wedge(4, fill: .solid(RGBA8(0, 0, 0)))
        mask.transform.scaleX = Timeline(3)
        mask.transform.scaleY = Timeline(3)
        masked.mask = mask
        layers.append(masked)
        var added = try Self.wedge(5, fill: Self.color(5))
        added.blendMode = .add
        layers += [added, try Self.wedge(6, fill: Self.color(6))]
        let root = Layer(name: "wedges", frame: Rect(x: 0, y: 0, width: 280, height: 130), sublayers: layers)
        let scene = Scene(width: 280, height: 130, background: RGBA8(20, 24, 40), tree: LayerTree(root: root))
        try gl.prepare(scene: scene)
        let plan = try gl.explain(time: 0.9)
        XCTAssertEqual(plan.filter { !$0.layer.hasSuffix("(mask)") }.map(\.mechanism),
                       ["coverage instance", "coverage instance", "coverage picture, filtered", "coverage instance", "coverage instance",
                        "coverage picture, filtered, added", "coverage instance"])
        XCTAssertEqual(plan.filter { $0.layer.hasSuffix("(mask)") }.map(\.mechanism), ["coverage picture, read as the mask"],
                       "a mask of one fixed path is read in place by the runs it masks")
        let target = try gl.makeTarget()
        try gl.draw(time: 0.9, into: target)
        XCTAssertEqual(try XCTUnwrap(gl.treeInstanceRuns).draws, 3, "the first two, the masked two, the last")
        let times = [0.0, 0.9]
        let frames = try Frames.render(gl, scene, at: times), cpu = try Frames.render(CPURenderer(), scene, at: times)
        for i in times.indices { assertImagesMatch(frames[i], cpu[i], mean: 0.6, max: 64, name: "gl-coverage-instance-runs-\(i)") }
        XCTAssertEqual(try frameAllocations(gl, scene, step: 0.37), 0, "instances, runs and a mask between them allocate nothing a frame")
    }

    /// Exact motion: each picture at its sub-pixel phases in the atlas, the nearest read at whole-pixel offsets, so
    /// wedges moved by fractions of a pixel are the CPU's pixels (but for the phase's sixteenth of a pixel).
    func testExactMotionReadsTheNearestPhaseOfEachInstance() throws {
        let gl = try glRenderer()
        gl.subpixel = .exact
        defer { gl.subpixel = .linear }
        var layers: [Layer] = []
        for k in 0..<10 {
            var layer = try Self.wedge(k, fill: Self.color(k))
            layer.transform.rotation = Timeline(0)
            // Whole rows (a phase is a column's fraction; a fractional row is read filtered).
            layer.position.y = .constant(18 + 32 * Double(k / 7))
            layer.transform.translationX = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 53.3, duration: 1.7 + Double(k) / 9))])
            layers.append(layer)
        }
        let root = Layer(name: "wedges", frame: Rect(x: 0, y: 0, width: 280, height: 130), sublayers: layers)
        let scene = Scene(width: 280, height: 130, background: RGBA8(250, 248, 240), tree: LayerTree(root: root))
        let times = [0.1234, 0.9876]
        let frames = try Frames.render(gl, scene, at: times), cpu = try Frames.render(CPURenderer(), scene, at: times)
        XCTAssertEqual(Set(try mechanisms(gl, at: 0.5)), ["coverage instance"])
        XCTAssertEqual(gl.exactPhases, SubpixelPhases.exact, "the pictures at the exact mode's phases")
        // The nearest of 16 phases is up to a 32nd of a pixel off: 5 of 255 at most here.
        for i in times.indices { assertImagesMatch(frames[i], cpu[i], mean: 0.05, max: 8, name: "gl-coverage-instances-exact-\(i)") }
        // Each drawn by itself at the same phases: the same pixels.
        let itemByItem = try Frames.render(gl, Self.eachAlone(scene), at: times)
        XCTAssertEqual(Set(try mechanisms(gl, at: 0.5)), ["coverage picture, 16 phases"])
        for i in times.indices { assertImagesMatch(frames[i], itemByItem[i], mean: 0.01, max: 3, name: "gl-coverage-instances-exact-alone-\(i)") }
    }

    /// Dynamic paths of a solid colour (their outlines made every frame) are runs too: consecutive ones one draw,
    /// a gradient between ending a run, the same pixels as each drawn by itself.
    /// Triangle `k`, a dynamic path (its height animated, so its outline is made every frame), 20 x 30 from `origin`,
    /// turned by 0.1 k and a third of them at opacity 0.7.
    private static func triangle(_ k: Int, fill: Fill, at origin: Point) -> Layer {
        var layer = Layer(name: "triangle \(k)", frame: Rect(x: origin.x, y: origin.y, width: 20, height: 30),
                          contents: .shape(Shape(dynamic: TreeScenes.Triangle(), fill: fill, parameters: [
                              Timeline(10, animations: [.basic(BasicAnimation(from: 10, to: 28, duration: 1 + Double(k) / 7,
                                                                              repeatCount: .infinity, autoreverses: true))])])))
        layer.transform.rotation = Timeline(0.1 * Double(k))
        layer.opacity = Timeline(k % 3 == 0 ? 0.7 : 1)
        return layer
    }

    func testConsecutiveSolidPolygonsAreOneDrawARun() throws {
        let gl = try glRenderer()
        var layers: [Layer] = []
        for k in 0..<9 {
            let fill: Fill = k == 4
                ? .linearGradient(LinearGradient(start: Point(0, 0), end: Point(20, 0), startColor: RGBA8(255, 0, 0), endColor: RGBA8(0, 0, 255)))
                : Self.color(k)
            layers.append(Self.triangle(k, fill: fill, at: Point(10 + 29.3 * Double(k), 20 + 7.1 * Double(k % 3))))
        }
        let root = Layer(name: "triangles", frame: Rect(x: 0, y: 0, width: 280, height: 80), sublayers: layers)
        let scene = Scene(width: 280, height: 80, background: RGBA8(250, 248, 240), tree: LayerTree(root: root))
        let times = [0.0, 0.777]
        let frames = try Frames.render(gl, scene, at: times)
        XCTAssertEqual(Set(try mechanisms(gl, at: 0.5)), ["polygon rows"])
        let target = try gl.makeTarget()
        try gl.draw(time: 0.5, into: target)
        let runs = try XCTUnwrap(gl.treeInstanceRuns)
        XCTAssertEqual(runs.count, 8, "every solid triangle an instance, the gradient's drawn by itself")
        XCTAssertEqual(runs.draws, 2, "four, the gradient, four")
        let cpu = try Frames.render(CPURenderer(), scene, at: times)
        for i in times.indices { assertImagesMatch(frames[i], cpu[i], mean: 0.3, max: 16, name: "gl-polygon-runs-\(i)") }
        let itemByItem = try Frames.render(gl, Self.eachAlone(scene), at: times)
        XCTAssertNil(gl.treeInstanceRuns, "no solid fill: nothing drawn in runs")
        for i in times.indices { assertImagesMatch(frames[i], itemByItem[i], mean: 0.01, max: 1, name: "gl-polygon-runs-alone-\(i)") }
        XCTAssertEqual(try frameAllocations(gl, scene, step: 0.37), 0, "runs of polygons allocate nothing a frame")
    }

    /// Fixed wedges and dynamic triangles of solid colours, alternating: under a GPU's policy one run (each
    /// instance says its kind), under a software driver's a run a kind (llvmpipe would shade both kinds'
    /// code in every pixel of a mixed run); the same pixels as each drawn by itself either way, and within
    /// the usual bounds of the CPU's.
    func testFixedPathsAndPolygonsAlternatingAreOneRunUnderAGPUsPolicy() throws {
        let gl = try glRenderer()
        let policy = gl.policy
        defer { gl.policy = policy }
        var layers: [Layer] = []
        for k in 0..<8 {
            if k % 2 == 0 {
                layers.append(try Self.wedge(k, fill: Self.color(k), supersampled: k == 4))
            } else {
                layers.append(Self.triangle(k, fill: Self.color(k), at: Point(10 + 33 * Double(k), 60)))
            }
        }
        let root = Layer(name: "both kinds", frame: Rect(x: 0, y: 0, width: 280, height: 130), sublayers: layers)
        let scene = Scene(width: 280, height: 130, background: RGBA8(250, 248, 240), tree: LayerTree(root: root))
        let times = [0.0, 0.6180]
        let cpu = try Frames.render(CPURenderer(), scene, at: times)
        for (driver, draws) in [(DriverPolicy.gpu, 1), (.software, 8)] {
            gl.policy = driver
            let frames = try Frames.render(gl, scene, at: times)
            XCTAssertEqual(try mechanisms(gl, at: 0.5), (0..<8).map { $0 % 2 == 0 ? "coverage instance" : "polygon rows" })
            let target = try gl.makeTarget()
            try gl.draw(time: 0.5, into: target)
            let runs = try XCTUnwrap(gl.treeInstanceRuns)
            XCTAssertEqual(runs.count, 8, driver.name)
            XCTAssertEqual(runs.draws, draws, "\(driver.name): one run of both kinds, or a run at each change of kind")
            for i in times.indices { assertImagesMatch(frames[i], cpu[i], mean: 0.6, max: 64, name: "gl-mixed-runs-\(draws)-\(i)") }
            let itemByItem = try Frames.render(gl, Self.eachAlone(scene), at: times)
            for i in times.indices { assertImagesMatch(frames[i], itemByItem[i], mean: 0.05, max: 3, name: "gl-mixed-runs-\(draws)-alone-\(i)") }
            XCTAssertEqual(try frameAllocations(gl, scene, step: 0.37), 0, "\(driver.name): runs allocate nothing a frame")
        }
    }
}
