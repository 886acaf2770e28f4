import Foundation
import WaveCore
import WaveLottie
import WaveTestSupport
import XCTest

/// The CPU strategy's kept coverage (`KeptCoverage`) against rasterising
/// again: consecutive frames drawn by one renderer, which plays the
/// coverage of what stood still, are byte for byte the frames that fresh
/// renderers, which have kept nothing, draw at the same times. Files of
/// ../shared/lottie with still shapes, strokes, masks, a matte and
/// gradients, and a hand-written one with a luminance matte, mask modes,
/// a blend mode and a layer creeping by a tenth of a pixel, over parts of
/// them that stand still and parts that move.
final class KeptCoverageFramesTests: XCTestCase {
    typealias F = LottieFixtures

    private func assertKeptFramesMatch(_ scene: Scene, times: [Double], name: String) throws {
        let counts = PixelCounts(width: scene.width, height: scene.height)
        let kept = CPURenderer()
        let frames = try Frames.render(kept, scene, at: times)
        var rasterized = (kept: 0, fresh: 0)
        for (k, t) in times.enumerated() {
            let fresh = CPURenderer()
            assertImagesMatch(frames[k], try Frames.render(fresh, scene, at: [t])[0], mean: 0, max: 0, name: "kept-\(name)-\(k)")
            // What each rasterises of this frame: the kept renderer drawn again from the frame before.
            fresh.pixelCounts = counts
            _ = try Frames.render(fresh, scene, at: [t])
            rasterized.fresh += counts.totals.rasterized
            if k > 0 {
                kept.pixelCounts = counts
                let target = try kept.makeTarget()
                try kept.draw(time: times[k - 1], into: target)
                try kept.draw(time: t, into: target)
                rasterized.kept += counts.totals.rasterized
                kept.pixelCounts = nil
            }
        }
        XCTAssertLessThan(rasterized.kept, rasterized.fresh, "\(name): nothing was kept")
    }

    func testTheSharedFilesFramesAreTheOnesRasterisingAgainDraws() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.deletingLastPathComponent().appendingPathComponent("shared/lottie")
        // Strokes that stand still after frame 14; masks; a matte; a gradient; still icons.
        for (file, first) in [("windmill.json", 10.0), ("mask.json", 0), ("matte_two_item_with_lowerlayer.json", 0), ("like.json", 0),
                              ("gradient_animated_background.json", 0), ("settings.json", 0), ("done.json", 30)] {
            let animation = try LottieAnimation(contentsOf: folder.appendingPathComponent(file).path)
            let scene = try animation.scene(width: 120, height: 120, background: RGBA8(255, 255, 255), firstFrame: first).scene
            try assertKeptFramesMatch(scene, times: (0..<12).map { Double($0) / animation.frameRate }, name: file)
        }
    }

    /// A trim that draws a stroke over frames 0 to 6 and then holds: its outline changes every frame, then is
    /// the same outline (`DynamicPath.outlineIdentity`), kept from the second frame it holds.
    func testAnOutlineThatStopsChangingIsKeptOnceItHolds() throws {
        let drawn = F.trim(start: 0, end: 100).replacingOccurrences(of: #""e":\#(F.value("100.0"))"#,
                                                                      with: #""e":\#(F.keyframes([(0, "[5]"), (6, "[100]")]))"#)
        let layer = F.shapeLayer(items: [F.line([(10, 20), (90, 30), (50, 80)]), drawn, F.stroke(width: 6, cap: 2)])
        let scene = try LottieAnimation(bytes: Array(F.file([layer]).utf8)).scene(width: 100, height: 100, background: RGBA8(255, 255, 255)).scene
        let counts = PixelCounts(width: 100, height: 100)
        let renderer = CPURenderer()
        renderer.pixelCounts = counts
        try renderer.prepare(scene: scene)
        let target = try renderer.makeTarget()
        var rasterized: [Int] = []
        for k in 0..<12 {
            try renderer.draw(time: Double(k) / 10, into: target)
            rasterized.append(counts.totals.rasterized)
            assertImagesMatch(try target.readback(), try Frames.render(CPURenderer(), scene, at: [Double(k) / 10])[0], mean: 0, max: 0,
                              name: "kept-trim-\(k)")
        }
        XCTAssert(rasterized[..<8].allSatisfy { $0 > 0 }, "\(rasterized): rasterised while it changes and on the two frames it takes to see it held")
        XCTAssertEqual(Array(rasterized[8...]), [0, 0, 0, 0], "\(rasterized): kept once it holds")
    }

    func testMasksMattesAndBlendingKeepTheirCoverageExactly() throws {
        let box = #"{"c":true,"v":[[40,0],[100,0],[100,100],[40,100]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}"#
        // A layer under three masks (add, intersect inverted, difference), moving until frame 10, blended by multiply.
        let folds = F.shapeLayer(index: 1, items: [F.rectangle(x: 10, y: 10, width: 80, height: 80), F.fill(0, 1, 0)],
                                 position: F.keyframes([(0, "[0,0]"), (10, "[10,5]")]),
                                 extra: #","bm":1,"masksProperties":[{"mode":"a","pt":{"a":0,"k":\#(box)},"o":{"a":0,"k":80}},{"mode":"i","inv":true,"pt":{"a":0,"k":\#(box)},"o":{"a":0,"k":60}},{"mode":"f","pt":{"a":0,"k":\#(box)},"o":{"a":0,"k":90}}]"#)
        // A still luminance matte over a layer that moves in steps (held keyframes: still between them).
        let matte = F.shapeLayer(index: 2, items: [F.rectangle(x: 0, y: 30, width: 100, height: 40), F.fill(0.6, 0.6, 0.6)], extra: #","td":1"#)
        let lumaMatted = F.shapeLayer(index: 3, items: [F.rectangle(x: 20, y: 0, width: 30, height: 100), F.fill(0, 0, 1)],
                                      position: F.keyframes([(0, "[0,0]"), (6, "[15,0]"), (12, "[30,0]")], hold: true), extra: #","tt":4"#)
        // A layer that creeps a tenth of a pixel a frame: its area mostly stays, its coverage does not.
        let creeping = F.shapeLayer(index: 4, items: [F.rectangle(x: 60, y: 60, width: 25, height: 17), F.fill(1, 0.5, 0)],
                                    position: F.keyframes([(0, "[0,0]"), (20, "[2,1]")]))
        let scene = try LottieAnimation(bytes: Array(F.file([creeping, folds, matte, lumaMatted]).utf8))
            .scene(width: 100, height: 100, background: RGBA8(255, 255, 255)).scene
        try assertKeptFramesMatch(scene, times: (0..<20).map { Double($0) / 10 }, name: "masks-mattes-blending")
    }
}
