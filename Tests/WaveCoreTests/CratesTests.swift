import CMallocCounter
import WaveCore
import WaveEffects
import WaveTestSupport
import XCTest

/// The crates as a layer tree driven by the physics: a frame at time t is
/// the same rendered alone or as the last of a sequence (state from fixed
/// steps counted from 0, never from the frames' deltas), the crates fall,
/// and a frame after the first allocates nothing on the CPU strategy.
final class CratesTests: XCTestCase {
    func testAFrameAtATimeIsTheSameAloneOrAfterASequence() throws {
        var crates = Crates(width: 200, height: 160)
        crates.count = 25
        let alone = try Frames.render(CPURenderer(), try crates.scene(), at: [1.5])[0]
        // One scene (one simulation) drawn at 1/60 s frames up to 1.5 s, then once more at 1.5 s after going back.
        let times = (0...90).map { Double($0) / 60 } + [0.25, 1.5]
        let sequence = try Frames.render(CPURenderer(), try crates.scene(), at: times)
        assertImagesMatch(sequence[90], alone, mean: 0, max: 0, name: "crates-sequence")
        assertImagesMatch(sequence[times.count - 1], alone, mean: 0, max: 0, name: "crates-after-going-back")
        XCTAssertGreaterThan(ImageComparison.difference(sequence[0], alone).maxAbsolute, 50, "nothing fell")
    }

    func testTheCratesFallAndStayInTheFrame() throws {
        let scene = try Crates(width: 300, height: 300).scene()
        let evaluator = try scene.tree!.makeEvaluator()
        let start = evaluator.presentation(at: 0).items.filter { $0.primitive == .box }.map(\.transform.ty)
        let later = evaluator.presentation(at: 3).items.filter { $0.primitive == .box }.map(\.transform.ty)
        XCTAssertEqual(start.count, later.count)
        XCTAssertTrue(zip(start, later).contains { $1 > $0 + 50 }, "no crate fell 50 px in 3 s: \(start) -> \(later)")
        XCTAssertTrue(later.allSatisfy { (0...300).contains($0) }, "\(later)")
    }

    /// After the first frames (Chipmunk's pools sized), a frame allocates nothing.
    func testAFrameAllocatesNothingOnceWarm() throws {
        var crates = Crates(width: 200, height: 160)
        crates.count = 40
        let renderer = CPURenderer()
        try renderer.prepare(scene: try crates.scene())
        let target = try renderer.makeTarget()
        for i in 0..<120 { try renderer.draw(time: Double(i) / 60, into: target) }
        var allocations: UInt64 = 0
        for i in 120..<180 {
            waves_malloc_counter_start()
            try renderer.draw(time: Double(i) / 60, into: target)
            allocations += waves_malloc_counter_stop()
        }
        XCTAssertEqual(allocations, 0, "allocations in 60 frames of 40 crates")
    }
}
