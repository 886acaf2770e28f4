import WaveCore
@testable import WaveGL
import WaveTestSupport
import XCTest

/// Fixed paths with a solid fill on the GL strategy (`GLCoverageInstances`):
/// consecutive ones are instances of one draw, runs end where an item is
/// drawn otherwise, where the mask changes and where the sampling does
/// (supersampled or not), and every frame matches the CPU strategy's.
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

    private static func color(_ k: Int) -> Fill { .solid(RGBA8(UInt8(40 + 9 * k), UInt8(220 - 7 * k), UInt8(90 + 5 * k), k % 4 == 0 ? 180 : 255)) }

    private func mechanisms(_ gl: GLRenderer, at time: Double) throws -> [String] { try gl.explain(time: time).map(\.mechanism) }

    func testConsecutiveSolidFixedPathsAreOneDrawARunAndMatchTheCPU() throws {
        let gl = try glRenderer()
        // Twelve at their layer's scale, six read with four taps (shown at 1.6), six more at their scale: three runs.
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
        let instances = try XCTUnwrap(gl.treeCoverageInstances)
        XCTAssertEqual(instances.count, 24)
        XCTAssertEqual(instances.draws, 3, "a run a sampling: plain, four taps, plain")
        // The same wedges each drawn by itself (a gradient from a colour to itself is no solid fill): the same pixels
        // but for the float arithmetic's order.
        func alone(_ layer: Layer) -> Layer {
            var layer = layer
            guard case var .shape(shape)? = layer.contents, case let .solid(c) = shape.fill else { return layer }
            shape.fill = .linearGradient(LinearGradient(start: Point(0, 0), end: Point(1, 0), startColor: c, endColor: c))
            layer.contents = .shape(shape)
            return layer
        }
        let each = Scene(width: 280, height: 130, background: scene.background,
                         tree: LayerTree(root: Layer(name: "wedges", frame: root.frame, sublayers: layers.map(alone))))
        let itemByItem = try Frames.render(gl, each, at: times)
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
        XCTAssertEqual(plan.filter { $0.layer.hasSuffix("(mask)") }.map(\.mechanism), ["coverage picture, filtered"],
                       "a mask's layer is folded into the mask by itself")
        let target = try gl.makeTarget()
        try gl.draw(time: 0.9, into: target)
        XCTAssertEqual(try XCTUnwrap(gl.treeCoverageInstances).draws, 3, "the first two, the masked two, the last")
        let times = [0.0, 0.9]
        let frames = try Frames.render(gl, scene, at: times), cpu = try Frames.render(CPURenderer(), scene, at: times)
        for i in times.indices { assertImagesMatch(frames[i], cpu[i], mean: 0.6, max: 64, name: "gl-coverage-instance-runs-\(i)") }
        XCTAssertEqual(try frameAllocations(gl, scene, step: 0.37), 0, "instances, runs and a mask between them allocate nothing a frame")
    }
}
