/// The redraw-per-tick strategy: every `draw` evaluates the scene's layer
/// tree at that time and, item by item, rebuilds each outline, rasterises
/// its coverage and composites its paint (`TreePainter`). No pixel survives
/// from one frame to the next; only the coverage of an outline that lands
/// where it did the frame before is kept (`KeptCoverage`, as rlottie and
/// ThorVG keep a still shape's spans).
///
/// Each pixel is written once where it can be: rows that shapes alone in
/// their clips paint whole (a table of cells) get the background folded
/// into that paint, and only the other rows are cleared first.
public final class CPURenderer: Renderer, PixelCounting {
    public let backend = Backend.cpu
    public let rendererName = "CPU rasteriser (Swift, integer signed-area coverage)"

    public private(set) var scene: Scene?
    /// What a frame reads of the prepared scene.
    private var frame: SceneFrame?
    private var rasterizer: CoverageRasterizer?
    /// The rows no shape paints whole: cleared at the start of every frame.
    private var rowsToClear: [Range<Int>] = []
    /// The layer tree's painter (nil without a tree).
    private var treePainter: TreePainter? {
        didSet { treePainter?.counts = pixelCounts }
    }
    /// While set, each frame's pixels are counted (see `PixelCounts`).
    package var pixelCounts: PixelCounts? {
        didSet { treePainter?.counts = pixelCounts }
    }

    public init() {}

    public func prepare(scene: Scene) throws {
        try scene.validate()
        if scene == self.scene { return }
        self.scene = nil
        frame = nil
        if rasterizer?.width != scene.width || rasterizer?.height != scene.height {
            rasterizer = nil
            // The rasteriser's accumulators (a band of rows: it fills outlines band by band), then the frame and its
            // read-back, all at once.
            let bandRows = CoverageRasterizer.frameBandRows(height: scene.height)
            try CheckedMemory.reserve(bytes: CoverageRasterizer.bytes(width: scene.width, height: scene.height, bandRows: bandRows)
                                      + 2 * scene.width * scene.height * 4,
                                      for: "a \(scene.width)x\(scene.height) frame")
            rasterizer = try CoverageRasterizer(width: scene.width, height: scene.height, bandRows: bandRows)
        }
        treePainter = try scene.tree.map {
            try TreePainter(evaluator: try $0.makeEvaluator(), rasterizer: rasterizer!, background: scene.background)
        }
        rowsToClear = treePainter?.rowsToClear ?? [0..<scene.height]
        self.scene = scene
        frame = scene.frame
    }

    /// A pixmap of the scene's size, rows top to bottom.
    public func makeTarget() throws -> RenderTarget {
        guard let scene else { throw RendererError.notPrepared(.cpu) }
        return try CheckedMemory.allocating(bytes: scene.width * scene.height * 4, for: "a \(scene.width)x\(scene.height) frame") {
            Pixmap(width: scene.width, height: scene.height)
        }
    }

    /// Every item is redrawn: painted on the CPU every frame, its outline rasterised again wherever it changed.
    public func explain(time: Double) throws -> [ItemPlan] {
        guard let evaluator = treePainter?.evaluator else { throw RendererError.notPrepared(.cpu) }
        let list = evaluator.presentation(at: time)
        return (list.items.map { ($0, false) } + list.maskItems.map { ($0, true) }).enumerated().map { n, entry in
            let (item, mask) = entry
            let layer = mask ? evaluator.maskNodes[item.layer].layer : evaluator.nodes[item.layer].layer
            return ItemPlan(item: n, layer: layer.name + (mask ? " (mask)" : ""), primitive: item.primitive.name, mechanism: "CPU redraw",
                            reason: "redrawn every frame in software (the CPU strategy): painted, and its outline rasterised again "
                                + "wherever it moved or changed (a still outline's coverage is kept, as rlottie and ThorVG keep it)")
        }
    }

    public func draw(time: Double, into target: RenderTarget) throws {
        guard let scene = frame else { throw RendererError.notPrepared(.cpu) }
        guard let pixmap = target as? Pixmap else { throw RendererError.wrongTarget(.cpu, "expected a Pixmap") }
        guard pixmap.width == scene.width, pixmap.height == scene.height else {
            throw RendererError.wrongTarget(.cpu, "a \(pixmap.width)x\(pixmap.height) pixmap for a \(scene.width)x\(scene.height) scene")
        }
        if let pixelCounts {
            guard pixelCounts.width == scene.width, pixelCounts.height == scene.height else {
                throw RendererError.wrongTarget(.cpu, "pixel counts of \(pixelCounts.width)x\(pixelCounts.height) for a "
                                                + "\(scene.width)x\(scene.height) scene")
            }
            pixelCounts.reset()
            for index in rowsToClear.indices {
                pixelCounts.write(rows: rowsToClear[index], columns: 0..<scene.width, blends: false, software: true)
            }
        }
        guard let treePainter, treePainter.blends else {
            for index in rowsToClear.indices { pixmap.fill(scene.background, rows: rowsToClear[index]) }
            treePainter?.draw(time: time, into: pixmap.view)
            return
        }
        // Blend modes meet the tree's own drawing: drawn over transparency, then the whole over the background.
        pixmap.fill(RGBA8(0, 0, 0, 0), rows: 0..<scene.height)
        treePainter.draw(time: time, into: pixmap.view)
        let background = scene.background, backgroundPacked = background.packed
        for row in 0..<scene.height {
            let line = pixmap.view.row(row)
            for x in 0..<scene.width {
                // Opaque stays, clear is the background; only the edges between are composited.
                let alpha = line[x] >> 24
                if alpha == 255 { continue }
                line[x] = alpha == 0 ? backgroundPacked : composite(ColorValue(RGBA8(packed: line[x])), coverage: 1, onto: background).packed
            }
        }
    }

    public func finish() {}
}
