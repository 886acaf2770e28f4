// libFuzzer target: audiowaveform JSON peaks, through the entry that reads
// any peaks file's bytes (WaveformData.parse: byte-order mark, content
// sniffing, then the JSON reader), built by `make fuzz` into the WaveAudio
// module. Any input is refused with one line naming the input, or reads as
// peaks that round-trip (FuzzCheck, PeaksCheck.swift). The grammar is
// checked against Foundation's JSONSerialization: the peaks reader calls
// "not a JSON object" exactly what it cannot parse as one.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPeaks(_ start: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: start, count: size)
    let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    // A NUL in the first four bytes makes Foundation guess UTF-16 or UTF-32 (RFC 4627's sniffing, so
    // "{\0}\0" reads as {}); the peaks reader takes UTF-8 only, as RFC 8259 requires: no common grammar there.
    let sniffsWideText = body.prefix(4).contains(0)
    if !sniffsWideText, body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) == UInt8(ascii: "{") {
        let foundation = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] != nil
        var grammar = true
        do { _ = try WaveformData.parseJSON(body) } catch let problem as WaveformData.Problem {
            if problem.text.hasPrefix("nested more than") { return 0 } // Foundation's own depth limit differs
            grammar = problem.text != "not a JSON object"
        } catch {}
        precondition(foundation == grammar,
                     "JSONSerialization \(foundation ? "reads" : "refuses") it, the peaks reader \(grammar ? "reads" : "refuses") it")
    }
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
