import Foundation

/// The CPU strategy for the layer tree: every presentation item's outline is
/// rebuilt in scene pixels every frame (its transform applied to the path's
/// points, curves flattened after), rasterised by the same rasteriser as
/// everything else, and painted per pixel with its colour, opacity and tint,
/// inside its clip and under its mask. Buffers are made once per scene;
/// drawing a frame allocates nothing.
public final class TreePainter {
    public let evaluator: LayerTreeEvaluator
    private let rasterizer: CoverageRasterizer
    private let sink: TransformingSink
    /// This frame's presentation, kept from frame to frame.
    public private(set) var list: PresentationList
    /// One byte a pixel: the coverage of the mask in `maskInBuffer`.
    private let maskBuffer: UnsafeMutablePointer<UInt8>?
    private var maskInBuffer = -1
    /// Per content number: a fixed path's bounds in its layer's coordinates.
    private let contentBounds: [Rect]

    public init(evaluator: LayerTreeEvaluator, rasterizer: CoverageRasterizer) {
        self.evaluator = evaluator
        self.rasterizer = rasterizer
        sink = TransformingSink(rasterizer)
        list = evaluator.makeList()
        if evaluator.capacity.masks > 0 {
            let bytes = rasterizer.width * rasterizer.height
            maskBuffer = .allocate(capacity: bytes)
            maskBuffer!.initialize(repeating: 0, count: bytes)
        } else {
            maskBuffer = nil
        }
        contentBounds = evaluator.contents.map { contents in
            guard case let .shape(shape) = contents, case let .fixed(path) = shape.path, let b = path.bounds else { return .zero }
            return Rect(x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY)
        }
    }

    deinit { maskBuffer?.deallocate() }

    /// Evaluates the tree at t and draws every item over what `view` holds.
    public func draw(time: Double, into view: PixmapView) {
        evaluator.evaluate(at: time, into: &list)
        maskInBuffer = -1
        for i in list.items.indices { draw(list.items[i], into: view) }
    }

    private func draw(_ item: PresentationItem, into view: PixmapView) {
        guard let area = area(of: item, in: evaluator.nodes) else { return }
        var mask: UnsafeMutablePointer<UInt8>?
        if item.mask >= 0, let maskBuffer {
            if maskInBuffer != item.mask { render(mask: item.mask, into: maskBuffer) }
            mask = maskBuffer
        }
        let layer = evaluator.nodes[item.layer].layer
        switch item.primitive {
        case .picture:
            guard case let .picture(picture)? = layer.contents else { return }
            drawPicture(picture.image, item, area: area, mask: mask, into: view)
            return
        case .fixedShape, .dynamicShape:
            guard case let .shape(shape)? = layer.contents else { return }
            addOutline(item, layer: layer)
            var blitter = ItemBlitter(view: view, paint: scenePaint(shape.fill, item), opacity: item.opacity,
                                      columns: area.columns, mask: mask)
            resolve(rows: area.rows, into: &blitter)
        case .box, .boxBorder:
            guard case let .box(box)? = layer.contents else { return }
            let bounds = boxRect(layer, item)
            let radius = Swift.min(box.cornerRadius, bounds.width / 2, bounds.height / 2)
            if item.primitive == .box {
                sink.transform = item.transform
                addRoundedRect(bounds, radius: radius, clockwise: true)
                var blitter = ItemBlitter(view: view, paint: .solid(item.tint.applied(to: item.color)), opacity: item.opacity,
                                          columns: area.columns, mask: mask)
                resolve(rows: area.rows, into: &blitter)
            }
            if item.primitive == .boxBorder || item.drawsBorder {
                sink.transform = item.transform
                addBorder(bounds, radius: radius, width: box.borderWidth)
                var blitter = ItemBlitter(view: view, paint: .solid(item.tint.applied(to: box.borderColor)), opacity: item.opacity,
                                          columns: area.columns, mask: mask)
                resolve(rows: area.rows, into: &blitter)
            }
        }
    }

    @inline(__always)
    private func resolve(rows: Range<Int>, into blitter: inout ItemBlitter) {
        rasterizer.resolve(rows: rows, into: &blitter)
        rasterizer.clipRows = 0..<rasterizer.height
    }

    /// The item's outline into the rasteriser, clipped to its rows.
    private func addOutline(_ item: PresentationItem, layer: Layer) {
        guard case let .shape(shape)? = layer.contents else { return }
        sink.transform = item.transform
        switch shape.path {
        case let .fixed(path): addPath(path)
        case let .dynamic(dynamic): dynamic.outline(item.input, into: sink)
        }
    }

    /// Scene rows and columns an item can touch: its reach under its
    /// transform, inside its clip (rounded to whole pixels) and the frame.
    /// Sets the rasteriser's row clip; nil when nothing is left.
    private func area(of item: PresentationItem, in nodes: [LayerTreeEvaluator.Node]) -> (rows: Range<Int>, columns: Range<Int>)? {
        let layer = nodes[item.layer].layer
        var local: Rect
        switch item.primitive {
        case .fixedShape: local = contentBounds[item.content]
        case .dynamicShape:
            guard case let .shape(shape)? = layer.contents, case let .dynamic(d) = shape.path else { return nil }
            local = d.reach(size: layer.size)
        case .box, .boxBorder: local = boxRect(layer, item)
        case .picture:
            guard case let .picture(p)? = layer.contents else { return nil }
            local = Rect(x: boxRect(layer, item).x, y: boxRect(layer, item).y, width: Double(p.image.width), height: Double(p.image.height))
        }
        let reach = local.applying(item.transform)
        let clip = item.clip
        let x0 = Swift.max(0, Swift.max((reach.x - 1).rounded(.down), clip.x.rounded()))
        let x1 = Swift.min(Double(rasterizer.width), Swift.min((reach.maxX + 1).rounded(.up), clip.maxX.rounded()))
        let y0 = Swift.max(0, Swift.max((reach.y - 1).rounded(.down), clip.y.rounded()))
        let y1 = Swift.min(Double(rasterizer.height), Swift.min((reach.maxY + 1).rounded(.up), clip.maxY.rounded()))
        guard x0 < x1, y0 < y1, x0.isFinite, y0.isFinite else { return nil }
        let rows = Int(y0)..<Int(y1)
        rasterizer.clipRows = rows
        return (rows, Int(x0)..<Int(x1))
    }

    /// A box's rectangle: the layer's bounds in its own coordinates.
    @inline(__always)
    private func boxRect(_ layer: Layer, _ item: PresentationItem) -> Rect { item.bounds }

    /// The fill in scene pixels, tinted: a gradient's points moved by the
    /// item's transform (its colour is an affine function of the scene point).
    private func scenePaint(_ fill: Fill, _ item: PresentationItem) -> ItemPaint {
        switch fill {
        case let .solid(c): return .solid(item.tint.applied(to: ColorValue(c)))
        case let .linearGradient(g):
            // t(q) = dot(T^-1 q - s, d) / |d|^2 = alpha qx + beta qy + gamma.
            let m = item.transform, det = m.determinant
            guard det != 0 else { return .solid(ColorValue(r: 0, g: 0, b: 0, a: 0)) }
            let dx = g.end.x - g.start.x, dy = g.end.y - g.start.y, len2 = dx * dx + dy * dy
            guard len2 > 0 else { return .solid(item.tint.applied(to: ColorValue(g.startColor))) }
            // Inverse: x = (d (qx - tx) - c (qy - ty)) / det, y = (-b (qx - tx) + a (qy - ty)) / det.
            let ux = dx / len2, uy = dy / len2
            let alpha = (m.d * ux - m.b * uy) / det, beta = (-m.c * ux + m.a * uy) / det
            let gamma = -(alpha * m.tx + beta * m.ty) - (g.start.x * ux + g.start.y * uy)
            return .gradient(alpha: alpha, beta: beta, gamma: gamma, start: item.tint.applied(to: ColorValue(g.startColor)),
                             end: item.tint.applied(to: ColorValue(g.endColor)))
        }
    }

    // MARK: Outlines in scene pixels

    /// A fixed path through the sink's transform; quadratics flattened in
    /// scene pixels (the transform of a quadratic is the quadratic of the
    /// transformed points).
    private func addPath(_ path: Path) {
        let m = sink.transform
        var current = Point(0, 0)
        for s in path.subpaths.indices {
            for i in path.subpaths[s].elements {
                switch path.elements[i] {
                case let .move(p):
                    current = m.apply(p)
                    rasterizer.move(to: current.x, current.y)
                case let .line(p):
                    current = m.apply(p)
                    rasterizer.line(to: current.x, current.y)
                case let .quad(c, p):
                    let control = m.apply(c), end = m.apply(p)
                    let n = CoverageRasterizer.quadSegments(current, control, end)
                    for j in 1..<n {
                        let t = Double(j) / Double(n), u = 1 - t
                        rasterizer.line(to: u * u * current.x + 2 * u * t * control.x + t * t * end.x,
                                        u * u * current.y + 2 * u * t * control.y + t * t * end.y)
                    }
                    rasterizer.line(to: end.x, end.y)
                    current = end
                }
            }
            rasterizer.close()
        }
    }

    /// The rectangle with circular corners of `radius`, as chords within
    /// `RoundedRect.flatteningTolerance` pixels of the arcs at the
    /// transform's largest scale; clockwise on screen, or anticlockwise (a hole).
    private func addRoundedRect(_ r: Rect, radius: Double, clockwise: Bool) {
        let m = sink.transform
        let scale = Swift.max((m.a * m.a + m.b * m.b).squareRoot(), (m.c * m.c + m.d * m.d).squareRoot())
        guard radius > 0 else {
            let xs = clockwise ? (r.x, r.maxX) : (r.maxX, r.x)
            sink.move(to: xs.0, r.y); sink.line(to: xs.1, r.y); sink.line(to: xs.1, r.maxY); sink.line(to: xs.0, r.maxY)
            sink.close()
            return
        }
        let pixels = radius * scale
        let half = acos(Swift.max(0, 1 - RoundedRect.flatteningTolerance / Swift.max(pixels, 1e-9)))
        let steps = Swift.max(1, Swift.min(256, Int((Double.pi / 2 / (2 * Swift.max(half, 1e-6))).rounded(.up))))
        var first = true
        // Corner centres clockwise on screen from the top left; each arc a quarter turn.
        for q in 0..<4 {
            let corner = clockwise ? q : 3 - q
            let cx = corner == 0 || corner == 3 ? r.x + radius : r.maxX - radius
            let cy = corner < 2 ? r.y + radius : r.maxY - radius
            let start = Double.pi + Double(corner) * Double.pi / 2
            for j in 0...steps {
                let f = Double(j) / Double(steps)
                let angle = clockwise ? start + f * Double.pi / 2 : start + Double.pi / 2 - f * Double.pi / 2
                let x = cx + radius * cos(angle), y = cy + radius * sin(angle)
                if first { sink.move(to: x, y); first = false } else { sink.line(to: x, y) }
            }
        }
        sink.close()
    }

    /// The border: the outer edge clockwise and the inner edge (inset by the
    /// width, its radius reduced as much) anticlockwise, filled non-zero.
    private func addBorder(_ r: Rect, radius: Double, width: Double) {
        addRoundedRect(r, radius: radius, clockwise: true)
        let w = Swift.min(width, r.width / 2, r.height / 2)
        let inner = Rect(x: r.x + w, y: r.y + w, width: r.width - 2 * w, height: r.height - 2 * w)
        if !inner.isEmpty { addRoundedRect(inner, radius: Swift.max(0, radius - w), clockwise: false) }
    }

    // MARK: Masks and pictures

    /// The mask's coverage: its items' alpha composited over nothing.
    private func render(mask index: Int, into buffer: UnsafeMutablePointer<UInt8>) {
        let width = rasterizer.width
        buffer.update(repeating: 0, count: width * rasterizer.height)
        let range = list.masks[index].items
        for i in range {
            let item = list.maskItems[i]
            // Mask items number the mask layers' own compiled nodes.
            guard let area = area(of: item, in: evaluator.maskNodes) else { continue }
            let layer = evaluator.maskNodes[item.layer].layer
            var alpha = item.opacity * item.tint.a
            switch layer.contents {
            case let .shape(shape)?:
                addOutline(item, layer: layer)
                if case let .solid(c) = shape.fill { alpha *= Double(c.a) / 255 }
            case let .box(box)?:
                sink.transform = item.transform
                let bounds = boxRect(layer, item)
                addRoundedRect(bounds, radius: Swift.min(box.cornerRadius, bounds.width / 2, bounds.height / 2), clockwise: true)
                alpha *= item.color.a / 255
            default:
                // A picture as a mask: its box (its alpha is not read).
                sink.transform = item.transform
                addRoundedRect(boxRect(layer, item), radius: 0, clockwise: true)
            }
            var blitter = MaskBlitter(buffer: buffer, width: width, columns: area.columns, alpha: alpha)
            rasterizer.resolve(rows: area.rows, into: &blitter)
            rasterizer.clipRows = 0..<rasterizer.height
        }
        maskInBuffer = index
    }

    /// Each covered pixel's centre mapped back into the image and sampled
    /// bilinearly (premultiplied); at a whole-pixel translation every sample
    /// falls on a texel centre, an exact copy.
    private func drawPicture(_ image: RGBAImage, _ item: PresentationItem, area: (rows: Range<Int>, columns: Range<Int>),
                             mask: UnsafeMutablePointer<UInt8>?, into view: PixmapView) {
        let m = item.transform, det = m.determinant
        guard det != 0, image.width > 0, image.height > 0 else { return }
        let layer = evaluator.nodes[item.layer].layer
        let origin = boxRect(layer, item)
        image.pixels.withUnsafeBufferPointer { texels in
            for y in area.rows {
                let out = view.row(y)
                for x in area.columns {
                    let qx = Double(x) + 0.5 - m.tx, qy = Double(y) + 0.5 - m.ty
                    let u = (m.d * qx - m.c * qy) / det - origin.x - 0.5, v = (-m.b * qx + m.a * qy) / det - origin.y - 0.5
                    guard u > -1, v > -1, u < Double(image.width), v < Double(image.height) else { continue }
                    let i0 = Int(u.rounded(.down)), j0 = Int(v.rounded(.down))
                    let fu = u - Double(i0), fv = v - Double(j0)
                    var acc = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
                    @inline(__always) func take(_ i: Int, _ j: Int, _ w: Double) {
                        guard w > 0, i >= 0, j >= 0, i < image.width, j < image.height else { return }
                        let k = (j * image.width + i) * 4
                        let a = Double(texels[k + 3]) * w
                        acc.r += Double(texels[k]) * a; acc.g += Double(texels[k + 1]) * a
                        acc.b += Double(texels[k + 2]) * a; acc.a += a
                    }
                    take(i0, j0, (1 - fu) * (1 - fv)); take(i0 + 1, j0, fu * (1 - fv))
                    take(i0, j0 + 1, (1 - fu) * fv); take(i0 + 1, j0 + 1, fu * fv)
                    guard acc.a > 0 else { continue }
                    var coverage = item.opacity
                    if let mask { coverage *= Double(mask[y * rasterizer.width + x]) / 255 }
                    let color = item.tint.applied(to: ColorValue(r: acc.r / acc.a, g: acc.g / acc.a, b: acc.b / acc.a, a: acc.a))
                    out[x] = composite(color, coverage: coverage, onto: RGBA8(packed: out[x])).packed
                }
            }
        }
    }
}

/// Points in a layer's coordinates passed on to the rasteriser in scene pixels.
final class TransformingSink: OutlineSink {
    let target: CoverageRasterizer
    var transform = Affine.identity

    init(_ target: CoverageRasterizer) { self.target = target }

    @inline(__always) func move(to x: Double, _ y: Double) {
        let p = transform.apply(x, y)
        target.move(to: p.x, p.y)
    }

    @inline(__always) func line(to x: Double, _ y: Double) {
        let p = transform.apply(x, y)
        target.line(to: p.x, p.y)
    }

    @inline(__always) func close() { target.close() }
}

/// An item's colour in scene pixels: solid, or a gradient whose position is
/// alpha x + beta y + gamma at a pixel centre (clamped to 0...1).
enum ItemPaint {
    case solid(ColorValue)
    case gradient(alpha: Double, beta: Double, gamma: Double, start: ColorValue, end: ColorValue)
}

/// One item's paint composited source-over, inside its columns, under its mask.
struct ItemBlitter: CoverageBlitter {
    let view: PixmapView
    let paint: ItemPaint
    let opacity: Double
    let columns: Range<Int>
    let mask: UnsafeMutablePointer<UInt8>?

    @inline(__always)
    mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
        if level == 0 { return }
        let a = Swift.max(x0, columns.lowerBound), b = Swift.min(x1, columns.upperBound)
        if a >= b { return }
        let out = view.row(row)
        let coverage = Double(level) / 255 * opacity
        let maskRow = mask.map { $0 + row * view.width }
        switch paint {
        case let .solid(color):
            for x in a..<b {
                let c = maskRow.map { coverage * Double($0[x]) / 255 } ?? coverage
                if c > 0 { out[x] = composite(color, coverage: c, onto: RGBA8(packed: out[x])).packed }
            }
        case let .gradient(alpha, beta, gamma, start, end):
            let py = Double(row) + 0.5
            for x in a..<b {
                let c = maskRow.map { coverage * Double($0[x]) / 255 } ?? coverage
                if c <= 0 { continue }
                let t = Swift.min(1, Swift.max(0, alpha * (Double(x) + 0.5) + beta * py + gamma))
                out[x] = composite(start.mixed(with: end, t), coverage: c, onto: RGBA8(packed: out[x])).packed
            }
        }
    }
}

/// A mask's coverage: each item's alpha over what earlier items left.
struct MaskBlitter: CoverageBlitter {
    let buffer: UnsafeMutablePointer<UInt8>
    let width: Int
    let columns: Range<Int>
    let alpha: Double

    @inline(__always)
    mutating func blit(row: Int, from x0: Int, to x1: Int, level: Int) {
        if level == 0 { return }
        let a = Swift.max(x0, columns.lowerBound), b = Swift.min(x1, columns.upperBound)
        if a >= b { return }
        let source = Double(level) / 255 * alpha
        let line = buffer + row * width
        for x in a..<b {
            let d = Double(line[x]) / 255
            line[x] = UInt8(Swift.min(255, ((source + d * (1 - source)) * 255).rounded()))
        }
    }
}
