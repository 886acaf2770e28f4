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

    /// Keep the frame's rows bottom to top in memory, the order OpenGL
    /// uploads and blits without flipping (on llvmpipe a flipped 1080p blit
    /// cost ten times an unflipped one). `readback()` is top to bottom either way.
    public var storesRowsBottomUp = false

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
        if storesRowsBottomUp {
            rasterizer.resolve(into: frame.baseAddress! + (scene.height - 1) * scene.width, rowStride: -scene.width, paint: paint)
        } else {
            rasterizer.resolve(into: frame.baseAddress!, paint: paint)
        }
    }

    /// The last frame in place (packed RGBA words, rows in the order
    /// `storesRowsBottomUp` says), for uploading without a copy. Valid until
    /// the next `prepare`.
    public var framePixels: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(frame) }

    public func readback() throws -> RGBAImage {
        guard let scene else { throw RendererError.notPrepared(.cpu) }
        var image = RGBAImage(width: scene.width, height: scene.height, pixels: Array(UnsafeRawBufferPointer(frame)))
        if storesRowsBottomUp { image.flipRows() }
        return image
    }
}
