import Foundation
import WaveCore

/// The level of an audio file as a function of time (`--level-from FILE`):
/// every 5 ms, the RMS of the 50 ms of samples centred there, in dB of full
/// scale, mapped linearly from a noise floor (level 0) to 0 dB (level 1),
/// then smoothed with the attack and release time constants. Streamed: memory
/// holds one chunk and one energy per 5 ms block.
public enum AudioLevel {
    /// Grid points a second (5 ms apart).
    public static let rate = 200
    /// The RMS window: this many grid blocks (50 ms), centred on the grid point.
    public static let windowBlocks = 10
    /// The level-0 floor in dB of full scale.
    public static let floorDecibels = -60.0

    /// The level 0...1 for an RMS of `rms` (full scale 1).
    public static func level(rms: Double, floor: Double = floorDecibels) -> Double {
        guard rms > 0, rms.isFinite else { return 0 }
        let decibels = 20 * log10(rms)
        return Swift.min(1, Swift.max(0, (decibels - floor) / -floor))
    }

    public static func envelope(of source: SampleSource, smoothing: LevelSmoothing) throws -> LevelEnvelope {
        // Block n covers samples [round(n r / 200), round((n + 1) r / 200)): exact
        // at any sample rate (44.1 kHz blocks alternate 220 and 221 samples).
        func blockEnd(_ n: Int) -> Int { Int((Double(n + 1) * Double(source.sampleRate) / Double(rate)).rounded()) }
        let chunk = UnsafeMutableBufferPointer<Float>.allocate(capacity: 65536)
        defer { chunk.deallocate() }
        // Per block: the sum of squares and the sample count.
        var energy: [Double] = [], counts: [Int] = []
        var sum = 0.0, inBlock = 0, sample = 0, end = Swift.max(1, blockEnd(0))
        while true {
            let n = try source.read(into: chunk)
            if n == 0 { break }
            for i in 0..<n {
                let s = Double(chunk[i])
                if s.isFinite { sum += s * s }
                inBlock += 1
                sample += 1
                if sample >= end {
                    energy.append(sum); counts.append(inBlock)
                    sum = 0; inBlock = 0
                    end = Swift.max(sample + 1, blockEnd(energy.count))
                }
            }
        }
        if inBlock > 0 { energy.append(sum); counts.append(inBlock) }
        // Grid point n (time n / rate) takes blocks [n - 5, n + 5): 50 ms centred on it.
        let half = windowBlocks / 2
        var targets: [Double] = []
        targets.reserveCapacity(energy.count + 1)
        for n in 0...energy.count {
            var e = 0.0, c = 0
            for b in Swift.max(0, n - half)..<Swift.min(energy.count, n + half) { e += energy[b]; c += counts[b] }
            targets.append(c > 0 ? level(rms: (e / Double(c)).squareRoot()) : 0)
        }
        return LevelEnvelope(rate: Double(rate), targets: targets, smoothing: smoothing)
    }
}
