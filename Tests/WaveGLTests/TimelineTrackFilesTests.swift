import Foundation
import WaveCore
import WaveLottie
import XCTest

/// The evaluator's tracks (`TimelineTrack`) on real files: every
/// placement and dynamic-path timeline of files of ../shared/lottie with
/// many keyframes, read from where its track says at every half frame
/// from a second before the animation to a second after it, is its
/// timeline's value bit for bit.
final class TimelineTrackFilesTests: XCTestCase {
    func testTheSharedFilesTimelinesReadTheSameThroughTheirTracks() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.deletingLastPathComponent().appendingPathComponent("shared/lottie")
        var read = 0
        for file in ["4479-fireworks.json", "1643-exploding-star.json", "loading_rectangles.json",
                     "party_penguin.json", "mnemonics.json", "a_mountain.json"] {
            let animation = try LottieAnimation(contentsOf: folder.appendingPathComponent(file).path)
            guard let tree = try animation.scene(width: 64, height: 64, background: RGBA8(255, 255, 255)).scene.tree else {
                return XCTFail("\(file): no layer tree")
            }
            var timelines: [Timeline<Double>] = []
            func collect(_ layer: Layer) {
                timelines.append(layer.opacity)
                timelines += layer.geometryTimelines
                if case let .shape(shape)? = layer.contents, case .dynamic = shape.path { timelines += shape.parameters }
                layer.sublayers.forEach(collect)
                if let mask = layer.mask { collect(mask) }
            }
            collect(tree.root)
            let frames = Int((animation.duration * animation.frameRate).rounded(.up))
            var readHere = 0
            for timeline in timelines where !timeline.isConstant {
                let track = TimelineTrack(timeline)
                defer { track.deallocate() }
                guard track.halves else { continue }
                for half in -2 * Int(animation.frameRate)...(2 * frames + 2 * Int(animation.frameRate)) {
                    let t = Double(half) / (2 * animation.frameRate)
                    readHere += 1
                    XCTAssertEqual(timeline.value(at: t, sources: nil, track: track).bitPattern, timeline.value(at: t).bitPattern, "\(file) at \(t)")
                }
            }
            XCTAssertGreaterThan(readHere, 0, "\(file): no track halves")
            read += readHere
        }
        XCTAssertGreaterThan(read, 10_000)
    }
}
