import Foundation
import WaveCore
@testable import WaveGL
import XCTest

/// The copies' timelines are evaluated on the GPU from one description:
/// the shader's constants are generated from WaveCore's `TimelineCode` (and
/// the bounce-out's table), and `Shaders/timeline_codes.inc`, which the
/// offline validator reads, is that same text.
final class TimelineCodeTests: XCTestCase {
    private var include: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Shaders/timeline_codes.inc")
    }

    func testTheShadersConstantsAreTheSwiftDefinitions() throws {
        let generated = TimelineCodeGLSL.source
        if ProcessInfo.processInfo.environment["WAVES_WRITE_GENERATED"] == "1" {
            try generated.write(to: include, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(try String(contentsOf: include, encoding: .utf8), generated,
                       "Shaders/timeline_codes.inc is stale: run 'make shaders'")
        for kind in TimelineCode.Kind.allCases { XCTAssert(generated.contains("= \(kind.rawValue);"), "\(kind)") }
        XCTAssert(generated.contains("const int KIND_KEYFRAMES_DISCRETE = \(TimelineCode.Kind.keyframesDiscrete.rawValue);"), generated)
        XCTAssert(generated.contains("const int FLAG_FILLS_FORWARDS = 4;"), generated)
        XCTAssert(generated.contains("const int FUNCTION_BOUNCE_OUT = \(TimelineCode.Function.bounceOut.rawValue);"), generated)
        XCTAssert(generated.contains("const vec4 BOUNCE_OUT[4]"), generated)
        // The shader names only generated constants: no kind, flag or function coded by hand.
        let shader = try XCTUnwrap(EmbeddedShaders.files["copies_state.frag.glsl"])
        for pattern in ["kind == 0", "kind == 1", "kind == 2", "kind == 3", "kind == 4", "flags & 1", "flags & 2", "flags & 4", "flags & 8",
                        "function == 0", "function == 2", "121.0"] {
            XCTAssertFalse(shader.contains(pattern), "copies_state.frag.glsl codes \(pattern) by hand")
        }
    }

    /// Every kind of timeline a replicator's copies evaluate on the GPU,
    /// against the CPU's evaluation at many times: 600 copies 3.7 ms apart
    /// are 600 times a frame, and three frames reach before, inside and after
    /// each animation. The box's centre is its position.x, read back from the
    /// state pass; single precision on the GPU holds it within 0.01 px.
    func testTheGPUEvaluatesEveryKindAsTheCPUDoes() throws {
        let renderer = try glRenderer()
        let envelope = LevelEnvelope(rate: 25, values: (0..<120).map { 0.5 + 0.45 * sin(Double($0) * 0.3) })
        func basic(_ function: TimingFunction, begin: Double = 0, repeats: Double = 1, autoreverses: Bool = false,
                   fill: FillMode = .removed, speed: Double = 1, offset: Double = 0) -> Animation<Double> {
            .basic(BasicAnimation(from: 10, to: 90, timing: MediaTiming(beginTime: begin, duration: 0.8, speed: speed, timeOffset: offset,
                                                                        repeatCount: repeats, autoreverses: autoreverses, fillMode: fill),
                                  function: function))
        }
        func spring(_ bounce: Double) -> Animation<Double> {
            .spring(SpringAnimation(from: 20, to: 80, spring: Spring(duration: 0.7, bounce: bounce), beginTime: 0.3, duration: 2, fillMode: .both))
        }
        let cases: [(String, [Animation<Double>])] = [
            ("basic linear, twice, filled both ways", [basic(.linear, begin: 0.4, repeats: 2, fill: .both)]),
            ("basic ease in-out, autoreversing forever", [basic(.easeInEaseOut, begin: 0.2, repeats: .infinity, autoreverses: true)]),
            ("basic bounce-out, filled forwards", [basic(.bounceOut, fill: .forwards)]),
            ("basic default curve, speed 2, offset, filled backwards", [basic(.default, begin: 1, fill: .backwards, speed: 2, offset: 0.1)]),
            ("keyframes linear with key times", [.keyframes(KeyframeAnimation(values: [10, 70, 30, 90], keyTimes: [0, 0.2, 0.7, 1],
                                                                              timing: MediaTiming(duration: 1.3, repeatCount: .infinity), function: .easeOut))]),
            ("keyframes linear, evenly spaced", [.keyframes(KeyframeAnimation(values: [40, 10, 95], timing: MediaTiming(beginTime: 0.5, duration: 1.1, fillMode: .both)))]),
            ("keyframes discrete, autoreversing", [.keyframes(KeyframeAnimation(values: [15, 55, 35, 75], keyTimes: [0, 0.31, 0.53, 0.87, 1], calculation: .discrete,
                                                                                timing: MediaTiming(duration: 0.9, repeatCount: 3, autoreverses: true, fillMode: .forwards)))]),
            ("spring underdamped", [spring(0.3)]),
            ("spring critically damped", [spring(0)]),
            ("spring overdamped", [spring(-0.5)]),
            ("driven by a constant level", [.driven(Driven(source: 0, from: 5, to: 95, gain: 1.5, bias: -0.1))]),
            ("driven by a recorded level", [.driven(Driven(source: 1, from: 5, to: 95))]),
            ("a basic over a spring", [spring(0.2), basic(.easeIn, begin: 1.1)]),
        ]
        let count = 600, delay = 0.0037
        for (name, animations) in cases {
            var box = Layer(name: "box", frame: Rect(x: 0, y: 10, width: 4, height: 4), contents: .box(Box(color: RGBA8(255, 255, 255))))
            let timeline = Timeline(50.0, animations: animations)
            box.position.x = timeline
            var row = Layer(name: "row", frame: Rect(x: 0, y: 0, width: 200, height: 40), sublayers: [box])
            row.replicator = Replicator(count: count, instanceDelay: delay)
            let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 200, height: 40), sublayers: [row])
            let tree = LayerTree(root: root, sources: [.constant(0.4), .envelope(envelope)])
            let scene = Scene(width: 200, height: 40, background: RGBA8(0, 0, 0), tree: tree)
            let sources = DrivenSources(tree.sources)
            try renderer.prepare(scene: scene)
            let target = try renderer.makeTarget()
            for frame in [0.61, 2.33, 4.07] {
                try renderer.draw(time: frame, into: target)
                let copies = try XCTUnwrap(renderer.treeCopies, "\(name): the copies are evaluated on the GPU")
                let state = copies.readState(target: 0, count: count)
                var worst = 0.0, at = 0.0
                for k in 0..<count {
                    let t = frame - Double(k) * delay
                    let difference = abs(Double(state[k].x) - timeline.value(at: t, sources: sources))
                    if difference > worst { (worst, at) = (difference, t) }
                }
                XCTAssertLessThanOrEqual(worst, 0.01, "\(name), frame at \(frame) s: GPU and CPU differ by \(worst) px at t = \(at) s")
            }
        }
    }

    /// Shapes alone in their clips under the GPU policy: each clip's x is
    /// evaluated on the GPU (the state pass's CLIPS variant) through its
    /// layer's timing (each kind of span, fill, repeat and speed), split into whole pixels and a sixteenth-pixel phase.
    /// Against the CPU's `LayerTreeEvaluator.x(of:at:)` split the same way,
    /// at 40 times across before, inside and after each timing: single
    /// precision may land one phase over where x sits on a phase's edge, never more.
    func testTheGPUFindsEachSoleClipsXAsTheCPUDoes() throws {
        let renderer = try glRenderer()
        renderer.prefersCopies = false
        renderer.subpixel = .exact
        defer { renderer.prefersCopies = true; renderer.subpixel = .linear }
        let slide = Timeline(3.0, animations: [.basic(BasicAnimation(from: 0, to: -57.3, duration: 1.7))])
        let steps = Timeline(0.0, animations: [.keyframes(KeyframeAnimation(values: [0, -12, -30.5, -7], keyTimes: [0, 0.25, 0.6, 1],
                                                                                timing: MediaTiming(duration: 2.2, repeatCount: .infinity)))])
        let jumps = Timeline(0.0, animations: [.keyframes(KeyframeAnimation(values: [-3, -20, -41], calculation: .discrete,
                                                                                timing: MediaTiming(duration: 1.1, repeatCount: 2, fillMode: .both)))])
        // The shape's timing (its ancestors keep still, so theirs pass time through) and its translation.
        let cases: [(MediaTiming, Timeline<Double>)] = [
            (.endlessLoop(duration: 1.9, timeOffset: 0.37), slide),
            (MediaTiming(beginTime: 0.5, duration: 1.3, speed: 1.5, repeatCount: 3, autoreverses: true, fillMode: .both), slide),
            (MediaTiming(beginTime: 0.2, duration: 4, timeOffset: 0.4, repeatCount: 1, fillMode: .forwards), steps),
            (MediaTiming(beginTime: 0.3, duration: 1.2, speed: 0.7, repeatCount: .infinity), steps),
            (MediaTiming(beginTime: -0.4, duration: 5, fillMode: .backwards), jumps),
            (MediaTiming(beginTime: 1, duration: 2, repeatCount: 1, fillMode: .removed), slide),
        ]
        var builder = PathBuilder()
        try builder.rectangle(x: 0, y: 2, width: 13.5, height: 6)
        let bar = builder.path
        var cells: [Layer] = []
        for (k, (timing, translation)) in cases.enumerated() {
            var shape = Layer(name: "shape \(k)", frame: Rect(x: 0, y: 0, width: 120, height: 10),
                              contents: .shape(Shape(path: bar, fill: .solid(RGBA8(250, 200, 40)))))
            shape.anchorPoint = Point(0, 0)
            shape.position = AnimatablePoint(60, 0)
            shape.transform.translationX = translation
            shape.timing = timing
            var cell = Layer(name: "cell \(k)", frame: Rect(x: 0, y: Double(10 * k), width: 100, height: 10), sublayers: [shape])
            cell.masksToBounds = true
            cells.append(cell)
        }
        let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 100, height: 60), sublayers: cells)
        let scene = Scene(width: 100, height: 60, background: RGBA8(0, 0, 0), tree: LayerTree(root: root))
        try renderer.prepare(scene: scene)
        let target = try renderer.makeTarget()
        let clips = try XCTUnwrap(renderer.treeClipCopies, "the clips are drawn alone")
        XCTAssert(clips.drawsByLookup, "the GPU policy draws them by one quad")
        let evaluator = try LayerTreeEvaluator(root: root, sources: DrivenSources([]))
        let sole = evaluator.soleClips(width: 100, height: 60).sorted { $0.rows.lowerBound < $1.rows.lowerBound }
        XCTAssertEqual(sole.count, cases.count, "every cell is a sole clip")
        var exact = 0, compared = 0
        for step in 0..<40 {
            let t = -0.3 + Double(step) * 0.1371
            try renderer.draw(time: t, into: target)
            let states = clips.readStates()
            for (k, clip) in sole.enumerated() {
                let (whole, phase) = SubpixelPhases.split(evaluator.x(of: clip, at: t), phases: 16)
                let gpu = states[k].whole * 16 + states[k].phase, cpu = whole * 16 + phase
                XCTAssertLessThanOrEqual(abs(gpu - cpu), 1, "clip \(k) at t = \(t) s: GPU \(states[k]), CPU \((whole, phase))")
                exact += gpu == cpu ? 1 : 0
                compared += 1
            }
        }
        XCTAssertGreaterThanOrEqual(exact, compared * 95 / 100, "only x on a phase's edge may differ: \(exact) of \(compared) equal")
    }
}
