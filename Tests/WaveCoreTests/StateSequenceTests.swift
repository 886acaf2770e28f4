@testable import WaveCore
@testable import WaveEffects
import XCTest

/// States in turn, handed off (`Timeline.sequence`), and the dots' voice
/// assistant states built from them: no property jumps at a switch, each
/// settles on the next state's start, and that state then runs from its
/// beginning.
final class StateSequenceTests: XCTestCase {
    private let swing = Timeline(1.0, animations: [.basic(BasicAnimation(from: 1, to: 15, duration: 0.33, function: .easeOut,
                                                                          repeatCount: .infinity, autoreverses: true))])

    func testAHandOffStartsWhereTheValueIsAndEndsWhereTheNextStateStarts() {
        let rest = Timeline(1.0)
        let seq = Timeline.sequence([(0, swing), (1.1, rest), (2, swing)], handOff: 0.33, sources: nil)
        // At the switch, the value is the swing's there; 0.33 s later, the rest's.
        XCTAssertEqual(seq.value(at: 1.1), swing.value(at: 1.1), accuracy: 1e-12)
        XCTAssertEqual(seq.value(at: 1.1 - 1e-9), swing.value(at: 1.1 - 1e-9), accuracy: 1e-12)
        XCTAssertEqual(seq.value(at: 1.43), 1, accuracy: 1e-12)
        XCTAssertEqual(seq.value(at: 1.9), 1, accuracy: 1e-12)
        // Back to the swing: from rest, then the swing from its own beginning at 2.33.
        XCTAssertEqual(seq.value(at: 2), 1, accuracy: 1e-12)
        for dt in [0.0, 0.1, 0.5, 1.7] { XCTAssertEqual(seq.value(at: 2.33 + dt), swing.value(at: dt), accuracy: 1e-9) }
    }

    /// The largest change in 1/60 s across a switch is no larger than within a state: nothing jumps.
    func testNothingJumpsAtASwitch() {
        let rest = Timeline(1.0)
        let seq = Timeline.sequence([(0, swing), (1.05, rest)], handOff: 0.33, sources: nil)
        func largestStep(_ timeline: Timeline<Double>, from a: Double, to b: Double) -> Double {
            var worst = 0.0, t = a
            while t < b { worst = max(worst, abs(timeline.value(at: t + 1.0 / 60) - timeline.value(at: t))); t += 1.0 / 600 }
            return worst
        }
        let within = largestStep(swing, from: 0, to: 2)
        XCTAssertLessThanOrEqual(largestStep(seq, from: 0.5, to: 2), within + 1e-9)
        // Removing the animation instead (the chapter's stop before the challenge) jumps by most of the swing.
        let removed = Timeline(1.0, animations: [.basic(BasicAnimation(from: 1, to: 15, duration: 0.33, function: .easeOut,
                                                                       repeatCount: 1.05 / 0.33, autoreverses: true))])
        XCTAssertGreaterThan(largestStep(removed, from: 0.5, to: 2), within)
    }

    /// A later state's backward fill does not reach back before it, and a driven value begins with its state.
    func testALaterStateStaysInItsTime() {
        let late = Timeline(0.0, animations: [.basic(BasicAnimation(from: 5, to: 6, duration: 1, beginTime: 0.5, fillMode: .backwards))])
        let driven = Timeline(0.0, animations: [.driven(Driven(source: 0, from: 0, to: 10))])
        let sources = DrivenSources([.constant(0.8)])
        let seq = Timeline.sequence([(0, Timeline(2.0)), (1, late), (3, driven)], handOff: 0.25, sources: sources)
        XCTAssertEqual(seq.value(at: 0.5, sources: sources), 2, "no fill from the later state")
        // The hand-off ends on the value the later state starts from (its backward fill), which holds until it begins.
        XCTAssertEqual(seq.value(at: 1.25, sources: sources), 5, accuracy: 1e-12)
        XCTAssertEqual(seq.value(at: 1.6, sources: sources), 5, accuracy: 1e-12)
        XCTAssertEqual(seq.value(at: 2.0, sources: sources), 5.25, accuracy: 1e-12)
        // The driven state: handed off to the source's value, then driven.
        XCTAssertEqual(seq.value(at: 3, sources: sources), 5, accuracy: 1e-12)
        XCTAssertEqual(seq.value(at: 3.25, sources: sources), 8, accuracy: 1e-12)
        XCTAssertEqual(seq.value(at: 9, sources: sources), 8, accuracy: 1e-12)
        XCTAssertEqual(seq.nextChange(after: 3.1, sources: sources), 3.1, "handing off: changes every moment")
    }

    /// The demo's keys: each switch from the key's time on, the effect's own state until the first, a later key at the same
    /// or an earlier time replacing what came after it.
    func testTheDemosKeysSwitchTheDotsStates() throws {
        var request = SceneRequest(width: 160, height: 60, count: 0, snapsToPixel: false)
        request.switchState(to: "idle", at: 1.5)
        request.switchState(to: "listen", at: 2.5)
        request.switchState(to: "speak", at: 2.0) // paused, or time went back: replaces listen at 2.5
        XCTAssertEqual(request.states.map(\.name), ["idle", "speak"])
        // A held key repeats: the same state again is no switch; however many keys, the last few are kept.
        var held = request
        held.switchState(to: "speak", at: 2.1)
        XCTAssertEqual(held.states.count, 2)
        for k in 0..<100 { held.switchState(to: k % 2 == 0 ? "idle" : "listen", at: 3 + Double(k)) }
        XCTAssertEqual(held.states.count, SceneRequest.keptStates)
        XCTAssertEqual(held.states.last?.at, 102)
        let settings = EffectSettings()
        let scene = try XCTUnwrap(Effects.named(.dots)).scene(settings, request)
        // The dots' own state (speaking, a constant level) until 1.5, grey at rest by 1.83, speaking again after 2.
        let dot = try XCTUnwrap(scene.tree?.root.sublayers.first?.sublayers.first)
        guard case let .box(box)? = dot.contents else { return XCTFail("the dot is not a box") }
        XCTAssertEqual(box.fillColor.value(at: 1.9), ColorValue(Dots.lightGray))
        XCTAssertNotEqual(box.fillColor.value(at: 1.0), ColorValue(Dots.lightGray))
        XCTAssertNotEqual(box.fillColor.value(at: 3.0), ColorValue(Dots.lightGray))
        XCTAssertEqual(dot.transform.scaleY.value(at: 1.9), 1, accuracy: 1e-12)
    }

    /// The dots' states: every property of copy 0 continuous across each switch, and each state's look once settled.
    func testTheDotsHandOffBetweenTheirStates() throws {
        var dots = Dots(width: 160, height: 60)
        dots.level = .constant(0.6)
        dots.states = [Dots.StateSwitch(.speak, at: 0), Dots.StateSwitch(.listen, at: 1.2), Dots.StateSwitch(.idle, at: 2.5)]
        let look = dots.sequencedLook(try XCTUnwrap(dots.states))
        let sources = DrivenSources([dots.level])
        for switchAt in [1.2, 2.5] {
            for property in [look.scaleX, look.scaleY, look.opacity, look.rotation] {
                XCTAssertEqual(property.value(at: switchAt - 1e-9, sources: sources), property.value(at: switchAt, sources: sources),
                               accuracy: 1e-6, "at \(switchAt)")
            }
            let a = look.fill.value(at: switchAt - 1e-9, sources: sources), b = look.fill.value(at: switchAt, sources: sources)
            XCTAssertEqual(a.g, b.g, accuracy: 1e-5)
        }
        // Listening, settled: green, scale.y the meter's max(0.1, 30 L - 5) = 13.
        XCTAssertEqual(look.scaleY.value(at: 2, sources: sources), 13, accuracy: 1e-9)
        XCTAssertEqual(look.fill.value(at: 2, sources: sources), ColorValue(Dots.microphoneGreen))
        // Idle, settled: grey, at rest.
        XCTAssertEqual(look.scaleY.value(at: 3, sources: sources), 1, accuracy: 1e-9)
        XCTAssertEqual(look.fill.value(at: 3, sources: sources), ColorValue(Dots.lightGray))
        XCTAssertEqual(look.rotation.value(at: 3, sources: sources), 0, accuracy: 1e-12)
    }
}
