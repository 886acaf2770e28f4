/// Motion: how a layer's content moves with time. Every motion is a content
/// offset u(t) in pixels: screen pixel x shows content x + u.

public enum Direction: String, CaseIterable, Sendable { case left, right }

public struct Motion: Equatable, Hashable, Sendable {
    public enum Kind: Equatable, Hashable, Sendable {
        /// u = 0.
        case still
        /// Travels `distance` pixels every `period` seconds and starts again:
        /// u(t) = distance * frac(t/period) leftwards, its negative rightwards.
        /// Seamless on content that repeats every `distance` pixels.
        case loop(distance: Double, period: Double, direction: Direction)
    }

    public var kind: Kind
    /// Round u to a whole pixel: floor(u + 0.5) (the fix for "amplitude phasing").
    public var snapsToPixel: Bool

    public init(_ kind: Kind, snapsToPixel: Bool = false) {
        self.kind = kind
        self.snapsToPixel = snapsToPixel
    }

    public static let still = Motion(.still)

    /// u(t) in pixels. frac(t/p) is taken as (t mod p)/p, which stays finite
    /// for every finite t and p (t/p alone overflows for t = 1e308, p = 0.1);
    /// a time or offset that is not finite gives 0.
    @inline(__always)
    public func offset(at time: Double) -> Double {
        guard time.isFinite else { return 0 }
        var u: Double
        switch kind {
        case .still:
            return 0
        case let .loop(distance, period, direction):
            var remainder = time.truncatingRemainder(dividingBy: period)
            if remainder < 0 { remainder += period }
            u = distance * Swift.min(remainder / period, 1)
            if direction == .right { u = -u }
        }
        if snapsToPixel { u = (u + 0.5).rounded(.down) }
        return u
    }

    var isValid: Bool {
        switch kind {
        case .still: true
        case let .loop(distance, period, _): distance.isFinite && period.isFinite && period > 0
        }
    }
}

/// `u` reduced into [0, period): the remainder is exact for every finite u.
@inline(__always)
public func wrapOffset(_ u: Double, period: Int) -> Double {
    let w = Double(period)
    var wrapped = u.truncatingRemainder(dividingBy: w)
    if wrapped < 0 { wrapped += w }
    return wrapped >= w || !wrapped.isFinite || wrapped < 0 ? 0 : wrapped
}
