import Foundation
import WaveCore

/// The shader's side of `TimelineCode`: the constants
/// `Shaders/copies_state.frag.glsl` reads timeline records with, generated
/// from WaveCore's definitions (the kinds, flags, timing functions and
/// sources, and the bounce-out's parabolas) and put after the shader's
/// version line when it is compiled. `Shaders/timeline_codes.inc` holds the
/// same text for `make check-shaders` (a test keeps it equal; `make shaders`
/// writes it).
package enum TimelineCodeGLSL {
    package static let source: String = {
        func name(_ camel: String) -> String {
            camel.reduce(into: "") { out, c in
                if c.isUppercase { out += "_" }
                out += c.uppercased()
            }
        }
        func number(_ x: Double) -> String { x.isInfinite ? "3.0e38" : String(format: "%.9g", x) }
        var lines = ["// Generated from WaveCore's TimelineCode and TimingFunction.bounceOutPieces (TimelineCodeGLSL.swift):",
                     "// do not edit; 'make shaders' writes it, and a test holds it to the Swift definitions."]
        for kind in TimelineCode.Kind.allCases { lines.append("const int KIND_\(name("\(kind)")) = \(kind.rawValue);") }
        for (flagName, flag) in TimelineCode.Flags.named { lines.append("const int FLAG_\(flagName) = \(flag.rawValue);") }
        for function in TimelineCode.Function.allCases { lines.append("const int FUNCTION_\(name("\(function)")) = \(function.rawValue);") }
        for source in TimelineCode.Source.allCases { lines.append("const int SOURCE_\(name("\(source)")) = \(source.rawValue);") }
        let pieces = TimingFunction.bounceOutPieces.map { "vec4(\(number($0.end)), \(number($0.a)), \(number($0.b)), \(number($0.c)))" }
        lines.append("// The bounce-out's parabolas: (end, a, b, c), a t^2 + b t + c below each end.")
        lines.append("const vec4 BOUNCE_OUT[\(pieces.count)] = vec4[\(pieces.count)](\(pieces.joined(separator: ", ")));")
        return lines.joined(separator: "\n") + "\n"
    }()
}
