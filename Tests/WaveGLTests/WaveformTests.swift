import WaveCore
import WaveEffects
@testable import WaveGL
import WaveTestSupport
import XCTest

/// The audio waveform's pixels: against references computed here from the
/// contract (bars are rectangles, or rounded by quadratic corners), and the
/// GL strategy (both compositions of the split) against the CPU.
final class WaveformTests: XCTestCase {
    private let peaks: [Float] = [0.5, 1, 0.25, 0.8, 0, 0.6, 0.37, 0.9, 0.1, 0.75, 0.55, 0.3, 0.95, 0.2, 0.65,
                                  0.45, 0.05, 0.85, 0.4, 0.7, 0.15, 0.6, 0.33, 0.99, 0.5, 0.25, 0.8, 0.1, 0.6, 0.4]

    private func waveform(fit: Bool = false, radius: Double = 0) -> Waveform {
        var w = Waveform(width: 64, height: 40, peaks: peaks, duration: 9)
        w.barWidth = 2
        w.barGap = 1
        w.pixelsPerSecond = 10
        w.playhead = 0.4
        w.fit = fit
        w.barRadius = radius
        w.playedTop = RGBA8(255, 85, 0)
        w.playedBottom = RGBA8(255, 200, 40, 220)
        w.unplayed = RGBA8(176, 176, 184)
        w.background = RGBA8(16, 24, 42)
        return w
    }

    /// The contract's picture at offset u, written out from its definition;
    /// `vertical(x, y)` is the covered fraction of pixel (x, y) given its bar.
    private func reference(_ w: Waveform, u: Double, split: Int,
                           coverage: (_ bar: Int, _ barX: Double, _ x: Int, _ y: Int, _ h: Double) -> Double) -> RGBAImage {
        var image = RGBAImage(width: w.width, height: w.height, fill: w.background)
        let peaks = w.peaks
        let scale = 1 / Double(peaks.max()!), H = Double(w.height), p = w.pitch
        for y in 0..<w.height {
            for x in 0..<w.width {
                let cx = Double(x) + u
                guard cx >= 0 else { continue }
                let bar = Int(cx) / p
                guard bar < peaks.count else { continue }
                let c = coverage(bar, Double(bar * p), x, y, Double(peaks[bar]) * H * scale)
                guard c > 0 else { continue }
                if x < split {
                    let t = (Double(y) + 0.5) / H
                    func mix(_ a: UInt8, _ b: UInt8) -> Double { Double(a) + (Double(b) - Double(a)) * t }
                    let top = w.playedTop, bottom = w.playedBottom!
                    let sa = mix(top.a, bottom.a) / 255 * c
                    func channel(_ s: Double, _ d: UInt8) -> UInt8 { UInt8((s * sa + Double(d) * (1 - sa)).rounded()) }
                    image[x, y] = RGBA8(channel(mix(top.r, bottom.r), w.background.r), channel(mix(top.g, bottom.g), w.background.g),
                                        channel(mix(top.b, bottom.b), w.background.b))
                } else {
                    image[x, y] = Reference.composite(w.unplayed, c, w.background)
                }
            }
        }
        return image
    }

    /// Square bars: the covered fraction is the vertical overlap inside the bar's columns.
    private func squareCoverage(_ w: Waveform) -> (Int, Double, Int, Int, Double) -> Double {
        { _, barX, x, y, h in
            let cx = Double(x) + 0.5 // whole-pixel offsets: a column is all in or all out
            _ = cx
            let top = (Double(w.height) - h) / 2, bottom = top + h
            return max(0, min(Double(y + 1), bottom) - max(Double(y), top))
        }
    }

    /// The CPU frames of the default composition, or the GL frames of `method`'s.
    private func frames(_ w: Waveform, _ times: [Double], gl method: SplitMethod? = nil) throws -> [RGBAImage] {
        var w = w
        w.composition = method ?? w.composition
        let renderer: Renderer = method == nil ? CPURenderer() : try glRenderer()
        return try Frames.render(renderer, try w.scene(), at: times)
    }

    func testSquareBarsAtWholePixelOffsetsMatchTheExactPictureOnBothBackends() throws {
        let w = waveform()
        let times = [0.0, 2.5, 4.1, 7.7] // u = 10t - 26: whole pixels (-26, -1, 15, 51)
        let cpu = try frames(w, times)
        for (i, t) in times.enumerated() {
            let u = t * 10 - 26
            // Columns of bar i: [3i, 3i + 2): in a bar when (x + u) mod 3 < 2.
            let expected = reference(w, u: u, split: 26) { _, barX, x, y, h in
                Double(x) + u - barX < 2 ? self.squareCoverage(w)(0, barX, x, y, h) : 0
            }
            assertImagesMatch(cpu[i], expected, mean: 0.5, max: 1, name: "waveform-exact-\(i)")
            for method in SplitMethod.allCases {
                let gl = try frames(w, [t], gl: method)[0]
                assertImagesMatch(gl, cpu[i], mean: 0.05, max: 1, name: "waveform-gl-\(method.rawValue)-\(i)")
            }
        }
    }

    func testThePlayheadSplitsAtItsColumnAndTheGridDoesNotMove() throws {
        var w = waveform()
        w.playedBottom = nil // one played colour, to read the split off the pixels
        let first = try frames(w, [3.0])[0] // u = 4
        let row = 20 // the middle row: every bar with a peak covers it fully
        for x in 0..<w.width where first[x, row] != w.background {
            XCTAssertEqual(first[x, row], x < 26 ? w.playedTop : w.unplayed, "column \(x)")
        }
        // 0.7 s later the content has moved 7 whole pixels left; the bars are the same bars.
        w.unplayed = w.playedTop
        let (a, b) = (try frames(w, [3.0])[0], try frames(w, [3.7])[0])
        for y in 0..<w.height { for x in 0..<(w.width - 7) { XCTAssertEqual(b[x, y], a[x + 7, y], "(\(x), \(y))") } }
    }

    func testFitModeFillsTheWidthAndMovesOnlyThePlayhead() throws {
        var w = waveform(fit: true)
        w.width = 63
        w.peaks = Array(peaks.prefix(21)) // 21 bars of pitch 3: exactly the width
        w.duration = 21 * 3 / 63.0 * 10
        for t in [0.0, 3.3, 9.84] {
            let split = Int((63 * t / w.duration).rounded())
            let expected = reference(w, u: 0, split: split) { _, barX, x, y, h in
                Double(x) - barX < 2 ? self.squareCoverage(w)(0, barX, x, y, h) : 0
            }
            let cpu = try frames(w, [t])[0]
            assertImagesMatch(cpu, expected, mean: 0.5, max: 1, name: "waveform-fit-\(t)")
            for method in SplitMethod.allCases {
                // Mostly played, translucent gradient bars: the GL blend unit rounds the premultiplied
                // colour to 8 bits before blending (one level off in about a fifth of the pixels).
                assertImagesMatch(try frames(w, [t], gl: method)[0], cpu, mean: 0.1, max: 1,
                                  name: "waveform-fit-gl-\(method.rawValue)-\(t)")
            }
        }
        // A grid that does not divide the width is stretched to fill it exactly.
        w.width = 100
        // The bars are one fixed shape (in the first clip's layer).
        guard case let .shape(bars)? = try w.scene().tree?.root.sublayers[0].sublayers[0].contents,
              case let .fixed(path) = bars.path else { return XCTFail("no bars shape") }
        XCTAssertEqual(path.bounds?.maxX ?? 0, 100 - 1.0 * 100 / 63, accuracy: 1e-9, "the last bar ends a gap short of the width")
    }

    /// Rounded ends are quadratic corners: the top edge in a corner of radius r
    /// starting at bx is y = top + r * (1 - sqrt((x - bx) / r))^2.
    func testRoundedBarsMatchANumericallyIntegratedReference() throws {
        var w = waveform(radius: 3)
        w.barWidth = 6
        w.barGap = 2
        let u = 10.0 * 3.3 - 26 // 7 px
        let expected = reference(w, u: u, split: 26) { _, barX, x, y, h in
            let top = (Double(w.height) - h) / 2, bottom = top + h, width = 6.0
            let r = min(3, width / 2, h / 2)
            var covered = 0.0
            let samples = 512
            for s in 0..<samples {
                let lx = Double(x) + u + (Double(s) + 0.5) / Double(samples) - barX // x within the bar
                guard lx >= 0, lx <= width else { continue }
                let fromEdge = min(lx, width - lx)
                let inset = fromEdge < r ? r * pow(1 - (fromEdge / r).squareRoot(), 2) : 0
                covered += max(0, min(Double(y + 1), bottom - inset) - max(Double(y), top + inset))
            }
            return covered / Double(samples)
        }
        let cpu = try frames(w, [3.3])[0]
        assertImagesMatch(cpu, expected, mean: 0.5, max: 8, name: "waveform-rounded")
        assertImagesMatch(try frames(w, [3.3], gl: .mask)[0], cpu, mean: 0.05, max: 1, name: "waveform-rounded-gl")
    }

    func testOptionsOutsideTheContractNameTheOption() {
        func option(_ change: (inout Waveform) -> Void) -> String? {
            var w = waveform()
            change(&w)
            do { _ = try w.scene(); return nil } catch let e as ValueError { return e.parameter } catch { return "\(error)" }
        }
        XCTAssertNil(option { _ in })
        XCTAssertEqual(option { $0.barWidth = 0 }, "bar-width")
        XCTAssertEqual(option { $0.barGap = -1 }, "bar-gap")
        XCTAssertEqual(option { $0.pixelsPerSecond = .nan }, "pixels-per-second")
        XCTAssertEqual(option { $0.pixelsPerSecond = 0 }, "pixels-per-second")
        XCTAssertEqual(option { $0.playhead = 1.5 }, "playhead")
        XCTAssertEqual(option { $0.barRadius = -1 }, "bar-radius")
        XCTAssertEqual(option { $0.amplitudeScale = 0 }, "amplitude-scale")
    }
}

/// A three-hour track: 180,000 bars, 540,000 columns of coverage in tiles on
/// the GPU; the frame near its end is the CPU's, and a frame still sets a few
/// uniforms and draws one quad per pass, whatever the length.
final class LongTrackTests: XCTestCase {
    func testAThreeHourTrackDrawsOnBothBackends() throws {
        let gl = try GLRequirement.need("a headless GL context") { try GLRenderer() }
        let bars = 3 * 3600 * 50 / 3 // 3 h at 50 px/s with a 3 px pitch
        var peaks = [Float](repeating: 0, count: bars)
        for i in 0..<bars { peaks[i] = Float((i * 7919) % 101) / 100 }
        var w = Waveform(width: 320, height: 40, peaks: peaks, duration: 3 * 3600)
        w.playedBottom = RGBA8(255, 220, 0)
        let scene = try w.scene()
        let t = 3 * 3600 - 7.0 // u = t * 50 - 160, a whole pixel, near the end
        let glFrame = try Frames.render(gl, scene, at: [t])[0]
        let cpuFrame = try Frames.render(CPURenderer(), scene, at: [t])[0]
        assertImagesMatch(glFrame, cpuFrame, mean: 0.05, max: 1, name: "waveform-three-hours")
        XCTAssertNotEqual(cpuFrame[300, 20], scene.background, "no bars drawn near the end")
    }
}

/// Two pre-painted clips (the post's last method): each painting
/// rasterized once, so a frame paints nothing per pixel; at whole pixels
/// it is the mask's frame and the CPU's, across the tiles a long picture
/// is cut into.
final class TwoPrePaintedClipsTests: XCTestCase {
    private func track(bars: Int, split: SplitMethod) -> Waveform {
        var w = Waveform(width: 300, height: 60, peaks: (0..<bars).map { Float(0.15 + 0.8 * abs(sin(Double($0) * 0.37))) },
                         duration: Double(bars * 3) / 50)
        (w.pixelsPerSecond, w.snapToPixel, w.composition) = (50, true, split)
        w.playedBottom = RGBA8(255, 210, 40)
        return w
    }

    func testTwoClipsPaintNothingPerFrameAndEqualTheMaskAndTheCPU() throws {
        let gl = try GLRequirement.need("a headless GL context") { try GLRenderer() }
        // 2000 bars: 6000 columns, more than one row of the atlas (two tiles); u = 4090 at t = 84.8, by a tile's edge.
        let times = [84.8, 85.0, 30.2]
        let clips = try track(bars: 2000, split: .twoClips).scene(), masked = try track(bars: 2000, split: .mask).scene()
        let twoClips = try Frames.render(gl, clips, at: times)
        XCTAssertEqual(gl.treePaintsThisFrame, 0, "pre-painted: no paint evaluated for the bars")
        XCTAssertEqual(gl.treeRasterPictures?.instances(of: 0), 2, "6002 columns in two tiles")
        let mask = try Frames.render(gl, masked, at: times)
        XCTAssertEqual(gl.treePaintsThisFrame, 2, "the mask paints both paintings per pixel every frame")
        let cpu = try Frames.render(CPURenderer(), clips, at: times)
        for i in times.indices {
            assertImagesMatch(twoClips[i], mask[i], mean: 1, max: 8, name: "two-clips-against-mask-\(i)")
            assertImagesMatch(twoClips[i], cpu[i], mean: 0.05, max: 2, name: "two-clips-against-cpu-\(i)")
        }
    }

    /// A picture wider than a row of the atlas is drawn from tiles that each
    /// read one column of their neighbours: fine stripes at half a pixel
    /// blend to one grey on every column, the tiles' edge included.
    func testATiledPictureHasNoSeamBetweenTiles() throws {
        let gl = try GLRequirement.need("a headless GL context") { try GLRenderer() }
        var b = PathBuilder()
        for k in 0..<3000 { try b.rectangle(x: Double(2 * k), y: 0, width: 1, height: 20) }
        var stripes = Layer(name: "stripes", frame: Rect(x: 0, y: 10, width: 6000, height: 20),
                            contents: .shape(Shape(path: b.path, fill: .solid(RGBA8(255, 255, 255)))))
        stripes.shouldRasterize = true
        stripes.transform.translationX = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: -6000, duration: 6000))])
        let frame = Rect(x: 0, y: 0, width: 300, height: 40)
        let scene = Scene(width: 300, height: 40, background: RGBA8(0, 0, 0), tree: LayerTree(root: Layer(frame: frame, sublayers: [stripes])))
        // Half a pixel off: every pixel samples between a white and a clear texel; the tiles meet near column 148.
        let image = try Frames.render(gl, scene, at: [3943.5])[0]
        XCTAssertEqual(gl.treeRasterPictures?.instances(of: 0), 2)
        let grey = Int(image[0, 20].r)
        XCTAssertEqual(Double(grey), 127.5, accuracy: 3)
        for x in 0..<300 { XCTAssertEqual(Double(image[x, 20].r), Double(grey), accuracy: 2, "column \(x)") }
    }
}

