/// The CPU strategy's coverage kept from one frame to the next, for outlines
/// that land on exactly the same pixels again: what rlottie and ThorVG do
/// with a shape's spans while its path and matrix stand still.
///
/// An item whose fixed path (or a dynamic path's outline that says it is the
/// same, `DynamicPath.outlineIdentity`) is drawn by the same node, under the
/// same transform, over the same area and by the same fill rule as the last
/// frame gets the same runs of coverage from the rasteriser, so they are played
/// again instead of its edges being added and resolved. Everything after
/// coverage (paint, opacity, mask, blend mode) is worked out again every
/// frame, so a frame is byte-identical with or without it. An outline is
/// kept only once it has stood still for two frames in a row: one that
/// changes every frame costs the comparison and nothing else.
///
/// Its memory is fixed when the painter is made, and no frame allocates: a
/// slot per place in the presentation list (its items, then its mask items)
/// and a store of the runs, in 16-bit words (`KeepingBlitter`). When the
/// store is full, outlines not kept yet are rasterised as before; it is
/// emptied, at the start of a frame, only once a quarter of it holds runs no
/// slot keeps any more.
package final class KeptCoverage {
    /// What makes a slot's runs the same as the rasteriser's would be.
    package struct Key: Equatable {
        /// Layer coordinates to scene pixels.
        var transform: Affine
        /// The area's rows and columns: the rasteriser's clip and the sub-paths it leaves out.
        var top: Int32, bottom: Int32, left: Int32, right: Int32
        /// The compiled node, of the tree's or of a mask's (which slot says).
        var node: Int32
        var evenOdd: Bool
        /// Which of a dynamic path's outlines (`DynamicPath.outlineIdentity`); 0 for a fixed path.
        var outline: Int

        package init(node: Int, outline: Int, transform: Affine, area: (rows: Range<Int>, columns: Range<Int>), evenOdd: Bool) {
            self.node = Int32(truncatingIfNeeded: node)
            self.outline = outline
            self.transform = transform
            (top, bottom) = (Int32(truncatingIfNeeded: area.rows.lowerBound), Int32(truncatingIfNeeded: area.rows.upperBound))
            (left, right) = (Int32(truncatingIfNeeded: area.columns.lowerBound), Int32(truncatingIfNeeded: area.columns.upperBound))
            self.evenOdd = evenOdd
        }
    }

    /// What to do with a slot's outline this frame.
    package enum Use {
        /// Play these words again (`KeptCoverage.play`).
        case play(UnsafeBufferPointer<UInt16>)
        /// Rasterise it through a `KeepingBlitter`, then `keep(_:slot:)`.
        case rasterizeAndKeep
        /// Rasterise it: it changed since the last frame, or the store is full.
        case rasterize
    }

    /// A slot's runs: `count` words of the store from `start`; `count` -1: its
    /// key was seen once and nothing is kept; -2: the slot is empty.
    private struct Runs {
        var start: Int32 = 0
        var count: Int32 = -2
    }

    package let slotCount: Int
    package let capacity: Int
    private let keys: UnsafeMutablePointer<Key>
    private let runs: UnsafeMutablePointer<Runs>
    private let store: UnsafeMutablePointer<UInt16>
    /// Behind a pointer: a class's stored `var`s, written per item, would each pay the exclusivity check.
    private let state: UnsafeMutablePointer<(used: Int, live: Int, full: Bool)>

    /// `slots`: the list's items and mask items; `words`: the store's size (`KeepingBlitter`'s 16-bit words).
    package init(slots: Int, words capacity: Int) throws {
        // No store, no slots: nothing is kept.
        let capacity = Swift.max(0, capacity), slots = capacity > 0 ? Swift.max(0, slots) : 0
        (slotCount, self.capacity) = (slots, capacity)
        let bytes = slots * (MemoryLayout<Key>.stride + MemoryLayout<Runs>.stride) + capacity * 2
        (keys, runs, store) = try CheckedMemory.allocating(bytes: bytes, for: "the coverage kept between frames") {
            (.allocate(capacity: slots), .allocate(capacity: slots), .allocate(capacity: capacity))
        }
        runs.initialize(repeating: Runs(), count: slotCount)
        state = .allocate(capacity: 1)
        state.initialize(to: (0, 0, false))
    }

    deinit {
        keys.deallocate()
        runs.deallocate()
        store.deallocate()
        state.deallocate()
    }

    /// The store's size for a scene, in words: half a byte a pixel (an eighth of an RGBA frame), at least
    /// 4 kB and at most 8 MB (a huge frame's outlines rarely cover it); none where the words cannot say its
    /// columns and rows (`encodes`).
    package static func words(width: Int, height: Int) -> Int {
        encodes(width: width, height: height) ? Swift.min(Swift.max(2048, width * height / 4), 4 << 20) : 0
    }

    /// Whether runs in a frame this size fit the words: a span's first column below `pixelsMark` (a scene is
    /// at most `Scene.maxRenderDimension`, 16384, wide; a cached picture's painter may be wider) and every
    /// row in 16 bits (a scene may be taller).
    package static func encodes(width: Int, height: Int) -> Bool { width <= Int(pixelsMark) && height <= Int(UInt16.max) }

    /// Starts a frame: a full store whose dead runs reach a quarter of it is emptied (every outline kept
    /// so far is kept again the next time it stands still).
    package func startFrame() {
        let s = state.pointee
        guard s.full, s.used - s.live >= capacity / 4 else { return }
        for slot in 0..<slotCount where runs[slot].count >= 0 { runs[slot].count = -1 }
        state.pointee = (0, 0, false)
    }

    /// What to do with `slot`'s outline, whose key this frame is `key`.
    @inline(__always)
    package func use(slot: Int, key: Key) -> Use {
        guard slot >= 0 && slot < slotCount else { return .rasterize }
        let kept = runs[slot]
        if kept.count != -2 && keys[slot] == key {
            if kept.count >= 0 { return .play(UnsafeBufferPointer(start: store + Int(kept.start), count: Int(kept.count))) }
            // A full store keeps nothing more until `startFrame` empties it.
            return state.pointee.full ? .rasterize : .rasterizeAndKeep
        }
        if kept.count > 0 { state.pointee.live -= Int(kept.count) }
        keys[slot] = key
        runs[slot] = Runs(start: 0, count: -1)
        return .rasterize
    }

    /// A blitter that keeps the runs it passes on, from the end of the store.
    package func keeping<Inner: CoverageBlitter>(_ inner: Inner) -> KeepingBlitter<Inner> {
        KeepingBlitter(inner: inner, store: store, start: state.pointee.used, end: capacity)
    }

    /// Keeps what `blitter` kept as `slot`'s runs, unless the store ran out first.
    package func keep<Inner>(_ blitter: KeepingBlitter<Inner>, slot: Int) {
        guard !blitter.overflowed else {
            state.pointee.full = true
            return
        }
        let count = blitter.next - blitter.start
        runs[slot] = Runs(start: Int32(blitter.start), count: Int32(count))
        state.pointee.used = blitter.next
        state.pointee.live += count
        state.pointee.full = blitter.next == capacity
    }

    /// Plays kept runs into `blitter` as the rasteriser gave them; where `counts` is set, its stores are
    /// counted, but not as rasterised (`CountingBlitter`).
    @inline(__always)
    static func play<B: CoverageBlitter>(_ kept: UnsafeBufferPointer<UInt16>, into blitter: inout B, counting counts: PixelCounts?,
                                         columns: Range<Int>, as destination: CountedDestination, mask: UnsafeMutablePointer<UInt8>? = nil) {
        // Each blitter plays the words its own way (`CoverageBlitter.play(kept:)`).
        guard let counts else { return blitter.play(kept: kept) }
        var counted = CountingBlitter(inner: blitter, counts: counts, columns: columns, destination: destination,
                                      writesUncovered: false, mask: mask, resolved: false)
        counted.play(kept: kept)
        blitter = counted.inner
    }

    /// Reads the words `KeepingBlitter` wrote, a call to the blitter a run: a row (`rowMark`, then the row), a run
    /// of pixels at one level each (`pixelsMark` with its first column, the count, then the levels, a byte each in
    /// order, two to a word), or a span (its first column, past-last column and level).
    @inline(__always)
    static func playRuns<B: CoverageBlitter>(_ kept: UnsafeBufferPointer<UInt16>, into blitter: inout B) {
        guard let words = kept.baseAddress else { return }
        var k = 0, row = 0
        while k < kept.count {
            let word = words[k]
            if word == rowMark {
                row = Int(words[k &+ 1])
                k &+= 2
            } else if word & pixelsMark != 0 {
                let x = Int(word & ~pixelsMark), count = Int(words[k &+ 1])
                blitter.blit(row: row, from: x, levels: UnsafeRawPointer(words + (k &+ 2)), count: count)
                k &+= 2 &+ (count &+ 1) >> 1
            } else {
                blitter.blit(row: row, from: Int(word), to: Int(words[k &+ 1]), level: Int(words[k &+ 2]))
                k &+= 3
            }
        }
    }

    /// A row's first word; a run of single pixels' first word, its first column in the low 14 bits (a span's
    /// first word, its first column, is below both: `encodes`).
    static let rowMark: UInt16 = 0xFFFF, pixelsMark: UInt16 = 0x4000
}

/// Passes coverage on to the blitter it wraps and keeps each covered run
/// (level 0 draws nothing in the blitters that keep theirs) in the store
/// of a `KeptCoverage`, until the store's end, in 16-bit words
/// (`KeptCoverage.play`): a mark where the row changes, a span in three
/// words, and the rasteriser's most common call, one pixel at its own
/// level next to the last one, in a byte.
package struct KeepingBlitter<Inner: CoverageBlitter>: CoverageBlitter {
    package var inner: Inner
    fileprivate let store: UnsafeMutablePointer<UInt16>
    fileprivate let start: Int
    fileprivate let end: Int
    fileprivate var next: Int
    fileprivate var overflowed = false
    private var row = -1
    /// The run of single pixels being written: its first word (-1: none), length, and the column after it.
    private var pixels = -1, pixelCount = 0, pixelsEnd = 0

    fileprivate init(inner: Inner, store: UnsafeMutablePointer<UInt16>, start: Int, end: Int) {
        (self.inner, self.store, self.start, self.end, next) = (inner, store, start, end, start)
    }

    @inline(__always)
    package mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
        inner.blit(row: row, from: x0, to: x1, level: level)
        guard level > 0 && !overflowed else { return }
        if row != self.row {
            guard fits(2) else { return }
            write(KeptCoverage.rowMark, UInt16(truncatingIfNeeded: row))
            self.row = row
            pixels = -1
        }
        if x1 &- x0 != 1 {
            guard fits(3) else { return }
            write(UInt16(truncatingIfNeeded: x0), UInt16(truncatingIfNeeded: x1), UInt16(truncatingIfNeeded: level))
            pixels = -1
        } else if pixels >= 0 && x0 == pixelsEnd {
            if pixelCount & 1 == 0 {
                guard fits(1) else { return }
                write(0)
            }
            setLevel(level, at: pixelCount)
            pixelCount &+= 1
            pixelsEnd &+= 1
            store[pixels &+ 1] = UInt16(truncatingIfNeeded: pixelCount)
        } else {
            guard fits(3) else { return }
            (pixels, pixelCount, pixelsEnd) = (next, 1, x1)
            write(KeptCoverage.pixelsMark | UInt16(truncatingIfNeeded: x0), 1, 0)
            setLevel(level, at: 0)
        }
    }

    /// The run's level `i` as a byte, in order after its count (as `play` reads them, whatever the machine's byte order).
    @inline(__always)
    private func setLevel(_ level: Int, at i: Int) {
        UnsafeMutableRawPointer(store + (pixels &+ 2)).storeBytes(of: UInt8(truncatingIfNeeded: level), toByteOffset: i, as: UInt8.self)
    }

    /// Whether `words` more fit in the store; where they do not, nothing more is kept.
    @inline(__always)
    private mutating func fits(_ words: Int) -> Bool {
        if next &+ words <= end { return true }
        overflowed = true
        return false
    }

    /// Appends one to three words (`fits` said they fit).
    @inline(__always)
    private mutating func write(_ a: UInt16, _ b: UInt16? = nil, _ c: UInt16? = nil) {
        store[next] = a
        next &+= 1
        if let b { store[next] = b; next &+= 1 }
        if let c { store[next] = c; next &+= 1 }
    }
}
