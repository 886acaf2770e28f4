/// audiowaveform's JSON peaks read in one pass over the file's bytes, the
/// values going straight into the peaks: JSONSerialization made an object
/// for every value first (a three-hour track's 9 MB of JSON took 325 MB).
/// The whole JSON grammar is checked (RFC 8259, and what JSONSerialization
/// also took: a trailing comma; any other members, of any kind, nested up
/// to `maxDepth`, are read past); of the root object's members only the
/// peaks' own are kept. `make fuzz` checks it against JSONSerialization.
struct PeaksJSON {
    typealias Problem = WaveformData.Problem

    /// Arrays and objects inside one another, at most.
    static let maxDepth = 512

    /// A member the peaks need: a number, or something else (refused where a number is wanted).
    enum Scalar { case number(Double), other }

    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    private static let notJSON = Problem(text: "not a JSON object")

    /// The root object's scalar members by name, and its "data" member: the
    /// values when it is an array of numbers, whether any value is not a
    /// whole number (in Int), and whether it is an array at all.
    struct Root {
        var scalars: [String: Scalar] = [:]
        var data: [Int]?
        var dataIsArray = false
        var dataHasNonInteger = false
    }

    mutating func read() throws -> Root {
        skipSpace()
        guard next == UInt8(ascii: "{") else { throw Self.notJSON }
        offset += 1
        var root = Root()
        skipSpace()
        if next == UInt8(ascii: "}") {
            offset += 1
        } else {
            while true {
                skipSpace()
                let key = try string()
                skipSpace()
                try expect(":")
                skipSpace()
                switch key {
                case "data":
                    if next == UInt8(ascii: "[") {
                        root.dataIsArray = true
                        (root.data, root.dataHasNonInteger) = try integers()
                    } else {
                        root.dataIsArray = false
                        root.data = nil
                        try skipValue(depth: 1)
                    }
                case "version", "channels", "sample_rate", "samples_per_pixel", "bits", "length":
                    if let number = try numberIfAny() { root.scalars[key] = .number(number) } else {
                        root.scalars[key] = .other
                        try skipValue(depth: 1)
                    }
                default:
                    try skipValue(depth: 1)
                }
                skipSpace()
                if next == UInt8(ascii: ","), !closesAfterComma(UInt8(ascii: "}")) { offset += 1; continue }
                if next == UInt8(ascii: ",") { offset += 1; skipSpace() }
                try expect("}")
                break
            }
        }
        skipSpace()
        guard offset == bytes.count else { throw Self.notJSON }
        return root
    }

    // MARK: Grammar

    private var next: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipSpace() {
        while let b = next, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { offset += 1 }
    }

    /// Whether the comma at the offset is the last thing before `close`:
    /// a trailing comma, which Foundation's JSONSerialization (the reader
    /// before this one) accepts, so files read before still read.
    private func closesAfterComma(_ close: UInt8) -> Bool {
        var i = offset + 1
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        return i < bytes.count && bytes[i] == close
    }

    private mutating func expect(_ c: Unicode.Scalar) throws {
        guard next == UInt8(ascii: c) else { throw Self.notJSON }
        offset += 1
    }

    /// The array of numbers at the offset: each whole number that fits an
    /// Int as it is; anything else (a fraction, a string, an object) marks
    /// the array as holding a value that is not a whole number, and is read past.
    private mutating func integers() throws -> ([Int], Bool) {
        offset += 1 // [
        var values: [Int] = []
        var nonInteger = false
        skipSpace()
        if next == UInt8(ascii: "]") { offset += 1; return (values, false) }
        while true {
            skipSpace()
            if let whole = try integerIfAny() {
                values.append(whole)
            } else {
                nonInteger = true
                try skipValue(depth: 2)
            }
            skipSpace()
            if next == UInt8(ascii: ","), !closesAfterComma(UInt8(ascii: "]")) { offset += 1; continue }
            if next == UInt8(ascii: ",") { offset += 1; skipSpace() }
            try expect("]")
            return (values, nonInteger)
        }
    }

    /// A number at the offset as a whole Int (consumed), nil (nothing
    /// consumed) when there is no number there or it is not whole.
    private mutating func integerIfAny() throws -> Int? {
        let start = offset
        // The common case: an optional minus and at most 18 digits, no fraction or exponent.
        var i = offset
        let negative = next == UInt8(ascii: "-")
        if negative { i += 1 }
        var value = 0, digits = 0
        while i < bytes.count, (0x30...0x39).contains(bytes[i]), digits < 18 {
            value = value * 10 + Int(bytes[i] - 0x30)
            digits += 1
            i += 1
        }
        let ends = i == bytes.count || !(bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "e")
            || bytes[i] == UInt8(ascii: "E") || (0x30...0x39).contains(bytes[i]))
        if digits > 0, ends, digits == 1 || bytes[i - digits] != 0x30 {
            offset = i
            return negative ? -value : value
        }
        guard let number = try numberIfAny() else { return nil }
        guard let whole = Int(exactly: number) else {
            offset = start // read past again as a value that is not whole
            return nil
        }
        return whole
    }

    /// A JSON number at the offset (consumed), nil (nothing consumed) where none starts.
    private mutating func numberIfAny() throws -> Double? {
        guard let b = next, b == UInt8(ascii: "-") || (0x30...0x39).contains(b) else { return nil }
        let start = offset
        func digits() -> Int {
            let from = offset
            while let d = next, (0x30...0x39).contains(d) { offset += 1 }
            return offset - from
        }
        if next == UInt8(ascii: "-") { offset += 1 }
        let whole = offset
        let count = digits()
        guard count > 0, count == 1 || bytes[whole] != 0x30 else { throw Self.notJSON }
        if next == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw Self.notJSON }
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            offset += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw Self.notJSON }
        }
        // A number past Double's range is no number (as JSONSerialization has it).
        guard let value = Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)),
              value.isFinite else {
            throw Self.notJSON
        }
        return value
    }

    /// A string at the offset, unescaped (consumed).
    private mutating func string() throws -> String {
        try expect("\"")
        let start = offset
        var escaped = false
        while true {
            guard let b = next else { throw Self.notJSON }
            if b == UInt8(ascii: "\"") { break }
            guard b >= 0x20 else { throw Self.notJSON }
            offset += 1
            if b == UInt8(ascii: "\\") {
                escaped = true
                guard let e = next else { throw Self.notJSON }
                offset += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    // A surrogate only as a pair, high then low (JSONSerialization refuses half a pair).
                    let code = try hex4(at: offset)
                    offset += 4
                    if (0xDC00...0xDFFF).contains(code) { throw Self.notJSON }
                    if (0xD800...0xDBFF).contains(code) {
                        guard offset + 2 <= bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u"),
                              (0xDC00...0xDFFF).contains(try hex4(at: offset + 2)) else { throw Self.notJSON }
                        offset += 6
                    }
                default:
                    throw Self.notJSON
                }
            }
        }
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
        offset += 1 // "
        guard String(validating: raw, as: UTF8.self) != nil else { throw Self.notJSON }
        return escaped ? Self.unescape(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// The four hex digits at `position` as a number.
    private func hex4(at position: Int) throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw Self.notJSON }
        var code: UInt32 = 0
        for i in 0..<4 {
            guard let digit = Self.hex(bytes[position + i]) else { throw Self.notJSON }
            code = code << 4 | digit
        }
        return code
    }

    private static func hex(_ b: UInt8) -> UInt32? {
        switch b {
        case 0x30...0x39: UInt32(b - 0x30)
        case 0x41...0x46: UInt32(b - 0x41 + 10)
        case 0x61...0x66: UInt32(b - 0x61 + 10)
        default: nil
        }
    }

    /// A string's escapes turned into what they stand for (already checked
    /// well formed, surrogates in pairs).
    private static func unescape(_ raw: UnsafeRawBufferPointer) -> String {
        var out = String.UnicodeScalarView()
        var pendingHigh: UInt32?
        var i = 0
        func flushHigh() { if pendingHigh != nil { out.append("\u{FFFD}"); pendingHigh = nil } }
        var plain: [UInt8] = []
        func flushPlain() {
            if !plain.isEmpty { out.append(contentsOf: String(decoding: plain, as: UTF8.self).unicodeScalars); plain.removeAll() }
        }
        while i < raw.count {
            let b = raw[i]
            guard b == UInt8(ascii: "\\") else {
                flushHigh()
                plain.append(b)
                i += 1
                continue
            }
            flushPlain()
            let e = raw[i + 1]
            i += 2
            guard e == UInt8(ascii: "u") else {
                flushHigh()
                let map: [UInt8: Unicode.Scalar] = [0x22: "\"", 0x5C: "\\", 0x2F: "/", 0x62: "\u{08}", 0x66: "\u{0C}",
                                                     0x6E: "\n", 0x72: "\r", 0x74: "\t"]
                out.append(map[e]!)
                continue
            }
            let code = (0..<4).reduce(UInt32(0)) { $0 << 4 | hex(raw[i + $1])! }
            i += 4
            if (0xD800...0xDBFF).contains(code) {
                flushHigh()
                pendingHigh = code
            } else if (0xDC00...0xDFFF).contains(code), let high = pendingHigh {
                pendingHigh = nil
                out.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00))!)
            } else {
                flushHigh()
                out.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            }
        }
        flushPlain()
        flushHigh()
        return String(out)
    }

    /// Any JSON value at the offset, read past; `depth` is its nesting.
    private mutating func skipValue(depth: Int) throws {
        guard depth <= Self.maxDepth else { throw Problem(text: "nested more than \(Self.maxDepth) levels deep") }
        guard let b = next else { throw Self.notJSON }
        switch b {
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let object = b == UInt8(ascii: "{")
            let close = UInt8(ascii: object ? "}" : "]")
            offset += 1
            skipSpace()
            if next == close { offset += 1; return }
            while true {
                skipSpace()
                if object {
                    _ = try string()
                    skipSpace()
                    try expect(":")
                    skipSpace()
                }
                try skipValue(depth: depth + 1)
                skipSpace()
                if next == UInt8(ascii: ","), !closesAfterComma(close) { offset += 1; continue }
                if next == UInt8(ascii: ",") { offset += 1; skipSpace() }
                guard next == close else { throw Self.notJSON }
                offset += 1
                return
            }
        case UInt8(ascii: "t"): try word("true")
        case UInt8(ascii: "f"): try word("false")
        case UInt8(ascii: "n"): try word("null")
        default:
            guard try numberIfAny() != nil else { throw Self.notJSON }
        }
    }

    private mutating func word(_ text: StaticString) throws {
        let count = text.utf8CodeUnitCount
        guard offset + count <= bytes.count, (0..<count).allSatisfy({ bytes[offset + $0] == text.utf8Start[$0] }) else {
            throw Self.notJSON
        }
        offset += count
    }
}
