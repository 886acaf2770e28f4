import Foundation
import WaveCore

/// The waving table cells: N cells stacked vertically, each filled below the
/// same sine wave shifted by a phase of k/N cycle, all sliding together.
/// Turns its options into layers: one repeating-curve layer per cell, a
/// solid paint and a looping scroll. See README.md, "The contract".
///
/// - Cell k covers rows [floor(k*H/N), floor((k+1)*H/N)); its height is Hk.
/// - Inside cell k (y from the cell's top row, growing down):
///   curve(x) = b*Hk + a*Hk*sin(2*pi*(c*(x + u)/W + k/N)); filled where y >= curve(x).
/// - u(t) = W*frac(t/p) leftwards, -W*frac(t/p) rightwards (`motion`).
public struct SineCells: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    public var cellCount = 1
    public var wave = WaveParameters()
    /// Round the content offset to a whole pixel (the fix for "amplitude phasing").
    public var snapToPixel = false

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Checks every option against the contract; the error names the option
    /// and what is accepted.
    public func validate() throws {
        try Scene.validate(width: width, height: height)
        guard (1...height).contains(cellCount) else {
            throw SceneError(parameter: "cells", value: "\(cellCount)",
                             accepted: "a whole number from 1 to the height (\(height)), so every cell has a row")
        }
        try wave.validate(width: width)
    }

    /// Rows of cell k: [floor(k*H/N), floor((k+1)*H/N)).
    public func cellRows(_ k: Int) -> Range<Int> {
        (k * height / cellCount)..<((k + 1) * height / cellCount)
    }

    /// The scroll every cell shares.
    public var motion: Motion {
        Motion(.loop(distance: Double(width), period: wave.period, direction: wave.direction), snapsToPixel: snapToPixel)
    }

    /// The content offset u(t) in pixels.
    public func contentOffset(at time: Double) -> Double { motion.offset(at: time) }

    /// The layers. Cell k's phase k/N is a content shift of k*W/(c*N) pixels:
    /// a whole part (the layer's `shift`) and a fraction numerator/(c*N) that
    /// is baked into the samples. Cells of the same height and fraction share
    /// one sample array, so a renderer that caches pictures (GL) makes at
    /// most c*N/gcd(W, c*N) per cell height.
    public func scene() throws -> Scene {
        try validate()
        let n = cellCount, w = width, c = wave.cycles
        let k = Self.samplesPerPixel(for: self)
        let curve = SineSamples(width: w, cycles: c, samplesPerPixel: k)
        var shared: [Int: [Double]] = [:]
        var layers: [FlatLayer] = []
        layers.reserveCapacity(n)
        let paint = Fill.solid(wave.color), motion = motion
        for cell in 0..<n {
            let rows = cellRows(cell)
            let whole = (cell * w) / (c * n), numerator = (cell * w) % (c * n)
            let key = numerator * (height + 1) + rows.count
            let samples = shared[key] ?? {
                let made = curve.samples(height: Double(rows.count), amplitude: wave.amplitude, baseline: wave.baseline,
                                         phase: Double(numerator) / Double(n * w))
                shared[key] = made
                return made
            }()
            let content = RepeatingCurve(rows: rows, samples: samples, samplesPerPixel: k, period: w, shift: whole)
            layers.append(FlatLayer(content: .repeatingCurve(content), paint: paint, motion: motion))
        }
        return Scene(width: width, height: height, background: background, layers: layers)
    }

    /// The largest error allowed between the straight segments and the curve, in pixels.
    public static let flatteningTolerance = 0.04

    /// Grid points per pixel for the tallest cell: a chord over a step h of a
    /// curve with curvature bound M is within M*h^2/8; M = a*Hk*(2*pi*c/W)^2.
    public static func samplesPerPixel(for cells: SineCells) -> Int {
        let tallest = (cells.height + cells.cellCount - 1) / cells.cellCount
        let angular = 2 * Double.pi * Double(cells.wave.cycles) / Double(cells.width)
        let curvature = cells.wave.amplitude * Double(tallest) * angular * angular
        let needed = (curvature / (8 * flatteningTolerance)).squareRoot()
        var k = 1
        while Double(k) < needed && k < 1024 { k *= 2 }
        return k
    }
}

/// sin and cos of 2*pi*m/D on the grid, D = samplesPerPixel * width: a
/// cell's samples are b*Hk + a*Hk*sin(2*pi*(c*m/D + phase)) by the
/// angle-sum rule, the same arithmetic for every cell.
struct SineSamples {
    let cycles: Int
    let sinTable: [Double]
    let cosTable: [Double]

    init(width: Int, cycles: Int, samplesPerPixel: Int) {
        let d = width * samplesPerPixel
        self.cycles = cycles
        sinTable = (0..<d).map { sin(2 * Double.pi * Double($0) / Double(d)) }
        cosTable = (0..<d).map { cos(2 * Double.pi * Double($0) / Double(d)) }
    }

    /// `phase` in cycles.
    func samples(height: Double, amplitude: Double, baseline: Double, phase: Double) -> [Double] {
        let d = sinTable.count
        let sinPhase = sin(2 * Double.pi * phase), cosPhase = cos(2 * Double.pi * phase)
        let a = amplitude * height, b = baseline * height
        return (0..<d).map { m in
            let i = (cycles * m) % d
            return b + a * (sinTable[i] * cosPhase + cosTable[i] * sinPhase)
        }
    }
}

/// The wave every cell draws.
public struct WaveParameters: Equatable, Sendable {
    /// Fraction of the cell height, 0...0.5.
    public var amplitude = 0.125
    /// Fraction of the cell height, 0...1, from the cell's top.
    public var baseline = 0.5
    /// Whole cycles across the width: only whole cycles wrap without a seam.
    public var cycles = 1
    /// Seconds for one full width of travel.
    public var period = 1.0
    public var direction = Direction.left
    public var color = RGBA8(0x3A, 0x9B, 0xFF)

    public init() {}

    public func validate(width: Int) throws {
        guard (0...0.5).contains(amplitude) else {
            throw SceneError(parameter: "amplitude", value: "\(amplitude)",
                             accepted: "a number from 0 to 0.5 (a fraction of the cell height)")
        }
        guard (0...1).contains(baseline) else {
            throw SceneError(parameter: "baseline", value: "\(baseline)",
                             accepted: "a number from 0 to 1 (a fraction of the cell height, from its top)")
        }
        let maxCycles = Swift.max(1, width / 2)
        guard (1...maxCycles).contains(cycles) else {
            throw SceneError(parameter: "cycles", value: "\(cycles)",
                             accepted: "a whole number from 1 to \(maxCycles) (half the width): only whole cycles make the wave wrap without a seam")
        }
        guard period.isFinite, period > 0 else {
            throw SceneError(parameter: "period", value: "\(period)",
                             accepted: "a positive, finite number of seconds")
        }
    }
}


extension SineCells {
    /// Cells of `wave` over `background`, sized, counted and snapped as `request` asks.
    public init(_ request: SceneRequest, wave: WaveParameters = WaveParameters(), background: RGBA8 = Scene.defaultBackground) {
        self.init(width: request.width, height: request.height)
        self.wave = wave
        self.background = background
        cellCount = request.count
        snapToPixel = request.snapsToPixel
    }

    /// The effect as the demo and the bench drive it.
    public static func maker(wave: WaveParameters = WaveParameters(), background: RGBA8 = Scene.defaultBackground) -> SceneMaker {
        { try SineCells($0, wave: wave, background: background).scene() }
    }
}
