import Foundation

/// How a layer's colours meet what is under them (CALayer's
/// compositingFilter; After Effects' blend modes): the
/// separable and non-separable modes of the W3C's Compositing and Blending
/// Level 1, written from its definitions, and an additive one. With B the
/// mode's function of the backdrop's colour Cb and the source's Cs (0...1),
/// the source is first mixed as Cs' = (1 - ab) Cs + ab B(Cb, Cs), ab the
/// backdrop's alpha, then composited source-over as any colour. `add`
/// instead adds the source's colour at its alpha, clamped (GL's additive
/// blending, ONE, ONE). The GL strategy blends by KHR_blend_equation_advanced,
/// whose equations are these.
public enum BlendMode: String, Equatable, Hashable, Sendable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight,
         difference, exclusion, hue, saturation, color, luminosity, add

    /// B(Cb, Cs) for one channel of a separable mode.
    @inline(__always)
    static func separable(_ mode: BlendMode, _ cb: Double, _ cs: Double) -> Double {
        switch mode {
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return separable(.hardLight, cs, cb)
        case .darken: return Swift.min(cb, cs)
        case .lighten: return Swift.max(cb, cs)
        case .colorDodge: return cb == 0 ? 0 : cs >= 1 ? 1 : Swift.min(1, cb / (1 - cs))
        case .colorBurn: return cb >= 1 ? 1 : cs <= 0 ? 0 : 1 - Swift.min(1, (1 - cb) / cs)
        case .hardLight: return cs <= 0.5 ? cb * 2 * cs : separable(.screen, cb, 2 * cs - 1)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        case .difference: return abs(cb - cs)
        case .exclusion: return cb + cs - 2 * cb * cs
        default: return cs
        }
    }

    /// The W3C's non-separable helpers: luminosity, its setting and the clip back into 0...1, saturation.
    typealias RGB = (r: Double, g: Double, b: Double)
    @inline(__always) static func lum(_ c: RGB) -> Double { 0.3 * c.r + 0.59 * c.g + 0.11 * c.b }
    static func clipColor(_ c: RGB) -> RGB {
        let l = lum(c), n = Swift.min(c.r, c.g, c.b), x = Swift.max(c.r, c.g, c.b)
        var out = c
        if n < 0 { out = (l + (out.r - l) * l / (l - n), l + (out.g - l) * l / (l - n), l + (out.b - l) * l / (l - n)) }
        if x > 1 { out = (l + (out.r - l) * (1 - l) / (x - l), l + (out.g - l) * (1 - l) / (x - l), l + (out.b - l) * (1 - l) / (x - l)) }
        return out
    }
    static func setLum(_ c: RGB, _ l: Double) -> RGB {
        let d = l - lum(c)
        return clipColor((c.r + d, c.g + d, c.b + d))
    }
    static func sat(_ c: RGB) -> Double { Swift.max(c.r, c.g, c.b) - Swift.min(c.r, c.g, c.b) }
    /// The colour with its largest channel `s`, smallest 0 and middle in proportion (all 0 for a grey).
    static func setSat(_ c: RGB, _ s: Double) -> RGB {
        let n = Swift.min(c.r, c.g, c.b), x = Swift.max(c.r, c.g, c.b)
        guard x > n else { return (0, 0, 0) }
        func channel(_ v: Double) -> Double { v == x ? s : v == n ? 0 : (v - n) * s / (x - n) }
        return (channel(c.r), channel(c.g), channel(c.b))
    }

    /// B(Cb, Cs) of the mode for a colour.
    static func blend(_ mode: BlendMode, _ cb: RGB, _ cs: RGB) -> RGB {
        switch mode {
        case .hue: return setLum(setSat(cs, sat(cb)), lum(cb))
        case .saturation: return setLum(setSat(cb, sat(cs)), lum(cb))
        case .color: return setLum(cs, lum(cb))
        case .luminosity: return setLum(cb, lum(cs))
        default: return (separable(mode, cb.r, cs.r), separable(mode, cb.g, cs.g), separable(mode, cb.b, cs.b))
        }
    }

    /// `source` at `coverage` (0...1) over `destination` by this mode.
    public func composite(_ source: ColorValue, coverage: Double, onto destination: RGBA8) -> RGBA8 {
        if self == .normal { return WaveCore.composite(source, coverage: coverage, onto: destination) }
        let sa = source.a / 255 * coverage, da = Double(destination.a) / 255
        if self == .add {
            @inline(__always) func channel(_ s: Double, _ d: UInt8) -> UInt8 {
                rounded8(Double(d) * da + s * sa)
            }
            // Premultiplied sums, clamped, then back to straight colour.
            let outA = Swift.min(1, sa + da)
            guard outA > 0 else { return RGBA8(0, 0, 0, 0) }
            let r = Double(channel(source.r, destination.r)) / outA, g = Double(channel(source.g, destination.g)) / outA
            let b = Double(channel(source.b, destination.b)) / outA
            return RGBA8(rounded8(r), rounded8(g), rounded8(b), rounded8(outA * 255))
        }
        let cb = (Double(destination.r) / 255, Double(destination.g) / 255, Double(destination.b) / 255)
        let cs = (source.r / 255, source.g / 255, source.b / 255)
        let mixed = Self.blend(self, cb, cs)
        let mixedSource = ColorValue(r: ((1 - da) * cs.0 + da * mixed.r) * 255, g: ((1 - da) * cs.1 + da * mixed.g) * 255,
                                     b: ((1 - da) * cs.2 + da * mixed.b) * 255, a: source.a)
        return WaveCore.composite(mixedSource, coverage: coverage, onto: destination)
    }
}
