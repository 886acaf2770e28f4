import Foundation
import WaveEffects

/// A made-up track for the waveform (no decoding): 20 s at 8 kHz, its bars
/// a slow swell.
public final class SwellTrack: WaveformSource, @unchecked Sendable {
    public let sampleRate = 8000
    let count = 20 * 8000
    public var verifiedCount: Int? { count }

    public init() {}

    public func sampleCount() throws -> Int { count }

    public func samplesPerBar(pitch: Int, pixelsPerSecond: Double) -> Int {
        Swift.max(1, Int((Double(sampleRate) * Double(pitch) / pixelsPerSecond).rounded()))
    }

    public func bars(samplesPerBar: Int, maxBars: Int) throws -> (peaks: [Float], sampleCount: Int, duration: Double) {
        let n = (count + samplesPerBar - 1) / samplesPerBar
        return ((0..<n).map { Float(0.2 + 0.75 * abs(sin(Double($0) * 0.21))) }, count, Double(count) / Double(sampleRate))
    }
}
