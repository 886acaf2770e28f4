import Foundation
import WaveCore
import WaveImageIO
import XCTest

/// How far two images are apart, per channel, in 8-bit steps.
public struct ImageDifference {
    public let meanAbsolute: Double
    public let maxAbsolute: Int
    public let worstPixel: (x: Int, y: Int)
    public let differingPixels: Int
}

public enum ImageComparison {
    public static func difference(_ a: RGBAImage, _ b: RGBAImage) -> ImageDifference {
        precondition(a.width == b.width && a.height == b.height)
        var sum = 0, worst = 0, worstIndex = 0, differing = 0
        for p in 0..<(a.width * a.height) {
            var pixelDiffers = false
            for c in 0..<4 {
                let d = abs(Int(a.pixels[p * 4 + c]) - Int(b.pixels[p * 4 + c]))
                sum += d
                if d > 0 { pixelDiffers = true }
                if d > worst { worst = d; worstIndex = p }
            }
            if pixelDiffers { differing += 1 }
        }
        return ImageDifference(meanAbsolute: Double(sum) / Double(max(1, a.pixels.count)),
                               maxAbsolute: worst,
                               worstPixel: (worstIndex % max(1, a.width), worstIndex / max(1, a.width)),
                               differingPixels: differing)
    }

    /// The folder failing image tests write into: $WAVES_TEST_ARTIFACTS, else
    /// test-artifacts/ in the current directory.
    public static var artifactFolder: String {
        ProcessInfo.processInfo.environment["WAVES_TEST_ARTIFACTS"]
            ?? FileManager.default.currentDirectoryPath + "/test-artifacts"
    }

    /// Writes NAME-actual.png, NAME-expected.png and NAME-diff.png (each
    /// channel's difference scaled by 16 over opaque black) and returns the folder.
    @discardableResult
    public static func writeArtifacts(name: String, actual: RGBAImage, expected: RGBAImage) -> String {
        let folder = artifactFolder
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var diff = RGBAImage(width: actual.width, height: actual.height, fill: RGBA8(0, 0, 0))
        for i in 0..<actual.pixels.count where i % 4 != 3 {
            let d = abs(Int(actual.pixels[i]) - Int(expected.pixels[i]))
            let alphaD = abs(Int(actual.pixels[i - i % 4 + 3]) - Int(expected.pixels[i - i % 4 + 3]))
            diff.pixels[i] = UInt8(min(255, max(d, alphaD) * 16))
        }
        try? PNG.write(actual, to: "\(folder)/\(name)-actual.png")
        try? PNG.write(expected, to: "\(folder)/\(name)-expected.png")
        try? PNG.write(diff, to: "\(folder)/\(name)-diff.png")
        return folder
    }
}

/// Fails, and writes actual/expected/diff PNGs, unless the mean absolute
/// channel difference is at most `mean` and every channel within `max`
/// (both in 8-bit steps).
public func assertImagesMatch(_ actual: RGBAImage, _ expected: RGBAImage, mean: Double, max: Int,
                              name: String, file: StaticString = #filePath, line: UInt = #line) {
    guard actual.width == expected.width, actual.height == expected.height else {
        XCTFail("\(name): size \(actual.width)x\(actual.height), expected \(expected.width)x\(expected.height)",
                file: file, line: line)
        return
    }
    let d = ImageComparison.difference(actual, expected)
    if d.meanAbsolute > mean || d.maxAbsolute > max {
        let folder = ImageComparison.writeArtifacts(name: name, actual: actual, expected: expected)
        XCTFail("""
            \(name): mean |diff| \(String(format: "%.3f", d.meanAbsolute))/255 (allowed \(mean)), \
            max \(d.maxAbsolute)/255 (allowed \(max)) at \(d.worstPixel), \(d.differingPixels) pixels differ; \
            images in \(folder)/\(name)-{actual,expected,diff}.png
            """, file: file, line: line)
    }
}
