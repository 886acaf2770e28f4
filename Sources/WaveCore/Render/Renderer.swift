/// The renderer protocol both strategies implement, and the small
/// protocols through which callers that import no GL (the benchmark, the
/// image writers) reach what a GPU backend adds.
///
/// The contract a backend follows:
/// - `prepare(scene:)` does everything that depends only on the scene (for
///   GL, the one-time rasterisation and upload);
/// - `draw(time:into:)` makes the frame for time t in a target the caller
///   owns, and allocates nothing;
/// - the target reads the frame back as an `RGBAImage`, rows top to bottom.
public protocol Renderer: AnyObject {
    var backend: Backend { get }
    /// What draws: the CPU rasteriser, or the GL_RENDERER string.
    var rendererName: String { get }
    func prepare(scene: Scene) throws
    /// An offscreen target the size of the prepared scene, of a kind this
    /// renderer draws into (a `Pixmap` for the CPU, a framebuffer for GL).
    func makeTarget() throws -> RenderTarget
    /// One frame at scene time `time`. Throws `RendererError.wrongTarget`
    /// for a target of another backend's kind or size.
    func draw(time: Double, into target: RenderTarget) throws
    /// Returns when the frame is complete (GL waits for the GPU; the CPU has nothing to wait for).
    func finish()
    /// How content cached once and moved by a fraction of a pixel is drawn
    /// (a render-once backend's choice, set before `prepare`; a backend that
    /// redraws every frame draws exact coverage whatever it is set to).
    var subpixel: SubpixelMode { get set }
    /// Where `subpixel` is exact but the prepared scene had content the
    /// backend filtered instead, the line that says so; nil otherwise.
    var subpixelNotice: String? { get }
    /// Every item of the frame at `time`, with the mechanism that draws it
    /// and why (prepared first; allocates: not for every frame).
    func explain(time: Double) throws -> [ItemPlan]
    /// The policy its plan follows, in words (GL: a software driver's or a GPU's); nil: none.
    var planPolicy: String? { get }
}

/// How one presentation item is drawn, and why: what `waves render --explain` lists.
public struct ItemPlan: Equatable, Sendable {
    /// The item's place in the frame's list (masks' items after the others).
    public let item: Int
    /// Its layer's name.
    public let layer: String
    /// What it draws (a fixed shape, a dynamic shape, a box, a picture, copies, a rasterized layer, a shadow).
    public let primitive: String
    /// The mechanism that draws it.
    public let mechanism: String
    /// Why that one.
    public let reason: String
    /// Its pixels come from a picture made once, only moved, turned, scaled or faded each frame.
    public let cached: Bool
    /// Its coverage is computed again every frame from an outline made again (a path that changes).
    public let redrawnEveryFrame: Bool

    public init(item: Int, layer: String, primitive: String, mechanism: String, reason: String, cached: Bool = false,
                redrawnEveryFrame: Bool = false) {
        self.item = item; self.layer = layer; self.primitive = primitive; self.mechanism = mechanism; self.reason = reason
        self.cached = cached; self.redrawnEveryFrame = redrawnEveryFrame
    }
}

extension ItemPlan {
    /// The plan as columns under a header (item, layer, primitive, mechanism, why), a line an item.
    public static func table(_ plan: [ItemPlan]) -> String {
        let widths = [4, max(5, plan.map(\.layer.count).max() ?? 0), max(9, plan.map(\.primitive.count).max() ?? 0),
                      max(9, plan.map(\.mechanism.count).max() ?? 0)]
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        func line(_ cells: [String], _ why: String) -> String {
            zip(cells, widths).map { pad($0, $1) }.joined(separator: "  ") + "  " + why + "\n"
        }
        return line(["item", "layer", "primitive", "mechanism"], "why")
            + plan.map { line(["\($0.item)", $0.layer, $0.primitive, $0.mechanism], $0.reason) }.joined()
    }
}

extension Renderer {
    /// A backend that redraws every frame has no subpixel choice to make.
    public var subpixel: SubpixelMode {
        get { .exact }
        set {}
    }

    public var subpixelNotice: String? { nil }

    /// A renderer that keeps no plan explains nothing.
    public func explain(time: Double) throws -> [ItemPlan] { [] }

    public var planPolicy: String? { nil }
}

/// Where a renderer draws; made and owned by the caller.
public protocol RenderTarget: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// The last frame, rows top to bottom (allocates: not for every frame).
    func readback() throws -> RGBAImage
}

/// The two strategies, as a value.
public enum Backend: String, CaseIterable, Sendable {
    /// Redraw per tick: rebuild and rasterise every layer's path every frame.
    case cpu
    /// Render once, animate on the GPU: cached coverage, moved and painted by a shader.
    case gl
}

/// How one shape painted two ways, either side of a column, is composed in
/// the layer tree; both strategies draw the composition chosen.
public enum SplitMethod: String, CaseIterable, Sendable {
    /// Each painting under a mask layer (a box either side of the column):
    /// the GL strategy draws each mask into a texture first.
    case mask
    /// Two clip layers (masksToBounds) either side of the column, each
    /// holding the content with one paint: the published "bars drawn twice
    /// in two clipped regions" (scissors on the GL strategy).
    case twoClips = "two-clips"
}

/// How a render-once backend moves cached content by a fraction of a pixel.
public enum SubpixelMode: String, CaseIterable, Sendable {
    /// The cached picture sampled between texels (bilinear): smooth motion,
    /// but a steep edge blurs at half-pixel offsets ("amplitude phasing").
    case linear
    /// Pictures pre-rendered at sub-pixel phases (1/16 pixel apart), the
    /// nearest one copied into place by whole pixels: the CPU strategy's
    /// pixels within its tolerances, with no filtering at all.
    case exact
}

/// What a user may ask for: a backend, or `auto` (GL, else CPU with a reason).
public enum BackendChoice: String, CaseIterable, Sendable {
    case auto, cpu, gl
}

public enum RendererError: Error, CustomStringConvertible {
    /// The backend cannot run here; `reason` says why (for GL, the driver's words).
    case unavailable(Backend, reason: String)
    case notPrepared(Backend)
    case wrongTarget(Backend, String)

    public var description: String {
        switch self {
        case let .unavailable(backend, reason):
            "the \(backend.rawValue) backend is unavailable: \(reason)"
        case let .notPrepared(backend):
            "the \(backend.rawValue) renderer was asked to draw before prepare(scene:)"
        case let .wrongTarget(backend, why):
            "the \(backend.rawValue) renderer cannot draw into this target: \(why)"
        }
    }
}

/// Moves a CPU frame to the GPU, as a phone hands its backing store to the
/// compositor: part of the CPU strategy's cost wherever its frames end on a
/// screen. Either the frame is drawn into memory the GPU reads in place
/// (`sharedPixmap()`: nothing is copied), or into the caller's own pixmap,
/// which `upload` copies.
package protocol FrameUploader: AnyObject {
    func prepare(width: Int, height: Int) throws
    /// Where the GPU reads the uploader's own memory: the pixmap to draw the
    /// next frame into, once the GPU has finished reading the last one
    /// (waits for it). nil: draw into a pixmap of your own and `upload` it.
    /// Allocates nothing.
    func sharedPixmap() -> Pixmap?
    /// Hands the frame over: copies `pixmap` unless it is the shared one. Allocates nothing.
    func upload(_ pixmap: Pixmap)
    /// Bytes one upload copies (0 where the frame is shared).
    var bytesPerUpload: Int { get }
}

/// GPU time of bracketed work, read frames later so asking never stalls.
package protocol GPUTiming: AnyObject {
    func begin()
    func end()
    /// Reports each finished result (milliseconds) without waiting.
    func collect(_ each: (Double) -> Void)
    /// Waits for every outstanding result (the end of a run).
    func drain(_ each: (Double) -> Void)
}

/// A frame that can be shown in a region of the current window: its top
/// rows, upright, at the region's top left.
package protocol Presentable: AnyObject {
    func present(to viewport: Viewport)
}

/// A rectangle of a framebuffer in pixels, x and y from the bottom left (OpenGL's convention).
public struct Viewport: Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}
