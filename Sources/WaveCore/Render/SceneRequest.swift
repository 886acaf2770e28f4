/// What an interactive caller (the demo) asks an effect for: a size and the
/// few knobs its keys turn. The effect answers with a `Scene`; the window
/// code never knows which effect it shows.
public struct SceneRequest: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// How many of the effect's repeated elements (cells, copies, panels).
    public var count: Int
    public var snapsToPixel: Bool

    public init(width: Int, height: Int, count: Int, snapsToPixel: Bool) {
        self.width = width
        self.height = height
        self.count = count
        self.snapsToPixel = snapsToPixel
    }
}

/// An effect as the demo drives it: the scene for a request (which it may
/// adjust to fit, a cell count to the height, say).
public typealias SceneMaker = (SceneRequest) throws -> Scene
