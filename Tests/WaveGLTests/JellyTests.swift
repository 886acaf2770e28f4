import WaveCore
import WaveEffects
@testable import WaveGL
import WaveTestSupport
import XCTest

/// The jelly through both backends: they agree, the bulge is a quarter of
/// the height at mid-move (read from the pixels), and a frame depends on
/// its time alone.
final class JellyTests: XCTestCase {
    nonisolated(unsafe) private static var shared: Result<GLRenderer, Error>?

    private func glRenderer() throws -> GLRenderer {
        if Self.shared == nil { Self.shared = Result { try GLRenderer() } }
        return try GLRequirement.need("a headless GL context") { try Self.shared!.get() }
    }

    private func renderers() throws -> [(Backend, Renderer)] { [(.cpu, CPURenderer()), (.gl, try glRenderer())] }

    func testBothBackendsAgreeThroughAWholeLoop() throws {
        for bounce in [0.5, 0, -0.4] {
            var jelly = Jelly(width: 400, height: 160)
            jelly.spring = Spring(duration: 0.7, bounce: bounce)
            let scene = try jelly.scene()
            let times = [0.0, 0.05, 0.11, 0.2, 0.31, 0.5, 1.0, 1.7, 2.3, 3.333]
            let cpu = try Frames.render(CPURenderer(), scene, at: times)
            let gl = try Frames.render(try glRenderer(), scene, at: times)
            for i in times.indices { assertImagesMatch(gl[i], cpu[i], mean: 1, max: 8, name: "jelly-\(bounce)-\(i)") }
        }
    }

    /// At p = 0.5 the bulge is height/4: the middle column covers the height
    /// plus a bulge at the top and at the bottom.
    func testTheBulgeAtMidMoveIsAQuarterOfTheHeight() throws {
        var jelly = Jelly(width: 500, height: 200)
        jelly.background = RGBA8(0, 0, 0)
        jelly.color = RGBA8(255, 255, 255)
        let scene = try jelly.scene()
        let block = jelly.block
        // The time the move is half done, by bisection on the simulation.
        let simulation = SpringBlock.Simulation(block)
        var lo = 0.0, hi = 0.5
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if simulation.pose(at: mid).progress < 0.5 { lo = mid } else { hi = mid }
        }
        let pose = simulation.pose(at: hi)
        XCTAssertEqual(pose.progress, 0.5, accuracy: 1e-6)
        for (backend, renderer) in try renderers() {
            let image = try Frames.render(renderer, scene, at: [hi])[0]
            func columnCoverage(_ x: Int) -> Double {
                (0..<image.height).reduce(0.0) { $0 + Double(image.pixels[($1 * image.width + x) * 4]) / 255 }
            }
            let middle = Int((pose.x + block.width / 2).rounded(.down))
            let bulge = (columnCoverage(middle) - block.height) / 2
            XCTAssertEqual(bulge, block.height / 4, accuracy: 0.15, "\(backend): bulge at the middle")
            // Near the corners the edges are barely pushed.
            let nearCorner = Int((pose.x + 2).rounded(.down))
            XCTAssertLessThan(columnCoverage(nearCorner) - block.height, 0.2 * block.height / 4 * 2, "\(backend)")
        }
    }

    /// Frame t drawn directly equals frame t drawn after 1000 earlier
    /// frames of the same move (the simulation stepping on from them), after
    /// frames of other moves, and at a negative time, on each backend.
    func testAFrameDependsOnItsTimeAlone() throws {
        let jelly = Jelly(width: 300, height: 120)
        let scene = try jelly.scene()
        let legSeconds = Double(jelly.block.stepsPerLeg) * jelly.block.step
        let t = legSeconds + 0.9 * legSeconds // late in the second move
        for (backend, renderer) in try renderers() {
            func direct(_ time: Double) throws -> RGBAImage {
                // A fresh renderer of the same backend (GL on the same context).
                let fresh: Renderer = backend == .cpu ? CPURenderer() : try GLRenderer(context: try glRenderer().context)
                let image = try Frames.render(fresh, scene, at: [time])[0]
                try renderer.prepare(scene: scene) // makes the renderer's context current again
                return image
            }
            try renderer.prepare(scene: scene)
            let target = try renderer.makeTarget()
            // 1000 frames from the start of the same move up to just before t.
            for i in 0..<1000 { try renderer.draw(time: legSeconds + Double(i) / 1000 * 0.89 * legSeconds, into: target) }
            try renderer.draw(time: t, into: target)
            assertImagesMatch(try target.readback(), try direct(t), mean: 0, max: 0, name: "jelly-determinism-\(backend)")
            for time in [-1.234, 7 * legSeconds + 0.3, t] {
                try renderer.draw(time: time, into: target)
                assertImagesMatch(try target.readback(), try direct(time), mean: 0, max: 0, name: "jelly-determinism-\(backend)-\(time)")
            }
        }
    }
}
