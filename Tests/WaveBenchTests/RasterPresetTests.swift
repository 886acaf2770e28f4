import Foundation
import WaveBench
import WaveCore
import WaveEffects
import WaveGL
import WaveTestSupport
import XCTest

/// The raster preset: cairo, an independent rasteriser, fills the same
/// polygon our CPU strategy fills, and the figures come out whole.
final class RasterPresetTests: XCTestCase {
    private func scene(_ item: RasterPreset.Case) throws -> Scene {
        var cells = SineCells(width: item.width, height: item.height)
        cells.wave.amplitude = item.amplitude
        cells.wave.cycles = item.cycles
        return try cells.scene()
    }

    /// Every pixel of our frame against cairo's at a fractional offset, on a
    /// gentle and a steep wave: cairo samples coverage its own way, so the
    /// tolerance is a little wider than between our own backends.
    func testCairoDrawsTheSameFrameAsTheCPUStrategy() throws {
        try checkPeerDrawsTheSameFrame { try CairoCanvas(width: $0, height: $1) }
    }

    /// The same against a native Blend2D build where `WAVES_BLEND2D` names
    /// one (it is not a Debian package: CI has none, so there this test
    /// checks that a missing build is one clear refusal).
    func testBlend2DDrawsTheSameFrameAsTheCPUStrategy() throws {
        guard let folder = ProcessInfo.processInfo.environment["WAVES_BLEND2D"] else {
            XCTAssertThrowsError(try Blend2DCanvas(library: "/nonexistent/blend2d", width: 8, height: 8)) { error in
                XCTAssert("\(error)".contains("/nonexistent/blend2d/lib/libblend2d.so"), "\(error)")
            }
            return
        }
        try checkPeerDrawsTheSameFrame { try Blend2DCanvas(library: folder, width: $0, height: $1) }
    }

    private func checkPeerDrawsTheSameFrame(_ canvas: @escaping (Int, Int) throws -> any PeerCanvas) throws {
        // CI installs libcairo2 (make deps); elsewhere a machine without it skips.
        try GLRequirement.need("loading libcairo.so.2 (apt-get install libcairo2)") {
            _ = try CairoCanvas(width: 8, height: 8)
        }
        for item in [RasterPreset.Case(width: 320, height: 80), RasterPreset.Case(width: 200, height: 100, amplitude: 0.45, cycles: 5)] {
            let scene = try scene(item)
            let renderer = CPURenderer()
            try renderer.prepare(scene: scene)
            let pixmap = Pixmap(width: scene.width, height: scene.height)
            let peer = try XCTUnwrap(try PeerFrame(scene: scene, canvas: canvas))
            for time in [0.0, 0.37, 0.8123] {
                try renderer.draw(time: time, into: pixmap)
                peer.draw(time: time)
                let difference = FrameDifference(try pixmap.readback(), peer.image())
                XCTAssertLessThan(difference.mean, 0.1, "\(peer.version): \(item.label) at t=\(time)")
                XCTAssertLessThanOrEqual(difference.max, 24, "\(peer.version): \(item.label) at t=\(time)")
            }
        }
    }

    func testThePresetMeasuresEveryCaseWithItsFloor() throws {
        let cases = [RasterPreset.Case(width: 64, height: 16), RasterPreset.Case(width: 64, height: 32, amplitude: 0.45, cycles: 3)]
        let report = try RasterPreset.run(cases: cases, seconds: 0.05, makeScene: scene)
        XCTAssertEqual(report.rows.map(\.frame), ["64x16", "64x32 steep (amplitude 0.45, 3 cycles)"])
        for row in report.rows {
            XCTAssertGreaterThan(row.wavesUs, 0)
            XCTAssertGreaterThan(row.memsetUs, 0)
            XCTAssertGreaterThanOrEqual(row.rounds, 11)
            XCTAssertEqual(row.wavesOverMemset, row.wavesUs / row.memsetUs, accuracy: 0.006)
            if report.cairoVersion != nil {
                XCTAssertNotNil(row.cairoUs)
                XCTAssertNotNil(row.cairoDifference)
            }
        }
        let table = report.table(machine: .current)
        XCTAssertTrue(table.contains("64x16"), table)
        XCTAssertEqual(report.csv.split(separator: "\n").count, 3)
    }

    /// Beside a GL context the preset times our draw three more ways (alone,
    /// each frame copied into a texture, drawn in memory the GPU reads), and
    /// the shared frame is what the CPU rasteriser drew, pixel for pixel.
    func testTheDrawIsTimedBesideAGLContextCopiedAndShared() throws {
        let context = try GLRequirement.need("a headless GL context") { try HeadlessGLContext() }
        try context.makeCurrent()
        let caps = context.capabilities
        XCTAssertGreaterThan(caps.maxSharedFrameTexels, 0, "llvmpipe (GL 4.5) maps buffers persistently")
        let shared = try SharedFramePresenter(caps: caps)
        let cases = [RasterPreset.Case(width: 64, height: 16)]
        let report = try RasterPreset.run(cases: cases, seconds: 0.05, copying: CPUFramePresenter(caps: caps), shared: shared,
                                          makeScene: scene)
        let row = try XCTUnwrap(report.rows.first)
        for (name, value) in [("alone", row.wavesDrawnAloneUs), ("copied", row.wavesUploadingUs), ("copy", row.uploadUs),
                              ("shared", row.wavesSharedUs)] {
            XCTAssertGreaterThan(try XCTUnwrap(value, name), 0, name)
        }
        XCTAssertEqual(try XCTUnwrap(row.sharedOverWaves), try XCTUnwrap(row.wavesSharedUs) / row.wavesDrawnAloneUs!, accuracy: 0.006)
        XCTAssertTrue(report.table(machine: .current).contains("shared: draw us"))
        var whole = BenchReport(renderer: context.renderer, results: [])
        whole.raster = report
        XCTAssertEqual(BenchSchema.problems(in: try whole.jsonData()), [])

        // What the GPU reads is the frame the rasteriser drew there.
        let frame = try XCTUnwrap(shared.sharedPixmap())
        let renderer = CPURenderer()
        let scene = try scene(cases[0])
        try renderer.prepare(scene: scene)
        try renderer.draw(time: 0.37, into: frame)
        let own = Pixmap(width: 64, height: 16)
        try renderer.draw(time: 0.37, into: own)
        assertImagesMatch(try frame.readback(), try own.readback(), mean: 0, max: 0, name: "shared-frame")
    }
}
