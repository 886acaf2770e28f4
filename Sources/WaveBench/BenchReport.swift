import Foundation
import WaveCore

/// The benchmark's JSON document (version 1). Tools read it: keep it stable.
///
///     {"version": 1,
///      "renderer": "<GL_RENDERER, or none>",
///      "machine": {"cpus": N, "os": "..."},
///      "results": [{
///        "backend": "cpu" | "gl", "cells": 100, "cell_size": [320, 80], "frames": 600,
///        "cpu_ms": {"median": x, "p95": y},          the strategy's own thread CPU time
///        "process_cpu_ms": {...},                    all threads (llvmpipe's included)
///        "gpu_ms": {...} | null,                     GL_TIME_ELAPSED; null if none arrived
///        "wall_ms": {...},                           the whole frame, glFinish included
///        "raster_ms": {...} | null,                  CPU strategy only
///        "upload_ms": {...} | null,                  CPU strategy with GL only
///        "fps": x,                                   1000 / median wall_ms (achievable)
///        "upload_bytes_per_frame": n,
///        "allocations_per_frame": n,                 heap allocations by the project's code / frame
///        "peak_rss_mb": x}]}                         the process's peak so far
///
/// Every key above is always present; a figure that was not measured is an
/// explicit null. Additions, present only where they apply (readers that
/// ignore unknown keys are unaffected):
/// - `driver_allocations_per_frame`: allocations made on the measuring
///   thread inside other libraries during the strategy's work: the GL
///   driver's (Mesa's llvmpipe allocates in glTexSubImage and per
///   draw). Not the project's to remove, so reported apart.
/// - `write_once_ms` (CPU rows): median time to fill the frame buffer once
///   with a constant, the floor any redraw pays.
/// - `preset`, `process_cpu_percent`, `frames_missed`, `seconds`,
///   `screen_size`, `pacing` ("vsync" or "sleep"), `phase` ("idle",
///   "scrolling", "idle again"), `scroll_speed` (pixels a second while
///   scrolling) (rows of `--preset table`): there `frames`
///   counts the frames drawn in the phase, `fps` the frames drawn per second
///   of it, `cells` the table's reused cells and `cell_size` the screen
///   width and the row height.
/// - `table_floor` (root, `--preset table`): copying the frame once a frame,
///   paced the same way (`process_cpu_percent`, `copy_ms`); `raster` (root,
///   `--preset raster`): see `RasterReport`.
/// - `unit` (rows of `--scene dots` and `--scene voice` sweeps): what `cells`
///   counts there, "dots" or "panels"; for dots `cell_size` is the whole
///   scene's size (rows of dots, each tall enough for the largest swing).
/// - `physics_ms` (rows of a scene with a simulation, the crates): thread CPU a
///   measured frame spent stepping it, part of `cpu_ms`.
/// - `pixels_per_frame` (rows of the sweeps and the table and waveform
///   presets): what the strategy did to the pixels of one frame, counted by
///   the strategy itself on a frame drawn after the timed ones, at the last
///   measured time (see `PixelsPerFrame`).
package struct BenchReport: Codable, Equatable {
    package var version = 2
    package var renderer: String
    package var machine: Machine
    package var results: [BenchResult]
    /// The waves version and the commit it was built from ("unknown" outside an install).
    package var wavesVersion = "unknown"
    package var commit = "unknown"
    /// When the run ended, ISO 8601 (UTC).
    package var date = BenchReport.now()
    /// "headless" or "window".
    package var mode = "headless"
    /// Unmeasured frames before each row's measured ones.
    package var warmup = 0
    /// True when Ctrl-C stopped the run: the results are the rows finished before it.
    package var interrupted = false
    /// `--preset waveform`'s figures (absent otherwise).
    package var waveform: WaveformReport?
    /// `--preset pacing`'s figures (absent otherwise).
    package var pacing: PacingReport?
    /// `--preset raster`'s figures (absent otherwise).
    package var raster: RasterReport?
    /// `--preset pacing --scene ball`'s figures (absent otherwise).
    package var ball: BallReport?
    /// `--preset primitives`'s figures (absent otherwise).
    package var primitives: PrimitivesReport?
    /// `waves bench lottie`: each file's figures beside the peers', and the verdicts.
    package var lottie: LottieReport?
    /// `--preset table`: the floor, copying the frame once a frame paced the same way (absent otherwise).
    package var tableFloor: TableFloor?

    package init(renderer: String, machine: Machine = .current, results: [BenchResult]) {
        self.renderer = renderer
        self.machine = machine
        self.results = results
    }

    enum CodingKeys: String, CodingKey {
        case version, renderer, machine, results, waveform, pacing, raster, ball, primitives, lottie, commit, date, mode, warmup, interrupted
        case tableFloor = "table_floor"
        case wavesVersion = "waves_version"
    }

    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }

    /// Pretty-printed, keys sorted (the encoder keeps no other order stable).
    package func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }
}

package struct Machine: Codable, Equatable {
    package var cpus: Int
    package var os: String
    /// /proc/cpuinfo's model name ("unknown" where there is none).
    package var cpuModel: String

    package init(cpus: Int, os: String, cpuModel: String = Machine.cpuModelName()) {
        self.cpus = cpus
        self.os = os
        self.cpuModel = cpuModel
    }

    enum CodingKeys: String, CodingKey {
        case cpus, os
        case cpuModel = "cpu_model"
    }

    package static func cpuModelName() -> String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
              let value = line.split(separator: ":", maxSplits: 1).last else { return "unknown" }
        return value.trimmingCharacters(in: .whitespaces)
    }

    /// Online processors, and the distribution (os-release) with the kernel (uname).
    package static var current: Machine {
        Machine(cpus: sysconf(Int32(_SC_NPROCESSORS_ONLN)), os: osDescription())
    }

    static func osDescription() -> String {
        var names = utsname()
        uname(&names)
        func field<T>(_ value: inout T) -> String {
            withUnsafeBytes(of: &value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let kernel = field(&names.sysname) + " " + field(&names.release)
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        for line in release.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
            let name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return "\(name), \(kernel)"
        }
        return kernel
    }
}

/// One (backend, cells) measurement. Times in milliseconds.
package struct BenchResult: Codable, Equatable {
    package var backend: String
    package var cells: Int
    package var cellSize: [Int]
    package var frames: Int
    package var cpuMs: Stats
    package var processCpuMs: Stats
    package var gpuMs: Stats?
    package var wallMs: Stats
    package var rasterMs: Stats?
    package var uploadMs: Stats?
    package var fps: Double
    package var uploadBytesPerFrame: Int
    package var allocationsPerFrame: Double
    package var peakRssMb: Double
    // Additions (see BenchReport).
    package var driverAllocationsPerFrame: Double?
    package var writeOnceMs: Double?
    package var preset: String?
    package var processCpuPercent: Double?
    package var framesMissed: Int?
    package var seconds: Double?
    package var screenSize: [Int]?
    package var pacing: String?
    /// The table preset's phase: "idle", "scrolling" or "idle again".
    package var phase: String?
    /// The table preset's scrolling speed, pixels a second.
    package var scrollSpeed: Double?
    /// What the count counts when it is not cells ("dots", "panels").
    package var unit: String?
    /// A scene with a simulation (the crates): thread CPU a measured frame spent stepping it, ms (part of `cpu_ms`).
    package var physicsMs: Double?
    /// One frame's pixels as the strategy counted them.
    package var pixelsPerFrame: PixelsPerFrame?
    /// The primitives preset's primitive ("box", "dynamic path").
    package var primitive: String?
    /// The last measured frame's items by the mechanism that drew them
    /// (`Renderer.explain`: "clip copy": 100, ...; the CPU's "CPU redraw").
    package var mechanisms: [String: Int]?

    package init(backend: String, cells: Int, cellSize: [Int], frames: Int, cpuMs: Stats, processCpuMs: Stats,
                gpuMs: Stats?, wallMs: Stats, rasterMs: Stats?, uploadMs: Stats?, fps: Double,
                uploadBytesPerFrame: Int, allocationsPerFrame: Double, peakRssMb: Double) {
        self.backend = backend
        self.cells = cells
        self.cellSize = cellSize
        self.frames = frames
        self.cpuMs = cpuMs
        self.processCpuMs = processCpuMs
        self.gpuMs = gpuMs
        self.wallMs = wallMs
        self.rasterMs = rasterMs
        self.uploadMs = uploadMs
        self.fps = fps
        self.uploadBytesPerFrame = uploadBytesPerFrame
        self.allocationsPerFrame = allocationsPerFrame
        self.peakRssMb = peakRssMb
    }

    enum CodingKeys: String, CodingKey {
        case backend, cells, frames, fps, preset, seconds, pacing, unit, phase, primitive, mechanisms
        case cellSize = "cell_size"
        case cpuMs = "cpu_ms"
        case processCpuMs = "process_cpu_ms"
        case gpuMs = "gpu_ms"
        case wallMs = "wall_ms"
        case rasterMs = "raster_ms"
        case uploadMs = "upload_ms"
        case uploadBytesPerFrame = "upload_bytes_per_frame"
        case allocationsPerFrame = "allocations_per_frame"
        case driverAllocationsPerFrame = "driver_allocations_per_frame"
        case peakRssMb = "peak_rss_mb"
        case writeOnceMs = "write_once_ms"
        case processCpuPercent = "process_cpu_percent"
        case framesMissed = "frames_missed"
        case screenSize = "screen_size"
        case physicsMs = "physics_ms"
        case scrollSpeed = "scroll_speed"
        case pixelsPerFrame = "pixels_per_frame"
    }

    /// The schema's figures always appear, unmeasured ones as null (the
    /// synthesised encoder would leave them out); additions only when set.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(backend, forKey: .backend)
        try c.encode(cells, forKey: .cells)
        try c.encode(cellSize, forKey: .cellSize)
        try c.encode(frames, forKey: .frames)
        try c.encode(cpuMs, forKey: .cpuMs)
        try c.encode(processCpuMs, forKey: .processCpuMs)
        try encodeOrNull(gpuMs, .gpuMs, in: &c)
        try c.encode(wallMs, forKey: .wallMs)
        try encodeOrNull(rasterMs, .rasterMs, in: &c)
        try encodeOrNull(uploadMs, .uploadMs, in: &c)
        try c.encode(fps, forKey: .fps)
        try c.encode(uploadBytesPerFrame, forKey: .uploadBytesPerFrame)
        try c.encode(allocationsPerFrame, forKey: .allocationsPerFrame)
        try c.encode(peakRssMb, forKey: .peakRssMb)
        try c.encodeIfPresent(driverAllocationsPerFrame, forKey: .driverAllocationsPerFrame)
        try c.encodeIfPresent(writeOnceMs, forKey: .writeOnceMs)
        try c.encodeIfPresent(preset, forKey: .preset)
        try c.encodeIfPresent(processCpuPercent, forKey: .processCpuPercent)
        try c.encodeIfPresent(framesMissed, forKey: .framesMissed)
        try c.encodeIfPresent(seconds, forKey: .seconds)
        try c.encodeIfPresent(screenSize, forKey: .screenSize)
        try c.encodeIfPresent(pacing, forKey: .pacing)
        try c.encodeIfPresent(phase, forKey: .phase)
        try c.encodeIfPresent(scrollSpeed, forKey: .scrollSpeed)
        try c.encodeIfPresent(unit, forKey: .unit)
        try c.encodeIfPresent(physicsMs, forKey: .physicsMs)
        try c.encodeIfPresent(pixelsPerFrame, forKey: .pixelsPerFrame)
        try c.encodeIfPresent(primitive, forKey: .primitive)
        try c.encodeIfPresent(mechanisms, forKey: .mechanisms)
    }

    private func encodeOrNull(_ value: Stats?, _ key: CodingKeys,
                              in c: inout KeyedEncodingContainer<CodingKeys>) throws {
        if let value { try c.encode(value, forKey: key) } else { try c.encodeNil(forKey: key) }
    }
}

/// One frame's pixels as its strategy counted them (`PixelCounts`): the
/// tuning chapter's overlays as numbers.
package struct PixelsPerFrame: Codable, Equatable {
    /// Pixels whose coverage or colour the CPU computed (rasteriser spans,
    /// blurs, pictures sampled or painted again), every pass counted.
    package var cpuRasterized: Int
    /// Stores into the frame: clears, copies, paint and fragments.
    package var written: Int
    /// The stores that composited over the pixel (on GL, every fragment of a blended draw).
    package var blended: Int
    /// Pixels stored into masks, shadows and pictures drawn for this frame.
    package var offscreen: Int
    /// Pixels of the frame painted in software this frame, each once (the updated-regions overlay).
    package var updated: Int
    /// The most writes blended at one pixel.
    package var mostBlendedLayers: Int

    package init(counting counts: PixelCounts) {
        cpuRasterized = counts.totals.rasterized
        written = counts.totals.written
        blended = counts.totals.blended
        offscreen = counts.totals.offscreen
        updated = counts.updatedPixels
        mostBlendedLayers = counts.mostBlendedLayers
    }

    enum CodingKeys: String, CodingKey {
        case written, blended, offscreen, updated
        case cpuRasterized = "cpu_rasterized"
        case mostBlendedLayers = "most_blended_layers"
    }
}
