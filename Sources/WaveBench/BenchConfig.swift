import WaveCore

/// What one `waves bench` sweep measures: every backend at every cell count.
public struct BenchConfig {
    /// The strategies to measure, in order.
    public var backends: [Backend] = [.cpu, .gl]
    /// Cell counts; each makes one scene of `cells` cells stacked vertically.
    public var cells: [Int] = [1, 10, 100, 1000]
    /// One cell's size in pixels (default: a table-view cell).
    public var cellSize: (width: Int, height: Int) = (320, 80)
    /// Frames measured per (backend, cells), after `warmup` unmeasured ones.
    public var frames = 600
    public var warmup = 30
    /// Round motion to whole pixels.
    public var snapsToPixel = false
    /// The effect measured, as a scene for a size and a count (the caller
    /// supplies it: the sine cells with the user's wave options).
    public var makeScene: SceneMaker = { _ in throw BenchError.invalid("no effect to measure was given") }
    /// Scene time advances by this much per frame (a 60 Hz display).
    public var frameInterval = 1.0 / 60
    /// Measure `write_once_ms` (the time to fill a frame buffer once) beside the CPU rows.
    public var measureWriteOnce = true

    public init() {}

    /// The scene for `cells` cells: cell width wide, cells * cell height tall.
    public func scene(cells: Int) throws -> Scene {
        try makeScene(SceneRequest(width: cellSize.width, height: cells * cellSize.height, count: cells,
                                   snapsToPixel: snapsToPixel))
    }

    /// Every scene the sweep will draw, checked against the contract before
    /// anything runs.
    public func validate() throws {
        guard frames > 0, warmup >= 0, !backends.isEmpty, !cells.isEmpty else {
            throw BenchError.invalid("a sweep needs a backend, a cell count and at least one frame")
        }
        for count in cells { try scene(cells: count).validate() }
    }
}

public enum BenchError: Error, CustomStringConvertible {
    case invalid(String)

    public var description: String {
        switch self {
        case let .invalid(why): "bench: \(why)"
        }
    }
}
