/// How the CPU strategy rebuilds a repeating curve's outline for an offset:
/// the grid samples in view, joined by lines and closed down the band's
/// bottom, straight into the rasteriser (no path is stored per frame).
extension RepeatingCurve {
    /// Adds the band's filled region, moved by content offset `u` (pixels,
    /// any value), for screen columns [0, width), clipped to the band's rows.
    @inline(__always)
    public func addOutline(offset u: Double, width: Int, to rasterizer: CoverageRasterizer) {
        rasterizer.clipRows = rows
        addOutline(offset: u, width: width, into: rasterizer)
        rasterizer.clipRows = 0..<rasterizer.height
    }

    /// The band's filled region as `sink` receives it (the caller clips to
    /// the band's rows). The sample before the first visible column and the
    /// one after the last are included, so the end segments clip exactly.
    @inlinable @inline(__always)
    public func addOutline<Sink: OutlineSink>(offset u: Double, width: Int, into sink: Sink) {
        let k = samplesPerPixel
        let d = samples.count
        let start = wrapOffset(u + Double(shift), period: period) * Double(k)
        let first = Int(start.rounded(.down))
        let last = Int((start + Double(width * k)).rounded(.up))
        let top = Double(rows.lowerBound), bottom = Double(rows.upperBound)
        // k is a power of two, so multiplying by 1/k is exact (and cheaper than dividing).
        let step = 1 / Double(k), lead = (Double(first) - start) * step
        @inline(__always) func x(_ n: Int) -> Double { Double(n - first) * step + lead }

        samples.withUnsafeBufferPointer { ys in
            sink.move(to: x(first), bottom)
            var m = first % d
            for n in first...last {
                sink.line(to: x(n), top + ys[m])
                m += 1
                if m == d { m = 0 }
            }
            sink.line(to: x(last), bottom)
            sink.close()
        }
    }
}
