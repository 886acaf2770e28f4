import Foundation
import WaveCore
@testable import WaveGL
import WaveLottie
import WaveTestSupport
import XCTest

/// An alpha mask of one path of a solid colour, added, read in place
/// (`GLMaskInPlace`, MASK_PICTURE and MASK_POLYGON in Shaders/coverage_reads.inc):
/// every draw it masks (a run of coverage instances, a run of polygons, an
/// item by itself) reads a fixed path's coverage tiles through its inverse
/// transform, or a dynamic path's rows in the frame's polygon tables, and no
/// pass draws it into the mask texture. The frames are the ones the mask
/// pass draws (which rounds the mask to 8 bits) and the CPU's.
final class MaskReadInPlaceTests: XCTestCase {
    /// A wedge `size` times 30 x 20, turning once in `turns` seconds.
    private static func wedge(_ name: String, fill: Fill, at position: Point, size: Double = 1, scale: Double = 1, turns: Double = 3) throws -> Layer {
        var builder = PathBuilder()
        try builder.move(to: 0, 3 * size)
        try builder.line(to: 27.5 * size, 0.5 * size)
        try builder.line(to: 15 * size, 19.25 * size)
        builder.close()
        var layer = Layer(name: name, frame: Rect(x: 0, y: 0, width: 30 * size, height: 20 * size),
                          contents: .shape(Shape(path: builder.path, fill: fill)))
        layer.position = AnimatablePoint(position.x, position.y)
        layer.transform.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 2 * Double.pi, duration: turns))])
        layer.transform.scaleX = Timeline(scale)
        layer.transform.scaleY = Timeline(scale)
        return layer
    }

    /// Wedges of solid colours (a run of instances), one of a gradient and a box (each drawn by itself) under a
    /// mask of one large turning wedge, translucent; `extra`: the mask gets a second, invisible item, so it is
    /// folded into the mask texture as before (the same coverage); `clipped`: the wedge is inside a layer that
    /// clips it to the left half (its area ends there, and the mask with it).
    private static func scene(inverted: Bool, supersampled: Bool, extra: Bool, clipped: Bool = false) throws -> Scene {
        let gradient = Fill.linearGradient(LinearGradient(start: Point(0, 0), end: Point(30, 20), startColor: RGBA8(255, 0, 0),
                                                          endColor: RGBA8(0, 0, 255)))
        var sublayers: [Layer] = []
        for k in 0..<6 {
            sublayers.append(try wedge("wedge \(k)", fill: .solid(RGBA8(UInt8(40 * k), 200, UInt8(255 - 30 * k))),
                                       at: Point(30 + 36 * Double(k), 40 + 9 * Double(k % 2)), turns: 2 + Double(k) / 3))
        }
        sublayers.append(try wedge("gradient", fill: gradient, at: Point(70, 90)))
        sublayers.append(Layer(name: "box", frame: Rect(x: 150, y: 75, width: 60, height: 30),
                               contents: .box(Box(color: RGBA8(250, 180, 40), cornerRadius: 5))))
        var masked = Layer(name: "masked", frame: Rect(x: 0, y: 0, width: 240, height: 120), sublayers: sublayers)
        // Shown at 1.5 where it asks to be rasterised at its shown scale (so at twice that: four taps a pixel).
        var mask = try wedge("mask", fill: .solid(RGBA8(0, 0, 0, 200)), at: Point(120, 60), size: supersampled ? 4 : 6,
                             scale: supersampled ? 1.5 : 1, turns: 5)
        mask.opacity = Timeline(0.85)
        mask.rasterizesAtShownScale = supersampled
        if clipped {
            mask = Layer(name: "clip", frame: Rect(x: 0, y: 0, width: 110, height: 120), sublayers: [mask])
            mask.masksToBounds = true
        }
        if extra {
            let invisible = try wedge("invisible", fill: .solid(RGBA8(0, 0, 0, 0)), at: Point(15, 10))
            mask = Layer(name: "mask and an invisible wedge", frame: Rect(x: 0, y: 0, width: 240, height: 120),
                         sublayers: [mask, invisible])
        }
        masked.mask = mask
        masked.invertsMask = inverted
        let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 240, height: 120),
                         sublayers: [try wedge("under", fill: .solid(RGBA8(90, 90, 90)), at: Point(200, 20)), masked])
        return Scene(width: 240, height: 120, background: RGBA8(250, 248, 240), tree: LayerTree(root: root))
    }

    func testALonePathMaskIsReadInPlaceAsTheMaskPassDrawsIt() throws {
        let gl = try glRenderer()
        let times = [0.0, 0.61, 1.37]
        for inverted in [false, true] {
            for supersampled in [false, true] {
                let name = "inverted-\(inverted)-supersampled-\(supersampled)"
                let inPlace = try Self.scene(inverted: inverted, supersampled: supersampled, extra: false)
                let passed = try Self.scene(inverted: inverted, supersampled: supersampled, extra: true)
                try gl.prepare(scene: inPlace)
                let plan = try gl.explain(time: 0.61)
                XCTAssertEqual(plan.filter { $0.layer.hasSuffix("(mask)") }.map(\.mechanism), ["coverage picture, read as the mask"], name)
                XCTAssertEqual(Set(plan.filter { !$0.layer.hasSuffix("(mask)") }.map(\.mechanism)),
                               ["coverage instance", "coverage picture, filtered", "split box"], name)
                let target = try gl.makeTarget()
                try gl.draw(time: 0.61, into: target)
                XCTAssertEqual(gl.treeMaskFoldsThisFrame, 0, "\(name): no pass draws the mask")
                let read = try XCTUnwrap(gl.treeMasksReadInPlace.first ?? nil, name)
                XCTAssertEqual(read.fourTaps, supersampled, "\(name): rasterised at twice the scale shown, read with four taps")
                XCTAssertEqual(read.inverted, inverted, name)
                XCTAssertEqual(try XCTUnwrap(gl.treeInstanceRuns).draws, 2, "\(name): the wedge under it, the masked run")
                let frames = try Frames.render(gl, inPlace, at: times)
                XCTAssertEqual(pendingGLErrors(), [], name)

                try gl.prepare(scene: passed)
                XCTAssertEqual(try gl.explain(time: 0.61).filter { $0.layer.hasSuffix("(mask)") }.map(\.mechanism),
                               ["coverage picture, filtered", "coverage picture, filtered"], name)
                try gl.draw(time: 0.61, into: try gl.makeTarget())
                XCTAssertEqual(gl.treeMaskFoldsThisFrame, 1, "\(name): a mask of two items is drawn into the mask texture")
                let folded = try Frames.render(gl, passed, at: times)
                let cpu = try Frames.render(CPURenderer(), inPlace, at: times)
                for i in times.indices {
                    // The pass rounds the mask to 8 bits: a step of the mask's coverage either way.
                    assertImagesMatch(frames[i], folded[i], mean: 0.05, max: 2, name: "gl-mask-in-place-vs-pass-\(name)-\(i)")
                    // A turned picture is sampled between its texels (as the pass draws it too): at the wedges' sharp
                    // corners up to 69 of 255 from the CPU's exact coverage, so the mean is what holds it.
                    assertImagesMatch(frames[i], cpu[i], mean: 0.6, max: 72, name: "gl-mask-in-place-vs-cpu-\(name)-\(i)")
                }
                XCTAssertEqual(try frameAllocations(gl, inPlace, step: 0.37), 0, "\(name): a mask read in place allocates nothing a frame")
            }
        }
    }

    /// A mask whose path is clipped by a layer around it: read in place only inside its area, as the pass draws it.
    func testAMaskReadInPlaceEndsAtItsClip() throws {
        let gl = try glRenderer()
        let times = [0.3, 1.1]
        let inPlace = try Self.scene(inverted: false, supersampled: false, extra: false, clipped: true)
        try gl.prepare(scene: inPlace)
        try gl.draw(time: 0.3, into: try gl.makeTarget())
        XCTAssertEqual(gl.treeMaskFoldsThisFrame, 0)
        let frames = try Frames.render(gl, inPlace, at: times)
        let folded = try Frames.render(gl, try Self.scene(inverted: false, supersampled: false, extra: true, clipped: true), at: times)
        XCTAssertEqual(gl.treeMaskFoldsThisFrame, 1)
        for i in times.indices { assertImagesMatch(frames[i], folded[i], mean: 0.05, max: 2, name: "gl-mask-in-place-clipped-\(i)") }
    }

    /// A Lottie layer's one mask, added, inverted or not, fixed (read from its picture) or morphing (read from
    /// its polygon's rows), over a trimmed stroke that changes every frame (a run of polygons) and a fixed
    /// fill (a run of coverage instances): read in place, the frames the mask pass draws (a second mask of no
    /// opacity makes the layer's mask two items, folded into the mask texture) and the CPU's.
    func testALottieLayersOneMaskIsReadInPlaceOverRunsOfPolygonsAndInstances() throws {
        typealias F = LottieFixtures
        func quad(_ dx: Double) -> String { F.path([(20 + dx, 15), (85, 25), (70, 90), (15 - dx, 70)]) }
        let gl = try glRenderer()
        for morphing in [false, true] {
            for inverted in [false, true] {
                let name = "morphing-\(morphing)-inverted-\(inverted)"
                let path = morphing ? F.keyframes([(0, "[\(quad(0))]"), (19, "[\(quad(12))]")]) : F.value(quad(0))
                let mask = #"{"mode":"a","inv":\#(inverted),"pt":\#(path),"o":{"a":0,"k":80}}"#
                let invisible = #",{"mode":"a","pt":\#(F.value(quad(3))),"o":{"a":0,"k":0}}"#
                let trim = F.trim(start: 0, end: 100).replacingOccurrences(of: #""e":\#(F.value("100.0"))"#,
                                                                           with: #""e":\#(F.keyframes([(0, "[5]"), (19, "[100]")]))"#)
                func scene(masks: String) throws -> Scene {
                    let stroke = F.shapeLayer(index: 1, items: [F.line([(5, 90), (95, 65), (30, 8), (70, 50)]), trim, F.stroke(width: 9)],
                                              extra: #","masksProperties":[\#(masks)]"#)
                    let fill = F.shapeLayer(index: 2, items: [F.rectangle(x: 10, y: 30, width: 60, height: 45), F.fill(0.9, 0.3, 0.1)],
                                            extra: #","masksProperties":[\#(masks)]"#)
                    return try LottieAnimation(bytes: Array(F.file([stroke, fill]).utf8))
                        .scene(width: 100, height: 100, background: RGBA8(255, 255, 255)).scene
                }
                let inPlace = try scene(masks: mask), passed = try scene(masks: mask + invisible)
                try gl.prepare(scene: inPlace)
                let plan = try gl.explain(time: 0.3)
                let read = morphing ? "polygon rows, read as the mask" : "coverage picture, read as the mask"
                XCTAssertEqual(plan.filter { $0.layer.hasSuffix("(mask)") }.map(\.mechanism), [read, read], name)
                XCTAssertEqual(Set(plan.filter { !$0.layer.hasSuffix("(mask)") }.map(\.mechanism)), ["polygon rows", "coverage instance"], name)
                try gl.draw(time: 0.3, into: try gl.makeTarget())
                XCTAssertEqual(gl.treeMaskFoldsThisFrame, 0, name)
                // Each layer's run (the stroke's polygon, the fill's picture): two masks, so two runs.
                XCTAssertEqual(try XCTUnwrap(gl.treeInstanceRuns).draws, 2, name)
                let times = [0.1, 0.3, 0.6]
                let frames = try Frames.render(gl, inPlace, at: times)
                try gl.prepare(scene: passed)
                try gl.draw(time: 0.3, into: try gl.makeTarget())
                XCTAssertEqual(gl.treeMaskFoldsThisFrame, 2, "\(name): masks of two items are drawn into the mask texture")
                let folded = try Frames.render(gl, passed, at: times), cpu = try Frames.render(CPURenderer(), inPlace, at: times)
                for i in times.indices {
                    assertImagesMatch(frames[i], folded[i], mean: 0.05, max: 2, name: "gl-lottie-mask-in-place-vs-pass-\(name)-\(i)")
                    assertImagesMatch(frames[i], cpu[i], mean: 0.5, max: 48, name: "gl-lottie-mask-in-place-vs-cpu-\(name)-\(i)")
                }
                XCTAssertEqual(try frameAllocations(gl, inPlace, step: 0.03), 0, "\(name): a mask read in place allocates nothing a frame")
            }
        }
    }
}
