import Foundation
import WaveCore

/// A ring of dots, turning: the replicator chapter's row closed into a
/// circle (the spinner every app shows while it waits). One round dot at the
/// top of a circle, in a replicator of `count` copies, each turned 2 pi /
/// count further round the centre and `delay` seconds later, so a pulse of
/// scale and colour runs round the ring; the replicator itself turns once
/// every `period` seconds. Made only of the tree's primitives: a box, a
/// replicator, basic animations.
public struct Ring: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    /// Dots round the ring.
    public var count = 12
    /// A dot's diameter at scale 1, in pixels.
    public var dotSize = 6.0
    /// Seconds each dot runs behind the one before it.
    public var delay = 0.02
    /// Seconds of one swell (the colour takes twice as long).
    public var beat = 0.33
    public var tint = ColorRamp(from: RGBA8(0xFF, 0x00, 0xFF), to: RGBA8(0x00, 0xFF, 0xFF))
    /// Multiplies every dot's colour.
    public var color = RGBA8(0xFF, 0xFF, 0xFF)
    /// Seconds for the ring to turn once.
    public var period = 8.0

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public func validate() throws {
        try Scene.validate(width: width, height: height)
        guard (1...Replicator.maxCount).contains(count) else {
            throw ValueError(parameter: "dots", value: "\(count)", accepted: "a whole number from 1 to \(Replicator.maxCount)")
        }
        try Self.parameters.check(self)
        guard dotSize * 4 <= Double(Swift.min(width, height)) else {
            throw ValueError(parameter: "dot-size", value: "\(dotSize)", accepted: "a size in pixels above 0 up to a quarter of the smaller side")
        }
    }

    /// The ring's parameters: the replicated dot's, declared once (`ReplicatedDot`).
    public static let parameters = ParameterList(defaults: Ring(width: 1, height: 1), replicaParameters())

    public func scene() throws -> Scene {
        try validate()
        let w = Double(width), h = Double(height), radius = Swift.min(w, h) / 2 - 2 * dotSize
        let fill = Timeline(ColorValue(tint.from), animations: [
            .basic(BasicAnimation(from: ColorValue(tint.from), to: ColorValue(tint.to), duration: 2 * beat, function: .easeInEaseOut,
                                  repeatCount: .infinity, autoreverses: true)),
        ])
        var dot = Layer(name: "dot", frame: Rect(x: w / 2 - dotSize / 2, y: h / 2 - radius - dotSize / 2, width: dotSize, height: dotSize),
                        contents: .box(Box(fillColor: fill, cornerRadius: dotSize / 2)))
        let swell = Timeline(1.0, animations: [.basic(BasicAnimation(from: 1, to: 1.8, duration: beat, function: .easeOut,
                                                                      repeatCount: .infinity, autoreverses: true))])
        dot.transform.scaleX = swell
        dot.transform.scaleY = swell
        var ring = Layer(name: "ring", frame: Rect(x: 0, y: 0, width: w, height: h), sublayers: [dot])
        ring.replicator = Replicator(count: count, instanceTransform: AnimatableTransform(rotation: 2 * Double.pi / Double(count)),
                                     instanceDelay: delay, instanceColor: Tint(color))
        ring.transform.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 2 * Double.pi, duration: period,
                                                                                 repeatCount: .infinity))])
        return Scene(width: width, height: height, background: background, tree: LayerTree(root: ring))
    }
}

extension Ring: ReplicatedDot {}
