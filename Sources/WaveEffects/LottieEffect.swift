import Foundation
import WaveCore
import WaveLottie

/// A Lottie file drawn as Waves' layer tree (`LottieAnimation`): the animation
/// scaled to fit the scene and centred, scene time 0 at `--frame` (counted
/// from the file's in point, as rlottie and ThorVG count). What the file
/// uses that Waves does not draw yet is said in one line on stderr, once
/// per file; `--strict` (`InputPolicy`) refuses such a file instead.
public struct LottieEffect: Equatable, Sendable {
    public var file: String?
    public var frame = 0.0
    public var marker: String?

    public init() {}

    public static let parameters = ParameterList(defaults: LottieEffect(), [
        .text("file", \.file, valueName: "file", accepted: "a Lottie JSON file (Bodymovin's export)",
              help: "The Lottie animation to draw (JSON, as Bodymovin exports it)."),
        .number("frame", \.frame, 0...LottieAnimation.maxFrames, what: "frames from the file's in point", valueName: "n",
                help: "The frame shown at time 0, counted from the file's in point as rlottie and ThorVG count (--time moves on from it at the file's frame rate)."),
        .text("marker", \.marker, valueName: "name", accepted: "a marker the file names",
              help: "Plays only the part of the animation the file's marker of this name covers (from its frame for its length, looping); --frame counts from the marker's frame."),
    ])

    /// The scene of the file for a size and background.
    public func scene(width: Int, height: Int, background: RGBA8) throws -> Scene {
        guard let file else { throw ValueError(parameter: "file", value: "(none)", accepted: "a Lottie JSON file") }
        let animation = try Self.opened(file)
        var segment: LottieAnimation.Marker?
        if let marker {
            guard let found = animation.markers.first(where: { $0.name == marker }) else {
                let names = animation.markers.map { "'\($0.name)'" }
                throw ValueError(parameter: "marker", value: marker,
                                 accepted: names.isEmpty ? "none: the file has no markers" : "a marker the file names: " + names.joined(separator: ", "))
            }
            segment = found
        }
        let (scene, without) = try animation.scene(width: width, height: height, background: background, firstFrame: frame, marker: segment)
        if let line = without.line {
            if InputPolicy.strict { throw LottieError(place: "", problem: "\(file) uses what Waves does not draw yet (\(line)); without --strict it is drawn without them") }
            Self.sayOnce(file, line)
        }
        return scene
    }

    /// The *.json files of the folder `path` (hidden ones left out), in name
    /// order; nil where `path` is not a folder or holds none (a bench, a demo
    /// or a batch's plan takes each as a file).
    public static func files(inFolder path: String) -> [String]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") && $0.lowercased().hasSuffix(".json") }.sorted()
        return names.isEmpty ? nil : names.map { (path as NSString).appendingPathComponent($0) }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var read: [String: LottieAnimation] = [:]
    nonisolated(unsafe) private static var said: Set<String> = []

    /// The file read once per process (a demo remakes its scene at every resize).
    static func opened(_ path: String) throws -> LottieAnimation {
        lock.lock()
        defer { lock.unlock() }
        if let known = read[path] { return known }
        let animation = try LottieAnimation(contentsOf: path)
        ProtectedInputs.add(path)
        read[path] = animation
        return animation
    }

    private static func sayOnce(_ file: String, _ line: String) {
        lock.lock()
        defer { lock.unlock() }
        guard !said.contains(file) else { return }
        said.insert(file)
        printError("waves: \(URL(fileURLWithPath: file).lastPathComponent): \(line)")
    }
}
