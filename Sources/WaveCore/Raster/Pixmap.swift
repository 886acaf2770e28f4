/// The CPU strategy's drawing surface: RGBA8 pixels that the caller owns,
/// with any row stride (padded rows, or a negative stride for rows stored
/// bottom to top, the order OpenGL uploads and blits without flipping: that
/// choice belongs to the caller, not the renderer).

import CPixelFill

/// Sets `count` pixels from `start` to `value`: the C library's wmemset (a
/// 4-byte memset, vectorised for the machine) for long runs, a loop for short ones.
@inline(__always)
package func fillPixels(_ start: UnsafeMutablePointer<UInt32>, with value: UInt32, count: Int) {
    if count >= 64 { return waves_fill_pixels(start, value, count) }
    start.update(repeating: value, count: count)
}

/// Where row r of an image lies: `rowZero + r * rowStride` (words; a negative
/// stride stores the rows bottom to top). Plain values: passing it allocates nothing.
package struct PixmapView {
    package let rowZero: UnsafeMutablePointer<UInt32>
    package let width: Int
    package let height: Int
    package let rowStride: Int

    package init(rowZero: UnsafeMutablePointer<UInt32>, width: Int, height: Int, rowStride: Int) {
        self.rowZero = rowZero; self.width = width; self.height = height; self.rowStride = rowStride
    }

    @inline(__always)
    package func row(_ r: Int) -> UnsafeMutablePointer<UInt32> { rowZero + r * rowStride }
}

/// Packed RGBA words (R in the lowest byte), `width` a row, rows `rowStride`
/// words apart; a render target of the CPU renderer. It owns its memory, or
/// draws into memory the caller lends it.
public final class Pixmap: RenderTarget {
    public let width: Int
    public let height: Int
    /// Words from row r to row r + 1 (top to bottom): at least `width` in
    /// magnitude; negative when rows are stored bottom to top.
    package let rowStride: Int
    /// The lowest address and the words from there to the end of the last row in memory.
    package let memory: UnsafeMutableBufferPointer<UInt32>
    private let owned: Bool

    /// Its own memory: `rowStride` words a row (default `width`; `-width` for bottom-up rows).
    public init(width: Int, height: Int, rowStride: Int? = nil) {
        let stride = rowStride ?? width
        precondition(width > 0 && height > 0 && abs(stride) >= width)
        self.width = width
        self.height = height
        self.rowStride = stride
        memory = .allocate(capacity: abs(stride) * (height - 1) + width)
        memory.initialize(repeating: 0)
        owned = true
    }

    /// The caller's memory: row 0 (the top row) starts at `rowZero`, row r
    /// at `rowZero + r * rowStride`; it must outlive the pixmap.
    package init(wrapping rowZero: UnsafeMutablePointer<UInt32>, width: Int, height: Int, rowStride: Int) {
        precondition(width > 0 && height > 0 && abs(rowStride) >= width)
        self.width = width
        self.height = height
        self.rowStride = rowStride
        let lowest = rowStride >= 0 ? rowZero : rowZero + (height - 1) * rowStride
        memory = UnsafeMutableBufferPointer(start: lowest, count: abs(rowStride) * (height - 1) + width)
        owned = false
    }

    deinit { if owned { memory.deallocate() } }

    /// Rows stored bottom to top.
    package var isBottomUp: Bool { rowStride < 0 }

    package var view: PixmapView {
        let rowZero = rowStride >= 0 ? memory.baseAddress! : memory.baseAddress! + (height - 1) * -rowStride
        return PixmapView(rowZero: rowZero, width: width, height: height, rowStride: rowStride)
    }

    /// Every pixel set to `color`.
    public func fill(_ color: RGBA8) {
        fill(color, rows: 0..<height)
    }

    /// Every pixel of `rows` set to `color`.
    package func fill(_ color: RGBA8, rows: Range<Int>) {
        let rows = rows.clamped(to: 0..<height)
        if rows.isEmpty { return }
        let v = view
        if abs(rowStride) == width {
            // The rows are one run of memory, whichever way they are stored.
            let first = rowStride > 0 ? v.row(rows.lowerBound) : v.row(rows.upperBound - 1)
            return fillPixels(first, with: color.packed, count: rows.count * width)
        }
        for r in rows { fillPixels(v.row(r), with: color.packed, count: width) }
    }

    public func readback() throws -> RGBAImage {
        let v = view
        var pixels = try CheckedMemory.allocating(bytes: width * height * 4, for: "reading back a \(width)x\(height) frame") {
            [UInt8](repeating: 0, count: width * height * 4)
        }
        pixels.withUnsafeMutableBytes { out in
            for r in 0..<height {
                out.baseAddress!.advanced(by: r * width * 4).copyMemory(from: v.row(r), byteCount: width * 4)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
