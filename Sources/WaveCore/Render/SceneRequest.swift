/// What an interactive caller (the demo) asks an effect for: a size and the
/// few knobs its keys turn. The effect answers with a `Scene`; the window
/// code never knows which effect it shows.
public struct SceneRequest: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// How many of the effect's repeated elements (cells, copies, panels).
    public var count: Int
    public var snapsToPixel: Bool
    /// States asked for by keys, in order of their scene times (an effect
    /// with states switches to each in turn; others ignore them).
    public var states: [(name: String, at: Double)] = []

    public static func == (a: SceneRequest, b: SceneRequest) -> Bool {
        a.width == b.width && a.height == b.height && a.count == b.count && a.snapsToPixel == b.snapsToPixel
            && a.states.elementsEqual(b.states) { $0.name == $1.name && $0.at == $1.at }
    }

    /// The most switches a request keeps (older ones no longer shape what is shown).
    public static let keptStates = 16

    /// Adds a switch to state `name` at scene time t, replacing any asked
    /// for at t or later (time went back, or a paused scene); a switch to
    /// the state already asked for last is none (a held key repeats).
    public mutating func switchState(to name: String, at t: Double) {
        states.removeAll { $0.at >= t }
        if states.last?.name == name { return }
        states.append((name, t))
        if states.count > Self.keptStates { states.removeFirst(states.count - Self.keptStates) }
    }

    public init(width: Int, height: Int, count: Int, snapsToPixel: Bool) {
        self.width = width
        self.height = height
        self.count = count
        self.snapsToPixel = snapsToPixel
    }
}

/// An effect as the demo drives it: the scene for a request (which it may
/// adjust to fit, a cell count to the height, say).
package typealias SceneMaker = (SceneRequest) throws -> Scene
