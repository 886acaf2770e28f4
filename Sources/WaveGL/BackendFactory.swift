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

    public static func make(_ choice: BackendChoice) throws -> Choice {
        switch choice {
        case .cpu:
            return Choice(renderer: CPURenderer(), notice: nil)
        case .gl:
            return Choice(renderer: try makeGL(), notice: nil)
        case .auto:
            do {
                return Choice(renderer: try makeGL(), notice: nil)
            } catch {
                return Choice(renderer: CPURenderer(),
                              notice: "using the CPU backend: \(error)")
            }
        }
    }

    /// A headless GL renderer; any failure becomes `unavailable` with the driver's reason.
    static func makeGL() throws -> WaveRenderer {
        do {
            return try GLRenderer()
        } catch {
            throw RendererError.unavailable(.gl, reason: "\(error)")
        }
    }
}
