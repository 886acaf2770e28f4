/// A JSON reader for Lottie files (RFC 8259): bytes to a `JSONValue`, with
/// limits a hostile file cannot pass (nesting depth, size), and one-line
/// errors that give the byte offset. Written here rather than taken from
/// Foundation so that nesting is bounded (no stack overflow at 100,000
/// levels) and every refusal is Waves' own line.

/// A parsed JSON value.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case let .object(o) = self { return o[key] }
        return nil
    }

    public var number: Double? {
        switch self {
        case let .number(n): n
        case let .bool(b): b ? 1 : 0
        default: nil
        }
    }

    public var array: [JSONValue]? { if case let .array(a) = self { return a }; return nil }
    public var object: [String: JSONValue]? { if case let .object(o) = self { return o }; return nil }
    public var string: String? { if case let .string(s) = self { return s }; return nil }
}

/// A file that is not JSON, or is beyond the limits.
public struct JSONError: Error, Equatable, CustomStringConvertible {
    public let offset: Int
    public let problem: String
    public var description: String { "not JSON at byte \(offset): \(problem)" }
}

public enum JSONReader {
    /// Deepest nesting of arrays and objects accepted.
    public static let maxDepth = 256

    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { try parse($0) }
    }

    /// Bytes read in place (a file's, without a copy).
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var reader = Reader(bytes: buffer)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.offset == buffer.count else { throw reader.error("text after the value") }
        return value
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func error(_ problem: String) -> JSONError { JSONError(offset: offset, problem: problem) }

        var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipSpace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x09, 0x0A, 0x0D: offset += 1
                default: return
                }
            }
        }

        mutating func expect(_ word: String) throws {
            for b in word.utf8 {
                guard peek == b else { throw error("expected a value (an object, array, string, number, true, false or null)") }
                offset += 1
            }
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard let b = peek else { throw error("the file ends where a value was expected (truncated?)") }
            switch b {
            case UInt8(ascii: "{"):
                guard depth < JSONReader.maxDepth else { throw error("nested deeper than \(JSONReader.maxDepth) levels") }
                offset += 1
                var object: [String: JSONValue] = [:]
                skipSpace()
                if peek == UInt8(ascii: "}") { offset += 1; return .object(object) }
                while true {
                    skipSpace()
                    guard peek != nil else { throw error("the file ends inside an object (truncated?)") }
                    guard peek == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
                    let key = try string()
                    skipSpace()
                    guard peek == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                    offset += 1
                    skipSpace()
                    object[key] = try value(depth: depth + 1)
                    skipSpace()
                    guard let next = peek else { throw error("the file ends inside an object (truncated?)") }
                    offset += 1
                    if next == UInt8(ascii: "}") { return .object(object) }
                    guard next == UInt8(ascii: ",") else { offset -= 1; throw error("expected ',' or '}' in an object") }
                }
            case UInt8(ascii: "["):
                guard depth < JSONReader.maxDepth else { throw error("nested deeper than \(JSONReader.maxDepth) levels") }
                offset += 1
                var array: [JSONValue] = []
                skipSpace()
                if peek == UInt8(ascii: "]") { offset += 1; return .array(array) }
                while true {
                    skipSpace()
                    array.append(try value(depth: depth + 1))
                    skipSpace()
                    guard let next = peek else { throw error("the file ends inside an array (truncated?)") }
                    offset += 1
                    if next == UInt8(ascii: "]") { return .array(array) }
                    guard next == UInt8(ascii: ",") else { offset -= 1; throw error("expected ',' or ']' in an array") }
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            default: return .number(try number())
            }
        }

        mutating func number() throws -> Double {
            let start = offset
            while let b = peek, b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".") || b == UInt8(ascii: "e")
                || b == UInt8(ascii: "E") || (0x30...0x39).contains(b) {
                offset += 1
            }
            guard offset > start, offset - start < 64,
                  let text = String(bytes: UnsafeBufferPointer(rebasing: bytes[start..<offset]), encoding: .ascii),
                  let value = Double(text) else {
                offset = start
                throw error("expected a value (an object, array, string, number, true, false or null)")
            }
            guard value.isFinite else { offset = start; throw error("a number too large to be finite") }
            return value
        }

        mutating func string() throws -> String {
            offset += 1
            var out: [UInt8] = []
            while true {
                guard let b = peek else { throw error("the file ends inside a string (truncated?)") }
                offset += 1
                switch b {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let e = peek else { throw error("the file ends inside a string (truncated?)") }
                    offset += 1
                    switch e {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code), peek == UInt8(ascii: "\\"), offset + 1 < bytes.count,
                           bytes[offset + 1] == UInt8(ascii: "u") {
                            offset += 2
                            let low = try hex4()
                            if (0xDC00..<0xE000).contains(low) { code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) }
                        }
                        out.append(contentsOf: Array(String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8))
                    default: out.append(e)
                    }
                default:
                    out.append(b)
                }
            }
        }

        mutating func hex4() throws -> UInt32 {
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard let b = peek, let digit = Int(String(UnicodeScalar(b)), radix: 16) else { throw error("expected four hex digits after \\u") }
                code = code << 4 | UInt32(digit)
                offset += 1
            }
            return code
        }
    }
}
