import Foundation

/// Figures, units and strategy names, formatted in one place: the demo's
/// heads-up display, the terminal tables, CSV/JSON keys and the chart all
/// read them from here, so one figure has one name and one meaning.
package enum Figure: String, CaseIterable, Sendable {
    /// Thread CPU time of the strategy's own frame work: the renderer's draw,
    /// plus (CPU strategy, where frames end on a GPU) the upload of its pixels.
    /// Showing the frame (blit, swap) is not part of it, in the demo or the bench.
    case cpuMs = "cpu_ms"
    /// CPU time of the whole process over the frame (all threads: llvmpipe's too).
    case processCpuMs = "process_cpu_ms"
    /// GL_TIME_ELAPSED around the strategy's GPU work.
    case gpuMs = "gpu_ms"
    /// The whole frame, waiting for the GPU included.
    case wallMs = "wall_ms"
    /// CPU strategy: rebuilding and rasterising the paths (the renderer's draw).
    case rasterMs = "raster_ms"
    /// CPU strategy: uploading the pixels into a texture.
    case uploadMs = "upload_ms"

    /// A short label for tables and the heads-up display.
    package var label: String {
        switch self {
        case .cpuMs: "CPU ms"
        case .processCpuMs: "process CPU ms"
        case .gpuMs: "GPU ms"
        case .wallMs: "wall ms"
        case .rasterMs: "raster ms"
        case .uploadMs: "upload ms"
        }
    }
}

package enum Format {
    /// What each strategy does for `scene`, as a caption: the GL strategy
    /// caches only what stays still; what changes shape every frame it
    /// computes on the GPU every frame, and the caption says so.
    package static func strategy(_ backend: Backend, for scene: Scene? = nil) -> String {
        switch backend {
        case .cpu: return "CPU: redraw every frame"
        case .gl:
            switch scene?.gpuWork ?? .cached {
            case .cached: return "GL: render once, animate on the GPU"
            case .computedEveryFrame: return "GL: computed on the GPU every frame"
            case .mixed: return "GL: cached where still, computed on the GPU where it changes"
            }
        }
    }

    /// The strategy's short name for tables.
    package static func strategyShort(_ backend: Backend) -> String {
        switch backend {
        case .cpu: "redraw (cpu)"
        case .gl: "translate (gl)"
        }
    }

    /// Milliseconds with as many decimals as small values need; "-" when unmeasured.
    package static func milliseconds(_ value: Double?) -> String {
        guard let value else { return "-" }
        switch value {
        case ..<0.1: return String(format: "%.4f", value)
        case ..<10: return String(format: "%.3f", value)
        default: return String(format: "%.1f", value)
        }
    }

    /// `figure` as "CPU 0.123 ms" (the heads-up display's and the title bar's form).
    package static func perFrame(_ figure: Figure, _ value: Double?) -> String {
        let name = figure.label.replacingOccurrences(of: " ms", with: "")
        return "\(name) \(milliseconds(value)) ms/frame"
    }

    package static func framesPerSecond(_ value: Double) -> String { String(format: "%.1f fps", value) }

    /// A pixel count, short: "870", "12.3k", "1.25M".
    package static func pixels(_ n: Int) -> String {
        switch n {
        case ..<1000: return "\(n)"
        case ..<1_000_000: return String(format: "%.1fk", Double(n) / 1000)
        default: return String(format: "%.2fM", Double(n) / 1_000_000)
        }
    }

    /// Allocations per frame: whole numbers without decimals.
    package static func count(_ perFrame: Double) -> String {
        perFrame == perFrame.rounded() ? String(format: "%.0f", perFrame) : String(format: "%.3f", perFrame)
    }
}

/// "1 item", "2 items", "1 refresh", "3 refreshes": a count and its noun,
/// plural unless the count is one (the plural is the singular and "s" unless given).
package func counted(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
}
