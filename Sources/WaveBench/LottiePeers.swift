import Foundation
import WaveCore
import WaveImageIO

/// rlottie and ThorVG as the Lottie bench's peers: the native libraries the
/// PyPI wheels ship (rlottie-python 1.3.8's librlottie.so, thorvg-python
/// 1.1.3's libthorvg-1.so, ThorVG 1.0.4), loaded at run time through their C
/// APIs, each drawing every frame of a file, as an app that plays it redraws
/// it, timed by the CPU its whole process spends (ThorVG is asked for no
/// worker thread; rlottie rasterises on a pool of its own, one thread a
/// core). Each runs in a child process (`waves` again, with
/// `LottiePeerChild.command`), so a crash of a peer's library (ThorVG 1.0.4
/// dies with SIGSEGV on dna.json) costs only that peer's figure for that file.
package enum LottiePeer: String, CaseIterable, Sendable {
    case rlottie, thorvg

    package var name: String { self == .rlottie ? "rlottie" : "ThorVG" }

    /// The library inside the Python environment `folder` (its
    /// lib/python3.*/site-packages/<wheel>/...), or why not.
    package func library(in folder: String) -> Result<String, LottiePeerUnavailable> {
        let (package, file) = self == .rlottie ? ("rlottie_python", "librlottie.so") : ("thorvg_python", "libthorvg-1.so")
        let lib = folder + "/lib"
        let pythons = ((try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []).filter { $0.hasPrefix("python") }.sorted()
        for python in pythons {
            let path = "\(lib)/\(python)/site-packages/\(package)/\(file)"
            if FileManager.default.isReadableFile(atPath: path) { return .success(path) }
        }
        return .failure(LottiePeerUnavailable(peer: self, reason: "no \(package)/\(file) under \(folder)/lib/python*/site-packages "
                                                + "(contrib/lottie/setup-venv.sh makes that environment)"))
    }
}

/// A peer that cannot be measured, and why, in one line.
package struct LottiePeerUnavailable: Error, Equatable, CustomStringConvertible {
    package let peer: LottiePeer
    package let reason: String
    package var description: String { "\(peer.name) not measured: \(reason)" }
}

/// One pass of a peer over a file's frames: each frame's CPU time in
/// seconds (all its threads), or why there is none (it could not load, crashed or hung).
package enum LottiePeerPass: Equatable {
    case times([Double])
    case failed(String)
}

/// The parent's side: runs one pass of a peer in a child process.
package enum LottiePeerRun {
    /// The longest a pass may take before the child is stopped.
    package static let timeout = 600.0

    /// `frames` frames (0 ..< frames, counted from the in point) of `file` at
    /// `width` x `height`, drawn by `peer` from `library` in a child process.
    package static func pass(_ peer: LottiePeer, library: String, file: String, width: Int, height: Int, frames: Int,
                             executable: String = "/proc/self/exe") -> LottiePeerPass {
        let name = URL(fileURLWithPath: file).lastPathComponent
        let (status, output, lastWords) = ExternalTool.capture(executable, [LottiePeerChild.command, peer.rawValue, library, file,
                                                                            "\(width)", "\(height)", "\(frames)"], timeout: timeout)
        guard let status else { return .failed("ran past \(Int(timeout)) s on \(name)") }
        if status > 128 {
            let signal = status - 128
            return .failed("crashed on \(name) (signal \(signal)\(signal == SIGSEGV ? ", SIGSEGV" : signal == SIGABRT ? ", SIGABRT" : ""))")
        }
        guard status == 0 else { return .failed(lastWords ?? "exit status \(status)") }
        let times = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard times.count == frames else { return .failed("gave \(times.count) frame times for \(frames) frames of \(name)") }
        return .times(times)
    }
}

/// The child's side: `waves <command> PEER LIBRARY FILE WIDTH HEIGHT FRAMES`
/// draws frames 0 ..< FRAMES and prints each frame's CPU seconds (all the child's threads) on
/// stdout; a failure is one line on stderr and status 1 (69: the library
/// cannot be loaded). Not a command a person types. Nothing is freed: the
/// process ends with the pass.
package enum LottiePeerChild {
    package static let command = "__lottie-peer"

    package static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 6, let peer = LottiePeer(rawValue: arguments[0]), let width = Int(arguments[3]),
              let height = Int(arguments[4]), let frames = Int(arguments[5]), (1...16384).contains(width), (1...16384).contains(height),
              frames >= 0 else {
            printError("waves \(command): expected PEER LIBRARY FILE WIDTH HEIGHT FRAMES")
            return ExitStatus.usage
        }
        guard let handle = dlopen(arguments[1], RTLD_NOW | RTLD_LOCAL) else {
            printError("\(peer.name): \(arguments[1]) cannot be loaded (\(String(cString: dlerror())))")
            return ExitStatus.unavailable
        }
        do {
            let drawer: (Int) throws -> Void
            let buffer = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
            defer { buffer.deallocate() }
            switch peer {
            case .rlottie: drawer = try RlottieDrawer(handle, file: arguments[2], width: width, height: height, buffer: buffer).draw
            case .thorvg: drawer = try ThorVGDrawer(handle, file: arguments[2], width: width, height: height, buffer: buffer).draw
            }
            var times = [Double](repeating: 0, count: frames)
            // The child's whole CPU time: rlottie rasterises on worker threads of its own (std::thread, as many as
            // the machine has cores), so its calling thread alone would leave most of its work out.
            for frame in 0..<frames {
                let start = Clocks.processCPU()
                try drawer(frame)
                times[frame] = Clocks.processCPU() - start
            }
            print(times.map { String(format: "%.9f", $0) }.joined(separator: " "))
            return 0
        } catch {
            printError("\(peer.name): \(error)")
            return 1
        }
    }
}

/// Why a peer could not draw a file, one line.
struct LottiePeerFailure: Error, CustomStringConvertible {
    let description: String
}

private func symbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String, _ type: T.Type) throws -> T {
    try loadSymbol(handle, name, as: type) { LottiePeerFailure(description: "the library has no \($0)") }
}

/// rlottie's C API (rlottie_capi.h): the file loaded once, each frame
/// rendered into the buffer (premultiplied ARGB32), the animation fitted
/// to the size by rlottie itself. rlottie draws over what the buffer holds
/// (its `Composition::render` clears nothing), so the buffer is cleared
/// before each frame, as a player must: Waves fills its background and
/// ThorVG clears its canvas in their frames too.
private final class RlottieDrawer {
    typealias FromFile = @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
    typealias Render = @convention(c) (OpaquePointer, Int, UnsafeMutablePointer<UInt32>, Int, Int, Int) -> Void

    private let animation: OpaquePointer
    private let render: Render
    private let width: Int, height: Int
    private let buffer: UnsafeMutablePointer<UInt32>

    init(_ handle: UnsafeMutableRawPointer, file: String, width: Int, height: Int, buffer: UnsafeMutablePointer<UInt32>) throws {
        let fromFile = try symbol(handle, "lottie_animation_from_file", FromFile.self)
        render = try symbol(handle, "lottie_animation_render", Render.self)
        guard let animation = fromFile(file) else { throw LottiePeerFailure(description: "could not load \(file)") }
        self.animation = animation
        (self.width, self.height, self.buffer) = (width, height, buffer)
    }

    func draw(_ frame: Int) throws {
        buffer.update(repeating: 0, count: width * height)
        render(animation, frame, buffer, width, height, width * 4)
    }
}

/// ThorVG 1.0's C API (thorvg_capi.h): a software canvas on the calling
/// thread only (asked for no worker threads), the
/// Lottie picture sized to fit and centred, each frame set, updated, drawn
/// and synced.
private final class ThorVGDrawer {
    typealias Result = Int32
    typealias EngineInit = @convention(c) (UInt32) -> Result
    typealias CanvasCreate = @convention(c) (UInt8) -> OpaquePointer?
    typealias SetTarget = @convention(c) (OpaquePointer, UnsafeMutablePointer<UInt32>, UInt32, UInt32, UInt32, UInt8) -> Result
    typealias AnimationNew = @convention(c) () -> OpaquePointer?
    typealias GetPicture = @convention(c) (OpaquePointer) -> OpaquePointer?
    typealias Load = @convention(c) (OpaquePointer, UnsafePointer<CChar>) -> Result
    typealias GetSize = @convention(c) (OpaquePointer, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> Result
    typealias SetPair = @convention(c) (OpaquePointer, Float, Float) -> Result
    typealias Add = @convention(c) (OpaquePointer, OpaquePointer) -> Result
    typealias SetFrame = @convention(c) (OpaquePointer, Float) -> Result
    typealias CanvasCall = @convention(c) (OpaquePointer) -> Result
    typealias Draw = @convention(c) (OpaquePointer, Bool) -> Result

    // ThorVG's enum values: Tvg_Result (SUCCESS 0, INSUFFICIENT_CONDITION 2), Tvg_Colorspace ABGR8888 0, Tvg_Engine_Option DEFAULT 1.
    private static let success: Result = 0, insufficientCondition: Result = 2

    private let canvas: OpaquePointer, animation: OpaquePointer
    private let setFrame: SetFrame, update: CanvasCall, draw: Draw, sync: CanvasCall

    init(_ handle: UnsafeMutableRawPointer, file: String, width: Int, height: Int, buffer: UnsafeMutablePointer<UInt32>) throws {
        func check(_ result: Result, _ what: String) throws {
            guard result == Self.success else { throw LottiePeerFailure(description: "\(what) failed (Tvg_Result \(result))") }
        }
        try check(try symbol(handle, "tvg_engine_init", EngineInit.self)(0), "tvg_engine_init")
        guard let canvas = try symbol(handle, "tvg_swcanvas_create", CanvasCreate.self)(1) else {
            throw LottiePeerFailure(description: "tvg_swcanvas_create failed")
        }
        self.canvas = canvas
        guard let animation = try symbol(handle, "tvg_lottie_animation_new", AnimationNew.self)() else {
            throw LottiePeerFailure(description: "tvg_lottie_animation_new failed")
        }
        self.animation = animation
        setFrame = try symbol(handle, "tvg_animation_set_frame", SetFrame.self)
        update = try symbol(handle, "tvg_canvas_update", CanvasCall.self)
        draw = try symbol(handle, "tvg_canvas_draw", Draw.self)
        sync = try symbol(handle, "tvg_canvas_sync", CanvasCall.self)
        try check(try symbol(handle, "tvg_swcanvas_set_target", SetTarget.self)(canvas, buffer, UInt32(width), UInt32(width),
                                                                                  UInt32(height), 0), "tvg_swcanvas_set_target")
        guard let picture = try symbol(handle, "tvg_animation_get_picture", GetPicture.self)(animation) else {
            throw LottiePeerFailure(description: "tvg_animation_get_picture failed")
        }
        guard try symbol(handle, "tvg_picture_load", Load.self)(picture, file) == Self.success else {
            throw LottiePeerFailure(description: "could not load \(file)")
        }
        var w: Float = 0, h: Float = 0
        try check(try symbol(handle, "tvg_picture_get_size", GetSize.self)(picture, &w, &h), "tvg_picture_get_size")
        guard w > 0, h > 0 else { throw LottiePeerFailure(description: "reads its size as \(w)x\(h)") }
        // ThorVG draws a picture at the origin at the size asked for: the fitted size, moved to the centre.
        let scale = min(Float(width) / w, Float(height) / h)
        try check(try symbol(handle, "tvg_picture_set_size", SetPair.self)(picture, w * scale, h * scale), "tvg_picture_set_size")
        try check(try symbol(handle, "tvg_paint_translate", SetPair.self)(picture, (Float(width) - w * scale) / 2,
                                                                           (Float(height) - h * scale) / 2), "tvg_paint_translate")
        try check(try symbol(handle, "tvg_canvas_add", Add.self)(canvas, picture), "tvg_canvas_add")
    }

    func draw(_ frame: Int) throws {
        let moved = setFrame(animation, Float(frame))
        // INSUFFICIENT_CONDITION: already at that frame (frame 0 after loading).
        guard moved == Self.success || moved == Self.insufficientCondition else {
            throw LottiePeerFailure(description: "could not go to frame \(frame) (Tvg_Result \(moved))")
        }
        func check(_ result: Result, _ step: String) throws {
            guard result == Self.success else { throw LottiePeerFailure(description: "could not \(step) frame \(frame) (Tvg_Result \(result))") }
        }
        try check(update(canvas), "update")
        try check(draw(canvas, true), "draw")
        try check(sync(canvas), "sync")
    }
}
