import Foundation

/// How the CPU strategy rebuilds the outlines that change every frame (the
/// voice band at its phase and amplitude), straight into the rasteriser: no
/// path is stored and nothing is allocated.

extension ModulatedSine {
    /// Adds the band for one frame across [0, width]: its top edge left to
    /// right, then its bottom edge right to left (kept in `bottoms`, which
    /// holds at least width * samplesPerPixel + 1 values).
    @inline(__always)
    public func addOutline(_ frame: Frame, width: Int, bottoms: UnsafeMutablePointer<Double>, to rasterizer: CoverageRasterizer) {
        let k = Double(samplesPerPixel), n = width * samplesPerPixel
        for m in 0...n {
            let x = Double(m) / k
            let (top, bottom) = edges(atX: x, width: width, frame)
            bottoms[m] = bottom
            if m == 0 { rasterizer.move(to: x, top) } else { rasterizer.line(to: x, top) }
        }
        for m in stride(from: n, through: 0, by: -1) { rasterizer.line(to: Double(m) / k, bottoms[m]) }
        rasterizer.close()
    }
}
