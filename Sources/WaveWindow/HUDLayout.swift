import CStbEasyFont
import WaveCore

/// What the demo's H key shows over each half: nothing, a compact panel
/// (the strategy, its CPU and GPU milliseconds a frame, the frame rate, the
/// effect's one line and the frame-time graph) or the full display (every
/// line: settings, pacing, keys, and the graph).
public enum HUDMode: String, CaseIterable, Sendable {
    case off, compact, full

    /// The next in the H key's cycle.
    public var next: HUDMode {
        switch self {
        case .off: .compact
        case .compact: .full
        case .full: .off
        }
    }
}

/// The display's colours, in one place: the text, the two figures (and
/// their marks in the graph), the panel and the graph's backdrop and
/// frame-budget line. Straight alpha: drawn with (SRC_ALPHA, ONE_MINUS_SRC_ALPHA).
enum HUDInk {
    case text, cpu, gpu, panel, graphBackdrop, budgetLine

    var rgba: (red: Float, green: Float, blue: Float, alpha: Float) {
        switch self {
        case .text: (1, 1, 1, 1)
        case .cpu: (1, 0.62, 0.2, 1)
        case .gpu: (0.35, 0.85, 1, 1)
        case .panel: (0, 0, 0, 0.72)
        case .graphBackdrop: (1, 1, 1, 0.08)
        case .budgetLine: (1, 1, 1, 0.85)
        }
    }
}

/// One line of the display and the colour it is drawn in.
struct HUDLine: Equatable {
    var text: String
    var ink: HUDInk = .text

    init(_ text: String, ink: HUDInk = .text) {
        self.text = text
        self.ink = ink
    }
}

/// A piece of the display's text where it goes: its top left in pixels
/// from the half's top left (y down), and font units to pixels.
struct PlacedText: Equatable {
    var line: HUDLine
    var x: Double, y: Double
    var scale: Double
}

/// Where a half's display goes, in pixels from the half's top left (y
/// down): a panel at the top left holding the lines (wrapped to the
/// panel's width) and, under them, the frame-time graph, its 16.7 ms line
/// labelled. Compact text is
/// smaller than full text and wraps at the graph's width, so the compact
/// panel stays a fixed size at a given window width; full text shrinks (to
/// half size at most) to fit the half, as the display always did.
struct HUDLayout: Equatable {
    /// From the half's edges to the panel, and from the panel's edges to its contents.
    static let margin = 8.0, padding = 6.0
    /// Between the last line and the graph.
    static let gap = 4.0
    /// stb_easy_font's line height, in font units (one unit a pixel at scale 1).
    static let lineHeight = 12.0
    /// The graph at full size: two pixels a frame of `FrameTimeHistory.frames`.
    static let graphWidth = Double(2 * FrameTimeHistory.frames), graphHeight = 48.0
    /// Font units to pixels: compact at the graph's full width, and full at its largest.
    static let compactScale = 1.5, fullScale = 2.0

    let scale: Double
    /// The lines as drawn, long ones wrapped.
    let lines: [HUDLine]
    let panel: Rect
    let graph: Rect
    /// The lines and the graph's label, placed.
    let texts: [PlacedText]

    /// What the graph's frame-budget line is labelled with (drawn at scale 1, above the line's left end).
    static let budgetLabel = String(format: "%.1f ms", FrameTimeGraph.budgetMilliseconds)

    /// `lines` laid out for `mode` (not `.off`) in a half `halfWidth` pixels wide.
    init(_ lines: [HUDLine], mode: HUDMode, halfWidth: Int) {
        precondition(mode != .off, "nothing is laid out when the display is off")
        let room = max(1, Double(halfWidth) - 2 * (Self.margin + Self.padding))
        let graphWidth = min(Self.graphWidth, room)
        let textWidth: Double
        switch mode {
        case .compact:
            textWidth = graphWidth
            scale = max(1, min(Self.compactScale, Self.compactScale * graphWidth / Self.graphWidth))
        default:
            textWidth = room
            let widest = lines.map { Self.width(of: $0.text) }.max() ?? 0
            scale = widest > 0 ? max(1, min(Self.fullScale, room / widest)) : Self.fullScale
        }
        let scale = scale
        self.lines = lines.flatMap { line in
            Self.wrap(line.text) { Self.width(of: $0) * scale <= textWidth }.map { HUDLine($0, ink: line.ink) }
        }
        let textHeight = Double(self.lines.count) * Self.lineHeight * scale
        let widestLine = self.lines.map { Self.width(of: $0.text) * scale }.max() ?? 0
        let contentWidth = max(graphWidth, widestLine)
        panel = Rect(x: Self.margin, y: Self.margin, width: contentWidth + 2 * Self.padding,
                     height: textHeight + Self.gap + Self.graphHeight + 2 * Self.padding)
        let graph = Rect(x: Self.margin + Self.padding, y: Self.margin + Self.padding + textHeight + Self.gap,
                         width: graphWidth, height: Self.graphHeight)
        self.graph = graph
        texts = self.lines.enumerated().map { index, line in
            PlacedText(line: line, x: Self.margin + Self.padding, y: Self.margin + Self.padding + Double(index) * Self.lineHeight * scale,
                       scale: scale)
        } + [PlacedText(line: HUDLine(Self.budgetLabel, ink: .budgetLine), x: graph.x + 3,
                        y: FrameTimeGraph.budgetRow(in: graph) - 9, scale: 1)]
    }

    /// `text`'s width in font units.
    static func width(of text: String) -> Double { Double(waves_text_width(text)) }

    /// `text` broken at spaces into lines that each `fit`, greedily; a word
    /// wider than a line is left whole on a line of its own (the viewport clips it).
    static func wrap(_ text: String, fits: (String) -> Bool) -> [String] {
        var lines: [String] = []
        var rest = Substring(text)
        while !fits(String(rest)) {
            var cut: Substring.Index?
            var searchFrom = rest.startIndex
            while let space = rest[searchFrom...].firstIndex(of: " ") {
                let head = rest[..<space]
                guard fits(String(head)) else { break }
                if head.contains(where: { $0 != " " }) { cut = space }
                searchFrom = rest.index(after: space)
            }
            // A first word wider than a line: on a line of its own.
            guard let cut = cut ?? rest.indices.first(where: { rest[$0] == " " && rest[..<$0].contains { $0 != " " } }) else { break }
            var head = rest[..<cut]
            while head.last == " " { head = head.dropLast() }
            lines.append(String(head))
            rest = rest[cut...].drop { $0 == " " }
        }
        lines.append(String(rest))
        return lines
    }
}
