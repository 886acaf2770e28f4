import CMallocCounter
import Foundation
import WaveCore
import WaveEffects
import XCTest

/// Layer tree evaluation against Core Animation's model, each expectation
/// computed here from the definition: geometry (position, anchor, bounds
/// origin, transform), masksToBounds clips, mask layers, hidden and
/// transparent subtrees, a box's border over its sublayers, replicators
/// (cumulative instance transform about the centre, per-copy delay and
/// tint), a deterministic presentation list, the next-change time, equal
/// timelines and shapes held once, and an evaluation that allocates nothing
/// once its list is made.
final class LayerTreeTests: XCTestCase {
    private let white = Contents.box(Box(color: RGBA8(255, 255, 255)))

    private func evaluator(_ root: Layer, _ levels: [Level] = []) throws -> LayerTreeEvaluator {
        try LayerTreeEvaluator(root: root, sources: DrivenSources(levels))
    }

    private func name(_ ev: LayerTreeEvaluator, _ item: PresentationItem) -> String { ev.nodes[item.layer].layer.name }

    /// translation after rotation after scale, written out: (tx, ty) + R(r) (sx x, sy y).
    private func trs(_ tx: Double, _ ty: Double, _ r: Double, _ sx: Double, _ sy: Double, _ p: (Double, Double)) -> (Double, Double) {
        let x = sx * p.0, y = sy * p.1
        return (tx + cos(r) * x - sin(r) * y, ty + sin(r) * x + cos(r) * y)
    }

    private func assertClose(_ a: (x: Double, y: Double), _ b: (Double, Double), _ message: String, accuracy: Double = 1e-9,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.x, b.0, accuracy: accuracy, "\(message) x", file: file, line: line)
        XCTAssertEqual(a.y, b.1, accuracy: accuracy, "\(message) y", file: file, line: line)
    }

    // MARK: Geometry

    /// p in a layer lands at position + transform * (p - (boundsOrigin +
    /// anchor * size)) in its parent; a parent's bounds origin scrolls it.
    func testALayersPointMapsThroughPositionAnchorAndTransform() throws {
        var layer = Layer(name: "L", frame: Rect(x: 0, y: 0, width: 40, height: 20), contents: white)
        layer.boundsOrigin = AnimatablePoint(5, -3)
        layer.anchorPoint = Point(0.25, 0.75)
        layer.position = AnimatablePoint(100, 50)
        layer.transform = AnimatableTransform(translationX: 7, translationY: 9, rotation: 0.3, scaleX: 2, scaleY: 0.5)
        XCTAssertEqual(layer.frame, Rect(x: 90, y: 35, width: 40, height: 20))
        var parent = Layer(name: "P", frame: Rect(x: 0, y: 0, width: 300, height: 200), sublayers: [layer])
        parent.boundsOrigin = AnimatablePoint(10, 20)
        let ev = try evaluator(parent)
        let list = ev.presentation(at: 0)
        XCTAssertEqual(list.items.count, 1)
        let item = try XCTUnwrap(list.items.first)
        XCTAssertEqual(item.primitive, .box)
        XCTAssertEqual(item.input.size, Size(40, 20))
        let anchor = (5 + 0.25 * 40, -3 + 0.75 * 20)
        for p in [(5.0, -3.0), (45, -3), (5, 17), (45, 17), (12.5, 4.25)] {
            let m = trs(7, 9, 0.3, 2, 0.5, (p.0 - anchor.0, p.1 - anchor.1))
            // In P: position + M (p - anchor); P's position (150, 100), anchor (10 + 150, 20 + 100).
            let inP = (100 + m.0, 50 + m.1)
            assertClose(item.transform.apply(p.0, p.1), (inP.0 - 10, inP.1 - 20), "point \(p)")
        }
        // The anchor itself lands on the position (plus the transform's translation).
        assertClose(item.transform.apply(anchor.0, anchor.1), (100 + 7 - 10, 50 + 9 - 20), "anchor")
    }

    /// masksToBounds: the clip is the box around the transformed bounds, for
    /// the layer's contents and every sublayer; nested clips intersect; a
    /// sibling is not clipped; a clipped layer entirely outside emits nothing.
    func testMasksToBoundsClipsToTheTransformedBounds() throws {
        var inner = Layer(name: "inner", frame: Rect(x: 60, y: 30, width: 100, height: 100), contents: white)
        inner.masksToBounds = true
        let outside = { () -> Layer in
            var l = Layer(name: "outside", frame: Rect(x: 1000, y: 1000, width: 10, height: 10), contents: white)
            l.masksToBounds = true
            return l
        }()
        let big = Layer(name: "big", frame: Rect(x: -50, y: -50, width: 300, height: 300), contents: white)
        var clipper = Layer(name: "clipper", frame: Rect(x: 20, y: 30, width: 100, height: 50), contents: white,
                            sublayers: [big, inner, outside])
        clipper.masksToBounds = true
        clipper.transform.rotation = .constant(Double.pi / 6)
        let sibling = Layer(name: "sibling", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: white)
        let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 400, height: 400), sublayers: [clipper, sibling])
        let ev = try evaluator(root)
        let list = ev.presentation(at: 0)
        XCTAssertEqual(list.items.map { name(ev, $0) }, ["clipper", "big", "inner", "sibling"])
        // The clipper's bounds (0...100, 0...50) about its centre (70, 55), rotated 30 degrees.
        let corners = [(0.0, 0.0), (100, 0), (0, 50), (100, 50)].map { p -> (Double, Double) in
            let r = trs(0, 0, Double.pi / 6, 1, 1, (p.0 - 50, p.1 - 25))
            return (70 + r.0, 55 + r.1)
        }
        let x0 = corners.map(\.0).min()!, x1 = corners.map(\.0).max()!, y0 = corners.map(\.1).min()!, y1 = corners.map(\.1).max()!
        for item in list.items.prefix(2) {
            XCTAssertEqual(item.clip.x, x0, accuracy: 1e-9, name(ev, item))
            XCTAssertEqual(item.clip.y, y0, accuracy: 1e-9, name(ev, item))
            XCTAssertEqual(item.clip.maxX, x1, accuracy: 1e-9, name(ev, item))
            XCTAssertEqual(item.clip.maxY, y1, accuracy: 1e-9, name(ev, item))
        }
        // inner: its own bounds, (60...160, 30...130) in the clipper, rotated the same way, intersected.
        let innerCorners = [(60.0, 30.0), (160, 30), (60, 130), (160, 130)].map { p -> (Double, Double) in
            let r = trs(0, 0, Double.pi / 6, 1, 1, (p.0 - 50, p.1 - 25))
            return (70 + r.0, 55 + r.1)
        }
        let innerClip = list.items[2].clip
        XCTAssertEqual(innerClip.x, max(x0, innerCorners.map(\.0).min()!), accuracy: 1e-9)
        XCTAssertEqual(innerClip.y, max(y0, innerCorners.map(\.1).min()!), accuracy: 1e-9)
        XCTAssertEqual(innerClip.maxX, min(x1, innerCorners.map(\.0).max()!), accuracy: 1e-9)
        XCTAssertEqual(innerClip.maxY, min(y1, innerCorners.map(\.1).max()!), accuracy: 1e-9)
        XCTAssertEqual(list.items[3].clip, .unclipped)
    }

    /// A mask layer's items go to `maskItems`, in the masked layer's
    /// coordinates; the masked layer's own item and its sublayers' point at
    /// the mask, other items do not. In a replicator, each copy has its own.
    func testAMaskLayersItemsAreKeptApartAndTheMaskedItemsPointAtThem() throws {
        var path = PathBuilder()
        try path.rectangle(x: 0, y: 0, width: 50, height: 50)
        let sub = Layer(name: "sub", frame: Rect(x: 5, y: 5, width: 10, height: 10), contents: white)
        var masked = Layer(name: "masked", frame: Rect(x: 10, y: 10, width: 100, height: 100), contents: white, sublayers: [sub])
        masked.mask = Layer(name: "mask", frame: Rect(x: 25, y: 25, width: 50, height: 50),
                            contents: .shape(Shape(path: path.path, fill: .solid(RGBA8(0, 0, 0)))))
        let other = Layer(name: "other", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: white)
        let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 200, height: 200), sublayers: [masked, other])
        let ev = try evaluator(root)
        let list = ev.presentation(at: 0)
        XCTAssertEqual(list.items.map { name(ev, $0) }, ["masked", "sub", "other"], "the mask is not drawn as an item")
        XCTAssertEqual(list.items.map(\.mask), [0, 0, -1])
        XCTAssertEqual(list.masks.map(\.items), [0..<1])
        XCTAssertEqual(list.maskItems.count, 1)
        let maskItem = try XCTUnwrap(list.maskItems.first)
        XCTAssertEqual(maskItem.primitive, .fixedShape)
        // Mask (0, 0) -> masked (25, 25) -> root (35, 35).
        assertClose(maskItem.transform.apply(0, 0), (35, 35), "mask origin")
        assertClose(maskItem.transform.apply(50, 50), (85, 85), "mask corner")

        var replicator = Layer(name: "rep", frame: Rect(x: 0, y: 0, width: 200, height: 200), sublayers: [masked])
        replicator.replicator = Replicator(count: 3, instanceTransform: AnimatableTransform(translationX: 20))
        let rev = try evaluator(replicator)
        let rlist = rev.presentation(at: 0)
        XCTAssertEqual(rlist.masks.map(\.items), [0..<1, 1..<2, 2..<3])
        XCTAssertEqual(rlist.items.map(\.mask), [0, 0, 1, 1, 2, 2])
        for k in 0..<3 { assertClose(rlist.maskItems[k].transform.apply(0, 0), (35 + 20 * Double(k), 35), "copy \(k)'s mask") }
    }

    /// Hidden layers and subtrees at opacity 0 emit nothing; opacities multiply down the tree.
    func testHiddenAndTransparentSubtreesEmitNothing() throws {
        let leaf = { (n: String) in Layer(name: n, frame: Rect(x: 0, y: 0, width: 4, height: 4), contents: self.white) }
        var hidden = Layer(name: "hidden", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: white, sublayers: [leaf("h1")])
        hidden.isHidden = true
        var clear = Layer(name: "clear", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: white, sublayers: [leaf("c1")])
        clear.opacity = .constant(0)
        var half = Layer(name: "half", frame: Rect(x: 0, y: 0, width: 10, height: 10), sublayers: [leaf("h2")])
        half.opacity = .constant(0.5)
        half.sublayers[0].opacity = .constant(0.4)
        var fading = leaf("fading")
        fading.opacity = Timeline(1, animations: [.basic(BasicAnimation(from: 1.0, to: 0.0, duration: 1, fillMode: .forwards))])
        let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [hidden, clear, half, fading])
        let ev = try evaluator(root)
        let early = ev.presentation(at: 0.25)
        XCTAssertEqual(early.items.map { name(ev, $0) }, ["h2", "fading"])
        XCTAssertEqual(early.items[0].opacity, 0.2, accuracy: 1e-12)
        XCTAssertEqual(early.items[1].opacity, 0.75, accuracy: 1e-12)
        XCTAssertEqual(ev.presentation(at: 2).items.map { name(ev, $0) }, ["h2"], "faded out: gone")
    }

    /// Layers whose placement timelines are equal share their tracks, and
    /// layers drawing equal shapes share the shape held apart (an imported
    /// parent repeated around each child, a precomposition shown twice); a
    /// layer whose timelines differ keeps its own, and each draws where its
    /// own timelines put it.
    func testEqualTimelinesAndShapesAreHeldOnce() throws {
        var triangle = PathBuilder()
        try triangle.move(to: 0, 0); try triangle.line(to: 7, 2); try triangle.line(to: 1, 9); triangle.close()
        var a = Layer(name: "a", frame: Rect(x: 0, y: 0, width: 10, height: 10),
                      contents: .shape(Shape(path: triangle.path, fill: .solid(RGBA8(200, 40, 0, 255)))))
        a.anchorPoint = Point(0, 0)
        a.position.x = Timeline(0, animations: [.basic(BasicAnimation(from: 0.0, to: 10.0, duration: 1))])
        var b = a
        b.name = "b"
        var c = a
        c.name = "c"
        c.position.x = Timeline(0, animations: [.basic(BasicAnimation(from: 0.0, to: 20.0, duration: 1))])
        c.contents = .shape(Shape(path: triangle.path, fill: .solid(RGBA8(0, 40, 200, 255))))
        let ev = try evaluator(Layer(name: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [a, b, c]))
        let (na, nb, nc) = (ev.nodes[1], ev.nodes[2], ev.nodes[3])
        XCTAssertTrue(na.tracks != nil && na.tracks === nb.tracks, "equal timelines: one set of tracks")
        XCTAssertFalse(na.tracks === nc.tracks, "different timelines: tracks of its own")
        XCTAssertTrue(na.shape != nil && na.shape === nb.shape, "equal shapes: held once")
        XCTAssertFalse(na.shape === nc.shape, "another fill: held apart")
        let items = ev.presentation(at: 0.5).items
        XCTAssertEqual(items.map { name(ev, $0) }, ["a", "b", "c"])
        XCTAssertEqual(items.map(\.transform.tx), [5, 5, 10])
    }

    /// A layer that only places its one sublayer (nothing of its own, still,
    /// opaque, on its parent's time) is no node of its own: its sublayer's
    /// node applies its placement as its node would, so a chain of two such
    /// layers gives the items, transforms and opacities of the same tree
    /// where each keeps its node (given a second, empty sublayer) exactly,
    /// over a second of animation; a layer that does anything else keeps
    /// its node.
    func testALayerThatOnlyPlacesItsSublayerIsCompiledIntoIt() throws {
        var shape = Layer(name: "s", frame: Rect(x: 2, y: 3, width: 10, height: 6), contents: white)
        shape.position.x = Timeline(7, animations: [.basic(BasicAnimation(from: 7.0, to: 19.0, duration: 1))])
        shape.transform.rotation = Timeline(0.2, animations: [.basic(BasicAnimation(from: 0.2, to: 1.4, duration: 1))])
        func placing(extra: Bool) -> Layer {
            let empty = { (name: String) in extra ? [Layer(name: name, frame: Rect(x: 0, y: 0, width: 1, height: 1))] : [] }
            var inner = Layer(name: "w2", frame: Rect(x: 5.25, y: 7.5, width: 30, height: 20), sublayers: [shape] + empty("e2"))
            inner.anchorPoint = Point(0.3, 0.9)
            inner.transform = AnimatableTransform(rotation: 0.7, scaleX: 0.7, scaleY: 1.3)
            var outer = Layer(name: "w1", frame: Rect(x: 30.125, y: 40.5, width: 50, height: 50), sublayers: [inner] + empty("e1"))
            outer.transform = AnimatableTransform(translationX: 1.5, rotation: -0.3, scaleX: 1.5, scaleY: 1.5)
            outer.boundsOrigin = AnimatablePoint(3, -2)
            return Layer(name: "root", frame: Rect(x: 0, y: 0, width: 200, height: 200), sublayers: [outer])
        }
        let folded = try evaluator(placing(extra: false)), kept = try evaluator(placing(extra: true))
        XCTAssertEqual(folded.nodes.map(\.layer.name), ["root", "s"], "w1 and w2 only place s")
        XCTAssertEqual(kept.nodes.map(\.layer.name), ["root", "w1", "w2", "s", "e2", "e1"])
        for t in stride(from: 0.0, through: 1.0, by: 0.125) {
            let a = folded.presentation(at: t).items, b = kept.presentation(at: t).items
            XCTAssertEqual(a.map { name(folded, $0) }, ["s"])
            XCTAssertEqual(b.map { name(kept, $0) }, ["s"])
            XCTAssertEqual(a.first?.transform, b.first?.transform, "t = \(t): the same products in the same order")
            XCTAssertEqual(a.first?.opacity, b.first?.opacity)
            XCTAssertEqual(a.first?.clip, b.first?.clip)
        }
        // Anything of its own keeps a layer's node.
        var variants: [(String, (inout Layer) -> Void)] = [
            ("translucent", { $0.opacity = Timeline(0.5) }),
            ("moving", { $0.position.y = Timeline(0, animations: [.basic(BasicAnimation(from: 0.0, to: 5.0, duration: 1))]) }),
            ("fading", { $0.opacity = Timeline(1, animations: [.basic(BasicAnimation(from: 1.0, to: 0.0, duration: 1))]) }),
            ("clipping", { $0.masksToBounds = true }),
            ("on its own time", { $0.timing.speed = 2 }),
            ("blending", { $0.blendMode = .multiply }),
            ("hidden", { $0.isHidden = true }),
            ("drawing", { $0.contents = self.white }),
        ]
        variants.append(("masked", { $0.mask = Layer(name: "m", frame: Rect(x: 0, y: 0, width: 4, height: 4), contents: self.white) }))
        for (what, change) in variants {
            var wrapper = Layer(name: "w", frame: Rect(x: 10, y: 10, width: 20, height: 20), sublayers: [shape])
            change(&wrapper)
            let ev = try evaluator(Layer(name: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [wrapper]))
            XCTAssertEqual(ev.nodes.map(\.layer.name), ["root", "w", "s"], what)
        }
    }

    /// CA composites a layer's border above its sublayers: a box with
    /// sublayers and a border emits its fill, the sublayers, then the border.
    func testABoxBorderIsDrawnAfterItsSublayers() throws {
        let bordered = Contents.box(Box(color: RGBA8(10, 20, 30), cornerRadius: 4, borderWidth: 2, borderColor: RGBA8(255, 255, 255)))
        let sub1 = Layer(name: "s1", frame: Rect(x: 0, y: 0, width: 4, height: 4), contents: white)
        let sub2 = Layer(name: "s2", frame: Rect(x: 4, y: 0, width: 4, height: 4), contents: white)
        let withSubs = Layer(name: "frame", frame: Rect(x: 0, y: 0, width: 20, height: 20), contents: bordered, sublayers: [sub1, sub2])
        let alone = Layer(name: "alone", frame: Rect(x: 30, y: 0, width: 20, height: 20), contents: bordered)
        let root = Layer(name: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [withSubs, alone])
        let ev = try evaluator(root)
        let items = ev.presentation(at: 0).items
        XCTAssertEqual(items.map { name(ev, $0) }, ["frame", "s1", "s2", "frame", "alone"])
        XCTAssertEqual(items.map(\.primitive), [.box, .box, .box, .boxBorder, .box])
        XCTAssertEqual(items.map(\.drawsBorder), [false, false, false, false, true])
        XCTAssertEqual(items[3].transform, items[0].transform)
        XCTAssertEqual(items[0].color, ColorValue(RGBA8(10, 20, 30)))
    }

    // MARK: Replicators

    /// Copy k: instanceTransform applied k times about the replicator's
    /// centre (its bounds' middle), evaluated at the replicator's own time.
    func testReplicatorCopiesAreTransformedCumulativelyAboutTheCentre() throws {
        let child = Layer(name: "dot", frame: Rect(x: 60, y: 10, width: 8, height: 8), contents: white)
        var rep = Layer(name: "rep", frame: Rect(x: 0, y: 0, width: 100, height: 80), sublayers: [child])
        rep.boundsOrigin = AnimatablePoint(4, 6)
        rep.replicator = Replicator(count: 6, instanceTransform: AnimatableTransform(translationX: 6, translationY: -2, rotation: 0.4,
                                                                                      scaleX: 0.9, scaleY: 1.1), instanceDelay: 0.2)
        rep.replicator!.instanceTransform.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0.0, to: 1.0, duration: 1))])
        let ev = try evaluator(rep)
        for t in [0.0, 0.5] {
            let items = ev.presentation(at: t).items
            XCTAssertEqual(items.count, 6)
            let r = t // the instance rotation at the replicator's time, not delayed per copy
            let centre = (4 + 50.0, 6 + 40.0)
            for (k, item) in items.enumerated() {
                for p in [(0.0, 0.0), (8, 0), (3, 7)] {
                    var q = (64 + p.0 - 4, 14 + p.1 - 4) // the dot's point in the replicator
                    for _ in 0..<k {
                        let m = trs(6, -2, r, 0.9, 1.1, (q.0 - centre.0, q.1 - centre.1))
                        q = (centre.0 + m.0, centre.1 + m.1)
                    }
                    // The replicator in the root: position (50, 40), anchor (54, 46).
                    assertClose(item.transform.apply(p.0, p.1), (q.0 - 4, q.1 - 6), "t \(t), copy \(k), point \(p)", accuracy: 1e-9)
                }
            }
        }
    }

    /// Copy k runs k * instanceDelay late: a copy whose time is before its
    /// animation (fill removed) shows the model value.
    func testReplicatorCopiesRunInstanceDelayLate() throws {
        var child = Layer(name: "dot", frame: Rect(x: 0, y: 0, width: 2, height: 2), contents: white)
        child.position.x = Timeline(7, animations: [.basic(BasicAnimation(from: 0.0, to: 100.0, duration: 1))])
        child.opacity = Timeline(1, animations: [.basic(BasicAnimation(from: 0.5, to: 1.0, duration: 1, fillMode: .both))])
        var rep = Layer(name: "rep", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [child])
        rep.replicator = Replicator(count: 5, instanceDelay: 0.25)
        let items = try evaluator(rep).presentation(at: 0.8).items
        XCTAssertEqual(items.count, 5)
        let xs = items.map { $0.transform.tx + 1 }
        for (k, expected) in [80.0, 55, 30, 5, 7].enumerated() { XCTAssertEqual(xs[k], expected, accuracy: 1e-9, "copy \(k)") }
        for (k, expected) in [0.9, 0.775, 0.65, 0.525, 0.5].enumerated() {
            XCTAssertEqual(items[k].opacity, expected, accuracy: 1e-9, "copy \(k)'s opacity")
        }
    }

    /// Copy k's tint is instanceColor + k * offset, each channel clamped to
    /// 0...1; nested replicators multiply their tints.
    func testReplicatorTintsOffsetPerCopyAndClamp() throws {
        let colour = Tint(r: 1, g: 0.8, b: 0.5, a: 1), offset = Tint(r: -0.3, g: 0.1, b: 0.2, a: -0.25)
        var inner = Layer(name: "inner", frame: Rect(x: 0, y: 0, width: 50, height: 50),
                          sublayers: [Layer(name: "dot", frame: Rect(x: 0, y: 0, width: 2, height: 2), contents: white)])
        inner.replicator = Replicator(count: 5, instanceColor: colour, colorOffset: offset)
        var outer = Layer(name: "outer", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [inner])
        outer.replicator = Replicator(count: 2, instanceColor: Tint(r: 0.5, g: 1, b: 1, a: 1), colorOffset: Tint(r: 0, g: 0, b: 0, a: -0.5))
        let items = try evaluator(outer).presentation(at: 0).items
        XCTAssertEqual(items.count, 10)
        func clamp(_ v: Double) -> Double { min(1, max(0, v)) }
        for j in 0..<2 {
            for k in 0..<5 {
                let tint = items[j * 5 + k].tint, kk = Double(k)
                XCTAssertEqual(tint.r, 0.5 * clamp(1 - 0.3 * kk), accuracy: 1e-12, "copy \(j).\(k) red")
                XCTAssertEqual(tint.g, clamp(0.8 + 0.1 * kk), accuracy: 1e-12, "copy \(j).\(k) green")
                XCTAssertEqual(tint.b, clamp(0.5 + 0.2 * kk), accuracy: 1e-12, "copy \(j).\(k) blue")
                XCTAssertEqual(tint.a, (j == 0 ? 1 : 0.5) * clamp(1 - 0.25 * kk), accuracy: 1e-12, "copy \(j).\(k) alpha")
            }
        }
        XCTAssertEqual(items[4].tint.r, 0, "1 - 4 * 0.3 clamps to 0")
        XCTAssertEqual(items[4].tint.g, 1, "0.8 + 4 * 0.1 clamps to 1")
    }

    // MARK: A scene with a bit of everything

    private struct Blob: DynamicPath, Equatable {
        func outline<Sink: OutlineSink>(_ input: ShapeInput, into sink: Sink) {
            let w = input.size.width, h = input.size.height, d = input.parameters[0]
            sink.move(to: 0, d); sink.line(to: w, d); sink.line(to: w, h - input.parameters[1]); sink.line(to: 0, h); sink.close()
        }
        var maxPoints: Int { 4 }
        func reach(size: Size) -> Rect { Rect(x: 0, y: -size.height, width: size.width, height: 3 * size.height) }
    }

    private func richTree() throws -> Layer {
        var path = PathBuilder()
        try path.rectangle(x: 0, y: 0, width: 6, height: 6)
        var dot = Layer(name: "dot", frame: Rect(x: 70, y: 45, width: 6, height: 6),
                        contents: .box(Box(fillColor: Timeline(ColorValue(RGBA8(200, 200, 200)), animations: [
                            .basic(BasicAnimation(from: ColorValue(RGBA8(255, 0, 0)), to: ColorValue(RGBA8(0, 0, 255)), duration: 0.7,
                                                  beginTime: 0.28, repeatCount: .infinity, autoreverses: true, fillMode: .backwards)),
                        ]), cornerRadius: 3, borderWidth: 0.5, borderColor: ColorValue(RGBA8(255, 255, 255)))))
        dot.transform.scaleX = Timeline(1, animations: [.driven(Driven(source: 0, from: 0.5, to: 2))])
        dot.transform.scaleY = dot.transform.scaleX
        dot.opacity = Timeline(1, animations: [.spring(SpringAnimation(from: 0.2, to: 1.0, spring: Spring(duration: 0.6, bounce: 0.3)))])
        dot.position.y = Timeline(48, animations: [.keyframes(KeyframeAnimation(values: [40, 50, 45, 48], calculation: .discrete,
                                                                                 timing: MediaTiming(duration: 2, repeatCount: .infinity)))])
        var rep = Layer(name: "rep", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [dot])
        rep.replicator = Replicator(count: 8, instanceDelay: 0.1, instanceColor: Tint(r: 1, g: 1, b: 1, a: 1),
                                    colorOffset: Tint(r: 0, g: -0.1, b: 0, a: -0.05))
        rep.replicator!.instanceTransform.rotation = Timeline(0.3, animations: [
            .basic(BasicAnimation(from: 0.1, to: 0.6, duration: 1.5, function: .easeInEaseOut, repeatCount: .infinity, autoreverses: true)),
        ])
        var jelly = Layer(name: "jelly", frame: Rect(x: 10, y: 120, width: 80, height: 40),
                          contents: .shape(Shape(dynamic: Blob(), fill: .solid(RGBA8(0, 255, 0)), parameters: [
                              Timeline(0, animations: [.spring(SpringAnimation(from: 0.0, to: 10.0, spring: Spring(mass: 1, stiffness: 200, damping: 8)))]),
                              Timeline(0, animations: [.basic(BasicAnimation(from: 0.0, to: 5.0, duration: 1, function: .bounceOut))]),
                          ])))
        jelly.position.y = Timeline(140, animations: [.keyframes(KeyframeAnimation(values: [140, 150, 130], keyTimes: [0, 0.3, 1],
                                                                                    timing: MediaTiming(duration: 3)))])
        var bars = Layer(name: "bars", frame: Rect(x: 0, y: 0, width: 40, height: 20),
                         contents: .picture(Picture(RGBAImage(width: 40, height: 20, fill: RGBA8(9, 9, 9)))))
        bars.boundsOrigin.x = Timeline(0, animations: [.basic(BasicAnimation(from: 0.0, to: 30.0, duration: 2, repeatCount: .infinity))])
        var clip = Layer(name: "clip", frame: Rect(x: 110, y: 10, width: 30, height: 20), sublayers: [bars])
        clip.masksToBounds = true
        clip.mask = Layer(name: "mask", frame: Rect(x: 0, y: 0, width: 30, height: 20),
                          contents: .shape(Shape(path: path.path, fill: .linearGradient(LinearGradient(
                              start: Point(0, 0), end: Point(30, 0), startColor: RGBA8(0, 0, 0, 0), endColor: RGBA8(0, 0, 0))))))
        var paused = Layer(name: "paused", frame: Rect(x: 150, y: 150, width: 20, height: 20), contents: white)
        paused.timing.speed = 0
        paused.timing.timeOffset = 0.4
        var panel = Layer(name: "panel", frame: Rect(x: 0, y: 0, width: 200, height: 200),
                          contents: .box(Box(color: RGBA8(0, 0, 0), cornerRadius: 8, borderWidth: 1, borderColor: RGBA8(80, 80, 80))),
                          sublayers: [rep, jelly, clip, paused])
        panel.transform.translationX = Timeline(0, animations: [.basic(BasicAnimation(from: 0.0, to: 12.0, duration: 4, beginTime: 1, fillMode: .both))])
        return panel
    }

    private func richSources() -> [Level] {
        [.envelope(LevelEnvelope(rate: 30, values: (0..<300).map { 0.5 + 0.5 * sin(Double($0) * 0.21) }))]
    }

    func testThePresentationListIsTheSameHoweverTheTimeIsReached() throws {
        let ev = try evaluator(try richTree(), richSources())
        var list = ev.makeList()
        ev.evaluate(at: 1.3, into: &list)
        let first = list
        XCTAssertEqual(first.items.count, 1 + 8 + 1 + 1 + 1 + 1, "panel, 8 dots, jelly, bars, paused, panel border")
        XCTAssertEqual(first.maskItems.count, 1)
        ev.evaluate(at: 1.3, into: &list)
        XCTAssertEqual(list, first, "the same time twice")
        for t in [0.0, 5, 0.7, 100, 1.2999] { ev.evaluate(at: t, into: &list) }
        ev.evaluate(at: 1.3, into: &list)
        XCTAssertEqual(list, first, "after other times")
        XCTAssertEqual(try evaluator(try richTree(), richSources()).presentation(at: 1.3), first, "a second evaluator")
        XCTAssertNotEqual(ev.presentation(at: 1.35), first, "the scene does move")
    }

    // MARK: When the picture next changes

    private func scene(_ sublayers: [Layer]) throws -> LayerTreeEvaluator {
        try evaluator(Layer(name: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100), contents: white, sublayers: sublayers))
    }

    func testNextChangeIsNilForAStillScene() throws {
        var ended = Layer(name: "ended", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: white)
        ended.position.x = Timeline(5, animations: [.basic(BasicAnimation(from: 0.0, to: 10.0, duration: 1, fillMode: .forwards))])
        var same = Layer(name: "same", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: white)
        same.opacity = Timeline(1, animations: [.basic(BasicAnimation(from: 0.5, to: 0.5, duration: 1, repeatCount: .infinity))])
        let ev = try scene([ended, same])
        XCTAssertNil(ev.nextChange(after: 2))
        XCTAssertNil(ev.nextChange(after: 1e6))
        XCTAssertNil(try scene([]).nextChange(after: 0), "nothing animated at all")
    }

    func testNextChangeIsNowForALoopingScene() throws {
        var spinning = Layer(name: "spin", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: white)
        spinning.transform.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0.0, to: 6.28, duration: 2, repeatCount: .infinity))])
        let ev = try scene([spinning])
        for t in [0.0, 0.5, 17.25, 1e5] { XCTAssertEqual(ev.nextChange(after: t), t) }
        XCTAssertEqual(try evaluator(try richTree(), richSources()).nextChange(after: 3.3), 3.3)
    }

    /// A time remapping gives the layer and its sublayers their time: a
    /// spinning child under a remapping held at 0.5 s stays turned as at
    /// 0.5 s and never changes; under one that runs from 0 to 2 s over
    /// the first second, it turns twice as fast and changes until then.
    func testATimeRemappingGivesASubtreeItsTime() throws {
        var spinning = Layer(name: "spin", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: white)
        spinning.transform.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0.0, to: 2.0, duration: 2))])
        var held = Layer(name: "held", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [spinning])
        held.timeRemap = .constant(0.5)
        let frozen = try scene([held])
        XCTAssertNil(frozen.nextChange(after: 0))
        let turned = frozen.presentation(at: 7).items.first { name(frozen, $0) == "spin" }!
        assertClose((turned.transform.a, turned.transform.b), (cos(0.5), sin(0.5)), "turned as at 0.5 s")
        var fast = held
        fast.timeRemap = Timeline(0, animations: [.basic(BasicAnimation(from: 0.0, to: 2.0, duration: 1, fillMode: .forwards))])
        let ev = try scene([fast])
        XCTAssertEqual(ev.nextChange(after: 0.25), 0.25)
        XCTAssertNil(ev.nextChange(after: 1.5), "the remapping ended, held at 2 s")
        let quarter = ev.presentation(at: 0.25).items.first { name(ev, $0) == "spin" }!
        assertClose((quarter.transform.a, quarter.transform.b), (cos(0.5), sin(0.5)), "0.25 s remapped to 0.5 s")
    }

    /// Keyframes stepping every second: the next whole second.
    func testNextChangeIsTheNextStepForDiscreteKeyframes() throws {
        var stepper = Layer(name: "step", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: white)
        stepper.position.x = Timeline(0, animations: [.keyframes(KeyframeAnimation(values: [0, 1, 2, 3], calculation: .discrete,
                                                                                    timing: MediaTiming(duration: 4, repeatCount: .infinity)))])
        let ev = try scene([stepper])
        for (t, next) in [(0.0, 1.0), (0.5, 1), (1, 2), (2.3, 3), (3.7, 4), (4, 5), (10.01, 11)] {
            XCTAssertEqual(ev.nextChange(after: t)!, next, accuracy: 1e-9, "after \(t)")
        }
        // The same stepper in a replicator two copies, 0.25 s apart: the earlier of the copies' steps.
        var rep = Layer(name: "rep", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [stepper])
        rep.replicator = Replicator(count: 2, instanceDelay: 0.25)
        let rev = try scene([rep])
        XCTAssertEqual(rev.nextChange(after: 0.5)!, 1, accuracy: 1e-9)
        XCTAssertEqual(rev.nextChange(after: 1.1)!, 1.25, accuracy: 1e-9)
        // Inside a layer running at half speed, a step every two seconds.
        var slow = Layer(name: "slow", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [stepper])
        slow.timing.speed = 0.5
        XCTAssertEqual(try scene([slow]).nextChange(after: 0.5)!, 2, accuracy: 1e-9)
        // With key times: 10 s steps at 1 and 5.
        var keyed = stepper
        keyed.position.x = Timeline(0, animations: [.keyframes(KeyframeAnimation(values: [0, 1, 2], keyTimes: [0, 0.1, 0.5, 1],
                                                                                  calculation: .discrete, timing: MediaTiming(duration: 10)))])
        let kev = try scene([keyed])
        XCTAssertEqual(kev.nextChange(after: 0.2)!, 1, accuracy: 1e-9)
        XCTAssertEqual(kev.nextChange(after: 1.2)!, 5, accuracy: 1e-9)
        XCTAssertEqual(kev.nextChange(after: 5.2)!, 10, accuracy: 1e-9, "removed at the end")
        XCTAssertNil(kev.nextChange(after: 10.2))
    }

    func testNextChangeIsTheBeginTimeOfAnAnimationNotYetBegun() throws {
        for mode in [FillMode.removed, .backwards] {
            var later = Layer(name: "later", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: white)
            later.position.x = Timeline(5, animations: [.basic(BasicAnimation(from: 0.0, to: 10.0, duration: 1, beginTime: 2.5, fillMode: mode))])
            let ev = try scene([later])
            XCTAssertEqual(ev.nextChange(after: 0), 2.5, "\(mode)")
            XCTAssertEqual(ev.nextChange(after: 2.5), 2.5, "\(mode): running")
            XCTAssertEqual(ev.nextChange(after: 3.6), nil, "\(mode): over")
        }
        // A layer whose own time begins later holds its sublayers until then.
        var spinning = Layer(name: "spin", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: white)
        spinning.transform.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0.0, to: 6.28, duration: 2, repeatCount: .infinity))])
        var holder = Layer(name: "holder", frame: Rect(x: 0, y: 0, width: 100, height: 100), sublayers: [spinning])
        holder.timing.beginTime = 4
        XCTAssertEqual(try scene([holder]).nextChange(after: 1), 4)
    }

    // MARK: Allocations

    /// Once the list is made, evaluating allocates nothing (debug build
    /// included), whichever kind of source drives the copies' scale.
    func testEvaluationAllocatesNothingOnceTheListIsMade() throws {
        let live = LiveLevel(start: 0.3, smoothing: LevelSmoothing())
        let cases: [(String, Level)] = [
            ("a constant source", .constant(0.4)), ("a live source", .live(live)), ("an envelope source", richSources()[0]),
        ]
        for (what, level) in cases {
            let ev = try evaluator(try richTree(), [level])
            var list = ev.makeList()
            ev.evaluate(at: 0, into: &list)
            waves_malloc_counter_start()
            var frame = 1 // a while loop: a range's iterator allocates in a debug build
            while frame <= 30 {
                live.set(Double(frame % 7) / 7)
                ev.evaluate(at: Double(frame) / 30, into: &list)
                frame += 1
            }
            let counted = waves_malloc_counter_stop()
            XCTAssertEqual(waves_malloc_counter_active(), 1, "the counter is not in use")
            XCTAssertEqual(counted, 0, "allocations in 30 evaluations with \(what)")
            XCTAssertEqual(list.items.count, 13)
        }
    }
}

/// A sole clip's x found from its own layer's timing and translation
/// (what the GL copies read each frame instead of evaluating the tree) is
/// the x the full evaluation gives its item, at any time, in either direction,
/// snapped or not, and for a layer whose loop runs at its own speed.
final class SoleClipXTests: XCTestCase {
    func testAClipsXIsTheEvaluatedItemsX() throws {
        for direction in [Direction.left, .right] {
            for snapped in [false, true] {
                var cells = SineCells(width: 90, height: 70)
                cells.cellCount = 7
                cells.wave.direction = direction
                cells.snapToPixel = snapped
                var scene = try cells.scene()
                scene.tree!.root.sublayers[2].sublayers[0].timing.speed = 1.5
                let evaluator = try scene.tree!.makeEvaluator()
                let clips = evaluator.soleClips(width: scene.width, height: scene.height)
                XCTAssertEqual(clips.count, 7)
                for t in [-1.3, 0, 0.01, 0.3333, 0.5, 0.999, 2.75, 1000.1] {
                    let frame = evaluator.presentation(at: t)
                    for clip in clips {
                        let item = try XCTUnwrap(frame.items.first { $0.layer == clip.node })
                        XCTAssertEqual(evaluator.x(of: clip, at: t), item.transform.tx, "\(direction) snapped \(snapped) t \(t)")
                    }
                }
            }
        }
    }
}
