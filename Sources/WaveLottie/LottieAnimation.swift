import Foundation
import WaveCore

/// A Lottie animation (Bodymovin's JSON, the Lottie Animation Community's
/// format) turned into Waves' layer tree, as lottie-ios's Core Animation
/// engine turns one into CALayers: a Lottie layer becomes a layer whose
/// anchor, position, rotation, scale and opacity are timelines of the file's
/// keyframes (each segment its Bézier easing), its parent's transform a
/// layer around it, its in and out points an opacity step; a shape group
/// becomes a layer with its transform, and each fill and stroke a shape
/// layer. An outline that never changes is a fixed path (the GL strategy
/// rasterises it once); one that changes (a morph, an animated size, a
/// trim) is made at every frame of the frames it changes over and drawn
/// as the frame's outline. Time: scene time t shows the file's frame `ip + first + t * fr`,
/// looping back to the in point at the out point (as players play it).
///
/// Not drawn yet, and counted (`drewWithout`): expressions, text layers,
/// layer effects, gradients keyframed over 1,000 frames, the hard mix blend mode.
public struct LottieAnimation: Sendable {
    /// The composition's size, frame rate, and in and out points (frames).
    public let width: Double, height: Double, frameRate: Double, inPoint: Double, outPoint: Double
    let root: JSONValue
    /// The file's markers (`markers`: a name, its frame and its length in frames), in the file's order.
    public let markers: [Marker]
    /// The folder the file was read from (images beside it), nil for bytes.
    let folder: String?

    /// The largest file read (bytes).
    public static let maxFileSize = 256 << 20
    /// The largest composition side, frame rate and frame count accepted.
    public static let maxSide = 100_000.0, maxFrameRate = 1000.0, maxFrames = 1_000_000.0

    /// Frames from the in point to the out point (what rlottie and ThorVG count).
    public var frameCount: Int { Int(holding: outPoint - inPoint, to: 1...Int(Self.maxFrames)) }
    public var duration: Double { (outPoint - inPoint) / frameRate }

    public init(contentsOf path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
              let handle = FileHandle(forReadingAtPath: path) else {
            throw LottieError(place: "", problem: "cannot open '\(path)' (expected a Lottie JSON file)", isMissing: true)
        }
        defer { try? handle.close() }
        let data = try handle.read(upToCount: Self.maxFileSize + 1) ?? Data()
        guard data.count <= Self.maxFileSize else {
            throw LottieError(place: "", problem: "larger than \(Self.maxFileSize >> 20) MiB")
        }
        let json: JSONValue
        do {
            json = try data.withUnsafeBytes { try JSONReader.parse($0.bindMemory(to: UInt8.self)) }
        } catch let e as JSONError { throw LottieError(place: "", problem: e.description) }
        try self.init(json: json, folder: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// A file's bytes; `folder` is where images beside it are looked for.
    public init(bytes: [UInt8], folder: String? = nil) throws {
        let json: JSONValue
        do { json = try JSONReader.parse(bytes) } catch let e as JSONError { throw LottieError(place: "", problem: e.description) }
        try self.init(json: json, folder: folder)
    }

    private init(json: JSONValue, folder: String?) throws {
        self.folder = folder
        let top = Node(json, "")
        guard case .object = json else { throw top.fail("expected an object at the top (a Lottie animation)") }
        width = try top.number("w")
        height = try top.number("h")
        frameRate = try top.number("fr")
        inPoint = try top.number("ip")
        outPoint = try top.number("op")
        guard width > 0, height > 0, width <= Self.maxSide, height <= Self.maxSide else {
            throw top.fail("a composition of \(width)x\(height): expected sides above 0 up to \(Int(Self.maxSide))")
        }
        guard frameRate > 0, frameRate <= Self.maxFrameRate else {
            throw top.fail("a frame rate of \(frameRate): expected above 0 up to \(Int(Self.maxFrameRate))")
        }
        guard outPoint > inPoint, outPoint - inPoint <= Self.maxFrames else {
            throw top.fail("in point \(inPoint), out point \(outPoint): expected the out point after the in point, at most \(Int(Self.maxFrames)) frames")
        }
        guard top["layers"]?.value.array != nil else { throw top.fail("no 'layers' array") }
        var markers: [Marker] = []
        for m in (top["markers"]?.items ?? []).prefix(Self.maxMarkers) {
            let name = m.string("cm") ?? "", at = try m.number("tm", default: 0), length = try m.number("dr", default: 0)
            guard at.isFinite, length.isFinite, abs(at) <= Self.maxFrames, length >= 0, length <= Self.maxFrames else {
                throw m.fail("a marker at frame \(at) for \(length) frames: expected frames within 0 to \(Int(Self.maxFrames))")
            }
            markers.append(Marker(name: name, frame: at, frames: length))
        }
        self.markers = markers
        root = json
    }

    /// The most markers read (the rest are left).
    public static let maxMarkers = 10_000

    /// A named part of the animation (After Effects' composition markers).
    public struct Marker: Equatable, Sendable {
        public let name: String
        /// Its first frame (the composition's, not counted from the in point) and its length in frames.
        public let frame: Double, frames: Double
    }

    /// The tree for a scene of `width` x `height` pixels (the animation
    /// scaled to fit, centred), scene time 0 at frame `firstFrame` after the
    /// in point (or, playing only `marker`, after the marker's frame: its
    /// frames played in a loop); and what was drawn without.
    public func scene(width sceneWidth: Int, height sceneHeight: Int, background: RGBA8,
                      firstFrame: Double = 0, marker: Marker? = nil) throws -> (scene: Scene, drewWithout: DrewWithout) {
        let (start, end) = marker.map { ($0.frame, $0.frame + Swift.max(1, $0.frames)) } ?? (inPoint, outPoint)
        let w = Double(sceneWidth), h = Double(sceneHeight)
        let fit = Swift.min(w / width, h / height)
        let builder = TreeBuilder(rate: frameRate, assets: try assets(), folder: folder, shownScale: fit)
        let top = Node(root, "")
        let layers = try builder.layers(top["layers"]!.items, mapping: TimeMapping(start: 0, stretch: 1, shown: Swift.min(inPoint, start)...Swift.max(outPoint, end)), depth: 0)
        var composition = Layer(name: "composition", frame: Rect(x: 0, y: 0, width: width, height: height), sublayers: layers)
        composition.anchorPoint = Point(0, 0)
        composition.position = AnimatablePoint((w - width * fit) / 2, (h - height * fit) / 2)
        composition.transform = AnimatableTransform(scaleX: fit, scaleY: fit)
        composition.masksToBounds = true
        // The composition's frames from its in point (or the marker's frame): local time in seconds is the frame over the rate.
        composition.timing = MediaTiming(beginTime: -start / frameRate, duration: .infinity, fillMode: .both)
        // Played in a loop, as players play a Lottie file: from frame `firstFrame` after the in point, back to the in point at the out point.
        var loop = Layer(name: "loop", frame: Rect(x: 0, y: 0, width: w, height: h), sublayers: [composition])
        loop.timing = .endlessLoop(duration: (end - start) / frameRate, timeOffset: firstFrame / frameRate)
        let rootLayer = Layer(name: "lottie", frame: Rect(x: 0, y: 0, width: w, height: h), sublayers: [loop])
        var scene = Scene(width: sceneWidth, height: sceneHeight, background: background, tree: LayerTree(root: rootLayer))
        scene.frameRate = frameRate
        return (scene, builder.without)
    }

    private func assets() throws -> [String: Node] {
        var byID: [String: Node] = [:]
        for asset in Node(root, "")["assets"]?.items ?? [] {
            if let id = asset["id"]?.value.string ?? asset["id"]?.value.number.map({ String(Int(holding: $0, to: Int(Int32.min)...Int(Int32.max))) }) { byID[id] = asset }
        }
        return byID
    }
}

/// What a file uses that Waves drew without, counted: "expressions in 3 properties, 2 text layers".
public struct DrewWithout: Equatable, Sendable {
    public private(set) var counts: [String: Int] = [:]

    mutating func add(_ what: String, _ n: Int = 1) { counts[what, default: 0] += n }

    public var isEmpty: Bool { counts.isEmpty }

    /// "drew without: ..." or nil when nothing was left out; a count of one names it in the singular.
    public var line: String? {
        guard !counts.isEmpty else { return nil }
        return "drew without: " + counts.sorted { $0.key < $1.key }
            .map { "\($0.value) \($0.value == 1 ? Self.singular($0.key) : $0.key)" }.joined(separator: ", ")
    }

    /// A counted phrase in the singular: its first plural word made singular ("masks of mode 'a'" to "mask of mode 'a'",
    /// "layer effects" to "layer effect", "repeater copies" to "repeater copy").
    static func singular(_ phrase: String) -> String {
        var words = phrase.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard let i = words.firstIndex(where: { $0.count > 2 && $0.hasSuffix("s") }) else { return phrase }
        words[i] = words[i].hasSuffix("ies") ? String(words[i].dropLast(3)) + "y" : String(words[i].dropLast())
        return words.joined(separator: " ")
    }
}

/// How a layer's frames relate to its composition's: local = (comp - start)
/// / stretch; and the local frames the animation shows (those its outlines
/// that change are made at).
struct TimeMapping {
    var start: Double
    var stretch: Double
    var shown: ClosedRange<Double>

    /// The mapping of a layer with start time `start` and stretch `stretch`
    /// in this one's frames; nil where a time would not stay finite (nested
    /// stretches that overflow or vanish).
    func inner(start innerStart: Double, stretch innerStretch: Double) -> TimeMapping? {
        let a = (shown.lowerBound - innerStart) / innerStretch, b = (shown.upperBound - innerStart) / innerStretch
        let newStart = start + innerStart * stretch, newStretch = stretch * innerStretch
        guard a.isFinite, b.isFinite, newStart.isFinite, newStretch.isFinite, newStretch != 0 else { return nil }
        return TimeMapping(start: newStart, stretch: newStretch, shown: Swift.min(a, b)...Swift.max(a, b))
    }

    /// The media timing that gives `inner` under a parent whose time is `self`'s, in seconds at `rate`.
    func timing(for inner: TimeMapping, rate: Double) -> MediaTiming {
        if inner.start == start && inner.stretch == stretch { return .passThrough }
        return MediaTiming(beginTime: (inner.start - start) / stretch / rate, duration: .infinity,
                           speed: stretch / inner.stretch, fillMode: .both)
    }
}

extension LottieAnimation {
    /// What the file uses, in the specification's words ("precompositions",
    /// "trims", "alpha mattes"...), for reports: its layers' kinds and
    /// shape items, masks, mattes, parenting, time remapping, expressions, effects.
    public var featuresUsed: Set<String> {
        var found: Set<String> = []
        let layerKinds = [0: "precompositions", 1: "solids", 2: "images", 3: "nulls", 4: "shapes", 5: "text"]
        let itemKinds = ["rc": "rectangles", "el": "ellipses", "sr": "polystars", "sh": "paths", "fl": "fills", "st": "strokes",
                         "gf": "gradient fills", "gs": "gradient strokes", "tm": "trims", "rp": "repeaters", "rd": "rounded corners",
                         "mm": "merge paths"]
        func items(_ list: [JSONValue]) {
            for item in list {
                guard let type = item["ty"]?.string else { continue }
                if let name = itemKinds[type] { found.insert(name) }
                if type == "sh", item["ks"]?["a"]?.number == 1 { found.insert("morphs") }
                if type == "st", item["d"]?.array?.isEmpty == false { found.insert("dashes") }
                if type == "gr" { items(item["it"]?.array ?? []) }
            }
        }
        func layers(_ list: [JSONValue]) {
            for layer in list {
                if let kind = layer["ty"]?.number.flatMap({ layerKinds[Int(holding: $0, to: -1...100)] }) { found.insert(kind) }
                if layer["parent"] != nil { found.insert("parenting") }
                if layer["masksProperties"]?.array?.isEmpty == false { found.insert("masks") }
                if let tt = layer["tt"]?.number, tt > 0 { found.insert(tt <= 2 ? "alpha mattes" : "luma mattes") }
                if layer["tm"] != nil { found.insert("time remapping") }
                if layer["ef"]?.array?.isEmpty == false { found.insert("effects") }
                if layer["ddd"]?.number == 1 { found.insert("3D layers") }
                if let bm = layer["bm"]?.number, bm != 0 { found.insert("blend modes") }
                if Self.hasExpression(layer) { found.insert("expressions") }
                items(layer["shapes"]?.array ?? [])
            }
        }
        layers(root["layers"]?.array ?? [])
        for asset in root["assets"]?.array ?? [] { layers(asset["layers"]?.array ?? []) }
        if !markers.isEmpty { found.insert("markers") }
        return found
    }

    /// Whether a property below `value` holds an expression (`"x": "..."`).
    private static func hasExpression(_ value: JSONValue) -> Bool {
        switch value {
        case let .object(o): return o.contains { key, v in (key == "x" && v.string != nil) || hasExpression(v) }
        case let .array(a): return a.contains(where: hasExpression)
        default: return false
        }
    }
}
