/// The paint step: turns coverage from the rasteriser into pixels of a
/// caller-owned pixmap, compositing one layer's paint source-over onto what
/// is already there. Allocates nothing; the tables it reads are made once
/// per scene (`FillProgram`).

/// One fill, prepared: for a solid colour, its 256 coverage levels over the
/// scene's background, the common case of a layer over clear background.
package final class FillProgram {
    let fill: Fill
    let sourcePacked: UInt32
    let isOpaqueSolid: Bool
    let backgroundPacked: UInt32
    /// Solid fills: level i = the colour at coverage i/255 over the
    /// background (level 0 the background itself); nil for gradients.
    let overBackground: UnsafeMutablePointer<UInt32>?

    package init(fill: Fill, background: RGBA8) {
        self.fill = fill
        backgroundPacked = background.packed
        switch fill {
        case let .solid(c):
            sourcePacked = c.packed
            isOpaqueSolid = c.a == 255
            let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
            table[0] = background.packed
            for i in 1...255 { table[i] = sourceOver(c, coverage: Double(i) / 255, onto: background).packed }
            overBackground = table
        case .linearGradient, .gradient:
            sourcePacked = 0
            isOpaqueSolid = false
            overBackground = nil
        }
    }

    deinit { overBackground?.deallocate() }

    /// Pixels [x0, x1) of `out` (scene row `y`), not yet drawn this frame, at
    /// coverage level/255 over the background, level 0 included: the clear
    /// and the paint in one write.
    @inline(never)
    func blitOverBackground(_ out: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int, level: Int) {
        if let overBackground { return fillPixels(out + x0, with: overBackground[level], count: x1 - x0) }
        fillPixels(out + x0, with: backgroundPacked, count: x1 - x0)
        if level > 0 { blit(out, y: y, from: x0, to: x1, level: level) }
    }

    /// Pixels [x0, x1) of `out` (scene row `y`) at coverage level/255, level > 0.
    @inline(never)
    func blit(_ out: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int, level: Int) {
        switch fill {
        case let .solid(color):
            if level == 255 && isOpaqueSolid { return fillPixels(out + x0, with: sourcePacked, count: x1 - x0) }
            let coverage = Double(level) / 255
            for x in x0..<x1 {
                let d = out[x]
                out[x] = d == backgroundPacked ? overBackground![level]
                                               : sourceOver(color, coverage: coverage, onto: RGBA8(packed: d)).packed
            }
        case .linearGradient, .gradient:
            let coverage = Double(level) / 255
            for x in x0..<x1 {
                let c = fill.color(x: x, y: y)
                out[x] = composite(c, coverage: coverage, onto: RGBA8(packed: out[x])).packed
            }
        }
    }
}

/// One shape's paint as the rasteriser's blitter, for one frame, inside its columns.
package struct PaintBlitter: CoverageBlitter {
    let view: PixmapView
    let fill: FillProgram
    let columns: Range<Int>
    /// The rows resolved have not been cleared this frame: every pixel is
    /// written once, as the paint over the background (the renderer's
    /// clear folded into the paint).
    let clears: Bool
    /// The common case, kept small enough to inline into the rasteriser's
    /// resolve loop: a solid fill painted over the background, so a pixel
    /// at level i is simply this table's entry i.
    let levels: UnsafeMutablePointer<UInt32>?

    package init(view: PixmapView, fill: FillProgram, clears: Bool = false, columns: Range<Int>? = nil) {
        self.view = view
        self.fill = fill
        self.columns = columns ?? 0..<view.width
        self.clears = clears
        levels = clears ? fill.overBackground : nil
    }

    @inline(__always)
    package mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
        let x0 = Swift.max(x0, columns.lowerBound), x1 = Swift.min(x1, columns.upperBound)
        if x0 >= x1 { return }
        let out = view.row(row)
        if let levels {
            if x1 - x0 == 1 { out[x0] = levels[level] } else { fillPixels(out + x0, with: levels[level], count: x1 - x0) }
            return
        }
        blitInGeneral(out, row: row, from: x0, to: x1, level: level)
    }

    @inline(never)
    private func blitInGeneral(_ out: UnsafeMutablePointer<UInt32>, row: Int, from x0: Int, to x1: Int, level: Int) {
        if clears {
            fill.blitOverBackground(out, y: row, from: x0, to: x1, level: level)
        } else if level > 0 {
            fill.blit(out, y: row, from: x0, to: x1, level: level)
        }
    }
}

/// Coverage levels as bytes (0...255), one per pixel: what the GL backend
/// uploads once as a coverage texture, and what tests read.
package struct CoverageBytes: CoverageBlitter {
    let rowZero: UnsafeMutablePointer<UInt8>
    let rowStride: Int
    /// Only these columns are written (every one of them, uncovered ones as 0).
    let columns: Range<Int>

    package init(rowZero: UnsafeMutablePointer<UInt8>, rowStride: Int, columns: Range<Int> = 0..<Int.max) {
        self.rowZero = rowZero
        self.rowStride = rowStride
        self.columns = columns
    }

    @inline(__always)
    package mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
        let a = Swift.max(x0, columns.lowerBound), b = Swift.min(x1, columns.upperBound)
        if a < b { (rowZero + row * rowStride + a).update(repeating: UInt8(truncatingIfNeeded: level), count: b - a) }
    }
}
