import CMallocCounter
import WaveBench
import WaveCore
import WaveEffects
import Foundation
import XCTest

/// The allocation figures are only worth something if the counter counts.
final class MallocCounterTests: XCTestCase {
    final class Payload { var values = [Int]() }

    func testTheCounterSeesAnAllocationMadeOnPurpose() {
        waves_malloc_counter_start()
        let payload = Payload()
        payload.values.reserveCapacity(64)
        let counted = waves_malloc_counter_stop()
        withExtendedLifetime(payload) {}
        XCTAssertEqual(waves_malloc_counter_active(), 1, "the interposed malloc is not the one in use")
        XCTAssertGreaterThanOrEqual(counted, 2, "a class instance and an array buffer were allocated")
    }

    /// Allocations are attributed to the project's code or to other libraries
    /// by the caller's address: the bench reports the GL driver's apart.
    func testAllocationsAreAttributedToTheirCaller() {
        waves_malloc_counter_start()
        let payload = Payload()
        payload.values.reserveCapacity(64)
        let own = waves_malloc_counter_stop()
        withExtendedLifetime(payload) {}
        XCTAssertGreaterThanOrEqual(own, 2)
        XCTAssertEqual(waves_malloc_counter_foreign(), 0, "Swift's own allocations were counted as foreign")

        let source = strdup("made inside libc")! // bridged outside the window
        waves_malloc_counter_start()
        let copy = strdup(source) // libc calls malloc itself: not the project's code
        let total = waves_malloc_counter_stop()
        free(copy)
        free(source)
        XCTAssertEqual(total, 1)
        XCTAssertEqual(waves_malloc_counter_foreign(), 1, "libc's allocation was counted as the project's")
    }

    /// The live-heap gauge the Lottie bench's memory figures come from: a
    /// block's size is in it while held and out of it when freed (calloc,
    /// realloc's move and free included), and the peak keeps the most.
    func testTheHeapGaugeFollowsBlocksInAndOut() throws {
        // The gauge is the whole process's: other threads' blocks come and go meanwhile, so each figure is held to
        // within a slack far smaller than the blocks measured.
        let size: Int64 = 8 << 20, slack: Int64 = 1 << 20
        let before = waves_heap_live()
        waves_heap_peak_reset()
        let block = try XCTUnwrap(calloc(Int(size), 1))
        XCTAssertGreaterThanOrEqual(waves_heap_live() - before, size - slack, "calloc's block is not in the live heap")
        let grown = try XCTUnwrap(realloc(block, Int(2 * size)))
        let held = waves_heap_live() - before
        XCTAssertGreaterThanOrEqual(held, 2 * size - slack)
        XCTAssertLessThan(held, 3 * size - slack, "realloc's old block was not taken out")
        free(grown)
        XCTAssertLessThan(waves_heap_live() - before, slack, "the freed block is still in the live heap")
        XCTAssertGreaterThanOrEqual(waves_heap_peak() - before, 2 * size - slack, "the peak forgot the grown block")
        waves_heap_peak_reset()
        XCTAssertGreaterThanOrEqual(waves_heap_peak(), waves_heap_live() - slack)
    }

    /// A renderer whose frame allocates on purpose, measured through the
    /// benchmark's own frame meter: the meter's window must see it.
    final class AllocatingRenderer: Renderer {
        let backend = Backend.cpu
        let rendererName = "allocates on purpose"
        var kept: [Payload] = []
        func prepare(scene: Scene) throws {}
        func makeTarget() throws -> RenderTarget { Pixmap(width: 1, height: 1) }
        func draw(time: Double, into target: RenderTarget) throws {
            let payload = Payload()
            payload.values.reserveCapacity(16)
            kept.append(payload) // escapes: it cannot live on the stack
        }
        func finish() {}
    }

    private func strategy(_ renderer: Renderer, scene: Scene) throws -> BenchStrategy {
        let host = BenchHost(deviceName: nil, unavailableReason: "no GPU in this test", makeRenderer: { _ in renderer },
                             makeUploader: { nil }, makeTimer: { nil })
        let strategy = try BenchStrategy(.cpu, host: host)
        try strategy.prepare(scene: scene)
        return strategy
    }

    func testAMeasuredFrameThatAllocatesIsCounted() throws {
        let meter = FrameMeter(strategy: try strategy(AllocatingRenderer(), scene: Scene(width: 1, height: 1)),
                               timer: nil, capacity: 4)
        try meter.frame(time: 0, measured: false)
        for i in 1...4 { try meter.frame(time: Double(i) / 60, measured: true) }
        let summary = try XCTUnwrap(meter.summary())
        XCTAssertEqual(summary.frames, 4)
        XCTAssertGreaterThanOrEqual(summary.allocationsPerFrame, 2)
    }

    /// The CPU strategy's own work (path rebuild and rasterisation, no GL
    /// upload, whose driver allocates) allocates nothing once warm. In a
    /// debug build this includes Swift's unspecialised code: a `for x in
    /// array` over structs allocates per element there (a read coroutine's
    /// frame), so the draw path iterates by index.
    func testAMeasuredCPUFrameAfterWarmUpAllocatesNothing() throws {
        var cells = SineCells(width: 64, height: 48)
        cells.cellCount = 3
        let meter = FrameMeter(strategy: try strategy(CPURenderer(), scene: try cells.scene()), timer: nil, capacity: 3)
        try meter.frame(time: 0, measured: false)
        for i in 1...3 { try meter.frame(time: Double(i) / 60, measured: true) }
        XCTAssertEqual(meter.allocations, 0, "heap allocations in 3 warm CPU frames")
    }
}
