import WaveCore
import WaveEffects
@testable import WaveGL
import WaveLottie
import WaveTestSupport
import XCTest

/// Every mechanism the GL plan knows (`GLMechanism`, GLPlan.swift) is the
/// one some item is drawn by, on some effect or primitive under some driver
/// policy: a mechanism nothing uses is dead code to delete. The scenes are
/// every registered effect and the primitives preset's (as the command line
/// draws them; the waveform with --split mask too), under both policies and both sub-pixel modes, one
/// bordered box with a sublayer (its border is drawn over the sublayer), one box masked by one fixed path
/// and one Lottie layer masked by one morphing path (masks read in place).
final class EveryMechanismIsUsedTests: XCTestCase {
    func testEveryMechanismDrawsSomething() throws {
        let settings = try EffectScenes.settings()
        var scenes = try Effects.all.map { ($0.name.rawValue, try EffectScenes.scene($0, settings)) }
        // The waveform as --split mask draws it: its masks' boxes on whole pixels.
        var masked = settings
        masked.given["split"] = "mask"
        scenes.append(("waveform --split mask", try EffectScenes.scene(try XCTUnwrap(Effects.named(.waveform)), masked)))
        for primitive in Primitives.all { scenes.append((primitive.name, try primitive.make(200, 180))) }
        let child = Layer(name: "child", frame: Rect(x: 8, y: 8, width: 20, height: 12), contents: .box(Box(color: RGBA8(200, 80, 40))))
        let framed = Layer(name: "framed", frame: Rect(x: 10, y: 10, width: 60, height: 40),
                           contents: .box(Box(color: RGBA8(40, 80, 200), cornerRadius: 6, borderWidth: 2, borderColor: RGBA8(255, 255, 255))),
                           sublayers: [child])
        scenes.append(("a bordered box over its sublayer", Scene(width: 100, height: 70, tree: LayerTree(root: framed))))
        var triangle = PathBuilder()
        try triangle.move(to: 0, 0)
        try triangle.line(to: 60, 10)
        try triangle.line(to: 20, 40)
        triangle.close()
        var maskedBox = Layer(name: "masked", frame: Rect(x: 10, y: 10, width: 60, height: 40), contents: .box(Box(color: RGBA8(40, 80, 200))))
        maskedBox.mask = Layer(name: "triangle", frame: Rect(x: 0, y: 0, width: 60, height: 40),
                            contents: .shape(Shape(path: triangle.path, fill: .solid(RGBA8(0, 0, 0)))))
        scenes.append(("a box masked by one path", Scene(width: 100, height: 70, tree: LayerTree(root: maskedBox))))
        func quad(_ dx: Double) -> String { LottieFixtures.path([(20 + dx, 15), (85, 25), (70, 90), (15 - dx, 70)]) }
        let morphing = #","masksProperties":[{"mode":"a","pt":\#(LottieFixtures.keyframes([(0, "[\(quad(0))]"), (60, "[\(quad(12))]")])),"o":{"a":0,"k":100}}]"#
        let fill = LottieFixtures.shapeLayer(index: 1, items: [LottieFixtures.rectangle(x: 10, y: 30, width: 60, height: 45),
                                                               LottieFixtures.fill(0.9, 0.3, 0.1)], extra: morphing)
        scenes.append(("a Lottie layer masked by one morphing path", try LottieAnimation(bytes: Array(LottieFixtures.file([fill]).utf8))
            .scene(width: 100, height: 100, background: RGBA8(255, 255, 255)).scene))

        let renderer = try glRenderer(), policy = renderer.policy, subpixel = renderer.subpixel
        defer { (renderer.policy, renderer.subpixel) = (policy, subpixel) }
        var used: Set<String> = []
        for (name, scene) in scenes {
            for driver in [DriverPolicy.software, .gpu] {
                for mode in [SubpixelMode.exact, .linear] {
                    (renderer.policy, renderer.subpixel) = (driver, mode)
                    try renderer.prepare(scene: scene)
                    for time in [0.35, 1.3] {
                        for item in try renderer.explain(time: time) {
                            let known = GLMechanism.allCases.first { item.mechanism == $0.name || ($0 == .phasedPicture && item.mechanism.hasPrefix("coverage picture, ") && item.mechanism.hasSuffix(" phases")) }
                            let mechanism = try XCTUnwrap(known, "\(name): \(item.mechanism) is no mechanism of the plan")
                            used.insert(mechanism.name)
                        }
                    }
                }
            }
        }
        for mechanism in GLMechanism.allCases {
            XCTAssertTrue(used.contains(mechanism.name), "no item of any effect or primitive is drawn by \(mechanism.name)")
        }
    }
}
