import Foundation
import WaveCore

/// `--preset raster`: the CPU strategy's frame (clear, outline rebuild,
/// rasterise, paint) beside cairo's (and, pointed at a build, Blend2D's)
/// fill of the same polygon and the floor
/// under both, writing the frame once, at the sizes a UI meets and on a
/// steep wave; and, where a GL context can be made, Waves' draw again as the
/// CPU strategy runs beside one (each frame copied into a texture, or drawn
/// in memory the GPU reads in place), to show what a GL context costs the
/// draw. Thread CPU time, in interleaved rounds: each round times a batch of
/// frames of each in turn (the order rotating, two untimed frames first so
/// that each starts with its own frame in the caches), so a noisy neighbour
/// slows all alike; the figures are medians over rounds.
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
    static let batchSeconds = 0.01
    /// Frames drawn untimed before each batch.
    static let warmFrames = 2
    static let minimumRounds = 11

    /// Measures every case for about `seconds` each.
    /// `blend2d`: the folder of a native Blend2D build (its lib/libblend2d.so), raced beside cairo; nil: none.
    /// `copying`, `shared`: where a GL context exists, Waves' frame is also timed as the CPU strategy runs
    /// there, each frame handed to the GPU after it is drawn (the draw timed apart): copied into a texture,
    /// and drawn into memory the GPU reads in place (`SharedFramePresenter`); nil: not measured.
    package static func run(cases: [Case] = cases, seconds: Double, blend2d: String? = nil,
                           copying: FrameUploader? = nil, shared: FrameUploader? = nil,
                           makeScene: (Case) throws -> Scene,
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
            report.rows.append(try measure(item, seconds: seconds, scene: try makeScene(item), blend2d: blend2d,
                                           copying: copying, shared: shared))
        }
        progress?(BenchProgress(done: cases.count, total: cases.count, label: "raster preset"))
        report.interrupted = isInterrupted()
        return report
    }

    static func measure(_ item: Case, seconds: Double, scene: Scene, blend2d: String? = nil,
                        copying: FrameUploader? = nil, shared: FrameUploader? = nil) throws -> RasterRow {
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
        // Each worker writes its own memory, so none finds another's frame in the caches.
        let floorPixmap = Pixmap(width: scene.width, height: scene.height), memory = floorPixmap.memory
        let floor: (Int) -> Void = { n in
            for i in 0..<n { fillPixels(memory.baseAddress!, with: 0xFF10_182A &+ UInt32(truncatingIfNeeded: i), count: memory.count) }
        }
        // Ours again as the CPU strategy runs beside a GL context: each frame
        // drawn, then handed to the GPU (copied, or drawn where the GPU reads it);
        // and, to compare them with, drawn the same way with no hand-over. These
        // return their draws' thread CPU, timed frame by frame (their batch times
        // hold the hand-overs, and the clock's cost is the same in all three).
        func drawing(handedTo uploader: FrameUploader?) throws -> (Int) -> Double {
            try uploader?.prepare(width: scene.width, height: scene.height)
            let pixmap = Pixmap(width: scene.width, height: scene.height)
            return { n in
                var drawing = 0.0
                for _ in 0..<n {
                    let into = uploader?.sharedPixmap() ?? pixmap
                    let t0 = Clocks.threadCPU()
                    try? renderer.draw(time: Double(frame) * frameInterval, into: into)
                    drawing += Clocks.threadCPU() - t0
                    uploader?.upload(into)
                    frame += 1
                }
                return drawing
            }
        }
        let handedOver: [((Int) -> Double)?] = copying == nil && shared == nil ? []
            : [try drawing(handedTo: nil), try copying.map { try drawing(handedTo: $0) }, try shared.map { try drawing(handedTo: $0) }]
        let peers: [((Int) -> Void)?] = [ours, peer(cairo), peer(blend), floor]
        // The hand-over workers follow the others: worker `first + k` is `handedOver[k]`.
        let first = peers.count
        let workers = peers + handedOver.map { worker in worker.map { work in { _ = work($0) } } }

        // Warm up, then size the batches from our own frame time.
        let warm = Clocks.threadCPU()
        ours(10)
        let perFrame = max(1e-7, (Clocks.threadCPU() - warm) / 10)
        for work in workers.dropFirst() { work?(10) }
        let batch = max(4, min(5000, Int(batchSeconds / perFrame)))

        var samples = [[Double]](repeating: [], count: workers.count)
        var draws = [[Double]](repeating: [], count: handedOver.count)
        let start = Clocks.wall()
        var round = 0
        while round < minimumRounds || Clocks.wall() - start < seconds {
            for k in workers.indices {
                let which = (round + k) % workers.count
                guard let work = workers[which] else { continue }
                // Two frames untimed first: each worker's memory is its own, and whichever ran
                // last left its own in the caches; the batch times the frames that follow.
                work(warmFrames)
                let t0 = Clocks.threadCPU()
                if which >= first, let drawing = handedOver[which - first] {
                    draws[which - first].append(drawing(batch) / Double(batch) * 1e6)
                } else {
                    work(batch)
                }
                samples[which].append((Clocks.threadCPU() - t0) / Double(batch) * 1e6)
            }
            round += 1
        }

        var row = RasterRow(frame: item.label, width: scene.width, height: scene.height, amplitude: item.amplitude,
                            cycles: item.cycles, rounds: round, framesPerBatch: batch,
                            wavesUs: Stats(samples[0])?.median ?? 0, memsetUs: Stats(samples[3])?.median ?? 0)
        if !handedOver.isEmpty {
            row.wavesDrawnAloneUs = Stats(draws[0])?.median
            if let drawn = Stats(draws[1])?.median, let whole = Stats(samples[first + 1])?.median {
                row.wavesUploadingUs = drawn
                row.uploadUs = whole - drawn
            }
            if let drawn = Stats(draws[2])?.median, let whole = Stats(samples[first + 2])?.median {
                row.wavesSharedUs = drawn
                row.sharedHandOverUs = whole - drawn
            }
        }
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
    /// GL_RENDERER of the context the frames were uploaded to (`waves_uploading_us`); null without one.
    package var renderer: String?
    package var rows: [RasterRow] = []
    package var interrupted = false
    package var method = "thread CPU time per frame, medians over interleaved rounds of batches (Waves, cairo, Blend2D, memset in rotating order); scene time 1/60 s a frame"

    enum CodingKeys: String, CodingKey {
        case rows, method, interrupted
        case cairoVersion = "cairo_version"
        case cairoUnavailable = "cairo_unavailable"
        case blend2dVersion = "blend2d_version"
        case renderer
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
    /// Waves' draw timed frame by frame with no hand-over, as the two below are (their baseline); null without GL.
    package var wavesDrawnAloneUs: Double?
    /// Waves' draw again, each frame then copied into a GL texture (a GL context present); null without one.
    package var wavesUploadingUs: Double?
    /// The copy that followed each of those frames (median batch time less the draws').
    package var uploadUs: Double?
    /// The draw's time with copies over without (`waves_drawn_alone_us`; 1: no penalty for a GL context).
    package var uploadingOverWaves: Double?
    /// Waves' draw again, into memory the GPU reads in place (nothing copied); null where the driver cannot share it.
    package var wavesSharedUs: Double?
    /// Handing each of those frames over (waiting on the GPU's fence; median batch time less the draws').
    package var sharedHandOverUs: Double?
    /// The shared frame's draw over the draw with no GL context.
    package var sharedOverWaves: Double?
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
        wavesUploadingUs = wavesUploadingUs.map { rounded($0, places: 3) }
        uploadUs = uploadUs.map { rounded($0, places: 3) }
        wavesDrawnAloneUs = wavesDrawnAloneUs.map { rounded($0, places: 3) }
        let alone = wavesDrawnAloneUs ?? wavesUs
        uploadingOverWaves = wavesUploadingUs.map { rounded($0 / alone, places: 2) }
        wavesSharedUs = wavesSharedUs.map { rounded($0, places: 3) }
        sharedHandOverUs = sharedHandOverUs.map { rounded($0, places: 3) }
        sharedOverWaves = wavesSharedUs.map { rounded($0 / alone, places: 2) }
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
        case wavesDrawnAloneUs = "waves_drawn_alone_us"
        case wavesUploadingUs = "waves_uploading_us"
        case uploadUs = "upload_us"
        case uploadingOverWaves = "uploading_over_waves"
        case wavesSharedUs = "waves_shared_us"
        case sharedHandOverUs = "shared_hand_over_us"
        case sharedOverWaves = "shared_over_waves"
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
        let blend = blend2dVersion != nil, gl = rows.contains { $0.wavesUploadingUs != nil }, shares = rows.contains { $0.wavesSharedUs != nil }
        let header = ["frame", "waves us"] + (gl ? ["alone: draw us", "copied: draw us", "copy us"] : []) + (shares ? ["shared: draw us"] : [])
            + ["cairo us"] + (blend ? ["blend2d us"] : [])
            + ["memset us"] + (gl ? ["copied/waves"] : []) + (shares ? ["shared/waves"] : []) + ["cairo/waves"]
            + (blend ? ["blend2d/waves"] : []) + ["waves/memset", "cairo differs (mean/max of 255)"] + (blend ? ["blend2d differs"] : [])
        func us(_ v: Double?) -> String { v.map { String(format: "%.1f", $0) } ?? "-" }
        func ratio(_ v: Double?) -> String { v.map { String(format: "%.2fx", $0) } ?? "-" }
        func differs(_ d: FrameDifference?) -> String { d.map { String(format: "%.3f / %d", $0.mean, $0.max) } ?? "-" }
        let rows = self.rows.map { r -> [String] in
            [r.frame, us(r.wavesUs)] + (gl ? [us(r.wavesDrawnAloneUs), us(r.wavesUploadingUs), us(r.uploadUs)] : [])
                + (shares ? [us(r.wavesSharedUs)] : [])
                + [us(r.cairoUs)] + (blend ? [us(r.blend2dUs)] : []) + [us(r.memsetUs)] + (gl ? [ratio(r.uploadingOverWaves)] : [])
                + (shares ? [ratio(r.sharedOverWaves)] : []) + [ratio(r.cairoOverWaves)]
                + (blend ? [ratio(r.blend2dOverWaves)] : []) + [ratio(r.wavesOverMemset), differs(r.cairoDifference)]
                + (blend ? [differs(r.blend2dDifference)] : [])
        }
        let peer = (cairoVersion.map { "cairo \($0) (libcairo.so.2, its default antialiasing)" } ?? "no cairo: \(cairoUnavailable ?? "not loaded")")
            + (blend2dVersion.map { ", Blend2D \($0) (one thread)" } ?? "")
            + (gl ? "; alone, copied, shared: Waves' draw timed frame by frame, with no hand-over, with every frame copied to, "
                + "or drawn in memory shared with, \(renderer ?? "a GL context")" : "")
        return "waves bench --preset raster: one anti-aliased sine fill per frame, \(peer); \(machine.cpuModel), \(machine.cpus) CPUs\n"
            + BenchReport.table(header: header, rows: rows)
            + "\(method)\n"
    }

    package var csv: String {
        var lines = ["frame,width,height,amplitude,cycles,rounds,frames_per_batch,waves_us,cairo_us,memset_us,cairo_over_waves,waves_over_memset,blend2d_us,blend2d_over_waves,waves_uploading_us,upload_us,waves_shared_us"]
        for r in rows {
            func field(_ v: Double?) -> String { v.map { "\($0)" } ?? "" }
            let fields: [String] = [BenchReport.csvField(r.frame), "\(r.width)", "\(r.height)", "\(r.amplitude)", "\(r.cycles)",
                                    "\(r.rounds)", "\(r.framesPerBatch)", "\(r.wavesUs)", field(r.cairoUs), "\(r.memsetUs)",
                                    field(r.cairoOverWaves), "\(r.wavesOverMemset)", field(r.blend2dUs), field(r.blend2dOverWaves),
                                    field(r.wavesUploadingUs), field(r.uploadUs), field(r.wavesSharedUs)]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
