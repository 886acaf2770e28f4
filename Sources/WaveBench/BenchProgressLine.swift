import WaveCore

/// A benchmark's progress (rows or seconds done, and what runs now) on the terminal's progress line.
extension TerminalProgress {
    package func update(_ progress: BenchProgress) {
        update(done: progress.done, of: progress.total, label: progress.label)
    }
}
