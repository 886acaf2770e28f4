import ArgumentParser
import Foundation
import WaveCore
import WavesKit

/// The look every effect's command takes, and the parsers that turn option
/// text into values with messages that say what is accepted.

extension BackendChoice: ExpressibleByArgument {}
extension SubpixelMode: ExpressibleByArgument {}
extension PixelSize: ExpressibleByArgument {}

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

/// What every effect takes: its colours and how it moves by fractions of a pixel.
struct LookOptions: ParsableArguments {
    @Option(help: "Fill colour, #RRGGBB or #RRGGBBAA (default: the effect's own; #3A9BFF for waves, #FFFFFF for dots and voice, which dots multiply by their tint).", transform: parseColor)
    var color: RGBA8?

    @Option(help: "Background colour, #RRGGBB or #RRGGBBAA (default: #10182A).", transform: parseColor)
    var background: RGBA8?

    @Flag(name: .customLong("snap"), inversion: .prefixedNo,
          help: "Round the offset to whole pixels (removes amplitude phasing; slow motion steps) (default: on for the waveform, as the lesson's discrete keyframes step it one device pixel at a time; off for the others).")
    var snapChoice: Bool?

    @Option(name: .customLong("subpixel"), help: "How the GL backend moves cached curves by fractions of a pixel: exact (pictures pre-rasterised at 16 sub-pixel phases, the nearest shown at a whole-pixel offset: the CPU's pixels, no blur; on a software GL driver, sine cells are painted per phase and copied by whole pixels, no shader pass) or linear (bilinear filtering in a shader: a steep edge blurs at half-pixel offsets). A layer tree's cached shapes (waveform bars, an outline) get the same phases where they are only translated; pictures, and turned or scaled shapes, are filtered. (default: exact)")
    var subpixelChoice: SubpixelMode?

    /// The look as the effect's library takes it.
    var look: EffectLook { EffectLook(color: color, background: background, snap: snapChoice, subpixel: subpixelChoice) }
}

/// A time option must be a finite number.
func checkFinite(_ value: Double, option: String) throws {
    guard value.isFinite else {
        throw ValueError(option: option, value: "\(value)", accepted: "a finite number of seconds")
    }
}

