/// A rasterized layer's picture (CALayer.shouldRasterize): the layer's
/// contents, sublayers and mask painted once, by the CPU strategy's
/// painter, in the layer's own coordinates, for a backend that caches the
/// pixels and moves them as one (the GL strategy's instanced pictures).
/// A layer can be cached so only where nothing under it animates: its own
/// placement, opacity and timing may, since they only move the picture.
package struct RasterPicture: Sendable {
    /// The layer as it looks wherever it is: its name, placement, opacity
    /// and timing taken away (and its sublayers' names), so that layers
    /// that look alike are one picture.
    package let look: Layer
    /// The pixels' extent in the layer's own coordinates: whole pixels, one
    /// spare each side (nil: it draws nothing).
    package private(set) var bounds: Rect?
    /// Painted once (`shouldRasterize`); false: a shadowed layer not cached,
    /// painted again every frame (what Core Animation's offscreen pass does).
    package let isCached: Bool

    init(look: Layer, isCached: Bool = true) {
        self.look = look
        self.isCached = isCached
    }

    /// The most pixels a picture may have (16 MB of RGBA): a larger layer
    /// (a long track's bars) is drawn item by item, as Core Animation limits
    /// the size of what it rasterizes.
    package static let maxPixels = 4 << 20
    /// The most rows a picture may have (a taller one is drawn item by item;
    /// wider ones are cut into tiles, taller ones are not).
    package static let maxRows = 4000

    /// The layer's look (see `look`).
    static func look(of layer: Layer) -> Layer {
        func unnamed(_ layer: Layer) -> Layer {
            var l = layer
            l.name = ""
            l.sublayers = l.sublayers.map(unnamed)
            l.mask = l.mask.map(unnamed)
            return l
        }
        var look = unnamed(layer)
        look.position = AnimatablePoint(0, 0)
        look.transform = AnimatableTransform()
        look.opacity = .constant(1)
        look.timing = .passThrough
        look.shouldRasterize = false
        return look
    }

    /// Whether the layer looks the same at every time in its own
    /// coordinates: its bounds' origin, contents and replicator step never
    /// animated, and its mask and sublayers wholly still.
    package static func canCache(_ layer: Layer) -> Bool {
        guard layer.boundsOrigin.x.isConstant, layer.boundsOrigin.y.isConstant, hasStillContents(layer) else { return false }
        if let r = layer.replicator, !r.instanceTransform.timelines.allSatisfy(\.isConstant) { return false }
        return (layer.mask.map(isStill) ?? true) && layer.sublayers.allSatisfy(isStill)
    }

    private static func isStill(_ layer: Layer) -> Bool {
        layer.timing.isPassThrough && layer.opacity.isConstant && layer.geometryTimelines.allSatisfy(\.isConstant)
            && canCache(layer)
    }

    private static func hasStillContents(_ layer: Layer) -> Bool {
        switch layer.contents {
        case let .shape(shape)?:
            // A fixed outline whose paint holds still: an animated colour or gradient's points would be baked at one time.
            guard case .fixed = shape.path else { return false }
            return (shape.color?.isConstant ?? true) && (shape.gradientPoints?.isConstant ?? true)
        case let .box(box)?: return box.fillColor.isConstant
        case .picture?, nil: return true
        }
    }

    /// The look placed so that its own coordinates less `origin` are the
    /// scene's (its anchor where the transform would put it, no transform).
    private func placed(at origin: Point) -> Layer {
        var layer = look
        layer.position = AnimatablePoint(layer.boundsOrigin.x.value + layer.anchorPoint.x * layer.size.width - origin.x,
                                         layer.boundsOrigin.y.value + layer.anchorPoint.y * layer.size.height - origin.y)
        return layer
    }

    /// Finds `bounds`: everything the look draws at time 0, inside its clips.
    mutating func measure() throws {
        let tree = try LayerTreeEvaluator(root: placed(at: Point(0, 0)), sources: DrivenSources([]))
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for item in tree.presentation(at: 0).items {
            guard let reach = tree.reach(of: item)?.intersection(item.clip), !reach.isEmpty else { continue }
            x0 = Swift.min(x0, reach.x); x1 = Swift.max(x1, reach.maxX)
            y0 = Swift.min(y0, reach.y); y1 = Swift.max(y1, reach.maxY)
        }
        guard x0 < x1, y0 < y1 else { bounds = nil; return }
        let left = x0.rounded(.down) - 1, top = y0.rounded(.down) - 1
        bounds = Rect(x: left, y: top, width: x1.rounded(.up) + 1 - left, height: y1.rounded(.up) + 1 - top)
    }

    /// The pixels over `bounds`, straight alpha over transparent: what the
    /// CPU strategy draws for the layer at an identity placement.
    package func paint() throws -> RGBAImage {
        guard let painter = try Painter(self) else { return RGBAImage(width: 0, height: 0, fill: RGBA8(0, 0, 0, 0)) }
        painter.paint()
        return try painter.pixmap.readback()
    }

    /// A picture's painter, made once: `paint()` paints it again into the
    /// same pixels, allocating nothing (a picture not cached, every frame).
    package final class Painter {
        private let painter: TreePainter
        package let pixmap: Pixmap
        /// Times painted since made.
        package private(set) var paints = 0

        /// Nil where the picture draws nothing.
        package init?(_ picture: RasterPicture) throws {
            guard let bounds = picture.bounds else { return nil }
            let tree = try LayerTreeEvaluator(root: picture.placed(at: Point(bounds.x, bounds.y)), sources: DrivenSources([]))
            let width = Int(bounds.width), height = Int(bounds.height)
            painter = try TreePainter(evaluator: tree, rasterizer: try CoverageRasterizer(width: width, height: height),
                                  background: RGBA8(0, 0, 0, 0))
            pixmap = Pixmap(width: width, height: height)
        }

        /// Clears to transparent and paints the look.
        package func paint() {
            pixmap.fill(RGBA8(0, 0, 0, 0))
            painter.draw(time: 0, into: pixmap.view)
            paints += 1
        }
    }
}
