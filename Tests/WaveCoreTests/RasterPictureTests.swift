import WaveCore
import WaveTestSupport
import XCTest

/// Rasterized layers (`Layer.shouldRasterize`): an evaluator asked to
/// rasterize gives one item for each such layer that can be cached, layers
/// that look alike share one picture, and the picture is what the CPU
/// strategy draws for the layer.
final class RasterPictureTests: XCTestCase {
    func testCachedLayersAreOneItemEachAndLookalikesShareAPicture() throws {
        let tree = try XCTUnwrap(try TreeScenes.all().first { $0.name == "tree-rasterized-moving" }?.scene.tree)
        let rasterizing = try tree.makeEvaluator(rasterizes: true)
        let frame = rasterizing.presentation(at: 0.5)
        let cached = frame.items.filter { $0.primitive == .rasterized }
        // slide, faint, the masked card and the row's two copies; "changing" animates a sublayer, so it is drawn item by item.
        XCTAssertEqual(cached.map { rasterizing.nodes[$0.layer].layer.name }, ["slide", "faint", "card", "copy", "copy"])
        XCTAssertEqual(rasterizing.rasterPictures.count, 2, "two cards of one look, three boxes of another")
        XCTAssertTrue(frame.items.contains { rasterizing.nodes[$0.layer].layer.name == "shape" && $0.primitive == .fixedShape })
        XCTAssertEqual(cached[1].opacity, 0.6, accuracy: 1e-12)
        XCTAssertGreaterThanOrEqual(cached[2].mask, 0, "the masked card keeps its parent's mask")
        XCTAssertNotEqual(cached[3].tint, cached[4].tint, "each copy its own tint")
        // Without asking, nothing is rasterized (the CPU strategy's evaluator).
        XCTAssertFalse(try tree.makeEvaluator().presentation(at: 0.5).items.contains { $0.primitive == .rasterized })
        // A sublayer that animates is not still; a layer's own motion is.
        var card = try TreeScenes.rasterizedCard(x: 0, y: 0)
        card.transform.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 1, duration: 1))])
        XCTAssertTrue(RasterPicture.canCache(card))
        card.sublayers[1].sublayers[0].position.x = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 1, duration: 1))])
        XCTAssertFalse(RasterPicture.canCache(card))
    }

    /// The picture over the background equals the CPU's frame of the layer
    /// placed on whole pixels (one rounding more: within 1/255).
    func testThePictureIsWhatTheCPUDrawsForTheLayer() throws {
        let card = try TreeScenes.rasterizedCard(x: 10, y: 5)
        let scene = Scene(width: 48, height: 32, background: RGBA8(20, 30, 60),
                          tree: LayerTree(root: Layer(frame: Rect(x: 0, y: 0, width: 48, height: 32), sublayers: [card])))
        let cpu = try Frames.render(CPURenderer(), scene, at: [0])[0]
        let evaluator = try scene.tree!.makeEvaluator(rasterizes: true)
        let raster = try XCTUnwrap(evaluator.rasterPictures.first)
        // The box with its border, one spare pixel each side.
        XCTAssertEqual(raster.bounds, Rect(x: -1, y: -1, width: 30, height: 22))
        let picture = try raster.paint()
        var expected = RGBAImage(width: 48, height: 32, fill: scene.background)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let p = picture[x, y]
                expected[9 + x, 4 + y] = sourceOver(RGBA8(p.r, p.g, p.b, 255), coverage: Double(p.a) / 255, onto: scene.background)
            }
        }
        assertImagesMatch(cpu, expected, mean: 0.1, max: 1, name: "raster-picture")
        XCTAssertEqual(picture[0, 0].a, 0, "the spare pixel is transparent")
    }
}
