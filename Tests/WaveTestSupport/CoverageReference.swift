import Foundation
import WaveCore

/// An independent reference for the layer tree's primitives: each pixel
/// sampled at n x n points, each point asked whether it lies inside the
/// shape by its own geometric definition (a rounded rectangle's corners are
/// circles, a polygon uses the non-zero winding rule). Nothing of the
/// rasteriser is used; coverage is quantised to 1 / n^2.
public enum CoverageReference {
    /// A shape as a point test in scene pixels.
    public typealias Inside = (Double, Double) -> Bool

    /// `color` at each pixel's sampled coverage times `opacity`, composited over `image`.
    public static func paint(_ image: inout RGBAImage, inside: Inside, color: RGBA8, opacity: Double = 1, samples n: Int = 16,
                             columns: Range<Int>? = nil, rows: Range<Int>? = nil) {
        for y in rows ?? 0..<image.height {
            for x in columns ?? 0..<image.width {
                var hits = 0
                for j in 0..<n {
                    for i in 0..<n where inside(Double(x) + (Double(i) + 0.5) / Double(n), Double(y) + (Double(j) + 0.5) / Double(n)) {
                        hits += 1
                    }
                }
                if hits == 0 { continue }
                image[x, y] = Reference.composite(color, Double(hits) / Double(n * n) * opacity, image[x, y])
            }
        }
    }

    /// A rectangle with circular corners of radius r, in its own coordinates,
    /// seen through `transform` (scene point -> inverse -> test).
    public static func roundedRect(_ rect: Rect, radius r: Double, transform: Affine = .identity) -> Inside {
        let m = transform, det = m.determinant
        return { qx, qy in
            let dx = qx - m.tx, dy = qy - m.ty
            let x = (m.d * dx - m.c * dy) / det, y = (-m.b * dx + m.a * dy) / det
            guard x >= rect.x, x <= rect.maxX, y >= rect.y, y <= rect.maxY else { return false }
            let cx = min(max(x, rect.x + r), rect.maxX - r), cy = min(max(y, rect.y + r), rect.maxY - r)
            return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r
        }
    }

    /// A polygon (scene pixels), non-zero winding.
    public static func polygon(_ points: [Point]) -> Inside {
        { x, y in
            var winding = 0
            for i in points.indices {
                let a = points[i], b = points[(i + 1) % points.count]
                if a.y <= y {
                    if b.y > y && (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) > 0 { winding += 1 }
                } else if b.y <= y && (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) < 0 {
                    winding -= 1
                }
            }
            return winding != 0
        }
    }
}
