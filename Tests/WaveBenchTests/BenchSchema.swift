import Foundation

/// The documented JSON schema (see Sources/WaveBench/BenchReport.swift),
/// checked key by key on what JSONSerialization parses: independent of the
/// Codable types that wrote it.
enum BenchSchema {
    /// Every problem found, one line each; empty when the document is valid.
    static func problems(in data: Data) -> [String] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return ["not a JSON object"]
        }
        var problems: [String] = []
        func fail(_ text: String) { problems.append(text) }
        expectKeys(root, required: ["version", "renderer", "machine", "results", "waves_version", "commit", "date", "mode", "warmup",
                                    "interrupted"], optional: ["waveform", "pacing", "raster", "table_floor", "ball", "primitives", "lottie"], at: "root", fail)
        if !["headless", "window"].contains(root["mode"] as? String ?? "") { fail("mode is not headless or window") }
        if !(root["interrupted"] is Bool) { fail("interrupted is not a boolean") }
        if (root["date"] as? String).flatMap({ ISO8601DateFormatter().date(from: $0) }) == nil { fail("date is not ISO 8601") }
        if let pacing = root["pacing"] { checkPacing(pacing, fail) }
        if let raster = root["raster"] { checkRaster(raster, fail) }
        if let primitives = root["primitives"] { checkPrimitives(primitives, fail) }
        if let ball = root["ball"] { checkBall(ball, fail) }
        if let lottie = root["lottie"] { checkLottie(lottie, fail) }
        if let floor = root["table_floor"] {
            if let floor = floor as? [String: Any] {
                expectKeys(floor, required: ["process_cpu_percent", "copy_ms"], optional: [], at: "table_floor", fail)
                for key in ["process_cpu_percent", "copy_ms"] where !(floor[key] is NSNumber) { fail("table_floor.\(key) is not a number") }
            } else {
                fail("table_floor is not an object")
            }
        }
        if integer(root["version"]) != 2 { fail("version is not 2") }
        if (root["renderer"] as? String)?.isEmpty ?? true { fail("renderer is not a non-empty string") }
        if let machine = root["machine"] as? [String: Any] {
            expectKeys(machine, required: ["cpus", "os", "cpu_model"], optional: [], at: "machine", fail)
            if (integer(machine["cpus"]) ?? 0) < 1 { fail("machine.cpus is not a whole number >= 1") }
            if (machine["os"] as? String)?.isEmpty ?? true { fail("machine.os is not a non-empty string") }
        } else {
            fail("machine is not an object")
        }
        guard let results = root["results"] as? [[String: Any]] else {
            fail("results is not an array of objects")
            return problems
        }
        for (i, row) in results.enumerated() { checkResult(row, at: "results[\(i)]", fail) }
        return problems
    }

    /// `waves bench lottie`'s object: the size and rounds, a row a file, the medians, the targets.
    static func checkLottie(_ value: Any, _ fail: (String) -> Void) {
        guard let lottie = value as? [String: Any] else { return fail("lottie is not an object") }
        expectKeys(lottie, required: ["size", "rounds", "rows", "medians", "targets", "peer_notices", "interrupted"], optional: [],
                   at: "lottie", fail)
        checkPair(lottie["size"], at: "lottie.size", fail)
        if (integer(lottie["rounds"]) ?? 0) < 1 { fail("lottie.rounds is not a whole number >= 1") }
        if !(lottie["peer_notices"] is [String]) { fail("lottie.peer_notices is not a list of strings") }
        let figures = ["waves_cpu_ms", "waves_gl_ms", "waves_gl_process_ms", "gpu_ms", "rlottie_ms", "thorvg_ms"]
        guard let rows = lottie["rows"] as? [[String: Any]] else { return fail("lottie.rows is not an array of objects") }
        for (i, row) in rows.enumerated() {
            let path = "lottie.rows[\(i)]"
            expectKeys(row, required: ["file", "frames", "frame_rate", "not_measured", "layers", "cached_layers", "redrawn_layers",
                                       "allocations_per_frame"],
                       optional: figures + ["cpu_rasterized_pixels_per_frame", "peak_rss_mb", "verdict", "memory"], at: path, fail)
            if let memory = row["memory"] {
                guard let m = memory as? [String: Any] else { fail("\(path).memory is not an object"); continue }
                let keys = ["tree_mb", "import_peak_mb", "compiled_mb", "cpu_run_mb", "frame_mb"]
                expectKeys(m, required: keys, optional: [], at: "\(path).memory", fail)
                for key in keys where (number(m[key]) ?? -1) < 0 { fail("\(path).memory.\(key) is not a number >= 0") }
                if (number(m["frame_mb"]) ?? 0) <= 0 { fail("\(path).memory.frame_mb is not a number > 0") }
                if let tree = number(m["tree_mb"]), let peak = number(m["import_peak_mb"]), peak < tree {
                    fail("\(path).memory: the import's peak is below the tree it left")
                }
            }
            for key in figures where row[key] != nil { checkStats(row[key], at: "\(path).\(key)", fail) }
            for key in ["frames", "layers", "cached_layers", "redrawn_layers"] where (integer(row[key]) ?? -1) < 0 {
                fail("\(path).\(key) is not a whole number >= 0")
            }
            if let cached = integer(row["cached_layers"]), let redrawn = integer(row["redrawn_layers"]), let layers = integer(row["layers"]),
               cached + redrawn > layers { fail("\(path): more cached and redrawn layers than layers") }
            if !(row["not_measured"] is [String: String]) { fail("\(path).not_measured is not an object of strings") }
            if let verdict = row["verdict"] {
                guard let v = verdict as? [String: Any] else { fail("\(path).verdict is not an object"); continue }
                expectKeys(v, required: ["strategy", "factor", "reason"], optional: [], at: "\(path).verdict", fail)
                if !["cpu", "gl"].contains(v["strategy"] as? String ?? "") { fail("\(path).verdict.strategy is not cpu or gl") }
                if (number(v["factor"]) ?? 0) < 1 { fail("\(path).verdict.factor is not a number >= 1") }
            }
        }
        for key in ["medians", "targets"] where !(lottie[key] is [String: Any]) { fail("lottie.\(key) is not an object") }
    }

    /// `--preset pacing --scene ball`'s object: its settings, a row per (strategy, driver), a trace per driver.
    static func checkBall(_ value: Any, _ fail: (String) -> Void) {
        guard let ball = value as? [String: Any] else { return fail("ball is not an object") }
        expectKeys(ball, required: ["display_period_ms", "frame_interval", "busy_ms", "busy_pattern", "timer_mode", "travel_px", "rows", "traces"],
                   optional: [], at: "ball", fail)
        guard let rows = ball["rows"] as? [[String: Any]], !rows.isEmpty else { return fail("ball.rows is not a non-empty array") }
        for (i, row) in rows.enumerated() {
            let timer = row["driver"] as? String == "timer"
            let counts = ["callbacks", "late", "doubled", "skipped"]
            expectKeys(row, required: ["backend", "driver", "seconds", "frames", "missed", "error_max_px", "error_p99_px", "lag_max_ms", "stutter"]
                       + (timer ? counts : []), optional: [], at: "ball.rows[\(i)]", fail)
            if !["display", "timer", "fixed"].contains(row["driver"] as? String ?? "") { fail("ball.rows[\(i)].driver is not display, timer or fixed") }
            for key in ["frames", "missed", "stutter"] + (timer ? counts : []) where (integer(row[key]) ?? -1) < 0 {
                fail("ball.rows[\(i)].\(key) is not a whole number >= 0")
            }
            for key in ["error_max_px", "error_p99_px", "lag_max_ms"] where (number(row[key]) ?? -1) < 0 { fail("ball.rows[\(i)].\(key) is not a number >= 0") }
        }
        guard let traces = ball["traces"] as? [[String: Any]] else { return fail("ball.traces is not an array") }
        for (i, trace) in traces.enumerated() {
            expectKeys(trace, required: ["driver", "times", "y"], optional: [], at: "ball.traces[\(i)]", fail)
            if (trace["times"] as? [Any])?.count != (trace["y"] as? [Any])?.count { fail("ball.traces[\(i)]: times and y differ in length") }
        }
    }

    /// `--preset primitives`'s object: the screen and one row per primitive.
    static func checkPrimitives(_ value: Any, _ fail: (String) -> Void) {
        guard let primitives = value as? [String: Any] else { return fail("primitives is not an object") }
        expectKeys(primitives, required: ["rows", "method", "screen_size"], optional: [], at: "primitives", fail)
        guard let rows = primitives["rows"] as? [[String: Any]], !rows.isEmpty else { return fail("primitives.rows is not a non-empty array") }
        let numbers = ["cpu_process_ms", "gl_process_ms", "gl_thread_ms", "gl_over_cpu"]
        for (i, row) in rows.enumerated() {
            expectKeys(row, required: ["primitive", "drawn_by"], optional: numbers, at: "primitives.rows[\(i)]", fail)
            for key in numbers where row[key] != nil && !(row[key] is NSNumber) { fail("primitives.rows[\(i)].\(key) is not a number") }
        }
    }

    /// `--preset raster`'s object: cairo's version (or why there is none) and one row per frame.
    static func checkRaster(_ value: Any, _ fail: (String) -> Void) {
        guard let raster = value as? [String: Any] else { return fail("raster is not an object") }
        expectKeys(raster, required: ["rows", "method", "interrupted"],
                   optional: ["cairo_version", "cairo_unavailable", "blend2d_version", "renderer"], at: "raster", fail)
        if (raster["cairo_version"] == nil) == (raster["cairo_unavailable"] == nil) {
            fail("raster has neither or both of cairo_version and cairo_unavailable")
        }
        guard let rows = raster["rows"] as? [[String: Any]], !rows.isEmpty else { return fail("raster.rows is not a non-empty array") }
        let numbers = ["amplitude", "waves_us", "memset_us", "waves_over_memset"]
        let wholes = ["width", "height", "cycles", "rounds", "frames_per_batch"]
        for (i, row) in rows.enumerated() {
            let measuredWhereAvailable = ["cairo_us", "cairo_over_waves", "blend2d_us", "blend2d_over_waves", "waves_drawn_alone_us",
                                          "waves_uploading_us", "upload_us", "uploading_over_waves", "waves_shared_us",
                                          "shared_hand_over_us", "shared_over_waves"]
            expectKeys(row, required: ["frame"] + numbers + wholes,
                       optional: measuredWhereAvailable + ["cairo_difference", "blend2d_difference"], at: "raster.rows[\(i)]", fail)
            for key in numbers where !(row[key] is NSNumber) { fail("raster.rows[\(i)].\(key) is not a number") }
            for key in measuredWhereAvailable where row[key] != nil && !(row[key] is NSNumber) {
                fail("raster.rows[\(i)].\(key) is not a number")
            }
            for key in wholes where integer(row[key]) == nil { fail("raster.rows[\(i)].\(key) is not a whole number") }
            if let difference = row["cairo_difference"] as? [String: Any] {
                expectKeys(difference, required: ["mean", "max"], optional: [], at: "raster.rows[\(i)].cairo_difference", fail)
            }
        }
    }

    /// `--preset pacing`'s object: its settings and one row per (strategy, pacing).
    static func checkPacing(_ value: Any, _ fail: (String) -> Void) {
        guard let pacing = value as? [String: Any] else { return fail("pacing is not an object") }
        expectKeys(pacing, required: ["display_period_ms", "physics_step_ms", "max_steps", "stall_ms", "host", "rows"], optional: [],
                   at: "pacing", fail)
        guard let rows = pacing["rows"] as? [[String: Any]], !rows.isEmpty else { return fail("pacing.rows is not a non-empty array") }
        let keys = ["backend", "pacing", "seconds", "frames", "interval_p50_ms", "interval_p99_ms", "missed", "bunched",
                    "assumed_frame_error_ms", "max_steps_per_frame", "mean_steps_per_frame", "dropped_seconds", "cpu_ms",
                    "process_cpu_percent", "first_intervals_ms", "last_intervals_ms"]
        for (i, row) in rows.enumerated() {
            expectKeys(row, required: keys, optional: ["cap", "physics_ms", "intervals_ms", "physics_budget", "remedies"],
                       at: "pacing.rows[\(i)]", fail)
            if let intervals = row["intervals_ms"], !((intervals as? [Any])?.allSatisfy { $0 is NSNumber } ?? false) {
                fail("pacing.rows[\(i)].intervals_ms is not an array of numbers")
            }
            if let remedies = row["remedies"], !(remedies is [String]) { fail("pacing.rows[\(i)].remedies is not an array of strings") }
            if row["physics_budget"] != nil && !(row["physics_budget"] is NSNumber) { fail("pacing.rows[\(i)].physics_budget is not a number") }
            if row["cap"] != nil && integer(row["cap"]) == nil { fail("pacing.rows[\(i)].cap is not a whole number") }
            if row["physics_ms"] != nil && !(row["physics_ms"] is NSNumber) { fail("pacing.rows[\(i)].physics_ms is not a number") }
            if !["vsync", "timer", "free", "interval"].contains(row["pacing"] as? String ?? "") {
                fail("pacing.rows[\(i)].pacing is not vsync, timer, free or interval")
            }
            for key in ["frames", "missed", "bunched", "max_steps_per_frame"] where integer(row[key]) == nil {
                fail("pacing.rows[\(i)].\(key) is not a whole number")
            }
        }
    }

    static let statsKeys = ["cpu_ms", "process_cpu_ms", "wall_ms"]
    static let nullableStatsKeys = ["gpu_ms", "raster_ms", "upload_ms"]
    static let requiredKeys = ["backend", "cells", "cell_size", "frames", "fps", "upload_bytes_per_frame",
                               "allocations_per_frame", "peak_rss_mb"] + statsKeys + nullableStatsKeys
    static let additions = ["driver_allocations_per_frame", "write_once_ms", "preset", "process_cpu_percent", "frames_missed", "seconds", "screen_size", "pacing", "unit", "physics_ms", "phase", "scroll_speed", "pixels_per_frame", "primitive", "mechanisms"]

    private static func checkResult(_ row: [String: Any], at path: String, _ fail: (String) -> Void) {
        expectKeys(row, required: requiredKeys, optional: additions, at: path, fail)
        if !["cpu", "gl"].contains(row["backend"] as? String ?? "") { fail("\(path).backend is not cpu or gl") }
        if (integer(row["cells"]) ?? 0) < 1 { fail("\(path).cells is not a whole number >= 1") }
        if (integer(row["frames"]) ?? 0) < 1 { fail("\(path).frames is not a whole number >= 1") }
        checkPair(row["cell_size"], at: "\(path).cell_size", fail)
        for key in statsKeys { checkStats(row[key], at: "\(path).\(key)", fail) }
        for key in nullableStatsKeys where !(row[key] is NSNull) { checkStats(row[key], at: "\(path).\(key)", fail) }
        if (number(row["fps"]) ?? 0) <= 0 { fail("\(path).fps is not a number > 0") }
        if (integer(row["upload_bytes_per_frame"]) ?? -1) < 0 { fail("\(path).upload_bytes_per_frame is not a whole number >= 0") }
        if (number(row["allocations_per_frame"]) ?? -1) < 0 { fail("\(path).allocations_per_frame is not a number >= 0") }
        if (number(row["peak_rss_mb"]) ?? 0) <= 0 { fail("\(path).peak_rss_mb is not a number > 0") }
        if let v = row["write_once_ms"], (number(v) ?? -1) < 0 { fail("\(path).write_once_ms is not a number >= 0") }
        if let v = row["driver_allocations_per_frame"], (number(v) ?? -1) < 0 { fail("\(path).driver_allocations_per_frame is not a number >= 0") }
        if let v = row["preset"], !(v is String) { fail("\(path).preset is not a string") }
        if let v = row["process_cpu_percent"], (number(v) ?? -1) < 0 { fail("\(path).process_cpu_percent is not a number >= 0") }
        if let v = row["frames_missed"], (integer(v) ?? -1) < 0 { fail("\(path).frames_missed is not a whole number >= 0") }
        if let v = row["seconds"], (number(v) ?? 0) <= 0 { fail("\(path).seconds is not a number > 0") }
        if let v = row["screen_size"] { checkPair(v, at: "\(path).screen_size", fail) }
        if let v = row["pacing"], !["vsync", "sleep"].contains(v as? String ?? "") { fail("\(path).pacing is not \"vsync\" or \"sleep\"") }
        if let v = row["unit"], !["dots", "panels", "crates", "rows"].contains(v as? String ?? "") { fail("\(path).unit is not \"dots\", \"panels\", \"crates\" or \"rows\"") }
        if let v = row["phase"], !["idle", "scrolling", "idle again"].contains(v as? String ?? "") { fail("\(path).phase is not \"idle\", \"scrolling\" or \"idle again\"") }
        if let v = row["pixels_per_frame"] { checkPixels(v, at: "\(path).pixels_per_frame", fail) }
        if let v = row["mechanisms"] {
            guard let counts = v as? [String: Any], !counts.isEmpty, counts.values.allSatisfy({ (integer($0) ?? 0) >= 1 }) else {
                return fail("\(path).mechanisms is not an object of whole numbers >= 1")
            }
        }
    }

    /// A counted frame: whole numbers >= 0, the blended stores among the written ones.
    static func checkPixels(_ value: Any, at path: String, _ fail: (String) -> Void) {
        guard let pixels = value as? [String: Any] else { return fail("\(path) is not an object") }
        let keys = ["cpu_rasterized", "written", "blended", "offscreen", "updated", "most_blended_layers"]
        expectKeys(pixels, required: keys, optional: [], at: path, fail)
        for key in keys where (integer(pixels[key]) ?? -1) < 0 { fail("\(path).\(key) is not a whole number >= 0") }
        if let written = integer(pixels["written"]), let blended = integer(pixels["blended"]), blended > written {
            fail("\(path): more blended (\(blended)) than written (\(written))")
        }
    }

    private static func checkStats(_ value: Any?, at path: String, _ fail: (String) -> Void) {
        guard let stats = value as? [String: Any] else { return fail("\(path) is not a {median, p95} object") }
        expectKeys(stats, required: ["median", "p95"], optional: [], at: path, fail)
        guard let median = number(stats["median"]), let p95 = number(stats["p95"]) else {
            return fail("\(path).median and .p95 are not numbers")
        }
        if median < 0 || p95 < median { fail("\(path): expected 0 <= median <= p95, got \(median), \(p95)") }
    }

    private static func checkPair(_ value: Any?, at path: String, _ fail: (String) -> Void) {
        guard let pair = value as? [Any], pair.count == 2, pair.allSatisfy({ (integer($0) ?? 0) >= 1 }) else {
            return fail("\(path) is not [width, height] in whole pixels")
        }
    }

    private static func expectKeys(_ object: [String: Any], required: [String], optional: [String],
                                   at path: String, _ fail: (String) -> Void) {
        for key in required where object[key] == nil { fail("\(path): missing \"\(key)\"") }
        for key in object.keys where !required.contains(key) && !optional.contains(key) {
            fail("\(path): undocumented key \"\(key)\"")
        }
    }

    /// A JSON number. (JSONSerialization gives booleans as NSNumber too;
    /// the schema has none, so none is expected here.)
    static func number(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue
    }

    static func integer(_ value: Any?) -> Int? {
        guard let d = number(value), d == d.rounded(), abs(d) < 1e15 else { return nil }
        return Int(d)
    }
}
