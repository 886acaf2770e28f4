import Foundation

/// How the CPU strategy rebuilds the outlines that change every frame (a
/// dot at its scale, the voice band at its phase and amplitude, the jelly
/// block at its pose), straight into the rasteriser: no path is stored and
/// nothing is allocated.

extension RoundedRect {
    /// The largest distance allowed between a corner's ellipse and its chords, in pixels.
    public static let flatteningTolerance = 0.02

    /// Adds the shape scaled by (sx, sy) about `centre`. Each elliptical
    /// corner is a chain of chords through points on the ellipse, as many as
    /// keep every chord within `flatteningTolerance` of it.
    @inline(__always)
    public func addOutline(centre: Point, scaleX sx: Double, scaleY sy: Double, to rasterizer: CoverageRasterizer) {
        let hw = width / 2 * sx, hh = height / 2 * sy
        let rx = cornerRadius * sx, ry = cornerRadius * sy
        let inner = (x: hw - rx, y: hh - ry)
        guard rx > 0, ry > 0 else {
            rasterizer.move(to: centre.x - hw, centre.y - hh)
            rasterizer.line(to: centre.x + hw, centre.y - hh)
            rasterizer.line(to: centre.x + hw, centre.y + hh)
            rasterizer.line(to: centre.x - hw, centre.y + hh)
            rasterizer.close()
            return
        }
        // A chord over angle d of a circle of radius R is within R (1 - cos(d/2)) of it.
        let radius = Swift.max(rx, ry)
        let half = acos(Swift.max(0, 1 - Self.flatteningTolerance / radius))
        let steps = Swift.max(1, Swift.min(256, Int((Double.pi / 2 / (2 * half)).rounded(.up))))
        let delta = Double.pi / 2 / Double(steps)
        let (cd, sd) = (cos(delta), sin(delta))
        var first = true
        // Quadrants clockwise on screen (y down): top-left, top-right, bottom-right, bottom-left.
        for q in 0..<4 {
            let signX = q == 0 || q == 3 ? -1.0 : 1.0, signY = q < 2 ? -1.0 : 1.0
            let cx = centre.x + signX * inner.x, cy = centre.y + signY * inner.y
            // The quadrant's start direction: left, up, right, down.
            var c = q == 0 ? -1.0 : q == 2 ? 1.0 : 0, s = q == 1 ? -1.0 : q == 3 ? 1.0 : 0
            for j in 0...steps {
                if j == steps {
                    // The exact end direction, not the rotated one.
                    c = q == 1 ? 1 : q == 3 ? -1 : 0
                    s = q == 0 ? -1 : q == 2 ? 1 : 0
                }
                let x = cx + rx * c, y = cy + ry * s
                if first { rasterizer.move(to: x, y); first = false } else { rasterizer.line(to: x, y) }
                (c, s) = (c * cd - s * sd, c * sd + s * cd)
            }
        }
        rasterizer.close()
    }
}

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
