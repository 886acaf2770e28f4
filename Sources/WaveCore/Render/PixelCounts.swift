/// What one strategy did to a frame's pixels, counted by the strategy as it
/// drew (the tuning chapter's Instruments overlays, and their totals):
/// - *updated*: the pixels of the frame painted in software this frame
///   (Flash Updated Regions): for the CPU strategy every pixel it writes,
///   for the GL strategy those drawn from a picture the CPU painted again
///   this frame;
/// - *blended layers*: at each pixel, how many writes composited over what
///   was there (Color Blended Layers): a CPU paint store, or a fragment of a
///   GL draw with blending on (a quad blends every fragment it covers,
///   transparent ones too: that is the GPU's work).
///
/// Counting is for diagnosis (the demo's O key, one counted frame per
/// strategy in the benchmark): it costs a pass over each span and, on GL, a
/// stencil read-back, so timed frames are drawn without it.
package final class PixelCounts {
    /// One frame's totals, in pixels.
    package struct Totals: Equatable, Sendable {
        /// Pixels whose coverage or colour the CPU computed: every span its
        /// rasteriser resolved (for the frame, a mask, a shadow or a
        /// picture, each pass counted), every pixel it blurred or sampled
        /// from a picture (clears are not counted: nothing is computed).
        package var rasterized = 0
        /// Stores into the frame, one per pixel per write: clears, copies, paint and fragments.
        package var written = 0
        /// The stores of `written` that composited over the frame's pixel (read it).
        package var blended = 0
        /// Pixels stored into buffers other than the frame, drawn this frame
        /// for it: masks, shadows, pictures painted again.
        package var offscreen = 0

        package init(rasterized: Int = 0, written: Int = 0, blended: Int = 0, offscreen: Int = 0) {
            self.rasterized = rasterized; self.written = written; self.blended = blended; self.offscreen = offscreen
        }
    }

    package let width: Int
    package let height: Int
    package var totals = Totals()
    /// Per pixel, rows top to bottom: writes that blended there (at most 255).
    package let blendedLayers: UnsafeMutableBufferPointer<UInt8>
    /// Per pixel, rows top to bottom: 1 where software painted it this frame.
    package let updated: UnsafeMutableBufferPointer<UInt8>

    package init(width: Int, height: Int) {
        self.width = Swift.max(0, width)
        self.height = Swift.max(0, height)
        blendedLayers = .allocate(capacity: self.width * self.height)
        blendedLayers.initialize(repeating: 0)
        updated = .allocate(capacity: self.width * self.height)
        updated.initialize(repeating: 0)
    }

    deinit {
        blendedLayers.deallocate()
        updated.deallocate()
    }

    /// Starts a frame: no pixel written.
    package func reset() {
        totals = Totals()
        blendedLayers.update(repeating: 0)
        updated.update(repeating: 0)
    }

    /// Pixels `columns` of scene row `row` stored into the frame once each:
    /// blended or not, painted in software or not. Rows and columns outside the frame are ignored.
    @inline(__always)
    package func write(row: Int, columns: Range<Int>, blends: Bool, software: Bool) {
        let a = Swift.max(0, columns.lowerBound), b = Swift.min(width, columns.upperBound)
        guard row >= 0, row < height, a < b else { return }
        totals.written += b - a
        let base = row * width
        if blends {
            totals.blended += b - a
            var x = a
            while x < b {
                if blendedLayers[base + x] < 255 { blendedLayers[base + x] += 1 }
                x += 1
            }
        }
        if software { (updated.baseAddress! + base + a).update(repeating: 1, count: b - a) }
    }

    /// Rows x columns stored into the frame once each.
    package func write(rows: Range<Int>, columns: Range<Int>, blends: Bool, software: Bool) {
        var row = Swift.max(0, rows.lowerBound)
        while row < Swift.min(height, rows.upperBound) {
            write(row: row, columns: columns, blends: blends, software: software)
            row += 1
        }
    }

    /// Marks rows x columns as painted in software this frame without counting a store
    /// (the GL strategy's pictures painted again: their fragments are counted as blended where drawn).
    package func markUpdated(rows: Range<Int>, columns: Range<Int>) {
        let a = Swift.max(0, columns.lowerBound), b = Swift.min(width, columns.upperBound)
        guard a < b else { return }
        var row = Swift.max(0, rows.lowerBound)
        while row < Swift.min(height, rows.upperBound) {
            (updated.baseAddress! + row * width + a).update(repeating: 1, count: b - a)
            row += 1
        }
    }

    /// Pixels in the updated region, each once.
    package var updatedPixels: Int {
        var n = 0
        for v in updated where v != 0 { n += 1 }
        return n
    }

    /// The most layers blended at any pixel.
    package var mostBlendedLayers: Int { Int(blendedLayers.max() ?? 0) }
}

/// A renderer that can count what it does to each frame's pixels.
package protocol PixelCounting: AnyObject {
    /// While set (to counts of the scene's size), every frame drawn resets
    /// and fills it; nil (the default) counts nothing and costs nothing.
    var pixelCounts: PixelCounts? { get set }
}

/// Where a counted blitter stores.
enum CountedDestination {
    /// The frame: each store blends or not.
    case frame(blends: Bool)
    /// A mask's, a shadow's or an edge's buffer.
    case offscreen
}

/// A blitter that counts what the one it wraps does: each span it is given
/// is resolved coverage (`rasterized`), unless it was kept; where the wrapped blitter stores
/// into the frame, the stores (covered pixels only, unless it writes
/// uncovered ones too, and only where a mask lets them through); where it
/// stores into a buffer of its own, `offscreen`.
struct CountingBlitter<Inner: CoverageBlitter>: CoverageBlitter {
    var inner: Inner
    let counts: PixelCounts
    let columns: Range<Int>
    let destination: CountedDestination
    /// Spans of level 0 are written too (a paint over the background, coverage bytes).
    let writesUncovered: Bool
    /// A frame-sized mask: only pixels it lets through (above 0) are stored.
    let mask: UnsafeMutablePointer<UInt8>?
    /// The spans are the rasteriser's work this frame (false: coverage kept from an earlier one, `KeptCoverage`).
    var resolved = true

    @inline(__always)
    mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
        inner.blit(row: row, from: x0, to: x1, level: level)
        let a = Swift.max(x0, columns.lowerBound), b = Swift.min(x1, columns.upperBound)
        guard a < b else { return }
        if resolved { counts.totals.rasterized += b - a }
        guard level > 0 || writesUncovered else { return }
        switch destination {
        case .offscreen:
            counts.totals.offscreen += b - a
        case let .frame(blends):
            guard let mask else { return counts.write(row: row, columns: a..<b, blends: blends, software: true) }
            let line = mask + row * counts.width
            var x = a
            while x < b {
                if line[x] > 0 { counts.write(row: row, columns: x..<x + 1, blends: blends, software: true) }
                x += 1
            }
        }
    }
}

extension CoverageRasterizer {
    /// `resolve(rows:into:)`, each span counted into `counts` where it is set
    /// (see `CountingBlitter`); without counts, the blitter alone.
    @inline(__always)
    func resolve<B: CoverageBlitter>(rows: Range<Int>, into blitter: inout B, counting counts: PixelCounts?, columns: Range<Int>,
                                     as destination: CountedDestination, writesUncovered: Bool = false,
                                     mask: UnsafeMutablePointer<UInt8>? = nil) {
        guard let counts else { return resolve(rows: rows, into: &blitter) }
        var counted = CountingBlitter(inner: blitter, counts: counts, columns: columns, destination: destination,
                                      writesUncovered: writesUncovered, mask: mask)
        resolve(rows: rows, into: &counted)
        blitter = counted.inner
    }

    /// `fill(rows:into:outline:)`, or where the outline is one rectangle on the grid `fill(rows:into:rectangle:)`,
    /// each span counted into `counts` where it is set, as `resolve` counts them.
    @inline(__always)
    func fill<B: CoverageBlitter>(rows: Range<Int>, into blitter: inout B, counting counts: PixelCounts?, columns: Range<Int>,
                                  as destination: CountedDestination, writesUncovered: Bool = false,
                                  mask: UnsafeMutablePointer<UInt8>? = nil, rectangle: GridRectangle? = nil, outline: () -> Void) {
        guard let counts else {
            if let rectangle { return fill(rows: rows, into: &blitter, rectangle: rectangle) }
            return fill(rows: rows, into: &blitter, outline: outline)
        }
        var counted = CountingBlitter(inner: blitter, counts: counts, columns: columns, destination: destination,
                                      writesUncovered: writesUncovered, mask: mask)
        if let rectangle { fill(rows: rows, into: &counted, rectangle: rectangle) } else { fill(rows: rows, into: &counted, outline: outline) }
        blitter = counted.inner
    }
}
