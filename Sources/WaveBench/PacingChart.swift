import Foundation
import WaveCore

/// The chart of the pacing preset with a simulation (`--preset pacing
/// --scene crates --chart`): every frame's interval against the time since
/// its run began, one line per run under the timer (or the budget's
/// interval pacing), y logarithmic. The uncapped run's line climbs (the
/// death spiral) until a frame passes the stop; the capped and budgeted
/// ones stay level.
package struct PacingChart {
    package var title: String
    package var subtitle: String
    /// Per run: (seconds since it began, interval ms).
    package var series: [BenchChart.Series]

    /// Nil where no run kept its intervals (a scene without a simulation).
    package init?(report: BenchReport) {
        guard let pacing = report.pacing else { return nil }
        let rows = pacing.rows.filter { $0.intervalsMs != nil && $0.pacing != "free" }
        guard !rows.isEmpty else { return nil }
        title = "Frame intervals: no cap (the death spiral), the cap, the physics budget"
        subtitle = "GL_RENDERER: \(report.renderer) \u{B7} \(report.machine.cpus) CPUs \u{B7} physics step "
            + String(format: "%.2f ms, cap %d steps a frame", pacing.physicsStepMs, pacing.maxSteps)
        series = rows.map { row in
            var t = 0.0
            let points = (row.intervalsMs ?? []).map { ms -> (x: Double, y: Double) in
                t += ms / 1000
                return (t, ms)
            }
            let cpu = row.backend == "cpu"
            let label = "\(row.backend) " + (row.physicsBudget.map { "budget \($0)" } ?? (row.cap.map { "cap \($0)" } ?? "no cap"))
            let color = row.physicsBudget != nil ? (cpu ? "#f59f00" : "#15aabf") : (cpu ? "#d9480f" : "#1971c2")
            return BenchChart.Series(label: label, color: color, dashed: row.cap != nil && row.physicsBudget == nil, points: points)
        }
    }

    package func svg() -> String {
        let size = BenchChart.size, p = BenchChart.plot
        let ys = BenchChart.decades(series.flatMap { $0.points.map(\.y) })
        let end = Swift.max(0.1, series.flatMap { $0.points.map(\.x) }.max() ?? 1)
        func px(_ x: Double) -> Double { p.left + x / end * (p.right - p.left) }
        let py = BenchChart.logRows(ys)
        var out = SVGWriter(width: size.width, height: size.height)
        out.text(title, x: 20, y: 30, size: 17, weight: "bold")
        out.text(subtitle, x: 20, y: 52, size: 12, color: "#555")
        out.decadeRows(ys, left: p.left, right: p.right, y: py)
        // Seconds along x, a tick each half second (or each second past 5 s).
        let tick = end > 5 ? 1.0 : 0.5
        var s = 0.0
        while s <= end + 1e-9 {
            out.line(px(s), p.top, px(s), p.bottom, color: "#eee")
            out.text(String(format: "%g", s), x: px(s), y: p.bottom + 18, size: 12, anchor: "middle")
            s += tick
        }
        out.rect(p.left, p.top, p.right - p.left, p.bottom - p.top, stroke: "#888")
        out.text("seconds since the run began", x: (p.left + p.right) / 2, y: p.bottom + 42, size: 13, anchor: "middle")
        out.text("frame interval, ms (log scale)", x: 24, y: (p.top + p.bottom) / 2, size: 13, anchor: "middle", rotate: -90)
        out.legend(series)
        out.lines(series, at: { (px($0.x), py($0.y)) }, marker: { $0.points.count <= 60 ? 2.5 : nil }, labelX: p.right + 10) {
            "\($0.label) \(Format.milliseconds($0.points.last!.y)) ms"
        }
        out.text("Each line is one run under the timer; an uncapped run stops at its first frame over "
                 + "\(Int(PacingPreset.spiralStop * 1000)) ms. Dashed: the cap; light: the physics budget.",
                 x: 20, y: p.bottom + 66, size: 11, color: "#666")
        return out.finish()
    }
}
