import Foundation
import WaveCore

/// The waving table cells: N cells stacked vertically, each filled below the
/// same sine wave shifted by a phase of k/N cycle, all sliding together.
/// A composition of the layer tree, the replicator post's waving view in
/// every cell: a cell is a clip layer (masksToBounds) holding a shape layer
/// two periods wide (what the post's replicator of two copies shows, as one
/// path, so no seam is composited where the copies meet) whose x
/// translation loops from 0 to -W every period. See docs/contract.md.
///
/// - Cell k covers rows [floor(k*H/N), floor((k+1)*H/N)); its height is Hk.
/// - Inside cell k (y from the cell's top row, growing down):
///   curve(x) = b*Hk + a*Hk*sin(2*pi*(c*(x + u)/W + k/N)); filled where y >= curve(x).
/// - u(t) = W*frac(t/p) leftwards, -W*frac(t/p) rightwards (`contentOffset`),
///   rounded half up to a whole pixel when snapped.
///
/// Cell k's phase k/N is a content shift of k*W/(c*N) pixels: its whole
/// part is a time offset of the cell's loop (W/p pixels a second), its
/// fraction is baked into the path, so cells of one height and fraction
/// share one path (a renderer that caches fixed shapes makes one picture).
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
            throw ValueError(parameter: "cells", value: "\(cellCount)",
                             accepted: "a whole number from 1 to the height (\(height)), so every cell has a row")
        }
        try wave.validate(width: width)
    }

    /// Rows of cell k: [floor(k*H/N), floor((k+1)*H/N)).
    public func cellRows(_ k: Int) -> Range<Int> {
        (k * height / cellCount)..<((k + 1) * height / cellCount)
    }

    /// The wave layer's x translation in its cell's loop (local time 0..<period):
    /// leftwards from 0 to -W, rightwards from -W to 0 (the path's second period
    /// in view at the start), linear or in whole-pixel steps half way between.
    public var translation: Timeline<Double> {
        let w = Double(width), from = wave.direction == .left ? 0 : -w, by: Double = wave.direction == .left ? -1 : 1
        if snapToPixel { return .steps(from: from, by: by, every: wave.period / w, count: w) }
        return Timeline(from, animations: [.basic(BasicAnimation(from: from, to: from + by * w, duration: wave.period,
                                                                 fillMode: .both))])
    }

    /// Every cell's loop: one period, always running (negative times loop too),
    /// offset so that it shows `whole` pixels further along the content
    /// (ahead in time leftwards, behind rightwards).
    func loop(aheadBy whole: Int) -> MediaTiming {
        let pixels = Double(wave.direction == .left ? whole : -whole)
        return .endlessLoop(duration: wave.period, timeOffset: pixels * wave.period / Double(width))
    }

    /// The content offset u(t) in pixels of cell 0: what its layer's translation shows.
    public func contentOffset(at time: Double) -> Double {
        guard time.isFinite else { return 0 }
        let tx = translation.value(at: loop(aheadBy: 0).simpleTime(at: time) ?? 0)
        return wave.direction == .left ? -tx : -Double(width) - tx
    }

    /// The composition: a root the scene's size, a clip layer a cell, a wave layer in each.
    public func scene() throws -> Scene {
        try validate()
        let n = cellCount, w = width, c = wave.cycles
        let k = Self.samplesPerPixel(for: self)
        let curve = SineSamples(width: w, cycles: c, samplesPerPixel: k)
        var shared: [Int: Path] = [:]
        var cells: [Layer] = []
        cells.reserveCapacity(n)
        let translation = translation
        for cell in 0..<n {
            let rows = cellRows(cell)
            let whole = (cell * w) / (c * n), numerator = (cell * w) % (c * n)
            let key = numerator * (height + 1) + rows.count
            let path = try shared[key] ?? {
                let samples = curve.samples(height: Double(rows.count), amplitude: wave.amplitude, baseline: wave.baseline,
                                            phase: Double(numerator) / Double(n * w))
                let made = try Self.twoPeriods(samples, samplesPerPixel: k, height: Double(rows.count))
                shared[key] = made
                return made
            }()
            var waveLayer = Layer(name: "wave \(cell)", frame: Rect(x: 0, y: 0, width: Double(2 * w), height: Double(rows.count)),
                                  contents: .shape(Shape(path: path, fill: .solid(wave.color))))
            waveLayer.anchorPoint = Point(0, 0)
            waveLayer.position = AnimatablePoint(0, 0)
            waveLayer.transform.translationX = translation
            waveLayer.timing = loop(aheadBy: whole)
            var clip = Layer(name: "cell \(cell)", frame: Rect(x: 0, y: Double(rows.lowerBound), width: Double(w),
                                                                height: Double(rows.count)), sublayers: [waveLayer])
            clip.masksToBounds = true
            cells.append(clip)
        }
        let frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        return Scene(width: width, height: height, background: background,
                     tree: LayerTree(root: Layer(name: "table", frame: frame, sublayers: cells)))
    }

    /// The filled band below two periods of samples, in the cell's
    /// coordinates: down the left edge from the bottom, along the curve (a
    /// point every 1/k pixel, sample m at x = m/k), down to the bottom at 2W, closed.
    static func twoPeriods(_ samples: [Double], samplesPerPixel k: Int, height: Double) throws -> Path {
        var builder = PathBuilder()
        let d = samples.count, step = 1 / Double(k)
        try builder.move(to: 0, height)
        for m in 0...(2 * d) { try builder.line(to: Double(m) * step, samples[m % d]) }
        try builder.line(to: Double(2 * d) * step, height)
        builder.close()
        return builder.path
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

/// Which way the wave travels.
public enum Direction: String, CaseIterable, Sendable { case left, right }

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

    /// The wave's parameters, declared once (the sine's cells and the table's rows).
    public static let parameters = ParameterList(defaults: WaveParameters(), [
        .number("amplitude", \.amplitude, 0...0.5, what: "a fraction of the cell height", valueName: "fraction",
                help: "Wave amplitude as a fraction of the cell height."),
        .number("baseline", \.baseline, 0...1, what: "a fraction of the cell height", valueName: "fraction",
                help: "Wave baseline as a fraction of the cell height from its top."),
        .whole("cycles", \.cycles, 1...(Scene.maxRenderDimension / 2), what: "cycles",
               help: "Whole cycles across the width, at most half the cell's width.",
               why: "only whole cycles make the wave wrap without a seam"),
        .number("period", \.period, 0...1e6, above: true, what: "seconds", valueName: "seconds",
                help: "Seconds for one full width of travel."),
        .choice("direction", \.direction, help: "Direction of travel."),
    ])

    /// The parameters in range, and the cycles within half the cell's width.
    public func validate(width: Int) throws {
        try Self.parameters.check(self)
        let maxCycles = Swift.max(1, width / 2)
        guard cycles <= maxCycles else {
            throw ValueError(parameter: "cycles", value: "\(cycles)",
                             accepted: "a whole number from 1 to \(maxCycles) (half the width): only whole cycles make the wave wrap without a seam")
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
    package static func maker(wave: WaveParameters = WaveParameters(), background: RGBA8 = Scene.defaultBackground) -> SceneMaker {
        { try SineCells($0, wave: wave, background: background).scene() }
    }
}
