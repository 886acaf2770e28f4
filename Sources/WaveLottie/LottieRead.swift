import WaveCore

/// Reading a Lottie file's values with their place named: numbers,
/// animatable properties and outlines out of the parsed JSON, each refusal
/// one `LottieError` that says where in the file and what was expected.

/// A Lottie file Waves cannot read: the place in the file ("layers[2].ks.p") and the problem.
public struct LottieError: Error, Equatable, CustomStringConvertible, UserFacingError {
    public let place: String
    public let problem: String
    /// The file is not there or cannot be read (exit 66), rather than its contents being wrong (65).
    public let isMissing: Bool
    public init(place: String, problem: String, isMissing: Bool = false) { self.place = place; self.problem = problem; self.isMissing = isMissing }
    public var description: String { place.isEmpty ? "Lottie file: \(problem)" : "Lottie file, \(place): \(problem)" }
    package var exitStatus: Int32 { isMissing ? ExitStatus.missingInput : ExitStatus.badData }
}

/// Text from the file as a message shows it: at most 40 characters, in
/// quotes, control characters escaped (so a message stays one line).
func quoted(_ text: String) -> String {
    let short = text.count > 40 ? String(text.prefix(40)) + "..." : text
    return "'" + short.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? $0.escaped(asASCII: true) : String($0) }.joined() + "'"
}

/// A JSON value and where it sits in the file, for messages.
struct Node {
    let value: JSONValue
    let place: String

    init(_ value: JSONValue, _ place: String) { self.value = value; self.place = place }

    func fail(_ problem: String) -> LottieError { LottieError(place: place, problem: problem) }

    subscript(key: String) -> Node? { value[key].map { Node($0, place.isEmpty ? key : "\(place).\(key)") } }

    var items: [Node] {
        guard case let .array(a) = value else { return [] }
        return a.enumerated().map { Node($1, "\(place)[\($0)]") }
    }

    func number(_ key: String, default fallback: Double? = nil) throws -> Double {
        guard let node = self[key] else {
            if let fallback { return fallback }
            throw fail("no '\(key)' (a number is needed)")
        }
        return try node.asNumber()
    }

    func asNumber() throws -> Double {
        if case let .array(a) = value, let first = a.first { return try Node(first, place + "[0]").asNumber() }
        guard let n = value.number, n.isFinite else { throw fail("expected a number") }
        return n
    }

    func numbers() throws -> [Double] {
        switch value {
        case let .number(n): return [n]
        case let .array(a):
            guard a.count <= 4096 else { throw fail("an array of \(a.count) numbers where at most 4096 are expected") }
            return try a.enumerated().map { i, v in
                guard let n = v.number, n.isFinite else { throw LottieError(place: "\(place)[\(i)]", problem: "expected a number") }
                return n
            }
        default: throw fail("expected a number or an array of numbers")
        }
    }

    func bool(_ key: String) -> Bool { self[key]?.value.number.map { $0 != 0 } ?? false }
    func string(_ key: String) -> String? { self[key]?.value.string }

    /// An animatable property (`{"a": 0|1, "k": ...}`), or `fallback` where absent.
    func animated(_ key: String, default fallback: [Double]) throws -> AnimatedValue {
        guard let node = self[key] else { return AnimatedValue(fallback) }
        return try node.asAnimated()
    }

    func asAnimated() throws -> AnimatedValue {
        guard let k = self["k"] else {
            if case .number = value { return AnimatedValue(try numbers()) }
            throw fail("no 'k' (an animatable property's value)")
        }
        guard let frames = keyframeNodes(k) else { return AnimatedValue(try k.numbers()) }
        var keyframes: [Keyframe] = []
        var previousEnd: [Double]?
        for f in frames {
            let start = try f["s"]?.numbers() ?? previousEnd ?? keyframes.last?.start ?? []
            var keyframe = try keyframeTiming(f, start: start)
            keyframe.end = try f["e"]?.numbers()
            keyframe.spatialOut = try f["to"]?.numbers()
            keyframe.spatialIn = try f["ti"]?.numbers()
            previousEnd = keyframe.end
            keyframes.append(keyframe)
        }
        return AnimatedValue(keyframes: keyframes)
    }

    /// The keyframes of `k` when it holds keyframes (objects with a time), nil for a plain value.
    private func keyframeNodes(_ k: Node) -> [Node]? {
        guard case let .array(a) = k.value, case let .object(first)? = a.first, first["t"] != nil else { return nil }
        return k.items
    }

    private func keyframeTiming(_ f: Node, start: [Double]) throws -> Keyframe {
        func handle(_ key: String, _ axis: String) throws -> [Double] {
            guard let h = f[key], let v = h[axis] else { return [] }
            return try v.numbers()
        }
        return Keyframe(time: try f.number("t"), start: start, end: nil, hold: f.bool("h"),
                        outX: try handle("o", "x"), outY: try handle("o", "y"), inX: try handle("i", "x"), inY: try handle("i", "y"))
    }

    /// A path property (`ks` of a path item, `pt` of a mask): an outline or keyframes of outlines.
    func animatedShape(_ key: String) throws -> AnimatedShape {
        guard let node = self[key] else { throw fail("no '\(key)' (a path)") }
        guard let k = node["k"] else { throw node.fail("no 'k' (a path's value)") }
        if let frames = keyframeNodes(k) {
            var keyframes: [Keyframe] = [], starts: [BezierShape] = [], ends: [BezierShape?] = []
            for f in frames {
                let start: BezierShape
                if let s = f["s"] { start = try s.bezier() } else if let e = ends.last ?? nil { start = e } else if let s = starts.last { start = s } else {
                    throw f.fail("a path keyframe with no value 's'")
                }
                keyframes.append(try keyframeTiming(f, start: []))
                starts.append(start)
                ends.append(try f["e"]?.bezier())
            }
            return AnimatedShape(fixed: starts[0], keyframes: keyframes, starts: starts, ends: ends)
        }
        return AnimatedShape(fixed: try k.bezier(), keyframes: [], starts: [], ends: [])
    }

    /// An outline: `{"v": [[x, y]...], "i": [...], "o": [...], "c": closed}`, or one wrapped in an array (older files).
    func bezier() throws -> BezierShape {
        if case let .array(a) = value, let first = a.first { return try Node(first, place + "[0]").bezier() }
        func points(_ key: String) throws -> [Point] {
            guard let list = self[key] else { return [] }
            guard list.items.count <= 100_000 else { throw list.fail("more than 100000 points") }
            return try list.items.map { p in
                let n = try p.numbers()
                guard n.count >= 2 else { throw p.fail("a point needs two numbers") }
                return Point(n[0], n[1])
            }
        }
        let v = try points("v")
        var i = try points("i"), o = try points("o")
        if i.count != v.count { i = Array(repeating: Point(0, 0), count: v.count) }
        if o.count != v.count { o = Array(repeating: Point(0, 0), count: v.count) }
        return BezierShape(vertices: v, inTangents: i, outTangents: o, closed: bool("c"))
    }
}

extension AnimatedValue {
    /// The value's first number (opacity, a width, a rotation).
    func scalar(at frame: Double) -> Double { value(at: frame).first ?? 0 }
}
