import Foundation
import WaveCore

/// The waving-view post's experiment: a table of rows, a waving view in
/// every row, scrolled. A composition of the layer tree as UIKit builds a
/// table view: a scroll layer the screen's size (masksToBounds) whose
/// bounds origin is the content offset, holding only the cells that can be
/// in view (a table view's reuse), each placed at the top of the row it
/// shows. Both follow a `ScrollMotion` (channel 0: the offset; channel
/// 1 + k: cell k's row top), so a cell leaving the top is reused for the
/// row coming in at the bottom. A cell is a card (a rounded box) holding one
/// waving view (`SineCells`' band, clipped, looping); every row waves alike,
/// as every cell of the post's table did.
///
/// With `shadow`, each card casts a blurred shadow (`Layer.shadow`). The
/// card is then rasterized (`shouldRasterize`, the tuning chapter's fix for
/// the contact list's shadows) unless `cachesShadow` is off: the GL
/// strategy paints each card and its shadow once and moves the picture;
/// without the cache it paints them again every frame, as the CPU strategy
/// does everything.
public struct Table: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var background = Scene.defaultBackground
    /// Rows in the content.
    public var rows = 100
    /// Pixels a row (nil: `defaultRowHeight`, or the height where that is less).
    public var rowHeight: Int?
    public var wave = WaveParameters()
    public var snapToPixel = false
    public var scroll = ScrollMode.fling
    /// Pixels a second: a flick's start speed, or the constant speed (nil: 2500 a flick, 600 constant).
    public var scrollSpeed: Double?
    public var shadow = false
    public var cachesShadow = true
    public var cardColor = RGBA8(0x1C, 0x28, 0x40)

    /// A 44-point row at 2x.
    public static let defaultRowHeight = 88
    /// The most rows a table holds.
    public static let maxRows = 1_000_000
    /// Space round each card, and its corners' radius.
    public static let margin = 6, cornerRadius = 8.0
    /// The cards' shadow: black at half opacity, 4 px down, blurred 6 px.
    public static let cardShadow = Shadow(color: RGBA8(0, 0, 0, 255), opacity: 0.5, offset: Point(0, 4), radius: 6)

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var speed: Double { scrollSpeed ?? (scroll == .constant ? 600 : 2500) }

    /// The row height drawn: the one asked for, else the default row or the whole height where that is less.
    public var row: Int { rowHeight ?? Swift.min(Self.defaultRowHeight, height) }

    /// The table's own parameters, declared once, then each row's wave's (its rows are its count).
    public static let parameters = ParameterList(defaults: Table(width: 1, height: 1), [
        .whole("row-height", \.rowHeight, (2 * margin + 2)...4096, what: "pixels",
               help: "Row height in whole pixels, at most the height.",
               defaultText: "88, a phone's 44-point row at 2x, or the height where that is less"),
        .choice("scroll", \.scroll,
                help: "What scrolls the table: fling (a flick every 4 s, down and up in turn, decelerating 0.998 a millisecond as a scroll view does), constant (a steady speed, down and back), or none (still until the demo's wheel, drag or Page keys)."),
        .number("scroll-speed", \.scrollSpeed, 0...100_000, what: "pixels a second", valueName: "pixels-per-second",
                help: "Pixels a second: a flick's start speed or the constant speed.", defaultText: "2500 for a flick, 600 constant"),
        .flag("shadow", \.shadow, help: "Each card casts a blurred shadow (black, half opacity, 4 px down, 6 px blur)."),
        .flag("no-shadow-cache", \.cachesShadow, sets: false,
              help: "With --shadow: do not rasterize the cards (shouldRasterize off): the GL strategy paints every card and its shadow again every frame, as the CPU strategy does.",
              requires: "shadow"),
    ]).with(WaveParameters.parameters, at: \.wave)

    public func validate() throws {
        try Scene.validate(width: width, height: height)
        guard (1...Self.maxRows).contains(rows) else {
            throw ValueError(parameter: "rows", value: "\(rows)", accepted: "a whole number of rows from 1 to \(Self.maxRows)")
        }
        guard width >= 2 * Self.margin + 2, height >= 2 * Self.margin + 2 else {
            throw ValueError(parameter: "size", value: "\(width)x\(height)", accepted: "at least \(2 * Self.margin + 2) pixels each way for a table")
        }
        guard row >= 2 * Self.margin + 2, row <= height, row <= 4096 else {
            throw ValueError(parameter: "row-height", value: "\(row)",
                             accepted: "whole pixels from \(2 * Self.margin + 2) to the height (\(height)), at most 4096")
        }
        try Self.parameters.check(self)
        try wave.validate(width: width - 2 * Self.margin)
    }

    /// The scroll view this table follows (the scene holds it too: `Scene.scrollViews`).
    public func motion() -> ScrollMotion {
        ScrollMotion(mode: scroll, speed: speed, rows: rows, rowHeight: row, viewHeight: height)
    }

    public func scene() throws -> Scene {
        try validate()
        let motion = motion()
        var sources: [Level] = [.simulated(SimulatedChannel(motion, channel: 0))]
        // One waving view, reused in every card: its band is made once.
        let m = Self.margin
        var cells = SineCells(width: width - 2 * m, height: row - 2 * m)
        cells.wave = wave
        cells.snapToPixel = snapToPixel
        guard var view = try cells.scene().tree?.root.sublayers.first else {
            throw ValueError(parameter: "scene", value: "table", accepted: "a waving view (internal: none was made)")
        }
        view.name = "waving view"
        var card = Layer(name: "card", frame: Rect(x: Double(m), y: Double(m), width: Double(width - 2 * m), height: Double(row - 2 * m)),
                         contents: .box(Box(color: cardColor, cornerRadius: Self.cornerRadius)))
        if shadow {
            card.shadow = Self.cardShadow
            card.shouldRasterize = cachesShadow
        }
        var reused: [Layer] = []
        for k in 0..<motion.cells {
            var wavingView = view
            wavingView.position = AnimatablePoint(Double(m) + wavingView.size.width / 2, Double(m) + wavingView.size.height / 2)
            var cell = Layer(name: "cell \(k)", frame: Rect(x: 0, y: 0, width: Double(width), height: Double(row)),
                             sublayers: [card, wavingView])
            cell.anchorPoint = Point(0, 0)
            cell.position = AnimatablePoint(0, 0)
            sources.append(.simulated(SimulatedChannel(motion, channel: 1 + k)))
            cell.position.y = Timeline(0.0, animations: [.driven(Driven(source: sources.count - 1, from: 0, to: 1))])
            reused.append(cell)
        }
        var scrollLayer = Layer(name: "table", frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), sublayers: reused)
        scrollLayer.masksToBounds = true
        scrollLayer.boundsOrigin.y = Timeline(0.0, animations: [.driven(Driven(source: 0, from: 0, to: 1))])
        return Scene(width: width, height: height, background: background, tree: LayerTree(root: scrollLayer, sources: sources))
    }
}
