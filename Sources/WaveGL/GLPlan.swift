import WaveCore

/// How the GL strategy draws the layer tree's items, in one file: the two
/// driver policies, every mechanism with its reason, and the one decision
/// (`DriverPolicy.mechanism(for:)`) that picks an item's mechanism from
/// what is known of it. `GLTreeDraw` asks it for each item of a frame and
/// prepares what the chosen mechanism draws; `waves render --explain` lists
/// each item's mechanism, as chosen, with the reason written here.
///
/// | item | software driver (llvmpipe) | GPU |
/// | --- | --- | --- |
/// | a fixed shape alone in its clip, moved by whole pixels (cells, bars) | clip copy | clip lookup (a state pass, then one quad a page) |
/// | a fixed shape with a solid fill, its picture one tile | coverage instance (an instance of a run; N phases, or filtered) | the same |
/// | any other fixed shape | coverage picture (N phases, or filtered) | the same |
/// | a dynamic shape (a path rebuilt every frame) | polygon rows (a solid colour's: an instance of a run) | the same |
/// | an axis-aligned box with room between its corners | split box | box polygon |
/// | any other box, a border | box polygon, border polygon | the same |
/// | a mask's box on whole pixels | scissored clear | the same |
/// | a picture | RGBA picture | the same |
/// | a replicator of boxes | copies' state pass (one draw a page) | the same |
/// | a rasterized layer | atlas instance | the same |

/// What differs between a software driver and a GPU.
public struct DriverPolicy: Equatable, Sendable {
    /// Shapes alone in their clips put in place as whole-pixel copies of
    /// their painted picture, one a clip (`GLClipCopies`): on a software
    /// driver a copy is a memcpy and a shader pass is CPU work on every
    /// pixel. Otherwise every such clip is one instance of one draw: on a
    /// GPU the draw call is the CPU's cost, whatever the pixels.
    public let copiesClips: Bool
    /// Axis-aligned boxes drawn as the rectangle's exact coverage, the
    /// polygon's loop only on their corners' pixels (`BoxSplit`): llvmpipe
    /// pays for the loop's code in every block; a GPU keeps one draw a box.
    public let splitsBoxes: Bool
    /// A run of instances goes on across its two kinds (fixed paths' pictures,
    /// polygons: `GLInstanceRuns`), one draw for both: a GPU pays a draw call
    /// on the CPU and branches on a primitive's kind for free, where a
    /// software driver runs both sides of the branch in every pixel (on
    /// llvmpipe a mixed run saved its thread 4 to 27% and cost its workers
    /// 1.2x to 1.8x), so there each kind is a run of its own.
    public let mixesRunKinds: Bool
    public let name: String

    public static let software = DriverPolicy(copiesClips: true, splitsBoxes: true, mixesRunKinds: false, name: "software-driver policy")
    public static let gpu = DriverPolicy(copiesClips: false, splitsBoxes: false, mixesRunKinds: true, name: "GPU policy")

    /// The policy `WAVES_GL_POLICY` names (`software` or `gpu`), nil where it
    /// is unset; another value is a usage error (the CLI checks it at start).
    public static func asked(in environment: [String: String]) throws -> DriverPolicy? {
        switch environment["WAVES_GL_POLICY"] {
        case nil, "": return nil
        case "software": return .software
        case "gpu": return .gpu
        case let other?: throw DriverPolicyError(value: other)
        }
    }
}

/// What the planner knows of an item: its primitive, and what the
/// mechanisms that could draw it found of it (each mechanism's own test of
/// whether it can: a clip's copies, a box's split, a mask's clear).
package struct ItemFacts {
    package var primitive: Primitive
    /// A fixed shape alone in its clip, moved by whole pixels (`GLClipCopies` can put it in place).
    package var copyableInClip = false
    /// It reaches the frame (or its clip).
    package var inFrame = true
    /// A mask's box on whole pixels with square corners (its coverage is its alpha: a clear).
    package var clearsAsMask = false
    /// An axis-aligned box with room between its corners (`BoxSplit`).
    package var splittable = false
    /// A fixed shape's picture phases (1: filtered).
    package var phases = 1
    /// A fixed shape whose picture is in the coverage atlas, with a solid fill and the normal blend, in the tree (not a mask).
    package var instanceable = false

    package init(_ primitive: Primitive) { self.primitive = primitive }
}

extension DriverPolicy {
    /// The mechanism that draws an item under this policy: the one place
    /// the GL strategy decides (the table above).
    package func mechanism(for item: ItemFacts) -> GLMechanism {
        if item.copyableInClip { return copiesClips ? .clipCopy : .clipLookup }
        switch item.primitive {
        case .rasterized: return .atlasInstance
        case .copies: return .copiesStatePass
        default: break
        }
        guard item.inFrame else { return .notDrawn }
        if item.clearsAsMask { return .scissoredClear }
        switch item.primitive {
        case .dynamicShape: return .polygonRows
        case .fixedShape: return item.instanceable ? .coverageInstance : item.phases > 1 ? .phasedPicture : .filteredPicture
        case .picture: return .rgbaPicture
        case .box: return splitsBoxes && item.splittable ? .splitBox : .boxPolygon
        case .boxBorder: return .borderPolygon
        default: return .notDrawn
        }
    }
}

/// `WAVES_GL_POLICY` set to something else than `software` or `gpu`.
public struct DriverPolicyError: Error, CustomStringConvertible {
    public let value: String
    public var description: String { "WAVES_GL_POLICY \(value): expected software or gpu (or unset: the driver's own)" }
}

/// Every way the GL strategy draws an item, and why it is the one.
package enum GLMechanism: CaseIterable, Sendable {
    case clipCopy, clipLookup, atlasInstance, copiesStatePass, polygonRows, phasedPicture, coverageInstance, filteredPicture, rgbaPicture
    case splitBox, boxPolygon, borderPolygon, scissoredClear, maskPictureInPlace, maskPolygonInPlace, notDrawn

    package var name: String {
        switch self {
        case .clipCopy: "clip copy"
        case .clipLookup: "clip lookup"
        case .atlasInstance: "atlas instance"
        case .copiesStatePass: "copies' state pass"
        case .polygonRows: "polygon rows"
        case .phasedPicture: "coverage picture, phases"
        case .coverageInstance: "coverage instance"
        case .filteredPicture: "coverage picture, filtered"
        case .rgbaPicture: "RGBA picture"
        case .splitBox: "split box"
        case .boxPolygon: "box polygon"
        case .borderPolygon: "border polygon"
        case .scissoredClear: "scissored clear"
        case .maskPictureInPlace: "coverage picture, read as the mask"
        case .maskPolygonInPlace: "polygon rows, read as the mask"
        case .notDrawn: "none"
        }
    }

    /// Whether it draws from a picture made once (cached content, only moved, turned, scaled or faded).
    package var drawsAPictureMadeOnce: Bool {
        switch self {
        case .clipCopy, .clipLookup, .atlasInstance, .phasedPicture, .coverageInstance, .filteredPicture, .rgbaPicture, .maskPictureInPlace: true
        default: false
        }
    }

    package var reason: String {
        switch self {
        case .clipCopy:
            "a fixed shape alone in its clip and moved by whole pixels: copied from its picture painted once (the software-driver policy: a copy is a memcpy there)"
        case .clipLookup:
            "a fixed shape alone in its clip and moved by whole pixels: its picture painted once at its phases, every such clip's x evaluated on the GPU, then one quad a page whose pixels find their clip (the GPU policy: the same calls whatever the count)"
        case .atlasInstance:
            "a rasterized layer (shouldRasterize): painted once into the atlas, drawn as one instance of its run"
        case .copiesStatePass:
            "a replicator of boxes: each copy's timelines evaluated on the GPU, then one draw a page (a lattice quad where its steps only translate, else instanced)"
        case .polygonRows:
            "a path rebuilt every frame: its outline made on the CPU as points, its coverage computed on the GPU (an outline that says it is the last frame's, on the same pixels: its rows copied from the last frame's tables; a solid colour in the tree: an instance of one draw with the items next to it drawn as instances (polygons; on a GPU's policy, fixed paths too))"
        case .phasedPicture:
            "a fixed path rasterised once at sub-pixel phases: the nearest drawn at whole-pixel offsets (exact motion), by itself: a gradient, a blend mode or a mask's layer, or a picture the coverage atlas does not hold"
        case .coverageInstance:
            "a fixed path with a solid fill, rasterised once into the coverage atlas (at sub-pixel phases where exact motion is asked, the nearest read at whole-pixel offsets; else sampled between its texels): one instance of one draw with the items next to it drawn as instances (fixed paths; on a GPU's policy, polygons too) (a draw's cost, paid once a run)"
        case .filteredPicture:
            "a fixed path rasterised once and sampled between its texels (linear motion asked; or turned or scaled, or past the driver's layers or the budget for phases), drawn by itself: a gradient, a blend mode or a mask's layer, or a picture the coverage atlas does not hold"
        case .rgbaPicture:
            "uploaded once and sampled through the item's inverse transform"
        case .splitBox:
            "an axis-aligned box on a software driver: the rectangle's exact coverage in three scissored bands, the polygon only on its corners' pixels"
        case .boxPolygon:
            "its rounded outline as points, its coverage computed on the GPU in one draw (a GPU's policy; a software driver splits only an axis-aligned box with room between its corners)"
        case .borderPolygon:
            "the border's outline as points, its coverage computed on the GPU"
        case .scissoredClear:
            "a mask's box on whole pixels with square corners: its coverage is its alpha there, a clear"
        case .maskPictureInPlace:
            "an alpha mask of one fixed path of a solid colour, added: rasterised once, its coverage read in place by each draw it masks, through its inverse transform (no pass draws it into a mask texture, so the frame's framebuffer is not switched for it)"
        case .maskPolygonInPlace:
            "an alpha mask of one path rebuilt every frame, of a solid colour, added: its outline made on the CPU as points, its coverage computed in place by each draw it masks from its rows in the frame's polygon tables (no pass draws it into a mask texture, so the frame's framebuffer is not switched for it)"
        case .notDrawn:
            "outside the frame or its clip, or an empty path: nothing to draw"
        }
    }
}
