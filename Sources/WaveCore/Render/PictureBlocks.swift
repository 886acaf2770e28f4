/// Where a picture is clear, found once: which 8x8 blocks of its texels a
/// bilinear sample can find anything but clear texels in, so the CPU
/// strategy's picture loop skips a clear sample without reading its four
/// texels (line art shown small, mostly clear, otherwise costs a texel fetch
/// from a large image for every pixel it covers).
///
/// A sample whose top-left texel is (i, j) reads texels i...i+1 and
/// j...j+1; it belongs to block (i >> 3, j >> 3). A block is marked when any
/// sample belonging to it reads a texel with alpha above 0: a texel marks
/// the blocks of the samples at (i - 1 or i, j - 1 or j). A sample in an
/// unmarked block is clear, exactly as its four texels would say.
package final class PictureBlocks {
    /// Texels per block side, as a shift.
    static let shift = 3
    /// Blocks across.
    let columns: Int
    /// One bit a block, eight blocks a byte in row order: set where a sample in it may show.
    private let marks: UnsafeMutablePointer<UInt8>
    private let count: Int

    package init(_ image: RGBAImage) {
        let columns = (image.width + 7) >> Self.shift, rows = (image.height + 7) >> Self.shift
        (self.columns, count) = (columns, columns * rows)
        let bytes = Swift.max(1, (count + 7) >> 3)
        marks = .allocate(capacity: bytes)
        marks.initialize(repeating: 0, count: bytes)
        let width = image.width
        image.pixels.withUnsafeBufferPointer { bytes in
            for j in 0..<image.height {
                var i = 0
                while i < width {
                    if bytes[(j * width + i) * 4 + 3] != 0 {
                        for sampleRow in Swift.max(0, j - 1)...j {
                            let row = (sampleRow >> Self.shift) * columns
                            mark(row + (Swift.max(0, i - 1) >> Self.shift))
                            mark(row + (i >> Self.shift))
                        }
                    }
                    i += 1
                }
            }
        }
    }

    deinit { marks.deallocate() }

    @inline(__always)
    private func mark(_ block: Int) { marks[block >> 3] |= 1 << UInt8(block & 7) }

    @inline(__always)
    private func isMarked(_ block: Int) -> Bool { marks[block >> 3] & (1 << UInt8(block & 7)) != 0 }

    /// Whether the sample whose top-left texel is (i, j), both inside the image, reads only clear texels.
    @inline(__always)
    func isClear(i: Int, j: Int) -> Bool { !isMarked((j >> Self.shift) &* columns &+ (i >> Self.shift)) }

    /// The fraction of blocks marked (for tests and the curious).
    package var markedFraction: Double {
        var marked = 0
        for k in 0..<count where isMarked(k) { marked += 1 }
        return count == 0 ? 0 : Double(marked) / Double(count)
    }
}
