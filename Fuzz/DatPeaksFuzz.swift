// libFuzzer target: audiowaveform .dat peaks (WaveformData.parseDat), built
// by `make fuzz` into the WaveAudio module with its sources (so it reaches
// the reader's internal entry). Any input either is refused with a Problem
// or reads as peaks that write back to the same peaks, as .dat and as JSON,
// and whose bars are fractions of full scale.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDatPeaks(_ start: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: start, count: size)
    guard let peaks = try? WaveformData.parseDat(bytes) else { return 0 }
    FuzzCheck.roundTrips(peaks)
    return 0
}
