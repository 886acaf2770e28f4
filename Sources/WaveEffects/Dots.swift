import Foundation
import WaveCore

/// The replicated dot wave (the replicator-layer chapter's "voice assistant"):
/// a row of small rounded dots, dot 0 running the animation and dot i the
/// same animation `delay * i` seconds later, so scale, fade and tint travel
/// along the row as a wave. One instances layer; see README.md, "Dots".
///
/// Dots are laid left to right, `spacing` pixels apart, centred in the
/// width; more dots than fit a row continue on further rows, which share the
/// height equally (or sit `rowPitch` apart from the top, when given). Without
/// a count, one row fills the width.
public struct Dots: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    /// Dots in all (nil: as many as fit one row).
    public var count: Int?
    /// A dot's side at scale 1, in pixels.
    public var dotSize = 6.0
    public var spacing = 8.0
    public var cornerRadius = 1.5
    public var animation = InstanceAnimation()
    /// Pixels from one row's centre to the next (nil: the rows share the height).
    public var rowPitch: Double?
    /// Multiplies the tint (white: the tint itself).
    public var color = RGBA8(0xFF, 0xFF, 0xFF)

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public func validate() throws {
        try Scene.validate(width: width, height: height)
        guard dotSize.isFinite, dotSize > 0, dotSize <= 1000 else {
            throw SceneError(parameter: "dot-size", value: "\(dotSize)", accepted: "a size in pixels above 0 up to 1000")
        }
        guard spacing.isFinite, spacing >= 1, spacing <= Double(width) * 2 + 1000 else {
            throw SceneError(parameter: "dot-spacing", value: "\(spacing)", accepted: "pixels from 1 to twice the width")
        }
        guard cornerRadius.isFinite, cornerRadius >= 0, cornerRadius <= dotSize / 2 else {
            throw SceneError(parameter: "corner-radius", value: "\(cornerRadius)",
                             accepted: "pixels from 0 to half the dot size (\(dotSize / 2))")
        }
        if let count, !(1...Instances.maxCount).contains(count) {
            throw SceneError(parameter: "dots", value: "\(count)", accepted: "a whole number from 1 to \(Instances.maxCount)")
        }
        guard animation.delay.isFinite, animation.delay >= 0, animation.delay <= 60 else {
            throw SceneError(parameter: "instance-delay", value: "\(animation.delay)", accepted: "seconds from 0 to 60")
        }
    }

    /// Dots that fit one row of the width.
    public var perRow: Int { Swift.max(1, Int(Double(width) / spacing)) }

    public var grid: InstanceGrid {
        let n = count ?? perRow
        let across = Swift.min(n, perRow)
        let rows = (n + across - 1) / across
        let pitch = rowPitch ?? Double(height) / Double(rows)
        let left = ((Double(width) - Double(across - 1) * spacing) / 2).rounded()
        return InstanceGrid(count: n, perRow: across, origin: Point(left, (pitch / 2).rounded()), spacing: spacing, rowPitch: pitch)
    }

    public func scene() throws -> Scene {
        try validate()
        let content = Instances(shape: RoundedRect(width: dotSize, height: dotSize, cornerRadius: cornerRadius),
                                grid: grid, animation: animation)
        return Scene(width: width, height: height, background: background,
                     layers: [FlatLayer(content: .instances(content), paint: .solid(color))])
    }

    /// Room for the tallest swing, and a little more: the benchmark's rows.
    public var roomyRowPitch: Double { (dotSize * Swift.max(1, animation.maxScaleY)).rounded(.up) + 8 }

    /// The height that gives each row of `count` dots `roomyRowPitch` (the
    /// benchmark's screen for a dot count at a width).
    public static func height(count: Int, width: Int, dots: Dots) -> Int {
        var sized = dots
        sized.width = width
        let rows = (count + sized.perRow - 1) / sized.perRow
        return rows * Int(dots.roomyRowPitch)
    }
}
