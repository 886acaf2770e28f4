import Foundation

/// The scene contract, as pure values. Everything a backend draws follows
/// from a `Scene` and a time; see README.md, "The contract".
///
/// - A scene is `width` x `height` pixels over `background`, with `cellCount`
///   cells stacked vertically: cell k covers rows [floor(k*H/N), floor((k+1)*H/N)).
/// - Each cell holds the same sine wave (`wave`), shifted by a phase of k/N cycle.
/// - Inside cell k (height Hk, y from the cell's top row, growing down):
///   curve(x) = b*Hk + a*Hk*sin(2*pi*(c*(x + u)/W + k/N)); the filled region is y >= curve(x).
/// - Time t maps to the content offset u(t) (`contentOffset(at:)`): pixel x shows content x + u.
public struct Scene: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable { case sine }

    public var kind: Kind = .sine
    public var width: Int
    public var height: Int
    public var background: RGBA8 = RGBA8(0x10, 0x18, 0x2A)
    public var cellCount: Int = 1
    public var wave = WaveParameters()
    /// Round the content offset to a whole pixel (the fix for "amplitude phasing").
    public var snapToPixel = false

    /// The largest width or height `waves render` accepts.
    public static let maxRenderDimension = 16384
    /// Tall multi-cell scenes (the benchmark's 1000 table cells) may go beyond
    /// one GPU texture; the core's own bound is on the pixel count.
    public static let maxHeight = 1 << 20
    public static let maxPixels = 1 << 28

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Checks every parameter against the contract; the error names the
    /// parameter and what is accepted.
    public func validate() throws {
        guard (1...Self.maxRenderDimension).contains(width) else {
            throw SceneError(parameter: "size", value: "\(width)x\(height)",
                             accepted: "a width from 1 to \(Self.maxRenderDimension) pixels")
        }
        guard (1...Self.maxHeight).contains(height), width * height <= Self.maxPixels else {
            throw SceneError(parameter: "size", value: "\(width)x\(height)",
                             accepted: "a height from 1 to \(Self.maxHeight) pixels and at most \(Self.maxPixels) pixels in all")
        }
        guard (1...height).contains(cellCount) else {
            throw SceneError(parameter: "cells", value: "\(cellCount)",
                             accepted: "a whole number from 1 to the height (\(height)), so every cell has a row")
        }
        try wave.validate(width: width)
    }

    /// Rows of cell k: [floor(k*H/N), floor((k+1)*H/N)).
    public func cellRows(_ k: Int) -> Range<Int> {
        (k * height / cellCount)..<((k + 1) * height / cellCount)
    }

    /// Phase of cell k, in cycles.
    public func cellPhase(_ k: Int) -> Double { Double(k) / Double(cellCount) }

    /// The content offset u(t) in pixels: W*frac(t/p) leftwards, -W*frac(t/p)
    /// rightwards; with snapping, floor(u + 0.5). frac(t/p) is taken as
    /// (t mod p)/p, which stays finite for every finite t and p (t/p alone
    /// overflows for t = 1e308, p = 0.1); a time that is not finite gives 0.
    public func contentOffset(at time: Double) -> Double {
        guard time.isFinite else { return 0 }
        var remainder = time.truncatingRemainder(dividingBy: wave.period)
        if remainder < 0 { remainder += wave.period }
        let fraction = Swift.min(remainder / wave.period, 1)
        var u = Double(width) * fraction
        if wave.direction == .right { u = -u }
        if snapToPixel { u = (u + 0.5).rounded(.down) }
        return u
    }

    /// `contentOffset(at:)` reduced into [0, W): the same picture, since the
    /// content repeats every W pixels.
    public func wrappedOffset(at time: Double) -> Double {
        Self.wrap(contentOffset(at: time), width: width)
    }

    /// `u` reduced into [0, width).
    public static func wrap(_ u: Double, width: Int) -> Double {
        let w = Double(width)
        let wrapped = u - w * (u / w).rounded(.down)
        return wrapped >= w || !wrapped.isFinite ? 0 : wrapped
    }
}

public enum Direction: String, CaseIterable, Sendable { case left, right }

/// The wave every cell draws.
public struct WaveParameters: Equatable, Sendable {
    /// Fraction of the cell height, 0...0.5.
    public var amplitude = 0.125
    /// Fraction of the cell height, 0...1, from the cell's top.
    public var baseline = 0.5
    /// Whole cycles across the width: only whole cycles wrap without a seam.
    public var cycles = 1
    /// Seconds for one full width of travel.
    public var period = 1.0
    public var direction = Direction.left
    public var color = RGBA8(0x3A, 0x9B, 0xFF)

    public init() {}

    public func validate(width: Int) throws {
        guard (0...0.5).contains(amplitude) else {
            throw SceneError(parameter: "amplitude", value: "\(amplitude)",
                             accepted: "a number from 0 to 0.5 (a fraction of the cell height)")
        }
        guard (0...1).contains(baseline) else {
            throw SceneError(parameter: "baseline", value: "\(baseline)",
                             accepted: "a number from 0 to 1 (a fraction of the cell height, from its top)")
        }
        let maxCycles = Swift.max(1, width / 2)
        guard (1...maxCycles).contains(cycles) else {
            throw SceneError(parameter: "cycles", value: "\(cycles)",
                             accepted: "a whole number from 1 to \(maxCycles) (half the width): only whole cycles make the wave wrap without a seam")
        }
        guard period.isFinite, period > 0 else {
            throw SceneError(parameter: "period", value: "\(period)",
                             accepted: "a positive, finite number of seconds")
        }
    }
}

/// A scene parameter outside the contract.
public struct SceneError: Error, Equatable, CustomStringConvertible {
    public let parameter: String
    public let value: String
    public let accepted: String

    public init(parameter: String, value: String, accepted: String) {
        self.parameter = parameter
        self.value = value
        self.accepted = accepted
    }

    public var description: String { "--\(parameter) \(value): expected \(accepted)" }
}
