import WaveCore
import WaveEffects
@testable import WaveGL
import WaveTestSupport
import XCTest

/// The replicated dots and the voice wave, through both backends: the GL
/// strategy (computed on the GPU) against the CPU strategy (redrawn), and
/// both against what the chapter and siriwave say.
final class DotsAndVoiceTests: XCTestCase {
    private let black = RGBA8(0, 0, 0)

    private func bothBackends(_ scene: Scene, at times: [Double]) throws -> (cpu: [RGBAImage], gl: [RGBAImage]) {
        (try Frames.render(CPURenderer(), scene, at: times), try Frames.render(try glRenderer(), scene, at: times))
    }

    // MARK: CPU and GL agree

    func testDotsAgreeOnBothBackendsAtSeveralTimes() throws {
        var dots = Dots(width: 240, height: 110)
        dots.count = 60 // two rows
        dots.dotSize = 5
        dots.spacing = 7
        dots.level = .constant(0.9)
        var grid = Dots(width: 120, height: 200)
        grid.count = 75 // five straight rows of fifteen: one instanced draw on the GPU
        grid.curl = 0
        var microphone = Dots(width: 160, height: 120)
        microphone.level = .envelope(LevelEnvelope(rate: 10, values: (0..<40).map { 0.4 + 0.4 * sin(Double($0) * 0.7) }))
        var big = Dots(width: 200, height: 90)
        big.dotSize = 16
        big.cornerRadius = 8 // round dots
        big.spacing = 24
        // Turned dots smaller than a pixel's reach in their space: every corner is looked at, not the nearest.
        var tiny = Dots(width: 120, height: 40)
        tiny.dotSize = 1.5
        tiny.cornerRadius = 0.6
        tiny.spacing = 3
        tiny.curl = 0.4
        tiny.maxScale = Scale(x: 0.5, y: 3)
        for (name, scene) in [("dots", try dots.scene()), ("dots-grid", try grid.scene()), ("dots-microphone", try microphone.scene()),
                              ("round-dots", try big.scene()), ("tiny-turned-dots", try tiny.scene()),
                              ("dots-default", try Dots(width: 300, height: 120).scene())] {
            let times = [0.0, 0.1, 0.37, 0.9, 2.51, 1234.567]
            let (cpu, gl) = try bothBackends(scene, at: times)
            for i in times.indices { assertImagesMatch(gl[i], cpu[i], mean: 1, max: 8, name: "\(name)-\(i)") }
        }
    }

    /// Rows that curl (a replicator of rows whose inner step turns, animated)
    /// are one item on the GPU: each outer copy evaluates the inner step at
    /// its own time and raises it to its power there; drawn as the CPU
    /// draws them, under both driver policies, where before each row was an
    /// item of its own (the bench straightened the rows to avoid that).
    func testCurledRowsAreOneReplicatorOfRows() throws {
        var grid = Dots(width: 120, height: 200)
        grid.count = 75 // five curled rows of fifteen
        grid.curl = 0.05
        grid.level = .constant(0.8)
        let scene = try grid.scene()
        let times = [0.0, 0.3, 0.95, 2.4]
        let cpu = try Frames.render(CPURenderer(), scene, at: times)
        for policy in [DriverPolicy.software, .gpu] {
            let gl = try glRenderer()
            gl.policy = policy
            try gl.prepare(scene: scene)
            let plan = try gl.explain(time: 0.95)
            XCTAssertEqual(plan.count, 1, "\(policy.name): \(plan.map(\.layer))")
            XCTAssertEqual(plan.first?.layer, "rows")
            let target = try gl.makeTarget()
            for (i, t) in times.enumerated() {
                try gl.draw(time: t, into: target)
                assertImagesMatch(try target.readback(), cpu[i], mean: 1, max: 8, name: "curled-rows-\(policy.name)-\(i)")
            }
        }
    }

    /// Straight rows of dots (steps that only translate) are drawn as a
    /// lattice, one quad a page whose pixels find their dots; a curled row
    /// (a turning step) as instanced quads; both as the CPU draws them, and
    /// the lattice as the instanced draw of the same state.
    func testStraightDotsAreALatticeAndCurledDotsInstanced() throws {
        var grid = Dots(width: 120, height: 200)
        grid.count = 75 // five straight rows of fifteen
        grid.curl = 0
        var curled = Dots(width: 160, height: 120)
        curled.level = .constant(0.7)
        let gl = try glRenderer()
        let times = [0.05, 0.6, 1.7]
        for (name, dots, lattice) in [("grid", grid, true), ("curled", curled, false)] {
            let scene = try dots.scene()
            let cpu = try Frames.render(CPURenderer(), scene, at: times)
            try gl.prepare(scene: scene)
            let copies = try XCTUnwrap(gl.treeCopies, name)
            let target = try gl.makeTarget()
            for (i, t) in times.enumerated() {
                try gl.draw(time: t, into: target)
                let drawn = try target.readback()
                assertImagesMatch(drawn, cpu[i], mean: 1, max: 8, name: "\(name)-modes-\(i)")
                copies.allowsLattice = false
                try gl.draw(time: t, into: target)
                copies.allowsLattice = true
                assertImagesMatch(drawn, try target.readback(), mean: 0.2, max: 2, name: "\(name)-lattice-vs-instanced-\(i)")
            }
            let instancedAsked = times.count // the comparison draws, one page each
            if lattice {
                XCTAssertEqual(copies.latticeDraws, times.count, name)
                XCTAssertEqual(copies.alignedDraws, times.count, "\(name): the dots never turn")
                XCTAssertEqual(copies.instancedDraws, instancedAsked, name)
            } else {
                XCTAssertEqual(copies.latticeDraws, 0, name)
                XCTAssertEqual(copies.instancedDraws, 2 * times.count, name)
            }
        }
    }

    func testVoiceCurvesAgreeOnBothBackendsAtSeveralTimes() throws {
        for style in Voice.Style.allCases {
            var voice = Voice(width: 320, height: 120)
            voice.style = style
            voice.level = .constant(1)
            var panels = voice
            panels.count = 3
            for (name, scene) in [("voice-\(style)", try voice.scene()), ("voice-\(style)-panels", try panels.scene())] {
                let times = [0.0, 0.2, 1.3, 7.7, 100000.25]
                let (cpu, gl) = try bothBackends(scene, at: times)
                for i in times.indices { assertImagesMatch(gl[i], cpu[i], mean: 1, max: 8, name: "\(name)-\(i)") }
            }
        }
    }

    func testAnimatedLayersOverCachedLayersCompositeTheSameWay() throws {
        var sine = SineCells(width: 160, height: 80)
        sine.wave.color = RGBA8(40, 160, 255, 180)
        let sineRoot = try XCTUnwrap(try sine.scene().tree).root
        var dots = Dots(width: 160, height: 80)
        dots.color = RGBA8(255, 255, 255, 200)
        dots.level = .constant(0.8)
        let voice = Voice(width: 160, height: 80) // its level is 0.8 too: one source serves both
        // The sine's, the dots' and the voice's trees in one: the animated ones over the cached wave.
        let root = Layer(name: "both", frame: Rect(x: 0, y: 0, width: 160, height: 80),
                         sublayers: [sineRoot, try XCTUnwrap(try dots.scene().tree).root, try XCTUnwrap(try voice.scene().tree).root])
        let scene = Scene(width: 160, height: 80, tree: LayerTree(root: root, sources: [.constant(0.8)]))
        let (cpu, gl) = try bothBackends(scene, at: [0, 0.25])
        for i in 0..<2 { assertImagesMatch(gl[i], cpu[i], mean: 1, max: 8, name: "animated-over-cached-\(i)") }
    }

    // MARK: States and hand-offs

    /// Speaking, then listening to a recorded level, then idle: both
    /// backends agree at times in every state and in each hand-off (the GL
    /// strategy evaluates a state that begins later on the CPU), and the
    /// frames either side of each switch are the same picture (nothing jumps).
    func testTheStatesHandOffOnBothBackends() throws {
        var dots = Dots(width: 200, height: 80)
        dots.background = black
        dots.level = .envelope(LevelEnvelope(rate: 100, values: (0..<500).map { 0.45 + 0.2 * sin(Double($0) * 0.07) }))
        dots.states = [Dots.StateSwitch(.speak, at: 0), Dots.StateSwitch(.listen, at: 1.2), Dots.StateSwitch(.idle, at: 2.6)]
        let scene = try dots.scene()
        let times = [0.5, 1.25, 1.4, 2.0, 2.7, 3.0, 4.5]
        let (cpu, gl) = try bothBackends(scene, at: times)
        // Copies turned and stretched 15 times, their box outlines filled on the GPU in single precision: where two
        // copies' edges meet inside a pixel, that pixel can differ (two pixels of the frame by up to 41/255 here).
        for i in times.indices { assertImagesMatch(gl[i], cpu[i], mean: 1, max: 64, name: "states-\(times[i])") }
        for switchAt in [1.2, 2.6] {
            let around = try Frames.render(CPURenderer(), scene, at: [switchAt - 0.0001, switchAt + 0.0001])
            XCTAssertLessThanOrEqual(ImageComparison.difference(around[0], around[1]).meanAbsolute, 1, "a jump at \(switchAt)")
        }
        // Settled in each state, the pictures differ: the states are really there.
        XCTAssertGreaterThan(ImageComparison.difference(cpu[3], cpu[0]).maxAbsolute, 100, "listening looks like speaking")
        XCTAssertGreaterThan(ImageComparison.difference(cpu[6], cpu[3]).maxAbsolute, 100, "idle looks like listening")
    }

    // MARK: The instance delay

    /// Dot i at time t is dot 0 at t - i * delay: compare the crops around
    /// them (dots far enough apart that neighbours never reach the crop).
    /// With the chapter's animation and with a recorded level (the
    /// microphone's dots) that has one loud burst, from 0.5 to 0.7 s: the
    /// row shows the recent past, the burst travelling along it.
    func testEachDotIsTheFirstDotDelayed() throws {
        let burst = LevelEnvelope(rate: 100, values: (0..<200).map { (50..<70).contains($0) ? 1 : 0.2 })
        for level in [Level.constant(1), .envelope(burst)] {
        var dots = Dots(width: 240, height: 100)
        dots.spacing = 20
        dots.background = black
        dots.curl = 0 // copies only translated: copy i is copy 0 delayed, moved
        dots.level = level
        let scene = try dots.scene()
        let delay = dots.delay
        let t = 0.61
        for backend in [Backend.cpu, .gl] {
            let renderer: Renderer = backend == .cpu ? CPURenderer() : try glRenderer()
            let now = try Frames.render(renderer, scene, at: [t])[0]
            for i in [1, 3, 7, 11] {
                let earlier = try Frames.render(renderer, scene, at: [t - Double(i) * delay])[0]
                let x0 = Int(dots.centre(of: 0).x) - 10, xi = Int(dots.centre(of: i).x) - 10
                assertImagesMatch(crop(now, x: xi, width: 20), crop(earlier, x: x0, width: 20),
                                  mean: backend == .cpu ? 0 : 0.05, max: backend == .cpu ? 0 : 2, name: "delay-\(backend)-\(i)")
            }
            // And the wave really travels: dot 7 now is not dot 0 now.
            let d = ImageComparison.difference(crop(now, x: Int(dots.centre(of: 7).x) - 10, width: 20),
                                               crop(now, x: Int(dots.centre(of: 0).x) - 10, width: 20))
            XCTAssertGreaterThan(d.maxAbsolute, 50, "\(backend): dot 7 looks like dot 0 at the same time (\(level))")
        }
        }
    }

    private func crop(_ image: RGBAImage, x: Int, width: Int) -> RGBAImage {
        var out = RGBAImage(width: width, height: image.height, fill: RGBA8(0, 0, 0, 0))
        for y in 0..<image.height {
            for c in 0..<(width * 4) { out.pixels[(y * width) * 4 + c] = image.pixels[(y * image.width + x) * 4 + c] }
        }
        return out
    }

    // MARK: The chapter's animation, read from the pixels

    /// An independent timing-curve reference: the curve's x searched on a
    /// dense grid of the parameter (no bisection shared with the code).
    private func eased(_ p: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func b(_ s: Double, _ a: Double, _ c: Double) -> Double { 3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * c + s * s * s }
        var best = 0.0, bestDistance = Double.infinity
        for i in 0...200_000 {
            let s = Double(i) / 200_000
            let d = abs(b(s, x1, x2) - p)
            if d < bestDistance { bestDistance = d; best = s }
        }
        return b(best, y1, y2)
    }

    /// The chapter: scale 1 -> (1.4, 15) ease-out over 0.33 s and back;
    /// opacity 1 -> 0.2 ease-out over 0.33 s from 0.33 s and back; tint
    /// magenta -> cyan over 0.66 s and back ease-in-ease-out, from 0.28 s,
    /// magenta before (fill mode backwards).
    private func expected(at t: Double) -> (scaleX: Double, scaleY: Double, opacity: Double, tint: Double) {
        func swing(_ local: Double, _ d: Double) -> Double {
            guard local > 0 else { return 0 }
            let phase = local.truncatingRemainder(dividingBy: 2 * d) / d
            return phase <= 1 ? phase : 2 - phase
        }
        let s = eased(swing(t, 0.33), 0, 0, 0.58, 1)
        let o = eased(swing(t - 0.33, 0.33), 0, 0, 0.58, 1)
        let m = eased(swing(t - 0.28, 0.66), 0.42, 0, 0.58, 1)
        return (1 + 0.4 * s, 1 + 14 * s, 1 - 0.8 * o, m)
    }

    /// One dot of side 6 over black, at level 1, its border off (a white
    /// border over a translucent fill would count twice): its height and width from
    /// the coverage along its centre column and row, its opacity and tint
    /// from its centre pixel (magenta -> cyan keeps blue at 255, so blue is
    /// the opacity and green the tint).
    func testTheDotAnimationFollowsTheChapterFromThePixels() throws {
        var dot = Dots(width: 40, height: 120)
        dot.count = 1
        dot.borderWidth = 0
        dot.background = black
        let scene = try dot.scene()
        let centre = dot.centre(of: 0)
        XCTAssertEqual(centre.x, 36, "the first dot sits at the right edge")
        let times = [0.0, 0.1, 0.165, 0.33, 0.5, 0.7, 1.0, 1.2]
        for backend in [Backend.cpu, .gl] {
            let renderer: Renderer = backend == .cpu ? CPURenderer() : try glRenderer()
            let frames = try Frames.render(renderer, scene, at: times)
            for (t, image) in zip(times, frames) {
                func pixel(_ x: Int, _ y: Int) -> (g: Double, b: Double) {
                    let i = (y * image.width + x) * 4
                    return (Double(image.pixels[i + 1]), Double(image.pixels[i + 2]))
                }
                let middle = pixel(Int(centre.x), Int(centre.y))
                let opacity = middle.b / 255, tint = middle.g / max(1, middle.b)
                let height = (0..<image.height).reduce(0.0) { $0 + pixel(Int(centre.x), $1).b / middle.b }
                let width = (0..<image.width).reduce(0.0) { $0 + pixel($1, Int(centre.y)).b / middle.b }
                let want = expected(at: t)
                let label = "\(backend) t=\(t)"
                XCTAssertEqual(height / 6, want.scaleY, accuracy: 0.02 * want.scaleY + 0.05, "scale y, \(label)")
                XCTAssertEqual(width / 6, want.scaleX, accuracy: 0.05, "scale x, \(label)")
                XCTAssertEqual(opacity, want.opacity, accuracy: 0.01, "opacity, \(label)")
                XCTAssertEqual(tint, want.tint, accuracy: 0.02, "tint, \(label)")
            }
        }
    }

    /// The replicator's rotation: 0 -> 0.01 over 0.33 s ease-out (kept),
    /// then 0.01 -> -0.01 over 0.99 s from 0.33 s, ease-in-ease-out,
    /// autoreverse, forever; copy k turned k times that (the row curls).
    func testTheRowCurlsAsTheChapterTurnsIt() throws {
        let dots = Dots(width: 80, height: 60)
        let evaluator = try XCTUnwrap(try dots.scene().tree).makeEvaluator()
        func swing(_ local: Double, _ d: Double) -> Double {
            guard local > 0 else { return 0 }
            let phase = local.truncatingRemainder(dividingBy: 2 * d) / d
            return phase <= 1 ? phase : 2 - phase
        }
        for t in [0.1, 0.25, 0.4, 0.8, 1.5, 2.9] {
            let turn = t < 0.33 ? 0.01 * eased(t / 0.33, 0, 0, 0.58, 1) : 0.01 - 0.02 * eased(swing(t - 0.33, 0.99), 0.42, 0, 0.58, 1)
            let items = evaluator.presentation(at: t).items
            XCTAssertEqual(items.count, 10)
            for k in [1, 4, 9] {
                let m = items[k].transform
                XCTAssertEqual(atan2(m.b, m.a), Double(k) * turn, accuracy: 2e-5, "copy \(k) at t=\(t)")
            }
        }
    }

    // MARK: Frame-rate independence

    /// The voice wave driven by a live level that jumps at time 0: the frame
    /// at t = 1 is the same whether reached at 60 or at 144 frames a second.
    func testTheVoiceFrameAtATimeDoesNotDependOnTheFrameRate() throws {
        func finalFrame(fps: Double, backend: Backend) throws -> RGBAImage {
            let level = LiveLevel(start: 0, smoothing: LevelSmoothing(attack: 0.3, release: 0.5))
            var voice = Voice(width: 200, height: 80)
            voice.level = .live(level)
            let renderer: Renderer = backend == .cpu ? CPURenderer() : try glRenderer()
            try renderer.prepare(scene: try voice.scene())
            let target = try renderer.makeTarget()
            try renderer.draw(time: 0, into: target)
            level.set(0.9)
            for n in 1...Int(fps) { try renderer.draw(time: Double(n) / fps, into: target) }
            return try target.readback()
        }
        for backend in [Backend.cpu, .gl] {
            let at60 = try finalFrame(fps: 60, backend: backend), at144 = try finalFrame(fps: 144, backend: backend)
            assertImagesMatch(at144, at60, mean: 0.001, max: 1, name: "voice-fps-\(backend)")
        }
    }
}
