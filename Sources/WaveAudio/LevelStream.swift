import Foundation

/// One line of the live level stream (`--level-from -`).
package enum LevelLine: Equatable, Sendable {
    /// Empty, or white space only: nothing to do.
    case blank
    /// A number from 0 to 1.
    case level(Double)
    /// Anything else: its first 40 characters, control characters shown as spaces (for the one warning).
    case notALevel(String)
    /// Longer than `LevelStream.maxLineBytes`: dropped, the rest of it never held.
    case tooLong
}

/// The live level stream's reader: one number from 0 to 1 a line, split
/// from whatever chunks the stream arrives in. Memory holds one line of at
/// most `maxLineBytes` bytes however long a line is (a stream of 10 MB with
/// no line break holds 128 bytes, not 10 MB): past the limit the line's
/// bytes are dropped until its end and it becomes `.tooLong`.
package struct LevelStream {
    /// The longest line read: a level written as a number with room to spare
    /// ("0.25", "1e-3", "0.123456789012345678" with white space around it).
    package static let maxLineBytes = 128

    /// Lines ended so far (the line number of the last one emitted).
    package private(set) var lineNumber = 0
    private var line: [UInt8] = []
    private var overlong = false

    package init() {
        line.reserveCapacity(Self.maxLineBytes)
    }

    /// Takes the next bytes of the stream; `emit` gets each line they end, with its number (from 1).
    package mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Int, LevelLine) -> Void) {
        for b in bytes {
            if b == 0x0A {
                endLine(emit)
            } else if !overlong {
                if line.count < Self.maxLineBytes {
                    line.append(b)
                } else {
                    overlong = true
                    line.removeAll(keepingCapacity: true)
                }
            }
        }
    }

    /// The stream has ended: a last line without its line break is still a line.
    package mutating func finish(_ emit: (Int, LevelLine) -> Void) {
        if !line.isEmpty || overlong { endLine(emit) }
    }

    private mutating func endLine(_ emit: (Int, LevelLine) -> Void) {
        lineNumber += 1
        let parsed = overlong ? LevelLine.tooLong : Self.parse(line)
        line.removeAll(keepingCapacity: true)
        overlong = false
        emit(lineNumber, parsed)
    }

    /// One line's bytes (without its line break; a final carriage return
    /// and white space around the number are ignored).
    package static func parse<Bytes: Collection>(_ bytes: Bytes) -> LevelLine where Bytes.Element == UInt8 {
        if bytes.count > maxLineBytes { return .tooLong }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: CharacterSet.whitespaces.union(["\r"]))
        if text.isEmpty { return .blank }
        if let value = Double(text), value.isFinite, (0...1).contains(value) { return .level(value) }
        let shown = String(text.prefix(40).map { $0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) ? " " : $0 })
        return .notALevel(shown)
    }

    /// The one warning line for a line that is not a level (without "waves: "),
    /// nil for a level or a blank line.
    package static func warning(line number: Int, _ line: LevelLine) -> String? {
        switch line {
        case .blank, .level: return nil
        case let .notALevel(text):
            return "warning: stdin line \(number) '\(text)' is not a level from 0 to 1; skipped (later bad lines are skipped without a word)"
        case .tooLong:
            return "warning: stdin line \(number) is longer than \(maxLineBytes) bytes, not a level from 0 to 1 (one number a line); skipped (later bad lines are skipped without a word)"
        }
    }

    /// Reads `descriptor` to its end (or a read error), a 4 KiB buffer at a
    /// time, and emits its lines; memory stays at the buffer and one line.
    package static func read(_ descriptor: Int32, _ emit: (Int, LevelLine) -> Void) {
        var stream = LevelStream()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            stream.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), emit)
        }
        stream.finish(emit)
    }
}
