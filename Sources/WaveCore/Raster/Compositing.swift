/// The project's one compositing rule: non-premultiplied source-over, in
/// double precision, rounded once to 8 bits. The CPU blitter, the test
/// references and the GL shader (in float) all follow it.

/// A colour on the 8-bit scale (channels 0...255, plain numbers, no gamma),
/// not yet rounded: a gradient's colour between two stops.
public struct ColorValue: Equatable, Sendable {
    public var r: Double, g: Double, b: Double, a: Double

    public init(r: Double, g: Double, b: Double, a: Double) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    public init(_ c: RGBA8) {
        self.init(r: Double(c.r), g: Double(c.g), b: Double(c.b), a: Double(c.a))
    }

    /// `self` at t = 0, `other` at t = 1, each channel linearly.
    public func mixed(with other: ColorValue, _ t: Double) -> ColorValue {
        ColorValue(r: r + (other.r - r) * t, g: g + (other.g - g) * t,
                   b: b + (other.b - b) * t, a: a + (other.a - a) * t)
    }
}

/// A channel on the 8-bit scale held to 0...255 and rounded half up: the
/// one rounding a composite ends with (v + 0.5 is never negative here, so
/// the conversion's truncation is floor, with no call into libm).
@inline(__always)
package func rounded8(_ v: Double) -> UInt8 { UInt8(Swift.min(255, Swift.max(0, v)) + 0.5) }

/// `source` at `coverage` (0...1) over `destination`, non-premultiplied.
@inline(__always)
package func composite(_ source: ColorValue, coverage: Double, onto destination: RGBA8) -> RGBA8 {
    let sa = source.a / 255 * coverage
    if destination.a == 255 {
        // Onto an opaque pixel the result is opaque and nothing is divided (the same rule, out = 1).
        let keep = 1 - sa
        @inline(__always) func opaque(_ s: Double, _ d: UInt8) -> UInt8 { rounded8(s * sa + Double(d) * keep) }
        return RGBA8(opaque(source.r, destination.r), opaque(source.g, destination.g), opaque(source.b, destination.b), 255)
    }
    let da = Double(destination.a) / 255
    let outA = sa + da * (1 - sa)
    if outA <= 0 { return RGBA8(0, 0, 0, 0) }
    @inline(__always) func channel(_ s: Double, _ d: UInt8) -> UInt8 { rounded8((s * sa + Double(d) * da * (1 - sa)) / outA) }
    return RGBA8(channel(source.r, destination.r), channel(source.g, destination.g),
                 channel(source.b, destination.b), rounded8(outA * 255))
}

/// An 8-bit colour at `coverage` over `destination`.
package func sourceOver(_ source: RGBA8, coverage: Double, onto destination: RGBA8) -> RGBA8 {
    composite(ColorValue(source), coverage: coverage, onto: destination)
}
