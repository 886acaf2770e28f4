import Foundation

/// A 2-D affine transform, as Core Graphics writes it: a point (x, y) maps to
/// (a x + c y + tx, b x + d y + ty). Pixel coordinates, y down, so a positive
/// rotation turns clockwise on screen (as Core Animation's does on iOS).
public struct Affine: Equatable, Hashable, Sendable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = Affine(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ x: Double, _ y: Double) -> Affine { Affine(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    public static func scale(_ x: Double, _ y: Double) -> Affine { Affine(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0) }
    public static func rotation(_ radians: Double) -> Affine {
        let s = sin(radians), k = cos(radians)
        return Affine(a: k, b: s, c: -s, d: k, tx: 0, ty: 0)
    }

    /// `self` applied after `first`: p -> self(first(p)).
    @inline(__always)
    public func concatenating(after first: Affine) -> Affine {
        Affine(a: a * first.a + c * first.b, b: b * first.a + d * first.b,
               c: a * first.c + c * first.d, d: b * first.c + d * first.d,
               tx: a * first.tx + c * first.ty + tx, ty: b * first.tx + d * first.ty + ty)
    }

    @inline(__always)
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    @inline(__always)
    public func apply(_ p: Point) -> Point {
        Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    /// The transform applied `n` times (n >= 0), by repeated squaring.
    public func power(_ n: Int) -> Affine {
        var result = Affine.identity, base = self, k = n
        while k > 0 {
            if k & 1 == 1 { result = base.concatenating(after: result) }
            base = base.concatenating(after: base)
            k >>= 1
        }
        return result
    }

    /// The transform that undoes this one (nil where it flattens the plane: determinant 0).
    public var inverted: Affine? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let a2 = d / det, b2 = -b / det, c2 = -c / det, d2 = a / det
        return Affine(a: a2, b: b2, c: c2, d: d2, tx: -(a2 * tx + c2 * ty), ty: -(b2 * tx + d2 * ty))
    }

    /// A move only: content is copied, never resampled.
    public var isTranslation: Bool { a == 1 && b == 0 && c == 0 && d == 1 }
    /// No rotation or shear: an axis-aligned rectangle stays one.
    public var isAxisAligned: Bool { b == 0 && c == 0 }
    public var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }
    public var determinant: Double { a * d - b * c }
}

/// A rectangle in some layer's coordinates.
public struct Rect: Equatable, Hashable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var size: Size { Size(width, height) }
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// The overlap of two rectangles (empty, at zero size, when they do not meet).
    public func intersection(_ o: Rect) -> Rect {
        let x0 = Swift.max(x, o.x), y0 = Swift.max(y, o.y)
        let x1 = Swift.min(maxX, o.maxX), y1 = Swift.min(maxY, o.maxY)
        return Rect(x: x0, y: y0, width: Swift.max(0, x1 - x0), height: Swift.max(0, y1 - y0))
    }

    /// The smallest rectangle holding this one's four corners under `t`.
    public func applying(_ t: Affine) -> Rect {
        let p0 = t.apply(x, y), p1 = t.apply(maxX, y), p2 = t.apply(x, maxY), p3 = t.apply(maxX, maxY)
        let x0 = Swift.min(Swift.min(p0.x, p1.x), Swift.min(p2.x, p3.x))
        let y0 = Swift.min(Swift.min(p0.y, p1.y), Swift.min(p2.y, p3.y))
        let x1 = Swift.max(Swift.max(p0.x, p1.x), Swift.max(p2.x, p3.x))
        let y1 = Swift.max(Swift.max(p0.y, p1.y), Swift.max(p2.y, p3.y))
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
