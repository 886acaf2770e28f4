/// The renderer abstraction both strategies implement.
///
/// The contract a backend follows:
/// - `prepare(scene:)` does everything that depends only on the scene and its
///   size (allocations, for GL the one-time rasterisation and upload);
/// - `draw(time:)` makes the frame for time t and must not allocate;
/// - `readback()` returns the last frame, rows top to bottom.
public protocol WaveRenderer: AnyObject {
    var backend: Backend { get }
    /// What draws: "CPU rasteriser" or the GL_RENDERER string.
    var rendererName: String { get }
    func prepare(scene: Scene) throws
    func draw(time: Double) throws
    func readback() throws -> RGBAImage
}

/// The two strategies, as a value.
public enum Backend: String, CaseIterable, Sendable {
    /// Redraw per tick: rebuild and rasterise every cell's path every frame.
    case cpu
    /// Render once, translate: one cached raster, slid by a shader uniform.
    case gl

    public var strategyName: String {
        switch self {
        case .cpu: "CPU redraw per tick"
        case .gl: "GL render once, translate"
        }
    }
}

/// What a user may ask for: a backend, or `auto` (GL, else CPU with a reason).
public enum BackendChoice: String, CaseIterable, Sendable {
    case auto, cpu, gl
}

public enum RendererError: Error, CustomStringConvertible {
    /// The backend cannot run here; `reason` says why (for GL, the driver's words).
    case unavailable(Backend, reason: String)
    case notPrepared(Backend)

    public var description: String {
        switch self {
        case let .unavailable(backend, reason):
            "the \(backend.rawValue) backend is unavailable: \(reason)"
        case let .notPrepared(backend):
            "the \(backend.rawValue) renderer was asked to draw before prepare(scene:)"
        }
    }
}
