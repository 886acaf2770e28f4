import Foundation
import WaveImageIO
import WaveTestSupport
import XCTest

/// A CPU render's peak memory is its frame and little more: the PNG is
/// encoded from the frame's own rows (no read-back copy), and the
/// rasteriser's accumulators cost memory only where outlines reach. Before,
/// a 16384x16384 render peaked at three frames (3.2 GB for 1 GiB). Measured
/// as the process's peak resident set (GNU time), less a tiny render's (the
/// process itself), against the frame's 4 bytes a pixel.
final class RenderMemoryTests: XCTestCase {
    private var folder: String!
    override func setUpWithError() throws { folder = try WavesBinary.temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    /// Peak resident set of one render, in bytes, and the PNG it wrote.
    private func peak(_ arguments: [String], out: String) throws -> Int {
        let r = try WavesBinary.run(["render", "--backend", "cpu"] + arguments + ["--out", out], in: folder,
                                    launcher: ["/usr/bin/time", "-f", "maxrss %M"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let line = try XCTUnwrap(r.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss ") }, r.stderr)
        return try XCTUnwrap(Int(line.dropFirst(7))) * 1024
    }

    func testACPURenderPeaksAtMostOneAndAHalfFrames() throws {
        try GLRequirement.needPrograms(["/usr/bin/time"], hint: "make deps installs Debian's time")
        let base = try peak(["--size", "64x64"], out: "small.png")
        let (width, height) = (8192, 4096)
        let frame = width * height * 4
        for scene in ["sine", "voice"] {
            let used = try peak(["--scene", scene, "--size", "\(width)x\(height)"], out: scene + ".png")
            XCTAssertLessThanOrEqual(Double(used - base), 1.5 * Double(frame),
                                     "\(scene): \(used >> 20) MiB at its peak, \(base >> 20) MiB for a tiny render, for a \(frame >> 20) MiB frame")
            // The PNG written from the frame's rows is whole.
            let image = try PNG.read(from: folder + "/" + scene + ".png")
            XCTAssertEqual([image.width, image.height], [width, height])
        }
    }
}
