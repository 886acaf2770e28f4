import Foundation
import WaveCore
import WaveImageIO
import WaveTestSupport
import XCTest

/// The demo as a person runs it: a real window under Xvfb, and the headless
/// fallback where there is no display. Each half of the picture must match a
/// headless render of the same scene at the same (paused) time, outside the
/// heads-up display.
final class DemoCommandTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// Rows from the top that the compact display may cover at this size (144: five
    /// lines, the strategy, its figures and the verdict, and the frame-time graph, in a panel).
    private let hudRows = 146
    private let demoArguments = ["demo", "--size", "640x400", "--cells", "4", "--cycles", "2",
                                 "--time", "0.25", "--paused", "--duration", "2", "--screenshot", "shot.png"]

    private func expectedHalf() throws -> RGBAImage {
        let r = try WavesBinary.run(["render", "--backend", "cpu", "--size", "320x400", "--cells", "4",
                                     "--cycles", "2", "--time", "0.25", "--out", "half.png"], in: folder)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try PNG.read(from: folder + "/half.png")
    }

    private func checkHalves(_ name: String) throws {
        let shot = try PNG.read(from: folder + "/shot.png")
        XCTAssertEqual(shot.width, 640)
        XCTAssertEqual(shot.height, 400)
        // The divider takes the column either side of the middle.
        let expected = try expectedHalf()
        let left = shot.cropped(rows: hudRows..<400, columns: 0..<319)
        let right = shot.cropped(rows: hudRows..<400, columns: 321..<640)
        assertImagesMatch(left, expected.cropped(rows: hudRows..<400, columns: 0..<319), mean: 0.5, max: 1, name: "\(name)-cpu-half")
        assertImagesMatch(right, expected.cropped(rows: hudRows..<400, columns: 1..<320), mean: 0.5, max: 1, name: "\(name)-gl-half")
        // The divider is there, light against the wave's colours.
        let divider = shot.cropped(rows: hudRows..<400, columns: 319..<321)
        XCTAssert(divider.pixels.enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element > 200 }, "no divider between the halves")
    }

    func testWindowUnderXvfbShowsBothStrategies() throws {
        try GLRequirement.needPrograms(["/usr/bin/xvfb-run"], hint: "apt-get install xvfb xauth")
        let r = try WavesBinary.run(demoArguments, in: folder,
                                    launcher: ["/usr/bin/xvfb-run", "-a", "-s", "-screen 0 800x600x24"])
        XCTAssertEqual(r.status, 0, r.stderr + r.stdout)
        XCTAssertFalse(r.stderr.contains("headless"), "the window did not open: \(r.stderr)")
        XCTAssertTrue(r.stdout.contains(Format.strategy(.cpu)) && r.stdout.contains(Format.strategy(.gl)), r.stdout)
        try checkHalves("demo-window")
    }

    /// `--on-change`: a paused window draws its first frame and then sleeps
    /// (no frame for over a second); without it, it draws every refresh.
    func testAPausedWindowDrawingOnChangeSleeps() throws {
        try GLRequirement.needPrograms(["/usr/bin/xvfb-run"], hint: "apt-get install xvfb xauth")
        func framesDrawn(_ extra: [String]) throws -> Int {
            let r = try WavesBinary.run(["demo", "--size", "320x120", "--paused", "--duration", "1.5"] + extra, in: folder,
                                        launcher: ["/usr/bin/xvfb-run", "-a", "-s", "-screen 0 800x600x24"])
            XCTAssertEqual(r.status, 0, r.stderr + r.stdout)
            let count = r.stdout.components(separatedBy: "frames drawn: ").last?.prefix { $0.isNumber }
            return try XCTUnwrap(count.flatMap { Int($0) }, r.stdout)
        }
        XCTAssertLessThanOrEqual(try framesDrawn(["--on-change"]), 2)
        XCTAssertGreaterThan(try framesDrawn([]), 20)
        // The waveform draws on change by default (the lesson's look), unless told not to.
        XCTAssertLessThanOrEqual(try framesDrawn(["--scene", "waveform"]), 2)
        XCTAssertGreaterThan(try framesDrawn(["--scene", "waveform", "--no-on-change"]), 20)
    }

    /// The crates under a plain timer with a stall every second: the window
    /// reports the pacing it measured and the physics cap holding; the jelly
    /// (no simulation) reports no physics, and vsync that Xvfb does not honour
    /// is said so, with no missed frames or 1/60 error to mislead.
    func testThePacingOfTheWindowIsMeasuredAndTheCapHolds() throws {
        try GLRequirement.needPrograms(["/usr/bin/xvfb-run"], hint: "apt-get install xvfb xauth")
        let r = try WavesBinary.run(["demo", "--scene", "crates", "--size", "480x200", "--pacing", "timer", "--stall", "150",
                                     "--duration", "2.5"], in: folder,
                                    launcher: ["/usr/bin/xvfb-run", "-a", "-s", "-screen 0 800x600x24"])
        XCTAssertEqual(r.status, 0, r.stderr + r.stdout)
        XCTAssertTrue(r.stdout.contains("pacing timer: interval median"), r.stdout)
        XCTAssertTrue(r.stdout.contains("physics steps a frame: at most 8,"), "a 150 ms stall owes 18 steps; the cap runs 8: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("missed "), r.stdout)
        XCTAssertFalse(r.stdout.contains("missed 0,"), "the stalls are missed frames: \(r.stdout)")
        let jelly = try WavesBinary.run(["demo", "--scene", "jelly", "--size", "480x200", "--duration", "1"], in: folder,
                                        launcher: ["/usr/bin/xvfb-run", "-a", "-s", "-screen 0 800x600x24"])
        XCTAssertEqual(jelly.status, 0, jelly.stderr + jelly.stdout)
        XCTAssertFalse(jelly.stdout.contains("physics"), "the jelly simulates nothing: \(jelly.stdout)")
        XCTAssertTrue(jelly.stdout.contains("pacing vsync, not honoured by this display"), jelly.stdout)
        XCTAssertFalse(jelly.stdout.contains("1/60 error"), jelly.stdout)
    }

    func testWithoutADisplayItRendersTheComparisonHeadless() throws {
        let r = try WavesBinary.run(demoArguments, in: folder,
                                    environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("no display"), r.stderr)
        XCTAssertFalse(r.stderr.contains("unavailable"), "GL is used headless: it is not unavailable: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("headless"), r.stderr)
        if r.stderr.contains("CPU strategy alone") {
            _ = try GLRequirement.need("the headless comparison") { throw RendererError.unavailable(.gl, reason: r.stderr) }
        }
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stdout.contains("wrote shot.png"), r.stdout)
        XCTAssertTrue(r.stdout.contains("ms"), "no cost figures printed: \(r.stdout)")
        try checkHalves("demo-headless")
    }

    /// A folder of Lottie files: the demo starts at its first file (E steps
    /// through the rest), and names the verdict: which strategy's thread
    /// costs less here, by how much.
    func testAFolderOfLottieFilesStartsAtItsFirstAndNamesTheVerdict() throws {
        let files = folder + "/files"
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        typealias F = LottieFixtures
        for (name, x) in [("b.json", 30.0), ("a.json", 10.0)] {
            try F.file([F.shapeLayer(items: [F.rectangle(x: x, y: 10, width: 30, height: 20), F.fill(1, 0, 0)])])
                .write(toFile: files + "/" + name, atomically: true, encoding: .utf8)
        }
        let r = try WavesBinary.run(["demo", "lottie", "--file", files, "--headless", "--size", "200x100", "--screenshot", "shot.png"],
                                    in: folder, environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssert(r.stdout.contains("lottie a.json"), "the folder's first file: \(r.stdout)")
        if !r.stderr.contains("CPU strategy alone") {
            XCTAssert(r.stdout.contains("verdict: GL ") || r.stdout.contains("verdict: CPU "), r.stdout)
        }
    }

    /// The display's share of a half at 1280x720, measured from the headless
    /// comparison's pictures with the display compact, full and off: the
    /// pixels of each half that differ from the picture without it. Compact
    /// (its panel: text and graph) is under 15% of a half and much smaller
    /// than full; off draws nothing (each half is the scene as `waves render` draws it).
    func testTheCompactDisplayCoversUnderFifteenPercentOfAHalf() throws {
        func shot(_ hud: String) throws -> RGBAImage {
            let r = try WavesBinary.run(["demo", "--headless", "--size", "1280x720", "--paused", "--duration", "0.05",
                                         "--hud", hud, "--screenshot", "\(hud).png"], in: folder)
            XCTAssertEqual(r.status, 0, r.stderr)
            if r.stderr.contains("CPU strategy alone") {
                _ = try GLRequirement.need("the headless comparison") { throw RendererError.unavailable(.gl, reason: r.stderr) }
            }
            return try PNG.read(from: folder + "/\(hud).png")
        }
        let off = try shot("off"), compact = try shot("compact"), full = try shot("full")
        // Each half without the divider's column.
        let halves = [("cpu", 0..<639), ("gl", 641..<1280)]
        func share(_ image: RGBAImage, _ columns: Range<Int>) -> Double {
            let differing = ImageComparison.difference(image.cropped(rows: 0..<720, columns: columns),
                                                       off.cropped(rows: 0..<720, columns: columns)).differingPixels
            return Double(differing) / Double(640 * 720)
        }
        for (name, columns) in halves {
            let compactShare = share(compact, columns), fullShare = share(full, columns)
            print(String(format: "display over the %@ half at 1280x720: compact %.1f%%, full %.1f%%", name, compactShare * 100, fullShare * 100))
            XCTAssertLessThan(compactShare, 0.15, "the compact display over the \(name) half")
            XCTAssertGreaterThan(compactShare, 0.05, "the compact display (text and graph) is drawn over the \(name) half")
            XCTAssertLessThan(compactShare, 0.5 * fullShare, "compact is much smaller than full (\(name))")
        }
        let r = try WavesBinary.run(["render", "--backend", "cpu", "--size", "640x720", "--out", "half.png"], in: folder)
        XCTAssertEqual(r.status, 0, r.stderr)
        let expected = try PNG.read(from: folder + "/half.png")
        assertImagesMatch(off.cropped(rows: 0..<720, columns: 0..<639), expected.cropped(rows: 0..<720, columns: 0..<639),
                          mean: 0.5, max: 1, name: "demo-display-off-cpu-half")
        assertImagesMatch(off.cropped(rows: 0..<720, columns: 641..<1280), expected.cropped(rows: 0..<720, columns: 1..<640),
                          mean: 0.5, max: 1, name: "demo-display-off-gl-half")
    }

    /// Every abbreviation and figure the display shows is explained in `waves demo --help`.
    func testTheHelpExplainsWhatTheDisplayShows() throws {
        let r = try WavesBinary.run(["demo", "--help"], in: folder)
        XCTAssertEqual(r.status, 0, r.stderr)
        let help = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for term in ["H the display (off / compact / full)", "\"CPU N ms/frame\"", "\"GPU N ms/frame\"", "\"fps\"", "px/s2", "px, pixels",
                     "dB", "the last 180 frames", "orange bars CPU ms", "blue line GPU ms", "25 ms at the top", "white line at 16.7 ms",
                     "\"motion\"", "\"t\"", "\"p99\"", "\"missed\"", "\"bunched\"", "\"1/60 error\"", "\"pixels a frame\"",
                     "k thousands, M millions", "pgup, pgdn"] {
            XCTAssertTrue(help.contains(term), "waves demo --help does not explain \(term)")
        }
    }

    /// The O key's overlays, as `--overlay` starts them: updated regions tint
    /// every pixel of the CPU half (it paints all of them) and, of the GL
    /// half, the cards' pictures where it paints their shadows again each
    /// frame (nothing while they are cached); the blended heat map tints both.
    func testTheOverlaysShowWhatEachStrategyPaintsAndBlends() throws {
        // Three frames each (a headless demo draws its duration's worth), the display off: whole halves compared.
        let base = ["demo", "--headless", "--size", "320x240", "--paused", "--duration", "0.05", "--scene", "table", "--shadow",
                    "--hud", "off"]
        func shot(_ extra: [String]) throws -> (cpu: RGBAImage, gl: RGBAImage) {
            let r = try WavesBinary.run(base + extra + ["--screenshot", "shot.png"], in: folder)
            XCTAssertEqual(r.status, 0, r.stderr)
            if r.stderr.contains("CPU strategy alone") {
                _ = try GLRequirement.need("the headless comparison") { throw RendererError.unavailable(.gl, reason: r.stderr) }
            }
            let image = try PNG.read(from: folder + "/shot.png")
            return (image.cropped(rows: 0..<240, columns: 0..<159), image.cropped(rows: 0..<240, columns: 161..<320))
        }
        func changed(_ a: RGBAImage, _ b: RGBAImage) -> Double {
            var n = 0
            for i in stride(from: 0, to: a.pixels.count, by: 4) where (0..<3).contains(where: { a.pixels[i + $0] != b.pixels[i + $0] }) { n += 1 }
            return Double(n) / Double(a.pixels.count / 4)
        }
        for cache in [[], ["--no-shadow-cache"]] {
            let off = try shot(cache), updated = try shot(cache + ["--overlay", "updated"]), blended = try shot(cache + ["--overlay", "blended"])
            XCTAssertGreaterThan(changed(updated.cpu, off.cpu), 0.99, "the CPU paints every pixel (\(cache))")
            if cache.isEmpty {
                XCTAssertEqual(changed(updated.gl, off.gl), 0, "cached shadows: GL paints nothing in software")
            } else {
                // Each card's picture (the card, its wave's clip and its shadow's reach) is painted again: most of the half.
                XCTAssertGreaterThan(changed(updated.gl, off.gl), 0.5, "GL paints the cards again")
            }
            XCTAssertGreaterThan(changed(blended.gl, off.gl), 0.2, "the GL half's blended layers (\(cache))")
            XCTAssertGreaterThan(changed(blended.cpu, off.cpu), 0.2, "the CPU half's blended layers (\(cache))")
        }
    }

    func testBadDemoInputIsOneLineAndStatus64() throws {
        for arguments in [["--size", "0x10"], ["--backend", "metal"], ["--duration", "-1"], ["--cells", "0"],
                          ["--pacing", "smooth"], ["--stall", "-1"], ["--scene", "jelly", "--bounce", "2"], ["--overlay", "heat"],
                          ["--hud", "big"]] {
            let r = try WavesBinary.run(["demo", "--headless"] + arguments, in: folder)
            XCTAssertEqual(r.status, 64, "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
        }
    }
}
