import Foundation
import WaveCore
import WaveLottie
import WaveTestSupport
import XCTest

/// Lottie files changed as a fuzzer changes them (seeded, so a failing case
/// is made again from its seed): each is drawn by the CPU strategy at two
/// times, or refused with one line of Waves' own; never a crash or a hang.
final class LottieMutationTests: XCTestCase {
    func testMutatedLottieFilesDrawOrAreRefusedWithOneLine() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.deletingLastPathComponent().appendingPathComponent("shared/lottie")
        // Small files using many features: trims, masks, mattes, repeaters, gradients, precompositions, parents.
        let seeds = ["bell.json", "abstract_circle.json", "mask.json", "loader_4.json", "gradient_sleepy_loader.json", "done.json"]
            .map { folder.appendingPathComponent($0) } + [URL(fileURLWithPath: try LottieFixtures.write(LottieFixtures.everyEffect))]
        var generator = SeededGenerator(seed: 4141)
        var drawn = 0, refused = 0
        for seed in seeds {
            let bytes = try Data(contentsOf: seed)
            for i in 0..<150 {
                let mutated = Mutation.mutate(bytes, using: &generator)
                let name = "\(seed.lastPathComponent) case \(i)"
                do {
                    let scene = try LottieAnimation(bytes: [UInt8](mutated)).scene(width: 48, height: 48, background: RGBA8(255, 255, 255)).scene
                    let renderer = CPURenderer()
                    try renderer.prepare(scene: scene)
                    let target = try renderer.makeTarget()
                    for t in [0, 0.7] { try renderer.draw(time: t, into: target) }
                    drawn += 1
                } catch {
                    let line = "\(error)"
                    XCTAssertFalse(line.contains("\n"), "\(name): \(line)")
                    XCTAssert(error is LottieError || error is LayerTreeError || error is PathError, "\(name): \(type(of: error)) \(line)")
                    refused += 1
                }
            }
        }
        // Most mutations of JSON break it; some still draw.
        XCTAssertGreaterThan(drawn, 0)
        XCTAssertGreaterThan(refused, 0)
    }

    /// Every input `make fuzz` found crashing the importer (Tests/FuzzCrashes/lottie) draws or is refused with one line.
    func testTheFuzzersFindsDrawOrAreRefused() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzCrashes/lottie")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertFalse(files.isEmpty, "Tests/FuzzCrashes/lottie is empty or gone")
        for file in files {
            do {
                let animation = try LottieAnimation(contentsOf: folder.appendingPathComponent(file).path)
                let scene = try animation.scene(width: 32, height: 32, background: RGBA8(255, 255, 255)).scene
                let renderer = CPURenderer()
                try renderer.prepare(scene: scene)
                try renderer.draw(time: 0.5, into: try renderer.makeTarget())
            } catch {
                XCTAssertFalse("\(error)".contains("\n"), "\(file): \(error)")
            }
        }
    }
}
