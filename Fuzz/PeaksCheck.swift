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
    }
}
