import Foundation
import WaveCore
import WaveLottie
import XCTest

/// The most items a frame can hold (`LayerTreeEvaluator.capacity`) on real
/// files: files of ../shared/lottie whose layers come and go (particles,
/// precompositions shown in turn, a time remapping, repeaters), evaluated
/// at every frame from a second before the animation to a second after it,
/// never hold more items, masks or mask items than it; and where a file's
/// layers are shown a few at a time, its room is for those, not for all.
final class FrameCapacityFilesTests: XCTestCase {
    func testNoFrameOfTheSharedFilesHoldsMoreThanItsCapacity() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.deletingLastPathComponent().appendingPathComponent("shared/lottie")
        // File, and the most items its capacity may be (nil: not held to one).
        let files: [(String, Int?)] = [("tractor.json", 120), ("1643-exploding-star.json", nil), ("loading.json", nil),
                                       ("1667-firework.json", 110), ("confetti.json", nil), ("you're_in!.json", nil),
                                       ("4479-fireworks.json", nil), ("mnemonics.json", nil), ("worm.json", nil),
                                       ("5317-fireworkds.json", nil), ("jolly_walker.json", nil)]
        for (file, most) in files {
            let animation = try LottieAnimation(contentsOf: folder.appendingPathComponent(file).path)
            let scene = try animation.scene(width: 64, height: 64, background: RGBA8(255, 255, 255)).scene
            let evaluator = try XCTUnwrap(scene.tree).makeEvaluator()
            var list = evaluator.makeList()
            let rate = animation.frameRate, frames = Int((animation.duration * rate).rounded(.up))
            var drawn = 0
            for frame in -Int(rate)...(frames + Int(rate)) {
                let t = Double(frame) / rate
                evaluator.evaluate(at: t, into: &list)
                drawn = max(drawn, list.items.count)
                XCTAssertLessThanOrEqual(list.items.count, evaluator.capacity.items, "\(file) at \(t): items")
                XCTAssertLessThanOrEqual(list.masks.count, evaluator.capacity.masks, "\(file) at \(t): masks")
                XCTAssertLessThanOrEqual(list.maskItems.count, evaluator.capacity.maskItems, "\(file) at \(t): mask items")
            }
            XCTAssertGreaterThan(drawn, 0, "\(file): drew nothing")
            if let most { XCTAssertLessThanOrEqual(evaluator.capacity.items, most, "\(file): room for \(evaluator.capacity.items) items, \(drawn) drawn at most") }
        }
    }
}
