import Foundation

/// The outlines of the tree's primitives in scene pixels, one place for
/// both strategies: the CPU rasterises them every frame; the GL strategy
/// rasterises fixed ones once into coverage pictures and sends the rest to
/// its polygon fill. Points go through the item's transform; curves are
/// flattened after it, so the tolerance holds in scene pixels.
package enum PrimitiveOutlines {
    /// The largest distance allowed between a box's corner and its chords, in pixels.
    package static let roundedRectTolerance = 0.02

    /// A fixed path under `m`; each quadratic becomes chords within
    /// `CoverageRasterizer.flatteningTolerance` pixels (the transform of a
    /// quadratic is the quadratic of the transformed points).
    ///
    /// Under a transform that only translates, sub-paths wholly outside
    /// `columns` (scene pixels) are left out: found by binary search where
    /// they run left to right (a long strip of bars emits only what is in view).
    /// Inside a sub-path, a run of straight segments wholly left of the
    /// columns is one segment from its first point to its last (left of the
    /// columns a segment adds only its rise to the pixels to its right, and the
    /// rises add up), and a run wholly right of them the same (it reaches no
    /// pixel of the columns): a curve two periods wide emits about one
    /// period's segments, the pixels in the columns unchanged.
    package static func addPath<Sink: OutlineSink>(_ path: Path, _ m: Affine, columns: Range<Int>? = nil, into sink: Sink) {
        var current = Point(0, 0)
        var first = 0, last = path.subpaths.count
        let culls = columns != nil && m.a == 1 && m.b == 0 && m.c == 0 && m.d == 1
        let left = Double(columns?.lowerBound ?? 0) - m.tx, right = Double(columns?.upperBound ?? 0) - m.tx
        if culls && path.subpathsAreSortedByX {
            // The first sub-path reaching past the left edge, and the first starting at or past the right (both non-decreasing).
            var high = last
            while first < high {
                let middle = (first + high) / 2
                if path.subpaths[middle].maxX <= left { first = middle + 1 } else { high = middle }
            }
            var low = first
            high = last
            while low < high {
                let middle = (low + high) / 2
                if path.subpaths[middle].minX < right { low = middle + 1 } else { high = middle }
            }
            last = low
        }
        // The side of the columns the last point lies on (`side`), and whether it was held back (a run
        // on one side so far). Updated inline: a nested function capturing these would box them on the
        // heap every call in a debug build.
        let leftEdge = culls ? Double(columns!.lowerBound) : -Double.infinity
        let rightEdge = culls ? Double(columns!.upperBound) : Double.infinity
        var lastSide = 0, held = false
        var s = first
        while s < last {
            defer { s += 1 }
            if culls && (path.subpaths[s].maxX <= left || path.subpaths[s].minX >= right) { continue }
            if culls && leftEdge < rightEdge && path.subpaths[s].runsLeftToRight && path.subpaths[s].elements.count > 8 {
                addFolded(path, path.subpaths[s].points, m, leftEdge, rightEdge, into: sink)
                continue
            }
            var i = path.subpaths[s].elements.lowerBound
            while i < path.subpaths[s].elements.upperBound {
                defer { i += 1 }
                switch path.elements[i] {
                case let .move(p):
                    if held { sink.line(to: current.x, current.y); held = false }
                    current = m.apply(p)
                    lastSide = side(current.x, leftEdge, rightEdge)
                    sink.move(to: current.x, current.y)
                case let .line(p):
                    let next = m.apply(p), nextSide = side(next.x, leftEdge, rightEdge)
                    if nextSide != 0 && nextSide == lastSide {
                        // Still on the same side: the run's segments so far are one, ending here.
                        current = next
                        held = true
                        continue
                    }
                    if held { sink.line(to: current.x, current.y); held = false }
                    current = next
                    lastSide = nextSide
                    sink.line(to: current.x, current.y)
                case let .quad(c, p):
                    if held { sink.line(to: current.x, current.y); held = false }
                    lastSide = 0
                    // Flattened after the transform (one chord where it lies outside the rows the sink keeps).
                    let end = m.apply(p)
                    sink.quad(from: current, control: m.apply(c), to: end)
                    current = end
                }
            }
            if held { sink.line(to: current.x, current.y); held = false }
            sink.close()
        }
    }

    /// Which side of [leftEdge, rightEdge) x lies on: -1 at or left of it, 1 at or right of its end, 0 inside.
    @inline(__always)
    private static func side(_ x: Double, _ leftEdge: Double, _ rightEdge: Double) -> Int {
        x <= leftEdge ? -1 : x >= rightEdge ? 1 : 0
    }

    /// A sub-path of straight segments running left to right under a
    /// translation, its runs outside [leftEdge, rightEdge) folded as
    /// `addPath` folds them, without visiting them: the last point at or left
    /// of the left edge and the first at or right of the right edge are
    /// found by binary search.
    private static func addFolded<Sink: OutlineSink>(_ path: Path, _ points: Range<Int>, _ m: Affine, _ leftEdge: Double,
                                                     _ rightEdge: Double, into sink: Sink) {
        // Only a translation reaches here (addPath's `culls`); the packed points read without bounds checks.
        let tx = m.tx, ty = m.ty
        path.runPoints.withUnsafeBufferPointer { all in
            @inline(__always) func point(_ i: Int) -> Point { Point(all[i].x + tx, all[i].y + ty) }
            let first = points.lowerBound, last = points.upperBound - 1
            // i0: the last point with x <= leftEdge (first - 1: none); i1: the first with x >= rightEdge (last + 1: none).
            var low = first, high = last + 1
            while low < high {
                let middle = (low + high) / 2
                if point(middle).x <= leftEdge { low = middle + 1 } else { high = middle }
            }
            let i0 = low - 1
            low = Swift.max(first, i0 + 1)
            high = last + 1
            while low < high {
                let middle = (low + high) / 2
                if point(middle).x >= rightEdge { high = middle } else { low = middle + 1 }
            }
            let i1 = low
            let start = point(first)
            sink.move(to: start.x, start.y)
            if i0 > first { let p = point(i0); sink.line(to: p.x, p.y) }
            var i = Swift.max(first + 1, i0 + 1)
            while i < i1 {
                let p = point(i)
                sink.line(to: p.x, p.y)
                i += 1
            }
            if i1 <= last {
                if i1 > first { let p = point(i1); sink.line(to: p.x, p.y) }
                if last > i1 { let p = point(last); sink.line(to: p.x, p.y) }
            }
            sink.close()
        }
    }

    /// A rectangle with circular corners of `radius` (held to half the
    /// smaller side) under `m`, as chords within
    /// `roundedRectTolerance` pixels of the arcs at the
    /// transform's largest scale; clockwise on screen, or anticlockwise (a hole).
    package static func addRoundedRect<Sink: OutlineSink>(_ r: Rect, radius: Double, _ m: Affine, clockwise: Bool = true,
                                                         into sink: Sink) {
        let radius = Swift.max(0, Swift.min(radius, r.width / 2, r.height / 2))
        @inline(__always) func point(_ x: Double, _ y: Double, first: Bool) {
            let p = m.apply(x, y)
            if first { sink.move(to: p.x, p.y) } else { sink.line(to: p.x, p.y) }
        }
        guard radius > 0 else {
            let (x0, x1) = clockwise ? (r.x, r.maxX) : (r.maxX, r.x)
            point(x0, r.y, first: true); point(x1, r.y, first: false)
            point(x1, r.maxY, first: false); point(x0, r.maxY, first: false)
            sink.close()
            return
        }
        let scale = Swift.max((m.a * m.a + m.b * m.b).squareRoot(), (m.c * m.c + m.d * m.d).squareRoot())
        let pixels = Swift.max(radius * scale, 1e-9)
        // A chord over angle d of a circle of radius R is within R (1 - cos(d/2)) of it.
        let half = Swift.max(acos(Swift.max(0, 1 - roundedRectTolerance / pixels)), 1e-6)
        let steps = Swift.max(1, Swift.min(256, Int((Double.pi / 2 / (2 * half)).rounded(.up))))
        // Each quarter turn by a rotation recurrence (no trigonometry per point), its ends exact.
        let delta = (clockwise ? 1.0 : -1.0) * Double.pi / 2 / Double(steps)
        let (cd, sd) = (cos(delta), sin(delta))
        // The corners' directions on screen (y down), clockwise from the top left: left, up, right, down.
        @inline(__always) func direction(_ k: Int) -> (Double, Double) {
            switch k % 4 { case 0: (-1, 0); case 1: (0, -1); case 2: (1, 0); default: (0, 1) }
        }
        // A point at direction (c, s) from a corner's centre lands at centre' + c u + s v in scene
        // pixels (u, v: the radius along each axis under the transform); without turn or shear, two terms.
        let u = (x: radius * m.a, y: radius * m.b), v = (x: radius * m.c, y: radius * m.d)
        let axisAligned = m.isAxisAligned
        var first = true
        for q in 0..<4 {
            let corner = clockwise ? q : 3 - q
            let centre = m.apply(corner == 0 || corner == 3 ? r.x + radius : r.maxX - radius,
                                 corner < 2 ? r.y + radius : r.maxY - radius)
            // Clockwise a corner runs from its direction to the next one; anticlockwise back.
            let start = direction(clockwise ? corner : corner + 1), end = direction(clockwise ? corner + 1 : corner)
            var (c, s) = start
            for j in 0...steps {
                if j == steps { (c, s) = end }
                let x = axisAligned ? centre.x + c * u.x : centre.x + c * u.x + s * v.x
                let y = axisAligned ? centre.y + s * v.y : centre.y + c * u.y + s * v.y
                if first { sink.move(to: x, y); first = false } else { sink.line(to: x, y) }
                (c, s) = (c * cd - s * sd, c * sd + s * cd)
            }
        }
        sink.close()
    }

    /// A border: the outer edge clockwise and the inner edge (inset by the
    /// width, its radius reduced as much) anticlockwise, filled non-zero.
    package static func addBorder<Sink: OutlineSink>(_ r: Rect, radius: Double, width: Double, _ m: Affine, into sink: Sink) {
        addRoundedRect(r, radius: radius, m, clockwise: true, into: sink)
        let w = Swift.min(width, r.width / 2, r.height / 2)
        let inner = Rect(x: r.x + w, y: r.y + w, width: r.width - 2 * w, height: r.height - 2 * w)
        let outerRadius = Swift.max(0, Swift.min(radius, r.width / 2, r.height / 2))
        if !inner.isEmpty { addRoundedRect(inner, radius: Swift.max(0, outerRadius - w), m, clockwise: false, into: sink) }
    }
}

/// Points in a layer's coordinates passed on in scene pixels (a dynamic
/// path emits in its layer's coordinates).
package final class TransformingSink<Target: OutlineSink>: OutlineSink {
    package let target: Target
    package var transform = Affine.identity

    package init(_ target: Target) { self.target = target }

    @inline(__always) public func move(to x: Double, _ y: Double) {
        let p = transform.apply(x, y)
        target.move(to: p.x, p.y)
    }

    @inline(__always) public func line(to x: Double, _ y: Double) {
        let p = transform.apply(x, y)
        target.line(to: p.x, p.y)
    }

    @inline(__always) public func close() { target.close() }

    /// Flattened in the layer's coordinates, as the points come; one chord where the target drops all of it.
    @inline(__always) public func quad(from p0: Point, control p1: Point, to p2: Point) {
        if let rows = target.keptRows {
            let (y0, y1, y2) = (transform.apply(p0).y, transform.apply(p1).y, transform.apply(p2).y)
            if Self.isOutside(y0, y1, y2, rows) { return line(to: p2.x, p2.y) }
        }
        chords(from: p0, control: p1, to: p2)
    }
}
