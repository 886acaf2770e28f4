import Foundation
import WaveCore

/// A one-line progress bar on stderr, redrawn in place at most ten times a
/// second. Callers make one only when stderr is a terminal.
public final class ProgressBar {
    private let width: Int
    private var lastDraw = -Double.infinity
    private var drawn = false

    public init(width: Int = 24) { self.width = width }

    public func update(_ progress: BenchProgress) {
        let now = Clocks.wall()
        guard progress.done >= progress.total || now - lastDraw >= 0.1 else { return }
        lastDraw = now
        let fraction = progress.total > 0 ? Double(progress.done) / Double(progress.total) : 1
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        // \r back to the line's start, ESC[K clears what a longer label left.
        fputs("\r\u{1B}[K[\(bar)] \(Int(fraction * 100))%  \(progress.label)", stderr)
        fflush(stderr)
        drawn = true
    }

    /// Clears the bar so the report starts on a clean line.
    public func finish() {
        if drawn { fputs("\r\u{1B}[K", stderr); fflush(stderr) }
        drawn = false
    }
}

