import Foundation

/// A line drawn along a sine whose shape changes every frame (the voice
/// wave): across the scene's width, with p = x / width from 0 to 1,
///
///     y(x, t) = centreY + A(t) * envelope(p) * sin(frequency * p + phase(t))
///     A(t) = amplitude * max(level(t), idleLevel),  phase(t) = phase + phaseRate * t
///
/// Phase runs in radians per second of scene time, never per frame. The
/// line is `lineWidth` thick across its direction: the band from y - h to
/// y + h with h = lineWidth / 2 * sqrt(1 + y'(x)^2), sampled on a fixed grid
/// of `samplesPerPixel` points a pixel and joined by straight lines. Both
/// backends draw exactly that band (the CPU as a polygon, the GPU by
/// integrating the same lines per pixel), so their pixels agree.
public struct ModulatedSine: Equatable, Sendable {
    public enum Envelope: Equatable, Hashable, Sendable {
        /// siriwave's classic attenuation (K / (K + u^4))^K with u = 4p - 2 (u in [-2, 2]).
        case attenuation(k: Double)
        /// SCSiriWaveformView's parabola 1 - (2p - 1)^2: zero at both ends.
        case parabola
    }

    public var centreY: Double
    /// Pixels at level 1 and envelope 1 (negative flips the curve, as siriwave's negative attenuations do).
    public var amplitude: Double
    public var envelope: Envelope
    /// Radians over the width.
    public var frequency: Double
    /// Radians at t = 0.
    public var phase: Double
    /// Radians per second.
    public var phaseRate: Double
    public var lineWidth: Double
    /// The level never counts as lower than this (a resting wave still moves).
    public var idleLevel: Double
    public var level: Level
    /// Grid points per pixel: 1 to 16.
    public var samplesPerPixel: Int

    public init(centreY: Double, amplitude: Double, envelope: Envelope, frequency: Double, phase: Double = 0,
                phaseRate: Double, lineWidth: Double, idleLevel: Double = 0, level: Level = .constant(1),
                samplesPerPixel: Int = 2) {
        self.centreY = centreY; self.amplitude = amplitude; self.envelope = envelope; self.frequency = frequency
        self.phase = phase; self.phaseRate = phaseRate; self.lineWidth = lineWidth; self.idleLevel = idleLevel
        self.level = level; self.samplesPerPixel = samplesPerPixel
    }

    /// The frame's two numbers: the amplitude in pixels and the phase reduced into [0, 2 pi).
    public struct Frame: Equatable, Sendable {
        public var amplitude: Double
        public var phase: Double
    }

    @inline(__always)
    public func frame(at t: Double) -> Frame {
        let a = amplitude * Swift.max(level.value(at: t), idleLevel)
        var phi = (phase + phaseRate * (t.isFinite ? t : 0)).truncatingRemainder(dividingBy: 2 * .pi)
        if phi < 0 { phi += 2 * .pi }
        return Frame(amplitude: a, phase: phi.isFinite ? phi : 0)
    }

    /// The envelope and its derivative in p.
    @inline(__always)
    public func envelope(at p: Double) -> (value: Double, slope: Double) {
        switch envelope {
        case let .attenuation(k):
            let u = 4 * p - 2, u3 = u * u * u, d = k + u3 * u
            let g = pow(k / d, k)
            return (g, -4 * k * u3 * g / d * 4)
        case .parabola:
            let q = 2 * p - 1
            return (1 - q * q, -4 * q)
        }
    }

    /// The band's top and bottom at x for a frame: y -/+ h.
    @inline(__always)
    public func edges(atX x: Double, width: Int, _ f: Frame) -> (top: Double, bottom: Double) {
        let w = Double(width), p = x / w
        let (e, de) = envelope(at: p)
        let angle = frequency * p + f.phase
        let s = sin(angle), c = cos(angle)
        let y = centreY + f.amplitude * e * s
        let slope = f.amplitude / w * (de * s + e * frequency * c)
        let h = lineWidth / 2 * (1 + slope * slope).squareRoot()
        return (y - h, y + h)
    }

    /// The rows the band can reach at level 1 (a bound on the slope bounds the thickness).
    public func rows(sceneHeight: Int, width: Int) -> Range<Int> {
        let a = abs(amplitude) * Swift.max(1, idleLevel)
        let steepest = envelopeSlopeBound + abs(frequency)
        let reach = a + lineWidth / 2 * (1 + a / Double(Swift.max(1, width)) * steepest) + 1
        let top = Int(Swift.max(0, Swift.min(Double(sceneHeight), (centreY - reach).rounded(.down))))
        let bottom = Int(Swift.max(Double(top), Swift.min(Double(sceneHeight), (centreY + reach).rounded(.up))))
        return top..<bottom
    }

    /// The largest |envelope'(p)|, sampled finely and given a margin.
    var envelopeSlopeBound: Double {
        var steepest = 0.0
        for i in 0...1024 { steepest = Swift.max(steepest, abs(envelope(at: Double(i) / 1024).slope)) }
        return steepest * 1.1 + 0.1
    }

    func validate() -> String? {
        var numbers = [centreY, amplitude, frequency, phase, phaseRate, lineWidth, idleLevel]
        if case let .attenuation(k) = envelope { numbers.append(k) }
        guard numbers.allSatisfy({ $0.isFinite && abs($0) <= Strip.maxExtent }) else {
            return "a voice curve with a number that is not finite"
        }
        if case let .attenuation(k) = envelope, !(k >= 1 && k <= 16) {
            return "an attenuation factor of \(k) (expected 1 to 16)"
        }
        guard lineWidth > 0, lineWidth <= 1000, (0...1).contains(idleLevel) else {
            return "a line \(lineWidth) px wide with an idle level of \(idleLevel) (expected a width above 0 up to 1000 and a level from 0 to 1)"
        }
        guard (1...16).contains(samplesPerPixel) else {
            return "\(samplesPerPixel) samples a pixel (expected 1 to 16)"
        }
        guard level.isValid else { return "a level outside 0 to 1" }
        return nil
    }
}
