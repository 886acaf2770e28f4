/// What both strategies ask of an item before drawing it: the scene pixels
/// it can touch (its reach under its transform, inside its clip and the
/// frame) and its paint in scene pixels (a layer-space gradient becomes an
/// affine function of the scene point). One place, so the two strategies
/// clip and paint alike.

extension LayerTreeEvaluator {
    /// The compiled node of an item (`mask`: an item of `maskItems`). A
    /// class: its layer is read in place (`node.layer.contents`), where
    /// returning the layer would copy it, every reference in it retained, for
    /// each item of every frame.
    @inline(__always)
    package func node(of item: PresentationItem, mask: Bool = false) -> Node {
        (mask ? maskNodes : nodes)[item.layer]
    }

    /// Scene rows and columns the item can touch, its clip rounded to whole
    /// pixels (a pixel is inside when its centre is); nil when none.
    package func area(of item: PresentationItem, mask: Bool = false, width: Int, height: Int)
        -> (rows: Range<Int>, columns: Range<Int>)? {
        guard let reach = reach(of: item, mask: mask) else { return nil }
        let clip = item.clip
        // Half away from zero, as `rounded()`, without a call into libm per edge.
        @inline(__always) func nearest(_ x: Double) -> Double {
            let f = (Swift.abs(x) + 0.5).rounded(.down)
            return x < 0 ? -f : f
        }
        let x0 = Swift.max(0, Swift.max((reach.x - 1).rounded(.down), nearest(clip.x)))
        let x1 = Swift.min(Double(width), Swift.min((reach.maxX + 1).rounded(.up), nearest(clip.maxX)))
        let y0 = Swift.max(0, Swift.max((reach.y - 1).rounded(.down), nearest(clip.y)))
        let y1 = Swift.min(Double(height), Swift.min((reach.maxY + 1).rounded(.up), nearest(clip.maxY)))
        guard x0 < x1, y0 < y1, x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return nil }
        return (Int(y0)..<Int(y1), Int(x0)..<Int(x1))
    }

    /// The box in scene pixels holding everything the item draws, before
    /// its clip (a replicator's copies: unbounded); nil where it draws nothing.
    package func reach(of item: PresentationItem, mask: Bool = false) -> Rect? {
        // A shape's and a box's come from the item alone; the rest read the node, never a copy of its layer.
        let local: Rect
        switch item.primitive {
        // Worked out as the tree compiled (a dynamic path's reach for its layer's size): nothing copied out of the layer.
        case .fixedShape, .dynamicShape: local = contentBounds[item.content]
        case .box, .boxBorder: local = item.bounds
        case .shadow:
            let node = node(of: item, mask: mask)
            guard let shadow = node.layer.shadow else { return nil }
            let cast: Rect
            if case .box? = node.layer.contents { cast = item.bounds } else { cast = contentBounds[item.content] }
            let placed = ShadowBlur.placed(shadow, by: item.transform)
            let reach = cast.applying(item.transform), margin = ShadowBlur.reach(radius: placed.radius)
            return Rect(x: reach.x + placed.dx - margin, y: reach.y + placed.dy - margin,
                        width: reach.width + 2 * margin, height: reach.height + 2 * margin)
        case .picture:
            guard case let .picture(p)? = node(of: item, mask: mask).layer.contents else { return nil }
            local = Rect(x: item.bounds.x, y: item.bounds.y, width: Double(p.image.width), height: Double(p.image.height))
        case .rasterized:
            guard let bounds = rasterPictures[item.content].bounds else { return nil }
            local = bounds
        case .copies:
            // Copies can go anywhere their transforms take them: the clip and the frame bound them.
            return .unclipped
        }
        return local.applying(item.transform)
    }
}

/// An item's colour in scene pixels, its tint applied (channels 0...255):
/// solid, or a gradient whose position at a pixel centre (x, y) is
/// alpha x + beta y + gamma, clamped to 0...1.
package enum ItemPaint: Equatable, Sendable {
    case solid(ColorValue)
    case gradient(alpha: Double, beta: Double, gamma: Double, start: ColorValue, end: ColorValue)
    /// A `Gradient`: u = alpha x + beta y + gamma and v = delta x + epsilon y + zeta at the scene point (x, y);
    /// its position is u (linear) or |(u, v)| (radial), its colour the ramp's, times the tint.
    case ramp(u: SIMD3<Double>, v: SIMD3<Double>, gradient: Gradient, tint: Tint)

    /// A solid fill's colour: its own, or where the shape's colour is
    /// animated (`Shape.color`) the item's, tinted.
    @inline(__always)
    package static func solidColor(_ fill: RGBA8, animated: Bool, _ item: PresentationItem) -> ColorValue {
        item.tint.applied(to: animated ? item.color : ColorValue(fill))
    }

    /// A shape's fill under the item's transform and tint: with T the
    /// transform, t(q) = dot(T^-1 q - s, d) / |d|^2, affine in q. The shape
    /// is borrowed: an initialiser owns its arguments unless told, and a
    /// frame's shapes, read in place through their nodes, would be copied.
    package init(_ shape: borrowing Shape, _ item: PresentationItem) {
        switch shape.fill {
        case let .solid(c): self = .solid(Self.solidColor(c, animated: shape.color != nil, item))
        case let .linearGradient(g):
            let m = item.transform, det = m.determinant
            let dx = g.end.x - g.start.x, dy = g.end.y - g.start.y, len2 = dx * dx + dy * dy
            guard det != 0, len2 > 0 else { self = .solid(item.tint.applied(to: ColorValue(g.startColor))); return }
            // T^-1 q: x = (d (qx - tx) - c (qy - ty)) / det, y = (-b (qx - tx) + a (qy - ty)) / det.
            let ux = dx / len2, uy = dy / len2
            let alpha = (m.d * ux - m.b * uy) / det, beta = (-m.c * ux + m.a * uy) / det
            let gamma = -(alpha * m.tx + beta * m.ty) - (g.start.x * ux + g.start.y * uy)
            self = .gradient(alpha: alpha, beta: beta, gamma: gamma, start: item.tint.applied(to: ColorValue(g.startColor)),
                             end: item.tint.applied(to: ColorValue(g.endColor)))
        case let .gradient(fill):
            let g = item.gradientPoints.map { fill.moved(to: $0) } ?? fill
            // p = T^-1 q; linear: u = (p - s) . d / |d|^2; radial: (u, v) = (p - s) / |d|.
            let m = item.transform, det = m.determinant
            let dx = g.end.x - g.start.x, dy = g.end.y - g.start.y, len2 = dx * dx + dy * dy
            guard det != 0, len2 > 0 else { self = .solid(item.tint.applied(to: g.ramp[Gradient.rampSize - 1])); return }
            // Rows of T^-1 as (x, y, 1) coefficients.
            let ix = SIMD3(m.d / det, -m.c / det, (m.c * m.ty - m.d * m.tx) / det)
            let iy = SIMD3(-m.b / det, m.a / det, (m.b * m.tx - m.a * m.ty) / det)
            let origin = SIMD3(0, 0, 1.0)
            let px = ix - origin * g.start.x, py = iy - origin * g.start.y
            if g.kind == .linear {
                self = .ramp(u: (px * dx + py * dy) / len2, v: .zero, gradient: g, tint: item.tint)
            } else {
                let r = len2.squareRoot()
                self = .ramp(u: px / r, v: py / r, gradient: g, tint: item.tint)
            }
        }
    }

    /// The colour at the scene point (x, y), tinted, before coverage and opacity.
    @inline(__always)
    package func color(atX x: Double, y: Double) -> ColorValue {
        switch self {
        case let .solid(c): return c
        case let .gradient(alpha, beta, gamma, start, end): return start.mixed(with: end, Swift.min(1, Swift.max(0, alpha * x + beta * y + gamma)))
        case let .ramp(u, v, gradient, tint): return tint.applied(to: gradient.ramp[Gradient.entry(at: Self.position(u: u, v: v, gradient, x: x, y: y))])
        }
    }

    /// A ramp's position at the scene point (x, y).
    @inline(__always)
    package static func position(u: SIMD3<Double>, v: SIMD3<Double>, _ gradient: Gradient, x: Double, y: Double) -> Double {
        position(u: u, v: v, radial: gradient.kind == .radial, focus: gradient.focusOffset, x: x, y: y)
    }

    /// The same from the gradient's kind and focus alone.
    @inline(__always)
    package static func position(u: SIMD3<Double>, v: SIMD3<Double>, radial: Bool, focus: SIMD2<Double>, x: Double, y: Double) -> Double {
        let a = u.x * x + u.y * y + u.z
        if !radial { return a }
        let b = v.x * x + v.y * y + v.z
        return Gradient.radialPosition(a, b, focus)
    }
}
