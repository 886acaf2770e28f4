// libFuzzer target: audiowaveform JSON peaks, through the entry that reads
// any peaks file's bytes (WaveformData.parse: byte-order mark, content
// sniffing, then the JSON reader), built by `make fuzz` into the WaveAudio
// module. Any input is refused with one line naming the input, or reads as
// peaks that round-trip (FuzzCheck, PeaksCheck.swift).
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPeaks(_ start: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: start, count: size)
    do {
        FuzzCheck.roundTrips(try WaveformData.parse(bytes, name: "fuzz.json"))
    } catch let error as AudioError {
        let line = error.description
        precondition(line.hasPrefix("cannot read fuzz.json: ") && !line.contains("\n"), "not one line: \(line)")
    } catch {
        fatalError("an error that is not an AudioError: \(error)")
    }
    return 0
}
