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

        return [
            Case(name: "tree-moving", scene: moving, times: [0, 0.05, 0.5, 1.35], wholePixels: true),
            Case(name: "tree-turned", scene: turned, times: [0, 0.37, 1.5], wholePixels: false),
        ]
    }
}
