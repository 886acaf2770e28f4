import WaveCore
import WaveEffects
@testable import WaveGL
import WaveTestSupport
import XCTest

/// Every effect of the registry through both strategies, in one loop: a
/// new effect is tested here without editing this file. Each is drawn as
/// the command line draws it (its registry entry, the default settings, its
/// standard count), snapped to whole pixels where it moves, at several
/// times; the GL frame must equal the CPU's within the effect's declared
/// agreement (1/255 mean and 8/255 max where both compute coverage alike;
/// 64/255 max where GL samples turned pictures, as for the crates).
final class EveryEffectThroughBothBackendsTests: XCTestCase {
    func testEveryRegisteredEffectMatchesOnBothBackends() throws {
        let settings = try EffectScenes.settings()
        var drawn: [String] = []
        for effect in Effects.all {
            let scene = try EffectScenes.scene(effect, settings)
            let times = [0, 0.35, 1.1, 2.45]
            let cpu = try Frames.render(CPURenderer(), scene, at: times)
            // Under both driver policies: a software driver's (clip copies, split boxes) and a GPU's, forced here too,
            // so the paths a real GPU takes are drawn and checked on llvmpipe.
            let renderer = try glRenderer(), policy = renderer.prefersCopies
            var gl: [RGBAImage] = []
            for prefersCopies in [!policy, policy] {
                renderer.prefersCopies = prefersCopies
                defer { renderer.prefersCopies = policy }
                // The driver's own policy last: its frames are the ones counted below.
                gl = try Frames.render(renderer, scene, at: times)
                XCTAssertEqual(pendingGLErrors(), [])
                let name = "effect-\(effect.name)-\(prefersCopies ? "software" : "gpu")-policy"
                for i in times.indices {
                    assertImagesMatch(gl[i], cpu[i], mean: effect.agreement.mean, max: effect.agreement.max, name: "\(name)-\(i)")
                }
                // The plan names a mechanism and a reason for every item of the frame, one the planner knows.
                let plan = try renderer.explain(time: times[1])
                let items = try XCTUnwrap(scene.tree).makeEvaluator().presentation(at: times[1])
                // (A replicator's copies are one item here, each copy one on the CPU.)
                XCTAssertEqual(plan.isEmpty, items.items.isEmpty && items.maskItems.isEmpty, name)
                XCTAssertLessThanOrEqual(plan.count, items.items.count + items.maskItems.count, name)
                for p in plan {
                    XCTAssert(GLMechanism.allCases.contains { p.mechanism == $0.name } || p.mechanism.hasPrefix("coverage picture, "), "\(name): \(p)")
                    XCTAssertFalse(p.reason.isEmpty, "\(name): \(p)")
                }
            }
            // Each strategy counts its pixels (`PixelCounts`) without changing them: every pixel written at least once
            // (cleared, copied or painted over the background), the CPU painting all of them in software, GL none.
            for (renderer, frame) in [(try glRenderer(), gl[2]), (CPURenderer(), cpu[2])] as [(Renderer & PixelCounting, RGBAImage)] {
                let counts = PixelCounts(width: scene.width, height: scene.height)
                renderer.pixelCounts = counts
                defer { renderer.pixelCounts = nil }
                let counted = try Frames.render(renderer, scene, at: [times[2]])[0]
                let name = "\(effect.name) on \(renderer.backend)"
                XCTAssertEqual(ImageComparison.difference(counted, frame).maxAbsolute, 0, "\(name): counting changed the frame")
                XCTAssertGreaterThanOrEqual(counts.totals.written, scene.width * scene.height, name)
                XCTAssertLessThanOrEqual(counts.totals.blended, counts.totals.written, name)
                XCTAssertEqual(counts.updatedPixels, renderer.backend == .cpu ? scene.width * scene.height : 0, name)
                if renderer.backend == .gl { XCTAssertEqual(counts.totals.rasterized, 0, name) }
            }
            // Something was drawn: not the background alone.
            let plain = RGBAImage(width: scene.width, height: scene.height, fill: scene.background)
            XCTAssertGreaterThan(ImageComparison.difference(cpu[2], plain).maxAbsolute, 50, "\(effect.name) drew nothing")
            drawn.append(effect.name.rawValue)
        }
        XCTAssertEqual(drawn, Effects.names)
    }
}
