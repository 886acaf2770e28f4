import Foundation
import WaveCore
@testable import WaveGL
import WaveImageIO
import WaveLottie
import WaveTestSupport
import XCTest

/// Lottie features drawn from small files written by hand, each against
/// pixels worked out from the file (whole-pixel edges, so coverage is 0 or
/// 1): the CPU exactly, GL within 1/255 mean and 8/255 at most.
final class LottieFeatureTests: XCTestCase {
    typealias F = LottieFixtures

    /// The file's frame at 100x100 on white, from both backends (the GL one
    /// checked against the CPU's; `glMax` 64, the pictures' declared bound, where edges slant).
    func frame(_ json: String, frame: Double, name: String, glMax: Int = 8) throws -> RGBAImage {
        let animation = try LottieAnimation(bytes: Array(json.utf8))
        let scene = try animation.scene(width: 100, height: 100, background: RGBA8(255, 255, 255), firstFrame: frame).scene
        let cpu = try Frames.render(CPURenderer(), scene, at: [0])[0]
        let gl = try Frames.render(try glRenderer(), scene, at: [0])[0]
        assertImagesMatch(gl, cpu, mean: 1, max: glMax, name: "lottie-\(name)-gl")
        return cpu
    }

    /// White with the given rectangles (x0, y0, x1, y1) painted.
    func expected(_ boxes: [(Int, Int, Int, Int, RGBA8)]) -> RGBAImage {
        var image = RGBAImage(width: 100, height: 100, fill: RGBA8(255, 255, 255))
        for (x0, y0, x1, y1, c) in boxes {
            for y in y0..<y1 { for x in x0..<x1 { image[x, y] = c } }
        }
        return image
    }

    let red = RGBA8(255, 0, 0), black = RGBA8(0, 0, 0)

    func testAFillMovedByLinearKeyframes() throws {
        let json = F.file([F.shapeLayer(items: [F.rectangle(x: 20, y: 20, width: 20, height: 20), F.fill(1, 0, 0)],
                                        position: F.keyframes([(0, "[0,0]"), (10, "[40,0]")]))])
        assertImagesMatch(try frame(json, frame: 5, name: "move"), expected([(40, 20, 60, 40, red)]), mean: 0, max: 0, name: "lottie-move")
        assertImagesMatch(try frame(json, frame: 15, name: "move-after"), expected([(60, 20, 80, 40, red)]), mean: 0, max: 0,
                          name: "lottie-move-after")
    }

    /// Played as players play it: at the out point (frame 20, 2 s in) back to the in point.
    func testTheAnimationLoops() throws {
        let json = F.file([F.shapeLayer(items: [F.rectangle(x: 20, y: 20, width: 20, height: 20), F.fill(1, 0, 0)],
                                        position: F.keyframes([(0, "[0,0]"), (10, "[40,0]")]))])
        let scene = try LottieAnimation(bytes: Array(json.utf8)).scene(width: 100, height: 100, background: RGBA8(255, 255, 255)).scene
        let frames = try Frames.render(CPURenderer(), scene, at: [0, 2, 2.5])
        assertImagesMatch(frames[1], frames[0], mean: 0, max: 0, name: "lottie-loop-start")
        assertImagesMatch(frames[2], expected([(40, 20, 60, 40, red)]), mean: 0, max: 0, name: "lottie-loop-again")
        XCTAssertEqual(scene.loopPeriod() ?? 0, 2, accuracy: 1e-9, "the file's frames over its rate")
    }

    func testAHoldKeyframeStepsAtItsEnd() throws {
        let json = F.file([F.shapeLayer(items: [F.rectangle(x: 20, y: 20, width: 20, height: 20), F.fill(1, 0, 0)],
                                        position: F.keyframes([(0, "[0,0]"), (10, "[40,0]")], hold: true))])
        assertImagesMatch(try frame(json, frame: 9, name: "hold"), expected([(20, 20, 40, 40, red)]), mean: 0, max: 0, name: "lottie-hold")
        assertImagesMatch(try frame(json, frame: 10, name: "hold-end"), expected([(60, 20, 80, 40, red)]), mean: 0, max: 0,
                          name: "lottie-hold-end")
    }

    func testAStrokesWidthAndCaps() throws {
        let butt = F.file([F.shapeLayer(items: [F.line([(20, 50), (80, 50)]), F.stroke(width: 10, cap: 1)])])
        assertImagesMatch(try frame(butt, frame: 0, name: "butt"), expected([(20, 45, 80, 55, black)]), mean: 0, max: 0, name: "lottie-butt")
        let square = F.file([F.shapeLayer(items: [F.line([(20, 50), (80, 50)]), F.stroke(width: 10, cap: 3)])])
        assertImagesMatch(try frame(square, frame: 0, name: "square"), expected([(15, 45, 85, 55, black)]), mean: 0, max: 0,
                          name: "lottie-square")
    }

    func testAMiterJoinFillsTheCornerAndABevelCutsIt() throws {
        // A right angle at (70, 30): the miter's corner is the square's, the bevel leaves its outer triangle white.
        let path = F.line([(20, 30), (70, 30), (70, 80)])
        let miter = try frame(F.file([F.shapeLayer(items: [path, F.stroke(width: 10, cap: 1, join: 1)])]), frame: 0, name: "miter")
        assertImagesMatch(miter, expected([(20, 25, 75, 35, black), (65, 25, 75, 80, black)]), mean: 0, max: 0, name: "lottie-miter")
        let bevel = try frame(F.file([F.shapeLayer(items: [path, F.stroke(width: 10, cap: 1, join: 3)])]), frame: 0, name: "bevel")
        XCTAssertEqual(bevel[74, 25], RGBA8(255, 255, 255), "the bevel's outer corner")
        XCTAssertEqual(bevel[69, 29], black)
    }

    func testADashesPeriod() throws {
        let json = F.file([F.shapeLayer(items: [F.line([(10, 50), (90, 50)]), F.stroke(width: 10, cap: 1, dash: (10, 10))])])
        let dashes = (0..<4).map { k in (10 + 20 * k, 45, 20 + 20 * k, 55, black) }
        assertImagesMatch(try frame(json, frame: 0, name: "dash"), expected(dashes), mean: 0, max: 0, name: "lottie-dash")
    }

    /// Stops ramped as the specification's gradients: linear along its line
    /// (black to white here), radial out from its centre with opacity stops.
    func testLinearAndRadialGradientsFollowTheirStops() throws {
        let linear = F.file([F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 100, height: 100),
                                                  F.gradientFill(type: 1, start: (0, 0), end: (100, 0), count: 2, stops: [0, 0, 0, 0, 1, 1, 1, 1])])])
        var ramp = RGBAImage(width: 100, height: 100)
        for y in 0..<100 {
            for x in 0..<100 {
                let v = UInt8((Double(x) + 0.5) / 100 * 255 + 0.5)
                ramp[x, y] = RGBA8(v, v, v)
            }
        }
        assertImagesMatch(try frame(linear, frame: 0, name: "linear-gradient"), ramp, mean: 0.6, max: 2, name: "lottie-linear-gradient")
        // Red to blue out to a radius of 50 from (50, 50), opaque at the centre and clear at the edge.
        let radialLayer = F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 100, height: 100),
                                               F.gradientFill(type: 2, start: (50, 50), end: (100, 50), count: 2,
                                                              stops: [0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0])])
        let radial = F.file([radialLayer])
        // Equal outlines share one cached coverage on GL; each keeps its own paint (a solid under the gradient here).
        let under = F.shapeLayer(index: 2, items: [F.rectangle(x: 0, y: 0, width: 100, height: 100), F.fill(0, 1, 0)])
        XCTAssertEqual(try frame(F.file([radialLayer, under]), frame: 0, name: "gradient-over-solid")[0, 0], RGBA8(0, 255, 0),
                       "the solid shows past the gradient's radius")
        // Keyframed stops: black to white at frame 0, white to white by frame 10 (each frame's gradient its own).
        let keyed = F.file([F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 100, height: 100),
                                                 F.gradientFill(type: 1, start: (0, 0), end: (100, 0), count: 2, stops: [0, 0, 0, 0, 1, 1, 1, 1])
                                                    .replacingOccurrences(of: #""k":\#(F.value("[0.0,0.0,0.0,0.0,1.0,1.0,1.0,1.0]"))"#,
                                                                          with: #""k":\#(F.keyframes([(0, "[0,0,0,0,1,1,1,1]"), (10, "[0,1,1,1,1,1,1,1]")]))"#)])])
        XCTAssertLessThan(try frame(keyed, frame: 0, name: "keyed-gradient-0")[5, 50].r, 20, "black at the left, frame 0")
        XCTAssertEqual(Double(try frame(keyed, frame: 5, name: "keyed-gradient-5")[5, 50].r), 128, accuracy: 10, "half way, frame 5")
        XCTAssertGreaterThan(try frame(keyed, frame: 15, name: "keyed-gradient-15")[5, 50].r, 250, "white after the last keyframe")
        let image = try frame(radial, frame: 0, name: "radial-gradient")
        // The pixel beside the centre: its middle 0.7 pixels out, 1.4% of the way.
        XCTAssertEqual(Double(image[50, 50].r), 251, accuracy: 1, "by the centre")
        XCTAssertEqual(Double(image[50, 50].b), 8, accuracy: 1, "by the centre")
        XCTAssertEqual(image[0, 0], RGBA8(255, 255, 255), "past the radius: clear")
        // Half way out (25 pixels): half red, half blue, at half opacity over white.
        let half = image[75, 50]
        XCTAssertEqual(Double(half.r), 191, accuracy: 3)
        XCTAssertEqual(Double(half.g), 128, accuracy: 3)
        XCTAssertEqual(Double(half.b), 191, accuracy: 3)
    }

    /// A gradient whose end point is keyframed (linearly, from x 100 at frame 0 to x 50 at frame 10) is one layer whose
    /// gradient keeps its stops and steps its points a whole frame at a time: black to white over 0...end at each frame.
    func testAGradientsKeyframedPointsMoveItInOneLayer() throws {
        let fill = F.gradientFill(type: 1, start: (0, 0), end: (100, 0), count: 2, stops: [0, 0, 0, 0, 1, 1, 1, 1])
            .replacingOccurrences(of: #""e":\#(F.value("[100.0,0.0]"))"#, with: #""e":\#(F.keyframes([(0, "[100,0]"), (10, "[50,0]")]))"#)
        XCTAssert(fill.contains(#""e":{"a":1"#), fill)
        let json = F.file([F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 100, height: 100), fill])])
        func ramp(end: Double) -> RGBAImage {
            var image = RGBAImage(width: 100, height: 100)
            for y in 0..<100 {
                for x in 0..<100 {
                    let v = UInt8(min(1, (Double(x) + 0.5) / end) * 255 + 0.5)
                    image[x, y] = RGBA8(v, v, v)
                }
            }
            return image
        }
        for (frame, end) in [(0.0, 100.0), (4, 80), (10, 50), (15, 50)] {
            assertImagesMatch(try self.frame(json, frame: frame, name: "moving-gradient-\(Int(frame))"), ramp(end: end), mean: 0.6, max: 2,
                              name: "lottie-moving-gradient-\(Int(frame))")
        }
        // One shape, not a copy a frame, and the tree says it changes while the points move.
        let scene = try LottieAnimation(bytes: Array(json.utf8)).scene(width: 100, height: 100, background: RGBA8(255, 255, 255)).scene
        var shapes: [Shape] = []
        func walk(_ layer: Layer) {
            if case let .shape(shape)? = layer.contents { shapes.append(shape) }
            layer.sublayers.forEach(walk)
        }
        walk(try XCTUnwrap(scene.tree?.root))
        XCTAssertEqual(shapes.count, 1)
        XCTAssertNotNil(shapes.first?.gradientPoints)
        let evaluator = try XCTUnwrap(scene.tree).makeEvaluator()
        XCTAssertEqual(try XCTUnwrap(evaluator.nextChange(after: 0.25)), 0.25, accuracy: 0.1, "a step a frame while the points move")
    }

    /// A radial gradient's highlight moves its focus: black to white out to 40 from (50, 50), the focus half the
    /// radius out at 45 degrees from the end point's direction. Each pixel's grey is the t found by bisection whose
    /// circle (radius 40 t about focus + t (centre - focus)) passes through the pixel's centre.
    func testARadialGradientsHighlightMovesItsFocus() throws {
        let fill = F.gradientFill(type: 2, start: (50, 50), end: (90, 50), count: 2, stops: [0, 0, 0, 0, 1, 1, 1, 1])
            .replacingOccurrences(of: #""t":2"#, with: #""t":2,"h":\#(F.value("50")),"a":\#(F.value("45"))"#)
        let image = try frame(F.file([F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 100, height: 100), fill])]), frame: 0,
                              name: "gradient-highlight")
        let focus = (50 + 20 * cos(Double.pi / 4), 50 + 20 * sin(Double.pi / 4))
        func t(_ x: Double, _ y: Double) -> Double {
            // Inside circle t when the point is within radius 40 t of its centre; the smallest such t, by bisection.
            var lo = 0.0, hi = 1.0
            func inside(_ t: Double) -> Bool {
                let cx = focus.0 + t * (50 - focus.0), cy = focus.1 + t * (50 - focus.1)
                return ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() <= 40 * t
            }
            if !inside(1) { return 1 }
            for _ in 0..<60 { let mid = (lo + hi) / 2; if inside(mid) { hi = mid } else { lo = mid } }
            return hi
        }
        var checked = 0
        for y in stride(from: 2, to: 100, by: 7) {
            for x in stride(from: 2, to: 100, by: 7) {
                XCTAssertEqual(Double(image[x, y].r), (t(Double(x) + 0.5, Double(y) + 0.5) * 255).rounded(), accuracy: 1.5, "(\(x), \(y))")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 196)
        XCTAssertLessThan(image[Int(focus.0), Int(focus.1)].r, 10, "dark at the focus, off the centre")
        XCTAssertGreaterThan(image[50, 50].r, 60, "lighter at the centre")
    }

    /// A repeater draws what is above it in its group again, each copy one step further, fading from so to eo.
    func testARepeaterStepsItsCopies() throws {
        let step = #"{"ty":"tr","a":\#(F.value("[0,0]")),"p":\#(F.value("[30,0]")),"s":\#(F.value("[100,100]")),"r":\#(F.value("0")),"so":\#(F.value("100")),"eo":\#(F.value("100"))}"#
        let json = F.file([F.shapeLayer(items: [F.rectangle(x: 10, y: 45, width: 10, height: 10), F.fill(1, 0, 0),
                                                #"{"ty":"rp","c":\#(F.value("3")),"o":\#(F.value("0")),"m":1,"tr":\#(step)}"#])])
        assertImagesMatch(try frame(json, frame: 0, name: "repeater"), expected((0..<3).map { k in (10 + 30 * k, 45, 20 + 30 * k, 55, red) }),
                          mean: 0, max: 0, name: "lottie-repeater")
        // The number of copies keyframed from 0 to 3 over frames 0 to 10: at frame 5, one and a half copies (the half at half opacity).
        let growing = json.replacingOccurrences(of: #""c":\#(F.value("3"))"#, with: #""c":\#(F.keyframes([(0, "[0]"), (10, "[3]")]))"#)
        let half = try frame(growing, frame: 5, name: "repeater-growing")
        XCTAssertEqual(half[15, 50], red)
        XCTAssertEqual(Double(half[45, 50].g), 128, accuracy: 2, "the half copy")
        XCTAssertEqual(half[75, 50], RGBA8(255, 255, 255))
    }

    /// A 3D layer turned 60 degrees about y is seen half as wide; an auto-oriented layer turns along its motion.
    func testA3DTurnAndAutoOrient() throws {
        let turned = F.shapeLayer(items: [F.rectangle(x: -20, y: -20, width: 40, height: 40), F.fill(1, 0, 0)], position: F.value("[50,50]"))
            .replacingOccurrences(of: #""r":\#(F.value("0"))"#, with: #""ry":\#(F.value("60"))"#)
        assertImagesMatch(try frame(F.file([turned]).replacingOccurrences(of: #""ddd":0,"ind""#, with: #""ddd":1,"ind""#), frame: 0, name: "3d"),
                          expected([(40, 30, 60, 70, red)]), mean: 0, max: 0, name: "lottie-3d")
        // Moving straight down: turned a quarter, the 20x10 bar stands 10x20.
        let oriented = F.shapeLayer(items: [F.rectangle(x: -10, y: -5, width: 20, height: 10), F.fill(1, 0, 0)],
                                    position: F.keyframes([(0, "[20,50]"), (10, "[20,90]")]), extra: #","ao":1"#)
        assertImagesMatch(try frame(F.file([oriented]), frame: 5, name: "auto-orient"), expected([(15, 60, 25, 80, red)]), mean: 0.05, max: 8,
                          name: "lottie-auto-orient")
    }

    /// A skew of 30 degrees along an axis of 45: the square becomes the
    /// parallelogram lottie-web's skewFromAxis(-sk, sa) makes of it (worked out
    /// here from its three matrices, as row vectors, the way lottie-web writes
    /// them); every pixel more than a pixel inside or outside it is checked.
    func testASkewAlongItsAxis() throws {
        let layer = F.shapeLayer(items: [F.rectangle(x: -20, y: -20, width: 40, height: 40), F.fill(1, 0, 0)], position: F.value("[50,50]"))
            .replacingOccurrences(of: #""r":\#(F.value("0"))"#, with: #""r":\#(F.value("0")),"sk":\#(F.value("30")),"sa":\#(F.value("45"))"#)
        let image = try frame(F.file([layer]), frame: 0, name: "skew", glMax: 64)
        let a = 45 * Double.pi / 180, k = tan(-30 * Double.pi / 180)
        func skewed(_ x: Double, _ y: Double) -> (Double, Double) {
            let (x1, y1) = (x * cos(a) - y * sin(a), x * sin(a) + y * cos(a))
            let (x2, y2) = (x1 + k * y1, y1)
            return (50 + x2 * cos(a) + y2 * sin(a), 50 - x2 * sin(a) + y2 * cos(a))
        }
        let corners = [skewed(-20, -20), skewed(20, -20), skewed(20, 20), skewed(-20, 20)]
        var inside = 0, outside = 0
        for y in 0..<100 {
            for x in 0..<100 {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                // Signed distances to the four edges (all positive inside, the corners clockwise on screen).
                let distances = (0..<4).map { i -> Double in
                    let (x0, y0) = corners[i], (x1, y1) = corners[(i + 1) % 4]
                    let length = ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot()
                    return ((x1 - x0) * (py - y0) - (y1 - y0) * (px - x0)) / length
                }
                if distances.allSatisfy({ $0 > 1 }) {
                    inside += 1
                    XCTAssertEqual(image[x, y], red, "(\(x), \(y)) inside")
                } else if distances.contains(where: { $0 < -1 }) {
                    outside += 1
                    XCTAssertEqual(image[x, y], RGBA8(255, 255, 255), "(\(x), \(y)) outside")
                }
            }
        }
        XCTAssertGreaterThan(inside, 1000)
        XCTAssertGreaterThan(outside, 6000)
    }

    /// Rounded corners round the sharp corners before them: a square's corner pixel is cleared, its edges' middles stay.
    func testRoundedCornersRoundASquaresCorners() throws {
        let json = F.file([F.shapeLayer(items: [F.rectangle(x: 20, y: 20, width: 60, height: 60), #"{"ty":"rd","r":\#(F.value("15"))}"#,
                                                F.fill(1, 0, 0)])])
        let image = try frame(json, frame: 0, name: "rounded-corners")
        XCTAssertEqual(image[21, 21], RGBA8(255, 255, 255), "the corner")
        XCTAssertEqual(image[50, 20], red, "the top edge's middle")
        XCTAssertEqual(image[20, 50], red, "the left edge's middle")
        XCTAssertEqual(image[50, 50], red)
    }

    /// The even-odd rule makes a hole of a square inside a square (non-zero fills it), for a fixed outline and a changing one.
    func testEvenOddFillsLeaveAHole() throws {
        for moving in [false, true] {
            var outer = F.rectangle(x: 10, y: 10, width: 80, height: 80), inner = F.rectangle(x: 30, y: 30, width: 40, height: 40)
            if moving {
                // The outer square keyframed (to itself): an outline made every frame, drawn on GL by its polygon.
                outer = outer.replacingOccurrences(of: #""s":\#(F.value("[80.0,80.0]"))"#, with: #""s":\#(F.keyframes([(0, "[80,80]"), (20, "[80,80]")]))"#)
                inner = inner.replacingOccurrences(of: #""s":\#(F.value("[40.0,40.0]"))"#, with: #""s":\#(F.keyframes([(0, "[40,40]"), (20, "[40,40]")]))"#)
            }
            for (rule, hole) in [(2, true), (1, false)] {
                let fill = F.fill(1, 0, 0).replacingOccurrences(of: #""r":1"#, with: #""r":\#(rule)"#)
                let name = "even-odd-\(moving ? "moving" : "fixed")-\(rule)"
                let image = try frame(F.file([F.shapeLayer(items: [outer, inner, fill])]), frame: 5, name: name)
                let inside = hole ? RGBA8(255, 255, 255) : red
                assertImagesMatch(image, expected([(10, 10, 90, 30, red), (10, 70, 90, 90, red), (10, 30, 30, 70, red), (70, 30, 90, 70, red),
                                                   (30, 30, 70, 70, inside)]), mean: 0, max: 0, name: "lottie-\(name)")
            }
        }
    }

    func testATrimEndsHalfWay() throws {
        let json = F.file([F.shapeLayer(items: [F.line([(20, 50), (80, 50)]), F.trim(start: 0, end: 50), F.stroke(width: 10, cap: 1)])])
        assertImagesMatch(try frame(json, frame: 0, name: "trim"), expected([(20, 45, 50, 55, black)]), mean: 0, max: 0, name: "lottie-trim")
        // A trim cuts the outlines before it however they are drawn: by a stroke listed before it, in a group before it.
        let group = #"{"ty":"gr","it":[\#(F.line([(20, 50), (80, 50)])),\#(F.stroke(width: 10, cap: 1)),{"ty":"tr","a":\#(F.value("[0,0]")),"p":\#(F.value("[0,0]")),"s":\#(F.value("[100,100]")),"r":\#(F.value("0")),"o":\#(F.value("100"))}]}"#
        let nested = F.file([F.shapeLayer(items: [group, F.trim(start: 50, end: 100)])])
        assertImagesMatch(try frame(nested, frame: 0, name: "trim-nested"), expected([(50, 45, 80, 55, black)]), mean: 0, max: 0,
                          name: "lottie-trim-nested")
    }

    /// A trim of `m` 2 cuts the outlines before it as one, in the order they are made: 75% of two 60-unit lines keeps
    /// the first whole and half the second; `m` 1 keeps 75% of each.
    func testATrimOfBothOutlinesAsOneOrEachAlone() throws {
        for (mode, shown) in [(2, [(20, 25, 80, 35), (20, 65, 50, 75)]), (1, [(20, 25, 65, 35), (20, 65, 65, 75)])] {
            let trim = F.trim(start: 0, end: 75).replacingOccurrences(of: #""m":1"#, with: #""m":\#(mode)"#)
            let json = F.file([F.shapeLayer(items: [F.line([(20, 30), (80, 30)]), F.line([(20, 70), (80, 70)]), trim, F.stroke(width: 10, cap: 1)])])
            assertImagesMatch(try frame(json, frame: 0, name: "trim-m\(mode)"), expected(shown.map { ($0.0, $0.1, $0.2, $0.3, black) }),
                              mean: 0, max: 0, name: "lottie-trim-m\(mode)")
            // Each line in a group of its own with its own stroke, the trim after both groups: the same cut.
            let tr = #"{"ty":"tr","a":\#(F.value("[0,0]")),"p":\#(F.value("[0,0]")),"s":\#(F.value("[100,100]")),"r":\#(F.value("0")),"o":\#(F.value("100"))}"#
            let groups = [(30.0), (70.0)].map { y in #"{"ty":"gr","it":[\#(F.line([(20, y), (80, y)])),\#(F.stroke(width: 10, cap: 1)),\#(tr)]}"# }
            let grouped = F.file([F.shapeLayer(items: groups + [trim])])
            assertImagesMatch(try frame(grouped, frame: 0, name: "trim-m\(mode)-groups"), expected(shown.map { ($0.0, $0.1, $0.2, $0.3, black) }),
                              mean: 0, max: 0, name: "lottie-trim-m\(mode)-groups")
        }
    }

    /// Merge paths combine the outlines before them from the one just before up, each on its own: square B (40 to 80,
    /// listed second) with square A (20 to 60) added, less A, within A, exclusive of A; and an outline wound backwards
    /// counts as itself (B within A within A reversed is still their overlap).
    func testMergePathsCombineTheOutlinesBeforeThem() throws {
        let a = F.rectangle(x: 20, y: 20, width: 40, height: 40), b = F.rectangle(x: 40, y: 40, width: 40, height: 40)
        let union = [(20, 20, 60, 60), (40, 40, 80, 80)], overlap = [(40, 40, 60, 60)]
        let bLessA = [(60, 40, 80, 80), (40, 60, 60, 80)], either = [(20, 20, 60, 40), (20, 40, 40, 60), (60, 40, 80, 80), (40, 60, 60, 80)]
        let reversedA = a.replacingOccurrences(of: #""ty":"rc""#, with: #""ty":"rc","d":3"#)
        for (mode, outlines, shown) in [(2, [a, b], union), (3, [a, b], bLessA), (4, [a, b], overlap), (5, [a, b], either),
                                        (4, [a, reversedA, b], overlap), (1, [a, b], union)] {
            let json = F.file([F.shapeLayer(items: outlines + [#"{"ty":"mm","mm":\#(mode)}"#, F.fill(1, 0, 0)])])
            let name = "merge-\(mode)-\(outlines.count)"
            assertImagesMatch(try frame(json, frame: 0, name: name), expected(shown.map { ($0.0, $0.1, $0.2, $0.3, red) }),
                              mean: 0, max: 0, name: "lottie-\(name)")
        }
    }

    /// Layers and transforms, each on its own file: a solid layer; in and out points (hidden before the in point and
    /// from the out point on); separate x and y; a quarter turn about the anchor; twice the scale at half the opacity.
    func testSolidsInAndOutPointsAndEachPartOfATransform() throws {
        let solid = ##"{"ddd":0,"ind":1,"ty":1,"sc":"#ff0000","sw":40,"sh":20,"ks":\##(F.transform(position: F.value("[10,10]"))),"ip":0,"op":20,"st":0,"sr":1}"##
        assertImagesMatch(try frame(F.file([solid]), frame: 0, name: "solid"), expected([(10, 10, 50, 30, red)]), mean: 0, max: 0, name: "lottie-solid")
        let shown = F.shapeLayer(items: [F.rectangle(x: 20, y: 20, width: 20, height: 20), F.fill(1, 0, 0)])
            .replacingOccurrences(of: #""ip":0,"op":20"#, with: #""ip":5,"op":10"#)
        for (f, visible) in [(4.0, false), (5, true), (9, true), (10, false)] {
            let image = try frame(F.file([shown]), frame: f, name: "in-out-\(Int(f))")
            assertImagesMatch(image, expected(visible ? [(20, 20, 40, 40, red)] : []), mean: 0, max: 0, name: "lottie-in-out-\(Int(f))")
        }
        // Position as separate x (keyframed 0 to 40 over frames 0 to 10) and y (20): at frame 5, (20, 20).
        let separate = F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 20, height: 20), F.fill(1, 0, 0)])
            .replacingOccurrences(of: #""p":\#(F.value("[0,0]"))"#, with: #""p":{"s":true,"x":\#(F.keyframes([(0, "[0]"), (10, "[40]")])),"y":\#(F.value("[20]"))}"#)
        assertImagesMatch(try frame(F.file([separate]), frame: 5, name: "separate"), expected([(20, 20, 40, 40, red)]), mean: 0, max: 0,
                          name: "lottie-separate-position")
        // A 40x20 bar turned 90 degrees clockwise about its anchor (its top left) at (60, 20): x 40 to 60, y 20 to 60.
        let turned = F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 40, height: 20), F.fill(1, 0, 0)], position: F.value("[60,20]"))
            .replacingOccurrences(of: #""r":\#(F.value("0")),"o""#, with: #""r":\#(F.value("90")),"o""#)
        assertImagesMatch(try frame(F.file([turned]), frame: 0, name: "rotation"), expected([(40, 20, 60, 60, red)]), mean: 0, max: 1,
                          name: "lottie-rotation")
        // A 10x10 square at (20, 20), scaled 200% about its anchor (0, 0), at 50% opacity: half red over white on 20 to 40.
        let scaled = F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 10, height: 10), F.fill(1, 0, 0)], position: F.value("[20,20]"))
            .replacingOccurrences(of: #""s":\#(F.value("[100,100]")),"r""#, with: #""s":\#(F.value("[200,200]")),"r""#)
            .replacingOccurrences(of: #""o":\#(F.value("100"))}"#, with: #""o":\#(F.value("50"))}"#)
        assertImagesMatch(try frame(F.file([scaled]), frame: 0, name: "scale-opacity"), expected([(20, 20, 40, 40, RGBA8(255, 128, 128))]),
                          mean: 0, max: 1, name: "lottie-scale-opacity")
    }

    /// Shapes, each against its geometry: an ellipse (pixels whose centres lie a pixel inside or outside the circle),
    /// a four-sided polygon (a diamond: |dx| + |dy| = 20), and a morph half way from a 20-unit square to a 40-unit one.
    func testEllipsesPolygonsAndMorphs() throws {
        let ellipse = F.shapeLayer(items: [#"{"ty":"el","p":\#(F.value("[50,50]")),"s":\#(F.value("[40,40]"))}"#, F.fill(1, 0, 0)])
        let polygon = F.shapeLayer(items: [#"{"ty":"sr","sy":2,"pt":\#(F.value("4")),"p":\#(F.value("[50,50]")),"r":\#(F.value("0")),"or":\#(F.value("20")),"os":\#(F.value("0"))}"#, F.fill(1, 0, 0)])
        for (json, name, inside) in [(ellipse, "ellipse", { (dx: Double, dy: Double) in (dx * dx + dy * dy).squareRoot() - 20 }),
                                     (polygon, "polygon", { (dx: Double, dy: Double) in (abs(dx) + abs(dy) - 20) / 2.0.squareRoot() })] {
            let image = try frame(F.file([json]), frame: 0, name: name)
            var checked = 0
            for y in 0..<100 {
                for x in 0..<100 {
                    let d = inside(Double(x) + 0.5 - 50, Double(y) + 0.5 - 50)
                    if d < -1 { XCTAssertEqual(image[x, y], red, "\(name) (\(x), \(y))"); checked += 1 }
                    if d > 1 { XCTAssertEqual(image[x, y], RGBA8(255, 255, 255), "\(name) (\(x), \(y))"); checked += 1 }
                }
            }
            XCTAssertGreaterThan(checked, 9000, name)
        }
        func square(_ side: Double) -> String {
            let a = 50 - side / 2, b = 50 + side / 2
            return #"[{"c":true,"v":[[\#(a),\#(a)],[\#(b),\#(a)],[\#(b),\#(b)],[\#(a),\#(b)]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}]"#
        }
        let morph = F.shapeLayer(items: [#"{"ty":"sh","ks":\#(F.keyframes([(0, square(20)), (10, square(40))]))}"#, F.fill(1, 0, 0)])
        assertImagesMatch(try frame(F.file([morph]), frame: 5, name: "morph"), expected([(35, 35, 65, 65, red)]), mean: 0, max: 0, name: "lottie-morph")
    }

    /// A Bézier-eased keyframe (After Effects' ease in, handles (0.42, 0) and (1, 1)): the square's left edge at
    /// frame 5 is where the curve's progress puts it, found here by bisection on the curve's x; and a
    /// precomposition stretched twice as long (`sr` 2) shows its frame 5 at the composition's frame 10.
    func testBezierEasingAndTimeStretch() throws {
        let eased = #"{"a":1,"k":[{"t":0,"s":[0,40],"o":{"x":[0.42],"y":[0]},"i":{"x":[1],"y":[1]}},{"t":10,"s":[80,40]}]}"#
        let json = F.file([F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 20, height: 20), F.fill(1, 0, 0)], position: eased)])
        let image = try frame(json, frame: 5, name: "eased")
        func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s }
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 { let mid = (lo + hi) / 2; if bezier(mid, 0.42, 1) < 0.5 { lo = mid } else { hi = mid } }
        let left = 80 * bezier(lo, 0, 1)
        // The column the edge falls in is partly covered; the ones either side whole and empty.
        let column = Int(left)
        XCTAssertEqual(image[column - 1, 50], RGBA8(255, 255, 255), "left of the edge at \(left)")
        XCTAssertEqual(image[column + 1, 50], red, "right of the edge at \(left)")
        XCTAssertEqual(Double(image[column, 50].g), 255 * (left - Double(column)), accuracy: 2, "the edge's pixel")
        let inner = F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 20, height: 20), F.fill(1, 0, 0)],
                                 position: F.keyframes([(0, "[0,0]"), (10, "[40,0]")]))
        let asset = #"{"id":"inner","layers":[\#(inner)]}"#
        let stretched = #"{"ddd":0,"ind":1,"ty":0,"refId":"inner","w":100,"h":100,"ks":\#(F.transform(position: F.value("[0,40]"))),"ip":0,"op":20,"st":0,"sr":2}"#
        assertImagesMatch(try frame(F.file([stretched], assets: [asset]), frame: 10, name: "stretch"), expected([(20, 40, 40, 60, red)]),
                          mean: 0, max: 0, name: "lottie-stretch")
    }

    func testAParentMovesItsChildAndAStartTimeLeavesALayersOwnKeyframes() throws {
        let parent = #"{"ddd":0,"ind":2,"ty":3,"nm":"null","ks":\#(F.transform(position: F.value("[10,30]"))),"ip":0,"op":20,"st":0,"sr":1}"#
        let json = F.file([F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 20, height: 20), F.fill(1, 0, 0)],
                                        position: F.keyframes([(0, "[0,0]"), (10, "[40,0]")]), parent: 2, start: 5), parent])
        // A layer's keyframes are in its composition's frames whatever its start time (as rlottie and lottie-web read
        // them; a start time shifts a precomposition's layers): at frame 5, 20 to the right, then the parent's (10, 30).
        assertImagesMatch(try frame(json, frame: 5, name: "parent"), expected([(30, 30, 50, 50, red)]), mean: 0, max: 0, name: "lottie-parent")
    }

    func testAnAlphaMatteShowsTheLayerOnlyInsideTheMatte() throws {
        let matte = F.shapeLayer(index: 1, items: [F.rectangle(x: 40, y: 0, width: 60, height: 100), F.fill(0, 0, 0)], extra: #","td":1"#)
        let matted = F.shapeLayer(index: 2, items: [F.rectangle(x: 20, y: 20, width: 40, height: 40), F.fill(1, 0, 0)], extra: #","tt":1"#)
        assertImagesMatch(try frame(F.file([matte, matted]), frame: 0, name: "matte"), expected([(40, 20, 60, 60, red)]), mean: 0, max: 0,
                          name: "lottie-matte")
    }

    /// A luma matte shows the layer by the matte's luminance: where the matte is white (x 40 to 70) wholly, mid grey
    /// (70 to 100) about half, nothing where the matte draws nothing (20 to 40); inverted, the other way round (grey
    /// still about half).
    func testALumaMatteShowsTheLayerByTheMattesLuminance() throws {
        let tr = #"{"ty":"tr","a":\#(F.value("[0,0]")),"p":\#(F.value("[0,0]")),"s":\#(F.value("[100,100]")),"r":\#(F.value("0")),"o":\#(F.value("100"))}"#
        let white = #"{"ty":"gr","it":[\#(F.rectangle(x: 40, y: 0, width: 30, height: 100)),\#(F.fill(1, 1, 1)),\#(tr)]}"#
        let grey = #"{"ty":"gr","it":[\#(F.rectangle(x: 70, y: 0, width: 30, height: 100)),\#(F.fill(0.5, 0.5, 0.5)),\#(tr)]}"#
        let matte = F.shapeLayer(index: 1, items: [white, grey], extra: #","td":1"#)
        // A layer drawn after them, unmasked, by the same kind of program the matte's layers drew with: its own colour.
        let after = F.shapeLayer(index: 7, items: [F.rectangle(x: 84, y: 84, width: 10, height: 10), F.fill(0, 0, 1)])
        for (tt, shown) in [(3, 40..<70), (4, 20..<40)] {
            let matted = F.shapeLayer(index: 2, items: [F.rectangle(x: 20, y: 20, width: 60, height: 40), F.fill(1, 0, 0)], extra: #","tt":\#(tt)"#)
            let image = try frame(F.file([after, matte, matted]), frame: 0, name: "luma-matte-\(tt)")
            XCTAssertEqual(image[88, 88], RGBA8(0, 0, 255), "the layer after the matte, tt \(tt)")
            for x in 20..<80 {
                // Red over white: green is 255 less 255 times the matte's coverage (grey 128: 128/255, or 127/255 inverted).
                let expected = x >= 70 ? 127.5 : shown.contains(x) ? 0 : 255
                XCTAssertEqual(Double(image[x, 40].g), expected, accuracy: 1, "x \(x), tt \(tt)")
            }
        }
    }

    /// A blend mode: a layer multiplied (`bm` 1) over a layer of mid grey darkens it to half; where nothing is under
    /// it, it draws as normal (the composition's canvas is transparent, as the peers draw it; the background comes last).
    func testABlendModeMeetsTheLayersUnderIt() throws {
        let grey = F.shapeLayer(index: 2, items: [F.rectangle(x: 0, y: 0, width: 50, height: 100), F.fill(0.5, 0.5, 0.5)])
        let multiplied = F.shapeLayer(index: 1, items: [F.rectangle(x: 20, y: 20, width: 60, height: 60), F.fill(1, 0.5, 0)],
                                      extra: #","bm":1"#)
        let image = try frame(F.file([multiplied, grey]), frame: 0, name: "blend-multiply")
        // Over grey 128: (255, 128, 0) x 128/255; over white: the colour itself.
        XCTAssertEqual(image[30, 50], RGBA8(128, 64, 0))
        XCTAssertEqual(image[70, 50], RGBA8(255, 128, 0))
        XCTAssertEqual(image[10, 50], RGBA8(128, 128, 128))
    }

    /// A matte layer's own masks clip the matted layer too (the matte, black on x 40 to 100, masked to 0 to 60: red
    /// shows on 40 to 60); inverted, the matte is drawn without them and says so.
    func testAMatteLayersOwnMasksClipItsLayer() throws {
        let box = #"{"c":true,"v":[[0,0],[60,0],[60,100],[0,100]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}"#
        let matte = F.shapeLayer(index: 1, items: [F.rectangle(x: 40, y: 0, width: 60, height: 100), F.fill(0, 0, 0)],
                                 extra: #","td":1,"masksProperties":[{"mode":"a","pt":{"a":0,"k":\#(box)},"o":{"a":0,"k":100}}]"#)
        let matted = F.shapeLayer(index: 2, items: [F.rectangle(x: 20, y: 20, width: 60, height: 40), F.fill(1, 0, 0)], extra: #","tt":1"#)
        let json = F.file([matte, matted])
        XCTAssertNil(try LottieAnimation(bytes: Array(json.utf8)).scene(width: 100, height: 100, background: RGBA8(255, 255, 255))
                        .drewWithout.line)
        assertImagesMatch(try frame(json, frame: 0, name: "matte-with-masks"), expected([(40, 20, 60, 60, red)]), mean: 0, max: 0,
                          name: "lottie-matte-with-masks")
        let invertedJSON = F.file([matte, matted.replacingOccurrences(of: #""tt":1"#, with: #""tt":2"#)])
        XCTAssertEqual(try LottieAnimation(bytes: Array(invertedJSON.utf8)).scene(width: 100, height: 100, background: RGBA8(255, 255, 255))
                        .drewWithout.line, "drew without: 1 mask on inverted or nested matte layers")
        assertImagesMatch(try frame(invertedJSON, frame: 0, name: "inverted-matte-with-masks"), expected([(20, 20, 40, 60, red)]), mean: 0, max: 0,
                          name: "lottie-inverted-matte-with-masks")
    }

    func testAnInvertedMatteAndMasksOfEveryModeShowWhatTheyShould() throws {
        let matte = F.shapeLayer(index: 1, items: [F.rectangle(x: 40, y: 0, width: 60, height: 100), F.fill(0, 0, 0)], extra: #","td":1"#)
        let matted = F.shapeLayer(index: 2, items: [F.rectangle(x: 20, y: 20, width: 40, height: 40), F.fill(1, 0, 0)], extra: #","tt":2"#)
        assertImagesMatch(try frame(F.file([matte, matted]), frame: 0, name: "inverted-matte"), expected([(20, 20, 40, 60, red)]),
                          mean: 0, max: 0, name: "lottie-inverted-matte")
        let box = #"{"c":true,"v":[[40,0],[100,0],[100,100],[40,100]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}"#
        let right = #"{"c":true,"v":[[50,0],[100,0],[100,100],[50,100]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}"#
        func mask(_ mode: String, _ inverted: Bool, _ path: String) -> String {
            #"{"mode":"\#(mode)","inv":\#(inverted),"pt":{"a":0,"k":\#(path)},"o":{"a":0,"k":100}}"#
        }
        // Folded in order: added, subtracted, an inverted one, an added one less a subtracted one.
        // After an added one: intersected, the difference, lightened, darkened, and an inverted one subtracted (their overlap).
        for (list, shown, name) in [([mask("s", false, box)], (20, 40), "s"), ([mask("a", true, box)], (20, 40), "a-inverted"),
                                    ([mask("a", false, box)], (40, 60), "a"), ([mask("a", false, box), mask("s", false, right)], (40, 50), "a-s"),
                                    ([mask("a", false, box), mask("i", false, right)], (50, 60), "a-i"),
                                    ([mask("a", false, box), mask("f", false, right)], (40, 50), "a-f"),
                                    ([mask("a", false, right), mask("l", false, box)], (40, 60), "a-l"),
                                    ([mask("a", false, box), mask("d", false, right)], (50, 60), "a-d"),
                                    ([mask("a", false, box), mask("s", true, right)], (50, 60), "a-s-inverted")] {
            let masks = #","masksProperties":[\#(list.joined(separator: ","))]"#
            let layer = F.shapeLayer(items: [F.rectangle(x: 20, y: 20, width: 40, height: 40), F.fill(1, 0, 0)], extra: masks)
            let name = "mask-\(name)"
            assertImagesMatch(try frame(F.file([layer]), frame: 0, name: name), expected([(shown.0, 20, shown.1, 60, red)]), mean: 0, max: 0,
                              name: "lottie-\(name)")
        }
    }

    func testAPrecompositionRunsOnItsLayersTime() throws {
        let inner = F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 20, height: 20), F.fill(1, 0, 0)],
                                 position: F.keyframes([(0, "[0,0]"), (10, "[40,0]")]))
        let asset = #"{"id":"inner","layers":[\#(inner)]}"#
        let precomp = #"{"ddd":0,"ind":1,"ty":0,"nm":"pre","refId":"inner","w":100,"h":100,"ks":\#(F.transform(position: F.value("[0,40]"))),"ip":0,"op":20,"st":4,"sr":1}"#
        // Root frame 9 is the precomposition's frame 5.
        assertImagesMatch(try frame(F.file([precomp], assets: [asset]), frame: 9, name: "precomp"), expected([(20, 40, 40, 60, red)]),
                          mean: 0, max: 0, name: "lottie-precomp")
    }

    /// Time remapping replaces the precomposition's time (its start time no longer counts): played backwards here,
    /// from its 1 s to 0 over the composition's frames 0 to 20.
    func testATimeRemappingChoosesThePrecompositionsTime() throws {
        let inner = F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 20, height: 20), F.fill(1, 0, 0)],
                                 position: F.keyframes([(0, "[0,0]"), (10, "[40,0]")]))
        let asset = #"{"id":"inner","layers":[\#(inner)]}"#
        let precomp = #"{"ddd":0,"ind":1,"ty":0,"nm":"pre","refId":"inner","w":100,"h":100,"ks":\#(F.transform(position: F.value("[0,40]"))),"tm":\#(F.keyframes([(0, "[1]"), (20, "[0]")])),"ip":0,"op":20,"st":4,"sr":1}"#
        // Frame 15: remapped to 0.25 s, the inner frame 2.5, its square 10 to the right.
        assertImagesMatch(try frame(F.file([precomp], assets: [asset]), frame: 15, name: "time-remap"), expected([(10, 40, 30, 60, red)]),
                          mean: 0, max: 0, name: "lottie-time-remap")
        // Frame 5: 0.75 s, the inner frame 7.5, 30 to the right.
        assertImagesMatch(try frame(F.file([precomp], assets: [asset]), frame: 5, name: "time-remap-early"), expected([(30, 40, 50, 60, red)]),
                          mean: 0, max: 0, name: "lottie-time-remap-early")
    }

    /// An embedded PNG drawn at its asset's size from its layer's origin.
    func testAnEmbeddedImageIsDrawnAtItsAssetsSize() throws {
        var image = RGBAImage(width: 2, height: 2)
        image[0, 0] = red
        image[1, 0] = RGBA8(0, 255, 0)
        image[0, 1] = RGBA8(0, 0, 255)
        image[1, 1] = black
        let path = try LottieFixtures.write("", name: "image.png")
        try PNG.write(image, to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString()
        let asset = #"{"id":"image_0","w":20,"h":20,"u":"","p":"data:image/png;base64,\#(data)","e":1}"#
        let layer = #"{"ddd":0,"ind":1,"ty":2,"refId":"image_0","ks":\#(F.transform(position: F.value("[40,40]"))),"ip":0,"op":20,"st":0,"sr":1}"#
        let drawn = try frame(F.file([layer], assets: [asset]), frame: 0, name: "image")
        // Shown at 20x20, each texel 10x10 pixels, sampled between texels (as Core Animation samples a picture):
        // the pixel by each texel's centre is 95% that texel's colour; past the image, white.
        func close(_ c: RGBA8, _ r: Int, _ g: Int, _ b: Int) -> Bool { abs(Int(c.r) - r) <= 26 && abs(Int(c.g) - g) <= 26 && abs(Int(c.b) - b) <= 26 }
        XCTAssert(close(drawn[45, 45], 255, 0, 0), "\(drawn[45, 45])")
        XCTAssert(close(drawn[54, 45], 0, 255, 0), "\(drawn[54, 45])")
        XCTAssert(close(drawn[45, 54], 0, 0, 255), "\(drawn[45, 54])")
        XCTAssert(close(drawn[54, 54], 0, 0, 0), "\(drawn[54, 54])")
        XCTAssertEqual(drawn[38, 45], RGBA8(255, 255, 255))
        XCTAssertEqual(drawn[61, 45], RGBA8(255, 255, 255))
    }

    /// A frame of a Lottie scene allocates nothing on either backend: a gradient, a mask that subtracts, a matte,
    /// an outline that changes (a trim), a repeater, colours keyframed.
    func testALottieFrameAllocatesNothingOnEitherBackend() throws {
        let box = #"{"c":true,"v":[[40,0],[100,0],[100,100],[40,100]],"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]]}"#
        let masked = F.shapeLayer(index: 1, items: [F.rectangle(x: 10, y: 10, width: 80, height: 80),
                                                    F.gradientFill(type: 2, start: (50, 50), end: (90, 50), count: 2, stops: [0, 1, 0, 0, 1, 0, 0, 1])],
                                  extra: #","masksProperties":[{"mode":"s","pt":{"a":0,"k":\#(box)},"o":{"a":0,"k":100}}]"#)
        let step = #"{"ty":"tr","a":\#(F.value("[0,0]")),"p":\#(F.value("[10,0]")),"s":\#(F.value("[100,100]")),"r":\#(F.value("0"))}"#
        let colour = F.fill(1, 0, 0).replacingOccurrences(of: #""c":\#(F.value("[1.0,0.0,0.0,1]"))"#,
                                                          with: #""c":\#(F.keyframes([(0, "[1,0,0,1]"), (20, "[0,0,1,1]")]))"#)
        let moving = F.shapeLayer(index: 2, items: [F.line([(10, 80), (90, 80)]), F.trim(start: 0, end: 100), F.stroke(width: 4, cap: 2),
                                                    F.rectangle(x: 5, y: 5, width: 5, height: 5), colour,
                                                    #"{"ty":"rp","c":\#(F.value("4")),"o":\#(F.value("0")),"tr":\#(step)}"#],
                                  position: F.keyframes([(0, "[0,0]"), (20, "[10,5]")]))
            .replacingOccurrences(of: #""e":\#(F.value("100.0"))"#, with: #""e":\#(F.keyframes([(0, "[5]"), (20, "[100]")]))"#)
        let scene = try LottieAnimation(bytes: Array(F.file([masked, moving]).utf8))
            .scene(width: 100, height: 100, background: RGBA8(255, 255, 255)).scene
        for renderer in [CPURenderer(), try glRenderer()] as [Renderer] {
            XCTAssertEqual(try frameAllocations(renderer, scene, step: 0.37), 0, "\(renderer.backend)")
        }
        // Masks that fold past their area (intersected, inverted), a luma matte, a blended layer, drawn over transparency.
        let folds = F.shapeLayer(index: 3, items: [F.rectangle(x: 10, y: 10, width: 80, height: 80), F.fill(0, 1, 0)],
                                 position: F.keyframes([(0, "[0,0]"), (20, "[10,5]")]),
                                 extra: #","bm":3,"masksProperties":[{"mode":"a","pt":{"a":0,"k":\#(box)},"o":{"a":0,"k":80}},{"mode":"i","inv":true,"pt":{"a":0,"k":\#(box)},"o":{"a":0,"k":60}},{"mode":"d","pt":{"a":0,"k":\#(box)},"o":{"a":0,"k":90}}]"#)
        let matte = F.shapeLayer(index: 4, items: [F.rectangle(x: 0, y: 30, width: 100, height: 40), F.fill(0.6, 0.6, 0.6)], extra: #","td":1"#)
        let lumaMatted = F.shapeLayer(index: 5, items: [F.rectangle(x: 20, y: 0, width: 30, height: 100), F.fill(0, 0, 1)],
                                      position: F.keyframes([(0, "[0,0]"), (20, "[30,0]")]), extra: #","tt":4"#)
        let blended = try LottieAnimation(bytes: Array(F.file([folds, matte, lumaMatted, moving]).utf8))
            .scene(width: 100, height: 100, background: RGBA8(255, 255, 255)).scene
        for renderer in [CPURenderer(), try glRenderer()] as [Renderer] {
            XCTAssertEqual(try frameAllocations(renderer, blended, step: 0.37), 0, "\(renderer.backend): mask modes, luma, blending")
        }
        // A growing ellipse (curves, cut into more chords than its outline has elements) repeated 60 times: GL's polygon
        // storage is sized for every copy's chords once.
        let ellipse = #"{"ty":"el","p":\#(F.value("[10,10]")),"s":\#(F.keyframes([(0, "[4,4]"), (20, "[30,30]")]))}"#
        let many = F.shapeLayer(index: 6, items: [ellipse, F.fill(1, 0, 0), #"{"ty":"rp","c":\#(F.value("60")),"o":\#(F.value("0")),"tr":\#(step)}"#])
        let repeated = try LottieAnimation(bytes: Array(F.file([many]).utf8)).scene(width: 100, height: 100, background: RGBA8(255, 255, 255)).scene
        for renderer in [CPURenderer(), try glRenderer()] as [Renderer] {
            XCTAssertEqual(try frameAllocations(renderer, repeated, step: 0.37), 0, "\(renderer.backend): 60 copies of a changing curve")
        }
    }

    /// Files no one should draw: one line of Waves' own each, never a crash.
    func testHostileFilesAreRefusedWithOneLine() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let selfContaining = F.file([#"{"ind":1,"ty":0,"refId":"a","ks":{},"ip":0,"op":20,"st":0}"#],
                                    assets: [#"{"id":"a","layers":[{"ind":1,"ty":0,"refId":"a","ks":{},"ip":0,"op":20,"st":0}]}"#])
        let cycle = F.file([#"{"ind":1,"ty":3,"parent":2,"ks":{},"ip":0,"op":20,"st":0}"#, #"{"ind":2,"ty":3,"parent":1,"ks":{},"ip":0,"op":20,"st":0}"#])
        // Precompositions in precompositions stretched by 1e-200 each: their times would vanish (and a remapping divide by them).
        let vanishing = F.file([#"{"ind":1,"ty":0,"refId":"a","ks":{},"ip":0,"op":20,"st":0,"sr":1e-200}"#],
                               assets: [#"{"id":"a","layers":[{"ind":1,"ty":0,"refId":"b","ks":{},"ip":0,"op":20,"st":0,"sr":1e-200,"tm":{"a":0,"k":1}}]}"#,
                                        #"{"id":"b","layers":[]}"#])
        let cases: [(String, String)] = [
            ("{\"w\": 100,", "truncated"),
            (vanishing, "expected times that stay finite"),
            ("not json", "expected a value"),
            (deep, "nested deeper than"),
            (F.file([]).replacingOccurrences(of: "\"w\":100", with: "\"w\":1e300"), "expected sides"),
            (F.file([]).replacingOccurrences(of: "\"w\":100", with: "\"w\":1e999"), "finite"),
            (F.file([]).replacingOccurrences(of: "\"op\":20", with: "\"op\":0"), "out point"),
            // 100 MB of white space round an object that is not an animation.
            (String(repeating: " ", count: 100 << 20) + "{}", "no 'w'"),
            // A dashed circle trimmed over 300,000 frames: its outline at every frame would pass the points one file may hold.
            (F.file([F.shapeLayer(items: [#"{"ty":"el","p":\#(F.value("[50,50]")),"s":\#(F.value("[80,80]"))}"#,
                                          F.trim(start: 0, end: 100).replacingOccurrences(of: #""e":\#(F.value("100.0"))"#,
                                                                                          with: #""e":\#(F.keyframes([(0, "[0]"), (300_000, "[100]")]))"#),
                                          F.stroke(width: 2, cap: 2, dash: (1, 1))])])
                .replacingOccurrences(of: "\"op\":20", with: "\"op\":300000"), "points in all"),
            (F.file([F.shapeLayer(items: [F.rectangle(x: 0, y: 0, width: 1, height: 1), F.fill(1, 0, 0),
                                          #"{"ty":"rp","c":\#(F.value("1e300")),"tr":{}}"#])]), "at most 1000"),
            (selfContaining, "contains itself"),
            (cycle, "cycle"),
            (F.file([#"{"ind":1,"ty":2,"refId":"i","ks":{},"ip":0,"op":20,"st":0}"#],
                    assets: [#"{"id":"i","w":2,"h":2,"p":"data:image/png;base64,\#(Data("GIF89a not a png".utf8).base64EncodedString())","e":1}"#]),
             "not a PNG"),
        ]
        for (json, says) in cases {
            XCTAssertThrowsError(try LottieAnimation(bytes: Array(json.utf8)).scene(width: 50, height: 50, background: RGBA8(0, 0, 0))) { error in
                let line = "\(error)"
                XCTAssert(error is LottieError, "\(says): \(type(of: error))")
                XCTAssert(line.contains(says), "\(line) should say \(says)")
                XCTAssertFalse(line.contains("\n"))
            }
        }
    }
}
