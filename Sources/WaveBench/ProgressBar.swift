import Foundation
import WaveCore

/// A one-line progress bar on stderr, redrawn in place at most ten times a
/// second. Callers make one only when stderr is a terminal.
package final class ProgressBar {
    private let width: Int
    private var lastDraw = -Double.infinity
    private var drawn = false
    private let start = Clocks.wall()

    package init(width: Int = 24) { self.width = width }

    package func update(_ progress: BenchProgress) {
        let now = Clocks.wall()
        guard progress.done >= progress.total || now - lastDraw >= 0.1 else { return }
        lastDraw = now
        let fraction = progress.total > 0 ? Double(progress.done) / Double(progress.total) : 1
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        // Elapsed, and what is left at the rate so far.
        let elapsed = now - start
        let left = fraction > 0.01 ? elapsed / fraction * (1 - fraction) : nil
        let times = "\(Self.clock(elapsed)) elapsed" + (left.map { ", about \(Self.clock($0)) left" } ?? "")
        // \r back to the line's start, ESC[K clears what a longer label left.
        fputs("\r\u{1B}[K[\(bar)] \(Int(fraction * 100))%  \(times)  \(progress.label)", stderr)
        fflush(stderr)
        drawn = true
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    /// Clears the bar so the report starts on a clean line.
    package func finish() {
        if drawn { fputs("\r\u{1B}[K", stderr); fflush(stderr) }
        drawn = false
    }
}

