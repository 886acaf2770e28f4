import CMallocCounter
import Foundation
import WaveCore
import WaveEffects
import WaveLottie

/// `waves bench lottie --file F|DIR`: which strategy costs less for this
/// animation. Every frame of each file (frames 0 ..< op - ip, as rlottie and
/// ThorVG count them) drawn at one size by Waves' CPU strategy (its drawing
/// thread), Waves' GL strategy (its thread, the process, the GPU's time
/// where timer queries are), rlottie and ThorVG (each in a child process,
/// timed by its whole CPU: `LottiePeers.swift`), in rounds that take turns (one pass of
/// each, then again), so a machine's drift falls on all of them alike. Per
/// file a verdict: the strategy whose own thread costs less, by what factor,
/// and why (the layers the GL strategy keeps as pictures made once against
/// those it draws again every frame, from its plan).
package struct LottieReport: Codable, Equatable {
    /// One file's figures, ms a frame (median and p95 over every frame of every round).
    package struct Row: Codable, Equatable {
        package var file: String
        package var frames: Int
        package var frameRate: Double
        package var wavesCpuMs: Stats?
        package var wavesGlMs: Stats?
        package var wavesGlProcessMs: Stats?
        package var gpuMs: Stats?
        package var rlottieMs: Stats?
        package var thorvgMs: Stats?
        /// Why a figure is missing, by its key ("rlottie": "crashed on dna.json (signal 11, SIGSEGV)").
        package var notMeasured: [String: String] = [:]
        /// The GL plan's items at the middle frame: all of them, those drawn from a picture made once, those drawn again every frame.
        package var layers = 0
        package var cachedLayers = 0
        package var redrawnLayers = 0
        /// Pixels the GL strategy rasterised on the CPU in a frame after the first (pictures painted again).
        package var cpuRasterizedPixelsPerFrame: Int?
        /// Heap allocations per frame by the project's code, per strategy ("cpu", "gl").
        package var allocationsPerFrame: [String: Double] = [:]
        package var peakRssMb: Double?
        /// The heap a run of the CPU strategy needs (nil where it was not measured).
        package var memory: Memory?
        package var verdict: Verdict?

        enum CodingKeys: String, CodingKey {
            case file, frames, layers, verdict, memory
            case frameRate = "frame_rate", wavesCpuMs = "waves_cpu_ms", wavesGlMs = "waves_gl_ms", wavesGlProcessMs = "waves_gl_process_ms"
            case gpuMs = "gpu_ms", rlottieMs = "rlottie_ms", thorvgMs = "thorvg_ms", notMeasured = "not_measured"
            case cachedLayers = "cached_layers", redrawnLayers = "redrawn_layers", cpuRasterizedPixelsPerFrame = "cpu_rasterized_pixels_per_frame"
            case allocationsPerFrame = "allocations_per_frame", peakRssMb = "peak_rss_mb"
        }

        package init(file: String, frames: Int, frameRate: Double) {
            self.file = file
            self.frames = frames
            self.frameRate = frameRate
        }
    }

    /// A CPU run's heap, in MiB, from the process's live-heap gauge (every
    /// block's usable size; `waves_heap_live`): what the importer's tree
    /// keeps (the animation and its scene), the most the import held while
    /// reading, the most the tree's compiled form took (the evaluator and
    /// its presentation list, made once a scene), and the most a CPU
    /// renderer added over the tree while it was made ready (that compiled
    /// form, its rasteriser, masks and frame) and drew its first frames
    /// (after those it allocates nothing). A run's peak is the larger of
    /// the import's and the tree's plus the run's; item 3's target is that
    /// peak at most the tree plus three frames of 4 bytes a pixel.
    package struct Memory: Codable, Equatable {
        package var treeMb: Double
        package var importPeakMb: Double
        package var compiledMb: Double
        package var cpuRunMb: Double
        package var frameMb: Double

        enum CodingKeys: String, CodingKey {
            case treeMb = "tree_mb", importPeakMb = "import_peak_mb", compiledMb = "compiled_mb", cpuRunMb = "cpu_run_mb", frameMb = "frame_mb"
        }

        package init(treeMb: Double, importPeakMb: Double, compiledMb: Double, cpuRunMb: Double, frameMb: Double) {
            (self.treeMb, self.importPeakMb, self.compiledMb, self.cpuRunMb, self.frameMb) = (treeMb, importPeakMb, compiledMb, cpuRunMb, frameMb)
        }

        /// The run's peak over the tree, in frames.
        package var framesOverTree: Double {
            frameMb > 0 ? (max(importPeakMb, treeMb + cpuRunMb) - treeMb) / frameMb : 0
        }
        package var withinTarget: Bool { framesOverTree <= 3 }
    }

    /// Which strategy's own thread costs less here, by what factor (the
    /// other's median over this one's), and the reason.
    package struct Verdict: Codable, Equatable {
        package var strategy: String
        package var factor: Double
        package var reason: String
    }

    /// Medians over the files of each figure's median (files where it was measured).
    package struct Medians: Codable, Equatable {
        package var wavesCpuMs: Double?
        package var wavesGlMs: Double?
        package var wavesGlProcessMs: Double?
        package var gpuMs: Double?
        package var rlottieMs: Double?
        package var thorvgMs: Double?

        enum CodingKeys: String, CodingKey {
            case wavesCpuMs = "waves_cpu_ms", wavesGlMs = "waves_gl_ms", wavesGlProcessMs = "waves_gl_process_ms"
            case gpuMs = "gpu_ms", rlottieMs = "rlottie_ms", thorvgMs = "thorvg_ms"
        }
    }

    /// Item 3 of the issue, as measured: Waves' CPU strategy against the
    /// faster peer (per file, then the median file and the worst), and the
    /// GL thread against the CPU strategy's.
    package struct Targets: Codable, Equatable {
        package var cpuOverFasterPeerMedian: Double?
        package var cpuOverFasterPeerWorst: Double?
        package var worstFile: String?
        package var glOverCpuMedian: Double?
        /// Files whose run's heap peak is at most the tree plus 3 frames, of those measured; the worst, in frames over the tree.
        package var memoryWithin: Int?
        package var memoryMeasured: Int?
        package var memoryWorstFrames: Double?
        package var memoryWorstFile: String?

        enum CodingKeys: String, CodingKey {
            case cpuOverFasterPeerMedian = "cpu_over_faster_peer_median", cpuOverFasterPeerWorst = "cpu_over_faster_peer_worst"
            case worstFile = "worst_file", glOverCpuMedian = "gl_over_cpu_median"
            case memoryWithin = "memory_within", memoryMeasured = "memory_measured"
            case memoryWorstFrames = "memory_worst_frames", memoryWorstFile = "memory_worst_file"
        }
    }

    package var size: [Int]
    package var rounds: Int
    package var rows: [Row] = []
    package var medians = Medians()
    package var targets = Targets()
    /// Peers not measured at all, one line each.
    package var peerNotices: [String] = []
    package var interrupted = false

    enum CodingKeys: String, CodingKey {
        case size, rounds, rows, medians, targets, interrupted
        case peerNotices = "peer_notices"
    }

    package init(size: [Int], rounds: Int) {
        self.size = size
        self.rounds = rounds
    }
}

extension LottieReport.Verdict {
    /// The cheaper of the two strategies by their threads' medians (nil where
    /// either is missing or zero), with the plan's counts as the reason.
    package static func between(cpuMs: Double?, glMs: Double?, layers: Int, cached: Int, redrawn: Int) -> Self? {
        guard let cpu = cpuMs, let gl = glMs, cpu > 0, gl > 0 else { return nil }
        let plural = layers == 1 ? "layer" : "layers"
        if gl <= cpu {
            let reason = cached > 0
                ? "\(cached) of \(layers) \(plural) cached (rasterised once, moved on the GPU), \(redrawn) redrawn every frame"
                : "\(redrawn) of \(layers) \(plural) redrawn every frame, their coverage computed on the GPU from outlines the CPU makes"
            return Self(strategy: "gl", factor: rounded(cpu / gl, places: 2), reason: reason)
        }
        let reason = redrawn > 0
            ? "\(redrawn) of \(layers) \(plural) redrawn every frame (animated paths, trims, morphs): the GL strategy makes their outlines too, and pays a draw per item"
            : "\(layers) \(plural), a draw each: at this size the GL thread's work per item costs more than redrawing them"
        return Self(strategy: "cpu", factor: rounded(gl / cpu, places: 2), reason: reason)
    }
}

extension LottieReport {
    /// The medians and targets from the rows.
    package mutating func summarise() {
        func median(_ values: [Double]) -> Double? { Stats(values).map { rounded($0.median, places: 5) } }
        medians = Medians(wavesCpuMs: median(rows.compactMap { $0.wavesCpuMs?.median }),
                          wavesGlMs: median(rows.compactMap { $0.wavesGlMs?.median }),
                          wavesGlProcessMs: median(rows.compactMap { $0.wavesGlProcessMs?.median }),
                          gpuMs: median(rows.compactMap { $0.gpuMs?.median }),
                          rlottieMs: median(rows.compactMap { $0.rlottieMs?.median }),
                          thorvgMs: median(rows.compactMap { $0.thorvgMs?.median }))
        let overPeer = rows.compactMap { row -> (String, Double)? in
            guard let cpu = row.wavesCpuMs?.median,
                  let peer = [row.rlottieMs?.median, row.thorvgMs?.median].compactMap({ $0 }).min(), peer > 0 else { return nil }
            return (row.file, cpu / peer)
        }
        let worst = overPeer.max { $0.1 < $1.1 }
        targets = Targets(cpuOverFasterPeerMedian: median(overPeer.map(\.1)), cpuOverFasterPeerWorst: worst.map { rounded($0.1, places: 3) },
                          worstFile: worst?.0,
                          glOverCpuMedian: median(rows.compactMap { row in
                              guard let gl = row.wavesGlMs?.median, let cpu = row.wavesCpuMs?.median, cpu > 0 else { return nil }
                              return gl / cpu
                          }))
        let memories = rows.compactMap { row in row.memory.map { (row.file, $0) } }
        if let heaviest = memories.max(by: { $0.1.framesOverTree < $1.1.framesOverTree }) {
            targets.memoryWithin = memories.filter { $0.1.withinTarget }.count
            targets.memoryMeasured = memories.count
            targets.memoryWorstFrames = rounded(heaviest.1.framesOverTree, places: 2)
            targets.memoryWorstFile = heaviest.0
        }
    }

    /// The table stdout shows: a row a file, the medians, the targets, what was not measured.
    package func table(renderer: String) -> String {
        func ms(_ s: Stats?) -> String { Format.milliseconds(s?.median) }
        func ms(_ v: Double?) -> String { Format.milliseconds(v) }
        func x(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "-" }
        var lines = ["waves bench lottie: \(rows.count) \(rows.count == 1 ? "file" : "files") at \(size[0])x\(size[1]), every frame, "
                     + "\(rounds) rounds taking turns; ms a frame (medians); GL_RENDERER: \(renderer)"]
        let header = ["file", "frames", "Waves CPU", "GL thread", "GL process", "GPU", "rlottie", "ThorVG", "cached", "verdict"]
        var cells: [[String]] = []
        for row in rows {
            let verdict = row.verdict.map { "\($0.strategy == "gl" ? "GL" : "CPU") \(x($0.factor))x less" } ?? "-"
            cells.append([row.file, "\(row.frames)", ms(row.wavesCpuMs), ms(row.wavesGlMs), ms(row.wavesGlProcessMs), ms(row.gpuMs),
                          ms(row.rlottieMs), ms(row.thorvgMs), "\(row.cachedLayers)/\(row.layers)", verdict])
        }
        if rows.count > 1 {
            cells.append(["median", "", ms(medians.wavesCpuMs), ms(medians.wavesGlMs), ms(medians.wavesGlProcessMs), ms(medians.gpuMs),
                          ms(medians.rlottieMs), ms(medians.thorvgMs), "", ""])
        }
        lines.append(BenchReport.table(header: header, rows: cells).dropLast().description)
        if let median = targets.cpuOverFasterPeerMedian {
            lines.append("Waves CPU / the faster peer: \(x(median))x on the median file (target: at most 1), "
                         + "\(x(targets.cpuOverFasterPeerWorst))x at worst (\(targets.worstFile ?? "-"); target: at most 1.5)")
        }
        if let gl = targets.glOverCpuMedian {
            lines.append("GL thread / CPU strategy: \(x(gl))x on the median file (target: at most 0.5)")
        }
        if let within = targets.memoryWithin, let measured = targets.memoryMeasured {
            lines.append("heap peak of a CPU run within the tree plus 3 frames: \(within) of \(measured) \(measured == 1 ? "file" : "files"); "
                         + "at most \(x(targets.memoryWorstFrames)) frames over the tree (\(targets.memoryWorstFile ?? "-"))")
        }
        for row in rows {
            if let verdict = row.verdict { lines.append("\(row.file): \(verdict.strategy == "gl" ? "GL" : "CPU") costs less, \(x(verdict.factor))x: \(verdict.reason)") }
            for (key, why) in row.notMeasured.sorted(by: { $0.key < $1.key }) { lines.append("\(row.file): \(key) not measured: \(why)") }
        }
        lines += peerNotices
        return lines.joined(separator: "\n") + "\n"
    }
}

extension BenchRunner {
    /// Every frame of each of `files` at `width` x `height`, `rounds` rounds
    /// taking turns; the peers from the Python environment `peers` (nil: not measured, said once).
    package func runLottie(files: [String], width: Int, height: Int, rounds: Int, peers peersFolder: String?,
                           progress: ((BenchProgress) -> Void)? = nil) throws -> BenchReport {
        var lottie = LottieReport(size: [width, height], rounds: rounds)
        // The peers' libraries, found once.
        var peers: [(LottiePeer, String)] = []
        for peer in LottiePeer.allCases {
            guard let folder = peersFolder else {
                lottie.peerNotices.append("\(peer.name) not measured: no Python environment with the peers "
                                          + "(--peers DIR; contrib/lottie/setup-venv.sh makes one)")
                continue
            }
            switch peer.library(in: folder) {
            case let .success(path): peers.append((peer, path))
            case let .failure(why): lottie.peerNotices.append(why.description)
            }
        }
        let backends = try usableBackends()
        let strategies = try backends.map { try makeStrategy($0) }
        let timer = try makeTimer()
        // The first file imported and drawn once, unmeasured, so that what the process makes once (type metadata,
        // caches) is not counted in that file's heap.
        if let first = files.first, let animation = try? LottieAnimation(contentsOf: first),
           let scene = try? animation.scene(width: width, height: height, background: RGBA8(255, 255, 255), firstFrame: 0).scene {
            _ = try? cpuRunMemory(scene: scene, tree: 0, importPeak: 0, frames: 1, rate: animation.frameRate)
        }
        for (index, file) in files.enumerated() {
            if config.isInterrupted() { lottie.interrupted = true; break }
            let name = URL(fileURLWithPath: file).lastPathComponent
            progress?(BenchProgress(done: index, total: files.count, label: name))
            resetPeakResident()
            let heapBase = waves_heap_live()
            waves_heap_peak_reset()
            let animation: LottieAnimation
            let scene: Scene
            do {
                animation = try LottieAnimation(contentsOf: file)
                scene = try animation.scene(width: width, height: height, background: RGBA8(255, 255, 255), firstFrame: 0).scene
            } catch {
                var row = LottieReport.Row(file: name, frames: 0, frameRate: 0)
                row.notMeasured["waves"] = "\(error)"
                lottie.rows.append(row)
                continue
            }
            let frames = animation.frameCount
            var row = LottieReport.Row(file: name, frames: frames, frameRate: animation.frameRate)
            do {
                row.memory = try cpuRunMemory(scene: scene, tree: waves_heap_live() - heapBase, importPeak: waves_heap_peak() - heapBase,
                                              frames: min(frames, max(1, config.warmup)), rate: animation.frameRate)
            } catch {
                row.notMeasured["memory"] = "\(error)"
            }
            var meters: [FrameMeter] = []
            for strategy in strategies {
                do {
                    try strategy.prepare(scene: scene)
                    meters.append(makeMeter(strategy, timer: timer, capacity: frames * rounds))
                } catch let error as RendererError {
                    guard case .unavailable = error else { throw error }
                    row.notMeasured[strategy.backend.rawValue] = "\(error)"
                }
            }
            // A warm-up pass of each strategy, then the rounds: each strategy's pass over every frame, and each peer's.
            for meter in meters {
                for frame in 0..<min(frames, config.warmup) { try meter.frame(time: Double(frame) / animation.frameRate, measured: false) }
            }
            var peerTimes: [LottiePeer: [Double]] = [:]
            for _ in 0..<rounds {
                if config.isInterrupted() { break }
                for meter in meters {
                    for frame in 0..<frames { try meter.frame(time: Double(frame) / animation.frameRate, measured: true) }
                }
                for (peer, library) in peers where row.notMeasured[peer.rawValue] == nil {
                    switch LottiePeerRun.pass(peer, library: library, file: file, width: width, height: height, frames: frames) {
                    case let .times(times): peerTimes[peer, default: []] += times
                    case let .failed(why):
                        row.notMeasured[peer.rawValue] = why
                        peerTimes[peer] = nil
                    }
                }
            }
            // Stopped while this file was under way: its rounds are not all there (and a peer's child may have
            // had the signal too), so the report holds the files finished before it.
            if config.isInterrupted() { lottie.interrupted = true; break }
            for meter in meters {
                meter.drainGPU()
                guard let summary = meter.summary() else { continue }
                let key = meter.strategy.backend.rawValue
                row.allocationsPerFrame[key] = summary.allocationsPerFrame
                if meter.strategy.backend == .cpu {
                    row.wavesCpuMs = Self.roundedStats(summary.cpuMs)
                } else {
                    row.wavesGlMs = Self.roundedStats(summary.cpuMs)
                    row.wavesGlProcessMs = Self.roundedStats(summary.processCpuMs)
                    row.gpuMs = summary.gpuMs.map(Self.roundedStats)
                    let middle = Double(frames / 2) / animation.frameRate
                    let plan = try meter.strategy.renderer.explain(time: middle)
                    row.layers = plan.count
                    row.cachedLayers = plan.filter(\.cached).count
                    row.redrawnLayers = plan.filter(\.redrawnEveryFrame).count
                    row.cpuRasterizedPixelsPerFrame = meter.strategy.countPixels(time: middle)?.cpuRasterized
                }
            }
            for peer in LottiePeer.allCases {
                guard let times = peerTimes[peer] else { continue }
                let stats = Stats(times.map { $0 * 1000 }).map(Self.roundedStats)
                if peer == .rlottie { row.rlottieMs = stats } else { row.thorvgMs = stats }
            }
            row.peakRssMb = WaveBench.rounded(peakResidentMegabytes(), places: 1)
            row.verdict = .between(cpuMs: row.wavesCpuMs?.median, glMs: row.wavesGlMs?.median, layers: row.layers,
                                   cached: row.cachedLayers, redrawn: row.redrawnLayers)
            lottie.rows.append(row)
        }
        progress?(BenchProgress(done: files.count, total: files.count, label: "done"))
        lottie.summarise()
        var report = BenchReport(renderer: rendererName, results: [])
        report.lottie = lottie
        report.interrupted = lottie.interrupted
        return report
    }

    /// A CPU run's heap (`LottieReport.Memory`), measured apart from the
    /// timed strategies: the tree's compiled form (its evaluator and
    /// presentation list) made alone, then a CPU renderer of its own made
    /// ready for `scene`, its frame made and `frames` frames drawn, each
    /// freed again. `tree` and `importPeak` are the import's figures, in
    /// bytes. Nil where the interposed allocator is not in use (a test
    /// binary without it).
    private func cpuRunMemory(scene: Scene, tree: Int64, importPeak: Int64, frames: Int, rate: Double) throws -> LottieReport.Memory? {
        guard waves_malloc_counter_active() != 0 else { return nil }
        func mb(_ bytes: Int64) -> Double { WaveBench.rounded(Double(max(0, bytes)) / 1_048_576, places: 3) }
        var before = waves_heap_live()
        waves_heap_peak_reset()
        if let evaluator = try scene.tree?.makeEvaluator() { withExtendedLifetime(evaluator.makeList()) {} }
        let compiled = waves_heap_peak() - before
        before = waves_heap_live()
        waves_heap_peak_reset()
        do {
            let renderer = try host.makeRenderer(.cpu)
            try renderer.prepare(scene: scene)
            let target = try renderer.makeTarget()
            for frame in 0..<frames { try renderer.draw(time: Double(frame) / rate, into: target) }
        }
        return LottieReport.Memory(treeMb: mb(tree), importPeakMb: mb(importPeak), compiledMb: mb(compiled),
                                   cpuRunMb: mb(waves_heap_peak() - before), frameMb: mb(Int64(scene.width * scene.height * 4)))
    }

    private static func roundedStats(_ stats: Stats) -> Stats {
        Stats(median: WaveBench.rounded(stats.median, places: 5), p95: WaveBench.rounded(stats.p95, places: 5))
    }

    /// The Lottie files `path` names: itself, or a folder's *.json, in name order.
    package static func lottieFiles(_ path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ValueError(option: "--file", value: path, accepted: "a Lottie JSON file, or a folder of them")
        }
        guard isFolder.boolValue else { return [path] }
        guard let files = LottieEffect.files(inFolder: path) else {
            throw ValueError(option: "--file", value: path, accepted: "a Lottie JSON file, or a folder holding some (*.json)")
        }
        return files
    }
}
