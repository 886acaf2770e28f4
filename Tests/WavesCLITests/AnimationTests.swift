import Foundation
import WaveCore
import WaveImageIO
import WaveTestSupport
import XCTest

/// Animated export through ffmpeg, checked with ffprobe and by decoding the
/// first and last frames against renders of the same times.
final class AnimationTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws {
        folder = try WavesBinary.temporaryFolder()
        // CI installs ffmpeg (make deps); elsewhere its absence is a skip.
        try GLRequirement.needPrograms(["/usr/bin/ffmpeg", "/usr/bin/ffprobe"], hint: "apt-get install ffmpeg")
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func waves(_ arguments: [String], environment: [String: String?] = [:]) throws -> WavesBinary.Result {
        try WavesBinary.run(arguments, in: folder, environment: environment)
    }

    /// (frames, width, height) as ffprobe counts them.
    private func probe(_ name: String) throws -> (frames: Int, width: Int, height: Int) {
        let r = try WavesBinary.execute(["/usr/bin/ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                         "stream=nb_read_frames,width,height", "-of", "csv=p=0", name], in: folder)
        let fields = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        guard fields.count == 3 else { XCTFail("ffprobe \(name): \(r.stdout) \(r.stderr)"); return (0, 0, 0) }
        return (fields[2], fields[0], fields[1])
    }

    /// Frame `index` of an animation, decoded by ffmpeg to RGBA PNG.
    private func decode(_ name: String, frame index: Int) throws -> RGBAImage {
        let out = "frame-\(index)-of-\(name).png"
        let r = try WavesBinary.execute(["/usr/bin/ffmpeg", "-v", "error", "-y", "-i", name, "-vf", "select=eq(n\\,\(index))",
                                         "-frames:v", "1", "-pix_fmt", "rgba", out], in: folder)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try PNG.read(from: folder + "/" + out)
    }

    private func render(at time: Double, _ arguments: [String]) throws -> RGBAImage {
        let r = try waves(["render", "--backend", "cpu", "--time", "\(time)", "--out", "reference.png"] + arguments)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try PNG.read(from: folder + "/reference.png")
    }

    func testMP4GIFAndAnimatedPNGHoldTheFramesOfTheirTimes() throws {
        let scene = ["--cells", "2", "--cycles", "2", "--amplitude", "0.3", "--size", "160x64"]
        // (file, extra options, frames, tolerance of the decoded frames: mean, max)
        let cases: [(String, [String], Int, Double, Int)] = [
            ("a.mp4", ["--frames", "12", "--fps", "30"], 12, 4, 96),
            ("a.gif", ["--frames", "10", "--fps", "25"], 10, 4, 96),
            ("a.png", ["--frames", "9", "--fps", "30"], 9, 0.01, 1),
        ]
        for (name, options, frames, mean, max) in cases {
            let r = try waves(["render", "--backend", "cpu", "--out", name] + scene + options)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertFalse(r.stderr.contains("warning"), "\(name): \(r.stderr)")
            let info = try probe(name)
            XCTAssertEqual(info.frames, frames, name)
            XCTAssertEqual(info.width, 160, name)
            XCTAssertEqual(info.height, 64, name)
            let fps = Double(options[3])!
            for index in [0, frames - 1] {
                assertImagesMatch(try decode(name, frame: index), try render(at: Double(index) / fps, scene), mean: mean, max: max,
                                  name: "animation-\(name)-\(index)")
            }
        }
    }

    /// A Lottie file written whole (issue 43's export): every frame of the
    /// animation, once, at the file's own rate, in MP4, GIF and animated PNG
    /// at a size of our choosing; the first and last frames are
    /// `render lottie --frame 0` and `--frame 19`, so it loops without a seam
    /// (the frame after the last is the first).
    func testALottieFileIsWrittenWholeToEveryAnimatedFormat() throws {
        let file = try LottieFixtures.write(LottieFixtures.everyEffect)
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        let common = ["render", "lottie", "--file", file, "--size", "96x64", "--backend", "cpu", "--background", "#FFFFFF"]
        func frame(_ n: Int) throws -> RGBAImage {
            let r = try waves(common + ["--frame", "\(n)", "--out", "lottie-\(n).png"])
            XCTAssertEqual(r.status, 0, r.stderr)
            return try PNG.read(from: folder + "/lottie-\(n).png")
        }
        let first = try frame(0), last = try frame(19)
        for (name, mean, max) in [("l.mp4", 4.0, 96), ("l.gif", 4.0, 96), ("l.apng", 0.01, 1)] {
            let r = try waves(common + ["--out", name])
            XCTAssertEqual(r.status, 0, r.stderr)
            let info = try probe(name)
            XCTAssertEqual(info.frames, 20, "\(name): the fixture's frames 0 to 19, once")
            XCTAssertEqual([info.width, info.height], [96, 64], name)
            assertImagesMatch(try decode(name, frame: 0), first, mean: mean, max: max, name: "lottie-\(name)-first")
            assertImagesMatch(try decode(name, frame: 19), last, mean: mean, max: max, name: "lottie-\(name)-last")
        }
    }

    /// --loop: one whole period (the sine's 1 s at 30 fps is 30 frames), the
    /// last frame one step before the first; a GIF at 60 fps is warned about.
    func testLoopChoosesWholePeriodsAndGIFRatesAreWarnedAbout() throws {
        let r = try waves(["render", "--backend", "cpu", "--size", "120x40", "--loop", "--fps", "30", "--out", "loop.png"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try probe("loop.png").frames, 30)
        let g = try waves(["render", "--backend", "cpu", "--size", "120x40", "--frames", "3", "--fps", "60", "--out", "fast.gif"])
        XCTAssertEqual(g.status, 0, g.stderr)
        XCTAssert(g.stderr.contains("warning") && g.stderr.contains("50 fps"), g.stderr)
        let still = try waves(["render", "--backend", "cpu", "--scene", "waveform", "--loop", "--out", "w.mp4"])
        XCTAssertEqual(still.status, 64, still.stderr)
    }

    func testWithoutFFmpegAnAnimationIsUnavailableAndNothingIsWritten() throws {
        let r = try waves(["render", "--backend", "cpu", "--frames", "3", "--out", "a.mp4"], environment: ["PATH": "/nonexistent"])
        XCTAssertEqual(r.status, 69, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssert(r.stderr.contains("apt-get install ffmpeg"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
    }
}
