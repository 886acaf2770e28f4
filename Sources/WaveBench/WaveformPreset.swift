import Foundation
import WaveCore

/// `--preset waveform`: the published SoundCloud experiment. A 10-minute
/// track whose 680 px of bars travel under a fixed playhead over its length,
/// in a phone-sized view, each strategy (CPU redraw, GL mask, GL two clipped
/// copies) paced at 60 frames per second, with and without snapping; how the
/// cost changes as the played part of the view grows; frames that really
/// need drawing; "amplitude phasing"; and how fast audio decodes to peaks.
package enum WaveformPreset {
    package static let name = "waveform"
    package static let view = (width: 375, height: 100)
    /// Pixels of bars over the whole track, as in the post.
    package static let travel = 680.0
    /// Bars 1 px wide with a 1 px gap: the post's 1-point bars on a 1x screen.
    package static let bar = (width: 1, gap: 1)
    package static let framesPerSecond = 60.0
    package static let playedFractions = [0.0, 0.25, 0.5, 0.75, 1.0]
    package static let published = [
        "naive per-frame redraw: 17 FPS, falling to 10 FPS as more bars were played (gradient fills cost more)",
        "cached bars as a mask: 60 FPS at about 50% GPU and about 10% CPU",
        "bars drawn twice in two clipped regions: under 20% GPU at 60 FPS",
        "snapping to whole pixels: no phasing; 680 px over 10 minutes needs about 1 new position per second",
    ]

    /// The three strategies measured.
    package struct Strategy: Sendable {
        package let name: String
        package let backend: Backend
        package let splitMethod: SplitMethod
    }

    package static let strategies = [
        Strategy(name: "cpu", backend: .cpu, splitMethod: .twoClips),
        Strategy(name: "gl-mask", backend: .gl, splitMethod: .mask),
        Strategy(name: "gl-two-clips", backend: .gl, splitMethod: .twoClips),
    ]

    /// Of a 60 Hz sequence from `origin` for `seconds`, the frames after the
    /// first that the scene's layer tree says cannot differ from the one
    /// before (no change between the two times): a player could skip them.
    package static func unchangedFrames(in scene: Scene, from origin: Double, seconds: Double) throws -> (frames: Int, unchanged: Int) {
        let count = max(2, Int((seconds * framesPerSecond).rounded()))
        let needed = try ChangeSchedule.framesNeeded(in: scene, at: (0..<count).map { origin + Double($0) / framesPerSecond })
        return (count, count - needed)
    }

    /// How the waveform's bars move and where its playhead is, as the effect
    /// defines them: the content offset u(t) and the playhead's column.
    package struct Playback {
        package var offset: (Double) -> Double
        package var playheadColumn: (Double) -> Int
        package init(offset: @escaping (Double) -> Double, playheadColumn: @escaping (Double) -> Int) {
            self.offset = offset
            self.playheadColumn = playheadColumn
        }
    }

    /// "Amplitude phasing": per frame, the mean over the bars right of the
    /// playhead (unplayed, one solid colour) of each bar's peak column
    /// coverage along the middle row, as a share of that bar's coverage
    /// summed over the columns it reaches (so a short bar counts like a tall
    /// one): 1 for a 1 px bar on a whole pixel, 0.5 half way between two.
    /// Bars are found from the playback and the bar grid (`pitch`,
    /// `barWidth`), not from gaps, which blur shut. The figure is how far
    /// that mean swings over the frames (largest minus smallest): 0 when
    /// every frame is pixel-aligned, about 0.5 when 1 px bars go from sharp
    /// to blurred.
    package static func phasing(frames: [(image: RGBAImage, time: Double)], background: RGBA8, unplayed color: RGBA8,
                               playback: Playback, pitch: Int, barWidth: Int) -> Double? {
        guard frames.count > 1 else { return nil }
        let span = Double(color.g) - Double(background.g)
        guard span != 0 else { return nil }
        var means: [Double] = []
        for (image, time) in frames {
            let y = image.height / 2, u = playback.offset(time)
            let first = playback.playheadColumn(time) + 1
            var shares: [Double] = []
            // Bars whose columns lie wholly in [first, width).
            var bar = max(0, Int(((Double(first) + u) / Double(pitch)).rounded(.up)))
            while true {
                let left = Double(bar * pitch) - u, right = left + Double(barWidth)
                let x0 = Int(left.rounded(.down)), x1 = Int(right.rounded(.up))
                if x1 > image.width { break }
                if x0 >= first {
                    var peak = 0.0, sum = 0.0
                    for x in x0..<x1 {
                        let c = max(0, min(1, (Double(image[x, y].g) - Double(background.g)) / span))
                        peak = max(peak, c)
                        sum += c
                    }
                    if sum > 0.05 { shares.append(peak / sum) }
                }
                bar += 1
            }
            if !shares.isEmpty { means.append(shares.reduce(0, +) / Double(shares.count)) }
        }
        guard means.count > 1 else { return nil }
        return (means.max() ?? 0) - (means.min() ?? 0)
    }
}

/// One strategy's paced run.
package struct WaveformRow: Codable, Equatable {
    package var strategy: String
    package var snap: Bool
    /// Frames drawn only when the picture changes (`ChangeSchedule`); false: every tick.
    package var scheduled: Bool
    package var cpuMs: Stats
    package var processCpuMs: Stats
    package var gpuMs: Stats?
    package var processCpuPercent: Double
    package var framesDrawn: Int
    package var framesMissed: Int
    package var fps: Double
    /// Of a 60 Hz sequence (a minute of it), the frames per second whose offset or playhead changed.
    package var framesNeedingDrawPerSecond: Double
    /// Of that minute, the frames that could have been skipped.
    package var framesUnchanged: Int
    package var phasing: Double?
    package var allocationsPerFrame: Double
    /// One frame's pixels as the strategy counted them (see `PixelsPerFrame`).
    package var pixelsPerFrame: PixelsPerFrame?

    enum CodingKeys: String, CodingKey {
        case strategy, snap, scheduled, fps, phasing
        case pixelsPerFrame = "pixels_per_frame"
        case cpuMs = "cpu_ms", processCpuMs = "process_cpu_ms", gpuMs = "gpu_ms"
        case processCpuPercent = "process_cpu_percent", framesDrawn = "frames_drawn", framesMissed = "frames_missed"
        case framesNeedingDrawPerSecond = "frames_needing_draw_per_second", framesUnchanged = "frames_unchanged"
        case allocationsPerFrame = "allocations_per_frame"
    }
}

/// The cost at one played fraction of the view (unpaced frames, medians in ms).
package struct PlayedPoint: Codable, Equatable {
    package var strategy: String
    package var playedFraction: Double
    package var cpuMs: Double
    package var processCpuMs: Double
    package var gpuMs: Double?

    enum CodingKeys: String, CodingKey {
        case strategy
        case playedFraction = "played_fraction", cpuMs = "cpu_ms", processCpuMs = "process_cpu_ms", gpuMs = "gpu_ms"
    }
}

/// Decoding a whole file to bar peaks.
package struct DecodeResult: Codable, Equatable {
    package var format: String
    package var audioSeconds: Double
    package var decodeSeconds: Double
    /// Seconds of audio per second of decoding.
    package var realtimeFactor: Double

    package init(format: String, audioSeconds: Double, decodeSeconds: Double) {
        self.format = format
        self.audioSeconds = audioSeconds
        self.decodeSeconds = decodeSeconds
        realtimeFactor = decodeSeconds > 0 ? audioSeconds / decodeSeconds : 0
    }

    enum CodingKeys: String, CodingKey {
        case format
        case audioSeconds = "audio_seconds", decodeSeconds = "decode_seconds", realtimeFactor = "realtime_factor"
    }
}

package struct WaveformReport: Codable, Equatable {
    package var trackSeconds: Double
    package var pixelsPerSecond: Double
    package var viewSize: [Int]
    package var barWidth: Int
    package var barGap: Int
    package var seconds: Double
    package var rows: [WaveformRow]
    package var played: [PlayedPoint]
    package var decode: [DecodeResult]
    package var published: [String]

    enum CodingKeys: String, CodingKey {
        case seconds, rows, played, decode, published
        case trackSeconds = "track_seconds", pixelsPerSecond = "pixels_per_second", viewSize = "view_size"
        case barWidth = "bar_width", barGap = "bar_gap"
    }
}

/// One view of the track for the preset: its scene and how it moves.
package struct WaveformPresetView {
    package var scene: Scene
    /// The unplayed bars' colour (solid), for reading phasing off frames.
    package var unplayed: RGBA8
    /// How the bars move and where the playhead is.
    package var playback: WaveformPreset.Playback

    package init(scene: Scene, unplayed: RGBA8, playback: WaveformPreset.Playback) {
        self.scene = scene
        self.unplayed = unplayed
        self.playback = playback
    }
}

/// What the waveform preset measures: the track's view and its decoding
/// (`WaveformPresetInput.track` makes them from a track).
package struct WaveformPresetInput {
    package var trackSeconds: Double
    /// The bars' grid, for finding them in frames.
    package var pitch = WaveformPreset.bar.width + WaveformPreset.bar.gap
    package var barWidth = WaveformPreset.bar.width
    /// The view at a played fraction of its width, snapped or not, composed one way.
    package var view: (_ playedFraction: Double, _ snap: Bool, _ composition: SplitMethod) throws -> WaveformPresetView
    /// Decoding speed of the track's formats.
    package var decode: () throws -> [DecodeResult]

    package init(trackSeconds: Double, view: @escaping (Double, Bool, SplitMethod) throws -> WaveformPresetView,
                decode: @escaping () throws -> [DecodeResult]) {
        self.trackSeconds = trackSeconds
        self.view = view
        self.decode = decode
    }
}

extension BenchRunner {
    /// Runs the waveform preset: paced rows for every strategy with and
    /// without snapping, the played-fraction sweep (`config.frames` unpaced
    /// frames each), phasing, and decoding.
    package func runWaveform(_ input: WaveformPresetInput, seconds: Double,
                            progress: ((BenchProgress) -> Void)? = nil) throws -> BenchReport {
        guard seconds.isFinite, seconds > 0 else { throw BenchError.invalid("the waveform preset needs a positive duration") }
        let usable = try usableBackends()
        let strategies = WaveformPreset.strategies.filter { usable.contains($0.backend) }
        let timer = try makeTimer()
        let origin = input.trackSeconds / 2 // mid-track: bars fill the view on both sides of the playhead
        var rows: [WaveformRow] = [], played: [PlayedPoint] = []
        let steps = strategies.count * (3 + WaveformPreset.playedFractions.count)
        var step = 0
        func report(_ label: String) {
            step += 1
            progress?(BenchProgress(done: step, total: steps, label: "waveform preset: \(label)"))
        }
        // Every tick unsnapped and snapped, then snapped drawing only the frames that change (the published ~1 FPS).
        for (snap, scheduled) in [(false, false), (true, false), (true, true)] {
            // Counted over a minute of the sequence (it is arithmetic, not drawing): slow motion changes rarely.
            let counted = max(seconds, 60)
            let (frames, unchanged) = try WaveformPreset.unchangedFrames(in: try input.view(0.5, snap, .twoClips).scene,
                                                                         from: origin, seconds: counted)
            for s in strategies {
                let view = try input.view(0.5, snap, s.splitMethod)
                let strategy = try BenchStrategy(s.backend, host: host)
                try strategy.prepare(scene: view.scene)
                let meter = makeMeter(strategy, timer: timer, capacity: Int(seconds * WaveformPreset.framesPerSecond) + 2)
                for i in 0..<config.warmup { try meter.frame(time: origin + Double(i) / 60, measured: false) }
                let schedule = scheduled ? try ChangeSchedule(scene: view.scene) : nil
                let run = try PacedRun.run(meter: meter, seconds: seconds, framesPerSecond: WaveformPreset.framesPerSecond,
                                           timeOrigin: origin, schedule: schedule) { _ in }
                let summary = try finish(meter, step: "the waveform preset, \(s.name)", ifEmpty: "no frame was drawn")
                // Phasing from one second of frames, read back.
                let target = try strategy.renderer.makeTarget()
                let images = try (0..<60).map { i -> (image: RGBAImage, time: Double) in
                    let t = origin + Double(i) / 60
                    try strategy.renderer.draw(time: t, into: target)
                    return (try target.readback(), t)
                }
                rows.append(WaveformRow(
                    strategy: s.name, snap: snap, scheduled: scheduled, cpuMs: summary.cpuMs.rounded, processCpuMs: summary.processCpuMs.rounded,
                    gpuMs: summary.gpuMs?.rounded, processCpuPercent: rounded(run.processCPUSeconds / run.wallSeconds * 100, places: 2),
                    framesDrawn: summary.frames, framesMissed: run.missed,
                    fps: rounded(Double(summary.frames) / run.wallSeconds, places: 1),
                    framesNeedingDrawPerSecond: rounded(Double(frames - 1 - unchanged) / counted, places: 3),
                    framesUnchanged: unchanged,
                    phasing: WaveformPreset.phasing(frames: images, background: view.scene.background, unplayed: view.unplayed,
                                                    playback: view.playback, pitch: input.pitch,
                                                    barWidth: input.barWidth).map { rounded($0, places: 4) },
                    allocationsPerFrame: summary.allocationsPerFrame,
                    pixelsPerFrame: strategy.countPixels(time: origin + seconds)))
                report("\(s.name)\(snap ? ", snapped" : "")\(scheduled ? ", frames on change" : "")")
            }
        }
        for fraction in WaveformPreset.playedFractions {
            for s in strategies {
                let strategy = try BenchStrategy(s.backend, host: host)
                try strategy.prepare(scene: try input.view(fraction, false, s.splitMethod).scene)
                let meter = makeMeter(strategy, timer: timer, capacity: config.frames)
                for i in 0..<(config.warmup + config.frames) {
                    try meter.frame(time: origin + Double(i) / 60, measured: i >= config.warmup)
                }
                let summary = try finish(meter, step: "the played sweep, \(s.name)", ifEmpty: "no frame was measured")
                played.append(PlayedPoint(strategy: s.name, playedFraction: fraction,
                                          cpuMs: rounded(summary.cpuMs.median, places: 5),
                                          processCpuMs: rounded(summary.processCpuMs.median, places: 5),
                                          gpuMs: summary.gpuMs.map { rounded($0.median, places: 5) }))
                report("\(s.name) at \(Int(fraction * 100))% played")
            }
        }
        let scene = try input.view(0.5, false, .twoClips).scene
        var document = BenchReport(renderer: rendererName, results: [])
        document.waveform = WaveformReport(
            trackSeconds: input.trackSeconds, pixelsPerSecond: WaveformPreset.travel / input.trackSeconds,
            viewSize: [scene.width, scene.height], barWidth: WaveformPreset.bar.width, barGap: WaveformPreset.bar.gap,
            seconds: seconds, rows: rows, played: played, decode: try input.decode(), published: WaveformPreset.published)
        return document
    }
}

extension Stats {
    /// Both figures rounded to 10 ns.
    var rounded: Stats { Stats(median: WaveBench.rounded(median, places: 5), p95: WaveBench.rounded(p95, places: 5)) }
}
