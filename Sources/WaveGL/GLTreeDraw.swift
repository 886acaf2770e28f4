import CGL
import WaveCore

/// The GL strategy for the layer tree (`Shaders/item.frag.glsl`): what
/// `GLRenderer` draws each frame, once a frame (`prepareFrame`) and then a
/// page at a time (`draw`):
/// - a fixed path is rasterised once, by the CPU strategy's rasteriser, into
///   a coverage texture; a frame reads it through the item's inverse
///   transform (the same pixels at whole-pixel moves, sampled when it turns
///   or scales, as Core Animation samples a cached layer);
/// - a picture is uploaded once and read the same way;
/// - a dynamic path or a box is an outline made on the CPU every frame as
///   points (no pixels), listed by row (`PolygonRows`), uploaded, and its
///   coverage computed on the GPU, exactly as the CPU rasteriser's rule;
/// - masks are drawn first into a mask texture a page in size, but for an
///   alpha mask of one path alone, which each draw it masks reads in place
///   (`GLMaskInPlace`); clips are scissors.
/// - a replicator of boxes is one item, its copies' timelines evaluated on
///   the GPU once a frame and drawn in one draw a page (`GLCopies`).
/// The tree is evaluated on the CPU every frame (the copies of any other
/// replicator included: that cost grows with the count).
final class GLTreeDraw {
    private let evaluator: LayerTreeEvaluator
    private var list: PresentationList
    /// Replicators whose copies are drawn on the GPU (nil: none).
    let copies: GLCopies?
    private let width: Int, height: Int
    /// While set, the work no fragment count sees (mask clears, copies, pictures painted again) is counted into it.
    var counts: PixelCounts? {
        didSet { clipCopies?.counts = counts }
    }

    private struct Program {
        let program: ShaderProgram
        let viewport, pageTop, color, opacity, colorB, gradient, inverseX, inverseY, pictureSize, rowBase, firstRow, firstColumn, buckets: GLint
        let whole, tileStep, phases, phase, rect, gradientV, focus, gradientKind, evenOdd, invertsCoverage: GLint
        /// A variant masked by a mask read in place (`maskPicture`, `maskPolygon`): the mask's uniforms.
        let mask: GLMaskInPlace.Uniforms?
    }
    /// Programs by variant (`variant(_:mask:)`): source, gradient, masked, as a mask, rectangle, blend equation,
    /// supersampled, masked by a picture or a polygon read in place.
    private var programs: [Program?] = Array(repeating: nil, count: 1024)
    /// A variant's bit for a blend mode's equation (KHR_blend_equation_advanced).
    private static let advancedBlend = 64
    /// The driver blends by the blend modes' equations (`GLCapabilities.advancedBlending`).
    private let advancedBlending: Bool
    /// Some layer blends: the tree draws over transparency, the background under it last (`LayerTreeEvaluator.blends`).
    let blends: Bool
    /// A variant's bit for a rectangle's coverage (a box away from its corners).
    private static let rect = 32
    /// A variant's bit for a coverage picture rasterised at twice its shown scale, read with four taps a pixel
    /// (`SUPERSAMPLED`): a variant of its own, as llvmpipe runs both sides of a branch on a uniform, and one tap
    /// read alongside four doubled the table's GL process CPU.
    private static let supersampled = 128
    /// Variants' bits for a masked item whose mask is read in place (`GLMaskInPlace`; with MASKED): a fixed
    /// path's picture (MASK_PICTURE), a dynamic path's polygon (MASK_POLYGON).
    private static let maskPicture = 256, maskPolygon = 512
    /// The kinds of mask that could be read in place (an alpha mask of one path of a solid colour, added): the
    /// masked items' programs have those variants.
    private let masksInPlace: GLMaskInPlace.Kinds
    /// Per mask of this frame's list: read in place, how (nil: drawn into the mask texture).
    private(set) var masksReadInPlace: [GLMaskInPlace?] = []
    /// The variant that folds a constant coverage (all or nothing) into a mask over a rectangle.
    private static let maskRectangle = 16 | rect
    /// The variant that writes another mask's coverage over a rectangle (one mask times another, where they nest).
    private static let maskProduct = 8 | 16 | rect
    /// Boxes are split at their corners' pixels (`BoxSplit`).
    private let splitsBoxes: Bool
    /// The driver policy the plan follows (`GLPlan.swift`).
    private let policy: DriverPolicy

    private struct CachedPicture {
        var texture: GLuint
        /// The texture's texel (0, 0) in its layer's coordinates, and its size.
        var originX: Double, originY: Double
        var width: Int, height: Int
        /// A fixed path's coverage is a texture array of tiles, each
        /// `tileStep` columns on from the last (a path wider than
        /// GL_MAX_TEXTURE_SIZE, a long strip of bars, takes several).
        var tileStep = 0
        /// Exact motion: each tile rasterised at this many sub-pixel phases
        /// (layer tile * phases + phase); 1: one picture, filtered.
        var phases = 1
        /// Texels per layer unit: 1, or for a layer that asks
        /// (`rasterizesAtShownScale`) twice the scale it is first shown at,
        /// read with four taps a pixel (item.frag's `u_supersampled`).
        var scale = 1.0
    }
    /// Per content number: its texture (fixed paths and pictures).
    private var pictures: [CachedPicture?]
    /// What planning needs of a node's contents, read once (a frame that
    /// copied each item's contents retained its path's arrays item by item).
    private struct ContentFacts {
        /// `variant`'s source and paint bits (-1: no contents).
        var bits = -1
        var isBox = false
        /// A solid fill: its colour, and whether the item's own (animated) colour replaces it.
        var solid = false, animatedColor = false
        var color = RGBA8(0, 0, 0, 0)
        var evenOdd = false

        init(_ contents: Contents?) {
            bits = GLTreeDraw.sourceBits(contents) ?? -1
            switch contents {
            case .box?: isBox = true
            case let .shape(shape)?:
                if case let .solid(c) = shape.fill { (solid, animatedColor, color) = (true, shape.color != nil, c) }
                evenOdd = shape.fillRule == .evenOdd
            default: break
            }
        }
    }
    /// Per node and per mask node.
    private var contentFacts: [ContentFacts] = [], maskContentFacts: [ContentFacts] = []
    /// Per mask node: how it folds into its mask (`Layer.maskMode`, `invertsMaskCoverage`), read once.
    private var maskNodeFolds: [(mode: MaskMode, inverted: Bool)] = []
    /// Whether the mask item being drawn writes 1 less its coverage.
    private var maskItemInverts = false
    /// Each gradient's ramp, a 256x1 texture, by the stops it follows from
    /// (equal paths share a content number whatever their fills; a gradient
    /// whose points move keeps its ramp).
    private var rampTextures: [[Gradient.Stop]: GLuint] = [:]

    let polygons = PolygonRows()
    /// A dynamic path's points, in its layer's coordinates, on to `polygons`.
    private let polygonSink: TransformingSink<PolygonRows>
    /// Per item this frame: its area, its shader variant and its polygons' first row slots (-1: none; copies: `fill` is their state's first row).
    private struct Planned {
        var rows: Range<Int>; var columns: Range<Int>; var variant: Int; var fill: Int; var border: Int
        /// A mask's box on whole pixels: its coverage is its alpha inside `rows` x `columns`, a scissored clear.
        var clearsTo: Double? = nil
        /// An axis-aligned box: drawn as a rectangle's coverage but for its corners' pixels (the polygon's).
        var split: BoxSplit? = nil
        /// Its instance in a run of one draw (`GLInstanceRuns`); -1: drawn by itself.
        var instance = -1
    }
    private var planned: [Planned?] = []
    private var plannedMasks: [Planned?] = []
    /// Each item's mechanism this frame, as the policy chose it (`--explain` lists them).
    private var mechanisms: [GLMechanism] = []
    private var maskMechanisms: [GLMechanism] = []
    /// One set of the polygon tables' textures (edges, entries, row slots) and the rows each holds.
    private struct PolygonTextures {
        var edges: GLuint = 0, entries: GLuint = 0, rows: GLuint = 0
        var edgeRows = 0, entryRows = 0, rowRows = 0
    }
    /// Two sets, a frame's tables written into the one the last frame's draws did not read: a software
    /// driver waits for the draws that still hold a texture before it is written (llvmpipe flushes and
    /// waits on each texture its fragment stage has bound), about 14 us a frame on these two cores.
    private var polygonTextures = [PolygonTextures(), PolygonTextures()]
    /// The set this frame writes and its draws read.
    private var tableSet = 0
    static let tableWidth = 1024

    private var maskTexture: GLuint = 0, maskFramebuffer: GLuint = 0
    /// An enclosing mask's own coverage, where masked layers nest (`LayerTreeEvaluator.masksNest`).
    private var nestedTexture: GLuint = 0, nestedFramebuffer: GLuint = 0
    private let masksNest: Bool
    private var maskSize = (width: 0, height: 0)
    private var maskOnPage = -1
    /// The program in use and the picture bound on unit 0 since the last
    /// draw began (0: unknown), so consecutive items of one kind set neither again.
    private var programInUse: GLuint = 0, pictureBound: GLuint = 0

    /// Whether cached content that an animation moves (its layer's placement
    /// or an ancestor's, or a replicator's copies) is sampled between texels
    /// at fractional offsets: a picture, or a fixed shape without sub-pixel
    /// phases (not asked for, or past the driver's layers or the budget).
    private(set) var filtersMovingContent = false
    private let subpixel: SubpixelMode

    /// Shapes alone in their clips, painted once and put in place by whole-pixel
    /// copies or one quad a page, as the policy says (nil: none, or not asked for).
    let clipCopies: GLClipCopies?
    /// Rasterized layers: one atlas, one instanced draw a run (nil: none).
    let rasterPictures: GLRasterPictures?
    /// Fixed paths with a solid fill: their coverage in one atlas, drawn in runs (nil: none).
    private(set) var coverageInstances: GLCoverageInstances?
    /// Paths with a solid fill, fixed (from the atlas) and dynamic (polygons): one draw a run (nil: none).
    private(set) var instanceRuns: GLInstanceRuns?

    /// `policy`: the driver's (`GLPlan.swift`): clip copies and split boxes, or neither.
    init(_ tree: LayerTree, scene: Scene, caps: GLCapabilities, subpixel: SubpixelMode = .linear, policy: DriverPolicy = .gpu) throws {
        self.subpixel = subpixel
        advancedBlending = caps.advancedBlending
        splitsBoxes = policy.splitsBoxes
        self.policy = policy
        let levels = tree.sources
        evaluator = try tree.makeEvaluator(drawsCopies: { GLCopies.canDraw($0, levels: levels) }, rasterizes: true)
        blends = evaluator.blends
        masksNest = evaluator.masksNest
        list = evaluator.makeList()
        copies = evaluator.nodes.contains(where: \.drawsCopies) ? try GLCopies(evaluator: evaluator, levels: levels) : nil
        clipCopies = try GLClipCopies(evaluator: evaluator, width: scene.width, height: scene.height, background: scene.background,
                                      subpixel: subpixel, caps: caps, drawsByLookup: !policy.copiesClips)
        polygonSink = TransformingSink(polygons)
        width = scene.width
        height = scene.height
        pictures = Array(repeating: nil, count: evaluator.contents.count)
        rasterPictures = evaluator.rasterPictures.isEmpty ? nil : try GLRasterPictures(evaluator: evaluator, caps: caps)
        contentFacts = evaluator.nodes.map { ContentFacts($0.layer.contents) }
        maskContentFacts = evaluator.maskNodes.map { ContentFacts($0.layer.contents) }
        masksInPlace = Self.masksMayBeReadInPlace(evaluator, facts: maskContentFacts)
        // Contents only the copies or a rasterized layer's picture draw need no coverage texture.
        var drawnByShader = [Bool](repeating: false, count: evaluator.contents.count)
        // A rasterized layer's own contents, what it holds and its masks are in its picture.
        let inPicture = evaluator.insideRasterized
        var maskInPicture = [Bool](repeating: false, count: evaluator.maskNodes.count)
        for (i, node) in evaluator.nodes.enumerated() where node.maskRoot >= 0 && (inPicture[i] || node.rasterized >= 0) {
            for m in node.maskRoot..<evaluator.maskNodes[node.maskRoot].subtreeEnd { maskInPicture[m] = true }
        }
        // Fixed paths some layer of the tree fills with a solid colour: instanced where their picture allows.
        var instanced = [Bool](repeating: false, count: evaluator.contents.count)
        for (i, node) in evaluator.nodes.enumerated()
            where node.content >= 0 && !(clipCopies?.draws(i) ?? false) && !inPicture[i] && node.rasterized < 0 {
            drawnByShader[node.content] = true
            if contentFacts[i].solid && contentFacts[i].bits & 3 == 1 { instanced[node.content] = true }
        }
        for (m, node) in evaluator.maskNodes.enumerated() where node.content >= 0 && !maskInPicture[m] { drawnByShader[node.content] = true }
        planned.reserveCapacity(evaluator.capacity.items)
        plannedMasks.reserveCapacity(evaluator.capacity.maskItems)
        mechanisms.reserveCapacity(evaluator.capacity.items)
        maskMechanisms.reserveCapacity(evaluator.capacity.maskItems)
        let atlas = try cachePictures(caps, only: drawnByShader, instanced: instanced)
        coverageInstances = try GLCoverageInstances(atlas, contents: evaluator.contents.count, caps: caps)
        // Runs where the atlas holds pictures, or the tree has a dynamic path of a solid colour (a shape's source bits 0).
        var runKinds = coverageInstances != nil ? GLInstanceRuns.pictures : 0
        if contentFacts.contains(where: { $0.solid && $0.bits & 3 == 0 }) { runKinds |= GLInstanceRuns.polygons }
        if runKinds != 0 {
            instanceRuns = try GLInstanceRuns(kinds: runKinds, mixed: policy.mixesRunKinds, masked: evaluator.nodes.contains { $0.maskRoot >= 0 },
                                              readsMasks: masksInPlace, capacity: evaluator.capacity.items)
        }
        maskNodeFolds = evaluator.maskNodes.map { ($0.layer.maskMode, $0.layer.invertsMaskCoverage) }
        masksReadInPlace.reserveCapacity(evaluator.capacity.masks)
        for node in evaluator.nodes + evaluator.maskNodes {
            guard case let .shape(shape)? = node.layer.contents, case let .gradient(gradient) = shape.fill, rampTextures[gradient.stops] == nil else { continue }
            var texels = [UInt8]()
            texels.reserveCapacity(Gradient.rampSize * 4)
            for c in gradient.ramp { for v in [c.r, c.g, c.b, c.a] { texels.append(UInt8(Swift.max(0, Swift.min(255, v.rounded())))) } }
            rampTextures[gradient.stops] = upload(texels, Gradient.rampSize, 1, format: GL_RGBA8, layout: GL_RGBA)
        }
        filtersMovingContent = findFilteredMovingContent()
        reservePolygons()
        try makePrograms(evaluator.root, masked: false, asMask: false)
        // Pictures rasterised at twice their shown scale are read by the coverage programs' supersampled variants.
        if pictures.contains(where: { ($0?.scale ?? 1) != 1 }) {
            for v in programs.indices where programs[v] != nil && v & 3 == 1 && programs[v | Self.supersampled] == nil {
                try makeProgram(v | Self.supersampled)
            }
        }
        // A tree that blends has the background drawn under it at the end (`drawBackgroundUnder`); one whose masks
        // nest multiplies one mask by another (`drawMask`).
        if blends { try makeProgram(Self.rect) }
        if masksNest { try makeProgram(Self.maskProduct) }
        // The polygon tables, read texel by texel.
        for k in polygonTextures.indices {
            polygonTextures[k].edges = Self.makeTableTexture()
            polygonTextures[k].entries = Self.makeTableTexture()
            polygonTextures[k].rows = Self.makeTableTexture()
        }
        try checkGLErrors("preparing the layer tree")
    }

    deinit {
        for p in pictures { if var t = p?.texture { glDeleteTextures(1, &t) } }
        for var t in rampTextures.values { glDeleteTextures(1, &t) }
        for var set in polygonTextures {
            glDeleteTextures(1, &set.edges)
            glDeleteTextures(1, &set.entries)
            glDeleteTextures(1, &set.rows)
        }
        if maskTexture != 0 { glDeleteTextures(1, &maskTexture) }
        if maskFramebuffer != 0 { glDeleteFramebuffers(1, &maskFramebuffer) }
        if nestedTexture != 0 { glDeleteTextures(1, &nestedTexture) }
        if nestedFramebuffer != 0 { glDeleteFramebuffers(1, &nestedFramebuffer) }
    }

    /// Distinct fixed shapes (one cached picture each, drawn or copied).
    var fixedShapeCount: Int {
        evaluator.contents.reduce(0) { count, contents in
            if case let .shape(shape) = contents, case .fixed = shape.path { return count + 1 }
            return count
        }
    }

    /// The most sub-pixel phases any cached shape has (nil: no cached shape).
    var mostPhases: Int? {
        pictures.compactMap { picture in picture.flatMap { $0.tileStep > 0 ? $0.phases : nil } }.max()
    }

    /// The tiles content number `n`'s coverage takes (0: not a cached fixed path); for tests.
    func tiles(ofContent n: Int) -> Int {
        guard let picture = pictures[n], picture.tileStep > 0 else { return 0 }
        var layers: GLint = 0
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), picture.texture)
        glGetTexLevelParameteriv(GLenum(GL_TEXTURE_2D_ARRAY), 0, GLenum(GL_TEXTURE_DEPTH), &layers)
        return Int(layers)
    }

    // MARK: Once per scene

    /// A texture read texel by texel (nearest): a table of rows of `tableWidth` texels.
    static func makeTableTexture() -> GLuint {
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        return texture
    }

    /// Every fixed path's coverage (the CPU rasteriser's, texel (0, 0) at
    /// one pixel outside its bounds, whole pixels from its layer's origin)
    /// and every picture, premultiplied. Returns the coverage of the
    /// `instanced` paths whose picture is one tile (at each of its phases),
    /// for the coverage atlas (`GLCoverageInstances`), where the budget has
    /// room for them twice.
    private func cachePictures(_ caps: GLCapabilities, only wanted: [Bool], instanced: [Bool]) throws -> [GLCoverageInstances.Picture] {
        var bytes = 0
        var atlas: [GLCoverageInstances.Picture] = []
        let shownScales = Self.shownScales(evaluator)
        for (n, contents) in evaluator.contents.enumerated() where wanted[n] {
            switch contents {
            case let .shape(shape):
                guard case let .fixed(path) = shape.path, let unscaled = path.bounds else { continue }
                // The scale it is shown at where its layer asks, held where the picture would pass the texture's size.
                let extent = Swift.max(unscaled.maxX - unscaled.minX, unscaled.maxY - unscaled.minY, 1)
                let scale = shownScales[n] == 1 ? 1 : Swift.min(shownScales[n], Swift.max(1, Double(caps.maxTextureSize - 4) / extent))
                let b = (minX: unscaled.minX * scale, minY: unscaled.minY * scale, maxX: unscaled.maxX * scale, maxY: unscaled.maxY * scale)
                let x0 = (b.minX - 1).rounded(.down), y0 = (b.minY - 1).rounded(.down)
                let w = Int((b.maxX + 1).rounded(.up) - x0), h = Int((b.maxY + 1).rounded(.up) - y0)
                // Tiles overlapping by 3 columns, so both texels of a filtered sample lie in one tile.
                let tileWidth = Swift.min(w, caps.maxTextureSize), step = w > tileWidth ? tileWidth - 3 : tileWidth
                let tiles = w > tileWidth ? (w - tileWidth + step - 1) / step + 1 : 1
                guard h <= caps.maxTextureSize else {
                    throw GLError.limit(what: "a shape's coverage picture \(h) rows tall (GL_MAX_TEXTURE_SIZE)", needed: h,
                                        available: caps.maxTextureSize)
                }
                guard tiles <= caps.maxArrayLayers else {
                    throw GLError.limit(what: "a shape \(w) columns wide in \(tiles) tiles (GL_MAX_ARRAY_TEXTURE_LAYERS)", needed: tiles,
                                        available: caps.maxArrayLayers)
                }
                // Exact motion: 16 phases, or 8, where the driver's layers and the budget allow; else 1 (filtered).
                let one = tileWidth * h * tiles
                let phases = subpixel != .exact || scale != 1 ? 1
                    : [SubpixelPhases.exact, SubpixelPhases.fewest].first {
                        tiles * $0 <= caps.maxArrayLayers && bytes + one * $0 <= caps.maxCoverageBytes
                    } ?? 1
                try fits(bytes: one * phases, caps, &bytes)
                // The same outline the CPU strategy emits for this path moved by whole pixels (and phase j/phases more).
                let rasterizer = try CoverageRasterizer(width: tileWidth, height: h)
                var coverage = try CheckedMemory.allocating(bytes: one * phases, for: "a shape's coverage picture of \(tileWidth)x\(h)") {
                    [UInt8](repeating: 0, count: one * phases)
                }
                rasterizer.evenOdd = shape.fillRule == .evenOdd
                for tile in 0..<tiles {
                    for phase in 0..<phases {
                        let left = x0 + Double(tile * step) - Double(phase) / Double(phases)
                        PrimitiveOutlines.addPath(path, Affine(a: scale, b: 0, c: 0, d: scale, tx: -left, ty: -y0), columns: 0..<tileWidth,
                                                  into: rasterizer)
                        coverage.withUnsafeMutableBufferPointer { buffer in
                            var sink = CoverageBytes(rowZero: buffer.baseAddress! + (tile * phases + phase) * tileWidth * h,
                                                     rowStride: tileWidth)
                            rasterizer.resolve(rows: 0..<h, into: &sink)
                        }
                    }
                }
                pictures[n] = CachedPicture(texture: uploadTiles(coverage, tileWidth, h, tiles * phases), originX: x0, originY: y0,
                                            width: tileWidth, height: h, tileStep: step, phases: phases, scale: scale)
                if instanced[n] && tiles == 1 && bytes + one * phases <= caps.maxCoverageBytes {
                    bytes += one * phases
                    atlas.append(.init(content: n, coverage: coverage, width: tileWidth, height: h, phases: phases, supersampled: scale != 1))
                }
            case let .picture(picture):
                let image = picture.image
                guard image.width > 0, image.height > 0 else { continue }
                guard image.width <= caps.maxTextureSize, image.height <= caps.maxTextureSize else {
                    throw GLError.limit(what: "a picture of \(image.width)x\(image.height) (GL_MAX_TEXTURE_SIZE)",
                                        needed: Swift.max(image.width, image.height), available: caps.maxTextureSize)
                }
                try fits(bytes: image.width * image.height * 4, caps, &bytes)
                var texels = try CheckedMemory.allocating(bytes: image.pixels.count, for: "a \(image.width)x\(image.height) picture") {
                    image.pixels.withUnsafeBufferPointer { Array($0) }
                }
                for i in stride(from: 0, to: texels.count, by: 4) {
                    let a = Int(texels[i + 3])
                    for c in 0..<3 { texels[i + c] = UInt8((Int(texels[i + c]) * a + 127) / 255) }
                }
                pictures[n] = CachedPicture(texture: upload(texels, image.width, image.height, format: GL_RGBA8, layout: GL_RGBA),
                                            originX: 0, originY: 0, width: image.width, height: image.height)
            case .box:
                continue
            }
        }
        return atlas
    }

    /// Per content number, texels a unit: for the layers that ask
    /// (`rasterizesAtShownScale`), twice the largest scale their items are
    /// shown at (each transform's longer axis) in the frames at a few times
    /// of the first seconds (0, 1/4, 1/2, 1, 2 and 4 s: a layer hidden at 0
    /// still gets its scale), at most 16; 1 for the rest, and where none is shown then.
    private static func shownScales(_ evaluator: LayerTreeEvaluator) -> [Double] {
        var asks = [Bool](repeating: false, count: evaluator.contents.count)
        for node in evaluator.nodes + evaluator.maskNodes where node.content >= 0 && node.layer.rasterizesAtShownScale { asks[node.content] = true }
        guard asks.contains(true) else { return [Double](repeating: 1, count: asks.count) }
        var scales = [Double](repeating: 0, count: evaluator.contents.count)
        for time in [0, 0.25, 0.5, 1, 2, 4] {
            let list = evaluator.presentation(at: time)
            for item in list.items + list.maskItems where item.content >= 0 && item.content < scales.count && item.primitive == .fixedShape
                && asks[item.content] {
                let m = item.transform
                let s = Swift.max((m.a * m.a + m.b * m.b).squareRoot(), (m.c * m.c + m.d * m.d).squareRoot())
                if s.isFinite { scales[item.content] = Swift.max(scales[item.content], s) }
            }
        }
        return scales.map { $0 <= 0 || abs($0 - 1) < 1e-3 ? 1 : Swift.min(16, 2 * $0) }
    }

    /// Adds `more` to the bytes cached so far, within the backend's budget.
    /// One walk of the compiled tree, depth first, carrying whether an
    /// ancestor moves: see `filtersMovingContent`.
    private func findFilteredMovingContent() -> Bool {
        var open: [(end: Int, moves: Bool)] = []
        let inPicture = evaluator.insideRasterized
        for (i, node) in evaluator.nodes.enumerated() {
            while let last = open.last, last.end <= i { open.removeLast() }
            let moves = (open.last?.moves ?? false) || node.layer.replicator != nil
                || !node.layer.geometryTimelines.allSatisfy(\.isConstant)
            open.append((node.subtreeEnd, moves))
            if moves && node.rasterized >= 0 { return true }
            guard moves, node.content >= 0, !inPicture[i] else { continue }
            if case .picture? = node.layer.contents { return true }
            if let picture = pictures[node.content], picture.phases == 1 { return true }
        }
        return false
    }

    private func fits(bytes more: Int, _ caps: GLCapabilities, _ bytes: inout Int) throws {
        bytes += more
        guard bytes <= caps.maxCoverageBytes else {
            throw GLError.limit(what: "\(bytes) bytes of cached pictures (the backend's memory budget)", needed: bytes,
                                available: caps.maxCoverageBytes)
        }
    }

    /// Coverage tiles as layers of a new texture array.
    private func uploadTiles(_ bytes: [UInt8], _ w: Int, _ h: Int, _ tiles: Int) -> GLuint {
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        uploadCoverage(bytes, width: w, rows: h, layers: tiles, into: texture)
        return texture
    }

    private func upload(_ bytes: [UInt8], _ w: Int, _ h: Int, format: Int32, layout: Int32) -> GLuint {
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, format, GLsizei(w), GLsizei(h), 0, GLenum(layout), GLenum(GL_UNSIGNED_BYTE), bytes)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_BORDER)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_BORDER)
        var transparent: [GLfloat] = [0, 0, 0, 0]
        glTexParameterfv(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_BORDER_COLOR), &transparent)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        return texture
    }

    /// The shader variant an item needs: bits 0-1 its source (polygon,
    /// coverage picture, colour picture), 4 a gradient, 8 a mask over it, 16 drawn into a mask,
    /// 32 a rectangle's coverage (`rect`), 64 a blend mode's equation (`advancedBlend`).
    private static func variant(_ contents: Contents?, masked: Bool, asMask: Bool, blendEquation: Bool = false) -> Int? {
        sourceBits(contents).map { variant(bits: $0, masked: masked, asMask: asMask, blendEquation: blendEquation) }
    }

    /// A variant's bits for what the contents are: their source and paint (nil: no contents).
    fileprivate static func sourceBits(_ contents: Contents?) -> Int? {
        var v: Int
        switch contents {
        case let .shape(shape)?:
            if case .fixed = shape.path { v = 1 } else { v = 0 }
            switch shape.fill {
            case .linearGradient, .gradient: v |= 4
            case .solid: break
            }
        case .box?: v = 0
        case .picture?: v = 2
        case nil: return nil
        }
        return v
    }

    /// The variant of source bits `bits` drawn so.
    private static func variant(bits: Int, masked: Bool, asMask: Bool, blendEquation: Bool) -> Int {
        var v = bits
        if masked { v |= 8 }
        if asMask { v |= 16 }
        if blendEquation { v |= advancedBlend }
        return v
    }

    /// Whether an item of this blend mode draws by an advanced blend equation (add blends by plain factors).
    private func blendsByEquation(_ blend: BlendMode) -> Bool { advancedBlending && blend != .normal && blend != .add }

    /// The background under what this page holds (a tree that blends drew over transparency):
    /// its premultiplied colour where the page is clear, by (1 - destination alpha, 1).
    func drawBackgroundUnder(_ background: RGBA8, viewport: Viewport, pageTop: Int) {
        guard useRectangle(Self.rect, viewport: viewport, pageTop: pageTop, covering: true, color: background) else { return }
        glDisable(GLenum(GL_SCISSOR_TEST))
        glBlendFunc(GLenum(GL_ONE_MINUS_DST_ALPHA), GLenum(GL_ONE))
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        blendPremultiplied()
    }

    /// Makes variant `v`'s rectangle program current (`RECT`: a colour over a rectangle), covering the whole page or
    /// none of it; false where the variant was not made.
    private func useRectangle(_ v: Int, viewport: Viewport, pageTop: Int, covering: Bool, color: RGBA8 = RGBA8(255, 255, 255)) -> Bool {
        guard let program = programs[v] else { return false }
        glUseProgram(program.program.id)
        programInUse = program.program.id
        glUniform4f(program.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(program.pageTop, GLint(pageTop))
        glUniform1f(program.opacity, 1)
        glUniform1i(program.invertsCoverage, 0)
        glUniform4f(program.color, GLfloat(color.r) / 255, GLfloat(color.g) / 255, GLfloat(color.b) / 255, GLfloat(color.a) / 255)
        let extent: GLfloat = covering ? 1e9 : 0
        glUniform4f(program.rect, -extent, -extent, extent, extent)
        return true
    }

    /// The blending for an item of `blend` (premultiplied source over for normal).
    private static func setItemBlend(_ blend: BlendMode, advanced: Bool) {
        switch blend {
        case .normal: blendPremultiplied()
        case .add: glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
        default:
            guard advanced else { return }
            glBlendEquation(GLenum(equation(blend)))
        }
    }

    /// KHR_blend_equation_advanced's equation for a mode (the W3C's, as `BlendMode` defines them).
    private static func equation(_ blend: BlendMode) -> Int32 {
        switch blend {
        case .multiply: GL_MULTIPLY_KHR
        case .screen: GL_SCREEN_KHR
        case .overlay: GL_OVERLAY_KHR
        case .darken: GL_DARKEN_KHR
        case .lighten: GL_LIGHTEN_KHR
        case .colorDodge: GL_COLORDODGE_KHR
        case .colorBurn: GL_COLORBURN_KHR
        case .hardLight: GL_HARDLIGHT_KHR
        case .softLight: GL_SOFTLIGHT_KHR
        case .difference: GL_DIFFERENCE_KHR
        case .exclusion: GL_EXCLUSION_KHR
        case .hue: GL_HSL_HUE_KHR
        case .saturation: GL_HSL_SATURATION_KHR
        case .color: GL_HSL_COLOR_KHR
        case .luminosity: GL_HSL_LUMINOSITY_KHR
        case .normal, .add: GL_FUNC_ADD
        }
    }

    /// Compiles shader variant `v` (`variant(_:masked:asMask:blendEquation:)`).
    private func makeProgram(_ v: Int) throws {
        var defines: [String] = []
        if v & 3 == 1 { defines.append("PICTURE_COVERAGE") }
        if v & 3 == 2 { defines.append("PICTURE_RGBA") }
        if v & 4 != 0 { defines.append("GRADIENT") }
        if v & 8 != 0 { defines.append("MASKED") }
        if v & 16 != 0 { defines.append("AS_MASK") }
        if v & Self.rect != 0 { defines.append("RECT") }
        if v & Self.advancedBlend != 0 { defines.append("ADVANCED_BLEND") }
        if v & Self.supersampled != 0 { defines.append("SUPERSAMPLED") }
        if v & Self.maskPicture != 0 { defines.append("MASK_PICTURE") }
        if v & Self.maskPolygon != 0 { defines.append("MASK_POLYGON") }
        let program = try ShaderProgram(vertex: "layer.vert.glsl", fragment: "item.frag.glsl", defines: defines)
        let mask = v & (Self.maskPicture | Self.maskPolygon) != 0 ? GLMaskInPlace.Uniforms(program) : nil
        glUseProgram(program.id)
        for (name, unit) in [("u_picture", 0), ("u_tiles", 0), ("u_edges", 1), ("u_entries", 2), ("u_rows", 3), ("u_mask", 4), ("u_ramp", 5)] {
            glUniform1i(program.uniform(name), GLint(unit))
        }
        glUseProgram(0)
        programs[v] = Program(program: program, viewport: program.uniform("u_viewport"), pageTop: program.uniform("u_pageTop"),
                              color: program.uniform("u_color"), opacity: program.uniform("u_opacity"),
                              colorB: program.uniform("u_colorB"), gradient: program.uniform("u_gradient"),
                              inverseX: program.uniform("u_inverseX"), inverseY: program.uniform("u_inverseY"),
                              pictureSize: program.uniform("u_pictureSize"), rowBase: program.uniform("u_rowBase"),
                              firstRow: program.uniform("u_firstRow"), firstColumn: program.uniform("u_firstColumn"),
                              buckets: program.uniform("u_buckets"), whole: program.uniform("u_whole"),
                              tileStep: program.uniform("u_tileStep"), phases: program.uniform("u_phases"),
                              phase: program.uniform("u_phase"), rect: program.uniform("u_rect"),
                              gradientV: program.uniform("u_gradientV"), focus: program.uniform("u_focus"), gradientKind: program.uniform("u_gradientKind"),
                              evenOdd: program.uniform("u_evenOdd"),
                              invertsCoverage: program.uniform("u_invertsCoverage"), mask: mask)
    }

    private func makePrograms(_ layer: Layer, masked: Bool, asMask: Bool, inMask: Bool = false, blend inherited: BlendMode = .normal) throws {
        let masked = masked || layer.mask != nil
        // A mask's layers never blend (a luminance mask's draw in colour, by the plain programs).
        let blend = asMask || inMask ? .normal : layer.blendMode == .normal ? inherited : layer.blendMode
        let base = Self.variant(layer.contents, masked: masked && !asMask, asMask: asMask, blendEquation: blendsByEquation(blend))
        var needed = base.map { [$0] } ?? []
        if let base, splitsBoxes, case .box? = layer.contents { needed.append(base | Self.rect) }
        // A mask layer whose fold reaches past its area has the rest of the page folded by a rectangle.
        if asMask && layer.maskMode.mayReachUncovered(inverted: layer.invertsMaskCoverage) { needed.append(Self.maskRectangle) }
        // Under a mask that may be read in place: the same, reading it so.
        if masked && !asMask {
            let plain = needed
            if masksInPlace.pictures { needed += plain.map { $0 | Self.maskPicture } }
            if masksInPlace.polygons { needed += plain.map { $0 | Self.maskPolygon } }
        }
        for v in needed where programs[v] == nil { try makeProgram(v) }
        if let mask = layer.mask { try makePrograms(mask, masked: false, asMask: !layer.masksByLuminance, inMask: true) }
        for sublayer in layer.sublayers { try makePrograms(sublayer, masked: masked, asMask: asMask, inMask: inMask, blend: blend) }
    }

    /// The most points and row slots a frame's polygons can need (held to
    /// a million points: past that a frame may still grow the storage).
    private func reservePolygons() {
        var points = 0, slots = 0
        let inPicture = evaluator.insideRasterized + [Bool](repeating: false, count: evaluator.maskNodes.count)
        // A layer under replicators is drawn once a copy: its polygon as many times.
        var copies = [Int](repeating: 1, count: evaluator.nodes.count + evaluator.maskNodes.count)
        for (i, node) in evaluator.nodes.enumerated() {
            guard let r = node.layer.replicator, !node.drawsCopies else { continue }
            for j in (i + 1)..<node.subtreeEnd { copies[j] = Swift.min(1 << 20, copies[j] * Swift.max(1, r.count)) }
        }
        for (i, node) in (evaluator.nodes + evaluator.maskNodes).enumerated() where !inPicture[i] {
            switch node.layer.contents {
            case let .shape(shape)?:
                if case let .dynamic(path) = shape.path {
                    points += path.maxPoints * copies[i]
                    slots += height * PolygonRows.buckets(0..<width)
                }
            case .box?:
                points += 2 * 4 * 258
                slots += Swift.min(height, Int(node.layer.size.height * 4) + 4) * PolygonRows.buckets(0..<Swift.min(width, Int(node.layer.size.width * 4) + 4))
            default: break
            }
        }
        polygons.reserve(points: Swift.min(points, 1 << 20), rows: Swift.min(slots, 1 << 22),
                         slots: evaluator.capacity.items + evaluator.capacity.maskItems)
    }

    // MARK: Every frame

    /// Evaluates the tree, makes this frame's polygons and uploads them.
    func prepareFrame(time: Double) {
        clipCopies?.prepareFrame(time: time)
        // Where every item is a clip's copy, the copies know all the frame needs.
        if clipCopies?.drawsEveryItem == true { return }
        evaluator.evaluate(at: time, into: &list)
        copies?.prepareFrame(list)
        polygons.startFrame()
        rasterPictures?.begin()
        instanceRuns?.begin()
        plan(list.items, mask: false, into: &planned, mechanisms: &mechanisms)
        plan(list.maskItems, mask: true, into: &plannedMasks, mechanisms: &maskMechanisms)
        findMasksReadInPlace()
        polygons.endFrame()
        rasterPictures?.upload()
        instanceRuns?.upload()
        uploadPolygonTables()
        maskOnPage = -1
    }

    /// This frame's polygon tables into the set of textures the last frame's draws did not read; the other
    /// set grown with it, so both grow on the same frames (the frames that allocate).
    private func uploadPolygonTables() {
        tableSet = 1 - tableSet
        let set = tableSet, other = 1 - tableSet
        Self.makeRoom(polygonTextures[other].edges, rows: &polygonTextures[other].edgeRows, texels: polygons.edges.count / 4,
                      format: GL_RGBA32F, layout: GL_RGBA, type: GL_FLOAT)
        Self.makeRoom(polygonTextures[other].entries, rows: &polygonTextures[other].entryRows, texels: polygons.entries.count,
                      format: GL_R32I, layout: GL_RED_INTEGER, type: GL_INT)
        Self.makeRoom(polygonTextures[other].rows, rows: &polygonTextures[other].rowRows, texels: polygons.rows.count / 4,
                      format: GL_RGBA32I, layout: GL_RGBA_INTEGER, type: GL_INT)
        Self.upload(polygons.edges, into: polygonTextures[set].edges, rows: &polygonTextures[set].edgeRows, components: 4,
                    format: GL_RGBA32F, layout: GL_RGBA, type: GL_FLOAT)
        Self.upload(polygons.entries, into: polygonTextures[set].entries, rows: &polygonTextures[set].entryRows, components: 1,
                    format: GL_R32I, layout: GL_RED_INTEGER, type: GL_INT)
        Self.upload(polygons.rows, into: polygonTextures[set].rows, rows: &polygonTextures[set].rowRows, components: 4,
                    format: GL_RGBA32I, layout: GL_RGBA_INTEGER, type: GL_INT)
    }

    /// This frame's items (after `prepareFrame(time:)`), each with the
    /// mechanism its plan chose and why, as `waves render --explain` lists them.
    func explain(time: Double) -> [ItemPlan] {
        prepareFrame(time: time)
        // Where the clips' copies draw every item, the plan was not made: the list is evaluated here.
        if clipCopies?.drawsEveryItem == true { evaluator.evaluate(at: time, into: &list) }
        var out: [ItemPlan] = []
        for (mask, items, chosen) in [(false, list.items, mechanisms), (true, list.maskItems, maskMechanisms)] {
            for (i, item) in items.enumerated() {
                let layer = evaluator.node(of: item, mask: mask).layer
                // Where the clips' copies draw every item, no plan was made: each is a clip's copy.
                let copied = !mask && clipCopies?.draws(item.layer) == true
                let byClips: GLMechanism = clipCopies?.drawsByLookup == true ? .clipLookup : .clipCopy
                let chosenMechanism = i < chosen.count ? chosen[i] : copied ? byClips : .notDrawn
                let (mechanism, reason) = explanation(item, chosenMechanism)
                out.append(ItemPlan(item: out.count, layer: layer.name + (mask ? " (mask)" : ""), primitive: item.primitive.name,
                                    mechanism: mechanism, reason: reason, cached: chosenMechanism.drawsAPictureMadeOnce,
                                    redrawnEveryFrame: chosenMechanism == .polygonRows || chosenMechanism == .maskPolygonInPlace))
            }
        }
        return out
    }

    /// The mechanism chosen for an item and why (`GLPlan.swift`), a phased picture naming its phases.
    private func explanation(_ item: PresentationItem, _ mechanism: GLMechanism) -> (String, String) {
        var (name, reason) = (mechanism.name, mechanism.reason)
        if mechanism == .phasedPicture {
            let phases = item.content >= 0 && item.content < pictures.count ? pictures[item.content]?.phases ?? 1 : 1
            name = "coverage picture, \(phases) phases"
        }
        // A blend mode rides on the draw: its equation, add's factors, or (without the extension) none.
        switch item.blend {
        case .normal: break
        case .add: (name, reason) = (name + ", added", reason + "; blended by adding (ONE, ONE)")
        default:
            if advancedBlending {
                (name, reason) = (name + ", \(item.blend.rawValue)", reason + "; blended by KHR_blend_equation_advanced's \(item.blend.rawValue)")
            } else {
                (name, reason) = (name + ", unblended", reason + "; drawn as normal: this driver has no KHR_blend_equation_advanced for \(item.blend.rawValue)")
            }
        }
        return (name, reason)
    }

    /// Each item's mechanism, as the policy chooses it from what is known of
    /// the item (`DriverPolicy.mechanism(for:)`, GLPlan.swift), and what
    /// that mechanism draws, prepared: polygons, a split, a clear, state rows.
    private func plan(_ items: [PresentationItem], mask: Bool, into planned: inout [Planned?], mechanisms: inout [GLMechanism]) {
        planned.removeAll(keepingCapacity: true)
        mechanisms.removeAll(keepingCapacity: true)
        var i = 0
        while i < items.count {
            let item = items[i]
            i += 1
            // Its node only where a box or a changing outline needs it (a lookup that retains it); its picture once.
            func node() -> LayerTreeEvaluator.Node { evaluator.node(of: item, mask: mask) }
            let picture = item.content >= 0 && item.content < pictures.count ? pictures[item.content] : nil
            let contents = mask ? maskContentFacts[item.layer] : contentFacts[item.layer]
            var facts = ItemFacts(item.primitive)
            facts.copyableInClip = !mask && (clipCopies?.draws(item.layer) ?? false)
            let placed = facts.copyableInClip || item.primitive == .rasterized || item.primitive == .copies
            let area = placed ? nil : evaluator.area(of: item, mask: mask, width: width, height: height)
            // A luminance mask's items draw in colour (as the tree's do), an alpha mask's their alpha.
            let asMask = mask && !maskReads(i - 1).luminance
            var variant = placed || contents.bits < 0 ? -1
                : Self.variant(bits: contents.bits, masked: item.mask >= 0 && !mask, asMask: asMask, blendEquation: !mask && blendsByEquation(item.blend))
            if variant >= 0, variant & 3 == 1, let picture, picture.scale != 1 {
                variant |= Self.supersampled
            }
            facts.inFrame = area != nil && variant >= 0
            var clear: (alpha: Double, rows: Range<Int>, columns: Range<Int>)?
            var split: BoxSplit?
            if facts.inFrame, contents.isBox, case let .box(box)? = node().layer.contents {
                if asMask && !maskReads(i - 1).inverted && node().layer.maskMode == .add && !node().layer.invertsMaskCoverage {
                    clear = Self.wholePixelBox(item, box, first: i - 1 == firstMaskItem(of: i - 1))
                }
                if clear == nil, item.primitive == .box, splitsBoxes { split = BoxSplit(item, box) }
            }
            facts.clearsAsMask = clear != nil
            facts.splittable = split != nil
            if item.primitive == .fixedShape, item.content >= 0, item.content < pictures.count {
                facts.phases = picture?.phases ?? 1
                // An empty path has no picture: nothing to draw (and nothing to end a run of instances).
                if picture == nil { facts.inFrame = false }
            }
            // A fixed path in the coverage atlas, filled with a solid colour by the normal blend: an instance of its run.
            var instance = PictureSampling()
            var instanceColor = ColorValue(r: 0, g: 0, b: 0, a: 0)
            if facts.inFrame, !mask, contents.solid, item.primitive == .fixedShape, item.blend == .normal, instanceRuns != nil,
               let coverageInstances,
               coverageInstances.holds(item.content), let picture, sampling(item, picture, into: &instance),
               abs(instance.wholeX) < GLCoverageInstances.wholeLimit, abs(instance.wholeY) < GLCoverageInstances.wholeLimit {
                facts.instanceable = true
                instanceColor = ItemPaint.solidColor(contents.color, animated: contents.animatedColor, item)
            }
            let mechanism = policy.mechanism(for: facts)
            mechanisms.append(mechanism)
            switch mechanism {
            case .clipCopy, .clipLookup:
                planned.append(nil)
                continue
            case .atlasInstance:
                guard let rasterPictures else { planned.append(nil); continue }
                // Its instance (its number in `fill`), drawn with its run; the scissor is its clip.
                let clip = evaluator.area(of: Self.clipOnly(item), width: width, height: height)
                planned.append(Planned(rows: clip?.rows ?? 0..<0, columns: clip?.columns ?? 0..<0, variant: -1,
                                       fill: rasterPictures.count, border: -1))
                rasterPictures.add(item)
                continue
            case .copiesStatePass:
                // Its copies' state rows (evaluated this frame) in place of polygons.
                let area = evaluator.area(of: item, mask: mask, width: width, height: height)
                let state = copies?.stateRow(of: i - 1, mask: mask) ?? -1
                planned.append(area.map { Planned(rows: $0.rows, columns: $0.columns, variant: -1, fill: state, border: -1) })
                continue
            default:
                break
            }
            guard let area, variant >= 0 else {
                planned.append(nil)
                continue
            }
            var p = Planned(rows: area.rows, columns: area.columns, variant: variant, fill: -1, border: -1)
            switch mechanism {
            case .scissoredClear:
                if let clear {
                    p.clearsTo = clear.alpha
                    p.rows = clear.rows.clamped(to: p.rows)
                    p.columns = clear.columns.clamped(to: p.columns)
                }
            case .coverageInstance:
                if let coverageInstances, let instanceRuns {
                    p.instance = instanceRuns.count
                    coverageInstances.add(content: item.content, instance, color: instanceColor, opacity: item.opacity, rows: area.rows,
                                          columns: area.columns, to: instanceRuns)
                }
            case .polygonRows:
                if let held = node().shape, case let .dynamic(path) = held.value.path {
                    // The same outline on the same pixels as the last frame: its rows copied, not made again.
                    let slot = mask ? evaluator.capacity.items + i - 1 : i - 1
                    let outline = path.outlineIdentity(item.input)
                    var identity = 0
                    if let outline { identity = outline }
                    let key = KeptCoverage.Key(node: item.layer, outline: identity, transform: item.transform, area: area, evenOdd: false)
                    if outline != nil, let base = polygons.copyKept(slot: slot, key: key) {
                        p.fill = base
                    } else {
                        polygons.begin()
                        polygonSink.transform = item.transform
                        if let stored = path.storedOutline(item.input) {
                            stored.emit(into: polygonSink)
                        } else {
                            path.outline(item.input, scratch: evaluator.scratch, into: polygonSink)
                        }
                        p.fill = polygons.finish(rows: area.rows, columns: area.columns)
                        if outline != nil { polygons.keep(slot: slot, key: key) }
                    }
                    // A solid colour by the normal blend, in the tree: an instance of its run.
                    if !mask, contents.solid, item.blend == .normal, let instanceRuns {
                        p.instance = instanceRuns.count
                        instanceRuns.addPolygon(rowBase: p.fill, rows: area.rows, columns: area.columns,
                                        color: ItemPaint.solidColor(contents.color, animated: contents.animatedColor, item),
                                        opacity: item.opacity, evenOdd: contents.evenOdd)
                    }
                }
            case .splitBox, .boxPolygon, .borderPolygon:
                guard case let .box(box)? = node().layer.contents else { break }
                if item.primitive == .box {
                    polygons.begin()
                    PrimitiveOutlines.addRoundedRect(item.bounds, radius: box.cornerRadius, item.transform, into: polygons)
                    p.fill = polygons.finish(rows: area.rows, columns: area.columns)
                    p.split = split
                }
                if item.primitive == .boxBorder || item.drawsBorder {
                    polygons.begin()
                    PrimitiveOutlines.addBorder(item.bounds, radius: box.cornerRadius, width: box.borderWidth, item.transform,
                                                into: polygons)
                    p.border = polygons.finish(rows: area.rows, columns: area.columns)
                }
            default:
                break
            }
            planned.append(p)
        }
    }

    /// The kinds of mask of the tree that may be read in place (`GLMaskInPlace`): alpha masks whose layers hold
    /// one content, a path of a solid colour (fixed: a picture; dynamic: a polygon), added (its coverage
    /// inverted or not). The frame decides (`findMasksReadInPlace`).
    private static func masksMayBeReadInPlace(_ evaluator: LayerTreeEvaluator, facts: [ContentFacts]) -> GLMaskInPlace.Kinds {
        var kinds = GLMaskInPlace.Kinds()
        for node in evaluator.nodes where node.maskRoot >= 0 && !node.layer.masksByLuminance {
            let drawn = (node.maskRoot..<evaluator.maskNodes[node.maskRoot].subtreeEnd).filter { evaluator.maskNodes[$0].content >= 0 }
            guard drawn.count == 1, let m = drawn.first, facts[m].solid, evaluator.maskNodes[m].layer.maskMode == .add else { continue }
            if facts[m].bits == 1 { kinds.pictures = true }
            if facts[m].bits == 0 { kinds.polygons = true }
        }
        return kinds
    }

    /// Which of this frame's masks each draw they mask reads in place (`masksReadInPlace`): an alpha mask,
    /// nested in no other, of one item, a path of a solid colour (a fixed path read from its coverage tiles, a
    /// dynamic one from its rows in the polygon tables), added (1 less its coverage where the mask or the layer
    /// is inverted, not both); and only where every item under it is drawn by a program that can read it so
    /// (not a rasterized layer's picture, nor a replicator's copies).
    private func findMasksReadInPlace() {
        masksReadInPlace.removeAll(keepingCapacity: true)
        var m = 0
        while m < list.masks.count {
            masksReadInPlace.append(masksInPlace.any ? maskReadInPlace(m) : nil)
            m += 1
        }
        guard masksInPlace.any else { return }
        var i = 0
        while i < list.items.count {
            defer { i += 1 }
            let mask = list.items[i].mask
            guard mask >= 0, mask < masksReadInPlace.count, let read = masksReadInPlace[mask], let p = planned[i] else { continue }
            let bit = read.polygon ? Self.maskPolygon : Self.maskPicture
            let readable: Bool
            switch mechanisms[i] {
            case .coverageInstance, .polygonRows, .filteredPicture, .phasedPicture, .rgbaPicture, .boxPolygon, .borderPolygon:
                readable = p.instance >= 0 || programs[p.variant | bit] != nil
            case .splitBox:
                readable = programs[p.variant | bit] != nil && programs[p.variant | Self.rect | bit] != nil
            default:
                readable = false
            }
            if !readable { masksReadInPlace[mask] = nil }
        }
        // Their items are drawn by nothing of their own.
        m = 0
        while m < masksReadInPlace.count {
            if let read = masksReadInPlace[m] {
                maskMechanisms[list.masks[m].items.lowerBound] = read.polygon ? .maskPolygonInPlace : .maskPictureInPlace
            }
            m += 1
        }
    }

    /// Mask `m` read in place, where it can be (`findMasksReadInPlace`).
    private func maskReadInPlace(_ m: Int) -> GLMaskInPlace? {
        let range = list.masks[m]
        guard !range.luminance, range.parent < 0, range.items.count == 1 else { return nil }
        let i = range.items.lowerBound
        let item = list.maskItems[i], facts = maskContentFacts[item.layer], fold = maskNodeFolds[item.layer]
        guard facts.solid, fold.mode == .add, let p = plannedMasks[i], p.variant & 4 == 0 else { return nil }
        let alpha = ItemPaint.solidColor(facts.color, animated: facts.animatedColor, item).a / 255 * item.opacity
        // An inverted layer in an inverted mask folds to the layer's own coverage.
        let inverted = range.inverted != fold.inverted
        if item.primitive == .dynamicShape {
            guard masksInPlace.polygons, maskMechanisms[i] == .polygonRows, p.variant & 3 == 0, p.fill >= 0 else { return nil }
            return GLMaskInPlace(rowBase: p.fill, evenOdd: facts.evenOdd, rows: p.rows, columns: p.columns, alpha: alpha, inverted: inverted)
        }
        guard masksInPlace.pictures, item.primitive == .fixedShape, p.variant & 3 == 1,
              maskMechanisms[i] == .filteredPicture || maskMechanisms[i] == .phasedPicture,
              item.content >= 0, item.content < pictures.count, let picture = pictures[item.content], picture.tileStep > 0
        else { return nil }
        var sampling = PictureSampling()
        guard self.sampling(item, picture, into: &sampling) else { return nil }
        return GLMaskInPlace(tiles: picture.texture, tileStep: picture.tileStep, phases: picture.phases,
                             fourTaps: p.variant & Self.supersampled != 0, sampling: sampling,
                             rows: p.rows, columns: p.columns, alpha: alpha, inverted: inverted)
    }

    /// Whether mask item `index` belongs to an inverted mask, and to a luminance mask.
    private func maskReads(_ index: Int) -> (inverted: Bool, luminance: Bool) {
        // A while loop: in a debug build a closure or a for-in loop here allocates every frame.
        var m = 0
        while m < list.masks.count {
            if list.masks[m].items.contains(index) { return (list.masks[m].inverted, list.masks[m].luminance) }
            m += 1
        }
        return (false, false)
    }

    /// The first item of the mask holding mask item `index`.
    private func firstMaskItem(of index: Int) -> Int {
        var m = 0
        while m < list.masks.count {
            if list.masks[m].items.contains(index) { return list.masks[m].items.lowerBound }
            m += 1
        }
        return -1
    }

    /// A mask box whose coverage is its alpha on whole pixels and nothing
    /// elsewhere (square corners, no border, its edges on pixel edges): its
    /// alpha and pixels, where a clear gives what compositing it would (it
    /// is its mask's first item, or opaque); else nil.
    private static func wholePixelBox(_ item: PresentationItem, _ box: Box, first: Bool)
        -> (alpha: Double, rows: Range<Int>, columns: Range<Int>)? {
        let m = item.transform
        guard item.primitive == .box, box.cornerRadius == 0, box.borderWidth == 0, m.isAxisAligned, m.a > 0, m.d > 0 else { return nil }
        let r = item.bounds
        let x0 = m.a * r.x + m.tx, x1 = m.a * r.maxX + m.tx, y0 = m.d * r.y + m.ty, y1 = m.d * r.maxY + m.ty
        @inline(__always) func whole(_ v: Double) -> Bool { v.isFinite && v == v.rounded() && abs(v) < 1e9 }
        guard whole(x0), whole(x1), whole(y0), whole(y1), x0 <= x1, y0 <= y1 else { return nil }
        let alpha = item.color.a / 255 * item.tint.a * item.opacity
        guard first || alpha >= 1 else { return nil }
        return (alpha, Int(y0)..<Int(y1), Int(x0)..<Int(x1))
    }

    /// An item reaching everywhere its clip lets it (its area is its clip's).
    private static func clipOnly(_ item: PresentationItem) -> PresentationItem {
        var wide = item
        wide.primitive = .copies
        return wide
    }

    /// Rows of `tableWidth` texels; the texture grows (never shrinks) to the largest frame.
    static func upload<T>(_ values: [T], into texture: GLuint, rows: inout Int, components: Int, format: Int32, layout: Int32,
                           type: Int32) {
        values.withUnsafeBufferPointer { upload($0, into: texture, rows: &rows, components: components, format: format, layout: layout, type: type) }
    }

    /// Storage in `texture` for `texels` in rows of `tableWidth` where it has less (at least one row; the rows
    /// doubled as it grows, so few frames grow it).
    static func makeRoom(_ texture: GLuint, rows: inout Int, texels: Int, format: Int32, layout: Int32, type: Int32) {
        let needed = Swift.max(1, (texels + Self.tableWidth - 1) / Self.tableWidth)
        guard needed > rows else { return }
        rows = Swift.max(needed, rows * 2)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, format, GLsizei(Self.tableWidth), GLsizei(rows), 0, GLenum(layout), GLenum(type), nil)
    }

    /// The same from memory the caller keeps (a table written in place every frame).
    static func upload<T>(_ buffer: UnsafeBufferPointer<T>, into texture: GLuint, rows: inout Int, components: Int, format: Int32,
                          layout: Int32, type: Int32) {
        let texels = buffer.count / components
        // Nothing to send this frame (a tree of fixed shapes only): no GL call at all.
        if texels == 0 && rows > 0 { return }
        makeRoom(texture, rows: &rows, texels: texels, format: format, layout: layout, type: type)
        guard texels > 0 else { return }
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        let full = texels / Self.tableWidth, rest = texels % Self.tableWidth
        if full > 0 {
            glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(Self.tableWidth), GLsizei(full), GLenum(layout), GLenum(type),
                            buffer.baseAddress)
        }
        if rest > 0 {
            glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, GLint(full), GLsizei(rest), 1, GLenum(layout), GLenum(type),
                            buffer.baseAddress! + full * Self.tableWidth * components)
        }
    }

    func draw(time: Double, viewport: Viewport, pageTop: Int) {
        // Sole clips first: nothing else reaches them, so the order is free.
        clipCopies?.drawAll(viewport: viewport, pageTop: pageTop)
        if clipCopies?.drawsEveryItem == true { return }
        // Other drawers (and masks, and the copies) change the program and units 0 to 2 between draws.
        programInUse = 0
        pictureBound = 0
        if !polygons.rows.isEmpty {
            glActiveTexture(GLenum(GL_TEXTURE1)); glBindTexture(GLenum(GL_TEXTURE_2D), polygonTextures[tableSet].edges)
            glActiveTexture(GLenum(GL_TEXTURE2)); glBindTexture(GLenum(GL_TEXTURE_2D), polygonTextures[tableSet].entries)
            glActiveTexture(GLenum(GL_TEXTURE3)); glBindTexture(GLenum(GL_TEXTURE_2D), polygonTextures[tableSet].rows)
        }
        maskOnPage = -1
        paintsThisFrame = 0
        maskFoldsThisFrame = 0
        // Blending is set up at the first item drawn (copies neither blend nor read the state).
        var blendingSet = false
        var i = 0
        while i < list.items.count {
            defer { i += 1 }
            if let clipCopies, clipCopies.draws(list.items[i].layer) { continue }
            guard let p = planned[i] else { continue }
            if !blendingSet { blendPremultiplied(); blendingSet = true }
            let item = list.items[i]
            if item.mask >= 0 && item.mask != maskOnPage {
                if let read = masksReadInPlace[item.mask] {
                    read.bind()
                    maskOnPage = item.mask
                } else {
                    drawMask(item.mask, viewport: viewport, pageTop: pageTop)
                }
            }
            if item.primitive == .rasterized {
                i = drawRasterRun(from: i, p, viewport: viewport, pageTop: pageTop)
                continue
            }
            if p.instance >= 0 {
                i = drawRun(from: i, p, viewport: viewport, pageTop: pageTop)
                continue
            }
            drawItem(item, p, mask: false, viewport: viewport, pageTop: pageTop)
        }
        if blendingSet {
            glDisable(GLenum(GL_SCISSOR_TEST))
            glActiveTexture(GLenum(GL_TEXTURE0))
        }
    }

    /// Counting: the pictures the CPU painted again this frame, and where
    /// the items drawn from them lie in the frame (the box their pictures'
    /// rectangles reach, inside their clips), as updated.
    func countSoftwarePaint(into counts: PixelCounts) {
        guard clipCopies?.drawsEveryItem != true, let rasterPictures else { return }
        counts.totals.rasterized += rasterPictures.pixelsPaintedThisFrame
        counts.totals.offscreen += rasterPictures.pixelsPaintedThisFrame
        for item in list.items where item.primitive == .rasterized && rasterPictures.wasPaintedThisFrame(item.content) {
            guard let reach = evaluator.reach(of: item)?.intersection(item.clip), !reach.isEmpty else { continue }
            @inline(__always) func pixel(_ v: Double, up: Bool) -> Int { Int(Swift.min(Swift.max(up ? v.rounded(.up) : v.rounded(.down), -1e9), 1e9)) }
            counts.markUpdated(rows: pixel(reach.y, up: false)..<pixel(reach.maxY, up: true),
                               columns: pixel(reach.x, up: false)..<pixel(reach.maxX, up: true))
        }
    }

    /// The rasterized items from `first` on that share its clip and mask, in
    /// one instanced draw; returns the last one's index.
    private func drawRasterRun(from first: Int, _ p: Planned, viewport: Viewport, pageTop: Int) -> Int {
        let item = list.items[first]
        var last = first
        while last + 1 < list.items.count, list.items[last + 1].primitive == .rasterized, list.items[last + 1].clip == item.clip,
              list.items[last + 1].mask == item.mask {
            last += 1
        }
        guard let rasterPictures, setScissor(p.rows, p.columns, viewport, pageTop) else { return last }
        glEnable(GLenum(GL_SCISSOR_TEST))
        // Every instance from the first item's to the last one's last tile.
        let end = (planned[last]?.fill ?? p.fill) + rasterPictures.instances(of: list.items[last].content)
        rasterPictures.draw(first: p.fill, end - p.fill, masked: item.mask >= 0, viewport: viewport, pageTop: pageTop)
        // It used the polygon tables' units and unit 0: bind them again for the items after it.
        programInUse = 0
        pictureBound = 0
        if !polygons.rows.isEmpty {
            glActiveTexture(GLenum(GL_TEXTURE1)); glBindTexture(GLenum(GL_TEXTURE_2D), polygonTextures[tableSet].edges)
            glActiveTexture(GLenum(GL_TEXTURE2)); glBindTexture(GLenum(GL_TEXTURE_2D), polygonTextures[tableSet].entries)
        }
        return last
    }

    /// The items from `first` on drawn as instances of a run (`GLInstanceRuns`: coverage instances and
    /// polygons; of its kind, or of either where the policy mixes them) that share its mask, in one draw
    /// (items between them that draw nothing here, none or a clip's copy drawn first, are passed over);
    /// returns the last one's index.
    private func drawRun(from first: Int, _ p: Planned, viewport: Viewport, pageTop: Int) -> Int {
        let mask = list.items[first].mask
        var last = first, next = first + 1
        // The kinds the run holds: its programs read only those.
        var kinds = mechanisms[first] == .coverageInstance ? GLInstanceRuns.pictures : GLInstanceRuns.polygons
        while next < list.items.count {
            let mechanism = mechanisms[next]
            if mechanism == .coverageInstance || mechanism == .polygonRows {
                guard list.items[next].mask == mask, let q = planned[next], q.instance >= 0,
                      policy.mixesRunKinds || mechanism == mechanisms[first] else { break }
                kinds |= mechanism == .coverageInstance ? GLInstanceRuns.pictures : GLInstanceRuns.polygons
                last = next
            } else if mechanism != .notDrawn && mechanism != .clipCopy && mechanism != .clipLookup {
                break
            }
            next += 1
        }
        let n = (planned[last]?.instance ?? p.instance) + 1 - p.instance
        let read = mask >= 0 ? masksReadInPlace[mask] : nil
        instanceRuns?.draw(first: p.instance, n, kinds: kinds, masked: mask >= 0, inPlace: read,
                           atlas: coverageInstances?.atlasTexture ?? 0, viewport: viewport, pageTop: pageTop)
        paintsThisFrame += n
        programInUse = 0
        return last
    }

    /// The mask's coverage into the mask texture (a page in size), times the
    /// masks of the masked layers around it (each folded alone into the
    /// second texture, then multiplied in), then back to the page.
    private func drawMask(_ index: Int, viewport: Viewport, pageTop: Int) {
        if maskSize != (viewport.width, viewport.height) { makeMaskTarget(viewport.width, viewport.height) }
        var previous: GLint = 0
        glGetIntegerv(GLenum(GL_DRAW_FRAMEBUFFER_BINDING), &previous)
        let local = Viewport(x: 0, y: 0, width: viewport.width, height: viewport.height)
        glViewport(0, 0, GLsizei(local.width), GLsizei(local.height))
        foldMask(index, into: maskFramebuffer, viewport: local, pageTop: pageTop)
        var outer = list.masks[index].parent
        while outer >= 0, nestedFramebuffer != 0 {
            foldMask(outer, into: nestedFramebuffer, viewport: local, pageTop: pageTop)
            // The first texture times the second's coverage: a whole rectangle masked by it, blended (0, source alpha).
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), maskFramebuffer)
            glActiveTexture(GLenum(GL_TEXTURE4))
            glBindTexture(GLenum(GL_TEXTURE_2D), nestedTexture)
            guard useRectangle(Self.maskProduct, viewport: local, pageTop: pageTop, covering: true) else { break }
            glDisable(GLenum(GL_SCISSOR_TEST))
            glBlendFunc(GLenum(GL_ZERO), GLenum(GL_SRC_ALPHA))
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
            blendPremultiplied()
            counts?.totals.offscreen += local.width * local.height
            outer = list.masks[outer].parent
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(previous))
        glViewport(GLint(viewport.x), GLint(viewport.y), GLsizei(viewport.width), GLsizei(viewport.height))
        glActiveTexture(GLenum(GL_TEXTURE4))
        glBindTexture(GLenum(GL_TEXTURE_2D), maskTexture)
        maskOnPage = index
    }

    /// One mask's own coverage into `framebuffer` (the local page's size).
    private func foldMask(_ index: Int, into framebuffer: GLuint, viewport local: Viewport, pageTop: Int) {
        maskFoldsThisFrame += 1
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glDisable(GLenum(GL_SCISSOR_TEST))
        // An inverted mask starts covered everywhere, each item folded by its dual (MaskMode.dual).
        let inverted = list.masks[index].inverted
        let start: GLfloat = inverted ? 1 : 0
        glClearColor(start, start, start, start)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        counts?.totals.offscreen += local.width * local.height
        var i = list.masks[index].items.lowerBound
        while i < list.masks[index].items.upperBound {
            defer { i += 1 }
            let own = maskNodeFolds[list.maskItems[i].layer]
            // A luminance mask's layers draw over each other; inverted, from white, each in 1 less its colour.
            let (mode, inverts) = list.masks[index].luminance ? (.add, inverted)
                : inverted ? own.mode.dual(inverted: own.inverted) : own
            Self.setMaskBlend(mode)
            maskItemInverts = inverts
            let p = plannedMasks[i]
            if let p { drawItem(list.maskItems[i], p, mask: true, viewport: local, pageTop: pageTop) }
            if !list.masks[index].luminance && mode.reachesUncovered(inverted: inverts) {
                // The rest of the page: nothing covered there (everything, inverted), folded the same way.
                foldOutside(p.flatMap { PageArea(rows: $0.rows, columns: $0.columns, viewport: local, pageTop: pageTop) },
                            covered: inverts, viewport: local, pageTop: pageTop)
            }
        }
        maskItemInverts = false
        blendPremultiplied()
    }

    /// The blending that folds an item's coverage s (every channel) into the mask m by `mode` (MaskMode.combine).
    private static func setMaskBlend(_ mode: MaskMode) {
        // Adding is source over.
        if mode == .add { return blendPremultiplied() }
        glBlendEquation(GLenum(mode == .lighten ? GL_MAX : mode == .darken ? GL_MIN : GL_FUNC_ADD))
        // s is in every channel (its alpha too); the mask's m is its red.
        switch mode {
        case .add, .lighten, .darken: glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        case .subtract: glBlendFunc(GLenum(GL_ZERO), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        case .intersect: glBlendFunc(GLenum(GL_ZERO), GLenum(GL_SRC_ALPHA))
        case .difference: glBlendFunc(GLenum(GL_ONE_MINUS_DST_COLOR), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        }
    }

    /// Folds a constant coverage (all where `covered`, else none) into the mask over the page less `area`
    /// (up to four rectangles around it), by the blending set: a mask item's fold past its own area.
    private func foldOutside(_ area: PageArea?, covered: Bool, viewport: Viewport, pageTop: Int) {
        guard useRectangle(Self.maskRectangle, viewport: viewport, pageTop: pageTop, covering: covered) else { return }
        glEnable(GLenum(GL_SCISSOR_TEST))
        @inline(__always) func fold(_ rows: Range<Int>, _ columns: Range<Int>) {
            if !rows.isEmpty, !columns.isEmpty, setScissor(rows, columns, viewport, pageTop) { glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4) }
        }
        let page = pageTop..<(pageTop + viewport.height), columns = 0..<viewport.width
        guard let area else { return fold(page, columns) }
        let inside = area.rows, left = area.rect.x - viewport.x, right = left + area.rect.width
        fold(page.lowerBound..<inside.lowerBound, columns)
        fold(inside.upperBound..<page.upperBound, columns)
        fold(inside, 0..<Swift.max(0, left))
        fold(inside, Swift.min(viewport.width, right)..<viewport.width)
    }

    private func makeMaskTarget(_ w: Int, _ h: Int) {
        if maskTexture == 0 { glGenTextures(1, &maskTexture); glGenFramebuffers(1, &maskFramebuffer) }
        Self.makeTarget(maskTexture, maskFramebuffer, w, h)
        if masksNest {
            if nestedTexture == 0 { glGenTextures(1, &nestedTexture); glGenFramebuffers(1, &nestedFramebuffer) }
            Self.makeTarget(nestedTexture, nestedFramebuffer, w, h)
        }
        // On the mask's own unit: bound on another it would replace a polygon table the mask's items read.
        glActiveTexture(GLenum(GL_TEXTURE4))
        glBindTexture(GLenum(GL_TEXTURE_2D), maskTexture)
        maskSize = (w, h)
    }

    /// A mask texture of w x h and its framebuffer, made on the mask's unit.
    private static func makeTarget(_ texture: GLuint, _ framebuffer: GLuint, _ w: Int, _ h: Int) {
        glActiveTexture(GLenum(GL_TEXTURE4))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        // RGBA: a luminance mask's colours (an alpha mask writes its coverage to every channel, a grey).
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(w), GLsizei(h), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        var previous: GLint = 0
        glGetIntegerv(GLenum(GL_DRAW_FRAMEBUFFER_BINDING), &previous)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(previous))
    }

    private func drawItem(_ item: PresentationItem, _ p: Planned, mask asMask: Bool, viewport: Viewport, pageTop: Int) {
        // The item's rows on this page and its columns, as a scissor.
        guard let area = PageArea(rows: p.rows, columns: p.columns, viewport: viewport, pageTop: pageTop) else { return }
        // A blend mode: its equation (or add's factors) for this draw alone.
        let blended = !asMask && item.blend != .normal
        if blended { Self.setItemBlend(item.blend, advanced: advancedBlending) }
        defer { if blended { Self.setItemBlend(.normal, advanced: advancedBlending) } }
        let scissor = area.rect, first = area.rows.lowerBound, last = area.rows.upperBound
        glEnable(GLenum(GL_SCISSOR_TEST))
        area.setScissor()
        if let alpha = p.clearsTo {
            glClearColor(GLfloat(alpha), GLfloat(alpha), GLfloat(alpha), GLfloat(alpha))
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            if let counts {
                if asMask {
                    counts.totals.offscreen += scissor.width * scissor.height
                } else {
                    counts.write(rows: first..<last, columns: p.columns, blends: false, software: false)
                }
            }
            return
        }
        let node = evaluator.node(of: item, mask: asMask)
        if item.primitive == .copies {
            copies?.draw(item, replicator: item.layer, copying: node.layer.replicator, stateRow: p.fill, masked: item.mask >= 0,
                         viewport: viewport, pageTop: pageTop, scissor: scissor)
            programInUse = 0
            pictureBound = 0
            return
        }
        // Under a mask read in place: the variant that reads it, its uniforms set for this draw.
        let read = !asMask && item.mask >= 0 ? masksReadInPlace[item.mask] : nil
        var variant = p.variant
        if let read { variant |= read.polygon ? Self.maskPolygon : Self.maskPicture }
        guard let program = programs[variant] else { return }
        if programInUse != program.program.id {
            glUseProgram(program.program.id)
            programInUse = program.program.id
        }
        if let read, let uniforms = program.mask { read.set(uniforms) }
        glUniform4f(program.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(program.pageTop, GLint(pageTop))
        glUniform1f(program.opacity, GLfloat(item.opacity))
        // Written for every item: a luminance mask's items share the tree's colour programs.
        glUniform1i(program.invertsCoverage, asMask && maskItemInverts ? 1 : 0)
        if let held = node.shape {
            // The shape read in place through its node (`Node.shape`), never copied out.
            setPaint(ItemPaint(held.value, item), program)
            if case .fixed = held.value.path {
                drawPicture(item, program)
            } else {
                glUniform1i(program.evenOdd, held.value.fillRule == .evenOdd ? 1 : 0)
                drawPolygon(p.fill, p, program)
                glUniform1i(program.evenOdd, 0)
            }
            return
        }
        switch node.layer.contents {
        case let .box(box)?:
            if p.fill >= 0 {
                let color = item.tint.applied(to: item.color)
                setPaint(.solid(color), program)
                if let split = p.split, let rect = programs[variant | Self.rect] {
                    // The corners' pixels take the polygon's coverage; the rest, the rectangle's.
                    let (left, middle, right) = split.columns(within: p.columns), (top, sides, bottom) = split.rows(within: p.rows)
                    if setScissor(top, left, viewport, pageTop) { drawPolygon(p.fill, p, program) }
                    if setScissor(top, right, viewport, pageTop) { drawPolygon(p.fill, p, program) }
                    if setScissor(bottom, left, viewport, pageTop) { drawPolygon(p.fill, p, program) }
                    if setScissor(bottom, right, viewport, pageTop) { drawPolygon(p.fill, p, program) }
                    glUseProgram(rect.program.id)
                    glUniform4f(rect.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
                    glUniform1i(rect.pageTop, GLint(pageTop))
                    glUniform1f(rect.opacity, GLfloat(item.opacity))
                    glUniform1i(rect.invertsCoverage, asMask && maskItemInverts ? 1 : 0)
                    glUniform4f(rect.rect, GLfloat(split.x0), GLfloat(split.y0), GLfloat(split.x1), GLfloat(split.y1))
                    if let read, let uniforms = rect.mask { read.set(uniforms) }
                    setPaint(.solid(color), rect)
                    paintsThisFrame -= 1 // one paint, drawn in parts
                    if setScissor(sides, left, viewport, pageTop) { glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4) }
                    if setScissor(sides, right, viewport, pageTop) { glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4) }
                    if setScissor(p.rows, middle, viewport, pageTop) { glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4) }
                    glUseProgram(program.program.id)
                    _ = setScissor(p.rows, p.columns, viewport, pageTop)
                } else {
                    drawPolygon(p.fill, p, program)
                }
            }
            if p.border >= 0 {
                setPaint(.solid(item.tint.applied(to: box.borderColor)), program)
                drawPolygon(p.border, p, program)
            }
        case .picture?:
            let t = item.tint
            glUniform4f(program.color, GLfloat(t.r), GLfloat(t.g), GLfloat(t.b), GLfloat(t.a))
            drawPicture(item, program)
        case .shape?, nil:
            break
        }
    }

    /// Sets the scissor to `rows` (scene rows) x `columns` on this page; false where that is empty.
    private func setScissor(_ rows: Range<Int>, _ columns: Range<Int>, _ viewport: Viewport, _ pageTop: Int) -> Bool {
        guard let area = PageArea(rows: rows, columns: columns, viewport: viewport, pageTop: pageTop) else { return false }
        area.setScissor()
        return true
    }

    /// Items whose paint the shader evaluated per pixel this frame (a
    /// pre-painted, rasterized picture has none); for tests.
    private(set) var paintsThisFrame = 0
    /// Masks drawn into a mask texture this frame (not those read in place); for tests.
    private(set) var maskFoldsThisFrame = 0

    private func setPaint(_ paint: ItemPaint, _ program: Program) {
        paintsThisFrame += 1
        @inline(__always) func set(_ location: GLint, _ c: ColorValue) {
            glUniform4f(location, GLfloat(c.r / 255), GLfloat(c.g / 255), GLfloat(c.b / 255), GLfloat(c.a / 255))
        }
        switch paint {
        case let .solid(c): set(program.color, c)
        case let .gradient(alpha, beta, gamma, start, end):
            set(program.color, start)
            set(program.colorB, end)
            glUniform3f(program.gradient, GLfloat(alpha), GLfloat(beta), GLfloat(gamma))
            glUniform1i(program.gradientKind, 0)
        case let .ramp(u, v, gradient, tint):
            glUniform4f(program.color, GLfloat(tint.r), GLfloat(tint.g), GLfloat(tint.b), GLfloat(tint.a))
            glUniform3f(program.gradient, GLfloat(u.x), GLfloat(u.y), GLfloat(u.z))
            glUniform3f(program.gradientV, GLfloat(v.x), GLfloat(v.y), GLfloat(v.z))
            glUniform2f(program.focus, GLfloat(gradient.focusOffset.x), GLfloat(gradient.focusOffset.y))
            glUniform1i(program.gradientKind, gradient.kind == .linear ? 1 : 2)
            if let texture = rampTextures[gradient.stops] {
                glActiveTexture(GLenum(GL_TEXTURE5))
                glBindTexture(GLenum(GL_TEXTURE_2D), texture)
                glActiveTexture(GLenum(GL_TEXTURE0))
            }
        }
    }

    private func drawPolygon(_ slot: Int, _ p: Planned, _ program: Program) {
        glUniform1i(program.rowBase, GLint(slot))
        glUniform1i(program.firstRow, GLint(p.rows.lowerBound))
        glUniform1i(program.firstColumn, GLint(p.columns.lowerBound))
        glUniform1i(program.buckets, GLint(PolygonRows.buckets(p.columns)))
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
    }

    /// A picture read through the item's inverse transform (`sampling`), by the item's program.
    private func drawPicture(_ item: PresentationItem, _ program: Program) {
        guard let picture = pictures[item.content] else { return }
        var s = PictureSampling()
        guard sampling(item, picture, into: &s) else { return }
        let tiled = picture.tileStep > 0
        if tiled {
            glUniform2i(program.whole, GLint(s.wholeX), GLint(s.wholeY))
            glUniform1i(program.tileStep, GLint(picture.tileStep))
            glUniform1i(program.phases, GLint(picture.phases))
            glUniform1i(program.phase, GLint(s.phase))
        }
        glUniform3f(program.inverseX, GLfloat(s.xx), GLfloat(s.xy), GLfloat(s.x1))
        glUniform3f(program.inverseY, GLfloat(s.yx), GLfloat(s.yy), GLfloat(s.y1))
        glUniform2f(program.pictureSize, GLfloat(picture.width), GLfloat(picture.height))
        if pictureBound != picture.texture {
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(tiled ? GL_TEXTURE_2D_ARRAY : GL_TEXTURE_2D), picture.texture)
            pictureBound = picture.texture
        }
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
    }

    /// How `item` reads `picture` (`PictureSampling`): texel = T^-1 (scene
    /// point) - the picture's origin. For coverage tiles the constant
    /// term's whole texels go apart as integers; with exact motion at a
    /// whole-pixel move, the nearest phase is read at a whole-pixel offset
    /// (nothing filtered). False where the transform has no inverse.
    private func sampling(_ item: PresentationItem, _ picture: CachedPicture, into s: inout PictureSampling) -> Bool {
        let m = item.transform, det = m.determinant
        guard det != 0 else { return false }
        var ox = picture.originX, oy = picture.originY
        if item.primitive == .picture { ox = item.bounds.x; oy = item.bounds.y }
        // Texels per layer unit (a picture rasterised at the scale it is shown).
        let k = item.primitive == .picture ? 1 : picture.scale
        var ex = k * (m.c * m.ty - m.d * m.tx) / det - ox, ey = k * (m.b * m.tx - m.a * m.ty) / det - oy
        s.phase = 0
        s.wholeX = 0
        s.wholeY = 0
        if picture.phases > 1 && m.a == 1 && m.b == 0 && m.c == 0 && m.d == 1 && m.ty == m.ty.rounded() && m.tx.isFinite {
            let split = SubpixelPhases.split(m.tx, phases: picture.phases)
            s.phase = split.phase
            ex = -Double(split.whole) - ox
        }
        if picture.tileStep > 0 {
            @inline(__always) func whole(_ v: Double) -> Double { Swift.min(Swift.max(v.rounded(.down), -2e9), 2e9) }
            let wx = whole(ex), wy = whole(ey)
            s.wholeX = Int(wx)
            s.wholeY = Int(wy)
            ex -= wx
            ey -= wy
        }
        (s.xx, s.xy, s.x1) = (k * m.d / det, -k * m.c / det, ex)
        (s.yx, s.yy, s.y1) = (-k * m.b / det, k * m.a / det, ey)
        return true
    }
}

/// An axis-aligned box (its transform neither turns nor shears it) in
/// scene pixels, and the pixel columns and rows that hold its corners' arcs:
/// elsewhere its coverage is the rectangle's, a closed form per pixel.
struct BoxSplit {
    let x0, y0, x1, y1: Double
    /// The pixels from the left edge to past the left corners' arcs, and from the right corners' arcs on.
    let left: Int, right: Int
    let top: Int, bottom: Int

    init?(_ item: PresentationItem, _ box: Box) {
        let m = item.transform, r = item.bounds, radius = Swift.max(0, box.cornerRadius)
        guard m.isAxisAligned, m.a > 0, m.d > 0 else { return nil }
        (x0, x1, y0, y1) = (m.a * r.x + m.tx, m.a * r.maxX + m.tx, m.d * r.y + m.ty, m.d * r.maxY + m.ty)
        @inline(__always) func usable(_ v: Double) -> Bool { v.isFinite && abs(v) < 1e7 }
        guard usable(x0), usable(x1), usable(y0), usable(y1), x0 < x1, y0 < y1 else { return nil }
        left = Int((x0 + m.a * radius).rounded(.up))
        right = Int((x1 - m.a * radius).rounded(.down))
        top = Int((y0 + m.d * radius).rounded(.up))
        bottom = Int((y1 - m.d * radius).rounded(.down))
        guard left <= right, top <= bottom else { return nil }
    }

    typealias Thirds = (Range<Int>, Range<Int>, Range<Int>)

    /// `columns` in three: up to the left corners' end, between the corners, from the right corners on.
    func columns(within columns: Range<Int>) -> Thirds { Self.thirds(columns, left, right) }
    /// `rows` in three: the top corners' rows, those between, the bottom corners'.
    func rows(within rows: Range<Int>) -> Thirds { Self.thirds(rows, top, bottom) }

    private static func thirds(_ all: Range<Int>, _ a: Int, _ b: Int) -> Thirds {
        let a = Swift.min(Swift.max(a, all.lowerBound), all.upperBound), b = Swift.min(Swift.max(b, a), all.upperBound)
        return (all.lowerBound..<a, a..<b, b..<all.upperBound)
    }
}
