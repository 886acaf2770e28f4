import Foundation
import WaveCore
@testable import WaveGL
import WaveImageIO
import WaveLottie
import WaveTestSupport
import XCTest

/// Every file of ../shared/lottie against rlottie's and ThorVG's frames
/// (rlottie-python and thorvg-python from PyPI, in the venv
/// contrib/lottie/setup-venv.sh makes), on both backends: at frames 0, half
/// way and three quarters, 200x200 over white, a file agrees with a peer
/// when every frame's mean difference per channel is at most 2/255 and the
/// 99th percentile of its pixels' largest channel difference at most
/// 32/255; it agrees when it agrees with either (a peer that crashes on a
/// file, as ThorVG 1.0.4 on dna.json, has no frames of it). The counts may
/// only rise: each is held at least at the floor reached.
final class LottieAgreementTests: XCTestCase {
    /// Files that agree with rlottie or ThorVG, at least (of 93).
    static let floor = (cpu: 89, gl: 88)

    func testTheSharedFilesAgreeWithRlottie() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.deletingLastPathComponent().appendingPathComponent("shared/lottie")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 90, "the shared Lottie files at \(folder.path)")
        let python = try LottiePeersEnvironment.python()
        let script = root.appendingPathComponent("contrib/lottie/reference.py").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("waves-lottie-agreement-\(getpid())")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let gl = try glRenderer()
        var agree = (cpu: 0, gl: 0)
        var table: [String] = []
        // docs/lottie-files.md's rows, and pictures of a few files beside the peers' frames (WAVES_WRITE_GENERATED=1).
        var rows: [String] = []
        let pictured = ["a_mountain.json", "abstract_circle.json", "ripple_loading_animation.json"]
        let write = ProcessInfo.processInfo.environment["WAVES_WRITE_GENERATED"] == "1"
        // A file's frames compared: 0, half way and three quarters of its whole frames as reference.py --info counts
        // them (op - ip, rounded where within 0.001 of a whole number).
        func picks(_ animation: LottieAnimation) -> [Int] {
            let span = animation.outPoint - animation.inPoint
            let frames = abs(span - span.rounded()) < 1e-3 ? Int(span.rounded()) : Swift.max(0, Int(span.rounded(.up)))
            return [0, frames / 2, frames * 3 / 4]
        }
        // Both peers draw a file's frames in child processes of their own, started a file ahead: while Waves draws
        // one file, the peers draw it and the next (each python start costs as much as Waves' frames of a file).
        func startPeers(_ file: String) throws -> (animation: LottieAnimation, peers: [(String, Process)]) {
            let path = folder.appendingPathComponent(file).path
            let animation = try LottieAnimation(contentsOf: path)
            let frames = picks(animation).map(String.init).joined(separator: ",")
            return (animation, try ["rlottie", "thorvg"].map { peer in
                (peer, try start(python, [script, "--peer", peer, "--size", "200x200", "--frames", frames, "--out", out.path, path]))
            })
        }
        var ahead = try startPeers(files[0])
        for (index, file) in files.enumerated() {
            let (animation, drawing) = ahead
            let picks = picks(animation)
            if index + 1 < files.count { ahead = try startPeers(files[index + 1]) }
            var drawn: [[(name: String, frame: RGBAImage)]] = []
            var without = ""
            for n in picks {
                let (scene, drewWithout) = try animation.scene(width: 200, height: 200, background: RGBA8(255, 255, 255), firstFrame: Double(n))
                without = drewWithout.line.map { String($0.dropFirst("drew without: ".count)) } ?? ""
                drawn.append(try [("cpu", CPURenderer() as Renderer), ("gl", gl as Renderer)].map { ($0.0, try Frames.render($0.1, scene, at: [0])[0]) })
            }
            // A peer that cannot draw the file (ThorVG's crash on dna.json) has no frames of it.
            let peers = drawing.filter { Self.succeeded($0.1) }.map { $0.0 }
            XCTAssert(peers.contains("rlottie"), "rlottie draws \(file)")
            // Per backend and peer: every frame within the bounds, and the worst frame's figures.
            var ok: [String: Bool] = [:], worst: [String: (mean: Double, p99: Int)] = [:]
            var row = file
            for (k, n) in picks.enumerated() {
                var strip: [RGBAImage] = []
                for (name, frame) in drawn[k] {
                    strip.append(frame)
                    for peer in peers {
                        let reference = try PNG.read(from: out.appendingPathComponent("\((file as NSString).deletingPathExtension).\(n).\(peer).png").path)
                        let (mean, p99) = Self.difference(frame, reference)
                        ok[name + peer] = (ok[name + peer] ?? true) && mean <= 2 && p99 <= 32
                        let w = worst[name + peer] ?? (0, 0)
                        worst[name + peer] = (Swift.max(w.mean, mean), Swift.max(w.p99, p99))
                        row += String(format: "  %@/%@ f%d %.2f/%d", name, peer, n, mean, p99)
                        if name == "gl" { strip.append(reference) }
                    }
                }
                if write, n == picks[1], pictured.contains(file) {
                    try PNG.write(Self.sideBySide(strip), to: root.appendingPathComponent("docs/lottie-\((file as NSString).deletingPathExtension).png").path)
                }
            }
            func cell(_ key: String) -> String {
                guard let w = worst[key] else { return "(no frames)" }
                return String(format: "%@ %.2f / %d", ok[key] == true ? "yes" : "no", w.mean, w.p99)
            }
            rows.append("| \(file) | \(cell("cpurlottie")) | \(cell("cputhorvg")) | \(cell("glrlottie")) | \(cell("glthorvg")) | "
                        + "\(animation.featuresUsed.sorted().joined(separator: ", ")) | \(without) |")
            let agrees = (cpu: peers.contains { ok["cpu" + $0] == true }, gl: peers.contains { ok["gl" + $0] == true })
            agree.cpu += agrees.cpu ? 1 : 0
            agree.gl += agrees.gl ? 1 : 0
            table.append((agrees.cpu ? "cpu " : "    ") + (agrees.gl ? "gl " : "   ") + row)
        }
        print(table.joined(separator: "\n"))
        if write {
            let header = """
            # Lottie files against rlottie and ThorVG

            Generated by `LottieAgreementTests` (`WAVES_WRITE_GENERATED=1`): each file of `../shared/lottie/` at its frames 0,
            half way and three quarters, 200x200 over white; per backend and peer, whether every frame agrees (mean difference
            at most 2/255, 99th percentile at most 32/255) and the worst frame's mean / 99th percentile (on 0...255). ThorVG
            1.0.4 crashes on dna.json (no frames). Agreeing with either peer counts: \(agree.cpu) of \(files.count) on the CPU,
            \(agree.gl) on GL.

            | file | CPU vs rlottie | CPU vs ThorVG | GL vs rlottie | GL vs ThorVG | features used | drawn without |
            |---|---|---|---|---|---|---|

            """
            try (header + rows.joined(separator: "\n") + "\n").write(to: root.appendingPathComponent("docs/lottie-files.md"), atomically: true, encoding: .utf8)
        }
        print("agree with rlottie or ThorVG: cpu \(agree.cpu), gl \(agree.gl) of \(files.count) files")
        XCTAssertGreaterThanOrEqual(agree.cpu, Self.floor.cpu, "CPU files agreeing with rlottie or ThorVG")
        XCTAssertGreaterThanOrEqual(agree.gl, Self.floor.gl, "GL files agreeing with rlottie or ThorVG")
    }

    /// Frames side by side, left to right.
    static func sideBySide(_ images: [RGBAImage]) -> RGBAImage {
        let height = images.map(\.height).max() ?? 0
        var out = RGBAImage(width: images.reduce(0) { $0 + $1.width }, height: height, fill: RGBA8(255, 255, 255))
        var left = 0
        for image in images {
            for y in 0..<image.height { for x in 0..<image.width { out[left + x, y] = image[x, y] } }
            left += image.width
        }
        return out
    }

    /// Mean absolute difference per colour channel, and the 99th percentile of each pixel's largest, on 0...255.
    static func difference(_ a: RGBAImage, _ b: RGBAImage) -> (Double, Int) {
        guard a.width == b.width, a.height == b.height else { return (255, 255) }
        var total = 0, histogram = [Int](repeating: 0, count: 256)
        // Through buffer pointers: the test runs as a debug build, where indexing the arrays costs most of the test.
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                histogram.withUnsafeMutableBufferPointer { counts in
                    var i = 0
                    while i < pa.count {
                        let r = abs(Int(pa[i]) - Int(pb[i])), g = abs(Int(pa[i + 1]) - Int(pb[i + 1])), bl = abs(Int(pa[i + 2]) - Int(pb[i + 2]))
                        total += r + g + bl
                        counts[max(r, g, bl)] += 1
                        i += 4
                    }
                }
            }
        }
        let pixels = a.width * a.height
        var seen = 0, p99 = 255
        for (d, n) in histogram.enumerated() {
            seen += n
            if Double(seen) >= 0.99 * Double(pixels) { p99 = d; break }
        }
        return (Double(total) / Double(pixels * 3), p99)
    }

    /// A program's standard output; a failure is the test's failure with its stderr.
    /// Starts `program`, its output discarded: its exit status is all that is read (`succeeded`).
    func start(_ program: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Whether a started process ends with status 0.
    static func succeeded(_ process: Process) -> Bool {
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
