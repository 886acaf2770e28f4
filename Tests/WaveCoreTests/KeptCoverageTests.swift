@testable import WaveCore
import XCTest

/// `KeptCoverage`: what it plays back is exactly what the rasteriser gave
/// (every covered call, in order, with its row, columns and level), it keeps
/// an outline only once it stood still, and a store that runs out keeps
/// nothing rather than a part.
final class KeptCoverageTests: XCTestCase {
    /// Remembers every call.
    private struct Calls: CoverageBlitter {
        var calls: [[Int]] = []
        mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) { calls.append([row, x0, x1, level]) }
    }

    private let key = KeptCoverage.Key(node: 3, outline: 0, transform: Affine(a: 1, b: 0, c: 0, d: 1, tx: 0.25, ty: 7), area: (0..<100, 0..<300),
                                       evenOdd: false)

    /// Calls as the rasteriser makes them, row by row and left to right: runs at level 0, spans, single pixels
    /// next to each other (kept a byte each) and apart, at the largest column and level, from a fixed seed.
    private func rasteriserCalls(rows: Int, seed: UInt64) -> [[Int]] {
        var random = seed
        func next(_ n: Int) -> Int {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Int((random >> 33) % UInt64(n))
        }
        var calls: [[Int]] = []
        for row in 0..<rows {
            var x = 0
            while x < 16384 {
                let width = [1, 1, 1, 2, 7, 300][next(6)], level = [0, 255, 1, 128, next(256)][next(5)]
                let end = Swift.min(16384, x + width)
                calls.append([row * 37 % 16384, x, end, level])
                x = end + (next(4) == 0 ? 5 : 0)
                if next(40) == 0 { break }
            }
        }
        return calls
    }

    private func kept(_ calls: [[Int]], in store: KeptCoverage, slot: Int = 0) -> Calls {
        var keeping = store.keeping(Calls())
        for c in calls { keeping.blit(row: c[0], from: c[1], to: c[2], level: c[3]) }
        XCTAssertEqual(keeping.inner.calls, calls, "every call passed on while kept")
        store.keep(keeping, slot: slot)
        return keeping.inner
    }

    func testPlayingGivesBackEveryCoveredCallInOrder() throws {
        for seed in [1, 2, 3, 42] as [UInt64] {
            let store = try KeptCoverage(slots: 1, words: 1 << 20)
            guard case .rasterize = store.use(slot: 0, key: key) else { return XCTFail("kept on its first frame") }
            guard case .rasterizeAndKeep = store.use(slot: 0, key: key) else { return XCTFail("not kept when it stood still") }
            let calls = rasteriserCalls(rows: 60, seed: seed)
            _ = kept(calls, in: store)
            guard case let .play(words) = store.use(slot: 0, key: key) else { return XCTFail("nothing to play") }
            var played = Calls()
            KeptCoverage.play(words, into: &played, counting: nil, columns: 0..<16384, as: .offscreen)
            XCTAssertEqual(played.calls, calls.filter { $0[3] > 0 }, "seed \(seed)")
            // Single pixels side by side take a byte each: fewer words than 8 bytes a call.
            XCTAssertLessThan(words.count * 2, calls.filter { $0[3] > 0 }.count * 8)
        }
    }

    func testAnythingOfTheKeyChangedIsRasterisedAgain() throws {
        let store = try KeptCoverage(slots: 2, words: 4096)
        _ = store.use(slot: 0, key: key)
        _ = store.use(slot: 0, key: key)
        _ = kept([[0, 0, 5, 255]], in: store)
        var moved = key
        moved.transform.tx += 1e-9
        var other = key
        other.node = 4
        var filled = key
        filled.evenOdd = true
        var cut = key
        cut.right = 299
        for changed in [moved, other, filled, cut] {
            guard case .rasterize = store.use(slot: 0, key: changed) else { return XCTFail("\(changed) played as \(key)") }
            _ = store.use(slot: 0, key: key)
        }
        // Another slot's key is its own.
        guard case .rasterize = store.use(slot: 1, key: key) else { return XCTFail("slot 1 played slot 0's runs") }
        // A slot past the list keeps nothing.
        guard case .rasterize = store.use(slot: 2, key: key), case .rasterize = store.use(slot: 2, key: key) else {
            return XCTFail("a slot past the end was kept")
        }
    }

    func testAFullStoreKeepsNothingAndIsEmptiedOnceAQuarterIsDead() throws {
        let store = try KeptCoverage(slots: 2, words: 40)
        // Slot 0 keeps 12 pixels in a row (2 + 2 + 6 words).
        let pixels = (0..<12).map { [0, $0, $0 + 1, 200] }
        _ = store.use(slot: 0, key: key)
        _ = store.use(slot: 0, key: key)
        _ = kept(pixels, in: store)
        // Slot 1's outline does not fit in what is left: it is drawn, not kept, and slot 0 still plays.
        let spans = (0..<12).map { [$0, 0, 9, 255] }
        _ = store.use(slot: 1, key: key)
        _ = store.use(slot: 1, key: key)
        _ = kept(spans, in: store, slot: 1)
        // Nothing of it is kept, and a full store tries to keep nothing more.
        guard case .rasterize = store.use(slot: 1, key: key) else { return XCTFail("a part of an outline was kept") }
        guard case .play = store.use(slot: 0, key: key) else { return XCTFail("a full store dropped what it kept") }
        // A store full of live runs is not emptied; once slot 0 moves, its 10 dead words (a quarter) empty it.
        store.startFrame()
        guard case .play = store.use(slot: 0, key: key) else { return XCTFail("emptied with nothing dead") }
        var moved = key
        moved.transform.ty += 1
        _ = store.use(slot: 0, key: moved)
        store.startFrame()
        guard case .rasterizeAndKeep = store.use(slot: 1, key: key) else { return XCTFail("the emptied store keeps nothing") }
        let small = Array(spans.prefix(4))
        _ = kept(small, in: store, slot: 1)
        guard case let .play(words) = store.use(slot: 1, key: key) else { return XCTFail("the emptied store kept nothing") }
        var played = Calls()
        KeptCoverage.play(words, into: &played, counting: nil, columns: 0..<100, as: .offscreen)
        XCTAssertEqual(played.calls, small)
    }

    /// Columns the words cannot say (a cached picture's painter may be wider than a scene) and rows past 16
    /// bits (a scene may be taller): no store and no slot, so nothing is kept.
    func testSizesTheWordsCannotSayKeepNothing() throws {
        XCTAssertGreaterThan(KeptCoverage.words(width: 16384, height: 65535), 0)
        XCTAssertEqual(KeptCoverage.words(width: 16385, height: 10), 0)
        XCTAssertEqual(KeptCoverage.words(width: 10, height: 65536), 0)
        let none = try KeptCoverage(slots: 4, words: 0)
        XCTAssertEqual(none.slotCount, 0)
        for _ in 0..<3 {
            guard case .rasterize = none.use(slot: 0, key: key) else { return XCTFail("kept without a store") }
        }
    }

    /// A still shape 66,000 rows down a tall scene: its third frame is its first (row numbers past 16 bits
    /// would have been played back 65,536 rows up).
    func testATallScenesFramesStayTheSame() throws {
        var triangle = PathBuilder()
        try triangle.move(to: 0, 0); try triangle.line(to: 7, 2); try triangle.line(to: 1, 9); triangle.close()
        let shape = Contents.shape(Shape(path: triangle.path, fill: .solid(RGBA8(200, 40, 0, 230))))
        let root = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 70_000),
                         sublayers: [Layer(name: "low", frame: Rect(x: 0, y: 66_000.5, width: 8, height: 10), contents: shape),
                                     Layer(name: "high", frame: Rect(x: 0, y: 10.5, width: 8, height: 10), contents: shape)])
        let scene = Scene(width: 8, height: 70_000, tree: LayerTree(root: root))
        let renderer = CPURenderer()
        try renderer.prepare(scene: scene)
        let target = try renderer.makeTarget()
        var frames: [RGBAImage] = []
        for t in [0.0, 0.5, 1.0] {
            try renderer.draw(time: t, into: target)
            frames.append(try target.readback())
        }
        XCTAssert(frames[2] == frames[0], "a kept outline played into other rows")
    }
}
