/// One pixel: non-premultiplied RGBA, 8 bits a channel, plain numbers (no gamma).
public struct RGBA8: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// The pixel as it lies in memory (R first) read as one little-endian word.
    public var packed: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }

    public init(packed v: UInt32) {
        self.init(UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24))
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (the `#` is optional); nil for anything else.
    public init?(hex text: String) {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8,
              digits.allSatisfy(\.isHexDigit),
              let value = UInt32(digits, radix: 16) else { return nil }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(UInt8(rgba >> 24), UInt8(rgba >> 16 & 0xFF), UInt8(rgba >> 8 & 0xFF), UInt8(rgba & 0xFF))
    }

    /// As typed: `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var hex: String {
        "#" + (a == 255 ? [r, g, b] : [r, g, b, a]).map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
    }

    public var description: String {
        "#" + [r, g, b, a].map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// An image in the project's one pixel convention: rows top to bottom, RGBA8,
/// non-premultiplied; pixel (x, y) covers [x, x+1] x [y, y+1].
public struct RGBAImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes, row after row from the top.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "RGBAImage: \(pixels.count) bytes do not make \(width)x\(height) RGBA pixels")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(width: Int, height: Int, fill: RGBA8 = RGBA8(0, 0, 0, 0)) {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: bytes.count, by: 4) {
            bytes[i] = fill.r; bytes[i + 1] = fill.g; bytes[i + 2] = fill.b; bytes[i + 3] = fill.a
        }
        self.init(width: width, height: height, pixels: bytes)
    }

    public subscript(x: Int, y: Int) -> RGBA8 {
        get {
            let i = (y * width + x) * 4
            return RGBA8(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue.r; pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b; pixels[i + 3] = newValue.a
        }
    }

    /// Reverses the row order in place (between top-to-bottom and GL's bottom-to-top).
    public mutating func flipRows() {
        let row = width * 4
        pixels.withUnsafeMutableBytes { bytes in
            var scratch = [UInt8](repeating: 0, count: row)
            scratch.withUnsafeMutableBytes { tmp in
                for y in 0..<height / 2 {
                    let top = bytes.baseAddress! + y * row, bottom = bytes.baseAddress! + (height - 1 - y) * row
                    tmp.baseAddress!.copyMemory(from: top, byteCount: row)
                    top.copyMemory(from: bottom, byteCount: row)
                    bottom.copyMemory(from: tmp.baseAddress!, byteCount: row)
                }
            }
        }
    }

    /// The rows `rows` of this image as an image of their own.
    public func cropped(rows: Range<Int>, columns: Range<Int>? = nil) -> RGBAImage {
        let cols = columns ?? 0..<width
        var out = [UInt8]()
        out.reserveCapacity(rows.count * cols.count * 4)
        for y in rows {
            let start = (y * width + cols.lowerBound) * 4
            out.append(contentsOf: pixels[start..<start + cols.count * 4])
        }
        return RGBAImage(width: cols.count, height: rows.count, pixels: out)
    }
}
