import Foundation
import WaveCore
import WaveImageIO

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
/// layer effects, animated gradients, time remapping, skew, masks of
/// lighten and darken modes (and difference and intersect after the first),
/// luma mattes, blend modes, merge paths.
public struct LottieAnimation: Sendable {
    /// The composition's size, frame rate, and in and out points (frames).
    public let width: Double, height: Double, frameRate: Double, inPoint: Double, outPoint: Double
    let root: JSONValue
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
        root = json
    }

    /// The tree for a scene of `width` x `height` pixels (the animation
    /// scaled to fit, centred), scene time 0 at frame `firstFrame` after the
    /// in point; and what was drawn without.
    public func scene(width sceneWidth: Int, height sceneHeight: Int, background: RGBA8,
                      firstFrame: Double = 0) throws -> (scene: Scene, drewWithout: DrewWithout) {
        let builder = TreeBuilder(rate: frameRate, assets: try assets(), folder: folder)
        builder.compositionFrames = inPoint...outPoint
        let top = Node(root, "")
        let layers = try builder.layers(top["layers"]!.items, mapping: TimeMapping(start: 0, stretch: 1), depth: 0)
        let w = Double(sceneWidth), h = Double(sceneHeight)
        let fit = Swift.min(w / width, h / height)
        var composition = Layer(name: "composition", frame: Rect(x: 0, y: 0, width: width, height: height), sublayers: layers)
        composition.anchorPoint = Point(0, 0)
        composition.position = AnimatablePoint((w - width * fit) / 2, (h - height * fit) / 2)
        composition.transform = AnimatableTransform(scaleX: fit, scaleY: fit)
        composition.masksToBounds = true
        // The composition's frames from its in point: local time in seconds is the frame over the rate.
        composition.timing = MediaTiming(beginTime: -inPoint / frameRate, duration: .infinity, fillMode: .both)
        // Played in a loop, as players play a Lottie file: from frame `firstFrame` after the in point, back to the in point at the out point.
        var loop = Layer(name: "loop", frame: Rect(x: 0, y: 0, width: w, height: h), sublayers: [composition])
        loop.timing = .endlessLoop(duration: duration, timeOffset: firstFrame / frameRate)
        let rootLayer = Layer(name: "lottie", frame: Rect(x: 0, y: 0, width: w, height: h), sublayers: [loop])
        return (Scene(width: sceneWidth, height: sceneHeight, background: background, tree: LayerTree(root: rootLayer)),
                builder.without)
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

    /// "drew without: ..." or nil when nothing was left out.
    public var line: String? {
        guard !counts.isEmpty else { return nil }
        return "drew without: " + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }
}

/// How a layer's frames relate to its composition's: local = (comp - start) / stretch.
struct TimeMapping {
    var start: Double
    var stretch: Double

    /// The media timing that gives `inner` under a parent whose time is `self`'s, in seconds at `rate`.
    func timing(for inner: TimeMapping, rate: Double) -> MediaTiming {
        if inner.start == start && inner.stretch == stretch { return .passThrough }
        return MediaTiming(beginTime: (inner.start - start) / stretch / rate, duration: .infinity,
                           speed: stretch / inner.stretch, fillMode: .both)
    }
}

/// Builds layers, counting what it leaves out; refuses cycles, depth and absurd counts.
final class TreeBuilder {
    let rate: Double
    let assets: [String: Node]
    var without = DrewWithout()
    private var precompsOpen: Set<String> = []
    private var itemsBuilt = 0
    /// The most layers and shape items one file may build, and the deepest nesting of precompositions and groups.
    static let maxItems = 200_000, maxDepth = 64
    /// Points of outlines one file may hold (a changing outline's at every frame).
    static let maxSampledPoints = 4_000_000
    private var sampledPoints = 0
    /// The most copies one repeater may make.
    static let maxCopies = 1000
    /// Frames of changing outlines one file may make (each outline's frames, added up).
    static let maxSampledFrames = 500_000
    private var sampledFrames = 0

    /// Where images beside the file are found.
    let folder: String?
    /// Images decoded, by asset id (a layer per use, one decoding).
    private var images: [String: RGBAImage] = [:]

    init(rate: Double, assets: [String: Node], folder: String? = nil) {
        self.rate = rate
        self.assets = assets
        self.folder = folder
    }

    /// An image asset's pixels: embedded (`data:image/png;base64,...`) or a
    /// PNG file beside the JSON (`u` + `p`); nil where the file is not there
    /// (drawn without, as the peers draw nothing). Any other bytes are refused.
    private func image(_ id: String, _ asset: Node) throws -> RGBAImage? {
        if let known = images[id] { return known }
        let p = asset.string("p") ?? ""
        var bytes: [UInt8]
        if p.hasPrefix("data:") {
            guard let comma = p.firstIndex(of: ","), p[..<comma].hasSuffix(";base64"),
                  let data = Data(base64Encoded: String(p[p.index(after: comma)...]), options: .ignoreUnknownCharacters) else {
                throw asset.fail("an embedded image that is not base64 data")
            }
            bytes = [UInt8](data)
        } else {
            let path = URL(fileURLWithPath: folder ?? ".").appendingPathComponent((asset.string("u") ?? "") + p).path
            guard let data = FileManager.default.contents(atPath: path) else {
                without.add("images not found beside the file")
                return nil
            }
            bytes = [UInt8](data)
        }
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw asset.fail("an image that is not a PNG (PNG is accepted)") }
        let decoded: RGBAImage
        do { decoded = try PNG.read(bytes: bytes, name: "image \(quoted(id))") } catch { throw asset.fail("an image that does not decode as a PNG: \(error)") }
        images[id] = decoded
        return decoded
    }

    private func count(_ node: Node) throws {
        itemsBuilt += 1
        guard itemsBuilt <= Self.maxItems else { throw node.fail("more than \(Self.maxItems) layers and shape items") }
    }

    /// A composition's layers, bottom first (the file lists the top first).
    func layers(_ list: [Node], mapping: TimeMapping, depth: Int) throws -> [Layer] {
        guard depth <= Self.maxDepth else { throw (list.first ?? Node(.null, "")).fail("precompositions nested deeper than \(Self.maxDepth)") }
        var byIndex: [Int: Node] = [:]
        for layer in list { if let i = layer["ind"]?.value.number, i.isFinite, abs(i) < 1e15 { byIndex[Int(i)] = layer } }
        var out: [Layer] = []
        for (k, layer) in list.enumerated().reversed() {
            try count(layer)
            if layer.bool("td") || layer.bool("hd") { continue }
            var built = try chain(layer, byIndex: byIndex, mapping: mapping, depth: depth)
            if let tt = layer["tt"]?.value.number, tt > 0 {
                let source: Node? = layer["tp"]?.value.number.flatMap { byIndex[Int(holding: $0, to: -Int(1e15)...Int(1e15))] } ?? (k > 0 ? list[k - 1] : nil)
                if tt == 1 || tt == 2, let source {
                    built.mask = try chain(source, byIndex: byIndex, mapping: mapping, depth: depth)
                    built.invertsMask = tt == 2
                } else {
                    without.add(tt == 3 ? "luma mattes" : "inverted luma mattes")
                }
            }
            out.append(built)
        }
        return out
    }

    /// A layer inside the transforms of its parents, shown between its in and out points.
    private func chain(_ layer: Node, byIndex: [Int: Node], mapping: TimeMapping, depth: Int) throws -> Layer {
        var layers = [try ownLayer(layer, mapping: mapping, depth: depth)]
        var seen: Set<Int> = []
        if let i = layer["ind"]?.value.number, abs(i) < 1e15 { seen.insert(Int(i)) }
        var parent = layer["parent"]?.value.number
        while let p = parent, p.isFinite, abs(p) < 1e15 {
            let index = Int(p)
            guard !seen.contains(index) else { throw layer.fail("its parents form a cycle (layer \(index) again)") }
            seen.insert(index)
            guard let parentLayer = byIndex[index] else { break }
            var wrapper = try transformLayer(parentLayer, mapping: mapping)
            wrapper.name = "parent \(index)"
            wrapper.sublayers = layers
            layers = [wrapper]
            parent = parentLayer["parent"]?.value.number
        }
        // In and out points at whole frames, as rlottie rounds them (an After Effects export writes 30.0000012).
        let inPoint = (try layer.number("ip", default: -1e9)).rounded(), outPoint = (try layer.number("op", default: 1e9)).rounded()
        var shown = Layer(name: Self.name(layer, or: "layer"), frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: layers)
        shown.anchorPoint = Point(0, 0)
        shown.position = AnimatablePoint(0, 0)
        // Shown from the in point to the out point of the composition's frames: 0 outside, 1 inside.
        shown.opacity = outPoint > inPoint ? Timeline(0, animations: [.basic(BasicAnimation(
            from: 1, to: 1, duration: (outPoint - inPoint) / rate, beginTime: inPoint / rate, fillMode: .removed))]) : .constant(0)
        return shown
    }

    /// A layer with the Lottie layer's transform only (a parent's, around its
    /// children). Its keyframes are in its composition's frames: a start
    /// time and stretch shift only a precomposition's layers (as rlottie
    /// and lottie-web read them).
    private func transformLayer(_ layer: Node, mapping: TimeMapping) throws -> Layer {
        let transform = try LottieTransform(layer["ks"])
        var out = Layer(name: Self.name(layer, or: ""), frame: Rect(x: 0, y: 0, width: 0, height: 0))
        apply(transform, to: &out, opacity: false, autoOrient: layer.bool("ao"))
        return out
    }

    private func layerMapping(_ layer: Node, _ parent: TimeMapping) throws -> TimeMapping {
        let stretch = try layer.number("sr", default: 1)
        guard stretch != 0 else { throw layer["sr"]!.fail("a time stretch of 0") }
        let start = try layer.number("st", default: 0)
        return TimeMapping(start: parent.start + start * parent.stretch, stretch: parent.stretch * stretch)
    }

    /// The layer's own transform, opacity, timing and contents.
    private func ownLayer(_ layer: Node, mapping: TimeMapping, depth: Int) throws -> Layer {
        var out = try transformLayer(layer, mapping: mapping)
        let transform = try LottieTransform(layer["ks"])
        out.opacity = transform.opacity.timeline(0, scale: 0.01, rate: rate)
        if layer["ef"]?.value.array?.isEmpty == false { without.add("layer effects") }
        if let bm = layer["bm"]?.value.number, bm != 0 { without.add("blend modes") }
        countExpressions(layer["ks"])
        let local = try layerMapping(layer, mapping)
        // Outlines that change are sampled at every frame of the composition's time the root shows.
        let ends = [(compositionFrames.lowerBound - mapping.start) / mapping.stretch, (compositionFrames.upperBound - mapping.start) / mapping.stretch]
        (sampledFrom, sampledTo) = (ends.min()!, ends.max()!)
        switch layer["ty"]?.value.number.map({ Int(holding: $0, to: -1...100) }) {
        case 0?:
            guard let id = layer.string("refId"), let asset = assets[id], let list = asset["layers"] else {
                throw layer.fail("a precomposition whose 'refId' names no composition in 'assets'")
            }
            guard !precompsOpen.contains(id) else { throw layer.fail("precomposition \(quoted(id)) contains itself") }
            if layer["tm"] != nil { without.add("time remapping") }
            precompsOpen.insert(id)
            defer { precompsOpen.remove(id) }
            let w = try layer.number("w", default: try asset.number("w", default: 0)), h = try layer.number("h", default: try asset.number("h", default: 0))
            var clip = Layer(name: "precomposition", frame: Rect(x: 0, y: 0, width: w, height: h),
                             sublayers: try layers(list.items, mapping: local, depth: depth + 1))
            clip.masksToBounds = w > 0 && h > 0
            // Its layers run on its own time: the composition's less its start time, over its stretch.
            clip.timing = mapping.timing(for: local, rate: rate)
            out.sublayers = [clip]
        case 1?:
            let w = try layer.number("sw"), h = try layer.number("sh")
            // An empty colour draws nothing (as rlottie).
            guard let hex = layer.string("sc"), !hex.isEmpty else { break }
            let color = try Self.color(hex: hex, layer)
            var builder = PathBuilder()
            try builder.rectangle(x: 0, y: 0, width: w, height: h)
            out.sublayers = [drawable(.fixed(builder.path), fill: .solid(color), opacity: .constant(1))]
        case 2?:
            guard let id = layer.string("refId"), let asset = assets[id] else { throw layer.fail("an image layer whose 'refId' names no image in 'assets'") }
            guard let picture = try image(id, asset), picture.width > 0, picture.height > 0 else { break }
            // Drawn at the asset's size from the layer's origin.
            let w = try asset.number("w", default: Double(picture.width)), h = try asset.number("h", default: Double(picture.height))
            var shown = Layer(name: "image", frame: Rect(x: 0, y: 0, width: Double(picture.width), height: Double(picture.height)),
                              contents: .picture(Picture(picture)))
            shown.anchorPoint = Point(0, 0)
            shown.position = AnimatablePoint(0, 0)
            shown.transform = AnimatableTransform(scaleX: w / Double(picture.width), scaleY: h / Double(picture.height))
            out.sublayers = [shown]
        case 3?:
            break
        case 4?:
            out.sublayers = try group(layer["shapes"]?.items ?? [], depth: depth).layers
        case 5?:
            without.add("text layers")
        default:
            without.add("layers of unknown types")
        }
        if let masks = layer["masksProperties"]?.items, !masks.isEmpty { try applyMasks(masks, to: &out) }
        return out
    }

    /// A layer's masks (lottie-docs "Masks") as one mask, folded in order:
    /// each added one (mode "a") adds its coverage, each subtracted one
    /// ("s") takes its coverage away (`subtractsFromMask`); a mask whose
    /// first is subtracted or inverted starts covering everything (an
    /// inverted mask). Each at its opacity. Intersect, lighten, darken and
    /// difference are drawn without; "n" masks nothing.
    private func applyMasks(_ masks: [Node], to layer: inout Layer) throws {
        var shapes: [Layer] = []
        var startsFull: Bool?
        for m in masks {
            try count(m)
            let given = m.string("mode") ?? "a", inverted = m.bool("inv")
            if given == "n" { continue }
            // A first difference or intersect mask is the mask itself (the fold starts from nothing, as rlottie's does).
            let mode = shapes.isEmpty && (given == "f" || given == "i") ? "a" : given
            guard mode == "a" || mode == "s" else {
                without.add("masks of mode \(quoted(mode)) after the first")
                continue
            }
            let shape = try m.animatedShape("pt")
            let geometry = Geometry(span: shape.span) { f in [shape.value(at: f).polyline(tolerance: Self.tolerance)] }
            let opacity = try m.animated("o", default: [100])
            var drawn = drawable(try outline(geometry, style: nil), fill: .solid(RGBA8(0, 0, 0, 255)),
                                 opacity: opacity.timeline(0, scale: 0.01, rate: rate))
            // An inverted added mask after the first cannot be folded as a product: drawn as added.
            let subtracts = (mode == "s") != (inverted && startsFull == nil)
            if startsFull == nil { startsFull = subtracts }
            // In an inverted mask every layer's part is flipped back.
            drawn.subtractsFromMask = subtracts != (startsFull ?? false)
            if inverted && mode == "a" && shapes.count > 0 { without.add("inverted masks after the first") }
            shapes.append(drawn)
        }
        guard !shapes.isEmpty else { return }
        layer.mask = Self.maskLayer(shapes)
        layer.invertsMask = startsFull ?? false
    }

    /// A layer at the origin of its parent's coordinates, holding `sublayers`.
    private static func maskLayer(_ sublayers: [Layer]) -> Layer {
        var layer = Layer(name: "mask", frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: sublayers)
        layer.anchorPoint = Point(0, 0)
        layer.position = AnimatablePoint(0, 0)
        return layer
    }

    static let tolerance = 0.05

    /// A group's items as layers (bottom first) and its outlines, for the styles of the groups around it.
    ///
    /// A trim (`tm`) cuts the outlines before it in its group and in the
    /// groups before it, as every fill and stroke draws them, those listed
    /// before the trim too (as rlottie and lottie-web apply it): each
    /// outline carries the trims after it, nearest first, then those of the
    /// groups around it (`trims`).
    private func group(_ items: [Node], depth: Int, trims inherited: [Trim] = [],
                       rounds inheritedRounds: [AnimatedValue] = []) throws -> (layers: [Layer], geometry: [Geometry]) {
        guard depth <= Self.maxDepth else { throw (items.first ?? Node(.null, "")).fail("groups nested deeper than \(Self.maxDepth)") }
        var topFirst: [Layer] = []
        var geometry: [Geometry] = []
        // Each trim of this group, by its index.
        var trimAt: [Int: Trim] = [:]
        for (i, item) in items.enumerated() where item.string("ty") == "tm" && !item.bool("hd") { trimAt[i] = try Trim(item) }
        func trims(after i: Int) -> [Trim] { trimAt.keys.filter { $0 > i }.sorted().map { trimAt[$0]! } + inherited }
        // Each rounded-corners modifier's radius (`rd`), by its index: it rounds the outlines before it as a trim cuts them.
        var roundAt: [Int: AnimatedValue] = [:]
        for (i, item) in items.enumerated() where item.string("ty") == "rd" && !item.bool("hd") { roundAt[i] = try item.animated("r", default: [0]) }
        func rounds(after i: Int) -> [AnimatedValue] { roundAt.keys.filter { $0 > i }.sorted().map { roundAt[$0]! } + inheritedRounds }
        /// An outline of item i: its sharp corners rounded by the modifiers after it, flattened, cut by the trims after it.
        func path(_ i: Int, span: ClosedRange<Double>?, _ shape: @escaping (Double) -> BezierShape) -> Geometry {
            let cuts = trims(after: i), corners = rounds(after: i)
            return Geometry(span: spanning([span] + cuts.map(\.span) + corners.map(\.span))) { f in
                let rounded = corners.reduce(shape(f)) { outline, radius in outline.roundingCorners(radius.scalar(at: f)) }
                return cuts.reduce([rounded.polyline(tolerance: Self.tolerance)]) { lines, trim in trim.apply(at: f, to: lines) }
            }
        }
        for (index, item) in items.enumerated() {
            try count(item)
            if item.bool("hd") { continue }
            countExpressions(item)
            switch item.string("ty") ?? "" {
            case "gr":
                let inner = try group(item["it"]?.items ?? [], depth: depth + 1, trims: trims(after: index), rounds: rounds(after: index))
                let trNode = (item["it"]?.items ?? []).last { $0.string("ty") == "tr" }
                let transform = try LottieTransform(trNode)
                var layer = Layer(name: Self.name(item, or: "group"), frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: inner.layers)
                apply(transform, to: &layer, opacity: true)
                topFirst.append(layer)
                // The outlines seen from this level: through the group's transform at each frame.
                for g in inner.geometry {
                    geometry.append(Geometry(span: spanning([g.span, transform.span])) { f in
                        let m = transform.matrix(at: f)
                        return g.lines(f).map { Polyline($0.points.map(m.apply), closed: $0.isClosed) }
                    })
                }
            case "rc":
                let p = try item.animated("p", default: [0, 0]), s = try item.animated("s", default: [0, 0])
                let r = try item.animated("r", default: [0])
                let reversed = item["d"]?.value.number == 3
                geometry.append(path(index, span: spanning([p.span, s.span, r.span])) { f in
                    BezierShape.rectangle(centre: p.value(at: f), size: s.value(at: f), roundness: r.scalar(at: f), reversed: reversed)
                })
            case "el":
                let p = try item.animated("p", default: [0, 0]), s = try item.animated("s", default: [0, 0])
                let reversed = item["d"]?.value.number == 3
                geometry.append(path(index, span: spanning([p.span, s.span])) { f in
                    BezierShape.ellipse(centre: p.value(at: f), size: s.value(at: f), reversed: reversed)
                })
            case "sr":
                let p = try item.animated("p", default: [0, 0]), pt = try item.animated("pt", default: [5])
                let or = try item.animated("or", default: [0]), ir = try item.animated("ir", default: [0])
                let os = try item.animated("os", default: [0]), isr = try item.animated("is", default: [0])
                let r = try item.animated("r", default: [0])
                let star = item["sy"]?.value.number != 2, reversed = item["d"]?.value.number == 3
                geometry.append(path(index, span: spanning([p, pt, or, ir, os, isr, r].map(\.span))) { f in
                    BezierShape.polystar(centre: p.value(at: f), points: pt.scalar(at: f), outer: or.scalar(at: f), inner: ir.scalar(at: f),
                                         outerRoundness: os.scalar(at: f), innerRoundness: isr.scalar(at: f), rotation: r.scalar(at: f),
                                         star: star, reversed: reversed)
                })
            case "sh":
                let shape = try item.animatedShape("ks")
                geometry.append(path(index, span: shape.span) { f in shape.value(at: f) })
            case "fl", "st", "gf", "gs":
                topFirst.append(try style(item, geometry: geometry))
            case "tm":
                // Applied to the outlines it cuts, above.
                if item["m"]?.value.number == 2 { without.add("sequential trims (each outline trimmed alone)") }
            case "rd":
                break // Applied to the outlines it rounds, above.
            case "rp":
                topFirst = [try repeater(item, copying: topFirst.reversed())]
            case "mm":
                without.add("merge paths")
            case "tr":
                break
            default:
                without.add("shape items of unknown types")
            }
        }
        return (topFirst.reversed(), geometry)
    }

    /// A fill or a stroke of the outlines above it in its group.
    private func style(_ item: Node, geometry: [Geometry]) throws -> Layer {
        let type = item.string("ty") ?? ""
        let opacity = try item.animated("o", default: [100])
        var fill = Fill.solid(RGBA8(0, 0, 0, 255)), colors: Timeline<ColorValue>?
        if type == "gf" || type == "gs" {
            fill = .gradient(try gradient(item))
        } else {
            let colorValue = try item.animated("c", default: [0, 0, 0, 1])
            // Channels 0...1 (older files: 0...255), alpha ignored (the opacity is the fill's).
            let c = colorValue.value(at: colorValue.keyframes.first?.time ?? 0)
            let scale = c.prefix(3).contains { $0 > 1 } ? 1.0 : 255.0
            func channel(_ v: [Double], _ i: Int) -> Double { Swift.max(0, Swift.min(255, (i < v.count ? v[i] : 1) * scale)) }
            fill = .solid(RGBA8(UInt8(channel(c, 0).rounded()), UInt8(channel(c, 1).rounded()), UInt8(channel(c, 2).rounded()), 255))
            colors = colorValue.isAnimated
                ? colorValue.timeline(easing: 0, rate: rate) { v in ColorValue(r: channel(v, 0), g: channel(v, 1), b: channel(v, 2), a: 255) } : nil
        }
        let all = Geometry(span: spanning(geometry.map(\.span))) { f in geometry.flatMap { $0.lines(f) } }
        var stroke: Stroke?
        if type == "st" || type == "gs" {
            let width = try item.animated("w", default: [1])
            var dashes: [AnimatedValue] = [], offset = AnimatedValue([0])
            for d in item["d"]?.items ?? [] {
                if d.string("n") == "o" { offset = try d.animated("v", default: [0]) } else { dashes.append(try d.animated("v", default: [0])) }
            }
            let cap: LineCap = [1: .butt, 2: .round, 3: .square][Int(holding: try item.number("lc", default: 2), to: 0...4)] ?? .round
            let join: LineJoin = [1: .miter, 2: .round, 3: .bevel][Int(holding: try item.number("lj", default: 2), to: 0...4)] ?? .round
            stroke = Stroke(width: width, cap: cap, join: join, miterLimit: try item.number("ml", default: 4), dashes: dashes, dashOffset: offset)
        }
        var layer = drawable(try outline(all, style: stroke), fill: fill, colors: colors, opacity: opacity.timeline(0, scale: 0.01, rate: rate))
        // A fill's rule: 1 non-zero, 2 even-odd (a stroke's outline is always filled non-zero).
        if stroke == nil, item["r"]?.value.number == 2, case var .shape(shape)? = layer.contents {
            shape.fillRule = .evenOdd
            layer.contents = .shape(shape)
        }
        return layer
    }

    /// A gradient fill's or stroke's gradient: `s` and `e` its points, `t`
    /// 1 linear or 2 radial, `g` its `p` colour stops (position, r, g, b)
    /// followed by opacity stops (position, alpha), merged: each stop of
    /// either kind with the other kind's value interpolated there.
    private func gradient(_ item: Node) throws -> Gradient {
        let start = try item.animated("s", default: [0, 0]), end = try item.animated("e", default: [0, 0])
        guard let g = item["g"] else { throw item.fail("a gradient without 'g' (its stops)") }
        let count = Int(holding: try g.number("p", default: 0), to: 0...4096)
        let values = try g.animated("k", default: [])
        if start.isAnimated || end.isAnimated || values.isAnimated { without.add("animated gradients (drawn at their first keyframe)") }
        let highlight = try item.animated("h", default: [0])
        if highlight.isAnimated || highlight.scalar(at: 0) != 0 { without.add("gradient highlights") }
        let f = values.keyframes.first?.time ?? 0
        let v = values.value(at: f)
        guard count >= 0, count * 4 <= v.count else { throw g.fail("\(count) colour stops where 'k' holds \(v.count) numbers") }
        typealias ColorStop = (position: Double, rgb: (Double, Double, Double))
        typealias AlphaStop = (position: Double, alpha: Double)
        var colorStops: [ColorStop] = [], alphaStops: [AlphaStop] = []
        for i in 0..<count {
            let base = 4 * i
            colorStops.append((position: v[base], rgb: (v[base + 1], v[base + 2], v[base + 3])))
        }
        var k = 4 * count
        while k + 1 < v.count {
            alphaStops.append((position: v[k], alpha: v[k + 1]))
            k += 2
        }
        func rgb(at t: Double) -> (Double, Double, Double) {
            guard let first = colorStops.first, let last = colorStops.last else { return (0, 0, 0) }
            if t <= first.position { return first.rgb }
            if t >= last.position { return last.rgb }
            var i = 1
            while colorStops[i].position < t { i += 1 }
            let a = colorStops[i - 1], b = colorStops[i], k = b.position > a.position ? (t - a.position) / (b.position - a.position) : 1
            return (a.rgb.0 + (b.rgb.0 - a.rgb.0) * k, a.rgb.1 + (b.rgb.1 - a.rgb.1) * k, a.rgb.2 + (b.rgb.2 - a.rgb.2) * k)
        }
        func alpha(at t: Double) -> Double {
            guard let first = alphaStops.first, let last = alphaStops.last else { return 1 }
            if t <= first.position { return first.alpha }
            if t >= last.position { return last.alpha }
            var i = 1
            while alphaStops[i].position < t { i += 1 }
            let a = alphaStops[i - 1], b = alphaStops[i], k = b.position > a.position ? (t - a.position) / (b.position - a.position) : 1
            return a.alpha + (b.alpha - a.alpha) * k
        }
        let positions = Set(colorStops.map { $0.position } + alphaStops.map { $0.position }).sorted()
        func byte(_ x: Double) -> UInt8 { UInt8(Swift.max(0, Swift.min(255, (x * 255).rounded()))) }
        let stops = positions.map { t -> Gradient.Stop in
            let c = rgb(at: t)
            return Gradient.Stop(t, RGBA8(byte(c.0), byte(c.1), byte(c.2), byte(alpha(at: t))))
        }
        func point(_ p: [Double]) -> Point { Point(p.count > 0 ? p[0] : 0, p.count > 1 ? p[1] : 0) }
        let kind: Gradient.Kind = item["t"]?.value.number == 2 ? .radial : .linear
        let from = point(start.value(at: f))
        var to = point(end.value(at: f))
        if kind == .radial {
            // The radius as rlottie and ThorVG take it: max(|dx|, |dy|) + 3/8 min(|dx|, |dy|), an estimate of the
            // distance a few percent long, which both peers draw with.
            let dx = abs(to.x - from.x), dy = abs(to.y - from.y), exact = (dx * dx + dy * dy).squareRoot()
            let estimate = Swift.max(dx, dy) + 0.375 * Swift.min(dx, dy)
            if exact > 0 { to = Point(from.x + (to.x - from.x) * estimate / exact, from.y + (to.y - from.y) * estimate / exact) }
        }
        return Gradient(kind, start: from, end: to, stops: stops)
    }

    /// A repeater (`rp`): the items above it in its group drawn `c` times,
    /// copy k under the repeater's transform applied k times about its
    /// anchor (Core Animation's replicator: `Replicator`), its opacity
    /// going from `so` to `eo` percent over the copies. The number of copies
    /// is taken at the first frame; an offset is applied as that many steps
    /// before the first copy; copies are stacked each above the last.
    private func repeater(_ item: Node, copying below: [Layer]) throws -> Layer {
        let copies = try item.animated("c", default: [1])
        if item["m"]?.value.number == 2 { without.add("repeaters stacked below (drawn above)") }
        let tr = item["tr"]
        let t = try LottieTransform(tr)
        let start = (try tr?.animated("so", default: [100]) ?? AnimatedValue([100])).scalar(at: 0) / 100
        let end = (try tr?.animated("eo", default: [100]) ?? AnimatedValue([100])).scalar(at: 0) / 100
        if copies.isAnimated {
            if t.isAnimated { without.add("animated repeater copies under an animated step (drawn at their first keyframe)") } else {
                return try unrolledRepeater(item, copying: below, copies: copies, step: t, opacity: (start, end))
            }
        }
        let asked = copies.scalar(at: copies.keyframes.first?.time ?? 0).rounded()
        guard asked <= Double(Self.maxCopies) else { throw item.fail("a repeater of \(asked) copies (at most \(Self.maxCopies))") }
        let count = Int(holding: asked, to: 0...Self.maxCopies)
        var layer = Layer(name: Self.name(item, or: "repeater"), frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: below)
        // Copies turn and scale about the anchor: the bounds' centre there, placed where it was.
        layer.anchorPoint = Point(0, 0)
        let ax = t.anchor.timeline(0, rate: rate), ay = t.anchor.timeline(1, rate: rate)
        layer.boundsOrigin = AnimatablePoint(x: ax, y: ay)
        layer.position = AnimatablePoint(x: ax, y: ay)
        var step = AnimatableTransform()
        step.translationX = t.position.timeline(0, rate: rate)
        step.translationY = t.position.timeline(1, rate: rate)
        step.rotation = t.rotation.timeline(0, scale: Double.pi / 180, rate: rate)
        step.scaleX = t.scale.timeline(0, scale: 0.01, rate: rate)
        step.scaleY = t.scale.timeline(1, scale: 0.01, rate: rate)
        let fade = count > 1 ? (end - start) / Double(count - 1) : 0
        layer.replicator = Replicator(count: count, instanceTransform: step, instanceColor: Tint(r: 1, g: 1, b: 1, a: Swift.min(1, Swift.max(0, start))),
                                      colorOffset: Tint(r: 0, g: 0, b: 0, a: fade))
        let offset = (try item.animated("o", default: [0])).scalar(at: 0).rounded()
        guard offset != 0, abs(offset) <= 1000 else { return layer }
        // An offset: the copies start that many steps on (the step's model values, applied as many times).
        if offset < 0 { without.add("repeater offsets below 0") }
        let m = Self.step(t)
        var shifted = Affine.identity
        for _ in 0..<Int(abs(offset)) where offset > 0 { shifted = m.concatenating(after: shifted) }
        var holder = Layer(name: "repeater offset", frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: [layer])
        Self.place(&holder, shifted)
        return holder
    }

    /// A repeater's step at its first frame about its anchor a: T(a) M T(-a), M its position, rotation and scale.
    private static func step(_ t: LottieTransform) -> Affine {
        let a = t.anchor.value(at: 0), ax = a.count > 0 ? a[0] : 0, ay = a.count > 1 ? a[1] : 0
        var plain = t
        plain.anchor = AnimatedValue([0, 0])
        return Affine.translation(ax, ay).concatenating(after: plain.matrix(at: 0).concatenating(after: .translation(-ax, -ay)))
    }

    /// Places a layer at the origin by `m` (a rotation, scale and translation, no shear).
    private static func place(_ layer: inout Layer, _ m: Affine) {
        layer.anchorPoint = Point(0, 0)
        layer.position = AnimatablePoint(m.tx, m.ty)
        layer.transform = AnimatableTransform(rotation: atan2(m.b, m.a), scaleX: (m.a * m.a + m.b * m.b).squareRoot(),
                                              scaleY: (m.c * m.c + m.d * m.d).squareRoot())
    }

    /// A repeater whose number of copies changes (and whose step does not):
    /// as many copies as it ever has, each a layer placed by the step's
    /// matrix to its power, shown while the number of copies exceeds its
    /// index (a step at every frame: the count is sampled per frame).
    private func unrolledRepeater(_ item: Node, copying below: [Layer], copies: AnimatedValue, step t: LottieTransform,
                                  opacity: (start: Double, end: Double)) throws -> Layer {
        let first = copies.keyframes.first?.time ?? 0, last = copies.keyframes.last?.time ?? 0
        let frames = Int(holding: (last - first).rounded(.up), to: 1...100_000)
        let counts = (0...frames).map { copies.scalar(at: first + Double($0)) }
        let most = Int(holding: (counts.max() ?? 0).rounded(.up), to: 0...Self.maxCopies)
        guard most * (frames + 1) <= 2_000_000 else {
            throw item.fail("a repeater of up to \(most) copies over \(frames) frames (at most 2000000 copy-frames)")
        }
        let m = Self.step(t)
        // An offset starts the copies that many steps on.
        let offset = Int(Swift.max(-1000, Swift.min(1000, (try item.animated("o", default: [0])).scalar(at: 0).rounded())))
        var power = Affine.identity
        if offset < 0 { without.add("repeater offsets below 0") }
        for _ in 0..<Swift.max(0, offset) { power = m.concatenating(after: power) }
        var layers: [Layer] = []
        for k in 0..<most {
            var copy = Layer(name: "copy \(k)", frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: below)
            Self.place(&copy, power)
            let alpha = most > 1 ? opacity.start + (opacity.end - opacity.start) * Double(k) / Double(most - 1) : opacity.start
            // Shown while the count exceeds k, a fraction of a copy at that opacity (as rlottie), frame by frame.
            let shown = counts.map { alpha * Swift.min(1, Swift.max(0, $0 - Double(k))) }
            copy.opacity = Timeline(shown[0], animations: [.keyframes(KeyframeAnimation(
                values: shown, calculation: .discrete,
                timing: MediaTiming(beginTime: first / rate, duration: Double(frames + 1) / rate, fillMode: .both)))])
            layers.append(copy)
            power = m.concatenating(after: power)
        }
        var holder = Layer(name: Self.name(item, or: "repeater"), frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: layers)
        holder.anchorPoint = Point(0, 0)
        holder.position = AnimatablePoint(0, 0)
        return holder
    }

    /// A trim: start and end in percent of an outline's length, turned by an
    /// offset in degrees; each outline cut alone (`m` 1, "simultaneously";
    /// `m` 2, one after another, is drawn as 1 and said).
    struct Trim {
        let start: AnimatedValue, end: AnimatedValue, offset: AnimatedValue

        init(_ item: Node) throws {
            start = try item.animated("s", default: [0])
            end = try item.animated("e", default: [100])
            offset = try item.animated("o", default: [0])
        }

        var span: ClosedRange<Double>? { spanning([start.span, end.span, offset.span]) }

        func apply(at f: Double, to lines: [Polyline]) -> [Polyline] {
            let shift = offset.scalar(at: f) / 360
            var a = start.scalar(at: f) / 100, b = end.scalar(at: f) / 100
            if a > b { swap(&a, &b) }
            if b - a >= 1 { return lines }
            if a == b { return [] }
            var from = (a + shift).truncatingRemainder(dividingBy: 1), to = (b + shift).truncatingRemainder(dividingBy: 1)
            if from < 0 { from += 1 }
            if to < 0 { to += 1 }
            if to == 0 && b > a { to = 1 }
            return lines.flatMap { Stroker.trimmed([$0], from: from, to: to) }
        }
    }

    struct Stroke {
        var width: AnimatedValue
        var cap: LineCap
        var join: LineJoin
        var miterLimit: Double
        var dashes: [AnimatedValue]
        var dashOffset: AnimatedValue

        var span: ClosedRange<Double>? { spanning([width.span, dashOffset.span] + dashes.map(\.span)) }

        func style(at f: Double) -> StrokeStyle {
            StrokeStyle(width: width.scalar(at: f), cap: cap, join: join, miterLimit: miterLimit,
                        dashes: dashes.map { $0.scalar(at: f) }, dashOffset: dashOffset.scalar(at: f))
        }
    }

    /// The outline to fill: the outlines themselves (a fill) or their stroke; sampled at every frame where it changes.
    private func outline(_ geometry: Geometry, style: Stroke?) throws -> ShapePath {
        func path(_ f: Double) throws -> Path {
            var builder = PathBuilder()
            let lines = geometry.lines(f)
            if let style {
                do { try Stroker.outline(lines, style.style(at: f), tolerance: Self.tolerance, into: &builder) } catch let e as Stroker.TooLarge {
                    throw LottieError(place: "", problem: e.description)
                }
            } else {
                for line in lines where line.points.count > 2 { try line.fill(into: &builder) }
            }
            return builder.path
        }
        guard let span = spanning([geometry.span, style?.span]) else {
            let fixed = try path(0)
            sampledPoints += fixed.elements.count
            guard sampledPoints <= Self.maxSampledPoints else {
                throw LottieError(place: "", problem: "outlines of more than \(Self.maxSampledPoints) points in all")
            }
            return .fixed(fixed)
        }
        // Every frame the file has (its layers' keyframes are in these frames); the scene's time picks one.
        // Every whole frame it changes over that the layer's time reaches (held before and after).
        let first = Int(holding: Swift.max(span.lowerBound, sampledFrom), to: -Int(LottieAnimation.maxFrames)...Int(LottieAnimation.maxFrames))
        let last = Int(holding: Swift.min(span.upperBound, sampledTo).rounded(.up), to: first...(first + Int(LottieAnimation.maxFrames)))
        var frames: [Path] = []
        sampledFrames += last - first + 1
        guard sampledFrames <= Self.maxSampledFrames else {
            throw LottieError(place: "", problem: "changing outlines over more than \(Self.maxSampledFrames) frames in all")
        }
        for f in first...Swift.max(first, last) {
            let p = try path(Double(f))
            sampledPoints += p.elements.count
            guard sampledPoints <= Self.maxSampledPoints else {
                throw LottieError(place: "", problem: "outlines of more than \(Self.maxSampledPoints) points in all (a changing one's at every frame)")
            }
            frames.append(p)
        }
        return .dynamic(SampledOutline(firstFrame: first, frames: frames, rate: rate))
    }

    /// The root composition's frames, and the current layer's local frames that sampled outlines cover.
    var compositionFrames = 0.0...0.0
    private var sampledFrom = 0.0, sampledTo = 0.0

    /// A shape layer drawing `path` in `color` at `opacity`.
    private func drawable(_ path: ShapePath, fill: Fill, colors: Timeline<ColorValue>? = nil, opacity: Timeline<Double>) -> Layer {
        var shape: Shape
        switch path {
        case let .fixed(p): shape = Shape(path: p, fill: fill, color: colors)
        case let .dynamic(d): shape = Shape(dynamic: d, fill: fill, parameters: [SampledOutline.frameTimeline(rate: rate)], color: colors)
        }
        var layer = Layer(name: "shape", frame: Rect(x: 0, y: 0, width: 0, height: 0), contents: .shape(shape))
        // Shown scaled (the file fitted to the scene): GL rasterises it at that scale.
        layer.rasterizesAtShownScale = true
        layer.anchorPoint = Point(0, 0)
        layer.position = AnimatablePoint(0, 0)
        layer.opacity = opacity
        return layer
    }

    /// Anchor, position, rotation and scale (and opacity) as the layer's timelines; skew is counted, not drawn.
    private func apply(_ t: LottieTransform, to layer: inout Layer, opacity: Bool, autoOrient: Bool = false) {
        layer.anchorPoint = Point(0, 0)
        layer.boundsOrigin = AnimatablePoint(x: t.anchor.timeline(0, rate: rate), y: t.anchor.timeline(1, rate: rate))
        if let x = t.positionX, let y = t.positionY {
            layer.position = AnimatablePoint(x: x.timeline(0, rate: rate), y: y.timeline(0, rate: rate))
        } else {
            layer.position = AnimatablePoint(x: t.position.timeline(0, rate: rate), y: t.position.timeline(1, rate: rate))
        }
        layer.transform.rotation = t.rotation.timeline(0, scale: Double.pi / 180, rate: rate)
        layer.transform.scaleX = t.scale.timeline(0, scale: 0.01, rate: rate)
        layer.transform.scaleY = t.scale.timeline(1, scale: 0.01, rate: rate)
        if opacity { layer.opacity = t.opacity.timeline(0, scale: 0.01, rate: rate) }
        if t.hasSkew { without.add("skews") }
        if t.turnsIn3D {
            // Turned about x and y in 3D and seen straight on (as rlottie draws them): x scaled by cos ry, y by cos rx.
            let range = Self.frames(of: [t.rotationX, t.rotationY, t.scale])
            func scale(_ d: Int, _ turn: AnimatedValue) -> (Double) -> Double {
                { f in (t.scale.value(at: f).count > d ? t.scale.value(at: f)[d] : 100) / 100 * cos(turn.scalar(at: f) * Double.pi / 180) }
            }
            layer.transform.scaleX = sampled(scale(0, t.rotationY), over: range)
            layer.transform.scaleY = sampled(scale(1, t.rotationX), over: range)
            if (t.rotationX.isAnimated || t.rotationX.scalar(at: 0) != 0) && (t.rotationY.isAnimated || t.rotationY.scalar(at: 0) != 0) {
                without.add("3D turns about both x and y (drawn without their shear)")
            }
        }
        if autoOrient, t.position.isAnimated, t.positionX == nil {
            // Auto-orient: turned along its motion path, the path's tangent added to its rotation where it moves (as rlottie).
            let range = Self.frames(of: [t.position])
            let path = t.position, first = range.lowerBound, last = range.upperBound
            layer.transform.rotation = sampled({ f in
                var angle = 0.0
                if f >= first && f < last || f == last && last > first {
                    let a = path.value(at: f == last ? f - 0.01 : f), b = path.value(at: f == last ? f : f + 0.01)
                    if a.count > 1, b.count > 1, a != b { angle = atan2(b[1] - a[1], b[0] - a[0]) }
                }
                return t.rotation.scalar(at: f) * Double.pi / 180 + angle
            }, over: first...Swift.max(first, last))
        }
    }

    /// The frames between the first and last keyframes of `values` (0...0 where none is animated).
    private static func frames(of values: [AnimatedValue]) -> ClosedRange<Double> {
        let times = values.flatMap { $0.keyframes.map(\.time) }
        guard let lo = times.min(), let hi = times.max() else { return 0...0 }
        return lo...hi
    }

    /// `value` at every whole frame of `range`, linear between, held outside: a timeline in seconds.
    private func sampled(_ value: (Double) -> Double, over range: ClosedRange<Double>) -> Timeline<Double> {
        let first = range.lowerBound.rounded(.down)
        let frames = Int(holding: (range.upperBound - first).rounded(.up), to: 1...100_000)
        let values = (0...frames).map { value(first + Double($0)) }
        return Timeline(values[0], animations: [.keyframes(KeyframeAnimation(
            values: values, timing: MediaTiming(beginTime: first / rate, duration: Double(frames) / rate, fillMode: .both)))])
    }

    private func countExpressions(_ node: Node?) {
        guard let node, case let .object(o) = node.value else { return }
        for (key, value) in o {
            if case .object = value, case .string? = value["x"] { without.add("expressions") }
            if key == "x", case .string = value { without.add("expressions") }
        }
    }

    /// A layer's or item's name (`nm`) for the tree's messages: one line, at most 40 characters.
    static func name(_ node: Node, or fallback: String) -> String {
        guard let text = node.string("nm") else { return fallback }
        let quotedName = quoted(text)
        return String(quotedName.dropFirst().dropLast())
    }

    /// "#RRGGBB" as a colour.
    static func color(hex: String, _ node: Node) throws -> RGBA8 {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard digits.count == 6, let v = UInt32(digits, radix: 16) else { throw node.fail("a solid colour \(quoted(hex)): expected #RRGGBB") }
        return RGBA8(UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF), 255)
    }
}

/// Outlines in a group's coordinates at a frame, and the frames they change over (nil: they never change).
struct Geometry: @unchecked Sendable {
    let span: ClosedRange<Double>?
    let lines: (Double) -> [Polyline]

    init(span: ClosedRange<Double>?, _ lines: @escaping (Double) -> [Polyline]) {
        self.span = span
        self.lines = lines
    }
}

/// An outline that changes, made at every frame of the file: the frame
/// the layer's time falls in (parameter 0, its local frame) is drawn.
struct SampledOutline: DynamicPath, Equatable {
    let firstFrame: Int
    let frames: [Path]
    let rate: Double
    /// The most points a frame has, and the box holding every frame's outline: worked out once (read every frame).
    let maxPoints: Int
    private let box: Rect

    init(firstFrame: Int, frames: [Path], rate: Double) {
        self.firstFrame = firstFrame
        self.frames = frames
        self.rate = rate
        maxPoints = frames.map(\.elements.count).max() ?? 0
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for path in frames {
            guard let b = path.bounds else { continue }
            minX = Swift.min(minX, b.minX); minY = Swift.min(minY, b.minY); maxX = Swift.max(maxX, b.maxX); maxY = Swift.max(maxY, b.maxY)
        }
        box = minX.isFinite ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : Rect(x: 0, y: 0, width: 0, height: 0)
    }

    static func == (a: SampledOutline, b: SampledOutline) -> Bool { a.firstFrame == b.firstFrame && a.frames == b.frames }

    /// Parameter 0: the layer's local time in frames (over a million seconds either way: a span small enough that a
    /// whole frame comes out within a millionth of a frame).
    static func frameTimeline(rate: Double) -> Timeline<Double> {
        Timeline(0, animations: [.basic(BasicAnimation(from: -1e6 * rate, to: 1e6 * rate, duration: 2e6, beginTime: -1e6, fillMode: .both))])
    }

    func outline<Sink: OutlineSink>(_ input: ShapeInput, into sink: Sink) {
        // The frame the time falls in; a time a thousandth of a frame short of a whole frame is that frame.
        let f = input.parameters.x + 1e-3
        let index = f.isFinite ? Swift.max(0, Swift.min(frames.count - 1, Int(holding: f - Double(firstFrame), to: 0...Swift.max(0, frames.count - 1)))) : 0
        // Read in place with a while loop: a frame allocates nothing (a for-in loop allocates in a debug build).
        frames[index].elements.withUnsafeBufferPointer { elements in
            var pen = Point(0, 0), open = false
            var i = 0
            while i < elements.count {
                switch elements[i] {
                case let .move(p):
                    if open { sink.close() }
                    sink.move(to: p.x, p.y)
                    pen = p
                    open = true
                case let .line(p):
                    sink.line(to: p.x, p.y)
                    pen = p
                case let .quad(control, end):
                    sink.quad(from: pen, control: control, to: end)
                    pen = end
                }
                i += 1
            }
            if open { sink.close() }
        }
    }

    func reach(size: Size) -> Rect { box }
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
