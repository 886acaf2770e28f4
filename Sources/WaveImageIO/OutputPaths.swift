import Foundation
import WaveCore

/// Checks made before any rendering, so a bad output path costs nothing and
/// writes nothing.
public enum OutputPaths {
    /// The folder a file would be written into must exist and be writable.
    public static func checkFile(_ path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try checkFolder(folder, for: path)
    }

    /// `folder` must exist, be a folder, and take a new file: one is really
    /// created and removed (access() says yes to root on /proc and the like).
    public static func checkFolder(_ folder: String, for path: String? = nil) throws {
        try requireFolder(folder, for: path)
        let probe = folder + "/.waves-\(getpid()).probe"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw AtomicFile.failure(path ?? folder) }
        close(fd)
        unlink(probe)
    }

    /// `folder` must exist and be a folder.
    static func requireFolder(_ folder: String, for path: String?) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw FileError.missingFolder(path: path ?? folder)
        }
    }

    /// frame-0000.png, frame-0001.png, ... (at least four digits).
    public static func frameName(_ index: Int) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }
}

/// Renders frames at the given times and writes each as a PNG.
public enum FrameWriter {
    public static func write(renderer: Renderer, into target: RenderTarget, times: [Double], folder: String,
                             progress: ((Int, Int) -> Void)? = nil) throws {
        try OutputPaths.checkFolder(folder)
        for (i, t) in times.enumerated() {
            try renderer.draw(time: t, into: target)
            try PNG.write(try target.readback(), to: folder + "/" + OutputPaths.frameName(i))
            progress?(i + 1, times.count)
        }
    }
}
