import CPNG
import Foundation
import WaveCore

/// What can go wrong reading or writing the project's files.
public enum FileError: Error, CustomStringConvertible, Equatable {
    /// The folder to write into does not exist or is not a folder.
    case missingFolder(path: String)
    /// The file could not be created or written (permissions, disk full, ...).
    case cannotWrite(path: String, reason: String)
    /// The file could not be read or is not a PNG libpng can decode.
    case cannotRead(path: String, reason: String)
    /// The output is refused for what is in its place (an input of the run,
    /// a link, a folder, a device, a read-only file): a retry cannot help.
    case refused(path: String, reason: String)

    public var description: String {
        switch self {
        case let .missingFolder(path): "cannot write \(path): the folder does not exist"
        case let .cannotWrite(path, reason), let .refused(path, reason): "cannot write \(path): \(reason)"
        case let .cannotRead(path, reason): "cannot read \(path): \(reason)"
        }
    }
}

extension FileError: UserFacingError {
    package var exitStatus: Int32 {
        if case .cannotRead = self { return ExitStatus.badData }
        return ExitStatus.cannotCreate
    }
}

/// PNG files through libpng's simplified API (no setjmp; failures come back
/// in `png_image.message`). RGBA8, no gamma or time chunks.
public enum PNG {
    /// Writes `image` to `path` atomically (`AtomicFile`): no reader ever
    /// sees a partial PNG.
    public static func write(_ image: RGBAImage, to path: String) throws {
        try image.pixels.withUnsafeBytes { bytes in
            try write(Rows(image: image, bytes: bytes), to: path)
        }
    }

    /// Writes the last frame drawn into `target` to `path` atomically. A
    /// CPU pixmap is encoded from its own memory, row by row (libpng reads
    /// the rows where they lie: no copy of the frame); any other target is
    /// read back first.
    public static func write(_ target: RenderTarget, to path: String) throws {
        if let pixmap = target as? Pixmap { return try write(Rows(pixmap), to: path) }
        try write(try target.readback(), to: path)
    }

    /// Writes the PNG to stdout (`--out -`), as it is encoded.
    package static func writeToStandardOutput(_ image: RGBAImage) throws {
        try image.pixels.withUnsafeBytes { bytes in
            try writeToStandardOutput(Rows(image: image, bytes: bytes))
        }
    }

    /// Writes the last frame drawn into `target` to stdout, as `write(_:to:)` does to a file.
    package static func writeToStandardOutput(_ target: RenderTarget) throws {
        if let pixmap = target as? Pixmap { return try writeToStandardOutput(Rows(pixmap)) }
        try writeToStandardOutput(try target.readback())
    }

    /// RGBA8 rows, non-premultiplied, as libpng's simplified API takes them:
    /// `lowest` is the lowest address of the pixels and `rowStride` the
    /// bytes from one row to the next, top to bottom (negative when the rows
    /// are stored bottom to top).
    private struct Rows {
        let width: Int, height: Int
        let lowest: UnsafeRawPointer?
        let rowStride: Int

        init(image: RGBAImage, bytes: UnsafeRawBufferPointer) {
            width = image.width; height = image.height
            lowest = bytes.baseAddress
            rowStride = image.width * 4
        }

        init(_ pixmap: Pixmap) {
            // Packed words with R in the lowest byte: the bytes R, G, B, A in memory.
            width = pixmap.width; height = pixmap.height
            lowest = UnsafeRawPointer(pixmap.memory.baseAddress)
            rowStride = pixmap.rowStride * 4
        }
    }

    private static func write(_ rows: Rows, to path: String) throws {
        try AtomicFile.replace(path) { temporary in
            var png = makeImage(width: rows.width, height: rows.height)
            let ok = png_image_write_to_file(&png, temporary, 0, rows.lowest, Int32(rows.rowStride), nil)
            if ok == 0 {
                let reason = errno == EACCES ? "permission denied" : message(of: &png)
                throw FileError.cannotWrite(path: path, reason: reason)
            }
        }
    }

    /// Encoded straight into a stdio stream on a duplicate of stdout, so
    /// nothing the size of the PNG is held.
    private static func writeToStandardOutput(_ rows: Rows) throws {
        let fd = dup(STDOUT_FILENO)
        guard fd >= 0, let stream = fdopen(fd, "w") else {
            let reason = String(cString: strerror(errno))
            throw FileError.cannotWrite(path: "-", reason: reason)
        }
        var png = makeImage(width: rows.width, height: rows.height)
        errno = 0
        let ok = png_image_write_to_stdio(&png, stream, 0, rows.lowest, Int32(rows.rowStride), nil)
        let flushed = fflush(stream) == 0
        let code = errno
        fclose(stream)
        guard ok != 0, flushed else {
            throw FileError.cannotWrite(path: "-", reason: code != 0 ? String(cString: strerror(code)) : message(of: &png))
        }
    }

    /// Reads any PNG libpng understands, converted to RGBA8 rows top to bottom.
    public static func read(from path: String) throws -> RGBAImage {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&png, path) != 0 else {
            throw FileError.cannotRead(path: path, reason: message(of: &png))
        }
        return try finishReading(&png, path: path)
    }

    /// A PNG held in memory (`name` says where it came from in messages).
    public static func read(bytes: [UInt8], name: String) throws -> RGBAImage {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&png, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw FileError.cannotRead(path: name, reason: message(of: &png)) }
        return try finishReading(&png, path: name)
    }

    /// The pixels of a PNG whose header was read, at most `maxPixels`.
    private static func finishReading(_ png: inout png_image, path: String) throws -> RGBAImage {
        guard Int(png.width) * Int(png.height) <= maxPixels else {
            png_image_free(&png)
            throw FileError.cannotRead(path: path, reason: "an image of \(png.width)x\(png.height), more than \(maxPixels) pixels")
        }
        png.format = WAVES_PNG_FORMAT_RGBA
        let width = Int(png.width), height = Int(png.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let ok = pixels.withUnsafeMutableBytes { bytes in
            png_image_finish_read(&png, nil, bytes.baseAddress, Int32(width * 4), nil)
        }
        guard ok != 0 else {
            let reason = message(of: &png)
            png_image_free(&png)
            throw FileError.cannotRead(path: path, reason: reason)
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The most pixels an image read may have (16384 x 16384).
    public static let maxPixels = 1 << 28

    private static func makeImage(width: Int, height: Int) -> png_image {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(width)
        png.height = UInt32(height)
        png.format = WAVES_PNG_FORMAT_RGBA
        return png
    }

    private static func message(of png: inout png_image) -> String {
        withUnsafeBytes(of: &png.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
