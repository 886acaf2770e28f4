import Foundation
import WaveCore

/// Animated output through the `ffmpeg` program: frames streamed to its
/// stdin as raw RGBA (no temporary PNGs), encoded into a temporary file that
/// is renamed into place whole (`AtomicFile`), like every output.

/// The animated formats, chosen by the output's extension.
package enum AnimationFormat: String, CaseIterable, Sendable {
    case mp4, webm, gif, apng

    /// `.mp4`, `.webm`, `.gif`, `.apng`, or `.png` for a sequence of more than one frame.
    package init?(path: String, frames: Int) {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "mp4": self = .mp4
        case "webm": self = .webm
        case "gif": self = .gif
        case "apng": self = .apng
        case "png" where frames > 1: self = .apng
        default: return nil
        }
    }

    /// The encoder settings after the raw input: H.264 or VP9 in 4:2:0 (sizes
    /// padded to even), a GIF with a palette made from the frames, an APNG
    /// that loops forever.
    var arguments: [String] {
        let even = ["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"]
        switch self {
        case .mp4: return even + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18", "-movflags", "+faststart", "-f", "mp4"]
        case .webm: return even + ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-crf", "30", "-b:v", "0", "-f", "webm"]
        case .gif: return ["-filter_complex", "split[a][b];[a]palettegen=reserve_transparent=0[p];[b][p]paletteuse", "-loop", "0", "-f", "gif"]
        case .apng: return ["-plays", "0", "-f", "apng"]
        }
    }

    /// GIF frame delays are whole centiseconds: the rate a GIF really plays at for `fps`.
    package static func gifRate(_ fps: Double) -> Double { 100 / Swift.max(1, (100 / fps).rounded()) }

    /// What a GIF at `fps` plays at instead, where it cannot play as asked (nil: it can, or not a GIF).
    package func rateWarning(fps: Double) -> String? {
        guard self == .gif, abs(Self.gifRate(fps) - fps) > 1e-6 else { return nil }
        return "GIF frame delays are whole hundredths of a second: --fps \(fps) plays at \(String(format: "%.4g", Self.gifRate(fps))) fps (rates of 100/n, such as 50, 33.33, 25 or 20, play as asked)"
    }
}

package enum AnimationError: Error, CustomStringConvertible, Equatable {
    /// No ffmpeg on the PATH (exit 69).
    case ffmpegMissing
    /// ffmpeg ran and failed (exit 73), with its last words.
    case ffmpegFailed(path: String, reason: String)

    package var description: String {
        switch self {
        case .ffmpegMissing:
            "ffmpeg is not installed: .mp4, .webm, .gif and animated .png are made by the ffmpeg program (apt-get install ffmpeg)"
        case let .ffmpegFailed(path, reason): "cannot write \(path): ffmpeg failed: \(reason)"
        }
    }
}

extension AnimationError: UserFacingError {
    package var exitStatus: Int32 { self == .ffmpegMissing ? ExitStatus.unavailable : ExitStatus.cannotCreate }
}

extension AnimationEncoder {
    /// `renderer`'s frames at `times`, drawn into `target` and encoded as
    /// `format` at `fps` into `path`, which is replaced whole or not at all.
    package static func write(_ renderer: Renderer, into target: RenderTarget, times: [Double], format: AnimationFormat,
                              fps: Double, to path: String, progress: ((Int, Int) -> Void)? = nil) throws {
        try AtomicFile.replace(path) { temporary in
            let encoder = try AnimationEncoder(format: format, width: target.width, height: target.height, fps: fps,
                                               temporaryPath: temporary, path: path)
            for (i, time) in times.enumerated() {
                try renderer.draw(time: time, into: target)
                try encoder.append(target)
                progress?(i + 1, times.count)
            }
            try encoder.finish()
        }
    }
}

/// One ffmpeg process encoding frames of one size into `temporaryPath`.
package final class AnimationEncoder {
    private let pid: pid_t
    private var input: Int32
    private let log: String
    private let path: String

    /// The ffmpeg program on the PATH, or nil.
    package static var ffmpeg: String? { ExternalTool.find("ffmpeg") }

    /// Starts ffmpeg writing `format` to `temporaryPath` (named `path` in errors).
    package init(format: AnimationFormat, width: Int, height: Int, fps: Double, temporaryPath: String, path: String) throws {
        guard let ffmpeg = Self.ffmpeg else { throw AnimationError.ffmpegMissing }
        self.path = path
        log = ExternalTool.logPath("ffmpeg")
        let arguments = ["-hide_banner", "-loglevel", "error", "-y",
                         "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-r", "\(fps)", "-i", "pipe:0"]
            + format.arguments + [temporaryPath]
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw AnimationError.ffmpegFailed(path: path, reason: "no pipe: \(String(cString: strerror(errno)))") }
        defer { close(pipeEnds[0]) }
        do {
            pid = try ExternalTool.spawn(ffmpeg, arguments, input: pipeEnds[0], closing: [pipeEnds[1]], log: log)
        } catch {
            close(pipeEnds[1])
            throw AnimationError.ffmpegFailed(path: path, reason: "\(error)")
        }
        input = pipeEnds[1]
        // A dead ffmpeg must not kill this process with SIGPIPE: the write fails instead.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        if input >= 0 { close(input); _ = ExternalTool.wait(pid) }
        unlink(log)
    }

    /// Sends one frame (rows top to bottom, the encoder's size).
    package func append(_ image: RGBAImage) throws {
        try image.pixels.withUnsafeBytes { try send($0) }
    }

    /// Sends the last frame drawn into `target`: a CPU pixmap's rows from
    /// where they lie (no copy of the frame), any other target read back.
    package func append(_ target: RenderTarget) throws {
        guard let pixmap = target as? Pixmap else { return try append(try target.readback()) }
        let view = pixmap.view
        if pixmap.rowStride == pixmap.width { return try send(UnsafeRawBufferPointer(pixmap.memory)) }
        for r in 0..<pixmap.height {
            try send(UnsafeRawBufferPointer(start: view.row(r), count: pixmap.width * 4))
        }
    }

    private func send(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(input, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw AnimationError.ffmpegFailed(path: path, reason: lastWords() ?? "it stopped reading frames") }
            offset += written
        }
    }

    /// Ends the input and waits for ffmpeg; throws with its last words if it failed.
    package func finish() throws {
        close(input)
        input = -1
        let status = ExternalTool.wait(pid)
        guard status == 0 else {
            throw AnimationError.ffmpegFailed(path: path, reason: lastWords() ?? (status > 128 ? "signal \(status - 128)" : "status \(status)"))
        }
    }

    private func lastWords() -> String? { ExternalTool.lastLine(of: log) }
}
