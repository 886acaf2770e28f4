/// The redraw-per-tick strategy: every `draw` clears the target to the
/// background and, for each layer in order, rebuilds its outline for that
/// time, rasterises its coverage and composites its paint. Nothing
/// rasterised survives from one frame to the next.
public final class CPURenderer: Renderer {
    public let backend = Backend.cpu
    public let rendererName = "CPU rasteriser (Swift, integer signed-area coverage)"

    public private(set) var scene: Scene?
    private var rasterizer: CoverageRasterizer?
    /// Per layer: its paint's two fills (the same one twice without a split).
    private var fills: [(left: FillProgram, right: FillProgram)] = []

    public init() {}

    public func prepare(scene: Scene) throws {
        try scene.validate()
        if scene == self.scene { return }
        if rasterizer?.width != scene.width || rasterizer?.height != scene.height {
            rasterizer = CoverageRasterizer(width: scene.width, height: scene.height)
        }
        fills = scene.layers.map { layer in
            switch layer.paint {
            case let .fill(f):
                let program = FillProgram(fill: f, background: scene.background)
                return (program, program)
            case let .split(_, left, right):
                return (FillProgram(fill: left, background: scene.background),
                        FillProgram(fill: right, background: scene.background))
            }
        }
        self.scene = scene
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
        pixmap.fill(scene.background)
        let view = pixmap.view
        // By index: in a debug build `for layer in layers` allocates per element.
        for index in scene.layers.indices {
            let layer = scene.layers[index]
            let u = layer.motion.offset(at: time)
            switch layer.content {
            case let .repeatingCurve(curve): curve.addOutline(offset: u, width: scene.width, to: rasterizer)
            case let .strip(strip): rasterizer.fill(strip.path, dx: -u)
            }
            var split = Int.max
            if case let .split(s, _, _) = layer.paint { split = s.column(at: time, width: scene.width) }
            var blitter = PaintBlitter(view: view, left: fills[index].left, right: fills[index].right, split: split)
            rasterizer.resolve(rows: layer.content.rows(sceneHeight: scene.height), into: &blitter)
        }
    }

    public func finish() {}
}
