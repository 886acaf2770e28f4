import Foundation
import WaveCore

/// `--preset raster`: the CPU strategy's frame (clear, outline rebuild,
/// rasterise, paint) beside cairo's (and, pointed at a build, Blend2D's)
/// fill of the same polygon and the floor
/// under both, writing the frame once, at the sizes a UI meets and on a
/// steep wave. Thread CPU time, in interleaved rounds: each round times a
/// batch of frames of each in turn (the order rotating), so a noisy
/// neighbour slows all three alike; the figures are medians over rounds.
package enum RasterPreset {
    package static let name = "raster"

    /// One measured frame: a single sine cell filling the frame.
    package struct Case: Equatable, Sendable {
        package var width: Int
        package var height: Int
        package var amplitude: Double
        package var cycles: Int

        package init(width: Int, height: Int, amplitude: Double = 0.125, cycles: Int = 1) {
            self.width = width
            self.height = height
            self.amplitude = amplitude
            self.cycles = cycles
        }

        package var label: String {
            "\(width)x\(height)" + (amplitude == 0.125 && cycles == 1 ? "" : " steep (amplitude \(amplitude), \(cycles) cycles)")
        }
    }

    /// The issue's sizes and its steep wave.
    package static let cases = [Case(width: 320, height: 80), Case(width: 800, height: 200),
                               Case(width: 1920, height: 1080), Case(width: 800, height: 200, amplitude: 0.45, cycles: 5)]

    /// Scene time advances 1/60 s a frame, so every frame has its own
    /// fractional offset (the same times for Waves and cairo).
    static let frameInterval = 1.0 / 60
    /// A batch lasts about this long (thread CPU), so the clock's own cost vanishes.
    static let batchSeconds = 0.002
    static let minimumRounds = 11

    /// Measures every case for about `seconds` each.
    /// `blend2d`: the folder of a native Blend2D build (its lib/libblend2d.so), raced beside cairo; nil: none.
    package static func run(cases: [Case] = cases, seconds: Double, blend2d: String? = nil, makeScene: (Case) throws -> Scene,
                           isInterrupted: () -> Bool = { false },
                           progress: ((BenchProgress) -> Void)? = nil) throws -> RasterReport {
        var report = RasterReport()
        switch CairoLibrary.shared {
        case let .success(cairo): report.cairoVersion = cairo.version
        case let .failure(error): report.cairoUnavailable = error.reason
        }
        if let blend2d {
            switch Blend2DLibrary.load(blend2d) {
            case let .success(library): report.blend2dVersion = library.version
            case let .failure(error): throw error
            }
        }
        for (index, item) in cases.enumerated() where !isInterrupted() {
            progress?(BenchProgress(done: index, total: cases.count, label: "raster preset: \(item.label)"))
            report.rows.append(try measure(item, seconds: seconds, scene: try makeScene(item), blend2d: blend2d))
        }
        progress?(BenchProgress(done: cases.count, total: cases.count, label: "raster preset"))
        report.interrupted = isInterrupted()
        return report
    }

    static func measure(_ item: Case, seconds: Double, scene: Scene, blend2d: String? = nil) throws -> RasterRow {
        let renderer = CPURenderer()
        try renderer.prepare(scene: scene)
        let pixmap = Pixmap(width: scene.width, height: scene.height)
        // The peers: cairo where it loads, Blend2D where a build was named.
        let cairo = try? PeerFrame(scene: scene) { try CairoCanvas(width: $0, height: $1) }
        let blend = try blend2d.flatMap { folder in try PeerFrame(scene: scene) { try Blend2DCanvas(library: folder, width: $0, height: $1) } }

        var frame = 0
        let ours: (Int) -> Void = { n in
            for _ in 0..<n {
                try? renderer.draw(time: Double(frame) * frameInterval, into: pixmap)
                frame += 1
            }
        }
        func peer(_ peer: PeerFrame?) -> ((Int) -> Void)? {
            guard let peer else { return nil }
            var frame = 0
            return { n in
                for _ in 0..<n {
                    peer.draw(time: Double(frame) * frameInterval)
                    frame += 1
                }
            }
        }
        let memory = pixmap.memory
        let floor: (Int) -> Void = { n in
            for i in 0..<n { fillPixels(memory.baseAddress!, with: 0xFF10_182A &+ UInt32(truncatingIfNeeded: i), count: memory.count) }
        }
        let workers: [((Int) -> Void)?] = [ours, peer(cairo), peer(blend), floor]

        // Warm up, then size the batches from our own frame time.
        let warm = Clocks.threadCPU()
        ours(10)
        let perFrame = max(1e-7, (Clocks.threadCPU() - warm) / 10)
        for work in workers.dropFirst() { work?(10) }
        let batch = max(4, min(5000, Int(batchSeconds / perFrame)))

        var samples = [[Double]](repeating: [], count: workers.count)
        let start = Clocks.wall()
        var round = 0
        while round < minimumRounds || Clocks.wall() - start < seconds {
            for k in workers.indices {
                let which = (round + k) % workers.count
                guard let work = workers[which] else { continue }
                let t0 = Clocks.threadCPU()
                work(batch)
                samples[which].append((Clocks.threadCPU() - t0) / Double(batch) * 1e6)
            }
            round += 1
        }

        var row = RasterRow(frame: item.label, width: scene.width, height: scene.height, amplitude: item.amplitude,
                            cycles: item.cycles, rounds: round, framesPerBatch: batch,
                            wavesUs: Stats(samples[0])?.median ?? 0, memsetUs: Stats(samples[3])?.median ?? 0)
        // The same frame from each, compared: they must be drawing the same thing.
        let time = 0.37
        try renderer.draw(time: time, into: pixmap)
        let ourFrame = try pixmap.readback()
        if let cairo, let us = Stats(samples[1])?.median {
            row.cairoUs = us
            cairo.draw(time: time)
            row.cairoDifference = FrameDifference(ourFrame, cairo.image())
        }
        if let blend, let us = Stats(samples[2])?.median {
            row.blend2dUs = us
            blend.draw(time: time)
            row.blend2dDifference = FrameDifference(ourFrame, blend.image())
        }
        row.round()
        return row
    }
}

/// `--preset raster`'s figures (JSON "raster"). Microseconds of thread CPU per frame, medians over rounds.
package struct RasterReport: Codable, Equatable {
    /// cairo's version, or null when it could not be loaded (then `cairo_unavailable` says why).
    package var cairoVersion: String?
    package var cairoUnavailable: String?
    /// Blend2D's version, where a build was named (`--blend2d`); null without one.
    package var blend2dVersion: String?
    package var rows: [RasterRow] = []
    package var interrupted = false
    package var method = "thread CPU time per frame, medians over interleaved rounds of batches (Waves, cairo, Blend2D, memset in rotating order); scene time 1/60 s a frame"

    enum CodingKeys: String, CodingKey {
        case rows, method, interrupted
        case cairoVersion = "cairo_version"
        case cairoUnavailable = "cairo_unavailable"
        case blend2dVersion = "blend2d_version"
    }
}

package struct RasterRow: Codable, Equatable {
    package var frame: String
    package var width: Int
    package var height: Int
    package var amplitude: Double
    package var cycles: Int
    package var rounds: Int
    package var framesPerBatch: Int
    /// Waves' CPU strategy: clear, outline rebuild, rasterise, paint.
    package var wavesUs: Double
    /// cairo: clear (paint), the same outline through cairo's path calls, fill.
    package var cairoUs: Double?
    /// Writing the frame once (wmemset): the floor under any redraw.
    package var memsetUs: Double
    /// cairo's time over ours (above 1: Waves is faster).
    package var cairoOverWaves: Double?
    /// Our time over the floor's.
    package var wavesOverMemset: Double
    /// How far cairo's frame is from ours, per channel (0...255): a check that both draw the same.
    package var cairoDifference: FrameDifference?
    /// Blend2D: clear (fill all), the same outline as a Blend2D path, fill; one thread.
    package var blend2dUs: Double?
    /// Blend2D's time over ours (above 1: Waves is faster).
    package var blend2dOverWaves: Double?
    /// How far Blend2D's frame is from ours, per channel (0...255).
    package var blend2dDifference: FrameDifference?

    init(frame: String, width: Int, height: Int, amplitude: Double, cycles: Int, rounds: Int, framesPerBatch: Int,
         wavesUs: Double, memsetUs: Double) {
        self.frame = frame
        self.width = width
        self.height = height
        self.amplitude = amplitude
        self.cycles = cycles
        self.rounds = rounds
        self.framesPerBatch = framesPerBatch
        self.wavesUs = wavesUs
        self.memsetUs = memsetUs
        wavesOverMemset = 0
    }

    /// Times to 0.001 us, then the ratios of the times as reported.
    mutating func round() {
        wavesUs = rounded(wavesUs, places: 3)
        memsetUs = rounded(memsetUs, places: 3)
        cairoUs = cairoUs.map { rounded($0, places: 3) }
        cairoOverWaves = cairoUs.map { rounded($0 / wavesUs, places: 2) }
        blend2dUs = blend2dUs.map { rounded($0, places: 3) }
        blend2dOverWaves = blend2dUs.map { rounded($0 / wavesUs, places: 2) }
        wavesOverMemset = rounded(wavesUs / max(memsetUs, 0.001), places: 2)
    }

    enum CodingKeys: String, CodingKey {
        case frame, width, height, amplitude, cycles, rounds
        case framesPerBatch = "frames_per_batch"
        case wavesUs = "waves_us"
        case cairoUs = "cairo_us"
        case memsetUs = "memset_us"
        case cairoOverWaves = "cairo_over_waves"
        case wavesOverMemset = "waves_over_memset"
        case cairoDifference = "cairo_difference"
        case blend2dUs = "blend2d_us"
        case blend2dOverWaves = "blend2d_over_waves"
        case blend2dDifference = "blend2d_difference"
    }
}

/// Per-channel difference of two images of one size: mean and largest, 0...255.
package struct FrameDifference: Codable, Equatable {
    package var mean: Double
    package var max: Int

    package init(_ a: RGBAImage, _ b: RGBAImage) {
        var total = 0, largest = 0
        let n = Swift.min(a.pixels.count, b.pixels.count)
        for i in 0..<n {
            let d = abs(Int(a.pixels[i]) - Int(b.pixels[i]))
            total += d
            largest = Swift.max(largest, d)
        }
        mean = rounded(Double(total) / Double(Swift.max(1, n)), places: 3)
        max = largest
    }
}

extension RasterReport {
    /// The terminal table: one line per frame size.
    package func table(machine: Machine) -> String {
        let blend = blend2dVersion != nil
        let header = ["frame", "waves us", "cairo us"] + (blend ? ["blend2d us"] : []) + ["memset us", "cairo/waves"]
            + (blend ? ["blend2d/waves"] : []) + ["waves/memset", "cairo differs (mean/max of 255)"] + (blend ? ["blend2d differs"] : [])
        func us(_ v: Double?) -> String { v.map { String(format: "%.1f", $0) } ?? "-" }
        func ratio(_ v: Double?) -> String { v.map { String(format: "%.2fx", $0) } ?? "-" }
        func differs(_ d: FrameDifference?) -> String { d.map { String(format: "%.3f / %d", $0.mean, $0.max) } ?? "-" }
        let rows = self.rows.map { r -> [String] in
            [r.frame, us(r.wavesUs), us(r.cairoUs)] + (blend ? [us(r.blend2dUs)] : []) + [us(r.memsetUs), ratio(r.cairoOverWaves)]
                + (blend ? [ratio(r.blend2dOverWaves)] : []) + [ratio(r.wavesOverMemset), differs(r.cairoDifference)]
                + (blend ? [differs(r.blend2dDifference)] : [])
        }
        let peer = (cairoVersion.map { "cairo \($0) (libcairo.so.2, its default antialiasing)" } ?? "no cairo: \(cairoUnavailable ?? "not loaded")")
            + (blend2dVersion.map { ", Blend2D \($0) (one thread)" } ?? "")
        return "waves bench --preset raster: one anti-aliased sine fill per frame, \(peer); \(machine.cpuModel), \(machine.cpus) CPUs\n"
            + BenchReport.table(header: header, rows: rows)
            + "\(method)\n"
    }

    package var csv: String {
        var lines = ["frame,width,height,amplitude,cycles,rounds,frames_per_batch,waves_us,cairo_us,memset_us,cairo_over_waves,waves_over_memset,blend2d_us,blend2d_over_waves"]
        for r in rows {
            lines.append([BenchReport.csvField(r.frame), "\(r.width)", "\(r.height)", "\(r.amplitude)", "\(r.cycles)", "\(r.rounds)",
                          "\(r.framesPerBatch)", "\(r.wavesUs)", r.cairoUs.map { "\($0)" } ?? "", "\(r.memsetUs)",
                          r.cairoOverWaves.map { "\($0)" } ?? "", "\(r.wavesOverMemset)",
                          r.blend2dUs.map { "\($0)" } ?? "", r.blend2dOverWaves.map { "\($0)" } ?? ""].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
