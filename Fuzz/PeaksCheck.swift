// Shared by the .dat and JSON peaks targets (make fuzz).
import Foundation

enum FuzzCheck {
    /// What a reader accepted is peaks both writers write and both readers read back equal.
    static func roundTrips(_ peaks: WaveformData) {
        precondition(peaks.data.count % (2 * peaks.channels) == 0)
        guard let dat = try? WaveformData.parseDat(peaks.dat()) else { fatalError(".dat written is not read back") }
        precondition(dat == peaks, ".dat written reads back different")
        guard let json = try? WaveformData.parse(peaks.json(), name: "fuzz") else { fatalError("JSON written is not read back") }
        precondition(json == peaks, "JSON written reads back different")
        // At most about 1,000 bars, whatever the header claims.
        let bars = peaks.barPeaks(samplesPerBar: max(1, peaks.sampleCount / 1000 + 1))
        precondition(bars.peaks.count <= 1001 && bars.peaks.allSatisfy { $0 >= 0 && $0 <= 1 })
        precondition(bars.sampleCount == peaks.sampleCount)
        segments(peaks)
        scales(peaks)
        rescales(peaks)
    }

    /// A segment from inside the first pair with no end (count Int.max, the input of a crash fixed
    /// earlier) is held to the end without overflowing: every pair, the first one included.
    static func segments(_ peaks: WaveformData) {
        let segment = peaks.segment(start: peaks.samplesPerPixel / 2, count: Int.max)
        precondition(segment == peaks, "segment(start: \(peaks.samplesPerPixel / 2), count: Int.max): \(segment.length) of \(peaks.length) pairs")
    }

    /// --amplitude-scale auto's factor over every pair: a finite size, 1 where every value is 0.
    static func scales(_ peaks: WaveformData) {
        let factor = peaks.fullScaleFactor(over: 0..<peaks.length)
        precondition(factor.isFinite && factor > 0, "fullScaleFactor \(factor)")
        precondition(factor == peaks.fullScaleFactor)
        if peaks.data.allSatisfy({ $0 == 0 }) { precondition(factor == 1, "fullScaleFactor \(factor) of silence") }
    }

    /// Three times coarser (audiowaveform's rescaler): the same channels, 16-bit values, and a pair
    /// for every three input pairs begun. The rescaler starts an output pair where
    /// k * out / in = 3k reaches the next input pair, so pair k covers input pairs 3k...3k+2 and a
    /// last pair takes what is left: ceil(length / 3) pairs, at most length / 3 + 1 (+ 2 allowed).
    static func rescales(_ peaks: WaveformData) {
        guard peaks.samplesPerPixel < Int(Int32.max) / 3, peaks.length <= 100_000 else { return }
        let coarser = peaks.rescaled(to: peaks.samplesPerPixel * 3)
        precondition(coarser.channels == peaks.channels && coarser.bits == 16 && coarser.samplesPerPixel == peaks.samplesPerPixel * 3)
        precondition(coarser.data.count % (2 * coarser.channels) == 0)
        precondition(coarser.data.allSatisfy { (-32768...32767).contains($0) }, "a rescaled value past 16 bits")
        precondition(coarser.length <= peaks.length / 3 + 2, "\(coarser.length) pairs rescaled from \(peaks.length)")
        precondition(coarser.length == (peaks.length + 2) / 3, "\(coarser.length) pairs rescaled from \(peaks.length), not ceil(length / 3)")
    }
}
