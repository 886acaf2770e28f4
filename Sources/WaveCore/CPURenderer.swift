/// The redraw-per-tick strategy: every `draw(time:)` rebuilds each cell's
/// path for that time and rasterises it into a pixel buffer. Nothing
/// rasterised survives from one frame to the next.
public final class CPURenderer: WaveRenderer {
    public let backend = Backend.cpu
    public let rendererName = "CPU rasteriser (Swift, integer signed-area coverage)"

    public private(set) var scene: Scene?
    private var geometry: WaveGeometry?
    private var rasterizer: CoverageRasterizer?
    private var paint: CoveragePaint?
    private var frame: UnsafeMutableBufferPointer<UInt32> = .init(start: nil, count: 0)

    public init() {}

    deinit { frame.deallocate() }

    public func prepare(scene: Scene) throws {
        try scene.validate()
        if scene == self.scene { return }
        if rasterizer?.width != scene.width || rasterizer?.height != scene.height {
            rasterizer = CoverageRasterizer(width: scene.width, height: scene.height)
            frame.deallocate()
            frame = .allocate(capacity: scene.width * scene.height)
            frame.initialize(repeating: scene.background.packed)
        }
        geometry = WaveGeometry(scene: scene)
        paint = CoveragePaint(fill: scene.wave.color, over: scene.background)
        self.scene = scene
    }

    public func draw(time: Double) throws {
        guard let scene, let geometry, let rasterizer, let paint else { throw RendererError.notPrepared(.cpu) }
        geometry.addCells(offset: scene.contentOffset(at: time), to: rasterizer)
        rasterizer.resolve(into: frame.baseAddress!, paint: paint)
    }

    /// The last frame in place (packed RGBA words, rows top to bottom), for
    /// uploading without a copy. Valid until the next `prepare`.
    public var framePixels: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(frame) }

    public func readback() throws -> RGBAImage {
        guard let scene else { throw RendererError.notPrepared(.cpu) }
        let bytes = UnsafeRawBufferPointer(frame)
        return RGBAImage(width: scene.width, height: scene.height, pixels: Array(bytes))
    }
}
