import Foundation
import WaveCore

/// The voice wave: several thin curves along an attenuated sine whose
/// amplitude follows the level, composited in order, one layer each
/// (`ModulatedSine`). Two styles, with the constants of the code people use:
///
/// - `classic`: kopiro/siriwave's classic curve (src/classic-curve.ts):
///   attenuation (K/(K+u^4))^K, K = 4, u from -2 to 2 across the width;
///   y = 0.6 * heightMax * level / attenuation * sin(6u - phase), heightMax
///   = height/2 - 6; five curves with attenuations -2, -6, 4, 2, 1, opacities
///   0.1, 0.2, 0.4, 0.6, 1 and widths 1, 1, 1, 1, 1.5. siriwave advances the
///   phase by pi/2 * speed (0.2) every frame; here 6 pi radians a second,
///   the same speed at 60 frames a second on any display.
/// - `ios7`: stefanceriu/SCSiriWaveformView: a parabola 1 - (2x/W - 1)^2,
///   y = (H/2 - 4) * (1.5 p - 0.5) * max(level, 0.01) * sin(3 pi x/W + phase),
///   p = 1 - i/5; opacity min(1, 2p/3 + 1/3); the first curve 3 px wide, the
///   rest 1; phase -0.15 a frame, here -9 radians a second.
///
/// The curves are centred in the height (siriwave's sit 6 px above the middle).
/// `count` stacks that many voice panels, like table cells, each a little
/// further along in phase (the benchmark's scale axis).
public struct Voice: Equatable, Sendable {
    public enum Style: String, CaseIterable, Sendable { case classic, ios7 }

    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    public var style = Style.classic
    public var color = RGBA8(0xFF, 0xFF, 0xFF)
    public var level = Level.constant(Voice.defaultLevel)
    /// Voice panels stacked vertically.
    public var count = 1

    /// A clearly visible level when no input drives it.
    public static let defaultLevel = 0.8

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Rows of panel k: [floor(k*H/N), floor((k+1)*H/N)).
    public func panelRows(_ k: Int) -> Range<Int> { (k * height / count)..<((k + 1) * height / count) }

    /// Panels need 8 rows each.
    public static func maxCount(height: Int) -> Int { Swift.max(1, height / 8) }

    public func scene() throws -> Scene {
        try Scene.validate(width: width, height: height)
        guard (1...Self.maxCount(height: height)).contains(count) else {
            throw SceneError(parameter: "cells", value: "\(count)",
                             accepted: "a whole number of voice panels from 1 to an eighth of the height (\(Self.maxCount(height: height)))")
        }
        var layers: [FlatLayer] = []
        for k in 0..<count {
            let rows = panelRows(k)
            let centre = Double(rows.lowerBound) + Double(rows.count) / 2
            let phase = 2 * Double.pi * Double(k) / Double(count)
            for curve in curves(panelHeight: Double(rows.count), centre: centre, phase: phase) {
                layers.append(FlatLayer(content: .modulatedSine(curve.sine), paint: .solid(curve.color)))
            }
        }
        return Scene(width: width, height: height, background: background, layers: layers)
    }

    private func curves(panelHeight h: Double, centre: Double, phase: Double) -> [(sine: ModulatedSine, color: RGBA8)] {
        let base = self.color
        func color(_ opacity: Double) -> RGBA8 {
            RGBA8(base.r, base.g, base.b, UInt8((Double(base.a) * opacity).rounded()))
        }
        switch style {
        case .classic:
            let heightMax = Swift.max(1, h / 2 - 6)
            let definitions: [(attenuation: Double, lineWidth: Double, opacity: Double)] =
                [(-2, 1, 0.1), (-6, 1, 0.2), (4, 1, 0.4), (2, 1, 0.6), (1, 1.5, 1)]
            return definitions.map { d in
                (ModulatedSine(centreY: centre, amplitude: 0.6 * heightMax / d.attenuation, envelope: .attenuation(k: 4),
                               frequency: 24, phase: -12 - phase, phaseRate: -6 * Double.pi, lineWidth: d.lineWidth,
                               level: level), color(d.opacity))
            }
        case .ios7:
            let maxAmplitude = Swift.max(1, h / 2 - 4)
            return (0..<5).map { i in
                let progress = 1 - Double(i) / 5
                return (ModulatedSine(centreY: centre, amplitude: maxAmplitude * (1.5 * progress - 0.5), envelope: .parabola,
                                      frequency: 3 * Double.pi, phase: phase, phaseRate: -9, lineWidth: i == 0 ? 3 : 1,
                                      idleLevel: 0.01, level: level),
                        color(Swift.min(1, progress * 2 / 3 + 1 / 3)))
            }
        }
    }
}
