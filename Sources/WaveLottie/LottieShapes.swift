import Glibc
import WaveCore

/// A shape layer's items at one frame: the outlines (rectangles, ellipses,
/// polystars, paths) as Bézier shapes, the transforms of groups, trims and
/// rounded corners applied, and the outline a fill or a stroke draws.
/// Geometry follows the Lottie specification (lottie-docs "Shapes"): a
/// rectangle starts at its top right corner and runs clockwise, an ellipse
/// starts at its top, a polystar's first point is straight up from its
/// centre turned by its rotation.

/// The Bézier circle constant: a quarter circle's handles are this times the radius.
let kappa = 0.5519150244935105707435627

extension BezierShape {
    static func rectangle(centre p: [Double], size s: [Double], roundness: Double, reversed: Bool) -> BezierShape {
        let w = s.count > 0 ? s[0] : 0, h = s.count > 1 ? s[1] : w
        let cx = p.count > 0 ? p[0] : 0, cy = p.count > 1 ? p[1] : 0
        let left = cx - w / 2, right = cx + w / 2, top = cy - h / 2, bottom = cy + h / 2
        let r = Swift.max(0, Swift.min(roundness, Swift.min(abs(w), abs(h)) / 2))
        var shape: BezierShape
        if r <= 0 {
            let v = [Point(right, top), Point(right, bottom), Point(left, bottom), Point(left, top)]
            shape = BezierShape(vertices: v, inTangents: Array(repeating: Point(0, 0), count: 4),
                                outTangents: Array(repeating: Point(0, 0), count: 4), closed: true)
        } else {
            let k = r * kappa
            let v = [Point(right, top + r), Point(right, bottom - r), Point(right - r, bottom), Point(left + r, bottom),
                     Point(left, bottom - r), Point(left, top + r), Point(left + r, top), Point(right - r, top)]
            let i = [Point(0, -k), Point(0, 0), Point(k, 0), Point(0, 0), Point(0, k), Point(0, 0), Point(-k, 0), Point(0, 0)]
            let o = [Point(0, 0), Point(0, k), Point(0, 0), Point(-k, 0), Point(0, 0), Point(0, -k), Point(0, 0), Point(k, 0)]
            shape = BezierShape(vertices: v, inTangents: i, outTangents: o, closed: true)
        }
        return reversed ? shape.reversed() : shape
    }

    static func ellipse(centre p: [Double], size s: [Double], reversed: Bool) -> BezierShape {
        let rx = (s.count > 0 ? s[0] : 0) / 2, ry = (s.count > 1 ? s[1] : rx * 2) / 2
        let cx = p.count > 0 ? p[0] : 0, cy = p.count > 1 ? p[1] : 0
        let v = [Point(cx, cy - ry), Point(cx + rx, cy), Point(cx, cy + ry), Point(cx - rx, cy)]
        let kx = rx * kappa, ky = ry * kappa
        let i = [Point(-kx, 0), Point(0, -ky), Point(kx, 0), Point(0, ky)]
        let o = [Point(kx, 0), Point(0, ky), Point(-kx, 0), Point(0, -ky)]
        let shape = BezierShape(vertices: v, inTangents: i, outTangents: o, closed: true)
        return reversed ? shape.reversed() : shape
    }

    /// A star (`star`) or polygon: `points` corners, outer radius and
    /// roundness, inner ones for a star, turned by `rotation` degrees.
    static func polystar(centre p: [Double], points count: Double, outer: Double, inner: Double, outerRoundness: Double,
                         innerRoundness: Double, rotation: Double, star: Bool, reversed: Bool) -> BezierShape {
        let n = Int(holding: count, to: 0...1000)
        guard n > 0 else { return BezierShape(vertices: [], inTangents: [], outTangents: [], closed: true) }
        let cx = p.count > 0 ? p[0] : 0, cy = p.count > 1 ? p[1] : 0
        let corners = star ? 2 * n : n
        let step = 2 * Double.pi / Double(corners)
        var v: [Point] = [], i: [Point] = [], o: [Point] = []
        for k in 0..<corners {
            let isOuter = !star || k % 2 == 0
            let radius = isOuter ? outer : inner
            let roundness = (isOuter ? outerRoundness : innerRoundness) / 100
            let angle = rotation * Double.pi / 180 - Double.pi / 2 + Double(k) * step
            let x = cx + radius * cos(angle), y = cy + radius * sin(angle)
            v.append(Point(x, y))
            // The handles lie along the tangent: the circle's perimeter over four times the points, times the roundness.
            let length = 2 * Double.pi * radius / (Double(n) * 4) * roundness
            let tx = -sin(angle) * length, ty = cos(angle) * length
            i.append(Point(-tx, -ty))
            o.append(Point(tx, ty))
        }
        let shape = BezierShape(vertices: v, inTangents: i, outTangents: o, closed: true)
        return reversed ? shape.reversed() : shape
    }

    /// The same outline run the other way round.
    func reversed() -> BezierShape {
        guard vertices.count > 1 else { return self }
        // Keep the first vertex first, as the specification's reversed direction does.
        let order = [0] + (1..<vertices.count).reversed()
        return BezierShape(vertices: order.map { vertices[$0] }, inTangents: order.map { outTangents[$0] },
                           outTangents: order.map { inTangents[$0] }, closed: closed)
    }

    func transformed(_ m: Affine) -> BezierShape {
        func vector(_ p: Point) -> Point { Point(m.a * p.x + m.c * p.y, m.b * p.x + m.d * p.y) }
        return BezierShape(vertices: vertices.map(m.apply), inTangents: inTangents.map(vector),
                           outTangents: outTangents.map(vector), closed: closed)
    }

    /// Flattened within `tolerance`.
    func polyline(tolerance: Double) -> Polyline {
        var line = Polyline([], closed: closed)
        guard let first = vertices.first else { return line }
        line.points.append(first)
        let count = closed ? vertices.count : vertices.count - 1
        guard count > 0 else { return line }
        for k in 0..<count {
            let a = vertices[k], b = vertices[(k + 1) % vertices.count]
            let c1 = Point(a.x + outTangents[k].x, a.y + outTangents[k].y)
            let c2 = Point(b.x + inTangents[(k + 1) % vertices.count].x, b.y + inTangents[(k + 1) % vertices.count].y)
            if c1 == a && c2 == b { line.points.append(b) } else { line.appendCubic(c1, c2, b, tolerance: tolerance) }
        }
        if closed, line.points.count > 1, line.points.last == first { line.points.removeLast() }
        return line
    }

    /// Rounded corners (the `rd` modifier): each sharp corner (a vertex
    /// without handles) cut back by up to `radius` along both edges and
    /// joined by a curve, as the specification's round-corners modifier does.
    func roundingCorners(_ radius: Double) -> BezierShape {
        guard radius > 0, vertices.count > 2 else { return self }
        var v: [Point] = [], i: [Point] = [], o: [Point] = []
        let n = vertices.count
        for k in 0..<n {
            let p = vertices[k]
            let sharp = inTangents[k] == Point(0, 0) && outTangents[k] == Point(0, 0)
            guard sharp, closed || (k > 0 && k < n - 1) else { v.append(p); i.append(inTangents[k]); o.append(outTangents[k]); continue }
            let prev = vertices[(k - 1 + n) % n], next = vertices[(k + 1) % n]
            let dp = distance(prev, p), dn = distance(p, next)
            guard dp > 0, dn > 0 else { v.append(p); i.append(inTangents[k]); o.append(outTangents[k]); continue }
            let cut = Swift.min(radius, dp / 2, dn / 2)
            let a = Point(p.x + (prev.x - p.x) / dp * cut, p.y + (prev.y - p.y) / dp * cut)
            let b = Point(p.x + (next.x - p.x) / dn * cut, p.y + (next.y - p.y) / dn * cut)
            let h = 1 - kappa
            v.append(a); i.append(Point(0, 0)); o.append(Point((p.x - a.x) * h, (p.y - a.y) * h))
            v.append(b); i.append(Point((p.x - b.x) * h, (p.y - b.y) * h)); o.append(Point(0, 0))
        }
        return BezierShape(vertices: v, inTangents: i, outTangents: o, closed: closed)
    }
}

/// A transform (`ks` of a layer, `tr` of a group): anchor, position (or
/// separate x and y), scale in percent, rotation in degrees clockwise, skew
/// and its axis, opacity in percent.
struct LottieTransform {
    var anchor: AnimatedValue
    var position: AnimatedValue
    var positionX: AnimatedValue?
    var positionY: AnimatedValue?
    var scale: AnimatedValue
    var rotation: AnimatedValue
    var skew: AnimatedValue
    var skewAxis: AnimatedValue
    var opacity: AnimatedValue
    /// A 3D layer's turns about x and y, in degrees (drawn as their orthographic projection).
    var rotationX: AnimatedValue
    var rotationY: AnimatedValue

    init(_ node: Node?) throws {
        anchor = try node?.animated("a", default: [0, 0]) ?? AnimatedValue([0, 0])
        if let p = node?["p"], p.bool("s") {
            positionX = try p.animated("x", default: [0])
            positionY = try p.animated("y", default: [0])
            position = AnimatedValue([0, 0])
        } else {
            position = try node?.animated("p", default: [0, 0]) ?? AnimatedValue([0, 0])
        }
        scale = try node?.animated("s", default: [100, 100]) ?? AnimatedValue([100, 100])
        rotation = try node.map { n in n["r"] != nil ? try n.animated("r", default: [0]) : try n.animated("rz", default: [0]) } ?? AnimatedValue([0])
        skew = try node?.animated("sk", default: [0]) ?? AnimatedValue([0])
        skewAxis = try node?.animated("sa", default: [0]) ?? AnimatedValue([0])
        opacity = try node?.animated("o", default: [100]) ?? AnimatedValue([100])
        rotationX = try node?.animated("rx", default: [0]) ?? AnimatedValue([0])
        rotationY = try node?.animated("ry", default: [0]) ?? AnimatedValue([0])
    }

    /// Whether it turns about x or y (a 3D layer).
    var turnsIn3D: Bool {
        rotationX.isAnimated || rotationY.isAnimated || rotationX.scalar(at: 0) != 0 || rotationY.scalar(at: 0) != 0
    }

    /// The frames its placement changes over.
    var span: ClosedRange<Double>? {
        spanning([anchor.span, position.span, positionX?.span, positionY?.span, scale.span, rotation.span, skew.span, skewAxis.span])
    }

    var isAnimated: Bool {
        [anchor, position, scale, rotation, skew, skewAxis].contains(where: \.isAnimated)
            || (positionX?.isAnimated ?? false) || (positionY?.isAnimated ?? false)
    }

    var hasSkew: Bool { skew.isAnimated || skew.scalar(at: 0) != 0 }

    /// The skew at frame f as Waves' shear (radians): After Effects' -85° to
    /// 85°, along its axis, as lottie-web's skewFromAxis(-sk, sa) reads it.
    func skewAngle(at f: Double) -> Double { -Swift.min(85, Swift.max(-85, skew.scalar(at: f))) * Double.pi / 180 }
    func skewAxisAngle(at f: Double) -> Double { skewAxis.scalar(at: f) * Self.skewAxisSign * Double.pi / 180 }
    static let skewAxisSign = -1.0

    func positionValue(at f: Double) -> Point {
        if let x = positionX, let y = positionY { return Point(x.scalar(at: f), y.scalar(at: f)) }
        let p = position.value(at: f)
        return Point(p.count > 0 ? p[0] : 0, p.count > 1 ? p[1] : 0)
    }

    /// The matrix at frame f: position * rotation * skew * scale * -anchor.
    func matrix(at f: Double) -> Affine {
        let a = anchor.value(at: f), s = scale.value(at: f)
        let sx = (s.count > 0 ? s[0] : 100) / 100, sy = (s.count > 1 ? s[1] : sx * 100) / 100
        var m = Affine.translation(-(a.count > 0 ? a[0] : 0), -(a.count > 1 ? a[1] : 0))
        m = Affine.scale(sx, sy).concatenating(after: m)
        if hasSkew { m = AnimatableTransform.shear(skewAngle(at: f), along: skewAxisAngle(at: f)).concatenating(after: m) }
        m = Affine.rotation(rotation.scalar(at: f) * Double.pi / 180).concatenating(after: m)
        let p = positionValue(at: f)
        return Affine.translation(p.x, p.y).concatenating(after: m)
    }
}
