import Foundation

/// The one place a backend is chosen from a value. `auto` tries GL first and
/// falls back to the CPU with a one-line reason (the bgfx model: backends
/// tried in order). Used by render, demo and bench alike. Backends register
/// themselves: the CPU's is built in; GL's is added by WaveGL's
/// `GLBackend.register()`, so this module names no GL. A backend that is
/// not registered is `RendererError.unavailable`, as one whose driver fails.
public enum BackendChooser {
    public struct Choice {
        public let renderer: Renderer
        /// Set when `auto` fell back: why GL was not used.
        public let notice: String?
    }

    /// Makes an unprepared renderer of a backend on `host` (that backend's
    /// own context or device, opaque here; nil: one of its own), with a subpixel mode.
    public typealias Maker = @Sendable (_ host: AnyObject?, _ subpixel: SubpixelMode) throws -> Renderer

    nonisolated(unsafe) private static var makers: [Backend: Maker] = [.cpu: { _, _ in CPURenderer() }]
    private static let lock = NSLock()

    /// Adds (or replaces) how `backend`'s renderers are made.
    public static func register(_ backend: Backend, maker: @escaping Maker) {
        lock.lock()
        defer { lock.unlock() }
        makers[backend] = maker
    }

    /// A renderer prepared for `scene`. GL can fail to make a context or to
    /// fit the scene (driver limits): `gl` then throws `unavailable` with
    /// the driver's reason, and `auto` uses the CPU, saying why.
    public static func make(_ choice: BackendChoice, for scene: Scene, host: AnyObject? = nil,
                            subpixel: SubpixelMode = .linear) throws -> Choice {
        switch choice {
        case .cpu:
            return Choice(renderer: try prepared(.cpu, for: scene), notice: nil)
        case .gl:
            return Choice(renderer: try prepared(.gl, for: scene, host: host, subpixel: subpixel), notice: nil)
        case .auto:
            do {
                return Choice(renderer: try prepared(.gl, for: scene, host: host, subpixel: subpixel), notice: nil)
            } catch let error as RendererError {
                return Choice(renderer: try prepared(.cpu, for: scene), notice: "using the CPU backend: \(error)")
            }
        }
    }

    /// A renderer of `backend` prepared for `scene` (scene errors pass
    /// through: the renderer's prepare is where a scene is validated, once).
    public static func prepared(_ backend: Backend, for scene: Scene, host: AnyObject? = nil,
                                subpixel: SubpixelMode = .linear) throws -> Renderer {
        let made = try renderer(backend, host: host, subpixel: subpixel)
        try made.prepare(scene: scene)
        return made
    }

    /// An unprepared renderer of `backend`: what the benchmark makes once per strategy.
    public static func renderer(_ backend: Backend, host: AnyObject? = nil, subpixel: SubpixelMode = .linear) throws -> Renderer {
        lock.lock()
        let maker = makers[backend]
        lock.unlock()
        guard let maker else {
            throw RendererError.unavailable(backend, reason: "this program was built without the \(backend.rawValue) backend")
        }
        return try maker(host, subpixel)
    }
}
