import Foundation
import WaveCore
import WaveEffects
@testable import WaveGL
import WaveTestSupport
import XCTest

/// The jelly as the seed drew it, through both backends: they agree, the
/// outline is the seed's path at the presentation layer's progress, the
/// block moves vertically, and a frame depends on its time alone.
final class JellyTests: XCTestCase {
    private func renderers() throws -> [(Backend, Renderer)] { [(.cpu, CPURenderer()), (.gl, try glRenderer())] }

    func testBothBackendsAgreeThroughAWholeLoop() throws {
        for bounce in [0.5, 0.15, 0, -0.4] {
            var jelly = Jelly(width: 400, height: 160)
            let spring = Spring(duration: 0.7, bounce: bounce)
            (jelly.mass, jelly.stiffness, jelly.damping) = (spring.mass, spring.stiffness, spring.damping)
            let scene = try jelly.scene()
            let times = [0.0, 0.05, 0.11, 0.2, 0.31, 0.5, 1.0, 1.7, 2.3, 3.333]
            let cpu = try Frames.render(CPURenderer(), scene, at: times)
            let gl = try Frames.render(try glRenderer(), scene, at: times)
            for i in times.indices { assertImagesMatch(gl[i], cpu[i], mean: 1, max: 8, name: "jelly-\(bounce)-\(i)") }
        }
    }

    /// The seed's path, integrated here from its own formulas, at the progress the presentation layer's y
    /// gives: before mid-move, at about mid-move, and overshooting.
    func testTheOutlineIsTheSeedsPathAtSeveralProgresses() throws {
        // The seed's spring: UIKit's animateWithDuration:1 usingSpringWithDamping:0.85 (the default).
        let jelly = Jelly(width: 240, height: 200)
        let scene = try jelly.scene()
        let evaluator = try XCTUnwrap(scene.tree).makeEvaluator()
        let (from, to) = jelly.ends, size = jelly.block
        var progresses: [Double] = []
        for t in [0.12, 0.2, 0.3, 0.95] {
            let item = try XCTUnwrap(evaluator.presentation(at: t).items.first)
            let y = item.input.position.y
            let p = 1 - (y - to) / (from - to)
            progresses.append(p)
            let d = size.height / 2 * (0.5 - abs(p - 0.5))
            let left = ((Double(jelly.width) - size.width) / 2).rounded(), top = y - size.height / 2
            // Both quadratics have x linear in their parameter (controls at the middle), so at
            // s = (x - left) / W: top edge y = top + d (1 - 2 s (1 - s)), bottom y = top + H - 2 s (1 - s) d.
            // Exact in y, 64 columns a pixel in x.
            var expected = RGBAImage(width: scene.width, height: scene.height, fill: scene.background)
            for px in Int(left)..<Int(left + size.width) {
                for row in 0..<scene.height {
                    var covered = 0.0
                    for k in 0..<64 {
                        let x = Double(px) + (Double(k) + 0.5) / 64, s = (x - left) / size.width
                        let q = 2 * s * (1 - s)
                        let upper = top + d * (1 - q), lower = top + size.height - q * d
                        covered += max(0, min(lower, Double(row + 1)) - max(upper, Double(row)))
                    }
                    if covered > 0 { expected[px, row] = Reference.composite(jelly.color, covered / 64, scene.background) }
                }
            }
            let cpu = try Frames.render(CPURenderer(), scene, at: [t])[0]
            // Chords within 0.05 px of the curve: up to 13/255 where an edge runs nearly along a row.
            assertImagesMatch(cpu, expected, mean: 0.3, max: 16, name: "jelly-seed-\(t)")
        }
        XCTAssert(progresses.contains { $0 > 0.2 && $0 < 0.45 }, "a progress before mid-move: \(progresses)")
        XCTAssert(progresses.contains { $0 > 0.45 && $0 < 0.9 }, "a progress about mid-move: \(progresses)")
        XCTAssert(progresses.contains { $0 > 1 }, "an overshoot: \(progresses)")
    }

    /// Down, then back up: the block's columns never change, its rows do;
    /// the middle column is pushed further up than the corners (both edges
    /// bow the same way, across the motion).
    func testTheBlockMovesVerticallyAndBothEdgesBowTheSameWay() throws {
        var jelly = Jelly(width: 200, height: 200)
        jelly.background = RGBA8(0, 0, 0)
        jelly.color = RGBA8(255, 255, 255)
        let scene = try jelly.scene()
        func covered(_ image: RGBAImage, column x: Int) -> [Int] { (0..<image.height).filter { image[x, $0].r > 127 } }
        func columns(_ image: RGBAImage) -> [Int] { (0..<image.width).filter { !covered(image, column: $0).isEmpty } }
        let start = try Frames.render(CPURenderer(), scene, at: [0])[0]
        let down = try Frames.render(CPURenderer(), scene, at: [jelly.leg - 0.01])[0]
        let middle = try Frames.render(CPURenderer(), scene, at: [0.2])[0]
        XCTAssertEqual(columns(start), columns(down))
        XCTAssertLessThan(covered(start, column: 100).first!, covered(down, column: 100).first! - 50, "it moved down")
        let left = Int(jelly.block.width > 0 ? ((200 - jelly.block.width) / 2).rounded() : 0) + 1
        let midTop = covered(middle, column: 100).first!, cornerTop = covered(middle, column: left).first!
        let midBottom = covered(middle, column: 100).last!, cornerBottom = covered(middle, column: left).last!
        XCTAssertLessThan(midTop, cornerTop, "the top edge's middle leads")
        XCTAssertLessThan(midBottom, cornerBottom, "the bottom edge's middle leads the same way")
    }

    /// Frame t drawn directly equals frame t drawn after 300 other frames,
    /// and a time that is not finite draws without failing.
    func testAFrameDependsOnItsTimeAlone() throws {
        let jelly = Jelly(width: 300, height: 120)
        let scene = try jelly.scene()
        let t = 1.9 * jelly.leg
        for (backend, renderer) in try renderers() {
            let direct = try Frames.render(backend == .cpu ? CPURenderer() : try GLRenderer(context: try glRenderer().context), scene, at: [t])[0]
            try renderer.prepare(scene: scene)
            let target = try renderer.makeTarget()
            var i = 0
            while i < 300 { try renderer.draw(time: Double(i) / 100, into: target); i += 1 }
            try renderer.draw(time: t, into: target)
            assertImagesMatch(try target.readback(), direct, mean: 0, max: 0, name: "jelly-determinism-\(backend)")
            try renderer.draw(time: .nan, into: target)
        }
    }
}
