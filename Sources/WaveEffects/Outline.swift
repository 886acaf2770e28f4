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

    public func scene() throws -> Scene {
        try Scene.validate(width: width, height: height)
        guard pixelsPerSecond.isFinite, abs(pixelsPerSecond) <= Self.maxSpeed else {
            throw SceneError(parameter: "speed", value: "\(pixelsPerSecond)",
                             accepted: "a number of pixels per second from -\(Int(Self.maxSpeed)) to \(Int(Self.maxSpeed))")
        }
        let frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        var shape = Layer(name: "outline", frame: frame, contents: .shape(Shape(path: path, fill: .solid(color))))
        shape.transform.translationX = .travel(start: 0, pixelsPerSecond: pixelsPerSecond, snapsToPixel: snapToPixel)
        // Checked once, where it is drawn: a renderer's prepare validates every scene.
        return Scene(width: width, height: height, background: background,
                     tree: LayerTree(root: Layer(name: "outline scene", frame: frame, sublayers: [shape])))
    }
}
