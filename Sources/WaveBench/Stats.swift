/// Median and 95th percentile of per-frame samples, by the nearest-rank
/// method: the value at rank ceil(p/100 * n) of the sorted samples, so every
/// figure reported is one that a frame actually measured.
package struct Stats: Codable, Equatable, Sendable {
    package var median: Double
    package var p95: Double

    package init(median: Double, p95: Double) {
        self.median = median
        self.p95 = p95
    }

    /// nil when there are no samples (a figure that was not measured).
    package init?<S: Sequence>(_ samples: S) where S.Element == Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return nil }
        median = Self.nearestRank(percent: 50, of: sorted)
        p95 = Self.nearestRank(percent: 95, of: sorted)
    }

    /// The value at 1-based rank ceil(percent * n / 100) of `sorted`, in
    /// integer arithmetic so that no rounding can move the rank.
    package static func nearestRank(percent: Int, of sorted: [Double]) -> Double {
        precondition(!sorted.isEmpty && (0...100).contains(percent))
        let rank = Swift.max(1, (percent * sorted.count + 99) / 100)
        return sorted[rank - 1]
    }
}
