import Foundation
import WaveTestSupport
import XCTest

/// `waves render lottie` from the command line: a folder or an animation
/// with no frame or time asked is the whole animation at the file's own
/// rate; a frame asked is that frame; a file that is not there is 66, one
/// that is not Lottie 65, each one line and nothing written.
final class LottieCommandTests: XCTestCase {
    func testTheWholeAnimationAtItsOwnRateAndOneLineRefusals() throws {
        let folder = try WavesBinary.temporaryFolder()
        let file = try LottieFixtures.write(LottieFixtures.everyEffect)
        // The fixture: frames 0 to 20 at 10 a second.
        let frames = try WavesBinary.run(["render", "lottie", "--file", file, "--size", "40x40", "--backend", "cpu", "--out", folder + "/frames/"])
        XCTAssertEqual(frames.status, 0, frames.stderr)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").filter { $0.hasSuffix(".png") }
        XCTAssertEqual(written.count, 20, "every frame of the file once")
        let one = try WavesBinary.run(["render", "lottie", "--file", file, "--size", "40x40", "--frame", "7", "--backend", "cpu", "--out", folder + "/seven.png"])
        XCTAssertEqual(one.status, 0, one.stderr)
        for (arguments, status, says) in [(["--file", folder + "/missing.json"], Int32(66), "cannot open"),
                                          (["--file", folder + "/seven.png"], Int32(65), "not JSON")] {
            let result = try WavesBinary.run(["render", "lottie"] + arguments + ["--out", folder + "/refused.png"])
            XCTAssertEqual(result.status, status, result.stderr)
            XCTAssert(result.stderr.contains(says), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/refused.png"))
        }
    }

    /// `--marker NAME` plays only the marker's frames: a folder holds its length of frames, and its first frame is the
    /// file's frame at the marker; a name the file does not have is one line naming those it has, 64, nothing written.
    func testAMarkerPlaysItsPartOfTheAnimation() throws {
        let folder = try WavesBinary.temporaryFolder()
        let json = LottieFixtures.everyEffect.replacingOccurrences(of: #""assets":["#, with: #""markers":[{"cm":"intro","tm":0,"dr":5},{"cm":"walk","tm":8,"dr":6}],"assets":["#)
        XCTAssertNotEqual(json, LottieFixtures.everyEffect)
        let file = try LottieFixtures.write(json)
        let frames = try WavesBinary.run(["render", "lottie", "--file", file, "--marker", "walk", "--size", "40x40", "--backend", "cpu",
                                          "--out", folder + "/walk/"])
        XCTAssertEqual(frames.status, 0, frames.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/walk").filter { $0.hasSuffix(".png") }.count, 6)
        let eighth = try WavesBinary.run(["render", "lottie", "--file", file, "--frame", "8", "--size", "40x40", "--backend", "cpu",
                                          "--out", folder + "/eighth.png"])
        XCTAssertEqual(eighth.status, 0, eighth.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/walk/frame-0000.png")),
                       try Data(contentsOf: URL(fileURLWithPath: folder + "/eighth.png")), "the marker's first frame is the file's frame 8")
        let unknown = try WavesBinary.run(["render", "lottie", "--file", file, "--marker", "run", "--out", folder + "/run.png"])
        XCTAssertEqual(unknown.status, 64, unknown.stderr)
        XCTAssert(unknown.stderr.contains("'intro', 'walk'"), unknown.stderr)
        XCTAssertEqual(unknown.stderr.split(separator: "\n").count, 1, unknown.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/run.png"))
    }
}
