import ArgumentParser
import WaveCore

extension BackendChoice: ExpressibleByArgument {}
extension Direction: ExpressibleByArgument {}
extension Scene.Kind: ExpressibleByArgument {}

/// Pixel size as WxH, parsed with a message that says what is accepted.
struct PixelSize: ExpressibleByArgument, CustomStringConvertible {
    let width: Int
    let height: Int

    init(width: Int, height: Int) { self.width = width; self.height = height }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        self.init(width: w, height: h)
    }

    var description: String { "\(width)x\(height)" }

    /// Both sides whole numbers from 1 to `limit`.
    func validated(option: String = "--size", limit: Int = Scene.maxRenderDimension) throws -> PixelSize {
        guard (1...limit).contains(width), (1...limit).contains(height) else {
            throw UsageError(option: option, value: description,
                             accepted: "WxH with each side a whole number from 1 to \(limit)")
        }
        return self
    }
}

/// Parses a size option, turning ArgumentParser's "invalid value" into our message.
/// ArgumentParser prefixes this with the option and the value.
struct Expected: Error, CustomStringConvertible {
    let accepted: String
    var description: String { "expected \(accepted)" }
}

func parseSize(_ text: String) throws -> PixelSize {
    guard let size = PixelSize(argument: text) else {
        throw Expected(accepted: "WxH with each side a whole number from 1 to \(Scene.maxRenderDimension), for example 800x200")
    }
    return size
}

func parseWhole(_ accepted: String) -> (String) throws -> Int {
    { text in
        guard let value = Int(text) else { throw Expected(accepted: accepted) }
        return value
    }
}

func parseColor(_ text: String) throws -> RGBA8 {
    guard let color = RGBA8(hex: text) else { throw Expected(accepted: "a colour as #RRGGBB or #RRGGBBAA") }
    return color
}

/// The wave options every command shares (the bench takes its cells as a list).
struct WaveOptions: ParsableArguments {
    @Option(help: "The scene to draw: \(Scene.Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scene: Scene.Kind = .sine

    @Option(parsing: .unconditional, help: "Wave amplitude as a fraction of the cell height, 0 to 0.5.")
    var amplitude: Double = WaveParameters().amplitude

    @Option(parsing: .unconditional, help: "Wave baseline as a fraction of the cell height from its top, 0 to 1.")
    var baseline: Double = WaveParameters().baseline

    @Option(parsing: .unconditional, help: "Whole cycles across the width (only whole cycles wrap without a seam).",
            transform: parseWhole("a whole number of cycles from 1: only whole cycles make the wave wrap without a seam"))
    var cycles: Int = WaveParameters().cycles

    @Option(parsing: .unconditional, help: "Seconds for one full width of travel.")
    var period: Double = WaveParameters().period

    @Option(help: "Direction of travel: left or right.")
    var direction: Direction = .left

    @Option(help: "Wave colour, #RRGGBB or #RRGGBBAA.", transform: parseColor)
    var color: RGBA8 = WaveParameters().color

    @Option(help: "Background colour, #RRGGBB or #RRGGBBAA.", transform: parseColor)
    var background: RGBA8 = Scene(width: 1, height: 1).background

    @Flag(help: "Round the offset to whole pixels (removes amplitude phasing).")
    var snap = false

    /// The scene at `size` with `cells` cells, validated against the contract.
    func makeScene(width: Int, height: Int, cells: Int = 1) throws -> Scene {
        var s = Scene(width: width, height: height)
        s.kind = scene
        s.background = background
        s.cellCount = cells
        s.snapToPixel = snap
        s.wave.amplitude = amplitude
        s.wave.baseline = baseline
        s.wave.cycles = cycles
        s.wave.period = period
        s.wave.direction = direction
        s.wave.color = color
        try s.validate()
        return s
    }
}

/// The wave options plus the number of cells (render and demo).
struct SceneOptions: ParsableArguments {
    @OptionGroup var wave: WaveOptions

    @Option(parsing: .unconditional, help: "Cells stacked vertically, each with its own phase (k/N of a cycle).",
            transform: parseWhole("a whole number of cells from 1 to the height"))
    var cells: Int = 1

    func makeScene(width: Int, height: Int) throws -> Scene {
        try wave.makeScene(width: width, height: height, cells: cells)
    }
}

/// A time option must be a finite number.
func checkFinite(_ value: Double, option: String) throws {
    guard value.isFinite else {
        throw UsageError(option: option, value: "\(value)", accepted: "a finite number of seconds")
    }
}
