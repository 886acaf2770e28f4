/// The redraw-per-tick strategy: every `draw` clears the target to the
/// background and, for each layer in order, rebuilds its outline for that
/// time, rasterises its coverage and composites its paint. Nothing
/// rasterised survives from one frame to the next.
///
/// Each pixel is written once where it can be: a layer whose rows no earlier
/// layer reaches paints them over the background directly (the clear folded
/// into its paint), and only the rows no such layer covers are cleared first.
public final class CPURenderer: Renderer {
    public let backend = Backend.cpu
    public let rendererName = "CPU rasteriser (Swift, integer signed-area coverage)"

    public private(set) var scene: Scene?
    private var rasterizer: CoverageRasterizer?
    /// Per layer: its paint, prepared.
    private var fills: [FillProgram] = []
    /// Per layer: the rows its content can cover (computed once).
    private var layerRows: [Range<Int>] = []
    /// Per layer: whether it is the first to reach its rows, so its paint
    /// writes every pixel of them over the background (no clear first).
    private var clearsWhilePainting: [Bool] = []
    /// The rows no such layer covers: cleared at the start of every frame.
    private var rowsToClear: [Range<Int>] = []
    /// The layer tree's painter (nil without a tree).
    private var treePainter: TreePainter?

    public init() {}

    public func prepare(scene: Scene) throws {
        try scene.validate()
        if scene == self.scene { return }
        if rasterizer?.width != scene.width || rasterizer?.height != scene.height {
            rasterizer = nil
            // The rasteriser's accumulators, then the frame and its read-back, all at once.
            try CheckedMemory.reserve(bytes: (scene.width + 1) * scene.height * 4 + 2 * scene.width * scene.height * 4,
                                      for: "a \(scene.width)x\(scene.height) frame")
            rasterizer = try CoverageRasterizer(width: scene.width, height: scene.height)
        }
        fills = scene.layers.map { FillProgram(fill: $0.paint, background: scene.background) }
        layerRows = scene.layers.map { $0.content.rows(sceneHeight: scene.height, sceneWidth: scene.width) }
        planClears(scene)
        treePainter = try scene.tree.map { TreePainter(evaluator: try $0.makeEvaluator(), rasterizer: rasterizer!) }
        self.scene = scene
    }


    /// Which layers paint over the background directly, and which rows are
    /// left for the clear.
    private func planClears(_ scene: Scene) {
        var reached = [Bool](repeating: false, count: scene.height)
        var paintedOverClear = [Bool](repeating: false, count: scene.height)
        clearsWhilePainting = scene.layers.indices.map { index in
            let rows = layerRows[index]
            let first = !rows.isEmpty && !rows.contains { reached[$0] }
            for r in rows {
                reached[r] = true
                if first { paintedOverClear[r] = true }
            }
            return first
        }
        rowsToClear = []
        var r = 0
        while r < scene.height {
            if paintedOverClear[r] { r += 1; continue }
            let start = r
            while r < scene.height && !paintedOverClear[r] { r += 1 }
            rowsToClear.append(start..<r)
        }
    }

    /// A pixmap of the scene's size, rows top to bottom.
    public func makeTarget() throws -> RenderTarget {
        guard let scene else { throw RendererError.notPrepared(.cpu) }
        return Pixmap(width: scene.width, height: scene.height)
    }

    public func draw(time: Double, into target: RenderTarget) throws {
        guard let scene, let rasterizer else { throw RendererError.notPrepared(.cpu) }
        guard let pixmap = target as? Pixmap else { throw RendererError.wrongTarget(.cpu, "expected a Pixmap") }
        guard pixmap.width == scene.width, pixmap.height == scene.height else {
            throw RendererError.wrongTarget(.cpu, "a \(pixmap.width)x\(pixmap.height) pixmap for a \(scene.width)x\(scene.height) scene")
        }
        for index in rowsToClear.indices { pixmap.fill(scene.background, rows: rowsToClear[index]) }
        let view = pixmap.view
        // By index: in a debug build `for layer in layers` allocates per element.
        for index in scene.layers.indices {
            let layer = scene.layers[index]
            let u = layer.motion.offset(at: time)
            switch layer.content {
            case let .repeatingCurve(curve): curve.addOutline(offset: u, width: scene.width, to: rasterizer)
            }
            var blitter = PaintBlitter(view: view, fill: fills[index], clears: clearsWhilePainting[index])
            rasterizer.resolve(rows: layerRows[index], into: &blitter)
        }
        treePainter?.draw(time: time, into: view)
    }


    public func finish() {}
}
