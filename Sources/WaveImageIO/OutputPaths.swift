import Foundation
import WaveCore

/// Checks made before any rendering, so a bad output path costs nothing and
/// writes nothing.
package enum OutputPaths {
    /// The folder a file would be written into must exist and be writable,
    /// and the file itself, if it exists, must be one `AtomicFile` may replace.
    package static func checkFile(_ path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try checkFolder(folder, for: path)
        try checkTarget(path)
    }

    /// An existing output must be a regular, writable file: a folder, a
    /// device, a FIFO or a socket is refused (and left untouched), as is a
    /// read-only file. A symbolic link in the output's place is refused
    /// unless `AtomicFile.followsLinks` (then what it points to is judged,
    /// and a link to nothing is still refused). An output that is one of
    /// the run's inputs (`ProtectedInputs`) is refused.
    package static func checkTarget(_ path: String) throws {
        try checkLink(path, holding: "outputs")
        if let input = ProtectedInputs.input(replacedBy: path) {
            throw FileError.refused(path: path, reason: input == path ? "it is an input of this run; an output never replaces an input"
                                            : "it is an input of this run (\(input)); an output never replaces an input")
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return } // nothing there yet
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR { throw FileError.refused(path: path, reason: "it is a folder (give a file name)") }
        guard kind == S_IFREG else {
            let what = kind == S_IFIFO ? "a FIFO" : kind == S_IFSOCK ? "a socket" : kind == S_IFCHR || kind == S_IFBLK ? "a device" : "not a regular file"
            throw FileError.refused(path: path, reason: "it is \(what), not a regular file; left untouched")
        }
        // No write bit at all is read-only even for root, whom access() lets write anything.
        guard access(path, W_OK) == 0, info.st_mode & 0o222 != 0 else {
            throw FileError.refused(path: path, reason: "it is read-only; left untouched")
        }
    }

    /// The link policy, for an output file or a folder of frames: a symbolic
    /// link in `path`'s place is refused unless `AtomicFile.followsLinks`,
    /// and a link to nothing is refused even then.
    static func checkLink(_ path: String, holding what: String) throws {
        var link = stat()
        guard lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK else { return }
        let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
        guard AtomicFile.followsLinks else {
            throw FileError.refused(path: path, reason: "it is a symbolic link (to \(destination)); \(what) are never written through a link (--follow-links writes to what it points to)")
        }
        var target = stat()
        guard stat(path, &target) == 0 else {
            throw FileError.refused(path: path, reason: "it is a symbolic link to nothing (\(destination)); left untouched")
        }
    }

    /// `folder` must exist, be a folder, and take a new file: one is really
    /// created and removed (access() says yes to root on /proc and the like).
    package static func checkFolder(_ folder: String, for path: String? = nil) throws {
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

    /// A folder of frames, before any is written: a symbolic link in its
    /// place refused as for a file (`checkLink`), and a file there refused
    /// (a retry cannot help); where a folder is there, one that takes new
    /// files. Whether it is there.
    @discardableResult
    package static func checkFrameFolder(_ folder: String) throws -> Bool {
        try checkLink(folder, holding: "frames")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else { return false }
        guard isFolder.boolValue else { throw FileError.refused(path: folder, reason: "it is a file, not a folder for the frames") }
        try checkFolder(folder)
        return true
    }

    /// The folder an output ending in `/` names (`frames/`: a folder of frames), without the slashes; nil for a file.
    package static func frameFolder(_ output: String) -> String? {
        guard output.count > 1, output.hasSuffix("/") else { return nil }
        var folder = output
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return folder
    }

    /// A sequence's folder: made when missing (with its parents); one that
    /// already holds frames (frame-NNNN.png) is refused, so new frames never
    /// mix with stale ones, unless `overwrite`: the new frames then replace
    /// the old ones in place, and `removeStaleFrames` removes those past the
    /// new sequence once it is whole (a failed run loses nothing).
    package static func prepareSequenceFolder(_ folder: String, overwrite: Bool) throws {
        if try !checkFrameFolder(folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw FileError.cannotWrite(path: folder, reason: "the folder cannot be made (\((error as NSError).localizedDescription))")
            }
            try checkFolder(folder)
        }
        let existing = existingFrames(in: folder)
        guard !existing.isEmpty else { return }
        guard overwrite else {
            throw FileError.cannotWrite(path: folder, reason: "it holds \(existing.count) frames of an earlier sequence (--overwrite replaces them)")
        }
    }

    /// After a whole new sequence of `count` frames: the earlier sequence's frames past it.
    package static func removeStaleFrames(in folder: String, keeping count: Int) throws {
        for name in existingFrames(in: folder) {
            guard let index = Int(name.dropFirst(6).dropLast(4)), index >= count else { continue }
            if unlink(folder + "/" + name) != 0 { throw AtomicFile.failure(folder + "/" + name) }
        }
    }

    /// Names of the form frame-NNNN.png (four or more digits) in `folder`.
    static func existingFrames(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { name in
            guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return false }
            let digits = name.dropFirst(6).dropLast(4)
            return digits.count >= 4 && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
        }
    }

    /// frame-0000.png, frame-0001.png, ... (at least four digits).
    package static func frameName(_ index: Int) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }
}

/// Renders frames at the given times and writes each as a PNG.
package enum FrameWriter {
    package static func write(renderer: Renderer, into target: RenderTarget, times: [Double], folder: String,
                             progress: ((Int, Int) -> Void)? = nil) throws {
        try OutputPaths.checkFolder(folder)
        for (i, t) in times.enumerated() {
            try renderer.draw(time: t, into: target)
            try PNG.write(target, to: folder + "/" + OutputPaths.frameName(i))
            progress?(i + 1, times.count)
        }
    }
}
