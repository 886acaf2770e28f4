/// How the CPU strategy rebuilds a repeating curve's outline for an offset:
/// the grid samples in view, joined by lines and closed down the band's
/// bottom, straight into the rasteriser (no path is stored per frame).
extension RepeatingCurve {
    /// Adds the band's filled region, moved by content offset `u` (pixels,
    /// any value), for screen columns [0, width). The sample before the
    /// first visible column and the one after the last are included, so the
    /// rasteriser clips the end segments exactly.
    @inline(__always)
    public func addOutline(offset u: Double, width: Int, to rasterizer: CoverageRasterizer) {
        let k = samplesPerPixel
        let d = samples.count
        let start = wrapOffset(u + Double(shift), period: period) * Double(k)
        let first = Int(start.rounded(.down))
        let last = Int((start + Double(width * k)).rounded(.up))
        let top = Double(rows.lowerBound), bottom = Double(rows.upperBound)
        let kd = Double(k), lead = (Double(first) - start) / kd
        @inline(__always) func x(_ n: Int) -> Double { Double(n - first) / kd + lead }

        rasterizer.clipRows = rows
        samples.withUnsafeBufferPointer { ys in
            rasterizer.move(to: x(first), bottom)
            var m = first % d
            for n in first...last {
                rasterizer.line(to: x(n), top + ys[m])
                m += 1
                if m == d { m = 0 }
            }
            rasterizer.line(to: x(last), bottom)
            rasterizer.close()
        }
        rasterizer.clipRows = 0..<rasterizer.height
    }
}
