import Foundation
import WaveCore

/// The voice wave: several thin curves along an attenuated sine whose
/// amplitude follows the level, composited in order: a layer tree, one
/// shape layer a curve whose path is dynamic (`VoicePath`, rebuilt every
/// frame from its amplitude, driven by the level, and its phase, a linear
/// animation repeating every turn). Two styles, with the constants of the code people use:
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

    /// The voice's own parameter, declared once (its panels are its count; the level is `LevelInput`'s).
    public static let parameters = ParameterList(defaults: Voice(width: 1, height: 1), [
        .choice("style", \.style, help: "classic (siriwave) or ios7 (SCSiriWaveformView)."),
    ])

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
            throw ValueError(parameter: "cells", value: "\(count)",
                             accepted: "a whole number of voice panels from 1 to an eighth of the height (\(Self.maxCount(height: height)))")
        }
        var layers: [Layer] = []
        let frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        for k in 0..<count {
            let rows = panelRows(k)
            let centre = Double(rows.lowerBound) + Double(rows.count) / 2
            let phase = 2 * Double.pi * Double(k) / Double(count)
            for curve in curves(panelHeight: Double(rows.count), centre: centre, phase: phase) {
                layers.append(Layer(name: "voice curve", frame: frame, contents: .shape(curve)))
            }
        }
        let root = Layer(name: "voice", frame: frame, sublayers: layers)
        return Scene(width: width, height: height, background: background, tree: LayerTree(root: root, sources: [level]))
    }

    /// One curve: its path, its paint, its amplitude driven by the level
    /// (never below `idle`) and its phase turning at `rate` radians a second.
    private func curve(centre: Double, amplitude: Double, envelope: VoicePath.Envelope, frequency: Double, phase: Double,
                       rate: Double, lineWidth: Double, idle: Double = 0, opacity: Double) -> Shape {
        let path = VoicePath(columns: width, centreY: centre, envelope: envelope, frequency: frequency, lineWidth: lineWidth,
                             maxAmplitude: abs(amplitude) * Swift.max(1, idle))
        let amplitudeTimeline = Timeline(amplitude, animations: [.driven(Driven(source: 0, from: 0, to: amplitude, lower: idle))])
        // phase + rate t, one turn a period, forever.
        var phaseTimeline = Timeline(phase)
        if rate != 0 {
            let turn = rate > 0 ? 2 * Double.pi : -2 * Double.pi
            phaseTimeline.animations = [.basic(BasicAnimation(from: phase, to: phase + turn, duration: 2 * Double.pi / abs(rate),
                                                              repeatCount: .infinity))]
        }
        let base = color
        let paint = RGBA8(base.r, base.g, base.b, UInt8((Double(base.a) * opacity).rounded()))
        return Shape(dynamic: path, fill: .solid(paint), parameters: [amplitudeTimeline, phaseTimeline])
    }

    private func curves(panelHeight h: Double, centre: Double, phase: Double) -> [Shape] {
        switch style {
        case .classic:
            let heightMax = Swift.max(1, h / 2 - 6)
            let definitions: [(attenuation: Double, lineWidth: Double, opacity: Double)] =
                [(-2, 1, 0.1), (-6, 1, 0.2), (4, 1, 0.4), (2, 1, 0.6), (1, 1.5, 1)]
            return definitions.map { d in
                curve(centre: centre, amplitude: 0.6 * heightMax / d.attenuation, envelope: .attenuation(k: 4), frequency: 24,
                      phase: -12 - phase, rate: -6 * Double.pi, lineWidth: d.lineWidth, opacity: d.opacity)
            }
        case .ios7:
            let maxAmplitude = Swift.max(1, h / 2 - 4)
            return (0..<5).map { i in
                let progress = 1 - Double(i) / 5
                return curve(centre: centre, amplitude: maxAmplitude * (1.5 * progress - 0.5), envelope: .parabola,
                             frequency: 3 * Double.pi, phase: phase, rate: -9, lineWidth: i == 0 ? 3 : 1, idle: 0.01,
                             opacity: Swift.min(1, progress * 2 / 3 + 1 / 3))
            }
        }
    }
}

/// A voice curve's drawRect: a line along a sine whose shape changes every
/// frame, across the width, with p = x / width from 0 to 1,
///
///     y(x) = centreY + A * envelope(p) * sin(frequency * p + phase)
///
/// A (pixels) and the phase are the layer's parameters 0 and 1. The line is
/// `lineWidth` thick across its direction: the band from y - h to y + h
/// with h = lineWidth / 2 * sqrt(1 + y'(x)^2), sampled at `samplesPerPixel`
/// points a pixel and joined by straight lines, its top edge left to right
/// and its bottom edge back.
public struct VoicePath: DynamicPath, Equatable {
    public enum Envelope: Equatable, Hashable, Sendable {
        /// siriwave's classic attenuation (K / (K + u^4))^K with u = 4p - 2 (u in [-2, 2]).
        case attenuation(k: Double)
        /// SCSiriWaveformView's parabola 1 - (2p - 1)^2: zero at both ends.
        case parabola
    }

    /// The width in pixels.
    public var columns: Int
    public var centreY: Double
    public var envelope: Envelope
    /// Radians over the width.
    public var frequency: Double
    public var lineWidth: Double
    /// The largest |A| the curve is drawn at (its reach).
    public var maxAmplitude: Double
    /// Grid points a pixel.
    public var samplesPerPixel = 2
    /// The largest |envelope'(p)|, with a margin (found once: `reach` is asked every frame).
    public let envelopeSlopeBound: Double

    public init(columns: Int, centreY: Double, envelope: Envelope, frequency: Double, lineWidth: Double, maxAmplitude: Double,
                samplesPerPixel: Int = 2) {
        self.columns = columns; self.centreY = centreY; self.envelope = envelope; self.frequency = frequency
        self.lineWidth = lineWidth; self.maxAmplitude = maxAmplitude; self.samplesPerPixel = samplesPerPixel
        var steepest = 0.0
        for i in 0...1024 { steepest = Swift.max(steepest, abs(Self.envelope(envelope, at: Double(i) / 1024).slope)) }
        envelopeSlopeBound = steepest * 1.1 + 0.1
    }

    /// The envelope and its derivative in p.
    @inline(__always)
    public func envelope(at p: Double) -> (value: Double, slope: Double) { Self.envelope(envelope, at: p) }

    @inline(__always)
    static func envelope(_ envelope: Envelope, at p: Double) -> (value: Double, slope: Double) {
        switch envelope {
        case let .attenuation(k):
            let u = 4 * p - 2, u3 = u * u * u, d = k + u3 * u
            // siriwave's K is 4: the fourth power by two squarings, not a call to pow.
            let q = k / d, g = k == 4 ? (q * q) * (q * q) : pow(q, k)
            return (g, -4 * k * u3 * g / d * 4)
        case .parabola:
            let q = 2 * p - 1
            return (1 - q * q, -4 * q)
        }
    }

    /// The band's top and bottom at x for amplitude `a` and phase `phase`: y -/+ h.
    @inline(__always)
    public func edges(atX x: Double, amplitude a: Double, phase: Double) -> (top: Double, bottom: Double) {
        let w = Double(columns), p = x / w
        let (e, de) = envelope(at: p)
        let angle = frequency * p + phase
        let s = sin(angle), c = cos(angle)
        let y = centreY + a * e * s
        let slope = a / w * (de * s + e * frequency * c)
        let h = lineWidth / 2 * (1 + slope * slope).squareRoot()
        return (y - h, y + h)
    }

    public var scratchCount: Int { columns * samplesPerPixel + 1 }

    public func outline<Sink: OutlineSink>(_ input: ShapeInput, scratch: UnsafeMutableBufferPointer<Double>, into sink: Sink) {
        guard scratch.count >= scratchCount else { return outline(input, into: sink) }
        let a = input.parameters[0], phase = input.parameters[1]
        let k = Double(samplesPerPixel), n = columns * samplesPerPixel
        var m = 0
        while m <= n {
            let x = Double(m) / k
            let (top, bottom) = edges(atX: x, amplitude: a, phase: phase)
            scratch[m] = bottom
            if m == 0 { sink.move(to: x, top) } else { sink.line(to: x, top) }
            m += 1
        }
        m = n
        while m >= 0 {
            sink.line(to: Double(m) / k, scratch[m])
            m -= 1
        }
        sink.close()
    }

    /// Without scratch memory: the bottom edge computed again on the way back.
    public func outline<Sink: OutlineSink>(_ input: ShapeInput, into sink: Sink) {
        let a = input.parameters[0], phase = input.parameters[1]
        let k = Double(samplesPerPixel), n = columns * samplesPerPixel
        var m = 0
        while m <= n {
            let x = Double(m) / k
            let top = edges(atX: x, amplitude: a, phase: phase).top
            if m == 0 { sink.move(to: x, top) } else { sink.line(to: x, top) }
            m += 1
        }
        m = n
        while m >= 0 {
            let x = Double(m) / k
            sink.line(to: x, edges(atX: x, amplitude: a, phase: phase).bottom)
            m -= 1
        }
        sink.close()
    }

    public var maxPoints: Int { 2 * (columns * samplesPerPixel + 1) }

    /// The rows the band can reach at its largest amplitude (a bound on the slope bounds the thickness).
    public func reach(size: Size) -> Rect {
        let steepest = envelopeSlopeBound + abs(frequency)
        let reach = maxAmplitude + lineWidth / 2 * (1 + maxAmplitude / Double(Swift.max(1, columns)) * steepest) + 1
        return Rect(x: -1, y: centreY - reach, width: Double(columns) + 2, height: 2 * reach)
    }

}
