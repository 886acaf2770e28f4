import Foundation
import WaveCore

/// The report as text: the terminal table and CSV.
extension BenchReport {
    /// One row per result under a header line; unmeasured figures are empty
    /// fields. Columns follow the JSON keys, statistics split in two.
    package var csv: String {
        var columns = ["backend", "cells", "cell_width", "cell_height", "frames"]
        for figure in Figure.allCases.map(\.rawValue) {
            columns += [figure + "_median", figure + "_p95"]
        }
        columns += ["fps", "upload_bytes_per_frame", "allocations_per_frame", "driver_allocations_per_frame",
                    "peak_rss_mb", "write_once_ms",
                    "preset", "process_cpu_percent", "frames_missed", "renderer"]
        var lines = [columns.joined(separator: ",")]
        for r in results {
            var fields = [r.backend, "\(r.cells)", "\(r.cellSize[0])", "\(r.cellSize[1])", "\(r.frames)"]
            for stats in [r.cpuMs, r.processCpuMs, r.gpuMs, r.wallMs, r.rasterMs, r.uploadMs] {
                fields += [stats.map { "\($0.median)" } ?? "", stats.map { "\($0.p95)" } ?? ""]
            }
            fields += ["\(r.fps)", "\(r.uploadBytesPerFrame)", "\(r.allocationsPerFrame)",
                       r.driverAllocationsPerFrame.map { "\($0)" } ?? "", "\(r.peakRssMb)",
                       r.writeOnceMs.map { "\($0)" } ?? "", r.preset ?? "",
                       r.processCpuPercent.map { "\($0)" } ?? "", r.framesMissed.map { "\($0)" } ?? "",
                       Self.csvField(renderer)]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Quoted when it holds a comma, quote or line break (RFC 4180).
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The sweep as a table for a terminal (medians, with cpu_ms's p95).
    package var sweepTable: String {
        let unit = results.first?.unit ?? "cells"
        let physics = results.contains { $0.physicsMs != nil }
        let header = ["backend", unit, Figure.cpuMs.label, "CPU p95"] + (physics ? ["physics ms"] : [])
            + [Figure.processCpuMs.label, Figure.gpuMs.label,
               Figure.wallMs.label, Figure.rasterMs.label, Figure.uploadMs.label, "write-1x", "fps", "allocs/f",
               "driver allocs/f", "upload MB/f"]
        let rows = results.map { r -> [String] in
            [r.backend, "\(r.cells)", Format.milliseconds(r.cpuMs.median), Format.milliseconds(r.cpuMs.p95)]
                + (physics ? [Format.milliseconds(r.physicsMs)] : []) + [Format.milliseconds(r.processCpuMs.median),
             Format.milliseconds(r.gpuMs?.median), Format.milliseconds(r.wallMs.median), Format.milliseconds(r.rasterMs?.median), Format.milliseconds(r.uploadMs?.median),
             Format.milliseconds(r.writeOnceMs), String(format: "%.1f", r.fps), Format.count(r.allocationsPerFrame),
             r.driverAllocationsPerFrame.map(Format.count) ?? "-",
             String(format: "%.2f", Double(r.uploadBytesPerFrame) / 1_048_576)]
        }
        let size = results.first.map { r in
            r.unit == nil ? "cells of \(r.cellSize[0])x\(r.cellSize[1]) px, " : "\(unit), scenes \(r.cellSize[0]) px wide, "
        } ?? ""
        // What one more element costs each strategy: the slope of its CPU ms from the smallest count to the largest.
        let one = unit.hasSuffix("s") ? String(unit.dropLast()) : unit
        let perElement = ["cpu", "gl"].compactMap { backend -> String? in
            let rows = results.filter { $0.backend == backend }.sorted { $0.cells < $1.cells }
            guard let first = rows.first, let last = rows.last, last.cells > first.cells else { return nil }
            let slope = (last.cpuMs.median - first.cpuMs.median) / Double(last.cells - first.cells) * 1000
            return "\(backend): \(String(format: "%.4f", slope)) us of \(Figure.cpuMs.label) per \(one) "
                + "(from \(first.cells) to \(last.cells) \(unit)); \(Figure.cpuMs.label) at \(last.cells) is "
                + "\(String(format: "%.2f", last.cpuMs.median / max(first.cpuMs.median, 1e-9)))x that at \(first.cells)\n"
        }.joined()
        return "waves bench: \(size)\(results.first?.frames ?? 0) frames each; times are medians (ms) unless p95; "
            + "GL_RENDERER: \(renderer); \(machine.cpus) CPUs, \(machine.os)\n"
            + Self.table(header: header, rows: rows)
            + perElement
            + pixelTable(first: unit) { "\($0.cells)" }
            + "allocs/f: heap allocations per frame by this project's code; driver allocs/f: by the GL driver inside GL calls on the same thread\n"
    }

    /// The table preset beside the published figures: a row per strategy and phase.
    package var presetTable: String {
        let header = ["strategy", "phase", "process CPU %", "frames drawn", "missed", "fps", Figure.cpuMs.label,
                      Figure.processCpuMs.label, Figure.gpuMs.label, "allocs/f", "driver allocs/f"]
        let rows = results.map { r -> [String] in
            [Backend(rawValue: r.backend).map(Format.strategyShort) ?? r.backend, r.phase ?? "-",
             r.processCpuPercent.map { String(format: "%.1f%%", $0) } ?? "-", "\(r.frames)",
             r.framesMissed.map(String.init) ?? "-", String(format: "%.1f", r.fps), Format.milliseconds(r.cpuMs.median),
             Format.milliseconds(r.processCpuMs.median), Format.milliseconds(r.gpuMs?.median), Format.count(r.allocationsPerFrame),
             r.driverAllocationsPerFrame.map(Format.count) ?? "-"]
        }
        let first = results.first
        let setup = first.map { r in
            "\(r.screenSize?.map(String.init).joined(separator: "x") ?? "?") screen, \(r.cells) cells reused over rows of "
                + "\(r.cellSize.count > 1 ? r.cellSize[1] : 0) px, 60 fps, \(r.seconds.map { String(format: "%g", $0) } ?? "?") s a phase "
                + "(scrolling at \(Int(r.scrollSpeed ?? TablePreset.scrollSpeed)) px/s), "
                + (r.pacing == "vsync" ? "paced by the display's vsync" : "paced by sleeping (no vsync here)")
        } ?? ""
        return "waves bench --preset table: \(setup); GL_RENDERER: \(renderer); \(machine.cpus) CPUs\n"
            + Self.table(header: header, rows: rows)
            + (tableFloor.map { floor in
                "floor: copying the frame's bytes once a frame, paced the same way: "
                    + String(format: "%.2f%% process CPU (%.3f ms a frame)\n", floor.processCpuPercent, floor.copyMs)
            } ?? "")
            + pixelTable(first: "phase") { $0.phase ?? "-" }
            + "\(TablePreset.published)\n"
            + (renderer.lowercased().contains("llvmpipe")
                ? "note: llvmpipe draws on the CPU, so here the translate strategy's GPU work is process CPU time too\n" : "")
    }

    /// Each row's counted frame (`pixels_per_frame`), where there is one: a table and its key.
    func pixelTable(first: String, _ label: (BenchResult) -> String) -> String {
        let counted = results.filter { $0.pixelsPerFrame != nil }
        guard !counted.isEmpty else { return "" }
        let rows = counted.map { r -> [String] in
            let p = r.pixelsPerFrame!
            return [Backend(rawValue: r.backend).map(Format.strategyShort) ?? r.backend, label(r)]
                + [p.cpuRasterized, p.written, p.blended, p.offscreen, p.updated, p.mostBlendedLayers].map(String.init)
        }
        return "pixels of one frame, as each strategy counted them:\n"
            + Self.table(header: ["strategy", first] + Self.pixelColumns, rows: rows)
            + Self.pixelKey
    }

    static let pixelColumns = ["CPU rasterised", "written", "blended", "offscreen", "updated", "most layers"]
    static let pixelKey = "CPU rasterised: coverage or colour computed on the CPU; written: stores into the frame; blended: those "
        + "composited over it (GL: every fragment of a blended quad); offscreen: into masks, shadows, pictures; updated: frame "
        + "pixels painted in software; most layers: blended at one pixel\n"

    /// Columns right-aligned except the first, two spaces apart.
    static func table(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { c in all.map { $0[c].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, text in
                let pad = String(repeating: " ", count: widths[c] - text.count)
                return c == 0 ? text + pad : pad + text
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}
