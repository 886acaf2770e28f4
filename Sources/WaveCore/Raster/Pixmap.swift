/// The CPU strategy's drawing surface: RGBA8 pixels that the caller owns,
/// with any row order in memory (bottom-up rows are what OpenGL uploads and
/// blits without flipping; that choice belongs to the caller).

/// Where row r of an image lies: `rowZero + r * rowStride` (words; a negative
/// stride stores the rows bottom to top). Plain values: passing it allocates nothing.
public struct PixmapView {
    public let rowZero: UnsafeMutablePointer<UInt32>
    public let width: Int
    public let height: Int
    public let rowStride: Int

    @inline(__always)
    public func row(_ r: Int) -> UnsafeMutablePointer<UInt32> { rowZero + r * rowStride }
}

/// Owns `width * height` packed RGBA words (R in the lowest byte) and is a
/// render target of the CPU renderer.
public final class Pixmap: RenderTarget {
    public let width: Int
    public let height: Int
    /// Rows bottom to top in memory (OpenGL's order).
    public let storesRowsBottomUp: Bool
    private let storage: UnsafeMutableBufferPointer<UInt32>

    public init(width: Int, height: Int, storesRowsBottomUp: Bool = false) {
        precondition(width > 0 && height > 0)
        self.width = width
        self.height = height
        self.storesRowsBottomUp = storesRowsBottomUp
        storage = .allocate(capacity: width * height)
        storage.initialize(repeating: 0)
    }

    deinit { storage.deallocate() }

    public var view: PixmapView {
        storesRowsBottomUp
            ? PixmapView(rowZero: storage.baseAddress! + (height - 1) * width, width: width, height: height, rowStride: -width)
            : PixmapView(rowZero: storage.baseAddress!, width: width, height: height, rowStride: width)
    }

    /// The words in memory order (for uploading without a copy).
    public var memory: UnsafeMutableBufferPointer<UInt32> { storage }

    /// Every pixel set to `color`.
    public func fill(_ color: RGBA8) { storage.update(repeating: color.packed) }

    public func readback() throws -> RGBAImage {
        var image = RGBAImage(width: width, height: height, pixels: Array(UnsafeRawBufferPointer(storage)))
        if storesRowsBottomUp { image.flipRows() }
        return image
    }
}
