import Foundation
import WaveCore
import WaveImageIO

/// The importer's layers: a composition's Lottie layers as Waves layers
/// (parents, in and out points, precompositions and their time, solids,
/// images, nulls, shape layers), their transforms as timelines, their
/// masks and mattes; what a file uses that is not drawn is counted. Shape
/// layers' items are `LottieShapeItems.swift`'s.

/// Builds layers, counting what it leaves out; refuses cycles, depth and absurd counts.
final class TreeBuilder {
    let rate: Double
    let assets: [String: Node]
    var without = DrewWithout()
    private var precompsOpen: Set<String> = []
    var itemsBuilt = 0
    /// The trims of `m` 2 of the shape layer being built, by their place in the file (`trimmedTogether`).
    var trimsTogether: [String: TrimmedTogether] = [:]
    /// The first pass over a shape layer with such a trim: outlines made and registered, no style drawn.
    var registeringOutlines = false
    /// The most layers and shape items one file may build, and the deepest nesting of precompositions and groups.
    static let maxItems = 200_000, maxDepth = 64
    /// Points of outlines one file may hold (a changing outline's at every frame).
    static let maxSampledPoints = 4_000_000
    var sampledPoints = 0
    /// The most copies one repeater may make.
    static let maxCopies = 1000
    /// Frames of changing outlines one file may make (each outline's frames, added up).
    static let maxSampledFrames = 500_000
    var sampledFrames = 0

    /// Where images beside the file are found.
    let folder: String?
    /// Images decoded, by asset id (a layer per use, one decoding).
    private var images: [String: RGBAImage] = [:]

    /// The largest scale the outlines being built are shown at, from the file's units to the scene's pixels: the
    /// composition's fit, times every enclosing layer's, parent's, precomposition's and group's largest scale.
    var shownScale: Double
    /// How far a flattened curve or stroke may stray from the true one, in the units of the outline being built:
    /// 0.05 of a pixel as it is shown.
    var tolerance: Double { 0.05 / Swift.min(Swift.max(shownScale, 0.01), 1e4) }

    /// `shownScale`: the composition's fit into the scene.
    init(rate: Double, assets: [String: Node], folder: String? = nil, shownScale: Double = 1) {
        self.shownScale = shownScale
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

    func count(_ node: Node) throws {
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
                // Alpha (1), inverted alpha (2), luma (3) and inverted luma (4) mattes.
                if tt > 4 {
                    without.add("mattes of unknown types")
                } else if let source {
                    var matte = try chain(source, byIndex: byIndex, mapping: mapping, depth: depth)
                    // A mask layer draws no mask of its own: the matte layer's masks clip the matted layer from a
                    // layer around it (masked layers nest: their coverages multiply). An inverted matte's
                    // cannot be a product, and masks further down the matte are not drawn; both are said.
                    let ownMasks = Self.takeOwnMask(&matte)
                    let inverted = tt == 2 || tt == 4
                    let dropped = Self.removeMasks(&matte) + (inverted && ownMasks != nil ? 1 : 0)
                    if dropped > 0 { without.add("masks on inverted or nested matte layers", dropped) }
                    built.mask = matte
                    built.invertsMask = inverted
                    built.masksByLuminance = tt >= 3
                    if let ownMasks, !inverted {
                        var around = Self.maskLayer([built])
                        around.name = "matte's masks"
                        around.mask = ownMasks
                        built = around
                    }
                }
            }
            out.append(built)
        }
        return out
    }

    /// A layer inside the transforms of its parents, shown between its in and out points.
    private func chain(_ layer: Node, byIndex: [Int: Node], mapping: TimeMapping, depth: Int) throws -> Layer {
        let parents = try Self.parents(of: layer, byIndex: byIndex)
        // Its outlines are flattened for the largest scale its own transform and its parents' show them at.
        var scale = 1.0
        for node in [layer] + parents.map(\.node) { scale *= try LottieTransform(node["ks"]).scale.largestMagnitude / 100 }
        var layers = [try scaled(by: scale) { try ownLayer(layer, mapping: mapping, depth: depth) }]
        for (index, parentLayer) in parents {
            var wrapper = try transformLayer(parentLayer, mapping: mapping)
            wrapper.name = "parent \(index)"
            wrapper.sublayers = layers
            layers = [wrapper]
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

    /// Runs `build` with the outlines it makes shown `factor` times larger (`shownScale`), then as before.
    func scaled<T>(by factor: Double, _ build: () throws -> T) rethrows -> T {
        let enclosing = shownScale
        shownScale = enclosing * factor
        defer { shownScale = enclosing }
        return try build()
    }

    /// A layer's parents, the nearest first, each with its index, up to one the composition does not hold; a
    /// cycle is refused.
    private static func parents(of layer: Node, byIndex: [Int: Node]) throws -> [(index: Int, node: Node)] {
        var found: [(index: Int, node: Node)] = []
        var seen: Set<Int> = []
        if let i = layer["ind"]?.value.number, abs(i) < 1e15 { seen.insert(Int(i)) }
        var parent = layer["parent"]?.value.number
        while let p = parent, p.isFinite, abs(p) < 1e15 {
            let index = Int(p)
            guard !seen.contains(index) else { throw layer.fail("its parents form a cycle (layer \(index) again)") }
            seen.insert(index)
            guard let parentLayer = byIndex[index] else { break }
            found.append((index, parentLayer))
            parent = parentLayer["parent"]?.value.number
        }
        return found
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
        guard let inner = parent.inner(start: start, stretch: stretch) else {
            throw layer.fail("a start time of \(start) and stretch of \(stretch) inside its precompositions: expected times that stay finite")
        }
        return inner
    }

    /// The layer's own transform, opacity, timing and contents.
    func ownLayer(_ layer: Node, mapping: TimeMapping, depth: Int) throws -> Layer {
        var out = try transformLayer(layer, mapping: mapping)
        let transform = try LottieTransform(layer["ks"])
        out.opacity = transform.opacity.timeline(0, scale: 0.01, rate: rate)
        if layer["ef"]?.value.array?.isEmpty == false { without.add("layer effects") }
        if let bm = layer["bm"]?.value.number, bm != 0 {
            // Lottie's numbers for After Effects' modes, 1 multiply to 16 add; 17, hard mix, is not drawn.
            let modes: [BlendMode] = [.normal, .multiply, .screen, .overlay, .darken, .lighten, .colorDodge, .colorBurn, .hardLight,
                                      .softLight, .difference, .exclusion, .hue, .saturation, .color, .luminosity, .add]
            if bm >= 0, bm < Double(modes.count), bm == bm.rounded() { out.blendMode = modes[Int(bm)] } else { without.add("blend modes other than 0 to 16") }
        }
        countExpressions(layer["ks"])
        let local = try layerMapping(layer, mapping)
        // Outlines that change are sampled at every frame of the composition's time the root shows.
        (sampledFrom, sampledTo) = (mapping.shown.lowerBound, mapping.shown.upperBound)
        switch layer["ty"]?.value.number.map({ Int(holding: $0, to: -1...100) }) {
        case 0?:
            guard let id = layer.string("refId"), let asset = assets[id], let list = asset["layers"] else {
                throw layer.fail("a precomposition whose 'refId' names no composition in 'assets'")
            }
            guard !precompsOpen.contains(id) else { throw layer.fail("precomposition \(quoted(id)) contains itself") }
            // Time remapping: the precomposition shows the remapping's value (seconds) at the composition's frame, over its
            // stretch (as rlottie reads it); its start time no longer counts.
            var inner = local, remap: Timeline<Double>?
            if layer["tm"] != nil {
                countExpressions(layer, keys: ["tm"])
                let tm = try layer.animated("tm", default: [0]), stretch = try layer.number("sr", default: 1)
                let first = mapping.shown.lowerBound, count = Swift.min(100_000.0, (mapping.shown.upperBound - first).rounded(.up))
                let shown = stride(from: 0.0, through: Swift.max(0, count), by: 1).map { tm.scalar(at: first + $0) * rate / stretch }.filter(\.isFinite)
                inner = TimeMapping(start: 0, stretch: 1, shown: (shown.min() ?? 0)...(shown.max() ?? 0))
                remap = tm.timeline(0, scale: 1 / stretch, rate: rate)
            }
            precompsOpen.insert(id)
            defer { precompsOpen.remove(id) }
            let w = try layer.number("w", default: try asset.number("w", default: 0)), h = try layer.number("h", default: try asset.number("h", default: 0))
            var clip = Layer(name: "precomposition", frame: Rect(x: 0, y: 0, width: w, height: h),
                             sublayers: try layers(list.items, mapping: inner, depth: depth + 1))
            clip.masksToBounds = w > 0 && h > 0
            // Its layers run on its own time: the composition's less its start time, over its stretch, or remapped.
            if let remap { clip.timeRemap = remap } else { clip.timing = mapping.timing(for: local, rate: rate) }
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
            out.sublayers = try shapeLayer(layer["shapes"]?.items ?? [], depth: depth)
        case 5?:
            without.add("text layers")
        default:
            without.add("layers of unknown types")
        }
        if let masks = layer["masksProperties"]?.items, !masks.isEmpty { try applyMasks(masks, to: &out) }
        return out
    }

    /// A layer's masks (lottie-docs "Masks") as one mask, folded in order
    /// from nothing, each at its opacity (`Layer.maskMode`): "a" adds its
    /// coverage, "s" subtracts it, "i" intersects, "l" lightens (the
    /// greater), "d" darkens (the lesser), "f" takes the difference (where
    /// one covers and not the other); an inverted one covers where its shape
    /// does not (`invertsMaskCoverage`); "n" masks nothing. As rlottie folds
    /// them, a first subtracted mask takes its coverage from everything (added,
    /// inverted) and a first intersected one is the mask itself.
    private func applyMasks(_ masks: [Node], to layer: inout Layer) throws {
        let modes: [String: MaskMode] = ["a": .add, "s": .subtract, "i": .intersect, "l": .lighten, "d": .darken, "f": .difference]
        var shapes: [Layer] = []
        for m in masks {
            try count(m)
            let given = m.string("mode") ?? "a"
            if given == "n" { continue }
            guard var mode = modes[given] else {
                without.add("masks of mode \(quoted(given))")
                continue
            }
            var inverted = m.bool("inv")
            if shapes.isEmpty && mode == .subtract { (mode, inverted) = (.add, !inverted) }
            if shapes.isEmpty && mode == .intersect { mode = .add }
            let shape = try m.animatedShape("pt")
            let geometry = Geometry(span: shape.span) { [tolerance] f in [shape.value(at: f).polyline(tolerance: tolerance)] }
            let opacity = try m.animated("o", default: [100])
            var drawn = drawable(try outline(geometry, style: nil), fill: .solid(RGBA8(0, 0, 0, 255)),
                                 opacity: opacity.timeline(0, scale: 0.01, rate: rate))
            drawn.maskMode = mode
            drawn.invertsMaskCoverage = inverted
            shapes.append(drawn)
        }
        guard !shapes.isEmpty else { return }
        layer.mask = Self.maskLayer(shapes)
    }

    /// A matte's own masks (on its layer with the contents, inside its in and
    /// out points and parents), taken off it: its wrappers again, holding the
    /// masks' layers where its contents were (nil where it has none).
    static func takeOwnMask(_ layer: inout Layer) -> Layer? {
        if let mask = layer.mask {
            layer.mask = nil
            var placed = layer
            placed.contents = nil
            placed.sublayers = [mask]
            placed.blendMode = .normal
            // The matte's opacity is in its own coverage already.
            placed.opacity = .constant(1)
            return placed
        }
        guard layer.sublayers.count == 1, let inner = takeOwnMask(&layer.sublayers[0]) else { return nil }
        var placed = layer
        placed.sublayers = [inner]
        return placed
    }

    /// Takes every mask off `layer` and the layers under it; how many there were.
    static func removeMasks(_ layer: inout Layer) -> Int {
        var removed = 0
        if layer.mask != nil {
            layer.mask = nil
            removed += 1
        }
        for i in layer.sublayers.indices { removed += removeMasks(&layer.sublayers[i]) }
        return removed
    }

    /// A layer at the origin of its parent's coordinates, holding `sublayers`.
    static func maskLayer(_ sublayers: [Layer]) -> Layer {
        var layer = Layer(name: "mask", frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: sublayers)
        layer.anchorPoint = Point(0, 0)
        layer.position = AnimatablePoint(0, 0)
        return layer
    }

    /// The current layer's local frames that sampled outlines cover.
    var sampledFrom = 0.0, sampledTo = 0.0
    /// Anchor, position, rotation, skew and scale (and opacity) as the layer's timelines.
    func apply(_ t: LottieTransform, to layer: inout Layer, opacity: Bool, autoOrient: Bool = false) {
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
        setSkew(t, on: &layer.transform)
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

    /// The transform's skew and its axis as timelines (none where it has no skew).
    func setSkew(_ t: LottieTransform, on transform: inout AnimatableTransform) {
        guard t.hasSkew else { return }
        transform.skew = t.skew.isAnimated ? sampled(t.skewAngle, over: Self.frames(of: [t.skew])) : .constant(t.skewAngle(at: 0))
        transform.skewAxis = t.skewAxis.timeline(0, scale: LottieTransform.skewAxisSign * Double.pi / 180, rate: rate)
    }

    /// The frames between the first and last keyframes of `values` (0...0 where none is animated).
    static func frames(of values: [AnimatedValue]) -> ClosedRange<Double> {
        let times = values.flatMap { $0.keyframes.map(\.time) }
        guard let lo = times.min(), let hi = times.max() else { return 0...0 }
        return lo...hi
    }

    /// `value` at every whole frame of `range` (`FrameSamples`), linear between, held outside: a timeline in seconds.
    func sampled(_ value: (Double) -> Double, over range: ClosedRange<Double>) -> Timeline<Double> {
        let samples = FrameSamples(from: range.lowerBound.rounded(.down), to: range.upperBound)
        return samples.timeline(samples.frames.map(value), rate: rate)
    }

    /// Counts the expressions among `node`'s properties (those named `keys`, or all).
    func countExpressions(_ node: Node?, keys: Set<String>? = nil) {
        guard let node, case let .object(o) = node.value else { return }
        for (key, value) in o where keys?.contains(key) ?? true {
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
