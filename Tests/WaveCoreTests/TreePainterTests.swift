import CMallocCounter
import WaveCore
import WaveTestSupport
import XCTest

/// The CPU strategy drawing the layer tree: every primitive (fixed and
/// dynamic shapes, boxes with corners and borders, pictures) under
/// transforms, opacity, replicator tints, clips and masks, against the
/// independent sampled reference (`CoverageReference`) or against the flat
/// model's own drawing of the same path.
final class TreePainterTests: XCTestCase {
    private let background = RGBA8(0x10, 0x18, 0x2A)

    private func render(_ root: Layer, width: Int = 64, height: Int = 48, sources: [Level] = [], at t: Double = 0) throws -> RGBAImage {
        let scene = Scene(width: width, height: height, background: background, tree: LayerTree(root: root, sources: sources))
        return try Frames.render(CPURenderer(), scene, at: [t])[0]
    }

    private func root(_ sublayers: [Layer], width: Double = 64, height: Double = 48) -> Layer {
        Layer(name: "root", frame: Rect(x: 0, y: 0, width: width, height: height), sublayers: sublayers)
    }

    private func blank(_ w: Int = 64, _ h: Int = 48) -> RGBAImage { RGBAImage(width: w, height: h, fill: background) }

    func testABoxWithRoundedCornersMatchesTheSampledReference() throws {
        let frame = Rect(x: 10.5, y: 7.25, width: 30, height: 20)
        let box = Layer(name: "box", frame: frame, contents: .box(Box(color: RGBA8(255, 120, 0), cornerRadius: 6)))
        let image = try render(root([box]))
        var expected = blank()
        CoverageReference.paint(&expected, inside: CoverageReference.roundedRect(frame, radius: 6), color: RGBA8(255, 120, 0))
        assertImagesMatch(image, expected, mean: 0.3, max: 12, name: "tree-box")
    }

    func testABoxRotatedAndScaledAboutItsAnchorMatchesTheReference() throws {
        var box = Layer(name: "box", frame: Rect(x: 16, y: 12, width: 24, height: 16),
                        contents: .box(Box(color: RGBA8(40, 200, 255, 200), cornerRadius: 3)))
        box.transform = AnimatableTransform(rotation: 0.4, scaleX: 1.3, scaleY: 0.8)
        let image = try render(root([box]))
        // position + R S (p - anchor), with the box's own coordinates 0..w, 0..h.
        let m = Affine.translation(28, 20).concatenating(after: Affine.rotation(0.4).concatenating(after: Affine.scale(1.3, 0.8)))
            .concatenating(after: .translation(-12, -8))
        var expected = blank()
        CoverageReference.paint(&expected, inside: CoverageReference.roundedRect(Rect(x: 0, y: 0, width: 24, height: 16), radius: 3, transform: m),
                                color: RGBA8(40, 200, 255, 200))
        assertImagesMatch(image, expected, mean: 0.3, max: 16, name: "tree-box-rotated")
    }

    /// Items side by side, not overlapping, with the same slanted edges (so
    /// the same coverage levels) in different colours and opacities: every
    /// pixel of the frame is that item's drawn alone. The edge pixels'
    /// blend terms are made once per item and level; one item's must never
    /// serve another's.
    func testEachItemsEdgesAreItsOwnColourBesideOthersWithTheSameEdges() throws {
        let colours = [RGBA8(255, 120, 0), RGBA8(30, 200, 90, 160), RGBA8(40, 60, 255), RGBA8(250, 250, 250, 90)]
        func item(_ k: Int, shape: Bool) throws -> Layer {
            let frame = Rect(x: 4 + Double(k) * 30, y: 10, width: 18, height: 24)
            var layer: Layer
            if shape {
                var builder = PathBuilder()
                try builder.move(to: 0, 3); try builder.line(to: 18, 0); try builder.line(to: 15, 24); try builder.line(to: 2, 20); builder.close()
                layer = Layer(name: "shape \(k)", frame: frame, contents: .shape(Shape(path: builder.path, fill: .solid(colours[k]))))
            } else {
                layer = Layer(name: "box \(k)", frame: frame, contents: .box(Box(color: colours[k], cornerRadius: 4)))
            }
            layer.transform = AnimatableTransform(rotation: 0.3)
            layer.opacity = Timeline(k == 2 ? 0.7 : 1)
            return layer
        }
        for shape in [false, true] {
            let all = try render(root((0..<4).map { try item($0, shape: shape) }, width: 124), width: 124)
            for k in 0..<4 {
                let alone = try render(root([try item(k, shape: shape)], width: 124), width: 124)
                for y in 0..<48 {
                    for x in (Int(Double(k) * 30 - 4))..<Int(Double(k) * 30 + 30) where (0..<124).contains(x) {
                        XCTAssertEqual(all[x, y], alone[x, y], "\(shape ? "shape" : "box") \(k) at (\(x), \(y))")
                    }
                }
            }
        }
    }

    func testABorderIsARingInsideTheEdgeOverTheFill() throws {
        let frame = Rect(x: 8, y: 8, width: 40, height: 30)
        let box = Layer(name: "box", frame: frame, contents: .box(Box(color: RGBA8(0, 0, 255), cornerRadius: 0, borderWidth: 3,
                                                                         borderColor: RGBA8(255, 255, 255))))
        let image = try render(root([box]))
        XCTAssertEqual(image[9, 20], RGBA8(255, 255, 255))  // in the ring
        XCTAssertEqual(image[11, 20], RGBA8(0, 0, 255))     // inside it
        XCTAssertEqual(image[28, 9], RGBA8(255, 255, 255))
        XCTAssertEqual(image[28, 23], RGBA8(0, 0, 255))
        XCTAssertEqual(image[6, 20], background)
    }

    /// A fixed path moved by whole pixels is the same path with its points
    /// moved by those pixels, drawn unmoved: the same pixels.
    func testAFixedShapeTranslatedEqualsThePathMovedByThePixels() throws {
        var b = PathBuilder()
        try b.move(to: 2, 30); try b.quad(control: 20, -10, to: 38, 30); b.close()
        try b.rectangle(x: 10, y: 12, width: 14.5, height: 9.25)
        let path = b.path
        let fill = Fill.solid(RGBA8(255, 200, 40, 220))
        var shape = Layer(name: "shape", frame: Rect(x: 0, y: 0, width: 40, height: 40), contents: .shape(Shape(path: path, fill: fill)))
        shape.position = AnimatablePoint(20 + 13, 20 + 5)
        let image = try render(root([shape]))
        var moved = PathBuilder()
        for element in path.elements {
            switch element {
            case let .move(p): try moved.move(to: p.x + 13, p.y + 5)
            case let .line(p): try moved.line(to: p.x + 13, p.y + 5)
            case let .quad(c, p): try moved.quad(control: c.x + 13, c.y + 5, to: p.x + 13, p.y + 5)
            }
        }
        let still = Layer(name: "moved", frame: Rect(x: 0, y: 0, width: 64, height: 48), contents: .shape(Shape(path: moved.path, fill: fill)))
        let expected = try render(root([still]))
        assertImagesMatch(image, expected, mean: 0, max: 0, name: "tree-shape-vs-moved-path")
    }

    /// Copy k of a replicator: the instance transform k times, the tint
    /// instanceColor + k offsets: the same as k separately placed boxes.
    func testReplicatorCopiesAreCumulativeAndTinted() throws {
        let dot = Layer(name: "dot", frame: Rect(x: 2, y: 20, width: 6, height: 6), contents: .box(Box(color: RGBA8(255, 255, 255))))
        var replicator = Layer(name: "row", frame: Rect(x: 0, y: 0, width: 64, height: 48), sublayers: [dot])
        replicator.replicator = Replicator(count: 5, instanceTransform: AnimatableTransform(translationX: 12),
                                           instanceColor: Tint(r: 1, g: 1, b: 1, a: 1), colorOffset: Tint(r: 0, g: -0.25, b: -0.5, a: 0))
        let image = try render(root([replicator]))
        var expected = blank()
        for k in 0..<5 {
            let g = UInt8((max(0, 1 - 0.25 * Double(k)) * 255).rounded()), bl = UInt8((max(0, 1 - 0.5 * Double(k)) * 255).rounded())
            CoverageReference.paint(&expected, inside: CoverageReference.roundedRect(Rect(x: 2 + 12 * Double(k), y: 20, width: 6, height: 6), radius: 0),
                                    color: RGBA8(255, g, bl))
        }
        assertImagesMatch(image, expected, mean: 0.05, max: 1, name: "tree-replicator")
    }

    func testMasksToBoundsClipsSublayersAndAMaskMultipliesCoverage() throws {
        let big = Layer(name: "big", frame: Rect(x: -10, y: -10, width: 100, height: 100), contents: .box(Box(color: RGBA8(0, 255, 0))))
        var clip = Layer(name: "clip", frame: Rect(x: 10, y: 10, width: 20, height: 15), sublayers: [big])
        clip.masksToBounds = true
        var masked = Layer(name: "masked", frame: Rect(x: 34, y: 4, width: 26, height: 40),
                           contents: .box(Box(color: RGBA8(255, 0, 0))))
        masked.mask = Layer(name: "mask", frame: Rect(x: 0, y: 20, width: 26, height: 20),
                            contents: .box(Box(color: RGBA8(0, 0, 0, 128))))
        let image = try render(root([clip, masked]))
        XCTAssertEqual(image[10, 10], RGBA8(0, 255, 0))
        XCTAssertEqual(image[29, 24], RGBA8(0, 255, 0))
        XCTAssertEqual(image[9, 10], background)
        XCTAssertEqual(image[30, 12], background)
        XCTAssertEqual(image[40, 10], background, "outside the mask")
        XCTAssertEqual(image[40, 30], Reference.composite(RGBA8(255, 0, 0), 128.0 / 255, background), "under the half mask")
    }

    /// A dynamic path that holds its outline as a path: emitted by hand here, point by point (`outline`), or
    /// handed to the painter to emit itself (`storedOutline`, with `stored`).
    private struct HeldOutline: DynamicPath, Equatable {
        let path: Path
        let stored: Bool

        func outline<Sink: OutlineSink>(_ input: ShapeInput, into sink: Sink) {
            var pen = Point(0, 0), open = false
            for element in path.elements {
                switch element {
                case let .move(p):
                    if open { sink.close() }
                    sink.move(to: p.x, p.y)
                    (pen, open) = (p, true)
                case let .line(p):
                    sink.line(to: p.x, p.y)
                    pen = p
                case let .quad(control, end):
                    sink.quad(from: pen, control: control, to: end)
                    pen = end
                }
            }
            if open { sink.close() }
        }

        func storedOutline(_ input: ShapeInput) -> Path? { stored ? path : nil }
        var maxPoints: Int { 64 }
        func reach(size: Size) -> Rect { Rect(x: -10, y: -10, width: 60, height: 60) }
    }

    /// The painter emits a stored outline itself (`Path.emit`): the frames are byte for byte those of the
    /// same outline emitted by its dynamic path, two sub-paths with curves, turned and scaled.
    func testAStoredOutlineDrawsAsItsDynamicPathEmitsIt() throws {
        var b = PathBuilder()
        try b.move(to: 2, 30); try b.quad(control: 20, -10, to: 38, 30); try b.line(to: 30, 36); b.close()
        try b.move(to: 10, 5); try b.line(to: 25, 8); try b.quad(control: 30, 20, to: 12, 18)
        func scene(stored: Bool) -> Layer {
            var layer = Layer(name: "held", frame: Rect(x: 12, y: 6, width: 40, height: 40),
                              contents: .shape(Shape(dynamic: HeldOutline(path: b.path, stored: stored), fill: .solid(RGBA8(250, 120, 30)))))
            layer.transform.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 1.2, duration: 1))])
            layer.transform.scaleX = .constant(1.3)
            return root([layer])
        }
        for t in [0, 0.35, 0.8] {
            assertImagesMatch(try render(scene(stored: true), at: t), try render(scene(stored: false), at: t), mean: 0, max: 0,
                              name: "stored-outline-\(t)")
        }
    }

    /// Edge pixels are composited in fixed point (`EdgeBlend`): against source over worked here in doubles, every
    /// channel within one level, and off by one only where the exact value lies within a hair of a half.
    func testEdgePixelsInIntegersAreSourceOverWithinOneLevel() {
        var random = SeededGenerator(seed: 43)
        var channels = 0, off = 0
        for trial in 0..<60 {
            let whole = trial % 4 == 0
            func channel() -> Double { whole ? Double(Int.random(in: 0...255, using: &random)) : Double.random(in: 0...255, using: &random) }
            let color = ColorValue(r: channel(), g: channel(), b: channel(), a: trial % 3 == 0 ? 255 : Double.random(in: 0...255, using: &random))
            let opacity = trial % 2 == 0 ? 1 : Double.random(in: 0...1, using: &random)
            let edges = EdgeBlend(color: color, opacity: opacity)
            for level in 1...255 {
                let sa = color.a / 255 * (Double(level) / 255 * opacity)
                for d in stride(from: 0, through: 255, by: 15) {
                    let under = RGBA8(UInt8(d), UInt8(255 - d), UInt8(d / 2), 255)
                    let out = RGBA8(packed: edges.onto(under.packed, level: level))
                    XCTAssertEqual(out.a, 255)
                    for (source, below, got) in [(color.r, under.r, out.r), (color.g, under.g, out.g), (color.b, under.b, out.b)] {
                        let exact = source * sa + Double(below) * (1 - sa)
                        let expected = (exact + 0.5).rounded(.down)
                        channels += 1
                        guard Double(got) != expected else { continue }
                        off += 1
                        XCTAssertEqual(Double(got), expected, accuracy: 1, "level \(level) over \(below): \(exact)")
                        XCTAssertLessThan(abs(exact - exact.rounded(.down) - 0.5), 0.01, "off by one away from a half: \(exact)")
                    }
                }
            }
        }
        XCTAssertLessThan(Double(off) / Double(channels), 0.002, "\(off) of \(channels) channels off by one")
        // Red and blue share their products: each channel as it would come alone, (c sa + d (65536 - sa) 256 + 2^23) >> 24.
        for trial in 0..<40 {
            let r = Double.random(in: 0...255, using: &random), g = Double.random(in: 0...255, using: &random)
            let b = Double.random(in: 0...255, using: &random), a = trial % 2 == 0 ? 255 : Double.random(in: 0...255, using: &random)
            let edges = EdgeBlend(color: ColorValue(r: r, g: g, b: b, a: a), opacity: trial % 3 == 0 ? 1 : Double.random(in: 0...1, using: &random))
            let colour = [edges.redBlue & 0xFFFF_FFFF, edges.green, edges.redBlue >> 32]
            for level in 1...255 {
                let sa = (UInt64(level) * edges.scale + 128) >> 8
                for _ in 0..<16 {
                    let d = UInt32.random(in: 0...0xFF_FFFF, using: &random) | 0xFF00_0000
                    var alone: UInt32 = 0xFF00_0000
                    for k in 0..<3 {
                        let shift = 8 * UInt32(k), under = UInt64(d >> shift & 0xFF)
                        let sum: UInt64 = colour[k] * sa + under * ((65536 - sa) << 8) + (1 << 23)
                        alone |= UInt32(sum >> 24) << shift
                    }
                    XCTAssertEqual(edges.onto(d, level: level), alone, "level \(level) onto \(String(d, radix: 16))")
                }
            }
        }
        // Whole coverage of an opaque colour is the colour itself.
        let solid = EdgeBlend(color: ColorValue(r: 200, g: 17, b: 0, a: 255), opacity: 1)
        XCTAssertEqual(RGBA8(packed: solid.onto(RGBA8(1, 2, 3, 255).packed, level: 255)), RGBA8(200, 17, 0, 255))
    }

    func testAPictureAtWholePixelsIsCopiedAndOpacityAndTintApply() throws {
        var image = RGBAImage(width: 4, height: 3, fill: RGBA8(0, 0, 0, 0))
        for y in 0..<3 { for x in 0..<4 { image[x, y] = RGBA8(UInt8(x * 60), UInt8(y * 100), 200, 255) } }
        image[3, 2] = RGBA8(255, 255, 255, 0)
        var picture = Layer(name: "picture", frame: Rect(x: 5, y: 7, width: 4, height: 3), contents: .picture(Picture(image)))
        picture.opacity = .constant(0.5)
        let drawn = try render(root([picture]), width: 16, height: 12)
        for y in 0..<3 {
            for x in 0..<4 {
                let expected = image[x, y].a == 0 ? background : Reference.composite(image[x, y], 0.5, background)
                XCTAssertEqual(drawn[5 + x, 7 + y], expected, "texel \(x), \(y)")
            }
        }
        XCTAssertEqual(drawn[4, 7], background)
    }

    /// A picture turned and scaled (up, down, a quarter turn: the column
    /// where the image starts along a row found with no slope in one
    /// direction), partly off the frame, against a bilinear sample
    /// worked out here in doubles, premultiplied, with the texels past the
    /// image clear: opaque, clear and half-clear texels alike.
    func testATurnedAndScaledPictureIsSampledBilinearly() throws {
        var image = RGBAImage(width: 23, height: 17, fill: RGBA8(0, 0, 0, 0))
        for y in 0..<17 {
            for x in 0..<23 { image[x, y] = RGBA8(UInt8((x * 37 + y * 11) % 256), UInt8((x * 5 + y * 53) % 256), UInt8((x * y * 7) % 256), 255) }
        }
        for y in 3..<7 { for x in 4..<9 { image[x, y] = RGBA8(0, 0, 0, 0) } }
        for y in 10..<14 { for x in 12..<20 { image[x, y].a = 128 } }
        for (rotation, scale, x) in [(0.52, 0.7, 14.0), (Double.pi / 2, 1.3, 40.0), (0.0, 0.31, 30.0), (-0.3, 1.9, 52.0)] {
            var picture = Layer(name: "picture", frame: Rect(x: x - 11.5, y: 24 - 8.5, width: 23, height: 17), contents: .picture(Picture(image)))
            picture.transform = AnimatableTransform(rotation: rotation, scaleX: scale, scaleY: scale)
            let drawn = try render(root([picture]))
            var expected = blank()
            let (c, s) = (cos(rotation), sin(rotation))
            for py in 0..<48 {
                for px in 0..<64 {
                    // The pixel's centre about the layer's centre, turned back and scaled back, then in texels.
                    let qx = Double(px) + 0.5 - x, qy = Double(py) + 0.5 - 24
                    let u = (c * qx + s * qy) / scale + 11.5 - 0.5, v = (-s * qx + c * qy) / scale + 8.5 - 0.5
                    let i = Int(floor(u)), j = Int(floor(v)), fu = u - floor(u), fv = v - floor(v)
                    var sum = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
                    for (di, dj, weight) in [(0, 0, (1 - fu) * (1 - fv)), (1, 0, fu * (1 - fv)), (0, 1, (1 - fu) * fv), (1, 1, fu * fv)] {
                        guard i + di >= 0, j + dj >= 0, i + di < 23, j + dj < 17 else { continue }
                        let t = image[i + di, j + dj], a = Double(t.a) * weight
                        sum = (sum.r + Double(t.r) * a, sum.g + Double(t.g) * a, sum.b + Double(t.b) * a, sum.a + a)
                    }
                    guard sum.a > 0 else { continue }
                    let color = RGBA8(UInt8(sum.r / sum.a + 0.5), UInt8(sum.g / sum.a + 0.5), UInt8(sum.b / sum.a + 0.5), 255)
                    expected[px, py] = Reference.composite(color, sum.a / 255, background)
                }
            }
            assertImagesMatch(drawn, expected, mean: 0.1, max: 1, name: "tree-picture-turned-\(rotation)-\(scale)")
        }
    }

    /// A linear gradient's entry is stepped along a span in fixed point: against `Gradient.entry` of each pixel's
    /// own position, worked here in doubles, along and across the gradient and tilted, every pixel the entry's colour
    /// or, where the exact position lies within a hair of a rounding edge, its neighbour's.
    func testALinearGradientsSteppedEntriesAreEachPixelsOwn() throws {
        let stops = [Gradient.Stop(0, RGBA8(255, 0, 0)), Gradient.Stop(0.5, RGBA8(0, 200, 0)), Gradient.Stop(1, RGBA8(0, 0, 255))]
        for (start, end) in [(Point(7.3, 0), Point(390.1, 0)), (Point(10, 0), Point(300, 40)), (Point(395, 2), Point(-20.5, 9))] {
            let gradient = Gradient(.linear, start: start, end: end, stops: stops)
            var b = PathBuilder()
            try b.rectangle(x: 0, y: 0, width: 400, height: 12)
            let layer = Layer(name: "g", frame: Rect(x: 0, y: 0, width: 400, height: 12), contents: .shape(Shape(path: b.path, fill: .gradient(gradient))))
            let image = try render(root([layer], width: 400, height: 12), width: 400, height: 12)
            let (dx, dy) = (end.x - start.x, end.y - start.y), length2 = dx * dx + dy * dy
            func color(_ entry: Int) -> RGBA8 {
                let c = gradient.ramp[Swift.min(Gradient.rampSize - 1, Swift.max(0, entry))]
                return RGBA8(UInt8(c.r.rounded()), UInt8(c.g.rounded()), UInt8(c.b.rounded()), 255)
            }
            var neighbours = 0
            for y in 0..<12 {
                for x in 0..<400 {
                    let t = ((Double(x) + 0.5 - start.x) * dx + (Double(y) + 0.5 - start.y) * dy) / length2
                    let entry = Gradient.entry(at: t)
                    if image[x, y] == color(entry) { continue }
                    neighbours += 1
                    XCTAssertTrue(image[x, y] == color(entry - 1) || image[x, y] == color(entry + 1), "\(start) to \(end): pixel \(x), \(y)")
                    let scaled = t * Double(Gradient.rampSize - 1)
                    XCTAssertLessThan(abs(scaled - scaled.rounded(.down) - 0.5), 1e-4, "a neighbour's entry away from a rounding edge at \(x), \(y)")
                }
            }
            XCTAssertLessThan(neighbours, 12, "\(start) to \(end): \(neighbours) pixels took a neighbour's entry")
        }
    }

    /// Fixed-point stepping meets values that do not fit: a picture shown at a scale whose inverse overflows (its
    /// texel coordinates infinite or NaN) draws nothing, and a gradient whose axis is shorter than a double can square
    /// back draws its end colours, neither trapping on a conversion.
    func testSteppingLeavesValuesThatDoNotFitToEachPixel() throws {
        var image = RGBAImage(width: 8, height: 8, fill: RGBA8(200, 10, 10, 255))
        image[3, 3] = RGBA8(0, 0, 0, 0)
        var picture = Layer(name: "p", frame: Rect(x: 20, y: 10, width: 8, height: 8), contents: .picture(Picture(image)))
        picture.transform = AnimatableTransform(rotation: 0.3, scaleX: 1e-160, scaleY: 1e-160)
        XCTAssertEqual(try render(root([picture])), blank(), "a picture shown that small covers no pixel")
        let stops = [Gradient.Stop(0, RGBA8(255, 0, 0)), Gradient.Stop(1, RGBA8(0, 0, 255))]
        for end in [Point(5 + 1e-160, 3), Point(5, 3 + 1e-170)] {
            let gradient = Gradient(.linear, start: Point(5, 3), end: end, stops: stops)
            var b = PathBuilder()
            try b.rectangle(x: 0, y: 0, width: 60, height: 40)
            let layer = Layer(name: "g", frame: Rect(x: 2, y: 4, width: 60, height: 40), contents: .shape(Shape(path: b.path, fill: .gradient(gradient))))
            let drawn = try render(root([layer]))
            let ends = [RGBA8(255, 0, 0), RGBA8(0, 0, 255)]
            for y in 5..<43 { for x in 3..<61 { XCTAssertTrue(ends.contains(drawn[x, y]), "\(end): pixel \(x), \(y) is \(drawn[x, y])") } }
        }
    }

    func testAGradientMovesWithItsLayer() throws {
        let gradient = LinearGradient(start: Point(0, 0), end: Point(20, 0), startColor: RGBA8(255, 0, 0), endColor: RGBA8(0, 0, 255))
        var b = PathBuilder()
        try b.rectangle(x: 0, y: 0, width: 20, height: 10)
        func layer(at x: Double) -> Layer {
            Layer(name: "g", frame: Rect(x: x, y: 5, width: 20, height: 10), contents: .shape(Shape(path: b.path, fill: .linearGradient(gradient))))
        }
        let left = try render(root([layer(at: 3)])), right = try render(root([layer(at: 30)]))
        for x in 0..<20 { XCTAssertEqual(left[3 + x, 8], right[30 + x, 8], "column \(x)") }
        XCTAssertEqual(left[3, 8].r > left[22, 8].r, true)
    }

    /// A dynamic path reads its layer's parameters each frame.
    func testADynamicShapeFollowsItsAnimatedParameter() throws {
        let grow = Animation<Double>.basic(BasicAnimation(from: 10, to: 30, duration: 2))
        let shape = Layer(name: "tri", frame: Rect(x: 10, y: 5, width: 20, height: 30),
                          contents: .shape(Shape(dynamic: TreeScenes.Triangle(), fill: .solid(RGBA8(255, 255, 0)), parameters: [Timeline(10, animations: [grow])])))
        let image = try render(root([shape]), at: 1)
        var expected = blank()
        CoverageReference.paint(&expected, inside: CoverageReference.polygon([Point(10, 5), Point(30, 5), Point(20, 25)]), color: RGBA8(255, 255, 0))
        assertImagesMatch(image, expected, mean: 0.3, max: 16, name: "tree-dynamic")
    }

    func testDrawingAFrameOfEveryPrimitiveAllocatesNothing() throws {
        var b = PathBuilder()
        try b.move(to: 0, 10); try b.quad(control: 10, -5, to: 20, 10); b.close()
        var spin = Layer(name: "spin", frame: Rect(x: 4, y: 4, width: 20, height: 12), contents: .shape(Shape(path: b.path, fill: .solid(RGBA8(255, 0, 0)))))
        spin.transform.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 6, duration: 1, repeatCount: .infinity))])
        let dot = Layer(name: "dot", frame: Rect(x: 2, y: 30, width: 4, height: 4),
                        contents: .box(Box(fillColor: Timeline(ColorValue(RGBA8(255, 0, 255)), animations: [
                            .basic(BasicAnimation(from: ColorValue(RGBA8(255, 0, 255)), to: ColorValue(RGBA8(0, 255, 255)), duration: 0.5,
                                                  function: .easeInEaseOut, autoreverses: true))]),
                                           cornerRadius: 1, borderWidth: 0.5, borderColor: ColorValue(RGBA8(255, 255, 255)))))
        var row = Layer(name: "row", frame: Rect(x: 0, y: 0, width: 64, height: 48), sublayers: [dot])
        row.replicator = Replicator(count: 8, instanceTransform: AnimatableTransform(translationX: 7, rotation: 0.02), instanceDelay: 0.05)
        var masked = Layer(name: "masked", frame: Rect(x: 30, y: 4, width: 20, height: 20), contents: .box(Box(color: RGBA8(0, 255, 0))))
        masked.mask = Layer(name: "mask", frame: Rect(x: 0, y: 0, width: 10, height: 20), contents: .box(Box(color: RGBA8(0, 0, 0))))
        let tri = Layer(name: "tri", frame: Rect(x: 40, y: 30, width: 20, height: 10),
                        contents: .shape(Shape(dynamic: TreeScenes.Triangle(), fill: .solid(RGBA8(255, 255, 0)), parameters: [.constant(8)])))
        let scene = Scene(width: 64, height: 48, background: background, tree: LayerTree(root: root([spin, row, masked, tri])))
        let renderer = CPURenderer()
        try renderer.prepare(scene: scene)
        let target = try renderer.makeTarget()
        try renderer.draw(time: 0.1, into: target)
        waves_malloc_counter_start()
        for i in 0..<5 { try renderer.draw(time: 0.2 + Double(i) * 0.13, into: target) }
        XCTAssertEqual(waves_malloc_counter_stop(), 0)
    }
}
