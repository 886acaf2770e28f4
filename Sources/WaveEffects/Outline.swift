import WaveCore

/// A user's outline (SVG path data) drawn as one still strip, travelling
/// left at a constant speed: the smallest effect that takes its geometry
/// from outside, and so the one that meets untrusted numbers.
public struct Outline: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    public var color = RGBA8(0x3A, 0x9B, 0xFF)
    public var path: Path
    /// Content offset speed: u(t) = pixelsPerSecond * t (positive moves the outline left).
    public var pixelsPerSecond = 0.0
    public var snapToPixel = false

    public init(width: Int, height: Int, path: Path) {
        self.width = width
        self.height = height
        self.path = path
    }

    public func scene() throws -> Scene {
        try Scene.validate(width: width, height: height)
        guard pixelsPerSecond.isFinite else {
            throw SceneError(parameter: "speed", value: "\(pixelsPerSecond)", accepted: "a finite number of pixels per second")
        }
        let layer = FlatLayer(content: .strip(Strip(path: path)), paint: .solid(color),
                          motion: Motion(.travel(start: 0, pixelsPerSecond: pixelsPerSecond), snapsToPixel: snapToPixel))
        let scene = Scene(width: width, height: height, background: background, layers: [layer])
        try scene.validate()
        return scene
    }
}

/// SVG path data, the subset a wave outline needs: M/m, L/l, H/h, V/v,
/// Q/q and Z/z, numbers separated by spaces or commas. Every coordinate goes
/// through `PathBuilder`, so a NaN or an infinity is a `PathError`.
public enum PathData {
    public struct SyntaxError: Error, Equatable, CustomStringConvertible {
        public let token: String
        public let index: Int
        public let expected: String
        public var description: String { "path data token \(index + 1) '\(token)': expected \(expected)" }
    }

    public static func parse(_ text: String) throws -> Path {
        let tokens = tokenize(text)
        var builder = PathBuilder()
        var i = 0
        var command: Character?
        var current = Point(0, 0), start = Point(0, 0)
        func number() throws -> Double {
            guard i < tokens.count, let value = Double(tokens[i]) else {
                throw SyntaxError(token: i < tokens.count ? tokens[i] : "(end)", index: i, expected: "a number")
            }
            i += 1
            return value
        }
        while i < tokens.count {
            if let letter = tokens[i].first, tokens[i].count == 1, letter.isLetter {
                guard "MmLlHhVvQqZz".contains(letter) else {
                    throw SyntaxError(token: tokens[i], index: i, expected: "one of the commands M L H V Q Z (or lower case)")
                }
                command = letter
                i += 1
                if letter == "Z" || letter == "z" {
                    builder.close()
                    current = start
                    command = nil
                }
                continue
            }
            guard let c = command else {
                throw SyntaxError(token: tokens[i], index: i, expected: "a command (M, L, H, V, Q or Z) before numbers")
            }
            let relative = c.isLowercase
            let origin = relative ? current : Point(0, 0)
            switch c.uppercased() {
            case "M":
                let p = Point(origin.x + (try number()), origin.y + (try number()))
                try builder.move(to: p.x, p.y)
                current = p; start = p
                command = relative ? "l" : "L" // further pairs are lines
            case "L":
                let p = Point(origin.x + (try number()), origin.y + (try number()))
                try builder.line(to: p.x, p.y)
                current = p
            case "H":
                let p = Point((relative ? current.x : 0) + (try number()), current.y)
                try builder.line(to: p.x, p.y)
                current = p
            case "V":
                let p = Point(current.x, (relative ? current.y : 0) + (try number()))
                try builder.line(to: p.x, p.y)
                current = p
            default: // Q
                let control = Point(origin.x + (try number()), origin.y + (try number()))
                let end = Point(origin.x + (try number()), origin.y + (try number()))
                try builder.quad(control: control.x, control.y, to: end.x, end.y)
                current = end
            }
        }
        return builder.path
    }

    /// Splits on spaces and commas, before every command letter, and before
    /// a sign that starts a new number (SVG's compact "10-5" is 10 and -5;
    /// the sign of an exponent, as in 1e-5, stays).
    static func tokenize(_ text: String) -> [String] {
        var tokens: [String] = []
        var token = ""
        func flush() { if !token.isEmpty { tokens.append(token); token = "" } }
        for ch in text {
            if ch.isWhitespace || ch == "," {
                flush()
            } else if "MmLlHhVvQqZz".contains(ch) {
                // A command letter ends a number ("e", "nan", "inf" hold none).
                flush()
                tokens.append(String(ch))
            } else if (ch == "-" || ch == "+"), let last = token.last, last != "e", last != "E" {
                flush()
                token.append(ch)
            } else {
                token.append(ch)
            }
        }
        flush()
        return tokens
    }
}
