import Foundation
import WaveCore

/// Blend2D as a raster preset peer: a native build (it is not a Debian
/// package: built from its public sources into a folder the preset is
/// pointed at, `--blend2d DIR`), loaded at run time with dlopen through its
/// C API, one thread (a synchronous context), its JIT where the build has it.
final class Blend2DLibrary {
    typealias Status = UInt32
    typealias Object = UnsafeMutableRawPointer
    typealias ImageInit = @convention(c) (Object, Int32, Int32, UInt32) -> Status
    typealias ContextInit = @convention(c) (Object, Object, UnsafeRawPointer?) -> Status
    typealias Destroy = @convention(c) (Object) -> Status
    typealias SetUInt = @convention(c) (Object, UInt32) -> Status
    typealias FlushContext = @convention(c) (Object, UInt32) -> Status
    typealias ClipRect = @convention(c) (Object, UnsafeRawPointer) -> Status
    typealias FillPath = @convention(c) (Object, UnsafeRawPointer?, UnsafeRawPointer, UInt32) -> Status
    typealias PathPoint = @convention(c) (Object, Double, Double) -> Status
    typealias ImageData = @convention(c) (UnsafeRawPointer, UnsafeMutableRawPointer) -> Status
    typealias RuntimeInfo = @convention(c) (UInt32, UnsafeMutableRawPointer) -> Status

    // Blend2D's enum values (blend2d/core/format.h, context.h).
    static let formatPRGB32: UInt32 = 1
    static let compOpSrcOver: UInt32 = 0
    static let compOpSrcCopy: UInt32 = 1

    let imageInit: ImageInit, imageDestroy: Destroy, imageData: ImageData
    let contextInit: ContextInit, contextDestroy: Destroy, contextEnd: Destroy, contextFlush: FlushContext
    let setCompOp: SetUInt, fillAll: SetUInt, clipToRect: ClipRect, restoreClipping: Destroy, fillPath: FillPath
    let pathInit: Destroy, pathDestroy: Destroy, pathClear: Destroy, moveTo: PathPoint, lineTo: PathPoint, closePath: Destroy
    let version: String

    /// The library in `folder` (its lib/libblend2d.so, or the file itself), or why not.
    static func load(_ folder: String) -> Result<Blend2DLibrary, Blend2DUnavailable> {
        let file = folder.hasSuffix(".so") ? folder : folder + "/lib/libblend2d.so"
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(Blend2DUnavailable(reason: "\(file) cannot be loaded (\(String(cString: dlerror())))"))
        }
        do { return .success(try Blend2DLibrary(handle, file: file)) } catch let error as Blend2DUnavailable {
            return .failure(error)
        } catch {
            return .failure(Blend2DUnavailable(reason: "\(error)"))
        }
    }

    private init(_ handle: UnsafeMutableRawPointer, file: String) throws {
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            try loadSymbol(handle, name, as: type) { Blend2DUnavailable(reason: "\(file) has no \($0) (Blend2D 0.21's C API)") }
        }
        imageInit = try symbol("bl_image_init_as", as: ImageInit.self)
        imageDestroy = try symbol("bl_image_destroy", as: Destroy.self)
        imageData = try symbol("bl_image_get_data", as: ImageData.self)
        contextInit = try symbol("bl_context_init_as", as: ContextInit.self)
        contextDestroy = try symbol("bl_context_destroy", as: Destroy.self)
        contextEnd = try symbol("bl_context_end", as: Destroy.self)
        contextFlush = try symbol("bl_context_flush", as: FlushContext.self)
        setCompOp = try symbol("bl_context_set_comp_op", as: SetUInt.self)
        fillAll = try symbol("bl_context_fill_all_rgba32", as: SetUInt.self)
        clipToRect = try symbol("bl_context_clip_to_rect_d", as: ClipRect.self)
        restoreClipping = try symbol("bl_context_restore_clipping", as: Destroy.self)
        fillPath = try symbol("bl_context_fill_path_d_rgba32", as: FillPath.self)
        pathInit = try symbol("bl_path_init", as: Destroy.self)
        pathDestroy = try symbol("bl_path_destroy", as: Destroy.self)
        pathClear = try symbol("bl_path_clear", as: Destroy.self)
        moveTo = try symbol("bl_path_move_to", as: PathPoint.self)
        lineTo = try symbol("bl_path_line_to", as: PathPoint.self)
        closePath = try symbol("bl_path_close", as: Destroy.self)
        // BLRuntimeBuildInfo (type 0) starts with the major, minor and patch versions as uint32.
        let info = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
        defer { info.deallocate() }
        info.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
        let query = try symbol("bl_runtime_query_info", as: RuntimeInfo.self)
        _ = query(0, info)
        let v = info.assumingMemoryBound(to: UInt32.self)
        version = "\(v[0]).\(v[1]).\(v[2])"
    }
}

package struct Blend2DUnavailable: Error, CustomStringConvertible {
    package let reason: String
    package var description: String { "Blend2D is not available: \(reason)" }
}

extension Blend2DUnavailable: UserFacingError {
    package var exitStatus: Int32 { ExitStatus.unavailable }
}

/// Blend2D as a `PeerCanvas`: one PRGB32 image, a synchronous context, one path rebuilt per item.
package final class Blend2DCanvas: PeerCanvas {
    let library: Blend2DLibrary
    // BLImageCore, BLContextCore and BLPathCore are each one 16-byte object detail.
    private let blImage = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
    private let context = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
    private let path = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
    private let rect = UnsafeMutablePointer<Double>.allocate(capacity: 4)
    /// The path's origin, (0, 0) (a BLPoint: the fill reads it).
    private let origin = UnsafeMutablePointer<Double>.allocate(capacity: 2)
    private let width: Int, height: Int

    package init(library folder: String, width: Int, height: Int) throws {
        library = try Blend2DLibrary.load(folder).get()
        (self.width, self.height) = (width, height)
        guard library.imageInit(blImage, Int32(width), Int32(height), Blend2DLibrary.formatPRGB32) == 0 else {
            throw Blend2DUnavailable(reason: "Blend2D could not make a \(width)x\(height) image")
        }
        guard library.contextInit(context, blImage, nil) == 0 else {
            _ = library.imageDestroy(blImage)
            throw Blend2DUnavailable(reason: "Blend2D could not make a drawing context")
        }
        _ = library.pathInit(path)
        origin.initialize(repeating: 0, count: 2)
    }

    deinit {
        _ = library.contextEnd(context)
        _ = library.contextDestroy(context)
        _ = library.pathDestroy(path)
        _ = library.imageDestroy(blImage)
        for pointer in [blImage, context, path] { pointer.deallocate() }
        rect.deallocate()
        origin.deallocate()
    }

    package var version: String { "Blend2D " + library.version }

    /// Non-premultiplied 0xAARRGGBB.
    private static func argb(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> UInt32 {
        func byte(_ v: Double) -> UInt32 { UInt32(max(0, min(255, v.rounded()))) }
        return byte(a) << 24 | byte(r) << 16 | byte(g) << 8 | byte(b)
    }

    package func clear(_ c: RGBA8) {
        _ = library.setCompOp(context, Blend2DLibrary.compOpSrcCopy)
        _ = library.fillAll(context, Self.argb(Double(c.r), Double(c.g), Double(c.b), Double(c.a)))
        _ = library.setCompOp(context, Blend2DLibrary.compOpSrcOver)
    }

    package func begin(clip: Rect?) {
        _ = library.pathClear(path)
        guard let clip else { return }
        (rect[0], rect[1], rect[2], rect[3]) = (clip.x, clip.y, clip.width, clip.height)
        _ = library.clipToRect(context, rect)
    }

    package func fill(_ c: ColorValue, opacity: Double, clipped: Bool) {
        _ = library.fillPath(context, origin, path, Self.argb(c.r, c.g, c.b, c.a * opacity))
        if clipped { _ = library.restoreClipping(context) }
    }

    package func finish() { _ = library.contextFlush(context, 0x8000_0000) } // BL_CONTEXT_FLUSH_SYNC

    package func move(to x: Double, _ y: Double) { _ = library.moveTo(path, x, y) }
    package func line(to x: Double, _ y: Double) { _ = library.lineTo(path, x, y) }
    package func close() { _ = library.closePath(path) }

    package func image() -> RGBAImage {
        // BLImageData: the pixels' address, the stride, the size (two int32), the format and flags.
        let data = UnsafeMutableRawPointer.allocate(byteCount: 32, alignment: 16)
        defer { data.deallocate() }
        guard library.imageData(blImage, data) == 0, let pixels = data.load(as: UnsafeRawPointer?.self) else {
            return RGBAImage(width: width, height: height)
        }
        return unpremultiplied(pixels, stride: data.load(fromByteOffset: 8, as: Int.self), width: width, height: height)
    }
}
