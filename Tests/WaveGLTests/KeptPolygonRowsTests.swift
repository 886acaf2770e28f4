import Foundation
import WaveCore
@testable import WaveGL
import WaveLottie
import WaveTestSupport
import XCTest

/// The GL strategy's polygon rows kept from one frame to the next
/// (`PolygonRows.copyKept`): an outline that says it is the same as the
/// last frame's (`DynamicPath.outlineIdentity`), under the same transform
/// over the same area, is copied from the last frame's tables instead of
/// being made again, and every frame is byte for byte the one a renderer
/// that has kept nothing draws.
final class KeptPolygonRowsTests: XCTestCase {
    typealias F = LottieFixtures

    /// Each of `times` drawn in turn by one renderer, each against the same frame drawn by a renderer made
    /// ready for it alone (nothing kept); the items whose rows each frame copied.
    private func keptFrames(_ scene: Scene, times: [Double], name: String) throws -> [Int] {
        let gl = try glRenderer()
        // Made ready for another scene between them, the renderer starts each reference frame with nothing kept.
        let other = Scene(width: 1, height: 1, background: RGBA8(0, 0, 0), tree: nil)
        let fresh = try times.map { t in
            try gl.prepare(scene: other)
            return try Frames.render(gl, scene, at: [t])[0]
        }
        try gl.prepare(scene: scene)
        let target = try gl.makeTarget()
        var kept: [Int] = []
        for (k, t) in times.enumerated() {
            try gl.draw(time: t, into: target)
            kept.append(try XCTUnwrap(gl.treePolygons).keptThisFrame)
            assertImagesMatch(try target.readback(), fresh[k], mean: 0, max: 0, name: "gl-kept-rows-\(name)-\(k)")
        }
        return kept
    }

    /// A trim that draws a stroke over frames 0 to 6 and then holds, over one that draws another all the
    /// time (so the held one's rows land elsewhere in the tables every frame): the held one made every frame
    /// while it changes, copied from the frame after the first it holds on; no allocation a frame either way.
    func testAnOutlineThatStopsChangingKeepsItsRows() throws {
        func trim(until frame: Int) -> String {
            F.trim(start: 0, end: 100).replacingOccurrences(of: #""e":\#(F.value("100.0"))"#,
                                                            with: #""e":\#(F.keyframes([(0, "[5]"), (Double(frame), "[100]")]))"#)
        }
        let held = F.shapeLayer(index: 1, items: [F.line([(10, 20), (90, 30), (50, 80)]), trim(until: 6), F.stroke(width: 6, cap: 2)])
        let changing = F.shapeLayer(index: 2, items: [F.line([(5, 90), (95, 65), (30, 8), (70, 50)]), trim(until: 19), F.stroke(width: 3)])
        let scene = try LottieAnimation(bytes: Array(F.file([held, changing]).utf8))
            .scene(width: 100, height: 100, background: RGBA8(255, 255, 255)).scene
        let kept = try keptFrames(scene, times: (0..<12).map { Double($0) / 10 }, name: "trim")
        XCTAssertEqual(Array(kept[..<7]), Array(repeating: 0, count: 7), "\(kept): made again while it changes")
        XCTAssertEqual(Array(kept[7...]), Array(repeating: 1, count: 5), "\(kept): copied once it holds")
        XCTAssertEqual(try frameAllocations(try glRenderer(), scene, step: 0.03), 0, "rows copied from the last frame allocate nothing")
    }

    /// A mask whose path morphs until frame 6 and then holds, on a layer drawn after one whose trim changes all
    /// the time: the mask's item (a slot after the tree's items) copies its rows once it holds, and the frames
    /// are the ones a renderer that kept nothing draws.
    func testAMaskThatStopsChangingKeepsItsRows() throws {
        func box(_ x0: Double, _ x1: Double) -> String { F.path([(x0, 10), (x1, 10), (x1, 90), (x0, 90)]) }
        let morph = F.keyframes([(0, "[\(box(20, 40))]"), (6, "[\(box(10, 70))]")])
        let masked = F.shapeLayer(index: 1, items: [F.rectangle(x: 5, y: 5, width: 90, height: 90), F.fill(0, 0.5, 1)],
                                  extra: #","masksProperties":[{"mode":"a","pt":\#(morph),"o":{"a":0,"k":100}}]"#)
        let trim = F.trim(start: 0, end: 100).replacingOccurrences(of: #""e":\#(F.value("100.0"))"#,
                                                                   with: #""e":\#(F.keyframes([(0, "[5]"), (19, "[100]")]))"#)
        let changing = F.shapeLayer(index: 2, items: [F.line([(5, 90), (95, 65), (30, 8), (70, 50)]), trim, F.stroke(width: 3)])
        let scene = try LottieAnimation(bytes: Array(F.file([masked, changing]).utf8))
            .scene(width: 100, height: 100, background: RGBA8(255, 255, 255)).scene
        let kept = try keptFrames(scene, times: (0..<12).map { Double($0) / 10 }, name: "mask")
        XCTAssertEqual(Array(kept[..<7]), Array(repeating: 0, count: 7), "\(kept): made again while the mask changes")
        XCTAssertEqual(Array(kept[7...]), Array(repeating: 1, count: 5), "\(kept): the mask's rows copied once it holds")
    }

    /// Files of ../shared/lottie whose trims and morphs hold between changes, over frames where some hold and some change.
    func testTheSharedFilesFramesAreTheOnesMakingTheRowsAgainDraws() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.deletingLastPathComponent().appendingPathComponent("shared/lottie")
        for file in ["fingerprint_success.json", "birth_stone_logo.json", "imprint.json"] {
            let animation = try LottieAnimation(contentsOf: folder.appendingPathComponent(file).path)
            let scene = try animation.scene(width: 120, height: 120, background: RGBA8(255, 255, 255), firstFrame: 0).scene
            let times = stride(from: 0, to: Double(animation.frameCount), by: Double(animation.frameCount) / 10).flatMap { first in
                [first, first + 1, first + 2].map { $0 / animation.frameRate }
            }
            let kept = try keptFrames(scene, times: times, name: file)
            XCTAssertGreaterThan(kept.reduce(0, +), 0, "\(file): \(kept): no rows were copied")
        }
    }
}
