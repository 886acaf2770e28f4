import Foundation
import WaveCore

/// The raster preset's peers (cairo, Blend2D): vector libraries loaded at
/// run time that fill the very polygon our rasteriser fills, built by the
/// same outline code through `OutlineSink`, so the times compare like for
/// like. A `PeerFrame` draws a scene's frame the way the CPU strategy
/// does (clear, the layer tree evaluated, each item's outline filled with
/// its colour inside its clip, anti-aliased, non-zero); a `PeerCanvas` is
/// what each library does for that.

/// One library's drawing calls for a frame. The outline of an item arrives
/// through `OutlineSink` between `begin(clip:)` and `fill`.
package protocol PeerCanvas: AnyObject, OutlineSink {
    /// "cairo 1.16.0", "Blend2D 0.21.2".
    var version: String { get }
    func clear(_ color: RGBA8)
    /// Starts an item held to `clip` (nil: the whole frame).
    func begin(clip: Rect?)
    /// Fills the item's outline; `clipped` says whether `begin` set a clip.
    func fill(_ color: ColorValue, opacity: Double, clipped: Bool)
    /// Makes the frame whole in memory.
    func finish()
    /// The last frame as RGBA, not premultiplied.
    func image() -> RGBAImage
}

/// One scene drawn by a peer, frame by frame. Only what the raster preset
/// measures: trees of fixed shapes with solid fills (the sine cells).
package final class PeerFrame {
    package let canvas: any PeerCanvas
    let scene: Scene
    private let evaluator: LayerTreeEvaluator?
    private var list: PresentationList

    /// Whether every shape of the compiled tree is fixed, filled with a solid colour, unmasked (nothing else is drawn here).
    private static func supports(_ evaluator: LayerTreeEvaluator?) -> Bool {
        guard let evaluator else { return true }
        return evaluator.maskNodes.isEmpty && evaluator.nodes.allSatisfy { node in
            guard let contents = node.layer.contents else { return true }
            guard case let .shape(shape) = contents, case .fixed = shape.path, case .solid = shape.fill else { return false }
            return true
        }
    }

    /// `canvas` made for the scene's size; nil where the scene has more than the peers draw.
    package init?(scene: Scene, canvas: (Int, Int) throws -> any PeerCanvas) throws {
        let evaluator = try scene.tree?.makeEvaluator()
        guard Self.supports(evaluator) else { return nil }
        self.canvas = try canvas(scene.width, scene.height)
        self.scene = scene
        self.evaluator = evaluator
        list = evaluator?.makeList() ?? PresentationList()
    }

    package var version: String { canvas.version }

    /// The frame at `time`, drawn the way the CPU strategy draws it.
    package func draw(time: Double) {
        canvas.clear(scene.background)
        if let evaluator {
            evaluator.evaluate(at: time, into: &list)
            let frame = Rect(x: 0, y: 0, width: Double(scene.width), height: Double(scene.height))
            for index in list.items.indices {
                let item = list.items[index]
                guard case let .shape(shape)? = evaluator.node(of: item).layer.contents, case let .fixed(path) = shape.path,
                      case let .solid(color) = shape.fill else { continue }
                let clip = item.clip.intersection(frame)
                if clip.isEmpty { continue }
                let clips = clip != frame
                canvas.begin(clip: clips ? clip : nil)
                // The same outline the CPU strategy emits (runs outside the clip's columns folded).
                PrimitiveOutlines.addPath(path, item.transform, columns: Int(clip.x.rounded(.down))..<Int(clip.maxX.rounded(.up)),
                                          into: canvas)
                canvas.fill(item.tint.applied(to: ColorValue(color)), opacity: item.opacity, clipped: clips)
            }
        }
        canvas.finish()
    }

    package func image() -> RGBAImage { canvas.image() }
}

/// A C function of a library loaded at run time, as `type`; `missing` is the error where it has none.
func loadSymbol<T>(_ handle: UnsafeMutableRawPointer, _ name: String, as type: T.Type, missing: (String) -> Error) throws -> T {
    guard let pointer = dlsym(handle, name) else { throw missing(name) }
    return unsafeBitCast(pointer, to: type)
}

/// Premultiplied native-endian ARGB words (cairo's ARGB32, Blend2D's PRGB32) as RGBA, not premultiplied.
func unpremultiplied(_ data: UnsafeRawPointer, stride: Int, width w: Int, height h: Int) -> RGBAImage {
    var pixels = [UInt8](repeating: 0, count: w * h * 4)
    for y in 0..<h {
        let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
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
