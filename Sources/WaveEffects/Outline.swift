import WaveCore

/// A user's outline (SVG path data) drawn as one still shape layer,
/// travelling left at a constant speed: the smallest effect that takes its
/// geometry from outside, and so the one that meets untrusted numbers.
/// The layer's x translation is `Timeline.travel`: -u(t), u = speed * t.
public struct Outline: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    public var color = RGBA8(0x3A, 0x9B, 0xFF)
    public var path: Path
    /// Content offset speed: u(t) = pixelsPerSecond * t (positive moves the outline left).
    public var pixelsPerSecond = 0.0
    public var snapToPixel = false

    /// The fastest travel accepted, in pixels a second either way.
    public static let maxSpeed = 1e6

    public init(width: Int, height: Int, path: Path) {
        self.width = width
        self.height = height
        self.path = path
    }

    /// The outline's own parameter, declared once (its path data is an input: `EffectInputs`).
    public static let parameters = ParameterList(defaults: Outline(width: 1, height: 1, path: PathBuilder().path), [
        .number("speed", \.pixelsPerSecond, -maxSpeed...maxSpeed, what: "pixels per second", valueName: "pixels-per-second",
                help: "Pixels per second the outline travels left (negative: right)."),
    ])

    public func scene() throws -> Scene {
        try Scene.validate(width: width, height: height)
        try Self.parameters.check(self)
        let frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        var shape = Layer(name: "outline", frame: frame, contents: .shape(Shape(path: path, fill: .solid(color))))
        shape.transform.translationX = .travel(start: 0, pixelsPerSecond: pixelsPerSecond, snapsToPixel: snapToPixel)
        // Checked once, where it is drawn: a renderer's prepare validates every scene.
        return Scene(width: width, height: height, background: background,
                     tree: LayerTree(root: Layer(name: "outline scene", frame: frame, sublayers: [shape])))
    }
}
