/// The layer tree compiled once for a scene: layers in depth-first order,
/// each knowing where its subtree ends, contents numbered (equal fixed
/// paths and pictures share a number), and the list's sizes known, so that
/// `evaluate` walks integers and fills a list kept from frame to frame
/// without allocating.
package final class LayerTreeEvaluator {
    /// The tree's root held in memory of its own, for as long as a node of it lives: the nodes read their layers
    /// in place there (`Layer.storagePlaces`) rather than each keeping a copy (480 bytes a layer). The still
    /// layers' placements lie here too, side by side in the order they were compiled, each read in place by its
    /// node (held in every node, one would take its room in a moving layer's node as well), and so do the
    /// placements of the layers that only place their one sublayer (`placesOnly`), each run of them read by the
    /// node they lead to.
    final class HeldTree: @unchecked Sendable {
        let root: UnsafeMutablePointer<Layer>
        private let stills: UnsafeMutablePointer<StillPlacement>
        private let stillCapacity: Int
        private var stillCount = 0
        private let placements: UnsafeMutablePointer<Affine>
        private let placementCapacity: Int
        private var placementCount = 0

        init(_ layer: Layer) {
            root = .allocate(capacity: 1)
            root.initialize(to: layer)
            (stillCapacity, placementCapacity) = Self.held(in: layer, isRoot: true)
            stills = .allocate(capacity: stillCapacity)
            placements = .allocate(capacity: placementCapacity)
        }

        deinit {
            stills.deinitialize(count: stillCount)
            stills.deallocate()
            placements.deallocate()
            root.deinitialize(count: 1)
            root.deallocate()
        }

        /// The placements of a run of layers that only place their one sublayer, outermost first, held side by
        /// side (nil for none).
        func hold(_ run: [Affine]) -> UnsafePointer<Affine>? {
            guard !run.isEmpty else { return nil }
            precondition(placementCount + run.count <= placementCapacity, "a layer compiled twice")
            (placements + placementCount).initialize(from: run, count: run.count)
            placementCount += run.count
            return UnsafePointer(placements + placementCount - run.count)
        }

        /// Holds a still layer's placement for its node (a tree's layer is compiled once: there is room for all).
        func hold(_ still: StillPlacement) -> UnsafePointer<StillPlacement> {
            precondition(stillCount < stillCapacity, "a layer compiled twice")
            (stills + stillCount).initialize(to: still)
            stillCount += 1
            return UnsafePointer(stills + stillCount - 1)
        }

        /// The layers in a tree that keep still (`StillPlacement.holds`) and those that only place their one
        /// sublayer (`placesOnly`; never the root), its masks' included.
        private static func held(in layer: Layer, isRoot: Bool) -> (stills: Int, placements: Int) {
            var count = !isRoot && placesOnly(layer) != nil ? (0, 1) : StillPlacement.holds(for: layer) ? (1, 0) : (0, 0)
            for sublayer in layer.sublayers + (layer.mask.map { [$0] } ?? []) {
                let more = held(in: sublayer, isRoot: false)
                count = (count.0 + more.stills, count.1 + more.placements)
            }
            return count
        }
    }

    /// A compiled layer (a class: a frame reads it without copying the layer).
    package final class Node: @unchecked Sendable {
        /// Its layer, read in place in the tree `tree` holds.
        package var layer: Layer { unsafeAddress { place } }
        private let place: UnsafePointer<Layer>
        private let tree: HeldTree
        /// One past the last node of this layer's subtree.
        package let subtreeEnd: Int
        /// The content number of its contents (-1: none).
        package let content: Int
        /// The mask layer's subtree, compiled into `maskNodes` (-1: no mask).
        package let maskRoot: Int
        /// A replicator whose copies the backend draws (one `.copies` item).
        package let drawsCopies: Bool
        /// Drawn as one cached picture, this number in `rasterPictures` (-1: item by item).
        package let rasterized: Int
        /// Its placement, evaluated once where none of its geometry is animated (held in the tree `tree` holds).
        let still: UnsafePointer<StillPlacement>?
        /// The placements of the layers above it that only place it (`placesOnly`), outermost first, and how many
        /// (held in the tree `tree` holds): its parent's space is theirs applied in turn, as their nodes would.
        let placedBy: UnsafePointer<Affine>?
        let placedByCount: Int32
        /// With a still placement, its opacity where that is animated (an imported layer shown from its in point
        /// to its out point): read alone, the placement kept as it stands.
        let stillOpacity: TrackedTimeline?
        /// Otherwise its placement's timelines as a frame reads them (`PlacementTracks`).
        package let tracks: PlacementTracks?
        /// A dynamic path's parameters as a frame reads them, where some of them halve (`TimelineTrack`, one each).
        let parameterTracks: UnsafeMutablePointer<TimelineTrack>?
        /// How its drawing meets what is under it: its own blend mode, else its nearest ancestor's.
        package let blend: BlendMode
        /// What a frame reads of it, found once: reading the layer's contents, shadow or replicator copies them
        /// (every reference in them retained and released), so a frame reads them only where they are there
        /// and say something (a fixed path filled by its own colour says nothing a frame needs).
        let drawing: Drawing, hasShadow: Bool, hasReplicator: Bool
        enum Drawing { case none, stillShape, other }
        /// Its layer's flags a frame reads of every node, held here: its layer lies elsewhere in memory, a cache
        /// line a frame need not touch for a layer that draws nothing. On its parent's time: no timing of its own
        /// and no time remap.
        let isHidden: Bool, masksToBounds: Bool, onParentTime: Bool
        /// Its shape (nil for other contents), read in place through this reference: matching the layer's contents
        /// copies the shape out, every reference in it retained and released, at every item of every frame.
        package let shape: HeldApart<Shape>?

        /// `tracks`: where its geometry animates, its layer's (`PlacementTracks.shared`); nil where it keeps still
        /// (`StillPlacement.holds`), its placement then held in `tree`. `shape`: its layer's shape, held apart (nil
        /// for other contents).
        init(_ place: UnsafePointer<Layer>, in tree: HeldTree, subtreeEnd: Int, content: Int, maskRoot: Int, drawsCopies: Bool,
             rasterized: Int = -1, blend: BlendMode = .normal, tracks: PlacementTracks?, shape: HeldApart<Shape>?, placedBy: [Affine] = []) {
            self.place = place; self.tree = tree
            self.placedBy = tree.hold(placedBy)
            placedByCount = Int32(placedBy.count)
            let layer = place.pointee
            self.subtreeEnd = subtreeEnd; self.content = content; self.maskRoot = maskRoot
            self.drawsCopies = drawsCopies; self.rasterized = rasterized; self.blend = blend
            still = tracks == nil ? tree.hold(StillPlacement(geometryOf: layer)) : nil
            stillOpacity = still != nil && !layer.opacity.isConstant ? TrackedTimeline(layer.opacity) : nil
            self.tracks = tracks
            parameterTracks = TimelineTrack.laidOut(Self.dynamicParameters(layer))
            switch layer.contents {
            case nil: drawing = .none
            case let .shape(shape)?:
                if case .fixed = shape.path, shape.color == nil, shape.gradientPoints == nil { drawing = .stillShape } else { drawing = .other }
            default: drawing = .other
            }
            hasShadow = layer.shadow != nil
            hasReplicator = layer.replicator != nil
            (isHidden, masksToBounds) = (layer.isHidden, layer.masksToBounds)
            onParentTime = layer.timing.isPassThrough && layer.timeRemap == nil
            self.shape = shape
        }

        deinit {
            TimelineTrack.deallocate(parameterTracks, count: Self.dynamicParameters(layer).count)
            stillOpacity?.track.deallocate()
        }

        /// The parameters a frame reads of a dynamic path (none for other contents).
        private static func dynamicParameters(_ layer: Layer) -> ArraySlice<Timeline<Double>> {
            guard case let .shape(shape)? = layer.contents, case .dynamic = shape.path else { return [] }
            return shape.parameters.prefix(Shape.maxParameters)
        }
    }

    /// A layer none of whose geometry is animated, on its parent's time:
    /// what every frame would evaluate, evaluated once.
    package struct StillPlacement {
        package let position: Point
        package let bounds: Rect
        /// Its space to its parent's (`toParent`).
        package let toParent: Affine
        /// Held to 0...1 (its model value where it is animated).
        package let opacity: Double

        /// Whether a layer has one: on its parent's time, none of its geometry animated (its opacity may be).
        static func holds(for layer: Layer) -> Bool {
            layer.isOnParentTime && layer.geometryTimelines.allSatisfy(\.isConstant)
        }

        /// Nil where the layer has its own timing or anything of its placement, its opacity included, is animated.
        package init?(_ layer: Layer) {
            guard Self.holds(for: layer), layer.opacity.isConstant else { return nil }
            self.init(geometryOf: layer)
        }

        /// A layer that `holds` one: its geometry, and its opacity's model value.
        init(geometryOf layer: Layer) {
            position = Point(layer.position.x.value, layer.position.y.value)
            bounds = Rect(x: layer.boundsOrigin.x.value, y: layer.boundsOrigin.y.value, width: layer.size.width, height: layer.size.height)
            toParent = LayerTreeEvaluator.toParent(layer, position: position, bounds: bounds, at: 0, sources: nil)
            opacity = Swift.min(1, Swift.max(0, layer.opacity.value))
        }
    }

    /// Where a layer only places its one sublayer, its placement: nothing of its own is drawn, clipped, masked,
    /// copied, cached, shadowed or blended, it is on its parent's time and shown, its placement is still and its
    /// opacity 1. Such a layer is compiled into its sublayer's node (`Node.placedBy`), which applies that placement
    /// as its node would have, rather than being a node every frame visits: an imported layer's still parents,
    /// repeated around each of its children (`LottieLayers.chain`), are most often that (tractor.json's 3,527
    /// compiled layers are 2,226 nodes).
    static func placesOnly(_ layer: Layer) -> Affine? {
        guard layer.contents == nil, layer.sublayers.count == 1, layer.mask == nil, !layer.masksToBounds, !layer.isHidden,
              layer.replicator == nil, layer.shadow == nil, !layer.shouldRasterize, layer.blendMode == .normal,
              let still = StillPlacement(layer), still.opacity == 1 else { return nil }
        return still.toParent
    }

    package let root: Layer
    package let sources: DrivenSources
    package private(set) var nodes: [Node] = []
    /// Every mask layer's subtree, compiled like the main tree.
    package private(set) var maskNodes: [Node] = []
    /// Per content number: the contents (for backends that cache by number).
    package private(set) var contents: [Contents] = []
    /// Per content number, in its layer's coordinates: a fixed path's bounds, a dynamic one's reach (`DynamicPath.reach`:
    /// a dynamic path is its one layer's, so its size is known), else zero.
    package private(set) var contentBounds: [Rect] = []
    /// The pictures of rasterized layers (see `RasterPicture`): layers that
    /// look alike (the same sublayers, contents and mask) share one.
    package private(set) var rasterPictures: [RasterPicture] = []
    /// Per compiled node: whether a rasterized layer above it draws it in its picture.
    package private(set) var insideRasterized: [Bool] = []
    /// Some layer blends (`Layer.blendMode`): the tree draws over transparency and then over the
    /// background, so that its blend modes meet its own drawing, never the background (an
    /// imported composition's canvas, transparent as After Effects draws one).
    package private(set) var blends = false
    /// A masked layer lies under another: its items are clipped by both masks (`MaskRange.parent`).
    package private(set) var masksNest = false
    /// The most items, masks and mask items a frame can hold.
    package private(set) var capacity = (items: 0, masks: 0, maskItems: 0)
    /// Scratch memory for the dynamic paths that ask for it (the most any one asks).
    package private(set) var scratch = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)

    /// The most items a tree may draw in one frame (copies of copies included).
    package static let maxItems = 1 << 22

    /// `drawsCopies`: replicators (outside masks) whose copies the backend
    /// draws itself from the layers, given one `.copies` item each.
    /// `rasterizes`: layers that ask for it (`shouldRasterize`, outside
    /// masks, not inside another such layer) and can be cached (nothing
    /// under them animates: `RasterPicture.canCache`, and their picture is at
    /// most `RasterPicture.maxPixels`) are one `.rasterized` item each.
    package init(root: Layer, sources: DrivenSources, drawsCopies: ((Layer) -> Bool)? = nil, rasterizes: Bool = false) throws {
        self.root = root
        self.sources = sources
        var fixedPaths: [Path: Int] = [:]
        var pictures: [Int] = []
        func number(_ layer: Layer) -> Int {
            guard let contents = layer.contents else { return -1 }
            var bounds = Rect.zero
            switch contents {
            case let .shape(shape):
                switch shape.path {
                case let .fixed(path):
                    if let n = fixedPaths[path] { return n }
                    fixedPaths[path] = self.contents.count
                    if let b = path.bounds { bounds = Rect(x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY) }
                case let .dynamic(path):
                    bounds = path.reach(size: layer.size)
                }
            case let .picture(p):
                if let n = pictures.first(where: { if case let .picture(q) = self.contents[$0] { return q == p }; return false }) {
                    return n
                }
                pictures.append(self.contents.count)
            case .box:
                break
            }
            self.contents.append(contents)
            contentBounds.append(bounds)
            return self.contents.count - 1
        }
        // Rasterized layers by size, then by look: their picture numbers.
        var looks: [Size: [(look: Layer, number: Int)]] = [:]
        // -1: a look too large to cache (drawn item by item).
        func rasterNumber(_ layer: Layer) throws -> Int {
            let look = RasterPicture.look(of: layer)
            // A layer not cached is painted every frame on its own (no picture shared).
            if layer.shouldRasterize, let n = looks[layer.size]?.first(where: { $0.look == look })?.number { return n }
            var picture = RasterPicture(look: look, isCached: layer.shouldRasterize)
            try picture.measure()
            let fits = picture.bounds.map {
                $0.width * $0.height <= Double(RasterPicture.maxPixels) && $0.height <= Double(RasterPicture.maxRows)
            } ?? true
            if fits { rasterPictures.append(picture) }
            let n = fits ? rasterPictures.count - 1 : -1
            if layer.shouldRasterize { looks[layer.size, default: []].append((look, n)) }
            return n
        }
        let held = HeldTree(root)
        // Moving layers' tracks, by a hash of their timelines: layers with the same timelines share them.
        var placementTracks: [Int: [PlacementTracks]] = [:]
        var heldShapes: [Int: [HeldApart<Shape>]] = [:]
        // Each node made once its subtree is (its index kept for it first): its layer's still placement held once.
        var compiled: [Node?] = [], compiledMasks: [Node?] = []
        func compile(_ place: UnsafePointer<Layer>, into list: inout [Node?], masks: inout [Node?], isMask: Bool, inRaster: Bool,
                     blend inherited: BlendMode = .normal, placedBy: [Affine] = []) throws -> Int {
            let layer = place.pointee, places = layer.storagePlaces()
            // A mask's coverage is folded, never blended.
            let blend = isMask ? .normal : layer.blendMode == .normal ? inherited : layer.blendMode
            // A layer that only places its sublayer is that sublayer's node, placed by it as well.
            if place != held.root, let placement = Self.placesOnly(layer) {
                return try compile(places.sublayers.baseAddress!, into: &list, masks: &masks, isMask: isMask, inRaster: inRaster,
                                   blend: blend, placedBy: placedBy + [placement])
            }
            let index = list.count
            list.append(nil)
            var maskRoot = -1
            if let mask = places.mask {
                if isMask { throw LayerTreeError(layer: layer.name, problem: "a mask layer with a mask of its own (masks do not nest)") }
                var none: [Node?] = []
                maskRoot = try compile(mask, into: &masks, masks: &none, isMask: true, inRaster: inRaster)
            }
            // A shadow draws on such a backend only in a picture: painted every frame where the layer is not cached.
            // Blended items draw one by one (each meets what is under it).
            let wanted = rasterizes && !isMask && !inRaster && blend == .normal && (layer.shouldRasterize || layer.shadow != nil)
                && RasterPicture.canCache(layer)
            let picture = wanted ? try rasterNumber(layer) : -1
            let raster = picture >= 0
            if rasterizes && !isMask && !inRaster && !raster && layer.shadow != nil {
                throw LayerTreeError(layer: layer.name, problem: "a shadow on a layer the GL strategy cannot paint as one picture "
                                     + "(expected sublayers that do not animate, at most \(RasterPicture.maxPixels) pixels)")
            }
            for k in places.sublayers.indices {
                _ = try compile(places.sublayers.baseAddress! + k, into: &list, masks: &masks, isMask: isMask, inRaster: inRaster || raster,
                                blend: blend)
            }
            let copies = !isMask && !raster && blend == .normal && layer.replicator != nil && (drawsCopies?(layer) ?? false)
            let tracks = StillPlacement.holds(for: layer) ? nil : PlacementTracks.shared(for: layer, in: &placementTracks)
            let content = number(layer)
            var shape: HeldApart<Shape>?
            if case let .shape(s)? = layer.contents {
                // Layers that draw equal shapes (the same content number, then the same fill) hold one.
                if let same = heldShapes[content]?.first(where: { $0.value == s }) {
                    shape = same
                } else {
                    let heldShape = HeldApart(s)
                    heldShapes[content, default: []].append(heldShape)
                    shape = heldShape
                }
            }
            list[index] = Node(place, in: held, subtreeEnd: list.count, content: content, maskRoot: maskRoot,
                               drawsCopies: copies, rasterized: picture, blend: blend, tracks: tracks, shape: shape, placedBy: placedBy)
            return index
        }
        try Self.validate(root, sourceCount: sources.levels.count)
        _ = try compile(held.root, into: &compiled, masks: &compiledMasks, isMask: false, inRaster: false)
        (nodes, maskNodes) = (compiled.map { $0! }, compiledMasks.map { $0! })
        // Kept at their size: grown by doubling, a tree of hundreds of contents would keep up to twice the room.
        (contents, contentBounds) = (Self.fitted(contents), Self.fitted(contentBounds))
        insideRasterized = [Bool](repeating: false, count: nodes.count)
        for (i, node) in nodes.enumerated() where node.rasterized >= 0 && !insideRasterized[i] {
            for j in (i + 1)..<node.subtreeEnd { insideRasterized[j] = true }
        }
        // Worked out once here: each backend reads them as it prepares.
        blends = nodes.contains { $0.blend != .normal }
        masksNest = nodes.indices.contains { i in nodes[i].maskRoot >= 0 && nodes[(i + 1)..<nodes[i].subtreeEnd].contains { $0.maskRoot >= 0 } }
        capacity = try frameCapacity()
        var most = 0
        for node in nodes + maskNodes {
            if case let .shape(shape)? = node.layer.contents, case let .dynamic(path) = shape.path { most = Swift.max(most, path.scratchCount) }
        }
        if most > 0 {
            scratch = .allocate(capacity: most)
            scratch.initialize(repeating: 0)
        }
    }

    deinit { if scratch.baseAddress != nil { scratch.deallocate() } }

    /// The same elements in an array with room for them only.
    private static func fitted<T>(_ array: [T]) -> [T] {
        guard array.capacity > array.count else { return array }
        var fitted: [T] = []
        fitted.reserveCapacity(array.count)
        fitted.append(contentsOf: array)
        return fitted
    }

    /// A list sized for this tree (evaluating into it allocates nothing).
    package func makeList() -> PresentationList {
        var list = PresentationList()
        list.reserve(items: capacity.items, masks: capacity.masks, maskItems: capacity.maskItems)
        return list
    }

    // MARK: Evaluation

    /// The tree at scene time t into `list` (its contents replaced). Live
    /// sources are sampled first, once.
    package func evaluate(at t: Double, into list: inout PresentationList) {
        list.removeAll()
        sources.advance(to: t)
        visit(0, nodes: nodes, parent: .identity, opacity: 1, tint: .identity, clip: .unclipped, mask: -1, time: t,
              into: &list, asMask: false)
    }

    /// A new list of the tree at t (allocates: for tests and one-off frames).
    package func presentation(at t: Double) -> PresentationList {
        var list = makeList()
        evaluate(at: t, into: &list)
        return list
    }

    /// The layer's time for a parent time (clamped to its span: a layer
    /// outside its active time holds its first or last frame).
    @inline(__always)
    static func localTime(_ layer: Layer, _ t: Double, sources: DrivenSources?) -> Double {
        let time = localTime(layer.timing, t)
        guard let remap = layer.timeRemap else { return time }
        return remap.value(at: time, sources: sources)
    }

    /// The same for a node's layer, read in place (passing `node.layer` whole would copy it).
    @inline(__always)
    static func localTime(_ node: Node, _ t: Double, sources: DrivenSources?) -> Double {
        let time = localTime(node.layer.timing, t)
        if node.layer.timeRemap == nil { return time }
        return node.layer.timeRemap.unsafelyUnwrapped.value(at: time, sources: sources)
    }

    @inline(__always)
    static func localTime(_ timing: MediaTiming, _ t: Double) -> Double {
        if timing.isPassThrough { return t }
        if let s = timing.simpleTime(at: t) { return s }
        return timing.activeTime(t) < 0 ? timing.startTime : timing.endTime
    }

    /// The transform from a layer's space to its parent's at its local time,
    /// given its position and bounds at that time: position + M (p - anchor).
    @inline(__always)
    package static func toParent(_ layer: Layer, position: Point, bounds: Rect, at time: Double, sources: DrivenSources?) -> Affine {
        toParent(layer, position: position, bounds: bounds, transform: layer.transform.matrix(at: time, sources: sources))
    }

    /// The same, given the layer's transform at that time.
    @inline(__always)
    static func toParent(_ layer: Layer, position: Point, bounds: Rect, transform: Affine) -> Affine {
        toParent(anchorPoint: layer.anchorPoint, position: position, bounds: bounds, transform: transform)
    }

    /// The same, given the layer's anchor point.
    @inline(__always)
    static func toParent(anchorPoint: Point, position: Point, bounds: Rect, transform: Affine) -> Affine {
        let ax = bounds.x + anchorPoint.x * bounds.width, ay = bounds.y + anchorPoint.y * bounds.height
        var m = transform
        m.tx += position.x - (m.a * ax + m.c * ay)
        m.ty += position.y - (m.b * ax + m.d * ay)
        return m
    }

    private func visit(_ index: Int, nodes: [Node], parent: Affine, opacity: Double, tint: Tint, clip: Rect, mask: Int,
                       time parentTime: Double, into list: inout PresentationList, asMask: Bool) {
        // Through the node, never a copy of the layer (a frame visits every copy of every layer).
        let node = nodes[index]
        if node.isHidden { return }
        let time = node.onParentTime ? parentTime : Self.localTime(node, parentTime, sources: sources)
        // Through the layers that only place it, each as its own node would (the same products in the same order).
        var parent = parent
        if let placedBy = node.placedBy {
            for k in 0..<Int(node.placedByCount) { parent = parent.concatenating(after: placedBy[k]) }
        }
        // Each property read once: position and bounds serve the transform, the clip, the items and the copies.
        let position: Point, bounds: Rect, local: Affine, alpha: Double
        if let still = node.still {
            // Its opacity read alone where it is animated: a layer shown from its in point to its out point moves no other way.
            alpha = opacity * (node.stillOpacity.map { Swift.min(1, Swift.max(0, $0.value(at: time, sources: sources))) } ?? still.pointee.opacity)
            position = still.pointee.position
            bounds = still.pointee.bounds
            local = still.pointee.toParent
        } else {
            // Read from the tracks' own timelines (the layer's, read in place, would be copied first).
            // Its node holds the tracks: read at +0, neither they nor their timelines retained for each read.
            (alpha, position, bounds, local) = Unmanaged.passUnretained(node.tracks.unsafelyUnwrapped)._withUnsafeGuaranteedRef { tracks in
                let position = Point(tracks.x.value(at: time, sources: sources), tracks.y.value(at: time, sources: sources))
                let bounds = Rect(x: tracks.originX.value(at: time, sources: sources), y: tracks.originY.value(at: time, sources: sources),
                                  width: node.layer.size.width, height: node.layer.size.height)
                return (opacity * Swift.min(1, Swift.max(0, tracks.opacity.value(at: time, sources: sources))), position, bounds,
                        Self.toParent(anchorPoint: node.layer.anchorPoint, position: position, bounds: bounds,
                                      transform: tracks.matrix(at: time, sources: sources)))
            }
        }
        if alpha <= 0 && !asMask { return }
        let world = parent.concatenating(after: local)
        if node.rasterized >= 0 && !asMask {
            // Its picture holds its contents, sublayers, own clip and mask.
            list.items.append(PresentationItem(layer: index, content: node.rasterized, primitive: .rasterized, transform: world,
                                               opacity: alpha, tint: tint, clip: clip, mask: mask,
                                               color: ColorValue(r: 0, g: 0, b: 0, a: 0), bounds: bounds,
                                               input: ShapeInput(size: bounds.size), drawsBorder: false, time: time))
            return
        }
        var clip = clip
        if node.masksToBounds {
            clip = clip.intersection(bounds.applying(world))
            if clip.isEmpty { return }
        }
        var mask = mask
        if node.maskRoot >= 0 && !asMask {
            let first = list.maskItems.count
            visit(node.maskRoot, nodes: maskNodes, parent: world, opacity: 1, tint: .identity, clip: .unclipped, mask: -1,
                  time: time, into: &list, asMask: true)
            list.masks.append(MaskRange(items: first..<list.maskItems.count, inverted: node.layer.invertsMask,
                                        luminance: node.layer.masksByLuminance, parent: mask))
            mask = list.masks.count - 1
        }
        // The layer's own drawing, then its sublayers, then (CA draws a
        // border over the sublayers) the border of a box that has sublayers.
        // A box with sublayers: where its item lands in its list, its border drawn again after them (-1: none).
        var bordersOnTop = false, borderUnder = -1
        if node.drawing != .none {
            var item = PresentationItem(layer: index, content: node.content, primitive: .fixedShape, transform: world,
                                        opacity: alpha, tint: tint, clip: clip, mask: mask, color: ColorValue(r: 0, g: 0, b: 0, a: 0),
                                        bounds: bounds,
                                        input: ShapeInput(size: bounds.size), drawsBorder: false, time: time)
            item.blend = node.blend
            // A still shape is that item as it stands; the rest read their contents.
            if node.drawing == .other, let held = node.shape {
                // Read through the held shape, never a copy of it.
                if let color = held.value.color?.value(at: time, sources: sources) { item.color = color }
                if let points = held.value.gradientPoints?.value(at: time, sources: sources) { item.gradientPoints = points }
                if case .dynamic = held.value.path {
                    item.primitive = .dynamicShape
                    var p = SIMD4<Double>.zero
                    var k = 0
                    while k < held.value.parameters.count && k < Shape.maxParameters {
                        if let tracks = node.parameterTracks {
                            p[k] = held.value.parameters[k].value(at: time, sources: sources, track: tracks[k])
                        } else {
                            p[k] = held.value.parameters[k].value(at: time, sources: sources)
                        }
                        k += 1
                    }
                    item.input = ShapeInput(parameters: p, position: position, size: bounds.size)
                }
            } else if node.drawing == .other {
                switch node.layer.contents {
                case let .box(box)?:
                    item.primitive = .box
                    item.color = box.fillColor.value(at: time, sources: sources)
                    if box.borderWidth > 0 {
                        if node.layer.sublayers.isEmpty {
                            item.drawsBorder = true
                        } else {
                            bordersOnTop = true
                        }
                    }
                case .picture?:
                    item.primitive = .picture
                case .shape?, nil:
                    break
                }
            }
            if node.hasShadow, !asMask, let shadow = node.layer.shadow {
                // Under the contents: the same outline, blurred and offset, in the shadow's colour.
                var cast = item
                cast.primitive = .shadow
                cast.color = ColorValue(shadow.color)
                cast.opacity = alpha * shadow.opacity
                cast.drawsBorder = false
                list.items.append(cast)
            }
            if asMask { list.maskItems.append(item) } else { list.items.append(item) }
            if bordersOnTop { borderUnder = (asMask ? list.maskItems.count : list.items.count) - 1 }
        }
        visitSublayers(of: index, node: node, nodes: nodes, world: world, bounds: bounds, alpha: alpha, tint: tint, clip: clip,
                       mask: mask, time: time, into: &list, asMask: asMask)
        if borderUnder >= 0 {
            // The box's item again (read back from the list: an optional copy of an item kept here would be copied at
            // every node), as its border.
            var border = asMask ? list.maskItems[borderUnder] : list.items[borderUnder]
            border.primitive = .boxBorder
            if asMask { list.maskItems.append(border) } else { list.items.append(border) }
        }
    }

    @inline(__always)
    private func visitSublayers(of index: Int, node: Node, nodes: [Node], world: Affine, bounds: Rect, alpha: Double, tint: Tint,
                                clip: Rect, mask: Int, time: Double, into list: inout PresentationList, asMask: Bool) {
        if node.drawsCopies && !asMask {
            list.items.append(PresentationItem(layer: index, content: -1, primitive: .copies, transform: world, opacity: alpha,
                                               tint: tint, clip: clip, mask: mask, color: ColorValue(r: 0, g: 0, b: 0, a: 0),
                                               bounds: bounds, input: ShapeInput(size: bounds.size), drawsBorder: false,
                                               time: time))
            return
        }
        guard node.hasReplicator, let replicator = node.layer.replicator else {
            var child = index + 1
            while child < node.subtreeEnd {
                visit(child, nodes: nodes, parent: world, opacity: alpha, tint: tint, clip: clip, mask: mask, time: time,
                      into: &list, asMask: asMask)
                child = nodes[child].subtreeEnd
            }
            return
        }
        // Copy k: M^k about the replicator's centre, k delays late, tinted k offsets on.
        let step = Self.instanceStep(replicator, bounds: bounds, at: time, sources: sources)
        var copy = Affine.identity
        for k in 0..<Swift.max(0, replicator.count) {
            let transform = world.concatenating(after: copy)
            let copyTint = tint.multiplied(by: replicator.instanceColor.offset(by: replicator.colorOffset, times: Double(k)))
            let copyTime = time - Double(k) * replicator.instanceDelay
            var child = index + 1
            while child < node.subtreeEnd {
                visit(child, nodes: nodes, parent: transform, opacity: alpha, tint: copyTint, clip: clip, mask: mask,
                      time: copyTime, into: &list, asMask: asMask)
                child = nodes[child].subtreeEnd
            }
            copy = step.concatenating(after: copy)
        }
    }
}

extension LayerTreeEvaluator {
    /// The transform from copy k to copy k + 1 in the replicator's space:
    /// its instance transform (at the replicator's time) about its centre.
    @inline(__always)
    package static func instanceStep(_ replicator: Replicator, bounds: Rect, at time: Double, sources: DrivenSources?) -> Affine {
        let cx = bounds.midX, cy = bounds.midY
        var step = replicator.instanceTransform.matrix(at: time, sources: sources)
        step.tx += cx - (step.a * cx + step.c * cy)
        step.ty += cy - (step.b * cx + step.d * cy)
        return step
    }
}

/// A layer tree outside what the model can draw, naming the layer.
package struct LayerTreeError: Error, Equatable, CustomStringConvertible {
    package let layer: String
    package let problem: String

    package var description: String { layer.isEmpty ? "layer tree: \(problem)" : "layer '\(layer)': \(problem)" }
}
