import Foundation

/// The stereo 16-bit track the audiowaveform tests write (channels whose
/// sums are odd and of both signs), and the peaks expected of it, computed
/// here from its samples with audiowaveform's documented algorithm: each
/// frame's channels summed and divided by their count toward zero (or each
/// channel its own), min and max a group, 8-bit values / 256 toward zero.
struct AudiowaveformTrack {
    var frames = 1_000
    let sampleRate = 16_000

    func sample(_ n: Int, _ c: Int) -> Int { c == 0 ? (n * 7919) % 60_001 - 30_000 : -((n * 104_729) % 50_001 - 25_000) + (n % 2) }

    /// Every frame, channels interleaved, as signed 16-bit little-endian bytes (a raw s16le file).
    var pcm: [UInt8] {
        (0..<frames).flatMap { n in [sample(n, 0), sample(n, 1)] }.flatMap { v in withUnsafeBytes(of: Int16(v).littleEndian) { Array($0) } }
    }

    /// The track as a 16-bit PCM WAV, its bytes written here (RIFF, fmt, data).
    var wav: Data {
        var wav = Array("RIFF".utf8) + Self.int32(36 + pcm.count) + Array("WAVEfmt ".utf8) + Self.int32(16)
        wav += [1, 0, 2, 0] + Self.int32(sampleRate) + Self.int32(sampleRate * 4) + [4, 0, 16, 0]
        return Data(wav + Array("data".utf8) + Self.int32(pcm.count) + pcm)
    }

    /// The expected pairs, per channel or mixed, at `bits`.
    func pairs(samplesPerPixel: Int, split: Bool, bits: Int) -> [Int] {
        let outputs = split ? 2 : 1
        var values: [Int] = []
        for start in stride(from: 0, to: frames, by: samplesPerPixel) {
            for c in 0..<outputs {
                let group = (start..<min(frames, start + samplesPerPixel)).map { n in
                    split ? sample(n, c) : (sample(n, 0) + sample(n, 1)) / 2
                }
                values += [group.min()!, group.max()!].map { bits == 8 ? $0 / 256 : $0 }
            }
        }
        return values
    }

    static func int32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: Int32(v).littleEndian) { Array($0) } }
}
