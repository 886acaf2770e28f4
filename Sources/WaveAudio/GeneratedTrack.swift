import Foundation

/// A deterministic made-up track, so the demo, the tests and the benchmark
/// need no audio file: tone bursts with a slow swell, loud and quiet
/// passages and silences, the same samples on every machine (no randomness
/// beyond a fixed integer hash).
public final class GeneratedTrack: SampleSource {
    public let sampleRate: Int
    public let sampleCount: Int
    private var position = 0

    public init(seconds: Double = 180, sampleRate: Int = 8000) {
        self.sampleRate = sampleRate
        sampleCount = max(1, Int(seconds * Double(sampleRate)))
    }

    /// Sample n, -1...1.
    public func sample(_ n: Int) -> Float {
        let t = Double(n) / Double(sampleRate)
        let beat = Int(t * 2)              // half-second beats
        let phrase = Int(t / 8)            // eight-second phrases
        // Every seventh phrase rests; within a phrase, a hashed beat pattern.
        if phrase % 7 == 6 { return 0 }
        let h = Self.hash(beat)
        if h % 5 == 0 { return 0 }         // a silent beat
        let loudness = phrase % 3 == 1 ? 0.25 : 0.9           // a quiet passage every third phrase
        let accent = 0.35 + 0.65 * Double(h % 97) / 96        // each beat its own level
        let swell = 0.75 + 0.25 * sin(2 * Double.pi * t / 40)
        let local = t * 2 - Double(beat)                       // 0...1 through the beat
        let envelope = exp(-4 * local)
        let tone = sin(2 * Double.pi * (110 + Double(h % 7) * 55) * t)
        return Float(loudness * accent * swell * envelope * tone)
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let n = min(buffer.count, sampleCount - position)
        for i in 0..<n { buffer[i] = sample(position + i) }
        position += n
        return n
    }

    /// A fixed integer hash (splitmix64's finaliser).
    static func hash(_ x: Int) -> Int {
        var z = UInt64(bitPattern: Int64(x)) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) >> 1)
    }
}
