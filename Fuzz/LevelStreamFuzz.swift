// libFuzzer target: the live level stream (LevelStream), built by `make
// fuzz` into the WaveAudio module. The input is fed whole and again in
// chunks of 1 to 8 bytes (sizes taken from its own bytes): both give the
// same lines; every line break ends one line; levels are in 0...1; no line
// held is longer than the limit; every warning is one line.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLevelStream(_ start: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: size)
    var whole: [(Int, LevelLine)] = []
    var stream = LevelStream()
    stream.feed(input) { whole.append(($0, $1)) }
    stream.finish { whole.append(($0, $1)) }

    var pieces: [(Int, LevelLine)] = []
    var chunked = LevelStream()
    var offset = 0
    while offset < size {
        let n = min(size - offset, Int(input[offset] % 8) + 1)
        chunked.feed(UnsafeRawBufferPointer(rebasing: input[offset..<offset + n])) { pieces.append(($0, $1)) }
        offset += n
    }
    chunked.finish { pieces.append(($0, $1)) }

    precondition(whole.count == pieces.count && zip(whole, pieces).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 },
                 "chunks change the lines")
    let breaks = input.filter { $0 == 0x0A }.count
    let last = input.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    precondition(whole.count == breaks + (last < size ? 1 : 0), "lines lost or made up")
    for (i, (number, line)) in whole.enumerated() {
        precondition(number == i + 1)
        if case let .level(v) = line { precondition(v >= 0 && v <= 1 && v.isFinite) }
        if let warning = LevelStream.warning(line: number, line) { precondition(!warning.contains("\n") && !warning.contains("\r")) }
    }
    return 0
}
