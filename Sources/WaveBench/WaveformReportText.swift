import Foundation
import WaveCore

/// The waveform preset as text (the terminal) and as a chart (SVG).
extension WaveformReport {
    package func table(renderer: String, cpus: Int) -> String {
        let header = ["strategy", "snap", "frames", "process CPU %", "fps", "missed", Figure.cpuMs.label, Figure.processCpuMs.label,
                      Figure.gpuMs.label, "need draw/s", "phasing", "allocs/f"]
        let rows = self.rows.map { r -> [String] in
            [r.strategy, r.snap ? "on" : "off", r.scheduled ? "on change" : "every tick", String(format: "%.1f%%", r.processCpuPercent), String(format: "%.1f", r.fps),
             "\(r.framesMissed)", Format.milliseconds(r.cpuMs.median), Format.milliseconds(r.processCpuMs.median),
             Format.milliseconds(r.gpuMs?.median), String(format: "%.2f", r.framesNeedingDrawPerSecond),
             r.phasing.map { String(format: "%.4f", $0) } ?? "-", Format.count(r.allocationsPerFrame)]
        }
        let strategies = Array(Set(played.map(\.strategy))).sorted()
        let sweepHeader = ["played"] + strategies.map { "\($0) \(Figure.cpuMs.label)" } + strategies.map { "\($0) proc" }
        let sweepRows = WaveformPreset.playedFractions.map { f -> [String] in
            let points = strategies.map { s in played.first { $0.strategy == s && $0.playedFraction == f } }
            return ["\(Int(f * 100))%"] + points.map { Format.milliseconds($0?.cpuMs) }
                + points.map { Format.milliseconds($0?.processCpuMs) }
        }
        let decodeLines = decode.map {
            String(format: "decode %@: %.0f s of audio in %.2f s (%.0fx real time)", $0.format, $0.audioSeconds, $0.decodeSeconds,
                   $0.realtimeFactor)
        }
        return "waves bench --preset waveform: a \(Int(trackSeconds)) s track, \(Int(WaveformPreset.travel)) px of bars "
            + String(format: "(%.3f px/s)", pixelsPerSecond) + ", a \(viewSize[0])x\(viewSize[1]) view, bars \(barWidth)+\(barGap) px, "
            + "60 fps for \(String(format: "%g", seconds)) s each; GL_RENDERER: \(renderer); \(cpus) CPUs\n"
            + BenchReport.table(header: header, rows: rows)
            + "frames: every tick of 60 fps, or on change (drawn only where the layer tree says the picture may differ from the last frame drawn)\n"
            + pixelTable
            + "cost as the played part of the view grows (medians of unpaced frames, ms):\n"
            + BenchReport.table(header: sweepHeader, rows: sweepRows)
            + decodeLines.map { $0 + "\n" }.joined()
            + "published (iPhone):\n" + published.map { "  " + $0 + "\n" }.joined()
    }
}

extension WaveformReport {
    /// Each strategy's counted frame (snapped, every tick: the frames differ only in where the bars are).
    var pixelTable: String {
        let counted = rows.filter { $0.pixelsPerFrame != nil && $0.snap && !$0.scheduled }
        guard !counted.isEmpty else { return "" }
        return "pixels of one frame, as each strategy counted them:\n"
            + BenchReport.table(header: ["strategy"] + BenchReport.pixelColumns, rows: counted.map { r in
                let p = r.pixelsPerFrame!
                return [r.strategy] + [p.cpuRasterized, p.written, p.blended, p.offscreen, p.updated, p.mostBlendedLayers].map(String.init)
            })
            + BenchReport.pixelKey
    }
}

/// Two panels: process CPU % per strategy (snap off and on) beside the
/// published phone figures, and CPU ms per frame as the played part grows.
package struct WaveformChart {
    package let report: WaveformReport
    package let renderer: String

    package init(report: WaveformReport, renderer: String) {
        self.report = report
        self.renderer = renderer
    }

    static let colors = ["cpu": "#d9480f", "gl-mask": "#1971c2", "gl-two-clips": "#2f9e44"]

    package func svg() -> String {
        var out = SVGWriter(width: 900, height: 520)
        out.text("The waveform preset: process CPU at 60 fps, and cost as more of the view is played", x: 20, y: 30, size: 17,
                 weight: "bold")
        out.text("GL_RENDERER: \(renderer) \u{B7} \(report.viewSize[0])x\(report.viewSize[1]) view \u{B7} "
                 + "\(Int(report.trackSeconds)) s track, \(Int(WaveformPreset.travel)) px of bars", x: 20, y: 52, size: 12, color: "#555")
        // Left: bars of process CPU %.
        let left = (x: 70.0, top: 90.0, bottom: 400.0, width: 330.0)
        let maxPercent = max(10, (report.rows.map(\.processCpuPercent).max() ?? 10) * 1.15)
        out.rect(left.x, left.top, left.width, left.bottom - left.top, stroke: "#888")
        out.text("process CPU % (one core = 100)", x: 24, y: (left.top + left.bottom) / 2, size: 12, anchor: "middle", rotate: -90)
        let slot = left.width / Double(max(1, report.rows.count))
        for (i, row) in report.rows.enumerated() {
            let h = row.processCpuPercent / maxPercent * (left.bottom - left.top)
            let x = left.x + Double(i) * slot + slot * 0.15
            out.rect(x, left.bottom - h, slot * 0.7, h, stroke: "none", fill: Self.colors[row.strategy] ?? "#888",
                     opacity: row.snap ? 0.55 : 1)
            out.text(String(format: "%.1f", row.processCpuPercent), x: x + slot * 0.35, y: left.bottom - h - 4, size: 11, anchor: "middle")
            out.text("\(row.strategy)\(row.snap ? " snap" : "")\(row.scheduled ? " sched" : "")", x: x + slot * 0.35, y: left.bottom + 14, size: 10, anchor: "middle",
                     rotate: 0)
        }
        // Right: CPU ms against the played fraction.
        let right = (x: 500.0, top: 90.0, bottom: 400.0, width: 360.0)
        out.rect(right.x, right.top, right.width, right.bottom - right.top, stroke: "#888")
        let maxMs = max(0.001, (report.played.map(\.cpuMs).max() ?? 1) * 1.15)
        out.text("\(Figure.cpuMs.label) per frame (median)", x: right.x - 40, y: (right.top + right.bottom) / 2, size: 12,
                 anchor: "middle", rotate: -90)
        for f in WaveformPreset.playedFractions {
            let x = right.x + f * right.width
            out.text("\(Int(f * 100))%", x: x, y: right.bottom + 16, size: 11, anchor: "middle")
        }
        out.text("played part of the view", x: right.x + right.width / 2, y: right.bottom + 34, size: 12, anchor: "middle")
        out.text(Format.milliseconds(maxMs), x: right.x - 6, y: right.top + 4, size: 11, anchor: "end")
        out.text("0", x: right.x - 6, y: right.bottom + 4, size: 11, anchor: "end")
        for strategy in WaveformPreset.strategies.map(\.name) {
            let points = report.played.filter { $0.strategy == strategy }.sorted { $0.playedFraction < $1.playedFraction }
            guard !points.isEmpty else { continue }
            let xy = points.map { (right.x + $0.playedFraction * right.width, right.bottom - $0.cpuMs / maxMs * (right.bottom - right.top)) }
            out.polyline(xy, color: Self.colors[strategy] ?? "#888", dashed: false)
            for (x, y) in xy { out.circle(x, y, radius: 3.5, color: Self.colors[strategy] ?? "#888", hollow: false) }
            if let last = xy.last { out.text(strategy, x: last.0 + 6, y: last.1 + 4, size: 11, color: Self.colors[strategy] ?? "#888") }
        }
        for (i, line) in (["published (iPhone):"] + report.published).enumerated() {
            out.text(line, x: 20, y: 450 + Double(i) * 15, size: 11, color: "#444")
        }
        return out.finish()
    }
}

extension WaveformReport {
    /// One row per paced run (the played sweep and decoding are in the JSON).
    package var csv: String {
        var lines = ["strategy,snap,scheduled,process_cpu_percent,fps,frames_drawn,frames_missed,cpu_ms_median,cpu_ms_p95,"
            + "process_cpu_ms_median,gpu_ms_median,frames_needing_draw_per_second,phasing,allocations_per_frame"]
        for r in rows {
            lines.append([r.strategy, "\(r.snap)", "\(r.scheduled)", "\(r.processCpuPercent)", "\(r.fps)", "\(r.framesDrawn)", "\(r.framesMissed)",
                          "\(r.cpuMs.median)", "\(r.cpuMs.p95)", "\(r.processCpuMs.median)", r.gpuMs.map { "\($0.median)" } ?? "",
                          "\(r.framesNeedingDrawPerSecond)", r.phasing.map { "\($0)" } ?? "", "\(r.allocationsPerFrame)"]
                .joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
