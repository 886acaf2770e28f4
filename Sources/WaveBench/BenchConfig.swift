import WaveCore

/// What one `waves bench` sweep measures: every backend at every cell count.
package struct BenchConfig {
    /// The strategies to measure, in order.
    package var backends: [Backend] = [.cpu, .gl]
    /// Cell counts; each makes one scene of `cells` cells stacked vertically.
    package var cells: [Int] = [1, 10, 100, 1000]
    /// One cell's size in pixels (default: a table-view cell).
    package var cellSize: (width: Int, height: Int) = (320, 80)
    /// `--preset lottie`: the files to measure.
    package var lottieFiles: [String] = []
    /// Frames measured per (backend, cells), after `warmup` unmeasured ones.
    package var frames = 600
    package var warmup = 30
    /// Round motion to whole pixels.
    package var snapsToPixel = false
    /// The effect measured, as a scene for a size and a count (the caller
    /// supplies it: the sine cells with the user's wave options).
    package var makeScene: SceneMaker = { _ in throw BenchError.invalid("no effect to measure was given") }
    /// Scene time advances by this much per frame (a 60 Hz display).
    package var frameInterval = 1.0 / 60
    /// What the counts count ("cells", "dots", "panels").
    package var unit = "cells"
    /// The scene size for a count, where the effect lays its elements out
    /// itself (dots in rows); nil: `count` cells of `cellSize` stacked.
    package var sceneSize: ((Int) -> (width: Int, height: Int))?
    /// Asked between rows: true stops the sweep (Ctrl-C), keeping what was measured.
    package var isInterrupted: () -> Bool = { false }
    /// Measure `write_once_ms` (the time to fill a frame buffer once) beside the CPU rows.
    package var measureWriteOnce = true

    package init() {}

    /// The scene size for a count: `sceneSize`'s, or cell width wide and count * cell height tall.
    package func size(count: Int) -> (width: Int, height: Int) {
        sceneSize?(count) ?? (cellSize.width, count * cellSize.height)
    }

    /// The scene for `cells` of the effect's elements.
    package func scene(cells: Int) throws -> Scene {
        let size = size(count: cells)
        return try makeScene(SceneRequest(width: size.width, height: size.height, count: cells, snapsToPixel: snapsToPixel))
    }

    /// Every scene the sweep will draw, checked against the contract before
    /// anything runs.
    package func validate() throws {
        guard frames > 0, warmup >= 0, !backends.isEmpty, !cells.isEmpty else {
            throw BenchError.invalid("a sweep needs a backend, a cell count and at least one frame")
        }
        for count in cells { try scene(cells: count).validate() }
    }
}

package enum BenchError: Error, CustomStringConvertible {
    case invalid(String)

    package var description: String {
        switch self {
        case let .invalid(why): "bench: \(why)"
        }
    }
}
