import WaveCore

/// The one place a backend is chosen from a value. `auto` tries GL first and
/// falls back to the CPU with a one-line reason (the bgfx model: backends
/// tried in order).
public enum BackendFactory {
    public struct Choice {
        public let renderer: WaveRenderer
        /// Set when `auto` fell back: why GL was not used.
        public let notice: String?
    }

    /// A renderer prepared for `scene`. GL can fail to make a context or to
    /// fit the scene (driver limits): `gl` then throws `unavailable` with
    /// the driver's reason, and `auto` uses the CPU, saying why.
    public static func make(_ choice: BackendChoice, for scene: Scene) throws -> Choice {
        switch choice {
        case .cpu:
            return Choice(renderer: try prepared(CPURenderer(), scene), notice: nil)
        case .gl:
            return Choice(renderer: try makeGL(for: scene), notice: nil)
        case .auto:
            do {
                return Choice(renderer: try makeGL(for: scene), notice: nil)
            } catch let error as RendererError {
                return Choice(renderer: try prepared(CPURenderer(), scene), notice: "using the CPU backend: \(error)")
            }
        }
    }

    /// A headless GL renderer prepared for `scene`; a GL failure becomes
    /// `unavailable` with the driver's reason (scene errors pass through).
    static func makeGL(for scene: Scene) throws -> WaveRenderer {
        try scene.validate()
        do {
            return try prepared(GLRenderer(), scene)
        } catch let error as GLError {
            throw RendererError.unavailable(.gl, reason: "\(error)")
        } catch let error as GLContextError {
            throw RendererError.unavailable(.gl, reason: "\(error)")
        }
    }

    private static func prepared(_ renderer: WaveRenderer, _ scene: Scene) throws -> WaveRenderer {
        try renderer.prepare(scene: scene)
        return renderer
    }
}
