/// The scene: a size, a background and a Core Animation layer tree
/// (`Tree/Layer.swift`), as pure values. Everything a backend draws follows
/// from a `Scene` and a time: the tree's items composited in order,
/// source-over (see `Compositing.swift`), onto the background.
public struct Scene: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background: RGBA8
    /// Nil: the background alone.
    public var tree: LayerTree?
    /// The rate its content was made at, frames a second (an imported animation's);
    /// nil: any. `waves render` writes a sequence at it unless --fps is given.
    public var frameRate: Double?
    /// The latest scene time a frame may be drawn at, where reaching a time
    /// costs work in proportion to it (a simulation steps from time 0), and
    /// why; nil: any time costs the same.
    package var latestTime: LatestTime?

    package struct LatestTime: Equatable, Sendable {
        package let seconds: Double
        package let why: String
        package init(seconds: Double, why: String) { self.seconds = seconds; self.why = why }
    }

    /// Refuses (64) a frame later than `latestTime`, before any work: `option`
    /// and `value` are what asked for it, the last frame at `last` seconds.
    package func checkTime(_ last: Double, option: String, value: String) throws {
        guard let latestTime, last > latestTime.seconds else { return }
        throw ValueError(parameter: String(option.drop { $0 == "-" }), value: value,
                         accepted: "frames at scene times up to \(String(format: "%g", latestTime.seconds)) s here (the last asked for is at \(String(format: "%g", last)) s): \(latestTime.why)")
    }

    /// What a frame reads of a prepared scene (`SceneFrame`).
    package var frame: SceneFrame { SceneFrame(width: width, height: height, background: background) }

    /// The default background: a dark blue.
    public static let defaultBackground = RGBA8(0x10, 0x18, 0x2A)

    /// The largest width or height `waves render` accepts.
    public static let maxRenderDimension = 16384
    /// Tall multi-cell scenes (the benchmark's 1000 table cells) may go beyond
    /// one GPU texture; the core's own bound is on the pixel count.
    public static let maxHeight = 1 << 20
    public static let maxPixels = 1 << 28

    public init(width: Int, height: Int, background: RGBA8 = Scene.defaultBackground, tree: LayerTree? = nil) {
        self.width = width
        self.height = height
        self.background = background
        self.tree = tree
    }

    /// Checks the size against the core's bounds; the error names the
    /// parameter and what is accepted.
    public static func validate(width: Int, height: Int) throws {
        guard (1...maxRenderDimension).contains(width) else {
            throw ValueError(parameter: "size", value: "\(width)x\(height)",
                             accepted: "a width from 1 to \(maxRenderDimension) pixels")
        }
        guard (1...maxHeight).contains(height), width * height <= maxPixels else {
            throw ValueError(parameter: "size", value: "\(width)x\(height)",
                             accepted: "a height from 1 to \(maxHeight) pixels and at most \(maxPixels) pixels in all")
        }
    }

    /// The size, then the tree: layers the backends can draw, finite numbers.
    public func validate() throws {
        try Self.validate(width: width, height: height)
        if let tree { try LayerTreeEvaluator.validate(tree.root, sourceCount: tree.sources.count) }
    }
}

/// What the GL strategy does with a scene's content: caches it (rasterised
/// once, moved on the GPU), computes it on the GPU every frame (content
/// whose outline changes), or some of each.
package enum GPUWork: Equatable, Sendable { case cached, computedEveryFrame, mixed }

extension Scene {
    package var gpuWork: GPUWork {
        var cached = false, computed = false
        if let tree { Self.classify(tree.root, cached: &cached, computed: &computed) }
        return cached && computed ? .mixed : computed ? .computedEveryFrame : .cached
    }

    private static func classify(_ layer: Layer, cached: inout Bool, computed: inout Bool) {
        if layer.shouldRasterize && RasterPicture.canCache(layer) {
            cached = true
            return
        }
        switch layer.contents {
        case let .shape(shape)?: if case .dynamic = shape.path { computed = true } else { cached = true }
        case .box?: computed = true
        case .picture?: cached = true
        case nil: break
        }
        if let mask = layer.mask { classify(mask, cached: &cached, computed: &computed) }
        for sublayer in layer.sublayers { classify(sublayer, cached: &cached, computed: &computed) }
    }
}

/// A root layer and the value sources its driven properties read (by index).
public struct LayerTree: Equatable, Sendable {
    public var root: Layer
    public var sources: [Level]

    public init(root: Layer, sources: [Level] = []) {
        self.root = root
        self.sources = sources
    }

    /// The evaluator for this tree (validates it; the sources' live histories
    /// start empty). `drawsCopies`: the replicators whose copies the backend
    /// draws itself (one `.copies` item each, not an item per copy);
    /// `rasterizes`: layers that ask for it are one cached picture each.
    package func makeEvaluator(drawsCopies: ((Layer) -> Bool)? = nil, rasterizes: Bool = false) throws -> LayerTreeEvaluator {
        try LayerTreeEvaluator(root: root, sources: DrivenSources(sources), drawsCopies: drawsCopies, rasterizes: rasterizes)
    }
}

/// A value refused, in one line: the option that gave it, as the command
/// line names it, the value, and what is accepted. An effect's parameter
/// outside its contract and a command's bad option alike (exit status 64).
public struct ValueError: Error, Equatable, CustomStringConvertible {
    /// The parameter's name, without dashes.
    public let parameter: String
    public let value: String
    public let accepted: String
    /// The option as the line names it (`--dot-size`, or a manifest's key as written).
    public let option: String

    /// A parameter's value (`dot-size`: the line says `--dot-size`).
    public init(parameter: String, value: String, accepted: String) {
        self.init(option: "--" + parameter, value: value, accepted: accepted)
    }

    /// An option's value, the option as typed (`--shard`).
    public init(option: String, value: String, accepted: String) {
        self.parameter = option.hasPrefix("--") ? String(option.dropFirst(2)) : option
        self.option = option
        self.value = value
        self.accepted = accepted
    }

    public var description: String { "\(option) \(value): expected \(accepted)" }
}

/// What a renderer reads of its prepared scene every frame: the size and
/// the background, plain values (reading the `Scene` itself would copy it,
/// its tree's references retained and released, every frame).
package struct SceneFrame: Equatable, Sendable {
    package let width: Int
    package let height: Int
    package let background: RGBA8
}
