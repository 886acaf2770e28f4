import Foundation
import WaveCore

/// The spring "jelly": a block that slides across the scene on a spring,
/// rests, and slides back, its top and bottom edges bulging with the move's
/// progress (d = height/2 * (0.5 - |p - 0.5|): a quarter of its height at
/// the middle of the move, inward while it overshoots). One spring-block
/// layer; see README.md, "The jelly".
public struct Jelly: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    public var color = RGBA8(0xFF, 0x7A, 0x45)
    /// The block's size (nil: half the scene's height, square).
    public var blockSize: (width: Double, height: Double)?
    public var spring = Spring(duration: 0.8, bounce: 0.3)
    /// Seconds per physics step.
    public var step = 1.0 / 120
    /// Seconds the block rests at each end.
    public var rest = 0.3

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public static func == (a: Jelly, b: Jelly) -> Bool {
        a.width == b.width && a.height == b.height && a.background == b.background && a.color == b.color
            && a.blockSize?.width == b.blockSize?.width && a.blockSize?.height == b.blockSize?.height
            && a.spring == b.spring && a.step == b.step && a.rest == b.rest
    }

    /// The block, from a tenth of the width in to a tenth from the far side, centred vertically.
    public var block: SpringBlock {
        let h = blockSize?.height ?? (Double(height) / 2).rounded()
        let w = blockSize?.width ?? h
        let margin = (Double(width) / 10).rounded()
        return SpringBlock(width: w, height: h, top: ((Double(height) - h) / 2).rounded(), from: margin,
                           to: Double(width) - margin - w, spring: spring, step: step, rest: rest)
    }

    public func validate() throws {
        try Scene.validate(width: width, height: height)
        if let size = blockSize {
            guard size.width.isFinite, size.height.isFinite, size.width >= 1, size.height >= 1,
                  size.width <= Double(width) / 2, size.height <= Double(height) else {
                throw SceneError(parameter: "block-size", value: "\(size.width)x\(size.height)",
                                 accepted: "WxH from 1x1 up to half the width by the height (\(width / 2)x\(height))")
            }
        }
        guard spring.isValid else {
            throw SceneError(parameter: "stiffness", value: "\(spring.stiffness)",
                             accepted: "a spring with positive mass and stiffness, damping of 0 or more, and a natural frequency up to 10000 rad/s")
        }
        guard step.isFinite, step >= 1.0 / 10_000, step <= 0.1 else {
            throw SceneError(parameter: "physics-step", value: "\(step)", accepted: "seconds from 0.0001 to 0.1 (for example 1/120)")
        }
        guard rest.isFinite, rest >= 0, rest <= 60 else {
            throw SceneError(parameter: "rest", value: "\(rest)", accepted: "seconds from 0 to 60")
        }
    }

    public func scene() throws -> Scene {
        try validate()
        return Scene(width: width, height: height, background: background,
                     layers: [FlatLayer(content: .springBlock(block), paint: .solid(color))])
    }
}
