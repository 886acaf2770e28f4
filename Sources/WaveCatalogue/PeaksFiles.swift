import Foundation
import WaveAudio
import WaveCore
import WaveImageIO

/// A track's peaks as `waves peaks` and a batch make them: decoded on any
/// thread, checked for a decoding that stopped early, written whole as
/// audiowaveform's JSON or .dat.
extension WaveformData {
    /// The resolution asked for: audiowaveform's range of samples a pair, 8 or 16 bits.
    package static func checkResolution(samplesPerPixel: Int, bits: Int) throws {
        guard (2...100_000_000).contains(samplesPerPixel) else {
            throw ValueError(option: "--samples-per-pixel", value: "\(samplesPerPixel)",
                             accepted: "a whole number from 2 (audiowaveform's smallest) to 100000000")
        }
        guard bits == 8 || bits == 16 else {
            throw ValueError(option: "--bits", value: "\(bits)", accepted: "8 or 16")
        }
    }

    /// A track's peaks as audiowaveform makes them, mixed to one channel, at
    /// `bits` (what any thread may do: nothing here is shared).
    package static func peaks(of track: String, samplesPerPixel: Int, bits: Int) throws -> WaveformData {
        let reader = try AudioReader(path: track)
        let data = try WaveformData.make(reader, samplesPerPixel: samplesPerPixel, splitChannels: false)
        try DecodeReport.check(reader)
        return data.atBits(bits)
    }

    package func write(json: String?, dat: String?) throws {
        // The encoded file and its copy: at most 7 bytes a value as JSON, twice.
        let bytes = self.data.count * 14
        if let json { try AtomicFile.write(try CheckedMemory.allocating(bytes: bytes, for: "the peaks as JSON") { self.json() }, to: json) }
        if let dat { try AtomicFile.write(try CheckedMemory.allocating(bytes: bytes, for: "the peaks as .dat") { self.dat() }, to: dat) }
    }
}
