/// The blur of a layer's shadow: a Gaussian of standard deviation
/// radius / 2 approximated by three box blurs of odd widths, across then
/// down (widths chosen so the three boxes' variances add up to the
/// Gaussian's as nearly as odd widths allow, the usual three-box
/// approximation), on coverage held as floats. Running sums: the cost per
/// pixel does not grow with the radius. Nothing allocated: the caller owns
/// the buffers.
package enum ShadowBlur {
    /// The three boxes' widths for a radius (1: no blur): the first `m` of
    /// width w, the rest w + 2, where w is the largest odd width under the
    /// ideal sqrt(12 sigma^2 / 3 + 1) and m makes the variance nearest sigma^2.
    package static func boxWidths(radius: Double) -> (Int, Int, Int) {
        let sigma = radius / 2
        guard sigma > 0.25 else { return (1, 1, 1) }
        let ideal = (4 * sigma * sigma + 1).squareRoot()
        var w = Int(ideal.rounded(.down))
        if w % 2 == 0 { w -= 1 }
        let wd = Double(w)
        let m = Int(((12 * sigma * sigma - 3 * wd * wd - 12 * wd - 9) / (-4 * wd - 4)).rounded())
        // No array: this runs per shadow per frame.
        return (m > 0 ? w : w + 2, m > 1 ? w : w + 2, m > 2 ? w : w + 2)
    }

    /// A shadow's offset and radius in scene pixels for a layer placed by
    /// `m`: both are in the layer's own coordinates, so a turned or scaled
    /// layer turns and scales its shadow (a scale that differs across and
    /// down blurs by their geometric mean), as its rasterized picture does.
    @inline(__always)
    package static func placed(_ shadow: Shadow, by m: Affine) -> (dx: Double, dy: Double, radius: Double) {
        let scale = Swift.abs(m.a * m.d - m.b * m.c).squareRoot()
        return (m.a * shadow.offset.x + m.c * shadow.offset.y, m.b * shadow.offset.x + m.d * shadow.offset.y,
                Swift.min(Shadow.maxRadius * 4, shadow.radius * (scale.isFinite ? scale : 1)))
    }

    /// Pixels the three boxes spread coverage, each way.
    package static func reach(radius: Double) -> Double {
        let (a, b, c) = boxWidths(radius: radius)
        return Double(a / 2 + b / 2 + c / 2)
    }

    /// Blurs `rows` x `columns` of `buffer` (rows `stride` floats apart) in
    /// place; values outside the region count as 0. `line` holds at least
    /// max(rows, columns) + 1 floats.
    package static func blur(_ buffer: UnsafeMutablePointer<Float>, stride: Int, rows: Range<Int>, columns: Range<Int>,
                            radius: Double, line: UnsafeMutablePointer<Float>) {
        let (a, b, c) = boxWidths(radius: radius)
        guard c > 1, !rows.isEmpty, !columns.isEmpty else { return }
        var y = rows.lowerBound
        while y < rows.upperBound {
            let start = buffer + y * stride + columns.lowerBound
            box(start, step: 1, count: columns.count, width: a, line: line)
            box(start, step: 1, count: columns.count, width: b, line: line)
            box(start, step: 1, count: columns.count, width: c, line: line)
            y += 1
        }
        var x = columns.lowerBound
        while x < columns.upperBound {
            let start = buffer + rows.lowerBound * stride + x
            box(start, step: stride, count: rows.count, width: a, line: line)
            box(start, step: stride, count: rows.count, width: b, line: line)
            box(start, step: stride, count: rows.count, width: c, line: line)
            x += 1
        }
    }

    /// One box of odd width `width` along `count` values `step` apart.
    @inline(__always)
    private static func box(_ values: UnsafeMutablePointer<Float>, step: Int, count: Int, width: Int, line: UnsafeMutablePointer<Float>) {
        if width <= 1 { return }
        var i = 0
        while i < count { line[i] = values[i * step]; i += 1 }
        let half = width / 2, scale = 1 / Float(width)
        // The sum of line[i - half ... i + half], values outside 0 ..< count being 0.
        var sum: Float = 0
        i = 0
        while i < Swift.min(half, count) { sum += line[i]; i += 1 }
        i = 0
        while i < count {
            if i + half < count { sum += line[i + half] }
            if i - half - 1 >= 0 { sum -= line[i - half - 1] }
            values[i * step] = Swift.max(0, sum * scale)
            i += 1
        }
    }
}
