import Foundation
import WaveCore

/// Layer trees that exercise every primitive and every way of placing one
/// (transforms, replicators, clips, masks, opacity), for the tests that run
/// them through both strategies. Each comes with times to draw it at and
/// whether its motion stays on whole pixels (where the GL strategy's cached
/// coverage must equal the CPU's redraw) or turns and scales cached
/// pictures (sampled, compared within a stated tolerance).
public enum TreeScenes {
    public struct Case {
        public let name: String
        public let scene: Scene
        public let times: [Double]
        /// Cached pictures are only ever moved by whole pixels.
        public let wholePixels: Bool
    }

    public static let background = RGBA8(0x10, 0x18, 0x2A)

    /// A triangle whose apex height is its layer's first parameter.
    public struct Triangle: DynamicPath, Equatable {
        public init() {}
        public func outline<Sink: OutlineSink>(_ input: ShapeInput, into sink: Sink) {
            let h = input.parameters[0]
            sink.move(to: 0, 0); sink.line(to: 20, 0); sink.line(to: 10, h); sink.close()
        }
        public var maxPoints: Int { 3 }
        public func reach(size: Size) -> Rect { Rect(x: 0, y: -40, width: 20, height: 80) }
    }

    static func root(_ sublayers: [Layer], _ w: Double = 96, _ h: Double = 64) -> Layer {
        Layer(name: "root", frame: Rect(x: 0, y: 0, width: w, height: h), sublayers: sublayers)
    }

    static func scene(_ root: Layer, _ w: Int = 96, _ h: Int = 64) -> Scene {
        Scene(width: w, height: h, background: background, tree: LayerTree(root: root))
    }

    /// Replicated boxes whose every property runs a different kind of
    /// timeline (the GL strategy evaluates them per copy on the GPU): the
    /// row curls (a rotating instance transform), each dot swings its
    /// scale, runs a spring down, steps its opacity, starts its colour late
    /// with a backwards fill and reads a recorded level its delay in the past.
    /// (No frame puts a copy exactly on a discrete step: the GPU computes a
    /// copy's time in single precision, 0.9 - 8 x 0.05 = 0.49999997 there.
    /// Frames at multiples of 1/30 s or 0.01 s, copies 0.05 s apart, steps at 0.185 and 0.355 s a pass.)
    public static func copies() -> Scene {
        let magenta = ColorValue(RGBA8(255, 0, 255)), cyan = ColorValue(RGBA8(0, 255, 255))
        var dot = Layer(name: "dot", frame: Rect(x: 100, y: 30, width: 6, height: 6),
                        contents: .box(Box(fillColor: Timeline(ColorValue(RGBA8(200, 200, 200)), animations: [
                            .basic(BasicAnimation(from: magenta, to: cyan, duration: 0.66, beginTime: 0.28, function: .easeInEaseOut,
                                                  repeatCount: .infinity, autoreverses: true, fillMode: .backwards))]),
                                           cornerRadius: 1.5, borderWidth: 0.5, borderColor: ColorValue(RGBA8(255, 255, 255)))))
        dot.transform.scaleX = Timeline(1, animations: [.basic(BasicAnimation(from: 1, to: 1.4, duration: 0.33, function: .easeOut,
                                                                               repeatCount: .infinity, autoreverses: true))])
        dot.transform.scaleY = Timeline(1, animations: [.driven(Driven(source: 0, from: 1, to: 4))])
        dot.position.y = Timeline(30, animations: [.spring(SpringAnimation(from: 24, to: 30, spring: Spring(duration: 0.6, bounce: 0.3),
                                                                            beginTime: 0.05, fillMode: .both))])
        dot.opacity = Timeline(1, animations: [.keyframes(KeyframeAnimation(values: [1, 0.4, 0.8], keyTimes: [0, 0.37, 0.71, 1], calculation: .discrete,
                                                                            timing: MediaTiming(duration: 0.5, repeatCount: .infinity)))])
        var second = Layer(name: "bar", frame: Rect(x: 98, y: 44, width: 3, height: 10),
                           contents: .box(Box(color: RGBA8(40, 220, 120, 200), cornerRadius: 0)))
        second.transform.rotation = Timeline(0, animations: [.keyframes(KeyframeAnimation(values: [0, 0.3, -0.2], keyTimes: [0, 0.3, 1],
                                                                                          timing: MediaTiming(duration: 1.2, repeatCount: .infinity,
                                                                                                              autoreverses: true),
                                                                                          function: .easeInEaseOut))])
        second.transform.translationX = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 3, duration: 1, function: .bounceOut,
                                                                                       fillMode: .forwards))])
        var row = Layer(name: "curl", frame: Rect(x: 0, y: 0, width: 112, height: 72), sublayers: [dot, second])
        var turn = AnimatableTransform(translationX: -8)
        turn.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 0.08, duration: 0.33, function: .easeOut, fillMode: .forwards))])
        row.replicator = Replicator(count: 12, instanceTransform: turn, instanceDelay: 0.05, colorOffset: Tint(r: 0, g: -0.03, b: 0, a: -0.02))
        // A grid: a replicator of rows, each a still replicator of dots (one instanced draw for all).
        var cell = Layer(name: "cell", frame: Rect(x: 2, y: 2, width: 5, height: 5),
                         contents: .box(Box(color: RGBA8(250, 200, 60), cornerRadius: 2)))
        cell.transform.scaleY = Timeline(1, animations: [.basic(BasicAnimation(from: 1, to: 1.8, duration: 0.4, function: .easeOut,
                                                                               repeatCount: .infinity, autoreverses: true))])
        var cells = Layer(name: "cells", frame: Rect(x: 4, y: 50, width: 40, height: 9), sublayers: [cell])
        cells.replicator = Replicator(count: 5, instanceTransform: AnimatableTransform(translationX: 7), instanceDelay: 0.03,
                                      colorOffset: Tint(r: -0.1, g: 0, b: 0, a: 0))
        var grid = Layer(name: "grid", frame: Rect(x: 0, y: 0, width: 48, height: 72), sublayers: [cells])
        grid.replicator = Replicator(count: 3, instanceTransform: AnimatableTransform(translationY: 7), instanceDelay: 0.15,
                                     colorOffset: Tint(r: 0, g: -0.2, b: 0, a: 0))
        let level = LevelEnvelope(rate: 20, values: (0..<80).map { 0.5 + 0.5 * sin(Double($0) * 0.4) })
        return Scene(width: 112, height: 72, background: background,
                     tree: LayerTree(root: root([row, grid], 112, 72), sources: [.envelope(level)]))
    }

    public static func all() throws -> [Case] {
        var b = PathBuilder()
        try b.move(to: 2, 30); try b.quad(control: 20, -10, to: 38, 30); b.close()
        try b.rectangle(x: 10, y: 12, width: 14.5, height: 9.25)
        let blob = b.path

        // A fixed shape sliding by whole pixels a frame (20 px a second, drawn at multiples of 1/20 s).
        var slide = Layer(name: "slide", frame: Rect(x: 4, y: 6, width: 40, height: 40),
                          contents: .shape(Shape(path: blob, fill: .solid(RGBA8(255, 200, 40, 220)))))
        slide.transform.translationX = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 40, duration: 2, repeatCount: .infinity))])
        let gradient = LinearGradient(start: Point(0, 0), end: Point(40, 30), startColor: RGBA8(255, 0, 80), endColor: RGBA8(0, 120, 255, 160))
        let tinted = Layer(name: "gradient", frame: Rect(x: 50, y: 20, width: 40, height: 40),
                           contents: .shape(Shape(path: blob, fill: .linearGradient(gradient))))

        // Boxes: rounded, bordered, replicated with tints and delays, their colour animated.
        let dot = Layer(name: "dot", frame: Rect(x: 3, y: 40, width: 7, height: 9),
                        contents: .box(Box(fillColor: Timeline(ColorValue(RGBA8(255, 0, 255)), animations: [
                            .basic(BasicAnimation(from: ColorValue(RGBA8(255, 0, 255)), to: ColorValue(RGBA8(0, 255, 255)), duration: 0.66,
                                                  function: .easeInEaseOut, repeatCount: .infinity, autoreverses: true))]),
                                           cornerRadius: 1.5, borderWidth: 0.5, borderColor: ColorValue(RGBA8(255, 255, 255)))))
        var row = Layer(name: "row", frame: Rect(x: 0, y: 0, width: 96, height: 64), sublayers: [dot])
        row.replicator = Replicator(count: 9, instanceTransform: AnimatableTransform(translationX: 10), instanceDelay: 0.02,
                                    colorOffset: Tint(r: 0, g: 0, b: 0, a: -0.08))
        var card = Layer(name: "card", frame: Rect(x: 30, y: 4, width: 36, height: 22),
                         contents: .box(Box(color: RGBA8(30, 160, 90), cornerRadius: 5, borderWidth: 2, borderColor: RGBA8(250, 250, 250, 200))))
        card.opacity = .constant(0.8)

        // A clip and a mask over a dynamic shape.
        let tri = Layer(name: "tri", frame: Rect(x: 0, y: 0, width: 20, height: 30),
                        contents: .shape(Shape(dynamic: Triangle(), fill: .solid(RGBA8(255, 255, 0)),
                                               parameters: [Timeline(10, animations: [.basic(BasicAnimation(from: 10, to: 28, duration: 1,
                                                                                                             repeatCount: .infinity, autoreverses: true))])])))
        var clip = Layer(name: "clip", frame: Rect(x: 70, y: 30, width: 16, height: 30), sublayers: [tri])
        clip.masksToBounds = true
        clip.mask = Layer(name: "mask", frame: Rect(x: 0, y: 10, width: 16, height: 20), contents: .box(Box(color: RGBA8(0, 0, 0, 160))))

        var picture = RGBAImage(width: 6, height: 4, fill: RGBA8(0, 0, 0, 0))
        for y in 0..<4 { for x in 0..<6 { picture[x, y] = RGBA8(UInt8(x * 40), UInt8(y * 60), 220, UInt8(120 + x * 20)) } }
        let image = Layer(name: "picture", frame: Rect(x: 6, y: 52, width: 6, height: 4), contents: .picture(Picture(picture)))

        let moving = scene(root([slide, tinted, row, card, clip, image]))

        // Turned and scaled cached content: sampled on the GPU.
        var spin = Layer(name: "spin", frame: Rect(x: 20, y: 10, width: 40, height: 40),
                         contents: .shape(Shape(path: blob, fill: .solid(RGBA8(120, 220, 255)))))
        spin.transform.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 2 * Double.pi, duration: 4, repeatCount: .infinity))])
        spin.transform.scaleX = .constant(1.2)
        var turnedBox = Layer(name: "turned", frame: Rect(x: 60, y: 30, width: 24, height: 14),
                              contents: .box(Box(color: RGBA8(255, 90, 40), cornerRadius: 4)))
        turnedBox.transform = AnimatableTransform(rotation: 0.5, scaleX: 1.3, scaleY: 0.8)
        let turned = scene(root([spin, turnedBox]))

        let rasterized = try Self.rasterized()

        return [
            Case(name: "tree-rasterized-moving", scene: rasterized.moving, times: [0, 0.05, 0.5, 1.35], wholePixels: true),
            Case(name: "tree-rasterized-turned", scene: rasterized.turned, times: [0, 0.37, 1.5], wholePixels: false),
            Case(name: "tree-moving", scene: moving, times: [0, 0.05, 0.5, 1.35], wholePixels: true),
            Case(name: "tree-copies", scene: copies(), times: [0, 0.1, 0.45, 0.93, 2.2], wholePixels: true),
            Case(name: "tree-turned", scene: turned, times: [0, 0.37, 1.5], wholePixels: false),
        ]
    }

    /// A crate-like layer to rasterize: a bordered box over a gradient
    /// shape and a clipped plank, its own look still (`RasterPicture.canCache`).
    public static func rasterizedCard(name: String = "card", x: Double, y: Double) throws -> Layer {
        var b = PathBuilder()
        try b.move(to: 2, 2); try b.line(to: 26, 4); try b.line(to: 14, 18); b.close()
        let gradient = LinearGradient(start: Point(0, 0), end: Point(28, 20), startColor: RGBA8(255, 220, 0), endColor: RGBA8(0, 90, 255, 200))
        let shape = Layer(name: "shape", frame: Rect(x: 0, y: 0, width: 28, height: 20), contents: .shape(Shape(path: b.path, fill: .linearGradient(gradient))))
        var plank = Layer(name: "plank", frame: Rect(x: -6, y: 8, width: 40, height: 4), contents: .box(Box(color: RGBA8(90, 50, 20))))
        plank.transform.rotation = .constant(0.6)
        var clip = Layer(name: "clip", frame: Rect(x: 0, y: 0, width: 28, height: 20), sublayers: [plank])
        clip.masksToBounds = true
        var card = Layer(name: name, frame: Rect(x: x, y: y, width: 28, height: 20),
                         contents: .box(Box(color: RGBA8(200, 140, 70), cornerRadius: 3, borderWidth: 2, borderColor: RGBA8(110, 60, 20))),
                         sublayers: [shape, clip])
        card.shouldRasterize = true
        return card
    }

    /// Rasterized layers (`shouldRasterize`): moved by whole pixels (cards
    /// of one look, translucent, under a mask, tinted copies of a
    /// replicator, and one whose sublayer animates so it cannot be cached),
    /// and turned and scaled.
    static func rasterized() throws -> (moving: Scene, turned: Scene) {
        var slide = try rasterizedCard(name: "slide", x: 2, y: 2)
        slide.transform.translationX = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 40, duration: 2, repeatCount: .infinity))])
        // Translucent and tinted pictures are composited as one (group opacity): a look whose parts never overlap
        // draws the same item by item, as the CPU strategy draws it.
        var faint = Layer(name: "faint", frame: Rect(x: 60, y: 4, width: 28, height: 20), contents: .box(Box(color: RGBA8(40, 200, 120), cornerRadius: 5)))
        faint.shouldRasterize = true
        faint.opacity = .constant(0.6)
        var card = faint
        (card.name, card.position, card.opacity) = ("card", AnimatablePoint(18, 40), .constant(1))
        var masked = Layer(name: "masked", frame: Rect(x: 0, y: 0, width: 96, height: 64), sublayers: [card])
        masked.mask = Layer(name: "mask", frame: Rect(x: 0, y: 36, width: 20, height: 28), contents: .box(Box(color: RGBA8(0, 0, 0, 170))))
        var copy = faint
        (copy.name, copy.position, copy.opacity) = ("copy", AnimatablePoint(50, 35), .constant(1))
        var row = Layer(name: "row", frame: Rect(x: 0, y: 0, width: 96, height: 64), sublayers: [copy])
        row.replicator = Replicator(count: 2, instanceTransform: AnimatableTransform(translationX: 30), colorOffset: Tint(r: -0.3, g: 0, b: 0, a: -0.2))
        var changing = try rasterizedCard(name: "changing", x: 36, y: 44)
        changing.sublayers[0].opacity = Timeline(1, animations: [.basic(BasicAnimation(from: 1, to: 0.2, duration: 1, repeatCount: .infinity))])
        let moving = scene(root([slide, faint, masked, row, changing]))

        var spin = try rasterizedCard(name: "spin", x: 14, y: 16)
        spin.transform.rotation = Timeline(0, animations: [.basic(BasicAnimation(from: 0, to: 2 * Double.pi, duration: 4, repeatCount: .infinity))])
        var grown = try rasterizedCard(name: "grown", x: 56, y: 30)
        grown.transform = AnimatableTransform(rotation: -0.4, scaleX: 1.25, scaleY: 0.9)
        grown.position.x = Timeline(70, animations: [.basic(BasicAnimation(from: 60, to: 75.3, duration: 1.7, repeatCount: .infinity))])
        return (moving, scene(root([spin, grown])))
    }
}
