import ArgumentParser
import WaveCore
import WaveEffects

/// `--scene table`: how many rows, how tall, what scrolls them, and the
/// cards' shadows with their cache.
extension ScrollMode: ExpressibleByArgument {}

struct TableOptions: ParsableArguments {
    @Option(help: "Rows in the table, 1 to \(Table.maxRows), only the rows in view having cells; waves bench: the counts to sweep, a comma-separated list (default: 100; waves bench: 10,100,1000,10000).")
    var rows: String?

    @Option(name: .customLong("row-height"), parsing: .unconditional, help: "Row height in whole pixels (default: 88, a phone's 44-point row at 2x, or the height where that is less).",
            transform: parseWhole("a whole number of pixels"))
    var rowHeight: Int?

    @Option(help: "What scrolls the table: fling (a flick every 4 s, down and up in turn, decelerating 0.998 a millisecond as a scroll view does), constant (a steady speed, down and back), or none (still until the demo's wheel, drag or Page keys) (default: fling).")
    var scroll: ScrollMode?

    @Option(name: .customLong("scroll-speed"), parsing: .unconditional, help: "Pixels a second, 0 to 100000: a flick's start speed or the constant speed (default: 2500 for a flick, 600 constant).")
    var scrollSpeed: Double?

    @Flag(help: "Each card casts a blurred shadow (black, half opacity, 4 px down, 6 px blur).")
    var shadow = false

    @Flag(name: .customLong("no-shadow-cache"), help: "With --shadow: do not rasterize the cards (shouldRasterize off): the GL strategy paints every card and its shadow again every frame, as the CPU strategy does.")
    var noShadowCache = false

    func check() throws {
        if let scrollSpeed {
            guard scrollSpeed.isFinite, (0...100_000).contains(scrollSpeed) else {
                throw UsageError(option: "--scroll-speed", value: "\(scrollSpeed)", accepted: "pixels a second from 0 to 100000")
            }
        }
        if noShadowCache {
            guard shadow else { throw UsageError(option: "--no-shadow-cache", value: "", accepted: "only with --shadow") }
        }
    }

    /// The table's template (the size, rows and wave come later).
    func template() -> Table {
        var table = Table(width: 1, height: 1)
        table.rowHeight = rowHeight
        table.scroll = scroll ?? table.scroll
        table.scrollSpeed = scrollSpeed
        table.shadow = shadow
        table.cachesShadow = !noShadowCache
        return table
    }
}
