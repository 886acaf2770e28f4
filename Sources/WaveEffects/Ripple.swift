import WaveCore

/// Ripples: discs growing from the centre and fading as they grow, one after
/// another (the "pulse" every map pin and call button shows). One disc in a
/// replicator of `count` copies whose instance delay spreads them evenly
/// over one growth, so a new ripple starts every `duration / count`
/// seconds; each grows from a point to `size` of the smaller side, easing
/// out, while its opacity falls from 1 to `fade`, forever. Made only of the
/// tree's primitives: a round box, a replicator, basic animations. It is
/// also the proof that an effect with options of its own is this file and
/// one entry in the registry (docs/architecture.md, "Add an effect").
public struct Ripple: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    public var color = RGBA8(0x3A, 0x9B, 0xFF)
    /// Ripples growing at once.
    public var count = 3
    /// A ripple's largest diameter, as a fraction of the smaller side.
    public var size = 0.9
    /// Seconds a ripple takes to grow.
    public var duration = 2.0
    /// The opacity a ripple has fallen to when fully grown.
    public var fade = 0.0

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The ripple's parameters, declared once (its count is the effect's).
    public static let parameters = ParameterList(defaults: Ripple(width: 1, height: 1), [
        .number("ripple-size", \.size, 0...1, above: true, what: "a fraction of the smaller side", valueName: "fraction",
                help: "A ripple's largest diameter, as a fraction of the smaller side."),
        .number("ripple-duration", \.duration, 0.05...60, what: "seconds", valueName: "seconds",
                help: "Seconds a ripple takes to grow from a point to its largest."),
        .number("ripple-fade", \.fade, 0...1, what: "an opacity", valueName: "opacity",
                help: "The opacity a ripple has fallen to when fully grown."),
    ])

    public func validate() throws {
        try Scene.validate(width: width, height: height)
        guard (1...Replicator.maxCount).contains(count) else {
            throw ValueError(parameter: "ripples", value: "\(count)", accepted: "a whole number from 1 to \(Replicator.maxCount)")
        }
        try Self.parameters.check(self)
    }

    public func scene() throws -> Scene {
        try validate()
        let w = Double(width), h = Double(height), diameter = (Swift.min(w, h) * size).rounded()
        var disc = Layer(name: "ripple", frame: Rect(x: ((w - diameter) / 2).rounded(), y: ((h - diameter) / 2).rounded(),
                                                    width: diameter, height: diameter),
                         contents: .box(Box(fillColor: Timeline(ColorValue(color)), cornerRadius: diameter / 2)))
        let grow = Timeline(0.02, animations: [.basic(BasicAnimation(from: 0.02, to: 1, duration: duration, function: .easeOut,
                                                                     repeatCount: .infinity))])
        disc.transform.scaleX = grow
        disc.transform.scaleY = grow
        disc.opacity = Timeline(1.0, animations: [.basic(BasicAnimation(from: 1, to: fade, duration: duration,
                                                                         repeatCount: .infinity))])
        var ripples = Layer(name: "ripples", frame: Rect(x: 0, y: 0, width: w, height: h), sublayers: [disc])
        ripples.replicator = Replicator(count: count, instanceTransform: AnimatableTransform(), instanceDelay: duration / Double(count),
                                        instanceColor: Tint(RGBA8(0xFF, 0xFF, 0xFF)))
        return Scene(width: width, height: height, background: background, tree: LayerTree(root: ripples))
    }
}
