/// The paint step: turns coverage from the rasteriser into pixels of a
/// caller-owned pixmap, compositing one layer's paint source-over onto what
/// is already there. Allocates nothing; the tables it reads are made once
/// per scene (`FillProgram`).

/// One fill, prepared: for a solid colour, its 256 coverage levels over the
/// scene's background, the common case of a layer over clear background.
public final class FillProgram {
    let fill: Fill
    let sourcePacked: UInt32
    let isOpaqueSolid: Bool
    let backgroundPacked: UInt32
    /// Solid fills: level i = the colour at coverage i/255 over the background.
    private let overBackground: UnsafeMutablePointer<UInt32>

    public init(fill: Fill, background: RGBA8) {
        self.fill = fill
        backgroundPacked = background.packed
        overBackground = .allocate(capacity: 256)
        switch fill {
        case let .solid(c):
            sourcePacked = c.packed
            isOpaqueSolid = c.a == 255
            for i in 0...255 { overBackground[i] = sourceOver(c, coverage: Double(i) / 255, onto: background).packed }
        case .linearGradient:
            sourcePacked = 0
            isOpaqueSolid = false
            overBackground.initialize(repeating: 0, count: 256)
        }
    }

    deinit { overBackground.deallocate() }

    /// Pixels [x0, x1) of `out` (scene row `y`) at coverage level/255, level > 0.
    @inline(__always)
    func blit(_ out: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int, level: Int) {
        switch fill {
        case let .solid(color):
            if level == 255 && isOpaqueSolid {
                (out + x0).update(repeating: sourcePacked, count: x1 - x0)
                return
            }
            let coverage = Double(level) / 255
            for x in x0..<x1 {
                let d = out[x]
                out[x] = d == backgroundPacked ? overBackground[level]
                                               : sourceOver(color, coverage: coverage, onto: RGBA8(packed: d)).packed
            }
        case let .linearGradient(gradient):
            let coverage = Double(level) / 255, py = Double(y) + 0.5
            for x in x0..<x1 {
                let c = gradient.color(atX: Double(x) + 0.5, y: py)
                out[x] = composite(c, coverage: coverage, onto: RGBA8(packed: out[x])).packed
            }
        }
    }
}

/// One layer's paint as the rasteriser's blitter, for one frame.
public struct PaintBlitter: CoverageBlitter {
    let view: PixmapView
    let left: FillProgram
    let right: FillProgram
    /// Columns from here on use `right`.
    let split: Int

    public init(view: PixmapView, left: FillProgram, right: FillProgram, split: Int) {
        self.view = view
        self.left = left
        self.right = right
        self.split = split
    }

    @inline(__always)
    public mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
        if level == 0 { return }
        let out = view.row(row)
        if x1 <= split {
            left.blit(out, y: row, from: x0, to: x1, level: level)
        } else if x0 >= split {
            right.blit(out, y: row, from: x0, to: x1, level: level)
        } else {
            left.blit(out, y: row, from: x0, to: split, level: level)
            right.blit(out, y: row, from: split, to: x1, level: level)
        }
    }
}

/// A colour chosen per frame (a dot's tint and opacity) composited
/// source-over: nothing to prepare, so it serves content whose colour moves.
public struct ColorBlitter: CoverageBlitter {
    let view: PixmapView
    let color: ColorValue
    let opacity: Double

    public init(view: PixmapView, color: ColorValue, opacity: Double) {
        self.view = view
        self.color = color
        self.opacity = opacity
    }

    @inline(__always)
    public mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
        if level == 0 { return }
        let out = view.row(row)
        let coverage = Double(level) / 255 * opacity
        for x in x0..<x1 { out[x] = composite(color, coverage: coverage, onto: RGBA8(packed: out[x])).packed }
    }
}

/// Coverage levels as bytes (0...255), one per pixel: what the GL backend
/// uploads once as a coverage texture, and what tests read.
public struct CoverageBytes: CoverageBlitter {
    let rowZero: UnsafeMutablePointer<UInt8>
    let rowStride: Int

    public init(rowZero: UnsafeMutablePointer<UInt8>, rowStride: Int) {
        self.rowZero = rowZero
        self.rowStride = rowStride
    }

    @inline(__always)
    public mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
        (rowZero + row * rowStride + x0).update(repeating: UInt8(truncatingIfNeeded: level), count: x1 - x0)
    }
}
