import CGL
import WaveCore
import WaveEffects
import WaveGL
import WaveTestSupport
@testable import WaveWindow
import XCTest

/// The demo's display: the H key's cycle, the compact panel's size, the
/// frame-time graph's geometry (worked out here from the values fed in) and
/// its pixels. (A frame's draw in every mode allocating nothing: `DemoFramePathTests`.)
final class DemoDisplayTests: XCTestCase {
    func testTheHKeyCyclesOffCompactFullOff() {
        XCTAssertEqual(HUDMode.off.next, .compact)
        XCTAssertEqual(HUDMode.compact.next, .full)
        XCTAssertEqual(HUDMode.full.next, .off)
        var seen: [HUDMode] = [.off]
        for _ in 0..<3 { seen.append(seen.last!.next) }
        XCTAssertEqual(seen, [.off, .compact, .full, .off])
    }

    func testTheRingKeepsTheLastValuesOldestFirst() {
        var ring = RingBuffer(capacity: 3)
        XCTAssertEqual(ring.ordered, [])
        ring.append(1)
        ring.append(2)
        XCTAssertEqual(ring.ordered, [1, 2])
        for v in 3...5 { ring.append(Double(v)) }
        XCTAssertEqual(ring.ordered, [3, 4, 5])
        XCTAssertEqual(ring.count, 3)
        XCTAssertEqual(ring[0], 3)
    }

    func testLongLinesWrapAtSpacesAndAWordTooWideStaysWhole() {
        let fitsTen = { (s: String) in s.count <= 10 }
        XCTAssertEqual(HUDLayout.wrap("one two three four", fits: fitsTen), ["one two", "three four"])
        XCTAssertEqual(HUDLayout.wrap("a  b", fits: fitsTen), ["a  b"])
        XCTAssertEqual(HUDLayout.wrap("abcdefghijklmno xy", fits: fitsTen), ["abcdefghijklmno", "xy"])
        XCTAssertEqual(HUDLayout.wrap("short", fits: fitsTen), ["short"])
    }

    /// The compact panel's worst case at 1280x720 (a GL caption that wraps,
    /// an effect's line that wraps) stays under 15% of a half; the full
    /// display's text is larger and has more lines.
    func testTheCompactPanelStaysUnderFifteenPercentOfAHalfAt1280x720() {
        let half = 640.0 * 720
        let worst = [HUDLine("GL: cached where still, computed on the GPU where it changes"),
                     HUDLine("CPU 12.345 ms/frame", ink: .cpu), HUDLine("GPU 0.0123 ms/frame", ink: .gpu),
                     HUDLine("123.4 fps  motion linear  PAUSED"),
                     HUDLine("gravity 259, 966 px/s2 (Left/Right tilt)")]
        let compact = HUDLayout(worst, mode: .compact, halfWidth: 640)
        XCTAssertEqual(compact.scale, HUDLayout.compactScale)
        XCTAssertEqual(compact.lines.count, 6, "the caption wraps at the graph's width: \(compact.lines)")
        XCTAssertEqual(compact.graph.width, HUDLayout.graphWidth)
        XCTAssertLessThan(compact.panel.width * compact.panel.height / half, 0.15)
        XCTAssertLessThanOrEqual(compact.panel.maxX, 640)
        // The graph sits in the panel, under the text.
        XCTAssertGreaterThanOrEqual(compact.graph.y, compact.texts[compact.lines.count - 1].y + HUDLayout.lineHeight * compact.scale)
        XCTAssertLessThanOrEqual(compact.graph.maxY, compact.panel.maxY)
        let full = HUDLayout(worst, mode: .full, halfWidth: 640)
        XCTAssertGreaterThan(full.scale, compact.scale)
        XCTAssertGreaterThan(full.panel.width * full.panel.height, 1.5 * compact.panel.width * compact.panel.height)
        // A half narrower than the graph: the graph and the text shrink to fit.
        let narrow = HUDLayout(worst, mode: .compact, halfWidth: 200)
        XCTAssertLessThanOrEqual(narrow.panel.maxX, 200)
        XCTAssertEqual(narrow.scale, 1)
    }

    /// Known frame times fed in: each bar rises from the graph's bottom by
    /// its value's share of 25 ms (a value over it stops at the top), newest
    /// at the right, two pixels a frame; the GPU line's points at the same
    /// heights in the middle of their slots; the budget line a pixel row
    /// two thirds of the way up (16.7 of 25 ms).
    func testTheGraphsHeightsAreTheFrameTimes() {
        let area = Rect(x: 10, y: 20, width: 360, height: 48)
        var history = FrameTimeHistory()
        let cpu = [0, 5, 12.5, 16.7, 25, 40]
        for v in cpu { history.cpu.append(v) }
        for v in [1.0, 2] { history.gpu.append(v) }
        var vertices = [Float](repeating: .nan, count: 2 * FrameTimeGraph.Part.vertexCount)
        let written = vertices.withUnsafeMutableBufferPointer { FrameTimeGraph.write(history, in: area, into: $0) }
        XCTAssertEqual(written.barVertices, 6 * cpu.count)
        XCTAssertEqual(written.linePoints, 2)
        func corners(_ firstVertex: Int) -> (x0: Float, y0: Float, x1: Float, y1: Float) {
            let v = vertices[(2 * firstVertex)..<(2 * firstVertex + 12)]
            let xs = stride(from: v.startIndex, to: v.endIndex, by: 2).map { v[$0] }
            let ys = stride(from: v.startIndex + 1, to: v.endIndex, by: 2).map { v[$0] }
            return (xs.min()!, ys.min()!, xs.max()!, ys.max()!)
        }
        for (i, value) in cpu.enumerated() {
            let bar = corners(FrameTimeGraph.Part.bars + 6 * i)
            let height = min(value, 25) / 25 * 48
            XCTAssertEqual(Double(bar.y1), 68, "bar \(i) stands on the bottom")
            XCTAssertEqual(Double(bar.y1 - bar.y0), height, accuracy: 1e-4, "bar \(i): \(value) ms")
            XCTAssertEqual(Double(bar.x0), 10 + Double(180 - cpu.count + i) * 2, "bar \(i)'s slot")
            XCTAssertEqual(Double(bar.x1 - bar.x0), 2)
        }
        XCTAssertEqual(Double(corners(FrameTimeGraph.Part.bars + 6 * (cpu.count - 1)).x1), area.maxX, "the newest at the right edge")
        for (i, value) in [1.0, 2].enumerated() {
            let v = 2 * (FrameTimeGraph.Part.line + i)
            XCTAssertEqual(Double(vertices[v]), 10 + (Double(178 + i) + 0.5) * 2)
            XCTAssertEqual(Double(vertices[v + 1]), 68 - value / 25 * 48, accuracy: 1e-4)
        }
        let budget = corners(FrameTimeGraph.Part.budgetLine)
        XCTAssertEqual(budget.y0, 36, "16.7 ms is 32 of 48 pixels up from 68")
        XCTAssertEqual(budget.y1 - budget.y0, 1)
        XCTAssertEqual([budget.x0, budget.x1], [10, 370])
        let backdrop = corners(FrameTimeGraph.Part.backdrop)
        XCTAssertEqual([backdrop.x0, backdrop.y0, backdrop.x1, backdrop.y1], [10, 20, 370, 68])
    }

    /// The graph drawn: each frame's column is its bar's colour up to its
    /// value's height, the budget line's row is lighter than the rows either side.
    func testTheGraphIsDrawnAtItsValues() throws {
        let context = try GLRequirement.need("a headless GL context") { try HeadlessGLContext() }
        try withExtendedLifetime(context) {
            let (width, height) = (380, 80)
            let offscreen = try OffscreenFramebuffer(width: width, height: height)
            let graph = FrameTimeGraph(program: try FlatColorProgram())
            graph.area = Rect(x: 10, y: 20, width: 360, height: 48)
            var history = FrameTimeHistory()
            // 0 to 29 ms over and over: those over 25 ms reach the top.
            for i in 0..<FrameTimeHistory.frames { history.cpu.append(Double(i % 30)) }
            glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), offscreen.id)
            glClearColor(0, 0, 0, 1)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            graph.draw(history, viewport: Viewport(x: 0, y: 0, width: width, height: height))
            XCTAssertEqual(pendingGLErrors(), [])
            let image = readShownPixels(framebuffer: offscreen.id, width: width, height: height)
            let bar = HUDInk.cpu.rgba
            func isBar(_ p: RGBA8) -> Bool {
                abs(Int(p.r) - Int(bar.red * 255)) <= 1 && abs(Int(p.g) - Int((bar.green * 255).rounded())) <= 1
                    && abs(Int(p.b) - Int((bar.blue * 255).rounded())) <= 1
            }
            let budgetRow = 36
            for slot in 0..<FrameTimeHistory.frames {
                let value = Double(slot % 30)
                let expected = Int((min(value, 25) / 25 * 48).rounded())
                for x in [10 + 2 * slot, 11 + 2 * slot] {
                    // Rows of the bar's colour, the budget row (blended over) counted where the bar reaches it.
                    let coloured = (20..<68).filter { $0 != budgetRow && isBar(image[x, $0]) }.count
                    let throughBudget = expected > 68 - budgetRow - 1 ? 1 : 0
                    XCTAssertEqual(Double(coloured + throughBudget), Double(expected), accuracy: 1, "column \(x): \(value) ms")
                    XCTAssertFalse(isBar(image[x, 19]), "nothing above the graph")
                }
            }
            // Where no bar reaches: the budget row is the line's, lighter than the backdrop either side.
            let x = 10 + 2 * 1 // 1 ms
            XCTAssertGreaterThan(image[x, budgetRow].r, 150)
            XCTAssertLessThan(image[x, budgetRow - 1].r, 60)
            XCTAssertLessThan(image[x, budgetRow + 1].r, 60)
        }
    }
}
