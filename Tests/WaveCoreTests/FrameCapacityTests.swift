import Foundation
import WaveCore
import XCTest

/// The most items a frame can hold (`LayerTreeEvaluator.capacity`): layers
/// shown one after another (their opacity 0 outside their spans, as an
/// imported file's in and out points are) need room for the ones shown at
/// once, followed through a parent's begin time and speed, inside a loop
/// or a time remapping (on its own clock), and once for every copy of a
/// replicator whose copies run at different times. Every frame checked
/// here fits the capacity.
final class FrameCapacityTests: XCTestCase {
    private let white = Contents.box(Box(color: RGBA8(255, 255, 255)))

    /// Ten boxes, box k shown from 2k to 2k + 1 (seconds of its parent's time).
    private func oneAtATime() -> [Layer] {
        (0..<10).map { k in
            var box = Layer(name: "box \(k)", frame: Rect(x: 0, y: 0, width: 4, height: 4), contents: white)
            box.opacity = Timeline(0, animations: [.basic(BasicAnimation(from: 1.0, to: 1.0, duration: 1, beginTime: 2 * Double(k)))])
            return box
        }
    }

    private func holder(_ sublayers: [Layer]) -> Layer {
        Layer(name: "holder", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: sublayers)
    }

    /// `count` boxes shown together from `from` for `seconds` of the scene's time: beside a holder, they count
    /// with whatever it shows then only if its times were followed back right.
    private func shownAt(_ from: Double, for seconds: Double, count: Int = 1) -> Layer {
        var boxes = holder((0..<count).map { k in Layer(name: "beside \(k)", frame: Rect(x: 0, y: 0, width: 4, height: 4), contents: white) })
        boxes.opacity = Timeline(0, animations: [.basic(BasicAnimation(from: 1.0, to: 1.0, duration: seconds, beginTime: from))])
        return boxes
    }

    /// The capacity's items, after checking that no frame from -5 s to 60 s (every 1/8 s and at each span's
    /// edges, and at NaN and infinite times) holds more items, masks or mask items than the capacity, and that
    /// some frame holds `shownAtOnce` items.
    private func capacity(_ root: Layer, shownAtOnce: Int, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let ev = try LayerTreeEvaluator(root: root, sources: DrivenSources([]))
        var list = ev.makeList()
        var most = 0
        let steps: [Double] = (-40...480).map { Double($0) / 8 }
        let edges: [Double] = (0...40).flatMap { k in [Double(k).nextDown, Double(k), Double(k).nextUp] }
        let times = steps + edges + [Double.nan, .infinity, -.infinity]
        for t in times {
            ev.evaluate(at: t, into: &list)
            XCTAssertLessThanOrEqual(list.items.count, ev.capacity.items, "at \(t)", file: file, line: line)
            XCTAssertLessThanOrEqual(list.masks.count, ev.capacity.masks, "masks at \(t)", file: file, line: line)
            XCTAssertLessThanOrEqual(list.maskItems.count, ev.capacity.maskItems, "mask items at \(t)", file: file, line: line)
            most = max(most, list.items.count)
        }
        XCTAssertEqual(most, shownAtOnce, "the most items any frame checked drew", file: file, line: line)
        return ev.capacity.items
    }

    func testLayersShownOneAfterAnotherNeedRoomForOne() throws {
        XCTAssertEqual(try capacity(holder(oneAtATime()), shownAtOnce: 1), 1)
        // Two overlapping: box 0 and a box shown over all of them.
        var always = Layer(name: "always", frame: Rect(x: 0, y: 0, width: 4, height: 4), contents: white)
        always.opacity = .constant(0.5)
        XCTAssertEqual(try capacity(holder(oneAtATime() + [always]), shownAtOnce: 2), 2)
        // A layer never shown needs no room.
        var never = always
        never.opacity = .constant(0)
        XCTAssertEqual(try capacity(holder(oneAtATime() + [never]), shownAtOnce: 1), 1)
    }

    func testAParentsBeginTimeAndSpeedAreFollowedBack() throws {
        var late = holder(oneAtATime())
        late.timing = MediaTiming(beginTime: 3, duration: .infinity, speed: 2, timeOffset: 0.5, fillMode: .both)
        XCTAssertEqual(try capacity(holder([late]), shownAtOnce: 1), 1)
        // Before its begin time its time holds at the offset, 0.5: box 0 shows from the start until 3.25 s, beside
        // a box shown from -2 s to -1 s.
        XCTAssertEqual(try capacity(holder([late, shownAt(-2, for: 1)]), shownAtOnce: 2), 2)
        // At 4 s its time is 2.5: box 1, beside a box shown from 3.9 s to 4.1 s (box 1 alone on the scene's clock
        // would show from 2 s to 3 s).
        XCTAssertEqual(try capacity(holder([late, shownAt(3.9, for: 0.2)]), shownAtOnce: 2), 2)
        // Under a parent of its own that is shown only for part of the time: still one.
        var shownPart = holder([late])
        shownPart.opacity = Timeline(0, animations: [.basic(BasicAnimation(from: 1.0, to: 1.0, duration: 4, beginTime: 4))])
        XCTAssertEqual(try capacity(holder([shownPart]), shownAtOnce: 1), 1)
    }

    func testALoopCountsTheMostAtOnceInsideOnePass() throws {
        var loop = holder(oneAtATime())
        loop.timing = MediaTiming(beginTime: 0, duration: 20, repeatCount: .infinity, fillMode: .both)
        XCTAssertEqual(try capacity(holder([loop]), shownAtOnce: 1), 1)
        // At 20.5 s the loop shows box 0 again, beside a box shown from 20.25 s to 20.75 s.
        XCTAssertEqual(try capacity(holder([loop, shownAt(20.25, for: 0.5)]), shownAtOnce: 2), 2)
    }

    func testARemappingsClockAndADelayedReplicatorsCopies() throws {
        var remapped = holder(oneAtATime())
        remapped.timeRemap = Timeline(0, animations: [.basic(BasicAnimation(from: 0.0, to: 20.0, duration: 40))])
        XCTAssertEqual(try capacity(holder([remapped]), shownAtOnce: 1), 1, "on the remapping's own clock, one at a time")
        // From 1.5 s to 2 s the remapping's time is 0.75 to 1: box 0, beside a box shown then.
        XCTAssertEqual(try capacity(holder([remapped, shownAt(1.5, for: 0.5)]), shownAtOnce: 2), 2)
        // Copies 2 s apart: each copy's time differs, so each copy counts its most at once (1), at every time.
        var box = oneAtATime()[0]
        box.opacity = Timeline(0, animations: [.basic(BasicAnimation(from: 1.0, to: 1.0, duration: 1, beginTime: 0))])
        var replicated = holder([box])
        replicated.replicator = Replicator(count: 3, instanceDelay: 2)
        XCTAssertEqual(try capacity(holder([replicated]), shownAtOnce: 1), 3)
        // Two copies 5 s apart: copy 1 shows from 5 s to 6 s, beside three boxes shown then (four at once; taken
        // as copies at one time, the room would be for three).
        replicated.replicator = Replicator(count: 2, instanceDelay: 5)
        XCTAssertGreaterThanOrEqual(try capacity(holder([replicated, shownAt(5, for: 1, count: 3)]), shownAtOnce: 4), 4)
        replicated.replicator = Replicator(count: 3)
        XCTAssertEqual(try capacity(holder([replicated]), shownAtOnce: 3), 3, "copies at one time: shown together")
    }

    /// The parent times at which a timing's local time lies in a span, and the span of its effect.
    func testTimingSpansFollowTheTimingModel() throws {
        let timing = MediaTiming(beginTime: 3, duration: .infinity, speed: 2, timeOffset: 0.5, fillMode: .both)
        let span = try XCTUnwrap(timing.parentTimes(whereLocalIn: (2.5, 4.5)))
        XCTAssertEqual(span.lower, 4, accuracy: 1e-12)
        XCTAssertEqual(span.upper, 5, accuracy: 1e-12)
        // Local time holds at the offset before the begin time: a span around it reaches back for ever.
        XCTAssertEqual(timing.parentTimes(whereLocalIn: (0, 1.5))?.lower, -.infinity)
        XCTAssertNil(MediaTiming(beginTime: 0, duration: 2, repeatCount: 3).parentTimes(whereLocalIn: (0, 1)), "a repeating pass")
        let once = MediaTiming(beginTime: 1, duration: 2)
        XCTAssertTrue(once.effectSpan == (1, 3))
        XCTAssertTrue(MediaTiming(beginTime: 1, duration: 2, fillMode: .forwards).effectSpan == (1, .infinity))
        XCTAssertTrue(MediaTiming(beginTime: 1, duration: 2, speed: -1, fillMode: .removed).effectSpan == (-1, 1))
    }
}
