import Foundation

/// The layer tree: Core Animation's model as plain values. A layer has a
/// size, a position in its parent, an anchor point, a transform (translation,
/// rotation and scale about the anchor, each animatable), opacity, hidden,
/// `masksToBounds`, an optional mask layer, contents (one primitive) and
/// sublayers drawn in order, source-over (or by a blend mode). A replicator draws its sublayers
/// `count` times. Every animatable property is a `Timeline`.
///
/// Coordinates: a layer's own space has its bounds at (originX, originY)
/// with its size; a point p of it lands in the parent's space at
///
///     position + transform * (p - (boundsOrigin + anchor * size))
///
/// so the transform turns the layer about its anchor (its centre by
/// default), and sliding the bounds origin scrolls the sublayers (a clip
/// view scrolling what it holds).
public struct Layer: Equatable, Sendable {
    /// For messages and tests; not drawn.
    public var name: String
    public var size: Size
    public var boundsOrigin: AnimatablePoint
    public var position: AnimatablePoint
    /// Unit coordinates of the size (0.5, 0.5: the centre).
    public var anchorPoint: Point
    public var transform: AnimatableTransform
    public var opacity: Timeline<Double>
    public var isHidden: Bool
    /// Clip the contents and sublayers to the bounds.
    public var masksToBounds: Bool
    public var contents: Contents?
    public var sublayers: [Layer]
    /// Draws the sublayers this many times, each copy transformed, delayed and tinted once more.
    public var replicator: Replicator? {
        get { replicatorBox?.value }
        set { replicatorBox = newValue.map(HeldApart.init) }
    }
    /// The replicator, kept apart: most layers have none, and a layer is
    /// copied whole into every compiled node (an imported animation's thousands).
    private var replicatorBox: HeldApart<Replicator>?
    /// The layer's own time (CALayer adopts CAMediaTiming): begin time,
    /// speed, offset, repeat; a paused layer has speed 0.
    public var timing: MediaTiming
    /// Time remapping (After Effects'; Core Animation has
    /// none): the layer's local time, as `timing` gives it, replaced by
    /// this timeline's value at that time (seconds to seconds), for the
    /// layer and everything under it. Nil: its time as `timing` gives it.
    public var timeRemap: Timeline<Double>?
    /// CALayer.shouldRasterize: the GL strategy paints the layer with its
    /// sublayers and mask once into a picture and moves that picture (its
    /// own placement, opacity and timing may animate; nothing under it may),
    /// composited as one (its opacity and tint apply to the picture, as Core
    /// Animation composites a rasterized layer). The CPU strategy redraws
    /// everything every frame, item by item, whatever this says: where the
    /// layer's parts overlap under an opacity or tint below 1 the two differ.
    public var shouldRasterize: Bool
    /// CALayer's shadow: the layer's own contents' coverage (not its
    /// sublayers'), blurred, tinted and offset, drawn under it (nil: none).
    public var shadow: Shadow? {
        get { shadowBox?.value }
        set { shadowBox = newValue.map(HeldApart.init) }
    }
    /// Kept apart: few layers cast one (41 bytes inline in every compiled copy of a layer).
    private var shadowBox: HeldApart<Shadow>?
    /// The GL strategy rasterises this layer's fixed shape once at twice the
    /// scale it is first shown at (as Core Animation renders a shape layer at
    /// its contents scale) instead of one texel a unit, and samples that
    /// picture filtered: a shape shown scaled (an imported animation
    /// fitted to its frame) stays sharp. Off: one texel a unit, exact at whole-pixel moves.
    /// The CPU strategy draws exactly at any scale either way.
    public var rasterizesAtShownScale: Bool
    /// The mask's coverage taken inverted: the layer shows where its mask
    /// does not cover (an inverted matte; Core Animation has no such
    /// flag): the mask starts covering everything and each of its layers
    /// folds by its mode's dual (`MaskMode.dual`). Without a mask it changes nothing.
    public var invertsMask: Bool
    /// The mask's coverage is the luminance of its layers drawn in colour
    /// over nothing (their luminance times their alpha, with
    /// `MaskLuminance.weights`: a luma matte), not their alpha. Its layers
    /// then draw over each other (their mask modes are not read).
    public var masksByLuminance: Bool
    /// How its drawing and its sublayers' meet what is under them
    /// (CALayer.compositingFilter): each of their shapes, boxes and
    /// pictures blends with what is drawn before it, by the nearest
    /// blend mode above it (normal: the parent's).
    public var blendMode: BlendMode
    /// Drawn as part of a mask, how its coverage meets what the mask's
    /// layers before it cover (an animation's masks, folded in order: added,
    /// subtracted, intersected...). Elsewhere it changes nothing.
    public var maskMode: MaskMode
    /// Drawn as part of a mask, its coverage taken as 1 less itself
    /// (after its opacity), so it covers wholly where it draws nothing (an
    /// animation's inverted mask). Elsewhere it changes nothing.
    public var invertsMaskCoverage: Bool
    private var maskStorage: [Layer]

    /// A layer whose frame in its parent is `frame` (its anchor at the centre).
    public init(name: String = "", frame: Rect, contents: Contents? = nil, sublayers: [Layer] = []) {
        self.name = name
        size = Size(frame.width, frame.height)
        boundsOrigin = AnimatablePoint(0, 0)
        position = AnimatablePoint(frame.midX, frame.midY)
        anchorPoint = Point(0.5, 0.5)
        transform = AnimatableTransform()
        opacity = .constant(1)
        isHidden = false
        masksToBounds = false
        self.contents = contents
        self.sublayers = sublayers
        replicatorBox = nil
        timing = .passThrough
        timeRemap = nil
        shouldRasterize = false
        shadowBox = nil
        rasterizesAtShownScale = false
        invertsMask = false
        masksByLuminance = false
        blendMode = .normal
        maskMode = .add
        invertsMaskCoverage = false
        maskStorage = []
    }

    /// The layer whose coverage multiplies this one's (CALayer.mask), in this layer's coordinates; a
    /// masked layer under another masked one is drawn through both. A mask layer has no mask of its own.
    public var mask: Layer? {
        get { maskStorage.first }
        set { maskStorage = newValue.map { [$0] } ?? [] }
    }

    /// Where its sublayers and its mask lie in its arrays' storage, for a
    /// reader that keeps those addresses while it holds this layer unchanged
    /// (a compiled tree, `LayerTreeEvaluator.HeldTree`): an array's storage
    /// stays where it is while it is held and not written, and writing to a
    /// copy of the layer copies the storage first.
    package func storagePlaces() -> (sublayers: UnsafeBufferPointer<Layer>, mask: UnsafePointer<Layer>?) {
        let sublayers = self.sublayers.withUnsafeBufferPointer { $0 }
        let mask = maskStorage.withUnsafeBufferPointer { $0.isEmpty ? nil : $0.baseAddress }
        return (sublayers, mask)
    }

    /// Its own animatable placement (position, bounds origin, the transform's
    /// parts), one list for every reader that asks whether the layer moves.
    public var geometryTimelines: [Timeline<Double>] {
        [position.x, position.y, boundsOrigin.x, boundsOrigin.y] + transform.timelines
    }

    /// Runs on its parent's time unchanged: no timing of its own and no remapping.
    public var isOnParentTime: Bool { timing.isPassThrough && timeRemap == nil }

    /// The frame in the parent at the model values (no animation): position
    /// minus the anchor's offset, before the transform.
    public var frame: Rect {
        Rect(x: position.x.value - anchorPoint.x * size.width, y: position.y.value - anchorPoint.y * size.height,
             width: size.width, height: size.height)
    }
}

/// How a layer drawn as part of a mask meets the coverage of the mask's
/// layers before it: with m that coverage and s the layer's (0...1, its
/// opacity applied), the mask becomes `combine(m, s)`.
public enum MaskMode: String, Equatable, Hashable, Sendable, CaseIterable {
    /// m + s (1 - m): source over (Core Animation's mask).
    case add
    /// m (1 - s).
    case subtract
    /// m s: only where both cover.
    case intersect
    /// max(m, s).
    case lighten
    /// min(m, s).
    case darken
    /// m + s - 2 m s: where one covers and not the other (exclusive or).
    case difference

    @inline(__always)
    public func combine(_ m: Double, _ s: Double) -> Double {
        switch self {
        case .add: return m + s * (1 - m)
        case .subtract: return m * (1 - s)
        case .intersect: return m * s
        case .lighten: return Swift.max(m, s)
        case .darken: return Swift.min(m, s)
        case .difference: return m + s - 2 * m * s
        }
    }

    /// Whether a pixel the layer does not cover changes (its s is 0 there): intersect and darken clear it.
    public var clearsUncovered: Bool { self == .intersect || self == .darken }

    /// The mode and inversion that fold 1 - m as this one (with
    /// `inverted`) folds m: an inverted mask is its layers' fold started
    /// from full coverage, each layer by its dual (add and subtract trade
    /// places; intersect becomes an inverted add, lighten and darken trade
    /// places inverted; difference stays).
    public func dual(inverted: Bool) -> (mode: MaskMode, inverted: Bool) {
        switch self {
        case .add: return (.subtract, inverted)
        case .subtract: return (.add, inverted)
        case .intersect: return (.add, !inverted)
        case .lighten: return (.darken, !inverted)
        case .darken: return (.lighten, !inverted)
        case .difference: return (.difference, inverted)
        }
    }

    /// Whether drawing it changes pixels past the layer's own area (their s is 0, or 1 inverted).
    public func reachesUncovered(inverted: Bool) -> Bool { inverted || clearsUncovered }

    /// Whether it may, in a mask inverted or not (as itself or its dual):
    /// a renderer keeps the means to fold such a layer ready.
    public func mayReachUncovered(inverted: Bool) -> Bool {
        let asDual = dual(inverted: inverted)
        return reachesUncovered(inverted: inverted) || asDual.mode.reachesUncovered(inverted: asDual.inverted)
    }
}

/// A luminance mask's weights for red, green and blue (Rec. 709's, as SVG's
/// luminanceToAlpha and ThorVG weigh them; they add up to 1, so a grey of
/// alpha a reads as a). The GL shaders that read a mask hold the same
/// (`MASK_LUMINANCE`, checked by a test).
public enum MaskLuminance {
    public static let weights = (r: 0.2126, g: 0.7152, b: 0.0722)
}

public struct Size: Equatable, Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }
}

/// Two animatable coordinates (Core Animation's position.x and position.y key paths).
public struct AnimatablePoint: Equatable, Sendable {
    public var x: Timeline<Double>
    public var y: Timeline<Double>

    public init(_ x: Double, _ y: Double) {
        self.x = .constant(x)
        self.y = .constant(y)
    }

    public init(x: Timeline<Double>, y: Timeline<Double>) {
        self.x = x
        self.y = y
    }
}

/// A transform by its animatable parts (transform.translation.x, .y,
/// transform.rotation, transform.scale.x, .y, and a skew Core Animation
/// has no key path for: After Effects'), composed as
/// translation after rotation after skew after scale.
public struct AnimatableTransform: Equatable, Sendable {
    public var translationX: Timeline<Double>
    public var translationY: Timeline<Double>
    /// Radians, clockwise on screen.
    public var rotation: Timeline<Double>
    public var scaleX: Timeline<Double>
    public var scaleY: Timeline<Double>
    /// A shear along the direction `skewAxis` (radians, clockwise from x):
    /// a point at distance d across that direction slides d * tan(skew) along it.
    public var skew: Timeline<Double>
    public var skewAxis: Timeline<Double>

    public init(translationX: Double = 0, translationY: Double = 0, rotation: Double = 0, scaleX: Double = 1,
                scaleY: Double = 1, skew: Double = 0, skewAxis: Double = 0) {
        self.translationX = .constant(translationX)
        self.translationY = .constant(translationY)
        self.rotation = .constant(rotation)
        self.scaleX = .constant(scaleX)
        self.scaleY = .constant(scaleY)
        self.skew = .constant(skew)
        self.skewAxis = .constant(skewAxis)
    }

    /// Every part at its model value with no animation.
    public var isIdentityAndStill: Bool { self == AnimatableTransform() }

    /// The matrix at time t.
    @inline(__always)
    public func matrix(at t: Double, sources: DrivenSources?) -> Affine {
        let k = skew.value(at: t, sources: sources)
        return Self.matrix(translationX: translationX.value(at: t, sources: sources), translationY: translationY.value(at: t, sources: sources),
                           rotation: rotation.value(at: t, sources: sources), scaleX: scaleX.value(at: t, sources: sources),
                           scaleY: scaleY.value(at: t, sources: sources), skew: k, skewAxis: k != 0 ? skewAxis.value(at: t, sources: sources) : 0)
    }

    /// The matrix of these parts' values (`skewAxis` counts only where `skew` is not 0).
    @inline(__always)
    static func matrix(translationX tx: Double, translationY ty: Double, rotation r: Double, scaleX sx: Double, scaleY sy: Double,
                       skew k: Double, skewAxis: Double) -> Affine {
        if k != 0 {
            var m = Self.shear(k, along: skewAxis).concatenating(after: .scale(sx, sy))
            if r != 0 { m = Affine.rotation(r).concatenating(after: m) }
            m.tx = tx
            m.ty = ty
            return m
        }
        if r == 0 { return Affine(a: sx, b: 0, c: 0, d: sy, tx: tx, ty: ty) }
        let rotated = Affine.rotation(r)
        return Affine(a: rotated.a * sx, b: rotated.b * sx, c: rotated.c * sy, d: rotated.d * sy, tx: tx, ty: ty)
    }

    /// The shear of `angle` along the direction `axis`: turned so the axis
    /// is x, x += tan(angle) * y, turned back.
    public static func shear(_ angle: Double, along axis: Double) -> Affine {
        let along = Affine(a: 1, b: 0, c: tan(angle), d: 1, tx: 0, ty: 0)
        return Affine.rotation(axis).concatenating(after: along.concatenating(after: .rotation(-axis)))
    }

    public var timelines: [Timeline<Double>] { [translationX, translationY, rotation, scaleX, scaleY, skew, skewAxis] }
}

/// Multipliers for red, green, blue and alpha, 0...1 (a replicator's
/// instanceColor and its per-copy offsets).
public struct Tint: Equatable, Hashable, Sendable {
    public var r: Double, g: Double, b: Double, a: Double

    public init(r: Double, g: Double, b: Double, a: Double) { self.r = r; self.g = g; self.b = b; self.a = a }

    public static let identity = Tint(r: 1, g: 1, b: 1, a: 1)
    public static let zero = Tint(r: 0, g: 0, b: 0, a: 0)

    @inline(__always)
    public func multiplied(by o: Tint) -> Tint { Tint(r: r * o.r, g: g * o.g, b: b * o.b, a: a * o.a) }

    /// `self + k * offset`, each channel held within 0...1.
    @inline(__always)
    public func offset(by o: Tint, times k: Double) -> Tint {
        @inline(__always) func c(_ v: Double) -> Double { Swift.min(1, Swift.max(0, v)) }
        return Tint(r: c(r + k * o.r), g: c(g + k * o.g), b: c(b + k * o.b), a: c(a + k * o.a))
    }

    /// A colour (0...255 channels) under this tint.
    @inline(__always)
    package func applied(to c: ColorValue) -> ColorValue { ColorValue(r: c.r * r, g: c.g * g, b: c.b * b, a: c.a * a) }
}

/// CAReplicatorLayer's settings: copy k of the sublayers is transformed by
/// `instanceTransform` applied k times about the replicator's centre, runs
/// its time `k * instanceDelay` seconds behind (so it also reads driven
/// values that far in the past), and is tinted by `instanceColor + k *
/// colorOffset`. The instance transform is evaluated at the replicator's own time.
public struct Replicator: Equatable, Sendable {
    public var count: Int
    public var instanceTransform: AnimatableTransform
    public var instanceDelay: Double
    public var instanceColor: Tint
    public var colorOffset: Tint

    public init(count: Int, instanceTransform: AnimatableTransform = AnimatableTransform(), instanceDelay: Double = 0,
                instanceColor: Tint = .identity, colorOffset: Tint = .zero) {
        self.count = count; self.instanceTransform = instanceTransform; self.instanceDelay = instanceDelay
        self.instanceColor = instanceColor; self.colorOffset = colorOffset
    }

    /// The most copies one replicator may make.
    public static let maxCount = 1 << 20
}

/// A value held apart behind a reference, compared by value: one most
/// layers lack (8 bytes where it would be inline), or one a frame reads in
/// place (a compiled node's shape, whose copy would retain every reference
/// in it).
package final class HeldApart<Value: Equatable & Sendable>: Equatable, Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
    package static func == (a: HeldApart, b: HeldApart) -> Bool { a === b || a.value == b.value }
}

/// What a layer draws itself, beneath its sublayers: one primitive.
public enum Contents: Equatable, Sendable {
    /// A path filled non-zero (CAShapeLayer).
    case shape(Shape)
    /// A rectangle with rounded corners, a fill and a border (CALayer's
    /// backgroundColor, cornerRadius, borderWidth, borderColor) over the bounds.
    case box(Box)
    /// Pixels made once, drawn at the bounds' top left, one texel a unit.
    case picture(Picture)
}

/// A filled path in the layer's coordinates. Fixed paths never change
/// (a GPU strategy rasterises them once); dynamic ones are rebuilt every
/// frame from the layer's evaluated values (the display link's drawRect).
public struct Shape: Equatable, Sendable {
    public var path: ShapePath
    /// In the layer's coordinates (a gradient moves with the layer).
    public var fill: Fill
    /// Up to four animatable numbers a dynamic path reads (CA's custom
    /// animatable properties); a fixed path ignores them.
    public var parameters: [Timeline<Double>]
    /// A solid fill's colour animated (CAShapeLayer's fillColor), channels
    /// 0...255; nil: the fill's own. Ignored by a gradient.
    public var color: Timeline<ColorValue>? {
        get { colorBox?.value }
        set { colorBox = newValue.map(HeldApart.init) }
    }
    /// Kept apart: most shapes' colour is their fill's (40 bytes inline in every compiled copy of a layer).
    private var colorBox: HeldApart<Timeline<ColorValue>>?
    /// CAShapeLayer's fillRule: non-zero, or even-odd (a region inside two sub-paths is a hole).
    public var fillRule = FillRule.nonZero
    /// A `.gradient` fill's points animated (its stops and ramp stay the
    /// fill's); nil: the fill's own points. Ignored by a solid fill and a
    /// `.linearGradient`.
    public var gradientPoints: Timeline<GradientPoints>? {
        get { gradientPointsBox?.value }
        set { gradientPointsBox = newValue.map(HeldApart.init) }
    }
    /// Kept apart: few shapes have them (56 bytes inline in every compiled copy of a layer).
    private var gradientPointsBox: HeldApart<Timeline<GradientPoints>>?

    public init(path: Path, fill: Fill, color: Timeline<ColorValue>? = nil) {
        self.path = .fixed(path)
        self.fill = fill
        parameters = []
        self.color = color
    }

    public init(dynamic: any DynamicPath, fill: Fill, parameters: [Timeline<Double>] = [], color: Timeline<ColorValue>? = nil) {
        path = .dynamic(dynamic)
        self.fill = fill
        self.parameters = parameters
        self.color = color
    }

    public static let maxParameters = 4
}

/// Which points a path's outline encloses.
public enum FillRule: Equatable, Hashable, Sendable { case nonZero, evenOdd }

public enum ShapePath: Equatable, Sendable {
    case fixed(Path)
    case dynamic(any DynamicPath)

    public static func == (a: ShapePath, b: ShapePath) -> Bool {
        switch (a, b) {
        case let (.fixed(x), .fixed(y)): x == y
        case let (.dynamic(x), .dynamic(y)): x.isEqual(to: y)
        default: false
        }
    }
}

/// What a dynamic path reads each frame: its layer's evaluated parameters,
/// position (the presentation layer's, as a display link's drawRect reads it) and size.
public struct ShapeInput: Equatable, Sendable {
    public var parameters: SIMD4<Double>
    public var position: Point
    public var size: Size

    public init(parameters: SIMD4<Double> = .zero, position: Point = Point(0, 0), size: Size = Size(0, 0)) {
        self.parameters = parameters; self.position = position; self.size = size
    }
}

/// A path rebuilt every frame from a `ShapeInput`, in the layer's
/// coordinates, straight into a sink (no path is stored, nothing allocated).
/// Effects define these; backends only consume the outline.
public protocol DynamicPath: Sendable {
    /// Emits the outline (sub-paths closed) for one frame's input.
    func outline<Sink: OutlineSink>(_ input: ShapeInput, into sink: Sink)
    /// The same, with `scratchCount` doubles of memory the evaluator keeps
    /// (a path that needs to remember points, allocating nothing).
    func outline<Sink: OutlineSink>(_ input: ShapeInput, scratch: UnsafeMutableBufferPointer<Double>, into sink: Sink)
    /// Doubles of scratch memory `outline(_:scratch:into:)` needs.
    var scratchCount: Int { get }
    /// The most points `outline` emits, for buffers sized once.
    var maxPoints: Int { get }
    /// A box (layer coordinates) holding the outline for every input this scene can give it.
    func reach(size: Size) -> Rect
    func isEqual(to other: any DynamicPath) -> Bool
    /// A number that is the same for two inputs only where `outline` emits the very same outline for
    /// both (nil, the default: not known). The CPU strategy keeps the coverage of an outline whose
    /// number, transform and area stand still (`KeptCoverage`).
    func outlineIdentity(_ input: ShapeInput) -> Int?
    /// Where the outline for `input` is a path the dynamic path holds, that path, which `outline` emits as
    /// `Path.emit(into:)` does (nil, the default: it is made as it is emitted). A backend emits it itself into
    /// its own sink, the calls made directly rather than through the protocol's generic outline.
    func storedOutline(_ input: ShapeInput) -> Path?
}

extension DynamicPath {
    public func outline<Sink: OutlineSink>(_ input: ShapeInput, scratch: UnsafeMutableBufferPointer<Double>, into sink: Sink) {
        outline(input, into: sink)
    }

    public var scratchCount: Int { 0 }

    public func outlineIdentity(_ input: ShapeInput) -> Int? { nil }

    public func storedOutline(_ input: ShapeInput) -> Path? { nil }
}

extension DynamicPath where Self: Equatable {
    public func isEqual(to other: any DynamicPath) -> Bool { (other as? Self) == self }
}

/// CALayer's own drawing: a rectangle over the bounds with rounded corners
/// (circular, radius held to half the smaller side), filled, with a border
/// drawn inside the edge.
public struct Box: Equatable, Sendable {
    /// Colour channels 0...255 (backgroundColor, animatable).
    public var fillColor: Timeline<ColorValue>
    public var cornerRadius: Double
    public var borderWidth: Double
    public var borderColor: ColorValue

    public init(fillColor: Timeline<ColorValue>, cornerRadius: Double = 0, borderWidth: Double = 0,
                borderColor: ColorValue = ColorValue(RGBA8(0, 0, 0, 0))) {
        self.fillColor = fillColor; self.cornerRadius = cornerRadius; self.borderWidth = borderWidth
        self.borderColor = borderColor
    }

    public init(color: RGBA8, cornerRadius: Double = 0, borderWidth: Double = 0, borderColor: RGBA8 = RGBA8(0, 0, 0, 0)) {
        self.init(fillColor: .constant(ColorValue(color)), cornerRadius: cornerRadius, borderWidth: borderWidth,
                  borderColor: ColorValue(borderColor))
    }
}

/// A layer's shadow (CALayer's shadowColor, shadowOpacity, shadowOffset
/// and shadowRadius): its contents' coverage blurred by a Gaussian of
/// standard deviation radius / 2, moved by the offset, in the colour at
/// the opacity, under the layer.
public struct Shadow: Equatable, Sendable {
    public var color: RGBA8
    public var opacity: Double
    public var offset: Point
    /// Pixels; the blur reaches about this far.
    public var radius: Double

    public init(color: RGBA8 = RGBA8(0, 0, 0, 255), opacity: Double, offset: Point, radius: Double) {
        self.color = color; self.opacity = opacity; self.offset = offset; self.radius = radius
    }

    /// The largest blur radius a shadow may have, in pixels.
    public static let maxRadius = 64.0
}

/// An image made once (pre-painted content, read as it is).
public struct Picture: Equatable, Sendable {
    public var image: RGBAImage
    public init(_ image: RGBAImage) { self.image = image }
}
