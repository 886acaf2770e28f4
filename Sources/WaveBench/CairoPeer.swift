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
            guard let pointer = dlsym(handle, name) else { throw CairoUnavailable(reason: "libcairo.so.2 has no \(name)") }
            return unsafeBitCast(pointer, to: type)
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

/// One scene drawn by cairo into its own image surface, frame by frame:
/// clear to the background, then the layer tree evaluated (the same
/// evaluator the CPU strategy uses) and each item's outline, in scene
/// pixels, filled with its colour inside its clip (anti-aliased, non-zero,
/// cairo's defaults). Only what the raster preset measures: trees of fixed
/// shapes with solid fills (the sine cells).
package final class CairoFrame: OutlineSink {
    let cairo: CairoLibrary
    let scene: Scene
    private let evaluator: LayerTreeEvaluator?
    private var list: PresentationList
    private let surface: OpaquePointer
    private let context: OpaquePointer

    /// Whether every shape of the compiled tree is fixed, filled with a solid colour, unmasked (nothing else is drawn here).
    private static func supports(_ evaluator: LayerTreeEvaluator?) -> Bool {
        guard let evaluator else { return true }
        return evaluator.maskNodes.isEmpty && evaluator.nodes.allSatisfy { node in
            guard let contents = node.layer.contents else { return true }
            guard case let .shape(shape) = contents, case .fixed = shape.path, case .solid = shape.fill else { return false }
            return true
        }
    }

    package init(scene: Scene) throws {
        let cairo = try CairoLibrary.shared.get()
        let evaluator = try scene.tree?.makeEvaluator()
        guard Self.supports(evaluator) else { throw CairoUnavailable(reason: "the scene has content other than solid fixed shapes") }
        guard let surface = cairo.imageSurfaceCreate(CairoLibrary.formatARGB32, Int32(scene.width), Int32(scene.height)),
              cairo.surfaceStatus(surface) == 0 else {
            throw CairoUnavailable(reason: "cairo could not make a \(scene.width)x\(scene.height) image")
        }
        guard let context = cairo.create(surface), cairo.status(context) == 0 else {
            cairo.surfaceDestroy(surface)
            throw CairoUnavailable(reason: "cairo could not make a drawing context")
        }
        self.cairo = cairo
        self.scene = scene
        self.surface = surface
        self.context = context
        self.evaluator = evaluator
        list = evaluator?.makeList() ?? PresentationList()
    }

    deinit {
        cairo.destroy(context)
        cairo.surfaceDestroy(surface)
    }

    package var version: String { cairo.version }

    /// The frame at `time`, drawn the way the CPU strategy draws it.
    package func draw(time: Double) {
        let background = scene.background
        cairo.setOperator(context, CairoLibrary.operatorSource)
        setColor(background)
        cairo.paint(context)
        cairo.setOperator(context, CairoLibrary.operatorOver)
        if let evaluator {
            evaluator.evaluate(at: time, into: &list)
            let frame = Rect(x: 0, y: 0, width: Double(scene.width), height: Double(scene.height))
            for index in list.items.indices {
                let item = list.items[index]
                guard case let .shape(shape)? = evaluator.layer(of: item).contents, case let .fixed(path) = shape.path,
                      case let .solid(color) = shape.fill else { continue }
                let clip = item.clip.intersection(frame)
                if clip.isEmpty { continue }
                let clips = clip != frame
                if clips {
                    cairo.save(context)
                    cairo.rectangle(context, clip.x, clip.y, clip.width, clip.height)
                    cairo.clip(context)
                }
                // The same outline the CPU strategy emits (runs outside the clip's columns folded).
                PrimitiveOutlines.addPath(path, item.transform, columns: Int(clip.x.rounded(.down))..<Int(clip.maxX.rounded(.up)),
                                          into: self)
                let c = item.tint.applied(to: ColorValue(color))
                cairo.setSourceRGBA(context, c.r / 255, c.g / 255, c.b / 255, c.a / 255 * item.opacity)
                cairo.fill(context)
                if clips { cairo.restore(context) }
            }
        }
        cairo.surfaceFlush(surface)
    }

    private func setColor(_ c: RGBA8) {
        cairo.setSourceRGBA(context, Double(c.r) / 255, Double(c.g) / 255, Double(c.b) / 255, Double(c.a) / 255)
    }

    package func move(to x: Double, _ y: Double) { cairo.moveTo(context, x, y) }
    package func line(to x: Double, _ y: Double) { cairo.lineTo(context, x, y) }
    package func close() { cairo.closePath(context) }

    /// The last frame as RGBA (cairo stores premultiplied native-endian
    /// ARGB words; un-premultiplied here).
    package func image() -> RGBAImage {
        let w = scene.width, h = scene.height
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        guard let data = cairo.imageData(surface) else { return RGBAImage(width: w, height: h, pixels: pixels) }
        let stride = Int(cairo.imageStride(surface))
        for y in 0..<h {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w {
                let argb = row[x]
                let a = argb >> 24, i = (y * w + x) * 4
                @inline(__always) func channel(_ shift: UInt32) -> UInt8 {
                    let v = (argb >> shift) & 0xFF
                    return a == 0 ? 0 : UInt8(min(255, (v * 255 + a / 2) / a))
                }
                pixels[i] = channel(16); pixels[i + 1] = channel(8); pixels[i + 2] = channel(0); pixels[i + 3] = UInt8(a)
            }
        }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }
}
