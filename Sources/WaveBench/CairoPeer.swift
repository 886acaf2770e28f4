import Foundation
import WaveCore

/// cairo, the vector library most Linux desktops draw with, as a peer for
/// the raster preset: it fills the very polygon our rasteriser fills (built
/// by the same outline code through `OutlineSink`), so the two times compare
/// like for like. Loaded at run time with dlopen (Debian's libcairo2): the
/// benchmark builds without cairo's headers, and a machine without the
/// library simply has no cairo column.
final class CairoLibrary {
    typealias SurfaceCreate = @convention(c) (Int32, Int32, Int32) -> OpaquePointer?
    typealias ContextCreate = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias Release = @convention(c) (OpaquePointer?) -> Void
    typealias SetRGBA = @convention(c) (OpaquePointer?, Double, Double, Double, Double) -> Void
    typealias SetInt = @convention(c) (OpaquePointer?, Int32) -> Void
    typealias Point = @convention(c) (OpaquePointer?, Double, Double) -> Void
    typealias Rectangle = @convention(c) (OpaquePointer?, Double, Double, Double, Double) -> Void
    typealias Status = @convention(c) (OpaquePointer?) -> Int32
    typealias Data = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<UInt8>?
    typealias Stride = @convention(c) (OpaquePointer?) -> Int32
    typealias Version = @convention(c) () -> UnsafePointer<CChar>?

    // cairo's enum values (cairo.h).
    static let formatARGB32: Int32 = 0
    static let operatorSource: Int32 = 1
    static let operatorOver: Int32 = 2

    let imageSurfaceCreate: SurfaceCreate
    let create: ContextCreate
    let destroy: Release
    let surfaceDestroy: Release
    let surfaceFlush: Release
    let surfaceStatus: Status
    let status: Status
    let setSourceRGBA: SetRGBA
    let setOperator: SetInt
    let paint: Release
    let moveTo: Point
    let lineTo: Point
    let closePath: Release
    let fill: Release
    let rectangle: Rectangle
    let clip: Release
    let save: Release
    let restore: Release
    let imageData: Data
    let imageStride: Stride
    let version: String

    /// The library, or nil with the reason it could not be loaded.
    static let shared: Result<CairoLibrary, CairoUnavailable> = load()

    private init(_ handle: UnsafeMutableRawPointer) throws {
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            try loadSymbol(handle, name, as: type) { CairoUnavailable(reason: "libcairo.so.2 has no \($0)") }
        }
        imageSurfaceCreate = try symbol("cairo_image_surface_create", as: SurfaceCreate.self)
        create = try symbol("cairo_create", as: ContextCreate.self)
        destroy = try symbol("cairo_destroy", as: Release.self)
        surfaceDestroy = try symbol("cairo_surface_destroy", as: Release.self)
        surfaceFlush = try symbol("cairo_surface_flush", as: Release.self)
        surfaceStatus = try symbol("cairo_surface_status", as: Status.self)
        status = try symbol("cairo_status", as: Status.self)
        setSourceRGBA = try symbol("cairo_set_source_rgba", as: SetRGBA.self)
        setOperator = try symbol("cairo_set_operator", as: SetInt.self)
        paint = try symbol("cairo_paint", as: Release.self)
        moveTo = try symbol("cairo_move_to", as: Point.self)
        lineTo = try symbol("cairo_line_to", as: Point.self)
        closePath = try symbol("cairo_close_path", as: Release.self)
        fill = try symbol("cairo_fill", as: Release.self)
        rectangle = try symbol("cairo_rectangle", as: Rectangle.self)
        clip = try symbol("cairo_clip", as: Release.self)
        save = try symbol("cairo_save", as: Release.self)
        restore = try symbol("cairo_restore", as: Release.self)
        imageData = try symbol("cairo_image_surface_get_data", as: Data.self)
        imageStride = try symbol("cairo_image_surface_get_stride", as: Stride.self)
        let versionString = try symbol("cairo_version_string", as: Version.self)
        version = versionString().map { String(cString: $0) } ?? "unknown"
    }

    private static func load() -> Result<CairoLibrary, CairoUnavailable> {
        guard let handle = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL) else {
            return .failure(CairoUnavailable(reason: "libcairo.so.2 is not installed (apt-get install libcairo2)"))
        }
        do { return .success(try CairoLibrary(handle)) } catch let error as CairoUnavailable {
            return .failure(error)
        } catch {
            return .failure(CairoUnavailable(reason: "\(error)"))
        }
    }
}

package struct CairoUnavailable: Error, CustomStringConvertible {
    package let reason: String
    package var description: String { "cairo is not available: \(reason)" }
}

/// cairo as a `PeerCanvas`: one image surface and its context.
package final class CairoCanvas: PeerCanvas {
    let cairo: CairoLibrary
    private let surface: OpaquePointer
    private let context: OpaquePointer
    private let width: Int, height: Int

    package init(width: Int, height: Int) throws {
        let cairo = try CairoLibrary.shared.get()
        guard let surface = cairo.imageSurfaceCreate(CairoLibrary.formatARGB32, Int32(width), Int32(height)),
              cairo.surfaceStatus(surface) == 0 else {
            throw CairoUnavailable(reason: "cairo could not make a \(width)x\(height) image")
        }
        guard let context = cairo.create(surface), cairo.status(context) == 0 else {
            cairo.surfaceDestroy(surface)
            throw CairoUnavailable(reason: "cairo could not make a drawing context")
        }
        (self.cairo, self.surface, self.context, self.width, self.height) = (cairo, surface, context, width, height)
    }

    deinit {
        cairo.destroy(context)
        cairo.surfaceDestroy(surface)
    }

    package var version: String { "cairo " + cairo.version }

    package func clear(_ c: RGBA8) {
        cairo.setOperator(context, CairoLibrary.operatorSource)
        cairo.setSourceRGBA(context, Double(c.r) / 255, Double(c.g) / 255, Double(c.b) / 255, Double(c.a) / 255)
        cairo.paint(context)
        cairo.setOperator(context, CairoLibrary.operatorOver)
    }

    package func begin(clip: Rect?) {
        guard let clip else { return }
        cairo.save(context)
        cairo.rectangle(context, clip.x, clip.y, clip.width, clip.height)
        cairo.clip(context)
    }

    package func fill(_ c: ColorValue, opacity: Double, clipped: Bool) {
        cairo.setSourceRGBA(context, c.r / 255, c.g / 255, c.b / 255, c.a / 255 * opacity)
        cairo.fill(context)
        if clipped { cairo.restore(context) }
    }

    package func finish() { cairo.surfaceFlush(surface) }

    package func move(to x: Double, _ y: Double) { cairo.moveTo(context, x, y) }
    package func line(to x: Double, _ y: Double) { cairo.lineTo(context, x, y) }
    package func close() { cairo.closePath(context) }

    package func image() -> RGBAImage {
        guard let data = cairo.imageData(surface) else { return RGBAImage(width: width, height: height) }
        return unpremultiplied(UnsafeRawPointer(data), stride: Int(cairo.imageStride(surface)), width: width, height: height)
    }
}
