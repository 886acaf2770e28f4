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

    public var description: String {
        switch self {
        case let .missingFolder(path): "cannot write \(path): the folder does not exist"
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason)"
        case let .cannotRead(path, reason): "cannot read \(path): \(reason)"
        }
    }
}

/// PNG files through libpng's simplified API (no setjmp; failures come back
/// in `png_image.message`). RGBA8, no gamma or time chunks.
public enum PNG {
    /// Writes `image` to `path` atomically (`AtomicFile`): no reader ever
    /// sees a partial PNG.
    public static func write(_ image: RGBAImage, to path: String) throws {
        try AtomicFile.replace(path) { temporary in
            var png = makeImage(width: image.width, height: image.height)
            let ok = image.pixels.withUnsafeBytes { bytes in
                png_image_write_to_file(&png, temporary, 0, bytes.baseAddress, Int32(image.width * 4), nil)
            }
            if ok == 0 {
                let reason = errno == EACCES ? "permission denied" : message(of: &png)
                throw FileError.cannotWrite(path: path, reason: reason)
            }
        }
    }

    /// The PNG's bytes (the simplified API's write to memory).
    public static func encode(_ image: RGBAImage) throws -> Data {
        var png = makeImage(width: image.width, height: image.height)
        var size = 0
        // First the size, then the bytes.
        let sized = image.pixels.withUnsafeBytes { bytes in
            png_image_write_to_memory(&png, nil, &size, 0, bytes.baseAddress, Int32(image.width * 4), nil)
        }
        guard sized != 0, size > 0 else { throw FileError.cannotWrite(path: "-", reason: message(of: &png)) }
        var data = Data(count: size)
        let ok = data.withUnsafeMutableBytes { out in
            image.pixels.withUnsafeBytes { bytes in
                png_image_write_to_memory(&png, out.baseAddress, &size, 0, bytes.baseAddress, Int32(image.width * 4), nil)
            }
        }
        guard ok != 0 else { throw FileError.cannotWrite(path: "-", reason: message(of: &png)) }
        return data.prefix(size)
    }

    /// Writes the PNG to stdout (`--out -`).
    public static func writeToStandardOutput(_ image: RGBAImage) throws {
        let data = try encode(image)
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw FileError.cannotWrite(path: "-", reason: String(cString: strerror(errno))) }
                offset += written
            }
        }
    }

    /// Reads any PNG libpng understands, converted to RGBA8 rows top to bottom.
    public static func read(from path: String) throws -> RGBAImage {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&png, path) != 0 else {
            throw FileError.cannotRead(path: path, reason: message(of: &png))
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
