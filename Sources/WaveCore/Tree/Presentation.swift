/// Evaluation: the layer tree at time t as a flat presentation list, what
/// Core Animation's render server draws from its presentation tree. One
/// pure function of the tree, the time and the value sources, shared by
/// both backends; it also answers when the picture next changes, so a
/// frame loop can sleep through frames that would repeat the last.

/// The primitive an item draws.
package enum Primitive: Equatable, Sendable {
    /// A fixed path: the same coverage every frame, under a transform.
    case fixedShape
    /// A path rebuilt every frame from the item's `input`.
    case dynamicShape
    /// A rounded rectangle's fill (and its border, when `drawsBorder`).
    case box
    /// A rounded rectangle's border alone, drawn over the layer's sublayers.
    case boxBorder
    case picture
    /// A replicator's copies, drawn by the backend from the replicator's
    /// layer (only from an evaluator made with `drawsCopies` for it): the
    /// item's transform, opacity, tint, clip and mask are the replicator's,
    /// `time` its local time, `bounds` its bounds.
    case copies
    /// A layer with its sublayers and mask as one picture painted once
    /// (`Layer.shouldRasterize`, only from an evaluator made with
    /// `rasterizes`): `content` is its picture number
    /// (`LayerTreeEvaluator.rasterPictures`), `transform` and `opacity`
    /// the layer's, `clip` and `mask` its parent's.
    case rasterized
    /// A layer's shadow (`Layer.shadow`), drawn before its contents: the
    /// contents' coverage blurred, offset and tinted; `color` is the
    /// shadow's colour, `opacity` the layer's times the shadow's.
    case shadow
}

extension Primitive {
    /// In words, for explanations.
    package var name: String {
        switch self {
        case .fixedShape: "fixed shape"
        case .dynamicShape: "dynamic shape"
        case .box: "box"
        case .boxBorder: "box border"
        case .picture: "picture"
        case .copies: "replicator's copies"
        case .rasterized: "rasterized layer"
        case .shadow: "shadow"
        }
    }
}

/// One thing to draw, with everything evaluated.
package struct PresentationItem: Equatable, Sendable {
    /// The compiled layer that drew it: an index into the evaluator's
    /// `nodes`, or for an item of `maskItems` into its `maskNodes`.
    package var layer: Int
    /// Equal fixed paths and pictures share an id (one cached picture).
    package var content: Int
    package var primitive: Primitive
    /// Layer coordinates to scene pixels.
    package var transform: Affine
    /// The product of the opacities from the root down.
    package var opacity: Double
    /// Replicator tints from the root down.
    package var tint: Tint
    /// Scene pixels outside this rectangle are not drawn (masksToBounds,
    /// as the box around the bounds where a transform rotates them).
    package var clip: Rect
    /// Index into `PresentationList.masks`, or -1.
    package var mask: Int
    /// The box's fill colour at this time (channels 0...255, before tint and opacity).
    package var color: ColorValue
    /// The layer's bounds in its own coordinates at this time (a box fills them).
    package var bounds: Rect
    /// A dynamic path's input (parameters, position, size).
    package var input: ShapeInput
    /// Whether a box item also draws its border.
    package var drawsBorder: Bool
    /// The layer's local time (its timeline's input).
    package var time: Double
    /// How it meets what is under it (its layer's blend mode, or its nearest ancestor's).
    package var blend: BlendMode = .normal
    /// A gradient fill's points at this time, where they are animated (`Shape.gradientPoints`).
    package var gradientPoints: GradientPoints?
}

/// The items of one mask: indices into `PresentationList.maskItems`.
package struct MaskRange: Equatable, Sendable {
    package var items: Range<Int>
    /// The mask's layer shows where the mask does not cover (`Layer.invertsMask`).
    package var inverted = false
    /// Its coverage is its layers' luminance (`Layer.masksByLuminance`).
    package var luminance = false
    /// The mask of a masked layer around this one's (-1: none): the items are under both.
    package var parent = -1
}

/// A frame's presentation, its storage kept from frame to frame (no allocation once sized).
package struct PresentationList: Equatable, Sendable {
    package var items: [PresentationItem] = []
    package var masks: [MaskRange] = []
    /// The items of every mask layer, drawn as coverage only.
    package var maskItems: [PresentationItem] = []

    package init() {}

    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        masks.removeAll(keepingCapacity: true)
        maskItems.removeAll(keepingCapacity: true)
    }

    mutating func reserve(items: Int, masks: Int, maskItems: Int) {
        self.items.reserveCapacity(items)
        self.masks.reserveCapacity(masks)
        self.maskItems.reserveCapacity(maskItems)
    }
}

/// A clip that clips nothing.
extension Rect {
    /// A clip that clips nothing (finite, so its edges stay numbers).
    package static let unclipped = Rect(x: -1e15, y: -1e15, width: 2e15, height: 2e15)
}
