import Foundation

/// The CPU strategy for the layer tree: every presentation item's outline is
/// rebuilt in scene pixels every frame (its transform applied to the path's
/// points, curves flattened after), rasterised by the same rasteriser as
/// everything else, and painted per pixel with its colour, opacity and tint,
/// inside its clip and under its mask. An outline that lands on the same
/// pixels as the last frame (a fixed path, or a dynamic one that says its
/// outline repeats) has its coverage played again instead (`KeptCoverage`,
/// as rlottie and ThorVG keep a still shape's spans); its paint is worked
/// out every frame. Buffers are made once per scene;
/// drawing a frame allocates nothing.
package final class TreePainter {
    package let evaluator: LayerTreeEvaluator
    private let rasterizer: CoverageRasterizer
    private let sink: TransformingSink<CoverageRasterizer>
    /// This frame's presentation, kept from frame to frame.
    private var list: PresentationList
    /// The tree blends: drawn over transparency, then over the background (`LayerTreeEvaluator.blends`).
    package let blends: Bool
    /// One byte a pixel: the coverage of the mask in `maskInBuffer`.
    private let maskBuffer: UnsafeMutablePointer<UInt8>?
    /// One byte a pixel: a mask item's own coverage, where its mode or inversion reaches past it (made only then).
    private let maskScratch: UnsafeMutablePointer<UInt8>?
    /// A luminance mask's layers in colour (made only for a tree with one), and where the last one drew.
    private let maskColors: UnsafeMutablePointer<UInt32>?
    private var maskColorsWritten = (rows: 0..<0, columns: 0..<0)
    /// An enclosing mask's own coverage, where masked layers nest (made only then), and what it last covered.
    private let maskNested: UnsafeMutablePointer<UInt8>?
    private var nestedWritten = (rows: 0..<0, columns: 0..<0)
    private var maskInBuffer = -1
    /// The rows and columns the buffer's last mask wrote (every other byte is 0).
    private var maskWritten = (rows: 0..<0, columns: 0..<0)
    /// Two tables of 256 for folding a mask layer by its mode (`foldCoverage`).
    private let foldTables = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
    /// One byte a pixel: a bordered box's inner edge's coverage (nil: no box has a border).
    private let innerBuffer: UnsafeMutablePointer<UInt8>?
    /// Gradient spans over opaque pixels, blended through their ramp's weighed colours (kept while the item and coverage hold).
    private let rampBlend = RampBlend()
    /// Outlines' coverage, kept while they stand still: a slot per list item, then per mask item.
    private let kept: KeptCoverage
    /// Per content number, a picture's clear blocks (nil for other contents).
    private let pictureBlocks: [PictureBlocks?]
    /// Per content number, a fixed path's corners where it is one rectangle with sides along the axes
    /// (`Path.isAxisAlignedRectangle`; nil for other contents), found once; empty where no content is one.
    private let rectangles: [(low: Point, high: Point)?]
    /// Blitters made so far: each one's number (`ItemBlitter.item`) keys the ramp terms weighed for it.
    private var itemsPainted = 0

    private func nextItem() -> Int {
        itemsPainted &+= 1
        return itemsPainted
    }
    /// Shadows (nil: no layer has one): their outlines' coverage in a frame
    /// `shadowMargin` pixels larger each side (a shadow near the edge blurs
    /// in what lies beyond it), as bytes, then as floats to blur, and a line
    /// of scratch for the blur.
    private let shadowRasterizer: CoverageRasterizer?
    private let shadowMargin: Int
    /// The largest blur radius the margin holds.
    private let shadowRadiusLimit: Double
    private let shadowBytes: UnsafeMutablePointer<UInt8>?
    private let shadowValues: UnsafeMutablePointer<Float>?
    private let shadowLine: UnsafeMutablePointer<Float>?
    /// A shape alone in its clip (`SoleClip`): the clip, its fixed path and its paint over the background.
    private typealias Alone = (clip: SoleClip, path: Path, paint: FillProgram)
    /// The clips a shape alone draws, each painted with the background folded in (few in any tree).
    private let soleClips: [Alone]
    /// Per compiled node: its clip's place in `soleClips`, -1 for none (four bytes a node, where an optional
    /// clip a node held over a hundred, most of them empty: a tree of thousands of layers has few clips).
    private let soleClipOfNode: [Int32]
    /// The rows a frame must clear first: those no sole clip writes whole.
    package let rowsToClear: [Range<Int>]
    /// Where every item of every frame is a sole clip (no other contents, copies or masks): each clip with its path
    /// and paint, top to bottom, drawn from its x alone (`LayerTreeEvaluator.x(of:at:)`) without evaluating the tree.
    private let clipsAlone: [Alone]?
    /// While set, every frame's work is counted into it (see `PixelCounts`); the caller resets it.
    package var counts: PixelCounts?

    /// `background`: what the frame is cleared to, which shapes alone in their clips paint over directly.
    package init(evaluator: LayerTreeEvaluator, rasterizer: CoverageRasterizer, background: RGBA8) throws {
        self.evaluator = evaluator
        self.rasterizer = rasterizer
        sink = TransformingSink(rasterizer)
        list = evaluator.makeList()
        blends = evaluator.blends
        let clips = evaluator.soleClips(width: rasterizer.width, height: rasterizer.height)
        var alone: [Alone] = []
        var byNode = [Int32](repeating: -1, count: evaluator.nodes.count)
        for clip in clips {
            guard case let .shape(shape)? = evaluator.nodes[clip.node].layer.contents, case let .fixed(path) = shape.path else { continue }
            byNode[clip.node] = Int32(alone.count)
            alone.append((clip, path, FillProgram(fill: shape.fill, background: background)))
        }
        soleClips = alone
        soleClipOfNode = byNode
        pictureBlocks = evaluator.contents.map { contents in
            if case let .picture(picture) = contents { return PictureBlocks(picture.image) }
            return nil
        }
        let rectangles = evaluator.contents.map { contents -> (low: Point, high: Point)? in
            guard case let .shape(shape) = contents, case let .fixed(path) = shape.path, path.isAxisAlignedRectangle,
                  let b = path.bounds else { return nil }
            return (Point(b.minX, b.minY), Point(b.maxX, b.maxY))
        }
        self.rectangles = rectangles.contains { $0 != nil } ? rectangles : []
        kept = try KeptCoverage(slots: evaluator.capacity.items + evaluator.capacity.maskItems,
                                words: KeptCoverage.words(width: rasterizer.width, height: rasterizer.height))
        // A debug build makes a generic type's metadata where it is first used, which allocates; the blitters
        // that keep coverage are first used whenever an outline first stands still, so they are made here.
        _ = (ObjectIdentifier(CountingBlitter<KeepingBlitter<ItemBlitter>>.self),
             ObjectIdentifier(CountingBlitter<KeepingBlitter<MaskBlitter>>.self))
        clipsAlone = evaluator.itemsAreOnly { byNode[$0] >= 0 } ? alone : nil
        rowsToClear = SoleClip.rowsToClear(clips, width: rasterizer.width, height: rasterizer.height)
        // The mask's buffers, each only for a tree that needs it.
        let masked = evaluator.capacity.masks > 0, bytes = rasterizer.width * rasterizer.height
        let foldsPast = evaluator.maskNodes.contains { $0.layer.maskMode.mayReachUncovered(inverted: $0.layer.invertsMaskCoverage) }
        let size = "\(rasterizer.width)x\(rasterizer.height)"
        func memory<Value: FixedWidthInteger>(_: Value.Type, if wanted: Bool) throws -> UnsafeMutablePointer<Value>? {
            try Self.zeroed(bytes, Value.self, if: masked && wanted, for: "a \(size) mask")
        }
        maskBuffer = try memory(UInt8.self, if: true)
        maskScratch = try memory(UInt8.self, if: foldsPast)
        maskNested = try memory(UInt8.self, if: evaluator.masksNest)
        maskColors = try memory(UInt32.self, if: evaluator.nodes.contains { $0.layer.masksByLuminance })
        let bordered = evaluator.nodes.contains { node in
            if case let .box(box)? = node.layer.contents { return box.borderWidth > 0 }
            return false
        }
        innerBuffer = try Self.zeroed(bytes, UInt8.self, if: bordered, for: "a \(size) border's inside")
        // The margin a shadow may blur over: twice the largest radius (a layer scaled up to 2x; more is blurred as 2x).
        let radii = evaluator.nodes.compactMap { $0.layer.contents == nil ? nil : $0.layer.shadow?.radius }
        shadowRadiusLimit = 2 * (radii.max() ?? 0)
        if !radii.isEmpty {
            let margin = Int(ShadowBlur.reach(radius: shadowRadiusLimit)) + 2
            let width = rasterizer.width + 2 * margin, height = rasterizer.height + 2 * margin
            shadowMargin = margin
            shadowRasterizer = try? CoverageRasterizer(width: width, height: height)
            let (bytes, values) = try CheckedMemory.allocating(bytes: width * height * (1 + MemoryLayout<Float>.stride), for: "a \(width)x\(height) shadow") {
                (UnsafeMutablePointer<UInt8>.allocate(capacity: width * height), UnsafeMutablePointer<Float>.allocate(capacity: width * height))
            }
            (shadowBytes, shadowValues) = (bytes, values)
            shadowBytes!.initialize(repeating: 0, count: width * height)
            shadowValues!.initialize(repeating: 0, count: width * height)
            shadowLine = .allocate(capacity: Swift.max(width, height) + 1)
            shadowLine!.initialize(repeating: 0, count: Swift.max(width, height) + 1)
        } else {
            (shadowMargin, shadowRasterizer, shadowBytes, shadowValues, shadowLine) = (0, nil, nil, nil, nil)
        }
    }

    /// `count` zeroed values for `what` (a mask, a border's inside), where `wanted` (nil otherwise), checked against memory first.
    private static func zeroed<Value: FixedWidthInteger>(_ count: Int, _: Value.Type, if wanted: Bool, for what: String) throws
        -> UnsafeMutablePointer<Value>? {
        guard wanted else { return nil }
        let memory = try CheckedMemory.allocating(bytes: count * MemoryLayout<Value>.stride, for: what) {
            UnsafeMutablePointer<Value>.allocate(capacity: count)
        }
        memory.initialize(repeating: 0, count: count)
        return memory
    }

    deinit {
        maskBuffer?.deallocate()
        foldTables.deallocate()
        maskScratch?.deallocate()
        maskColors?.deallocate()
        maskNested?.deallocate()
        innerBuffer?.deallocate()
        shadowBytes?.deallocate()
        shadowValues?.deallocate()
        shadowLine?.deallocate()
    }

    /// A fixed path under a translation, alone in `rows` x `columns`:
    /// every pixel there written once, its paint over the background at
    /// the coverage (0: the background itself). What the CPU strategy draws
    /// for a sole clip, and what the GL strategy's clip copies are painted from.
    package static func paintAlone(_ path: Path, _ transform: Affine, rows: Range<Int>, columns: Range<Int>, paint: FillProgram,
                                  rasterizer: CoverageRasterizer, into view: PixmapView, counting counts: PixelCounts? = nil) {
        var blitter = PaintBlitter(view: view, fill: paint, clears: true, columns: columns)
        // Every pixel of the clip is written once, the paint over the background: nothing is blended.
        rasterizer.fill(rows: rows, into: &blitter, counting: counts, columns: columns, as: .frame(blends: false), writesUncovered: true) {
            PrimitiveOutlines.addPath(path, transform, columns: columns, into: rasterizer)
        }
    }

    /// Evaluates the tree at t and draws every item over what `view` holds.
    package func draw(time: Double, into view: PixmapView) {
        if let clipsAlone {
            // Only sole clips: each one's x is all the frame needs.
            var k = 0
            while k < clipsAlone.count {
                let clip = clipsAlone[k].clip
                let x = evaluator.x(of: clip, at: time)
                Self.paintAlone(clipsAlone[k].path, Affine(a: 1, b: 0, c: 0, d: 1, tx: x, ty: clip.y), rows: clip.rows,
                                columns: clip.columns, paint: clipsAlone[k].paint, rasterizer: rasterizer, into: view, counting: counts)
                k += 1
            }
            return
        }
        evaluator.evaluate(at: time, into: &list)
        maskInBuffer = -1
        kept.startFrame()
        for i in list.items.indices { draw(list.items[i], slot: i, into: view) }
    }

    /// Draws an item over `view`: of the tree, or (`inMask`) of a mask's layers, drawn in colour for a luminance mask.
    /// `slot`: where its coverage is kept (`KeptCoverage`).
    private func draw(_ item: PresentationItem, slot: Int, into view: PixmapView, inMask: Bool = false) {
        if !inMask, item.primitive == .fixedShape, soleClipOfNode[item.layer] >= 0 {
            let (clip, path, paint) = soleClips[Int(soleClipOfNode[item.layer])]
            // Alone in its clip: the clear folded into the paint.
            Self.paintAlone(path, item.transform, rows: clip.rows, columns: clip.columns, paint: paint, rasterizer: rasterizer,
                            into: view, counting: counts)
            return
        }
        guard var area = area(of: item, mask: inMask) else { return }
        var mask: UnsafeMutablePointer<UInt8>?
        if item.mask >= 0, let maskBuffer {
            if maskInBuffer != item.mask { render(mask: item.mask, into: maskBuffer) }
            mask = maskBuffer
            // Past what the mask wrote its bytes are 0 and nothing of the item shows: its area ends there (a layer
            // the size of the composition under a small mask costs the mask's pixels). The mask's own items left the
            // rasteriser's rows whole: this item's outline is resolved over its area.
            let rows = area.rows.clamped(to: maskWritten.rows), columns = area.columns.clamped(to: maskWritten.columns)
            if rows.isEmpty || columns.isEmpty { return }
            area = (rows, columns)
            rasterizer.clipRows = rows
        }
        let node = inMask ? evaluator.maskNodes[item.layer] : evaluator.nodes[item.layer]
        switch item.primitive {
        case .picture:
            guard case let .picture(picture)? = node.layer.contents else { return }
            let blocks = item.content >= 0 && item.content < pictureBlocks.count ? pictureBlocks[item.content] : nil
            drawPicture(picture.image, item, blocks: blocks, area: area, mask: mask, into: view)
            return
        case .fixedShape, .dynamicShape:
            // The shape read in place through its node (`Node.shape`), never copied out.
            guard let held = node.shape else { return }
            var blitter = ItemBlitter(view: view, paint: ItemPaint(held.value, item), opacity: item.opacity,
                                      columns: area.columns, mask: mask, rampBlend: rampBlend, item: nextItem())
            blitter.blend = item.blend
            resolveOutline(item, shape: held.value, slot: slot, area: area, into: &blitter, as: .frame(blends: true), mask: mask)
        case .box, .boxBorder:
            guard case let .box(box)? = node.layer.contents else { return }
            // A blended box draws its fill and its border each by its mode (the bordered blitter composites normally).
            if item.primitive == .box && item.drawsBorder && item.blend == .normal, let innerBuffer {
                drawBorderedBox(item, box, area: area, mask: mask, inner: innerBuffer, into: view)
                return
            }
            if item.primitive == .box {
                var blitter = ItemBlitter(view: view, paint: .solid(item.tint.applied(to: item.color)), opacity: item.opacity,
                                          columns: area.columns, mask: mask, rampBlend: rampBlend, item: nextItem())
                blitter.blend = item.blend
                fill(area, into: &blitter, mask: mask) {
                    PrimitiveOutlines.addRoundedRect(item.bounds, radius: box.cornerRadius, item.transform, into: self.rasterizer)
                }
            }
            if item.primitive == .boxBorder || item.drawsBorder {
                var blitter = ItemBlitter(view: view, paint: .solid(item.tint.applied(to: box.borderColor)), opacity: item.opacity,
                                          columns: area.columns, mask: mask, rampBlend: rampBlend, item: nextItem())
                blitter.blend = item.blend
                fill(area, into: &blitter, mask: mask) {
                    PrimitiveOutlines.addBorder(item.bounds, radius: box.cornerRadius, width: box.borderWidth, item.transform,
                                                into: self.rasterizer)
                }
            }
        case .copies, .rasterized:
            // This strategy draws every copy and every sublayer itself: its evaluator never gives one item for many.
            return
        case .shadow:
            drawShadow(item, node.layer, area: area, mask: mask, into: view)
        }
    }

    /// A shadow: the contents' outline, offset, rasterised over the area
    /// widened by the blur's reach (in the larger shadow frame), blurred,
    /// and composited in the shadow's colour at its opacity.
    private func drawShadow(_ item: PresentationItem, _ layer: Layer, area: (rows: Range<Int>, columns: Range<Int>),
                            mask: UnsafeMutablePointer<UInt8>?, into view: PixmapView) {
        rasterizer.clipRows = 0..<rasterizer.height
        guard let shadow = layer.shadow, let shadowRasterizer, let shadowBytes, let shadowValues, let shadowLine else { return }
        let m = shadowMargin, stride = shadowRasterizer.width
        var placed = ShadowBlur.placed(shadow, by: item.transform)
        placed.radius = Swift.min(placed.radius, shadowRadiusLimit)
        let reach = Int(ShadowBlur.reach(radius: placed.radius)) + 1
        // The area in the shadow frame, widened by the reach: what the blur reads.
        let rows = Swift.max(0, area.rows.lowerBound + m - reach)..<Swift.min(shadowRasterizer.height, area.rows.upperBound + m + reach)
        let columns = Swift.max(0, area.columns.lowerBound + m - reach)..<Swift.min(stride, area.columns.upperBound + m + reach)
        var transform = item.transform
        transform.tx += placed.dx + Double(m)
        transform.ty += placed.dy + Double(m)
        shadowRasterizer.clipRows = rows
        switch layer.contents {
        case let .box(box)?:
            PrimitiveOutlines.addRoundedRect(item.bounds, radius: box.cornerRadius, transform, into: shadowRasterizer)
        case let .shape(shape)?:
            guard case let .fixed(path) = shape.path else { return }
            PrimitiveOutlines.addPath(path, transform, columns: columns, into: shadowRasterizer)
        default:
            return
        }
        var bytes = CoverageBytes(rowZero: shadowBytes, rowStride: stride, columns: columns)
        shadowRasterizer.resolve(rows: rows, into: &bytes, counting: counts, columns: columns, as: .offscreen, writesUncovered: true)
        // The blur computes every value of the area again.
        counts?.totals.rasterized += rows.count * columns.count
        counts?.totals.offscreen += rows.count * columns.count
        shadowRasterizer.clipRows = 0..<shadowRasterizer.height
        var y = rows.lowerBound
        while y < rows.upperBound {
            var x = columns.lowerBound
            while x < columns.upperBound {
                shadowValues[y * stride + x] = Float(shadowBytes[y * stride + x]) / 255
                x += 1
            }
            y += 1
        }
        ShadowBlur.blur(shadowValues, stride: stride, rows: rows, columns: columns, radius: placed.radius, line: shadowLine)
        let color = item.tint.applied(to: item.color)
        y = area.rows.lowerBound
        while y < area.rows.upperBound {
            let out = view.row(y), maskRow = mask.map { $0 + y * rasterizer.width }
            var x = area.columns.lowerBound
            while x < area.columns.upperBound {
                var coverage = Double(shadowValues[(y + m) * stride + x + m]) * item.opacity
                if let maskRow { coverage *= Double(maskRow[x]) / 255 }
                if coverage > 0 {
                    out[x] = composite(color, coverage: Swift.min(1, coverage), onto: RGBA8(packed: out[x])).packed
                    counts?.write(row: y, columns: x..<x + 1, blends: true, software: true)
                }
                x += 1
            }
            y += 1
        }
    }

    @inline(__always)
    /// A box and its border in two outlines, not three: the inner edge's
    /// coverage into a buffer, then the outer edge painted with the fill at
    /// its coverage and the border over it at outer less inner (the border's
    /// own coverage, as the border's outline gives it).
    private func drawBorderedBox(_ item: PresentationItem, _ box: Box, area: (rows: Range<Int>, columns: Range<Int>),
                                 mask: UnsafeMutablePointer<UInt8>?, inner: UnsafeMutablePointer<UInt8>, into view: PixmapView) {
        let width = rasterizer.width, r = item.bounds
        let w = Swift.min(box.borderWidth, r.width / 2, r.height / 2)
        let insetRect = Rect(x: r.x + w, y: r.y + w, width: r.width - 2 * w, height: r.height - 2 * w)
        if !insetRect.isEmpty {
            let outerRadius = Swift.max(0, Swift.min(box.cornerRadius, r.width / 2, r.height / 2))
            // Every byte of the area is written, the uncovered ones 0: nothing to clear first.
            var bytes = CoverageBytes(rowZero: inner, rowStride: width, columns: area.columns)
            rasterizer.fill(rows: area.rows, into: &bytes, counting: counts, columns: area.columns, as: .offscreen, writesUncovered: true) {
                PrimitiveOutlines.addRoundedRect(insetRect, radius: Swift.max(0, outerRadius - w), item.transform, into: rasterizer)
            }
        } else {
            counts?.totals.offscreen += area.rows.count * area.columns.count
            var row = area.rows.lowerBound
            while row < area.rows.upperBound {
                (inner + row * width + area.columns.lowerBound).update(repeating: 0, count: area.columns.count)
                row += 1
            }
        }
        var blitter = BorderedBoxBlitter(view: view, fill: item.tint.applied(to: item.color), border: item.tint.applied(to: box.borderColor),
                                         opacity: item.opacity, columns: area.columns, mask: mask, inner: inner)
        // It stores every covered pixel of its spans, masked or not.
        rasterizer.fill(rows: area.rows, into: &blitter, counting: counts, columns: area.columns, as: .frame(blends: true)) {
            PrimitiveOutlines.addRoundedRect(r, radius: box.cornerRadius, item.transform, into: rasterizer)
        }
        rasterizer.clipRows = 0..<rasterizer.height
    }

    /// An item's outline (what `outline` adds) in its paint over the frame, where its mask lets it through: every store blends.
    private func fill(_ area: (rows: Range<Int>, columns: Range<Int>), into blitter: inout ItemBlitter, mask: UnsafeMutablePointer<UInt8>?,
                      outline: () -> Void) {
        rasterizer.fill(rows: area.rows, into: &blitter, counting: counts, columns: area.columns, as: .frame(blends: true), mask: mask,
                        outline: outline)
        rasterizer.clipRows = 0..<rasterizer.height
    }

    /// The item's outline resolved into `blitter` over its area: played again from the coverage kept in its
    /// slot where a fixed path, or a dynamic path's same outline, lands where it did the last frame
    /// (`KeptCoverage`), rasterised otherwise.
    private func resolveOutline<B: CoverageBlitter>(_ item: PresentationItem, shape: Shape, slot: Int,
                                                    area: (rows: Range<Int>, columns: Range<Int>), into blitter: inout B,
                                                    as destination: CountedDestination, mask: UnsafeMutablePointer<UInt8>? = nil) {
        defer { rasterizer.clipRows = 0..<rasterizer.height }
        rasterizer.evenOdd = shape.fillRule == .evenOdd
        // Which outline this is: a fixed path's only one, a dynamic path's where it can say (nil: not kept).
        let outline: Int? = switch shape.path {
        case .fixed: 0
        case let .dynamic(path): path.outlineIdentity(item.input)
        }
        var use = KeptCoverage.Use.rasterize
        if let outline {
            use = kept.use(slot: slot, key: .init(node: item.layer, outline: outline, transform: item.transform, area: area,
                                                  evenOdd: rasterizer.evenOdd))
        }
        if case let .play(words) = use {
            return KeptCoverage.play(words, into: &blitter, counting: counts, columns: area.columns, as: destination, mask: mask)
        }
        let rectangle = gridRectangle(item)
        guard case .rasterizeAndKeep = use else {
            return rasterizer.fill(rows: area.rows, into: &blitter, counting: counts, columns: area.columns, as: destination, mask: mask,
                                   rectangle: rectangle) {
                addOutline(item, shape: shape, columns: area.columns)
            }
        }
        var keeping = kept.keeping(blitter)
        rasterizer.fill(rows: area.rows, into: &keeping, counting: counts, columns: area.columns, as: destination, mask: mask,
                        rectangle: rectangle) {
            addOutline(item, shape: shape, columns: area.columns)
        }
        kept.keep(keeping, slot: slot)
        blitter = keeping.inner
    }

    /// The item's fixed path where it is one rectangle with sides along the axes (`rectangles`), under a transform
    /// that keeps them so (no turn or skew), on the rasteriser's grid: filled as one, the levels its edges would
    /// give (nil otherwise). Its corners go through the transform as `PrimitiveOutlines.addPath` takes them.
    private func gridRectangle(_ item: PresentationItem) -> CoverageRasterizer.GridRectangle? {
        let m = item.transform
        guard m.b == 0, m.c == 0, item.content >= 0, item.content < rectangles.count, let corners = rectangles[item.content] else { return nil }
        let p = m.apply(corners.low), q = m.apply(corners.high)
        return rasterizer.gridRectangle(p.x, p.y, q.x, q.y)
    }

    /// The item's outline into the rasteriser, clipped to its rows (a
    /// fixed path's sub-paths outside its columns left out).
    private func addOutline(_ item: PresentationItem, shape: Shape, columns: Range<Int>) {
        rasterizer.evenOdd = shape.fillRule == .evenOdd
        switch shape.path {
        case let .fixed(path): PrimitiveOutlines.addPath(path, item.transform, columns: columns, into: rasterizer)
        case let .dynamic(dynamic):
            sink.transform = item.transform
            if let stored = dynamic.storedOutline(item.input) { return stored.emit(into: sink) }
            dynamic.outline(item.input, scratch: evaluator.scratch, into: sink)
        }
    }

    /// The item's area (see `LayerTreeEvaluator.area`), its rows set as the rasteriser's clip.
    private func area(of item: PresentationItem, mask: Bool) -> (rows: Range<Int>, columns: Range<Int>)? {
        guard let area = evaluator.area(of: item, mask: mask, width: rasterizer.width, height: rasterizer.height) else { return nil }
        rasterizer.clipRows = area.rows
        return area
    }

    // MARK: Masks and pictures

    /// The mask's coverage: its items' alpha folded in order from nothing,
    /// each by its `maskMode` (inverted where it says so), the whole taken
    /// inverted for an inverted mask.
    private func render(mask index: Int, into buffer: UnsafeMutablePointer<UInt8>) {
        fold(mask: index, into: buffer, written: &maskWritten)
        // Under the masks of the layers around it too: each one's coverage folded alone, multiplied in.
        var outer = list.masks[index].parent
        while outer >= 0, let nested = maskNested {
            fold(mask: outer, into: nested, written: &nestedWritten)
            let width = rasterizer.width
            for row in maskWritten.rows {
                var k = row * width + maskWritten.columns.lowerBound
                for _ in maskWritten.columns {
                    buffer[k] = UInt8((UInt16(buffer[k]) &* UInt16(nested[k]) &+ 127) / 255)
                    k += 1
                }
            }
            outer = list.masks[outer].parent
        }
        maskInBuffer = index
    }

    /// One mask's own coverage into `buffer`, whose last mask covered no more than `written` (cleared
    /// first, then what this one covers).
    private func fold(mask index: Int, into buffer: UnsafeMutablePointer<UInt8>, written region: inout (rows: Range<Int>, columns: Range<Int>)) {
        let width = rasterizer.width, height = rasterizer.height, whole = (rows: 0..<height, columns: 0..<width)
        // Only what the last mask wrote is cleared (a small mask costs its own area, not the frame's).
        clear(buffer, region)
        if list.masks[index].luminance, let colors = maskColors {
            region = renderLuminance(mask: index, into: buffer, colors: colors)
            return
        }
        var written = (rows: 0..<0, columns: 0..<0)
        let invertedMask = list.masks[index].inverted
        if invertedMask {
            // Everything shows but what the mask covers: from full coverage, each layer folded by its dual.
            buffer.update(repeating: 255, count: width * height)
            written = whole
        }
        for i in list.masks[index].items {
            let item = list.maskItems[i], slot = evaluator.capacity.items + i
            // Mask items number the mask layers' own compiled nodes, read through the node (never a copy of its layer).
            let node = evaluator.maskNodes[item.layer]
            let (mode, inverts) = invertedMask ? node.layer.maskMode.dual(inverted: node.layer.invertsMaskCoverage)
                : (node.layer.maskMode, node.layer.invertsMaskCoverage)
            let reaches = mode.reachesUncovered(inverted: inverts)
            guard let area = area(of: item, mask: true) else {
                // Covering nothing: s is 0 everywhere (1, inverted).
                if reaches { foldCoverage(into: buffer, mode, inverted: inverts, item: nil, over: inverts ? whole : written) }
                if inverts { written = whole }
                continue
            }
            var alpha = item.opacity * item.tint.a
            if let held = node.shape {
                if case let .solid(c) = held.value.fill { alpha *= (held.value.color == nil ? Double(c.a) : item.color.a) / 255 }
            } else if case .box? = node.layer.contents {
                alpha *= item.color.a / 255
            }
            // The item's coverage alone where its mode reaches past it (then every pixel that can change folded with
            // it, 0 past its area), else folded straight into the mask.
            let alone = reaches ? maskScratch : nil
            if let alone { clear(alone, area) }
            var blitter = MaskBlitter(buffer: alone ?? buffer, width: width, columns: area.columns, alpha: alpha, mode: alone == nil ? mode : .add)
            if let held = node.shape {
                resolveOutline(item, shape: held.value, slot: slot, area: area, into: &blitter, as: .offscreen)
            } else {
                // A box, or a picture as a mask: its box (its alpha is not read).
                var radius = 0.0
                if case let .box(box)? = node.layer.contents { radius = box.cornerRadius }
                rasterizer.fill(rows: area.rows, into: &blitter, counting: counts, columns: area.columns, as: .offscreen) {
                    PrimitiveOutlines.addRoundedRect(item.bounds, radius: radius, item.transform, into: rasterizer)
                }
            }
            if let alone {
                let over = inverts ? whole : Self.union(written, area)
                foldCoverage(into: buffer, mode, inverted: inverts, item: (alone, area), over: over)
                written = over
            } else if mode != .subtract {
                written = Self.union(written, area)
            }
            rasterizer.clipRows = 0..<height
        }
        region = written
    }

    /// A luminance mask: its items drawn in colour over nothing, then each
    /// pixel's luminance times its alpha (`MaskLuminance.weights`), 1 less
    /// that for an inverted mask.
    private func renderLuminance(mask index: Int, into buffer: UnsafeMutablePointer<UInt8>,
                                 colors: UnsafeMutablePointer<UInt32>) -> (rows: Range<Int>, columns: Range<Int>) {
        let width = rasterizer.width, height = rasterizer.height
        let view = PixmapView(rowZero: colors, width: width, height: height, rowStride: width)
        clear(colors, maskColorsWritten)
        var written = (rows: 0..<0, columns: 0..<0)
        for i in list.masks[index].items {
            let item = list.maskItems[i]
            guard let area = area(of: item, mask: true) else { continue }
            rasterizer.clipRows = 0..<height
            draw(item, slot: evaluator.capacity.items + i, into: view, inMask: true)
            written = Self.union(written, area)
        }
        rasterizer.clipRows = 0..<height
        maskColorsWritten = written
        let w = MaskLuminance.weights
        for row in written.rows {
            for x in written.columns {
                let c = RGBA8(packed: colors[row * width + x])
                let luminance = (w.r * Double(c.r) + w.g * Double(c.g) + w.b * Double(c.b)) * Double(c.a) / 255
                buffer[row * width + x] = rounded8(luminance)
            }
        }
        if list.masks[index].inverted {
            for k in 0..<(width * height) { buffer[k] = 255 &- buffer[k] }
            written = (0..<height, 0..<width)
        }
        return written
    }

    /// Zero over `region`.
    private func clear<Value: FixedWidthInteger>(_ buffer: UnsafeMutablePointer<Value>, _ region: (rows: Range<Int>, columns: Range<Int>)) {
        for row in region.rows { (buffer + row * rasterizer.width + region.columns.lowerBound).update(repeating: 0, count: region.columns.count) }
    }

    /// The smallest region holding both.
    private static func union(_ a: (rows: Range<Int>, columns: Range<Int>), _ b: (rows: Range<Int>, columns: Range<Int>))
        -> (rows: Range<Int>, columns: Range<Int>) {
        if a.rows.isEmpty || a.columns.isEmpty { return b }
        if b.rows.isEmpty || b.columns.isEmpty { return a }
        return (Swift.min(a.rows.lowerBound, b.rows.lowerBound)..<Swift.max(a.rows.upperBound, b.rows.upperBound),
                Swift.min(a.columns.lowerBound, b.columns.lowerBound)..<Swift.max(a.columns.upperBound, b.columns.upperBound))
    }

    /// The mask over `region` folded with an item's coverage: the scratch's inside its area, 0 past it (1 - that, inverted).
    /// s is 0 or 1 at most pixels (everywhere past the item, and inside its fill), and those fold through
    /// two tables made here by the same arithmetic; only partial coverage is worked out pixel by pixel.
    private func foldCoverage(into buffer: UnsafeMutablePointer<UInt8>, _ mode: MaskMode, inverted: Bool,
                      item: (coverage: UnsafeMutablePointer<UInt8>, area: (rows: Range<Int>, columns: Range<Int>))?,
                      over region: (rows: Range<Int>, columns: Range<Int>)) {
        // Indexed by the scratch's byte: 0 (s = 0, or 1 inverted) and 255 (s = 1, or 0 inverted).
        let whenNone = foldTables, whenWhole = foldTables + 256
        // Past the item the fold may leave the mask as it is, or set it to one value (an inverted layer adding).
        var changes = false, oneValue = true
        for m in 0..<256 {
            whenNone[m] = mode.folded(UInt8(m), inverted ? 1 : 0)
            whenWhole[m] = mode.folded(UInt8(m), inverted ? 0 : 1)
            changes = changes || whenNone[m] != UInt8(m)
            oneValue = oneValue && whenNone[m] == whenNone[0]
        }
        // Constants from here: a nested function capturing a var would box it on the heap in a debug build.
        let width = rasterizer.width, pastChanges = changes, pastIsOneValue = oneValue
        /// Columns [from, to) of `line`, past the item: s there is the uncovered one.
        @inline(__always) func foldPast(_ line: UnsafeMutablePointer<UInt8>, _ from: Int, _ to: Int) {
            if !pastChanges || from >= to { return }
            if pastIsOneValue { return (line + from).update(repeating: whenNone[0], count: to - from) }
            var x = from
            while x < to { line[x] = whenNone[Int(line[x])]; x += 1 }
        }
        for row in region.rows {
            let line = buffer + row * width
            guard let item, item.area.rows.contains(row) else {
                foldPast(line, region.columns.lowerBound, region.columns.upperBound)
                continue
            }
            let inside = item.area.columns.clamped(to: region.columns)
            foldPast(line, region.columns.lowerBound, Swift.max(region.columns.lowerBound, inside.lowerBound))
            let coverage = item.coverage + row * width
            var x = inside.lowerBound
            while x < inside.upperBound {
                let c = coverage[x]
                if c == 0 {
                    line[x] = whenNone[Int(line[x])]
                } else if c == 255 {
                    line[x] = whenWhole[Int(line[x])]
                } else {
                    let s = Double(c) / 255
                    line[x] = mode.folded(line[x], inverted ? 1 - s : s)
                }
                x += 1
            }
            foldPast(line, Swift.min(region.columns.upperBound, inside.upperBound), region.columns.upperBound)
        }
    }

    /// `acc` plus texel (i, j) premultiplied, weighted by w (nothing outside the image).
    @inline(__always)
    private static func sample(_ texels: UnsafeBufferPointer<UInt8>, _ w: Int, _ h: Int, _ i: Int, _ j: Int, _ weight: Double,
                               _ acc: (r: Double, g: Double, b: Double, a: Double)) -> (r: Double, g: Double, b: Double, a: Double) {
        guard weight > 0, i >= 0, j >= 0, i < w, j < h else { return acc }
        let k = (j * w + i) * 4
        let a = Double(texels[k + 3]) * weight
        return (acc.r + Double(texels[k]) * a, acc.g + Double(texels[k + 1]) * a, acc.b + Double(texels[k + 2]) * a, acc.a + a)
    }

    /// Each covered pixel's centre mapped back into the image and sampled
    /// bilinearly (premultiplied); at a whole-pixel translation every sample
    /// falls on a texel centre, an exact copy. Along a row the image is met
    /// between two columns found once (u and v run linearly along it).
    /// Inside the image, four opaque texels are mixed as they are
    /// (premultiplying by 1 changes nothing), two channels to a word with
    /// weights in 256ths; four clear ones draw nothing (where `blocks` says
    /// so, without reading them); the rest are
    /// premultiplied, mixed and divided again.
    private func drawPicture(_ image: RGBAImage, _ item: PresentationItem, blocks: PictureBlocks?, area: (rows: Range<Int>, columns: Range<Int>),
                             mask: UnsafeMutablePointer<UInt8>?, into view: PixmapView) {
        let m = item.transform, det = m.determinant
        guard det != 0, image.width > 0, image.height > 0 else { return }
        let w = image.width, h = image.height, inverse = 1 / det
        // u = (d qx - c qy) / det less the image's corner and half a texel (v likewise); along a row, du and dv a column.
        let uOffset = item.bounds.x + 0.5, vOffset = item.bounds.y + 0.5
        let du = m.d * inverse, dv = -m.b * inverse
        let tint = item.tint, opacity = item.opacity, normal = item.blend == .normal
        // The mixed texel is the pixel itself: no tint, the normal blend, nothing under a mask or an opacity below 1, no pixels counted.
        let replaces = normal && tint == .identity && opacity == 1 && mask == nil && counts == nil
        image.pixels.withUnsafeBufferPointer { bytes in
            guard let texels = bytes.baseAddress.map(UnsafeRawPointer.init) else { return }
            @inline(__always) func texel(_ k: Int) -> UInt32 { texels.loadUnaligned(fromByteOffset: k &* 4, as: UInt32.self) }
            var y = area.rows.lowerBound
            while y < area.rows.upperBound {
                defer { y += 1 }
                let out = view.row(y), maskRow = mask.map { $0 + y * rasterizer.width }
                let qy = Double(y) + 0.5 - m.ty
                let uRow = -m.c * qy, vRow = m.a * qy
                let u0 = (m.d * (0.5 - m.tx) + uRow) * inverse - uOffset, v0 = (-m.b * (0.5 - m.tx) + vRow) * inverse - vOffset
                let columns = Self.columns(where: u0, du, within: -1, Double(w),
                                           of: Self.columns(where: v0, dv, within: -1, Double(h), of: area.columns))
                // Along the row, where its texel coordinates are small enough, u and v in 32.32 fixed point stepped by
                // du and dv (a sample's texel and weights then shifts; over 16384 columns the sum drifts under 2^-18
                // of a texel); else each pixel's own doubles.
                let firstU = u0 + Double(columns.lowerBound) * du, firstV = v0 + Double(columns.lowerBound) * dv
                let lastU = firstU + Double(columns.count) * du, lastV = firstV + Double(columns.count) * dv
                // Each compared on its own: a NaN (a nearly singular transform) fails its comparison, where max could pass it over.
                let fits = abs(firstU) < 0x1p30 && abs(lastU) < 0x1p30 && abs(firstV) < 0x1p30 && abs(lastV) < 0x1p30
                    && abs(du) < 0x1p30 && abs(dv) < 0x1p30
                var uFixed = fits ? Int64(firstU * 0x1p32) : 0, vFixed = fits ? Int64(firstV * 0x1p32) : 0
                let duFixed = fits ? Int64(du * 0x1p32) : 0, dvFixed = fits ? Int64(dv * 0x1p32) : 0
                var x = columns.lowerBound - 1
                while x + 1 < columns.upperBound {
                    x += 1
                    let i0: Int, j0: Int, fu: Double, fv: Double, fx: UInt32, fy: UInt32
                    if fits {
                        let u = uFixed, v = vFixed
                        uFixed &+= duFixed
                        vFixed &+= dvFixed
                        guard u > -(1 << 32), v > -(1 << 32) else { continue }
                        (i0, j0) = (Int(truncatingIfNeeded: u >> 32), Int(truncatingIfNeeded: v >> 32))
                        guard i0 < w, j0 < h else { continue }
                        let su = u & 0xFFFF_FFFF, sv = v & 0xFFFF_FFFF
                        (fu, fv) = (Double(su) * 0x1p-32, Double(sv) * 0x1p-32)
                        (fx, fy) = (UInt32(truncatingIfNeeded: (su &+ 1 << 23) >> 24), UInt32(truncatingIfNeeded: (sv &+ 1 << 23) >> 24))
                    } else {
                        let qx = Double(x) + 0.5 - m.tx
                        let u = (m.d * qx + uRow) * inverse - uOffset, v = (-m.b * qx + vRow) * inverse - vOffset
                        guard u > -1, v > -1, u < Double(w), v < Double(h) else { continue }
                        // Both are above -1: truncating one more is floor, with no call into libm.
                        (i0, j0) = (Int(u + 1) &- 1, Int(v + 1) &- 1)
                        (fu, fv) = (u - Double(i0), v - Double(j0))
                        (fx, fy) = (UInt32(truncatingIfNeeded: Int(fu * 256 + 0.5)), UInt32(truncatingIfNeeded: Int(fv * 256 + 0.5)))
                    }
                    var color: ColorValue
                    if i0 >= 0 && j0 >= 0 && i0 &+ 1 < w && j0 &+ 1 < h {
                        // Clear texels only: nothing to read.
                        if let blocks, blocks.isClear(i: i0, j: j0) { continue }
                        let k = j0 &* w &+ i0
                        let p00 = texel(k), p10 = texel(k &+ 1), p01 = texel(k &+ w), p11 = texel(k &+ w &+ 1)
                        if (p00 | p10 | p01 | p11) >> 24 == 0 { continue }
                        if (p00 & p10 & p01 & p11) >> 24 == 255 {
                            let mixed = Self.mix(Self.mix(p00, p10, fx), Self.mix(p01, p11, fx), fy) | 0xFF00_0000
                            if replaces {
                                out[x] = mixed
                                continue
                            }
                            color = ColorValue(r: Double(mixed & 0xFF), g: Double(mixed >> 8 & 0xFF), b: Double(mixed >> 16 & 0xFF), a: 255)
                        } else {
                            let w00 = (1 - fu) * (1 - fv), w10 = fu * (1 - fv), w01 = (1 - fu) * fv, w11 = fu * fv
                            @inline(__always) func channel(_ p: UInt32, _ shift: UInt32) -> Double { Double(p >> shift & 0xFF) }
                            let a00 = channel(p00, 24) * w00, a10 = channel(p10, 24) * w10
                            let a01 = channel(p01, 24) * w01, a11 = channel(p11, 24) * w11
                            let a = a00 + a10 + a01 + a11
                            guard a > 0 else { continue }
                            @inline(__always) func mixed(_ shift: UInt32) -> Double {
                                (channel(p00, shift) * a00 + channel(p10, shift) * a10 + channel(p01, shift) * a01 + channel(p11, shift) * a11) / a
                            }
                            color = ColorValue(r: mixed(0), g: mixed(8), b: mixed(16), a: a)
                        }
                    } else {
                        // At the image's border: only the texels inside it.
                        let w00 = (1 - fu) * (1 - fv), w10 = fu * (1 - fv), w01 = (1 - fu) * fv, w11 = fu * fv
                        var acc = Self.sample(bytes, w, h, i0, j0, w00, (0, 0, 0, 0))
                        acc = Self.sample(bytes, w, h, i0 &+ 1, j0, w10, acc)
                        acc = Self.sample(bytes, w, h, i0, j0 &+ 1, w01, acc)
                        acc = Self.sample(bytes, w, h, i0 &+ 1, j0 &+ 1, w11, acc)
                        guard acc.a > 0 else { continue }
                        color = ColorValue(r: acc.r / acc.a, g: acc.g / acc.a, b: acc.b / acc.a, a: acc.a)
                    }
                    color = tint.applied(to: color)
                    var coverage = opacity
                    if let maskRow { coverage *= Double(maskRow[x]) / 255 }
                    let under = RGBA8(packed: out[x])
                    if normal && color.a == 255 && coverage == 1 {
                        // The source replaces the pixel: composite gives its rounded colour, opaque.
                        out[x] = RGBA8(rounded8(color.r), rounded8(color.g), rounded8(color.b), 255).packed
                    } else {
                        out[x] = (normal ? composite(color, coverage: coverage, onto: under)
                                         : item.blend.composite(color, coverage: coverage, onto: under)).packed
                    }
                    if let counts {
                        counts.totals.rasterized += 1
                        counts.write(row: y, columns: x..<x + 1, blends: true, software: true)
                    }
                }
            }
        }
    }

    /// Two packed RGBA8 pixels mixed, each channel `a + (b - a) f / 256`
    /// rounded (`f` 0...256), two channels to a word: 255 x 256 and the
    /// rounding stay inside each channel's 16 bits.
    @inline(__always)
    private static func mix(_ a: UInt32, _ b: UInt32, _ f: UInt32) -> UInt32 {
        let g = 256 &- f
        let redBlue = ((a & 0x00FF_00FF) &* g &+ (b & 0x00FF_00FF) &* f &+ 0x0080_0080) >> 8 & 0x00FF_00FF
        let greenAlpha = ((a >> 8 & 0x00FF_00FF) &* g &+ (b >> 8 & 0x00FF_00FF) &* f &+ 0x0080_0080) & 0xFF00_FF00
        return redBlue | greenAlpha
    }

    /// The columns of `columns` where `lo < f0 + x df < hi`, a column wider
    /// at each end (the pixel's own test decides there: the pixel's sum is
    /// rounded apart from this one).
    @inline(__always)
    private static func columns(where f0: Double, _ df: Double, within lo: Double, _ hi: Double, of columns: Range<Int>) -> Range<Int> {
        let none = columns.lowerBound..<columns.lowerBound
        guard df != 0 else { return lo < f0 && f0 < hi ? columns : none }
        let a = (lo - f0) / df, b = (hi - f0) / df
        let first = Swift.max(Double(columns.lowerBound), Swift.min(a, b).rounded(.down) - 1)
        let end = Swift.min(Double(columns.upperBound), Swift.max(a, b).rounded(.up) + 1)
        return first < end ? Int(first)..<Int(end) : none
    }
}

/// One item's paint composited source-over, inside its columns, under its mask.
struct ItemBlitter: CoverageBlitter {
    let view: PixmapView
    let paint: ItemPaint
    let opacity: Double
    let columns: Range<Int>
    let mask: UnsafeMutablePointer<UInt8>?
    let rampBlend: RampBlend
    /// Which blitter of the painter's this is, never the same twice (`TreePainter.nextItem()`): the
    /// ramp terms weighed for one item and coverage are weighed again for the next.
    let item: Int
    /// How it meets what is under it (`BlendMode`); normal takes the fast paths below.
    var blend = BlendMode.normal
    /// The paint's numbers as the span loops read them, plain values only:
    /// matching `paint` itself would copy it (its ramp's storage retained
    /// and released) at every span.
    private let spans: SpanPaint
    /// A solid colour's edge pixels onto opaque ones, in integers (`EdgeBlend`).
    private let edges: EdgeBlend
    /// A solid colour's pixel at whole coverage, opaque (`composite`'s rounding): what a covered span of it writes.
    private let wholePixel: UInt32

    /// `paint` taken apart once; its ramp's storage stays alive (and in
    /// place: the array is never written) as long as `paint` does.
    private struct SpanPaint {
        enum Kind { case solid, linear, ramp }
        var kind = Kind.solid
        /// Solid: the colour. Linear: the start and end colours.
        var color = ColorValue(r: 0, g: 0, b: 0, a: 0), end = ColorValue(r: 0, g: 0, b: 0, a: 0)
        /// Linear: (alpha, beta, gamma). Ramp: u and v (`ItemPaint.ramp`).
        var u = SIMD3<Double>.zero, v = SIMD3<Double>.zero
        var tint = Tint.identity
        var radial = false
        var focus = SIMD2<Double>.zero
        var ramp: UnsafePointer<ColorValue>?
    }

    init(view: PixmapView, paint: ItemPaint, opacity: Double, columns: Range<Int>, mask: UnsafeMutablePointer<UInt8>?,
         rampBlend: RampBlend, item: Int) {
        (self.view, self.paint, self.opacity, self.columns, self.mask, self.rampBlend) = (view, paint, opacity, columns, mask, rampBlend)
        self.item = item
        var spans = SpanPaint()
        switch paint {
        case let .solid(c): spans.color = c
        case let .gradient(alpha, beta, gamma, start, end):
            spans.kind = .linear
            (spans.u, spans.color, spans.end) = (SIMD3(alpha, beta, gamma), start, end)
        case let .ramp(u, v, gradient, tint):
            spans.kind = .ramp
            (spans.u, spans.v, spans.tint) = (u, v, tint)
            (spans.radial, spans.focus) = (gradient.kind == .radial, gradient.focusOffset)
            spans.ramp = gradient.ramp.withUnsafeBufferPointer { $0.baseAddress }
        }
        self.spans = spans
        edges = EdgeBlend(color: spans.color, opacity: opacity)
        wholePixel = RGBA8(rounded8(spans.color.r), rounded8(spans.color.g), rounded8(spans.color.b), 255).packed
    }

    @inline(__always)
    mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
        if level == 0 { return }
        // An edge pixel (one pixel at its own level, most of the rasteriser's calls) of a solid colour onto an
        // opaque pixel, wholly inside any mask: in integers (`EdgeBlend`).
        if x1 &- x0 == 1 && spans.kind == .solid && blend == .normal {
            guard x0 >= columns.lowerBound && x0 < columns.upperBound else { return }
            let pixel = view.row(row) + x0
            if pixel.pointee >> 24 == 255 && (mask.map { $0[row &* view.width &+ x0] == 255 } ?? true) {
                pixel.pointee = edges.onto(pixel.pointee, level: level)
                return
            }
        }
        let a = Swift.max(x0, columns.lowerBound), b = Swift.min(x1, columns.upperBound)
        if a >= b { return }
        let out = view.row(row)
        let maskRow = mask.map { $0 + row * view.width }
        if blend != .normal {
            // Pixel by pixel: the mode reads each pixel under it.
            let coverage = Double(level) / 255 * opacity, py = Double(row) + 0.5
            for x in a..<b {
                let c = coverage * Double(maskRow?[x] ?? 255) / 255
                if c > 0 { out[x] = blend.composite(paint.color(atX: Double(x) + 0.5, y: py), coverage: c, onto: RGBA8(packed: out[x])).packed }
            }
            return
        }
        switch spans.kind {
        case .solid:
            let color = spans.color
            // Whole coverage of an opaque colour, unmasked: the colour itself, as composite gives it (a span fill).
            if level >= 255 && opacity >= 1 && color.a >= 255 && maskRow == nil {
                (out + a).update(repeating: wholePixel, count: b - a)
                return
            }
            // Onto an opaque pixel where the mask is whole: the edge pixels' integers at this span's one level, each
            // pixel worked out once in a row of equal ones (the last in and out kept); elsewhere (a partial mask, a
            // translucent pixel) composite itself, kept for the next equal pair.
            let weights = edges.weights(level: level)
            var lastIn: UInt32 = 0, lastOut: UInt32 = 0
            var partialMask: UInt8 = 0, partialIn: UInt32 = 0, partialOut: UInt32 = 0
            var x = a
            while x < b {
                let m = maskRow?[x] ?? 255
                let d = out[x]
                if m == 255 && d >> 24 == 255 {
                    // No opaque pixel is 0, so the first one is always worked out.
                    if d != lastIn { (lastIn, lastOut) = (d, EdgeBlend.onto(d, weights)) }
                    out[x] = lastOut
                } else if m > 0 {
                    if m != partialMask || d != partialIn {
                        (partialMask, partialIn) = (m, d)
                        let c = Double(level) / 255 * opacity * Double(m) / 255
                        partialOut = c > 0 ? composite(color, coverage: c, onto: RGBA8(packed: d)).packed : d
                    }
                    out[x] = partialOut
                }
                x += 1
            }
        case .linear:
            let (alpha, beta, gamma, start, end) = (spans.u.x, spans.u.y, spans.u.z, spans.color, spans.end)
            let coverage = Double(level) / 255 * opacity, py = Double(row) + 0.5
            for x in a..<b {
                let c = maskRow.map { coverage * Double($0[x]) / 255 } ?? coverage
                if c <= 0 { continue }
                let t = Swift.min(1, Swift.max(0, alpha * (Double(x) + 0.5) + beta * py + gamma))
                out[x] = composite(start.mixed(with: end, t), coverage: c, onto: RGBA8(packed: out[x])).packed
            }
        case .ramp:
            guard let ramp = spans.ramp else { return }
            let (u, v, tint) = (spans.u, spans.v, spans.tint)
            let coverage = Double(level) / 255 * opacity, py = Double(row) + 0.5
            // A long span: the ramp's 256 colours tinted and weighed by this coverage once (made again only for
            // another item or coverage), each opaque pixel then blended with its entry in integers.
            // A short span takes them too where they were made for this item and coverage already (a stroke's inside).
            let weighed = b - a >= RampBlend.shortestSpan || rampBlend.hasRamp(item: item, coverage: coverage)
            if weighed { rampBlend.weigh(ramp, tint: tint, coverage: coverage, item: item) }
            // A linear gradient's entry (its position times the last entry, rounded: `Gradient.entry`) stepped along
            // a span of 8 pixels or more in 32.32 fixed point where it fits, as the pictures' texels are; a radial
            // one's, and a short span's, from each pixel's position.
            let linear = !spans.radial && b - a >= 8, last = Double(Gradient.rampSize - 1)
            let first = linear ? (u.x * (Double(a) + 0.5) + u.y * py + u.z) * last : 0, step = linear ? u.x * last : 0
            // Each compared on its own: a NaN fails its comparison, where max could pass it over.
            let stepped = linear && abs(first) < 0x1p30 && abs(first + Double(b - a) * step) < 0x1p30 && abs(step) < 0x1p30
            var entryFixed = stepped ? Int64(first * 0x1p32) &+ 1 << 31 : 0
            let entryStep = stepped ? Int64(step * 0x1p32) : 0
            var x = a
            while x < b {
                let entry: Int
                if stepped {
                    entry = Swift.min(Gradient.rampSize - 1, Swift.max(0, Int(truncatingIfNeeded: entryFixed >> 32)))
                    entryFixed &+= entryStep
                } else {
                    entry = Gradient.entry(at: ItemPaint.position(u: u, v: v, radial: spans.radial, focus: spans.focus, x: Double(x) + 0.5, y: py))
                }
                let m = maskRow?[x] ?? 255
                if m == 0 { x += 1; continue }
                let d = RGBA8(packed: out[x])
                if weighed && m == 255 && d.a == 255 {
                    out[x] = rampBlend.entry(entry, onto: out[x])
                } else {
                    let c = coverage * Double(m) / 255
                    if c > 0 { out[x] = composite(tint.applied(to: ramp[entry]), coverage: c, onto: d).packed }
                }
                x += 1
            }
        }
    }

    /// Kept coverage played back: for a solid colour blended normally and unmasked, read here in one loop (the row
    /// found once a row, the columns once a run) and written as `blit` writes it: a covering colour's spans at whole
    /// coverage as its pixel, edge pixels onto opaque ones in `EdgeBlend`'s integers, anything else through `blit`.
    /// Any other paint plays its runs one call each.
    @inline(__always)
    mutating func play(kept: UnsafeBufferPointer<UInt16>) {
        guard spans.kind == .solid && blend == .normal && mask == nil, let words = kept.baseAddress else {
            return KeptCoverage.playRuns(kept, into: &self)
        }
        let covers = opacity >= 1 && spans.color.a >= 255, low = columns.lowerBound, high = columns.upperBound
        var k = 0, row = 0, out = view.row(0)
        while k < kept.count {
            let word = words[k]
            if word == KeptCoverage.rowMark {
                row = Int(words[k &+ 1])
                out = view.row(row)
                k &+= 2
            } else if word & KeptCoverage.pixelsMark != 0 {
                let x = Int(word & ~KeptCoverage.pixelsMark), count = Int(words[k &+ 1])
                let levels = UnsafeRawPointer(words + (k &+ 2))
                var column = Swift.max(x, low)
                let end = Swift.min(x &+ count, high)
                while column < end {
                    let level = Int(levels.load(fromByteOffset: column &- x, as: UInt8.self))
                    if level != 0 {
                        let d = out[column]
                        if d >> 24 == 255 {
                            out[column] = edges.onto(d, level: level)
                        } else {
                            blit(row: row, from: column, to: column &+ 1, level: level)
                        }
                    }
                    column &+= 1
                }
                k &+= 2 &+ (count &+ 1) >> 1
            } else {
                let x0 = Int(word), x1 = Int(words[k &+ 1]), level = Int(words[k &+ 2])
                let a = Swift.max(x0, low), b = Swift.min(x1, high)
                if a < b {
                    if covers && level >= 255 {
                        (out + a).update(repeating: wholePixel, count: b &- a)
                    } else {
                        blit(row: row, from: x0, to: x1, level: level)
                    }
                }
                k &+= 3
            }
        }
    }

    /// Edge pixels side by side (kept coverage played back): a solid colour's onto opaque pixels inside any mask in
    /// `EdgeBlend`'s integers, the row and columns found once; any other pixel as `blit` draws it.
    @inline(__always)
    mutating func blit(row: Int, from x: Int, levels: UnsafeRawPointer, count: Int) {
        let first = Swift.max(x, columns.lowerBound), end = Swift.min(x &+ count, columns.upperBound)
        guard first < end else { return }
        let solid = spans.kind == .solid && blend == .normal
        let out = view.row(row), maskRow = mask.map { $0 + row &* view.width }
        var column = first
        while column < end {
            let level = Int(levels.load(fromByteOffset: column &- x, as: UInt8.self))
            if level != 0 {
                let d = out[column]
                if solid && d >> 24 == 255 && (maskRow == nil || maskRow.unsafelyUnwrapped[column] == 255) {
                    out[column] = edges.onto(d, level: level)
                } else {
                    blit(row: row, from: column, to: column &+ 1, level: level)
                }
            }
            column &+= 1
        }
    }
}

/// A gradient span's blend onto opaque pixels, made once and kept while its
/// terms hold: its ramp's 256 colours weighed for one item and coverage, in
/// `EdgeBlend`'s integers. (A solid span needs no table: `EdgeBlend`'s own
/// at its one level.)
final class RampBlend {
    /// Gradient spans shorter than this blend pixel by pixel (weighing a ramp's 256 colours is about as
    /// much work as 32 of its pixels).
    static let shortestSpan = 32

    /// A ramp's entries weighed for one item and coverage (`EdgeBlend`'s terms, its colour at that coverage onto
    /// an opaque pixel), and what they were made for.
    private let weights = UnsafeMutablePointer<EdgeBlend.Weights>.allocate(capacity: Gradient.rampSize)
    private let key = UnsafeMutablePointer<Double>.allocate(capacity: 2)
    /// Per ramp entry whose colour covers what is under it (opaque, at whole coverage), that colour as a pixel;
    /// 0 for the others (no opaque pixel is 0).
    private let covering = UnsafeMutablePointer<UInt32>.allocate(capacity: Gradient.rampSize)

    init() {
        key.initialize(repeating: .nan, count: 2)
        weights.initialize(repeating: EdgeBlend(color: ColorValue(r: 0, g: 0, b: 0, a: 0), opacity: 0).weights(level: 255),
                           count: Gradient.rampSize)
        covering.initialize(repeating: 0, count: Gradient.rampSize)
    }

    deinit {
        weights.deallocate()
        key.deallocate()
        covering.deallocate()
    }

    /// The ramp's colours tinted, at `coverage`: entry i's colour onto an opaque pixel in integers (`EdgeBlend`,
    /// within a level of composite's doubles); made again for another item (`item` counts a frame's items) or coverage.
    @inline(__always)
    func weigh(_ ramp: UnsafePointer<ColorValue>, tint: Tint, coverage: Double, item: Int) {
        if key[0] != Double(item) || key[1] != coverage {
            key[0] = Double(item); key[1] = coverage
            var i = 0
            while i < Gradient.rampSize {
                let entry = EdgeBlend(color: tint.applied(to: ramp[i]), opacity: coverage).weights(level: 255)
                weights[i] = entry
                covering[i] = entry.keep == 0 ? EdgeBlend.onto(0xFF00_0000, entry) : 0
                i += 1
            }
        }
    }

    /// Whether `weigh(...)` last made its terms for this item and coverage.
    @inline(__always)
    func hasRamp(item: Int, coverage: Double) -> Bool { key[0] == Double(item) && key[1] == coverage }

    /// Opaque pixel `d` under entry `i` of the weights `weigh(...)` made (a covering entry's colour without
    /// reading the pixel).
    @inline(__always)
    func entry(_ i: Int, onto d: UInt32) -> UInt32 {
        let whole = covering[i]
        return whole != 0 ? whole : EdgeBlend.onto(d, weights[i])
    }
}

/// A bordered box's pixels: the fill at the outer edge's coverage, then the
/// border over it at the outer less the inner edge's.
struct BorderedBoxBlitter: CoverageBlitter {
    let view: PixmapView
    let fill: ColorValue
    let border: ColorValue
    let opacity: Double
    let columns: Range<Int>
    let mask: UnsafeMutablePointer<UInt8>?
    let inner: UnsafeMutablePointer<UInt8>

    @inline(__always)
    mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
        if level == 0 { return }
        let a = Swift.max(x0, columns.lowerBound), b = Swift.min(x1, columns.upperBound)
        if a >= b { return }
        let out = view.row(row), innerRow = inner + row * view.width
        let maskRow = mask.map { $0 + row * view.width }
        var x = a
        while x < b {
            let m = maskRow.map { Double($0[x]) / 255 } ?? 1
            let scale = opacity * m / 255
            let fillCoverage = Double(level) * scale, borderCoverage = Double(Swift.max(0, level - Int(innerRow[x]))) * scale
            var pixel = RGBA8(packed: out[x])
            if fillCoverage > 0 { pixel = composite(fill, coverage: fillCoverage, onto: pixel) }
            if borderCoverage > 0 { pixel = composite(border, coverage: borderCoverage, onto: pixel) }
            out[x] = pixel.packed
            x += 1
        }
    }
}

/// A mask's coverage: each item's alpha folded by its mode into what earlier items left (`MaskMode.combine`).
struct MaskBlitter: CoverageBlitter {
    let buffer: UnsafeMutablePointer<UInt8>
    let width: Int
    let columns: Range<Int>
    let alpha: Double
    /// How its coverage meets the mask's: a mode that leaves what it does not cover as it is (not intersect or darken).
    var mode: MaskMode = .add

    @inline(__always)
    mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
        if level == 0 { return }
        let a = Swift.max(x0, columns.lowerBound), b = Swift.min(x1, columns.upperBound)
        if a >= b { return }
        let source = Double(level) / 255 * alpha
        let line = buffer + row * width
        // Whole coverage added or taken away replaces what is there: all or nothing.
        if source >= 1 && (mode == .add || mode == .lighten || mode == .subtract) {
            (line + a).update(repeating: mode == .subtract ? 0 : 255, count: b - a)
            return
        }
        // Each value under the span worked out once in a row of equal ones (a mask is mostly one value, 0 or 255).
        var lastIn = -1, lastOut: UInt8 = 0
        var x = a
        while x < b {
            if Int(line[x]) != lastIn {
                lastIn = Int(line[x])
                lastOut = mode.folded(line[x], source)
            }
            line[x] = lastOut
            x += 1
        }
    }
}

extension MaskMode {
    /// Mask value `m` (0...255) with a layer's coverage `s` (0...1) folded into it by this mode, rounded once
    /// (`rounded8`): what the mask's blitter and its tables both write.
    @inline(__always)
    fileprivate func folded(_ m: UInt8, _ s: Double) -> UInt8 { rounded8(combine(Double(m) / 255, s) * 255) }
}

/// A solid colour's edge pixel onto an opaque pixel, in integers: source
/// over, out = c sa + d (1 - sa) rounded, with sa = level/255 times the
/// colour's alpha and the item's opacity, as `composite` works it in
/// doubles, here in fixed point (sa in 1/65536ths, the colour in 1/256ths).
/// Its error before rounding is under 0.005 of a level, so a channel differs
/// from `composite`'s by one level only where that value lies that close to
/// a half (about one channel in 2000). Edge pixels are most of the
/// rasteriser's calls, and there the doubles cost more than the rest of the
/// item's paint.
///
/// Red and blue go through each product together, 32 bits apart: c sa is
/// under 2^32 (c at most 255 x 256, sa at most 65536) and a channel's sum
/// under 2^24, so neither reaches the other's bits.
package struct EdgeBlend {
    /// sa in 1/65536ths is (level * scale + 128) >> 8.
    package let scale: UInt64
    /// The colour's channels in 1/256ths, held to 0...255: red and blue as one word (blue 32 bits up), green.
    package let redBlue: UInt64, green: UInt64

    /// One level's terms: what is kept of the pixel (65536 - sa), and the colour's part of each channel in
    /// 1/65536ths of a level (c sa / 256, the fraction dropped, which leaves every rounded channel as it
    /// was) with the half for rounding, red and blue as one word.
    package struct Weights {
        let keep: UInt64, redBlue: UInt64, green: UInt64
    }

    package init(color: ColorValue, opacity: Double) {
        @inline(__always) func fixed(_ v: Double, _ one: Double, _ most: Double) -> UInt64 {
            UInt64(Swift.min(most, Swift.max(0, v * one)) + 0.5)
        }
        // 65536 * 256 / 255 at full alpha and opacity: level 255 is sa = 65536.
        scale = fixed(color.a / 255 * Swift.min(1, Swift.max(0, opacity)), 65536 * 256 / 255, 65536 * 256 / 255)
        redBlue = fixed(color.r, 256, 255 * 256) | fixed(color.b, 256, 255 * 256) << 32
        green = fixed(color.g, 256, 255 * 256)
    }

    /// The terms at `level` (1...255): a span's pixels share one level, so its pixels share these.
    @inline(__always)
    package func weights(level: Int) -> Weights {
        let sa = (UInt64(truncatingIfNeeded: level) &* scale &+ 128) >> 8
        let both = redBlue &* sa, half: UInt64 = 1 << 15 | 1 << 47
        return Weights(keep: 65536 &- sa, redBlue: ((both & 0xFFFF_FFFF) >> 8 | (both >> 8) & 0xFFFF_FFFF_0000_0000) &+ half,
                       green: (green &* sa) >> 8 &+ 1 << 15)
    }

    /// Opaque pixel `d` under the colour at `level` (1...255).
    @inline(__always)
    package func onto(_ d: UInt32, level: Int) -> UInt32 { Self.onto(d, weights(level: level)) }

    /// Opaque pixel `d` under the colour at the level `weights` were worked out for.
    @inline(__always)
    package static func onto(_ d: UInt32, _ weights: Weights) -> UInt32 {
        let redBlue = UInt64(d & 0xFF) | UInt64(d & 0xFF_0000) << 16
        let redBlueOut = redBlue &* weights.keep &+ weights.redBlue, greenOut = UInt64(d >> 8 & 0xFF) &* weights.keep &+ weights.green
        return UInt32(truncatingIfNeeded: redBlueOut >> 16 & 0xFF) | UInt32(truncatingIfNeeded: greenOut >> 16) << 8
            | UInt32(truncatingIfNeeded: redBlueOut >> 48 & 0xFF) << 16 | 0xFF00_0000
    }
}
