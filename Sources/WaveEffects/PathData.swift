import Foundation
import WaveCore

/// SVG path data (the `d` attribute's grammar, SVG 1.1 section 8.3.9 and
/// SVG 2) read into a `Path`: every command M L H V C S Q T Z, absolute or
/// relative, with implicit repeats ("L 1 2 3 4" is two lines; pairs after M
/// are lines), numbers in every form the grammar allows (".5", "1e-3",
/// "-.5e+2", and run together as optimisers write them: "M.5.5L100.5.5" is
/// M 0.5 0.5 L 100.5 0.5), separated by white space, a comma or nothing.
///
/// A `Path` holds lines and quadratic curves only, so a cubic (C, S) is
/// drawn as quadratic pieces (`PathBuilder.cubic`). Elliptical arcs (A) are
/// refused with a line that says so. Every coordinate goes through
/// `PathBuilder`, so NaN and infinity ("nan", "inf", or "1e999", read as
/// numbers so the refusal can say so) are a `PathError`.
public enum PathData {
    public struct SyntaxError: Error, Equatable, CustomStringConvertible {
        /// The text where reading stopped (a few characters), "(end)" at the end.
        public let found: String
        /// Its offset in characters (bytes of UTF-8) from the start.
        public let offset: Int
        public let expected: String
        public var description: String { "path data at character \(offset + 1) '\(found)': expected \(expected)" }
    }

    public static func parse(_ text: String) throws -> Path {
        var scanner = Scanner(bytes: Array(text.utf8))
        var builder = PathBuilder()
        var current = Point(0, 0), start = Point(0, 0)
        // The last curve's second control point, for S and T's reflection.
        var cubicControl: Point?, quadControl: Point?
        scanner.skipSeparators(comma: false)
        while !scanner.atEnd {
            guard var command = scanner.command() else {
                throw scanner.error(expected: "a command: one of M L H V C S Q T Z (or lower case)")
            }
            switch command {
            case "Z", "z":
                builder.close()
                current = start
                cubicControl = nil; quadControl = nil
                scanner.skipSeparators(comma: false)
                continue
            case "A", "a":
                throw scanner.error(expected: "a command other than A (elliptical arcs are not supported; draw them with C or Q curves)",
                                    back: 1)
            default: break
            }
            scanner.skipSeparators(comma: false)
            // One set of arguments at least, then more sets as long as numbers follow.
            repeat {
                let relative = command.isLowercase
                let origin = relative ? current : Point(0, 0)
                func point() throws -> Point {
                    let x = try scanner.number(), y = try scanner.number()
                    return Point(origin.x + x, origin.y + y)
                }
                var nextCubic: Point?, nextQuad: Point?
                switch command.uppercased() {
                case "M":
                    let p = try point()
                    try builder.move(to: p.x, p.y)
                    current = p; start = p
                    command = relative ? "l" : "L" // further pairs are lines
                case "L":
                    let p = try point()
                    try builder.line(to: p.x, p.y)
                    current = p
                case "H":
                    let x = try scanner.number()
                    current = Point((relative ? current.x : 0) + x, current.y)
                    try builder.line(to: current.x, current.y)
                case "V":
                    let y = try scanner.number()
                    current = Point(current.x, (relative ? current.y : 0) + y)
                    try builder.line(to: current.x, current.y)
                case "C", "S":
                    let first: Point
                    if command.uppercased() == "C" {
                        first = try point()
                    } else {
                        first = cubicControl.map { Point(2 * current.x - $0.x, 2 * current.y - $0.y) } ?? current
                    }
                    let second = try point(), end = try point()
                    try builder.cubic(control: first.x, first.y, second.x, second.y, to: end.x, end.y)
                    current = end
                    nextCubic = second
                default: // Q, T
                    let control: Point
                    if command.uppercased() == "Q" {
                        control = try point()
                    } else {
                        control = quadControl.map { Point(2 * current.x - $0.x, 2 * current.y - $0.y) } ?? current
                    }
                    let end = try point()
                    try builder.quad(control: control.x, control.y, to: end.x, end.y)
                    current = end
                    nextQuad = control
                }
                cubicControl = nextCubic; quadControl = nextQuad
                scanner.skipSeparators(comma: true)
            } while scanner.startsNumber
        }
        return builder.path
    }

    /// Reads the grammar's pieces from UTF-8 bytes, keeping the offset for messages.
    struct Scanner {
        let bytes: [UInt8]
        var offset = 0

        var atEnd: Bool { offset >= bytes.count }
        private var next: UInt8? { atEnd ? nil : bytes[offset] }

        private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D }
        private static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }

        /// White space, and with `comma` at most one comma among it.
        mutating func skipSeparators(comma: Bool) {
            var commaSeen = !comma
            while let b = next {
                if Self.isSpace(b) { offset += 1 } else if b == UInt8(ascii: ","), !commaSeen { commaSeen = true; offset += 1 } else { break }
            }
        }

        /// A command letter, consumed; nil (nothing consumed) when the next byte is none.
        mutating func command() -> Character? {
            guard let b = next, "MmLlHhVvCcSsQqTtAaZz".utf8.contains(b) else { return nil }
            offset += 1
            return Character(UnicodeScalar(b))
        }

        /// Whether a number starts here (a sign, a digit or a point; or the words nan and inf).
        var startsNumber: Bool {
            guard let b = next else { return false }
            return Self.isDigit(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                || wordAhead(at: offset) != nil
        }

        /// "nan", "inf" or "infinity" (any case) at `position`: its length.
        private func wordAhead(at position: Int) -> Int? {
            for word in ["infinity", "inf", "nan"] {
                let end = position + word.utf8.count
                guard end <= bytes.count else { continue }
                if String(decoding: bytes[position..<end], as: UTF8.self).lowercased() == word { return word.utf8.count }
            }
            return nil
        }

        /// sign? (digits ("." digits?)? | "." digits) (("e" | "E") sign? digits)?, then separators.
        mutating func number() throws -> Double {
            let begin = offset
            var i = offset
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            if let word = wordAhead(at: i) {
                i += word
            } else {
                var digits = 0
                while i < bytes.count, Self.isDigit(bytes[i]) { i += 1; digits += 1 }
                if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                    var fraction = 0
                    var j = i + 1
                    while j < bytes.count, Self.isDigit(bytes[j]) { j += 1; fraction += 1 }
                    if digits > 0 || fraction > 0 { i = j; digits += fraction }
                }
                guard digits > 0 else { throw error(expected: "a number") }
                // An exponent only where digits follow its e (and sign).
                if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                    var j = i + 1
                    if j < bytes.count, bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+") { j += 1 }
                    if j < bytes.count, Self.isDigit(bytes[j]) {
                        while j < bytes.count, Self.isDigit(bytes[j]) { j += 1 }
                        i = j
                    }
                }
            }
            guard let value = Double(String(decoding: bytes[begin..<i], as: UTF8.self)) else { throw error(expected: "a number") }
            offset = i
            skipSeparators(comma: true)
            return value
        }

        /// A syntax error at the offset (less `back` bytes), quoting a few characters from there.
        func error(expected: String, back: Int = 0) -> SyntaxError {
            let at = max(0, offset - back)
            let end = min(bytes.count, at + 12)
            // Control characters (a line break) shown as spaces: the message stays one line.
            let found = at < bytes.count ? String(decoding: bytes[at..<end].map { $0 < 0x20 || $0 == 0x7F ? 0x20 : $0 }, as: UTF8.self) : "(end)"
            return SyntaxError(found: found, offset: at, expected: expected)
        }
    }
}
