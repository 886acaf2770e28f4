import Foundation
import WaveCore
import WaveImageIO
import WaveTestSupport
import XCTest

/// `--scene ball` as a person runs it: rendered where the chapter's formula
/// puts it, measured per driver by the pacing preset, and the bad input a
/// person can type.
final class BallCommandTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// The ball's centre row in a frame: the middle of the rows its colour covers at the centre column.
    private func centre(_ image: RGBAImage) -> Double? {
        let rows = (0..<image.height).filter { image[150, $0].r > 200 && image[150, $0].g < 120 }
        guard let first = rows.first, let last = rows.last else { return nil }
        return Double(first + last + 1) / 2
    }

    /// At each time, both backends draw the ball's centre where 32 + 236 x bounce-out(t) puts it (the chapter's 300x300 view).
    func testTheBallIsWhereTheChaptersFormulaPutsIt() throws {
        for t in [0.0, 0.2, 0.5, 0.8, 0.95, 1.3] {
            let f = t - t.rounded(.down)
            let expected = 32 + 236 * TimingFunction.bounceOut(f)
            for backend in ["cpu", "gl"] {
                let image = try WavesBinary.renderPNG(["render", "--scene", "ball", "--size", "300x300", "--time", "\(t)"], backend: backend,
                                                      in: folder)
                let y = try XCTUnwrap(centre(image), "t \(t) \(backend): no ball")
                XCTAssertEqual(y, expected, accuracy: 1, "t \(t) on \(backend)")
            }
        }
    }

    func testThePacingPresetMeasuresEveryDriver() throws {
        let r = try WavesBinary.run(["bench", "--headless", "--preset", "pacing", "--scene", "ball", "--seconds", "0.3", "--backend", "cpu",
                                     "--busy", "20", "--json", "ball.json", "--chart", "ball.svg"], in: folder)
        XCTAssertEqual(r.status, 0, r.stderr)
        for driver in ["display", "timer", "fixed"] { XCTAssertTrue(r.stdout.contains(driver), r.stdout) }
        let json = try Data(contentsOf: URL(fileURLWithPath: folder + "/ball.json"))
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
        let rows = try XCTUnwrap((root["ball"] as? [String: Any])?["rows"] as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["driver"] as? String }, ["display", "timer", "fixed"])
        XCTAssertTrue(try String(contentsOfFile: folder + "/ball.svg", encoding: .utf8).contains("The bouncing ball"))
    }

    func testBadBallInputIsOneLineAndStatus64() throws {
        for arguments in [["demo", "--headless", "--scene", "ball", "--busy", "-1"], ["demo", "--headless", "--scene", "ball", "--frame-interval", "4"],
                          ["demo", "--headless", "--scene", "ball", "--driver", "warp"],
                          ["demo", "--headless", "--scene", "ball", "--busy-pattern", "tracking"],
                          ["demo", "--headless", "--driver", "timer"], ["bench", "--headless", "--scene", "dots", "--busy", "5"],
                          ["render", "--scene", "ball", "--driver", "timer", "--out", "x.png"]] {
            let r = try WavesBinary.run(arguments, in: folder)
            XCTAssertEqual(r.status, 64, "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(arguments): \(r.stderr)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "\(arguments)")
        }
    }
}
