import Foundation
import WaveCore

/// The chart of a sweep: milliseconds per frame (median) against cells:
/// each strategy's own thread CPU, the whole process's CPU (a lighter line),
/// both axes logarithmic, one solid line per strategy for its CPU time and
/// a dashed one for its GPU time where that was measured. Written as SVG by
/// hand: a few dozen elements need no library.
package struct BenchChart {
    package struct Series {
        package var label: String
        package var color: String
        package var dashed: Bool
        /// (x, ms), x ascending: cells in a sweep, seconds in the pacing chart.
        package var points: [(x: Double, y: Double)]
    }

    package var title: String
    /// What the x axis counts.
    package var unit: String
    package var subtitle: String
    package var series: [Series]
    /// Footnotes: what the chart leaves out, and how to read it on this renderer.
    package var notes: [String]

    package init(report: BenchReport) {
        let sweep = report.results.filter { $0.preset == nil }
        let size = sweep.first.map { "\($0.cellSize[0])x\($0.cellSize[1])" } ?? "?"
        unit = sweep.first?.unit ?? "cells"
        title = sweep.first?.unit == nil ? "Strategy CPU, process CPU and GPU time per frame against cells (cells of \(size) px)"
                                         : "Strategy CPU, process CPU and GPU time per frame against \(unit)"
        subtitle = "GL_RENDERER: \(report.renderer) \u{B7} \(report.machine.cpus) CPUs \u{B7} medians of \(sweep.first?.frames ?? 0) frames"
        var series: [Series] = []
        var notes: [String] = []
        for backend in ["cpu", "gl"] {
            let rows = sweep.filter { $0.backend == backend }.sorted { $0.cells < $1.cells }
            guard !rows.isEmpty else { continue }
            // The GL strategy slides cached cells; dots and voice curves it computes per frame.
            let name = backend == "cpu" ? "redraw" : sweep.first?.unit == nil ? "translate" : "GPU-computed"
            let color = backend == "cpu" ? "#d9480f" : "#1971c2"
            series.append(Series(label: "\(name): \(Figure.cpuMs.label)", color: color, dashed: false,
                                 points: rows.map { (Double($0.cells), $0.cpuMs.median) }))
            // All threads: on a software driver the GPU's work is here too.
            series.append(Series(label: "\(name): \(Figure.processCpuMs.label)", color: backend == "cpu" ? "#f5a06b" : "#74b3ea",
                                 dashed: false, points: rows.map { (Double($0.cells), $0.processCpuMs.median) }))
            let gpuLabel = "\(name): \(Figure.gpuMs.label)" + (backend == "cpu" ? " (upload)" : "")
            let gpu = rows.compactMap { r in r.gpuMs.map { (x: Double(r.cells), y: $0.median) } }
            // A log axis has no zero: times below the timer's resolution are left out, and said so.
            let plotted = gpu.filter { $0.y > 0 }
            if plotted.count < gpu.count { notes.append("\(gpuLabel): 0 at \(gpu.count - plotted.count) of \(gpu.count) points (not plotted)") }
            if !plotted.isEmpty { series.append(Series(label: gpuLabel, color: color, dashed: true, points: plotted)) }
        }
        if report.renderer.lowercased().contains("llvmpipe") {
            notes.append("llvmpipe renders on the CPU: its GPU ms are CPU work on the driver's threads, and count only work flushed before the query ends")
        }
        self.notes = notes
        self.series = series
    }

    // MARK: Layout

    static let size = (width: 860.0, height: 500.0)
    static let plot = (left: 78.0, top: 104.0, right: 600.0, bottom: 400.0)

    /// The plot's row for a time on a log axis over `ys`; non-positive times
    /// (below the clock's resolution) sit on the floor.
    static func logRows(_ ys: ClosedRange<Int>) -> (Double) -> Double {
        let p = plot
        return { y in
            let v = y > 0 ? log10(y) : Double(ys.lowerBound)
            return p.bottom - (v - Double(ys.lowerBound)) / Double(ys.count - 1) * (p.bottom - p.top)
        }
    }

    /// Whole decades covering `values` (at least one decade wide).
    static func decades(_ values: [Double]) -> ClosedRange<Int> {
        let logs = values.filter { $0 > 0 }.map(log10)
        guard let low = logs.min(), let high = logs.max() else { return -1...0 }
        let from = Int(low.rounded(.down)), to = Int(high.rounded(.up))
        return from...max(to, from + 1)
    }

    package func svg() -> String {
        let xs = Self.decades(series.flatMap { $0.points.map(\.x) })
        let ys = Self.decades(series.flatMap { $0.points.map(\.y) })
        let p = Self.plot
        func px(_ x: Double) -> Double {
            p.left + (log10(x) - Double(xs.lowerBound)) / Double(xs.count - 1) * (p.right - p.left)
        }
        let py = Self.logRows(ys)
        var out = SVGWriter(width: Self.size.width, height: Self.size.height)
        out.text(title, x: 20, y: 30, size: 17, weight: "bold")
        out.text(subtitle, x: 20, y: 52, size: 12, color: "#555")

        // Grid and ticks: decades labelled, 2..9 as faint lines.
        out.decadeRows(ys, left: p.left, right: p.right, y: py)
        for d in xs {
            let x = px(pow(10, Double(d)))
            out.line(x, p.top, x, p.bottom, color: "#ccc")
            out.text(Self.decadeLabel(d), x: x, y: p.bottom + 18, size: 12, anchor: "middle")
            if d < xs.upperBound { for m in 2...9 { let xm = px(Double(m) * pow(10, Double(d))); out.line(xm, p.top, xm, p.bottom, color: "#eee") } }
        }
        out.rect(p.left, p.top, p.right - p.left, p.bottom - p.top, stroke: "#888")
        out.text("\(unit) (log scale)", x: (p.left + p.right) / 2, y: p.bottom + 42, size: 13, anchor: "middle")
        out.text("ms per frame, median (log scale)", x: 24, y: (p.top + p.bottom) / 2, size: 13, anchor: "middle",
                 rotate: -90)

        out.legend(series)
        for (i, note) in notes.enumerated() {
            out.text(note, x: 20, y: p.bottom + 66 + Double(i) * 16, size: 11, color: "#666")
        }

        out.lines(series, at: { (px($0.x), py($0.y)) }, marker: { _ in 3.5 }, labelX: p.right + 10) {
            "\($0.label) \(Format.milliseconds($0.points.last!.y))"
        }
        return out.finish()
    }

    /// 10^d as a plain number: 0.001, 0.1, 1, 100, 1000.
    static func decadeLabel(_ d: Int) -> String {
        d >= 0 ? String(Int(pow(10, Double(d)))) : "0." + String(repeating: "0", count: -d - 1) + "1"
    }
}

/// What both charts draw alike: a log axis's rows, the legend, the lines
/// with their markers and the labels at their right ends.
extension SVGWriter {
    /// A line at each decade of `ys` (labelled left of `left`), faint ones at its 2..9.
    mutating func decadeRows(_ ys: ClosedRange<Int>, left: Double, right: Double, y py: (Double) -> Double) {
        for d in ys {
            let y = py(pow(10, Double(d)))
            line(left, y, right, y, color: "#ccc")
            text(BenchChart.decadeLabel(d), x: left - 8, y: y + 4, size: 12, anchor: "end")
            if d < ys.upperBound { for m in 2...9 { let ym = py(Double(m) * pow(10, Double(d))); line(left, ym, right, ym, color: "#eee") } }
        }
    }

    /// The legend under the subtitle, wrapping onto a second row when the first is full.
    mutating func legend(_ series: [BenchChart.Series]) {
        var legendX = 20.0, legendY = 68.0
        for s in series {
            let width = 34 + Double(s.label.count) * 6.6 + 22
            if legendX + width > self.width - 10 && legendX > 20 { legendX = 20; legendY += 15 }
            line(legendX, legendY, legendX + 28, legendY, color: s.color, width: 2.5, dashed: s.dashed)
            text(s.label, x: legendX + 34, y: legendY + 4, size: 12)
            legendX += width
        }
    }

    /// Each series as a line through `at` of its points, a marker of radius
    /// `marker` at each (nil: none), then `label` at its right end, the
    /// labels pushed apart so none overlap.
    mutating func lines(_ series: [BenchChart.Series], at: ((x: Double, y: Double)) -> (Double, Double),
                        marker: (BenchChart.Series) -> Double?, labelX: Double, label: (BenchChart.Series) -> String) {
        var labels: [(y: Double, text: String, color: String)] = []
        for s in series {
            let points = s.points.map(at)
            polyline(points, color: s.color, dashed: s.dashed)
            if let radius = marker(s) { for (x, y) in points { circle(x, y, radius: radius, color: s.color, hollow: s.dashed) } }
            if let last = points.last { labels.append((last.1, label(s), s.color)) }
        }
        labels.sort { $0.y < $1.y }
        for i in labels.indices.dropFirst() where labels[i].y < labels[i - 1].y + 15 {
            labels[i].y = labels[i - 1].y + 15
        }
        for l in labels { text(l.text, x: labelX, y: l.y + 4, size: 12, color: l.color) }
    }
}

/// Just enough SVG.
struct SVGWriter {
    private var body: [String] = []
    let width: Double, height: Double

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String,
                       width: Double = 1, dashed: Bool = false) {
        body.append("<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(color)\" "
            + "stroke-width=\"\(n(width))\"\(dashed ? " stroke-dasharray=\"7 5\"" : "")/>")
    }

    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, stroke: String, fill: String = "none",
                       opacity: Double = 1) {
        body.append("<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"\(fill)\" "
            + "fill-opacity=\"\(n(opacity))\" stroke=\"\(stroke)\"/>")
    }

    mutating func polyline(_ points: [(Double, Double)], color: String, dashed: Bool) {
        let list = points.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: " ")
        body.append("<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2.5\" "
            + "stroke-linejoin=\"round\"\(dashed ? " stroke-dasharray=\"7 5\"" : "")/>")
    }

    mutating func circle(_ x: Double, _ y: Double, radius: Double, color: String, hollow: Bool) {
        body.append("<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(radius))\" "
            + (hollow ? "fill=\"white\" stroke=\"\(color)\" stroke-width=\"1.5\"/>" : "fill=\"\(color)\"/>"))
    }

    mutating func text(_ text: String, x: Double, y: Double, size: Double, color: String = "#222",
                       weight: String = "normal", anchor: String = "start", rotate: Double? = nil) {
        let turn = rotate.map { " transform=\"rotate(\(n($0)) \(n(x)) \(n(y)))\"" } ?? ""
        body.append("<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" fill=\"\(color)\" "
            + "font-weight=\"\(weight)\" text-anchor=\"\(anchor)\"\(turn)>\(escape(text))</text>")
    }

    func finish() -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
        viewBox="0 0 \(n(width)) \(n(height))" font-family="Helvetica, Arial, sans-serif">
        <rect width="100%" height="100%" fill="white"/>
        \(body.joined(separator: "\n"))
        </svg>

        """
    }

    private func n(_ v: Double) -> String { String(format: "%.1f", v) }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
