import Foundation

/// Seeded mutations of an input's bytes, as a fuzzer makes them, for the
/// deterministic mutation tests: a failing case is made again from its seed.

/// A deterministic generator (SplitMix64).
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

public enum Mutation {
    /// `bytes` changed by one to four of: bit flips, an overwritten run,
    /// truncation, inserted random bytes, a repeated chunk, or a header field
    /// set to an extreme (0, -1, 0x7FFFFFFF) at a 4-byte-aligned offset
    /// among the first 64 bytes. Never empty unless `bytes` is.
    public static func mutate(_ bytes: Data, using generator: inout SeededGenerator) -> Data {
        var b = [UInt8](bytes)
        guard !b.isEmpty else { return bytes }
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            guard !b.isEmpty else { break }
            let at = Int.random(in: 0..<b.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0:
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    let i = Int.random(in: 0..<b.count, using: &generator)
                    b[i] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                }
            case 1:
                for i in at..<min(b.count, at + Int.random(in: 1...64, using: &generator)) { b[i] = UInt8.random(in: 0...255, using: &generator) }
            case 2:
                b.removeSubrange(max(1, at)...)
            case 3:
                b.insert(contentsOf: (0..<Int.random(in: 1...256, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }, at: at)
            case 4:
                let chunk = Array(b[at..<min(b.count, at + Int.random(in: 1...512, using: &generator))])
                b.insert(contentsOf: chunk, at: at)
            default:
                let field = 4 * Int.random(in: 0..<16, using: &generator)
                let value: UInt32 = [0, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000][Int.random(in: 0..<4, using: &generator)]
                for k in 0..<4 where field + k < b.count { b[field + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
            }
        }
        return Data(b)
    }
}
