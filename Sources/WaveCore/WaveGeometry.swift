import Foundation

/// Builds each cell's wave outline for a content offset and feeds it to a
/// rasteriser. Shared by both strategies: the CPU draws it every frame, the
/// GL backend draws it once per texture.
///
/// Vertices sit on a fixed grid in content space (1/k pixel, k a power of two),
/// and the sine is evaluated from the grid index reduced modulo one period.
/// So a whole-pixel offset gives exactly the same vertices, moved: with the
/// integer rasteriser, exactly the same pixels, moved.
public struct WaveGeometry {
    public let scene: Scene
    /// Vertices per pixel of content (a power of two).
    public let subdivisions: Int
    /// sin and cos of 2*pi*m/D, m in 0..<D, D = subdivisions * width.
    private let sinTable: [Double]
    private let cosTable: [Double]
    private let cells: [Cell]

    struct Cell {
        let top: Double
        let height: Double
        let sinPhase: Double
        let cosPhase: Double
        let phase: Double
    }

    /// The largest error allowed between the straight segments and the curve, in pixels.
    public static let flatteningTolerance = 0.04

    /// `phaseOverride` (cycles) replaces every cell's phase and
    /// `subdivisions` the grid: the GL backend draws one cell picture at a
    /// given fractional shift, on the grid of the whole scene it belongs to,
    /// so that its pixels are the CPU strategy's.
    public init(scene: Scene, phaseOverride: Double? = nil, subdivisions: Int? = nil) {
        self.scene = scene
        self.subdivisions = subdivisions ?? Self.subdivisions(for: scene)
        let d = self.subdivisions * scene.width
        sinTable = (0..<d).map { sin(2 * Double.pi * Double($0) / Double(d)) }
        cosTable = (0..<d).map { cos(2 * Double.pi * Double($0) / Double(d)) }
        cells = (0..<scene.cellCount).map { k in
            let rows = scene.cellRows(k)
            let phase = phaseOverride ?? scene.cellPhase(k)
            return Cell(top: Double(rows.lowerBound), height: Double(rows.count),
                        sinPhase: sin(2 * Double.pi * phase), cosPhase: cos(2 * Double.pi * phase),
                        phase: phase)
        }
    }

    /// Vertices per pixel for `scene`: enough for its tallest cell.
    public static func subdivisions(for scene: Scene) -> Int {
        // Cells are floor(H/N) or that plus one rows tall.
        let tallest = (scene.height + scene.cellCount - 1) / scene.cellCount
        return subdivisions(scene: scene, cellHeight: tallest)
    }

    /// Chord error of a curve with curvature bound M over a step h is M*h^2/8;
    /// M = a*Hk*(2*pi*c/W)^2 for the sine.
    static func subdivisions(scene: Scene, cellHeight: Int) -> Int {
        let w = scene.wave
        let angular = 2 * Double.pi * Double(w.cycles) / Double(scene.width)
        let curvature = w.amplitude * Double(cellHeight) * angular * angular
        let needed = (curvature / (8 * flatteningTolerance)).squareRoot()
        var k = 1
        while Double(k) < needed && k < 1024 { k *= 2 }
        return k
    }

    /// Adds every cell's filled region for content offset `u` (pixels, any
    /// value) to `rasterizer`.
    public func addCells(offset u: Double, to rasterizer: CoverageRasterizer) {
        // By index: in a debug build `for cell in cells` allocates per element.
        for k in cells.indices { addCell(cells[k], offset: u, to: rasterizer) }
        rasterizer.clipRows = 0..<rasterizer.height
    }

    private func addCell(_ cell: Cell, offset u: Double, to rasterizer: CoverageRasterizer) {
        let width = Double(scene.width)
        let k = subdivisions
        let d = k * scene.width
        let cycles = scene.wave.cycles
        let wrapped = Scene.wrap(u, width: scene.width)
        let uk = wrapped * Double(k)
        let bottom = cell.top + cell.height
        let amplitude = scene.wave.amplitude * cell.height
        let baseline = scene.wave.baseline * cell.height

        // The curve may leave the cell (baseline 0, amplitude 0.5): the
        // rasteriser clips the polygon to the cell's rows, exactly.
        rasterizer.clipRows = Int(cell.top)..<Int(bottom)
        @inline(__always) func inCell(_ y: Double) -> Double { cell.top + y }
        // y on the grid: sin(2*pi*(m/D + phase)) by the angle-sum rule.
        @inline(__always) func gridY(_ n: Int) -> Double {
            let m = (cycles * n) % d
            let s = sinTable[m] * cell.cosPhase + cosTable[m] * cell.sinPhase
            return inCell(baseline + amplitude * s)
        }
        // y anywhere in content space (only the two ends of a fractional offset).
        func contentY(_ x: Double) -> Double {
            inCell(baseline + amplitude * sin(2 * Double.pi * (Double(cycles) * x / width + cell.phase)))
        }

        let firstGrid = Int(uk.rounded(.up))
        let lastGrid = Int((uk + Double(d)).rounded(.down))
        rasterizer.move(to: 0, bottom)
        if Double(firstGrid) != uk { rasterizer.line(to: 0, contentY(wrapped)) }
        for n in firstGrid...lastGrid {
            rasterizer.line(to: Double(n - firstGrid) / Double(k) + (Double(firstGrid) - uk) / Double(k), gridY(n))
        }
        if Double(lastGrid) != uk + Double(d) { rasterizer.line(to: width, contentY(wrapped + width)) }
        rasterizer.line(to: width, bottom)
        rasterizer.close()
    }
}
