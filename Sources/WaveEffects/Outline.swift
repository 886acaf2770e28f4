import WaveCore

/// A user's outline (SVG path data) drawn as one still strip, travelling
/// left at a constant speed: the smallest effect that takes its geometry
/// from outside, and so the one that meets untrusted numbers.
public struct Outline: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    public var color = RGBA8(0x3A, 0x9B, 0xFF)
    public var path: Path
    /// Content offset speed: u(t) = pixelsPerSecond * t (positive moves the outline left).
    public var pixelsPerSecond = 0.0
    public var snapToPixel = false

    public init(width: Int, height: Int, path: Path) {
        self.width = width
        self.height = height
        self.path = path
    }

    public func scene() throws -> Scene {
        try Scene.validate(width: width, height: height)
        guard pixelsPerSecond.isFinite else {
            throw SceneError(parameter: "speed", value: "\(pixelsPerSecond)", accepted: "a finite number of pixels per second")
        }
        let layer = FlatLayer(content: .strip(Strip(path: path)), paint: .solid(color),
                          motion: Motion(.travel(start: 0, pixelsPerSecond: pixelsPerSecond), snapsToPixel: snapToPixel))
        let scene = Scene(width: width, height: height, background: background, layers: [layer])
        try scene.validate()
        return scene
    }
}
