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
}
