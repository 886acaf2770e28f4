import WaveCore

/// One scene per primitive of the layer tree, each on its own over the
/// table preset's screen, for `waves bench --preset primitives`: what each
/// costs drawn by either strategy. On a software GL driver the GL strategy's
/// per-pixel work is the process's CPU too, so the preset compares process
/// CPU per frame; the GL strategy should cost no more than redrawing.
public enum Primitives {
    public struct Case: Sendable {
        /// A short name (the preset's row).
        public let name: String
        /// What the GL strategy draws it with.
        public let drawnBy: String
        public let make: @Sendable (_ width: Int, _ height: Int) throws -> Scene
    }

    /// Every primitive: boxes still and moving, a fixed path moving in a clip,
    /// a dynamic path, replicated boxes, a picture, a mask, rasterized layers with shadows.
    public static let all: [Case] = [
        Case(name: "box", drawnBy: "boxes' outlines, their coverage computed per pixel", make: { try cards($0, $1, moving: false) }),
        Case(name: "box, moving", drawnBy: "the same, the column scrolling", make: { try cards($0, $1, moving: true) }),
        Case(name: "fixed path in a clip", drawnBy: "a cached coverage picture (software GL: painted copies)", make: { w, h in
            var cells = SineCells(width: w, height: h)
            cells.cellCount = rows(h)
            return try cells.scene()
        }),
        Case(name: "dynamic path", drawnBy: "an outline rebuilt every frame, its coverage computed per pixel",
             make: { try Jelly(width: $0, height: $1).scene() }),
        Case(name: "replicated boxes", drawnBy: "every copy's timelines evaluated on the GPU, one instanced draw",
             make: { try Dots(width: $0, height: $1).scene() }),
        Case(name: "picture, moving", drawnBy: "an uploaded texture, sampled", make: { try picture($0, $1) }),
        Case(name: "mask, moving", drawnBy: "a mask texture drawn first, then the masked layer", make: { try masked($0, $1) }),
        Case(name: "rasterized, shadow", drawnBy: "each card and its shadow painted once, instanced pictures",
             make: { try cards($0, $1, moving: true, shadow: true) }),
    ]

    /// A phone's 44-point rows at 2x down the screen.
    static func rows(_ height: Int) -> Int { max(1, height / 88) }

    /// A column of rounded cards, a row each, still or scrolling 88 px up and back every 2 s.
    static func cards(_ width: Int, _ height: Int, moving: Bool, shadow: Bool = false) throws -> Scene {
        try Scene.validate(width: width, height: height)
        let m = 6.0, row = 88.0
        var cards: [Layer] = []
        for k in 0..<(rows(height) + 1) {
            var card = Layer(name: "card \(k)", frame: Rect(x: m, y: Double(k) * row + m, width: Double(width) - 2 * m, height: row - 2 * m),
                             contents: .box(Box(color: RGBA8(0x1C, 0x28, 0x40), cornerRadius: 8)))
            if shadow {
                card.shadow = Table.cardShadow
                card.shouldRasterize = true
            }
            cards.append(card)
        }
        var column = Layer(name: "column", frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), sublayers: cards)
        if moving {
            column.position.y = Timeline(Double(height) / 2, animations: [
                .basic(BasicAnimation(from: Double(height) / 2, to: Double(height) / 2 - row, duration: 1, function: .easeInEaseOut,
                                      repeatCount: .infinity, autoreverses: true))])
        }
        return Scene(width: width, height: height, tree: LayerTree(root: column))
    }

    /// A 256x256 picture (a colour ramp, its alpha falling to the edges) drifting round the screen.
    static func picture(_ width: Int, _ height: Int) throws -> Scene {
        try Scene.validate(width: width, height: height)
        let side = 256
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        for y in 0..<side {
            for x in 0..<side {
                let i = (y * side + x) * 4, edge = min(min(x, side - 1 - x), min(y, side - 1 - y))
                pixels[i] = UInt8(x); pixels[i + 1] = UInt8(y); pixels[i + 2] = 200; pixels[i + 3] = UInt8(min(255, edge * 8))
            }
        }
        var layer = Layer(name: "picture", frame: Rect(x: 0, y: 0, width: Double(side), height: Double(side)),
                          contents: .picture(Picture(RGBAImage(width: side, height: side, pixels: pixels))))
        layer.position = drifting(width, height, Double(side))
        return Scene(width: width, height: height, tree: LayerTree(root: screen(width, height, [layer])))
    }

    /// A large box seen through a round mask that drifts over it.
    static func masked(_ width: Int, _ height: Int) throws -> Scene {
        try Scene.validate(width: width, height: height)
        let side = Double(min(width, height)) * 0.6
        var box = Layer(name: "masked box", frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)),
                        contents: .box(Box(color: RGBA8(0x3A, 0x9B, 0xFF))))
        var mask = Layer(name: "round mask", frame: Rect(x: 0, y: 0, width: side, height: side),
                         contents: .box(Box(color: RGBA8(255, 255, 255), cornerRadius: side / 2)))
        mask.position = drifting(width, height, side)
        box.mask = mask
        return Scene(width: width, height: height, tree: LayerTree(root: screen(width, height, [box])))
    }

    static func screen(_ width: Int, _ height: Int, _ sublayers: [Layer]) -> Layer {
        Layer(name: "screen", frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), sublayers: sublayers)
    }

    /// A centre moving corner to corner and back every 3 s (fractional offsets every frame).
    static func drifting(_ width: Int, _ height: Int, _ side: Double) -> AnimatablePoint {
        let from = side / 2, toX = Double(width) - side / 2, toY = Double(height) - side / 2
        func axis(_ to: Double) -> Timeline<Double> {
            Timeline(from, animations: [.basic(BasicAnimation(from: from, to: to, duration: 1.5, function: .easeInEaseOut,
                                                              repeatCount: .infinity, autoreverses: true))])
        }
        return AnimatablePoint(x: axis(toX), y: axis(toY))
    }
}
