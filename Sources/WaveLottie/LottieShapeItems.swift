import Glibc
import WaveCore

/// A shape layer's items as layers: groups, outlines (cut by the trims and
/// rounded by the modifiers after them), fills, strokes and gradients,
/// repeaters; an outline that changes sampled over the frames it changes in.

extension TreeBuilder {
    /// A group's items as layers (bottom first) and its outlines, for the styles of the groups around it.
    ///
    /// A trim (`tm`) cuts the outlines before it in its group and in the
    /// groups before it, as every fill and stroke draws them, those listed
    /// before the trim too (as rlottie and lottie-web apply it): each
    /// outline carries the trims after it, nearest first, then those of the
    /// groups around it (`trims`).
    func group(_ items: [Node], depth: Int, trims inherited: [Trim] = [],
                       rounds inheritedRounds: [AnimatedValue] = []) throws -> (layers: [Layer], geometry: [Geometry]) {
        guard depth <= Self.maxDepth else { throw (items.first ?? Node(.null, "")).fail("groups nested deeper than \(Self.maxDepth)") }
        var topFirst: [Layer] = []
        var geometry: [Geometry] = []
        // This group's trims and rounded-corners radii (`rd`, rounding the outlines before it as a trim cuts them), in order with their indices.
        var trimAt: [(index: Int, trim: Trim)] = [], roundAt: [(index: Int, radius: AnimatedValue)] = []
        for (i, item) in items.enumerated() where !item.bool("hd") {
            if item.string("ty") == "tm" { trimAt.append((i, try Trim(item, together: trimmedTogether(item)))) }
            if item.string("ty") == "rd" { roundAt.append((i, try item.animated("r", default: [0]))) }
        }
        // A trim cuts the outlines before it up to a merge before it (then the merged outline); those after the
        // last merge, with the trims of the groups around, cut its outline.
        let merges = items.indices.filter { !items[$0].bool("hd") && items[$0].string("ty") == "mm" }
        func trims(after i: Int) -> [Trim] {
            let nextMerge = merges.first { $0 > i }
            return trimAt.filter { $0.index > i && $0.index < nextMerge ?? Int.max }.map(\.trim) + (nextMerge == nil ? inherited : [])
        }
        func rounds(after i: Int) -> [AnimatedValue] { roundAt.filter { $0.index > i }.map(\.radius) + inheritedRounds }
        /// An outline of item i: its sharp corners rounded by the modifiers after it, flattened, cut by the trims after it.
        func path(_ i: Int, span: ClosedRange<Double>?, _ shape: @escaping (Double) -> BezierShape) -> Geometry {
            let cuts = trims(after: i), corners = rounds(after: i)
            let rounded = Geometry(span: spanning([span] + corners.map(\.span))) { [tolerance] f in
                [corners.reduce(shape(f)) { outline, radius in outline.roundingCorners(radius.scalar(at: f)) }.polyline(tolerance: tolerance)]
            }
            return cuts.reduce(rounded) { outline, trim in trim.cutting(outline) }
        }
        for (index, item) in items.enumerated() {
            try count(item)
            if item.bool("hd") { continue }
            countExpressions(item)
            switch item.string("ty") ?? "" {
            case "gr":
                let trNode = (item["it"]?.items ?? []).last { $0.string("ty") == "tr" }
                let transform = try LottieTransform(trNode)
                // The group's outlines are flattened for the scale its transform shows them at too.
                let inner = try scaled(by: transform.scale.largestMagnitude / 100) {
                    try group(item["it"]?.items ?? [], depth: depth + 1, trims: trims(after: index), rounds: rounds(after: index))
                }
                var layer = Layer(name: Self.name(item, or: "group"), frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: inner.layers)
                apply(transform, to: &layer, opacity: true)
                topFirst.append(layer)
                // The outlines seen from this level: through the group's transform at each frame.
                for g in inner.geometry {
                    geometry.append(Geometry(span: spanning([g.span, transform.span])) { f in
                        let m = transform.matrix(at: f)
                        return g.lines(f).map { Polyline($0.points.map(m.apply), closed: $0.isClosed) }
                    })
                }
            case "rc":
                let p = try item.animated("p", default: [0, 0]), s = try item.animated("s", default: [0, 0])
                let r = try item.animated("r", default: [0])
                let reversed = item["d"]?.value.number == 3
                geometry.append(path(index, span: spanning([p.span, s.span, r.span])) { f in
                    BezierShape.rectangle(centre: p.value(at: f), size: s.value(at: f), roundness: r.scalar(at: f), reversed: reversed)
                })
            case "el":
                let p = try item.animated("p", default: [0, 0]), s = try item.animated("s", default: [0, 0])
                let reversed = item["d"]?.value.number == 3
                geometry.append(path(index, span: spanning([p.span, s.span])) { f in
                    BezierShape.ellipse(centre: p.value(at: f), size: s.value(at: f), reversed: reversed)
                })
            case "sr":
                let p = try item.animated("p", default: [0, 0]), pt = try item.animated("pt", default: [5])
                let or = try item.animated("or", default: [0]), ir = try item.animated("ir", default: [0])
                let os = try item.animated("os", default: [0]), isr = try item.animated("is", default: [0])
                let r = try item.animated("r", default: [0])
                let star = item["sy"]?.value.number != 2, reversed = item["d"]?.value.number == 3
                geometry.append(path(index, span: spanning([p, pt, or, ir, os, isr, r].map(\.span))) { f in
                    BezierShape.polystar(centre: p.value(at: f), points: pt.scalar(at: f), outer: or.scalar(at: f), inner: ir.scalar(at: f),
                                         outerRoundness: os.scalar(at: f), innerRoundness: isr.scalar(at: f), rotation: r.scalar(at: f),
                                         star: star, reversed: reversed)
                })
            case "sh":
                let shape = try item.animatedShape("ks")
                geometry.append(path(index, span: shape.span) { f in shape.value(at: f) })
            case "fl", "st", "gf", "gs":
                // Registering outlines only (`shapeLayer`'s first pass), a style draws nothing.
                if !registeringOutlines { topFirst.append(try style(item, geometry: geometry)) }
            case "tm", "rd":
                break // Applied to the outlines it cuts or rounds, above.
            case "rp":
                topFirst = [try repeater(item, copying: topFirst.reversed())]
            case "mm":
                // Merge paths, as After Effects merges them (rlottie and ThorVG draw the outlines unmerged; lottie-web
                // not at all): the outlines before it become one, then cut by the trims after it. Mode 1 merges
                // them as they are; 2 adds, 3 subtracts, 4 intersects, 5 excludes intersections: from the outline
                // just before it up, each outline on its own (filled by the non-zero rule), the result so far
                // combined with the next (subtracting, the outlines above are taken from the one below).
                let mode = Int(holding: item["mm"]?.value.number ?? 1, to: 0...100)
                let operation: PolygonBooleans.Operation? = [2: .union, 3: .difference, 4: .intersection, 5: .exclusiveOr][mode]
                if mode != 1 && operation == nil { without.add("merge paths of unknown modes") }
                guard let bottom = geometry.last else { break }
                let outlines = geometry, above = geometry.dropLast().reversed()
                let merged = Geometry(span: spanning(outlines.map(\.span))) { f in
                    guard let operation else { return outlines.flatMap { $0.lines(f) } }
                    return above.reduce(bottom.lines(f)) { result, outline in
                        PolygonBooleans.combine(result, operation, outline.lines(f)) ?? result + outline.lines(f)
                    }
                }
                geometry = [trims(after: index).reduce(merged) { outline, trim in trim.cutting(outline) }]
            case "tr":
                break
            default:
                without.add("shape items of unknown types")
            }
        }
        return (topFirst.reversed(), geometry)
    }

    /// A fill or a stroke of the outlines above it in its group.
    func style(_ item: Node, geometry: [Geometry]) throws -> Layer {
        let type = item.string("ty") ?? ""
        let opacity = try item.animated("o", default: [100])
        var fill = Fill.solid(RGBA8(0, 0, 0, 255)), colors: Timeline<ColorValue>?
        // A keyframed gradient: the whole frames it changes over (at most 1,000; longer, its first keyframe's and said).
        var gradientFrames: ClosedRange<Int>?
        if type == "gf" || type == "gs" {
            fill = .gradient(try gradient(item))
            if let span = try gradientSpan(item) {
                let first = Int(holding: span.lowerBound, to: -Int(LottieAnimation.maxFrames)...Int(LottieAnimation.maxFrames))
                let last = Int(holding: span.upperBound.rounded(.up), to: first...(first + Int(LottieAnimation.maxFrames)))
                if last - first < 1000 { gradientFrames = first...last } else { without.add("gradients keyframed over 1000 frames or more (drawn at their first keyframe)") }
            }
        } else {
            let colorValue = try item.animated("c", default: [0, 0, 0, 1])
            // Channels 0...1 (older files: 0...255), alpha ignored (the opacity is the fill's).
            let c = colorValue.value(at: colorValue.keyframes.first?.time ?? 0)
            let scale = c.prefix(3).contains { $0 > 1 } ? 1.0 : 255.0
            func channel(_ v: [Double], _ i: Int) -> Double { Swift.max(0, Swift.min(255, (i < v.count ? v[i] : 1) * scale)) }
            fill = .solid(RGBA8(UInt8(channel(c, 0).rounded()), UInt8(channel(c, 1).rounded()), UInt8(channel(c, 2).rounded()), 255))
            colors = colorValue.isAnimated
                ? colorValue.timeline(easing: 0, rate: rate) { v in ColorValue(r: channel(v, 0), g: channel(v, 1), b: channel(v, 2), a: 255) } : nil
        }
        let all = Geometry(span: spanning(geometry.map(\.span))) { f in geometry.flatMap { $0.lines(f) } }
        var stroke: Stroke?
        if type == "st" || type == "gs" {
            let width = try item.animated("w", default: [1])
            var dashes: [AnimatedValue] = [], offset = AnimatedValue([0])
            for d in item["d"]?.items ?? [] {
                if d.string("n") == "o" { offset = try d.animated("v", default: [0]) } else { dashes.append(try d.animated("v", default: [0])) }
            }
            let cap: LineCap = [1: .butt, 2: .round, 3: .square][Int(holding: try item.number("lc", default: 2), to: 0...4)] ?? .round
            let join: LineJoin = [1: .miter, 2: .round, 3: .bevel][Int(holding: try item.number("lj", default: 2), to: 0...4)] ?? .round
            stroke = Stroke(width: width, cap: cap, join: join, miterLimit: try item.number("ml", default: 4), dashes: dashes, dashOffset: offset)
        }
        let path = try outline(all, style: stroke)
        // A fill's rule: 1 non-zero, 2 even-odd (a stroke's outline is always filled non-zero).
        let evenOdd = stroke == nil && item["r"]?.value.number == 2
        func ruled(_ layer: Layer) -> Layer {
            guard evenOdd, case var .shape(shape)? = layer.contents else { return layer }
            var ruled = layer
            shape.fillRule = .evenOdd
            ruled.contents = .shape(shape)
            return ruled
        }
        guard let frames = gradientFrames else {
            return ruled(drawable(path, fill: fill, colors: colors, opacity: opacity.timeline(0, scale: 0.01, rate: rate)))
        }
        // A keyframed gradient is taken at each whole frame it changes over (the first before, the last after), as a
        // changing outline is made at each frame. Where only its points move, one layer's gradient keeps its stops and
        // steps its points a frame at a time.
        if try item["g"]?.animated("k", default: []).span == nil {
            let points = try frames.map { try gradient(item, at: Double($0)).points }
            let steps = KeyframeAnimation(values: points, calculation: .discrete,
                                          timing: MediaTiming(beginTime: (Double(frames.lowerBound) - 1e-3) / rate,
                                                              duration: Double(points.count) / rate, fillMode: .both))
            var layer = ruled(drawable(path, fill: fill, opacity: opacity.timeline(0, scale: 0.01, rate: rate)))
            if case var .shape(shape)? = layer.contents {
                shape.gradientPoints = Timeline(points[0], animations: [.keyframes(steps)])
                layer.contents = .shape(shape)
            }
            return layer
        }
        // Its stops change too: the outline once a frame, each in that frame's gradient (its own ramp) and shown
        // through that frame alone; equal outlines share one cached coverage on GL.
        var copies: [Layer] = []
        for f in frames {
            let shown = BasicAnimation(from: 1.0, to: 1.0, duration: 1 / rate, beginTime: (Double(f) - 1e-3) / rate,
                                       fillMode: frames.count == 1 ? .both : f == frames.lowerBound ? .backwards : f == frames.upperBound ? .forwards : .removed)
            copies.append(ruled(drawable(path, fill: .gradient(try gradient(item, at: Double(f))), opacity: Timeline(0, animations: [.basic(shown)]))))
        }
        var holder = Self.maskLayer(copies)
        holder.name = "keyframed gradient"
        holder.opacity = opacity.timeline(0, scale: 0.01, rate: rate)
        return holder
    }

    /// The frames a gradient's points or stops change over (nil: they never change).
    func gradientSpan(_ item: Node) throws -> ClosedRange<Double>? {
        spanning([try item.animated("s", default: [0, 0]).span, try item.animated("e", default: [0, 0]).span,
                  try item["g"]?.animated("k", default: []).span, try item.animated("h", default: [0]).span,
                  try item.animated("a", default: [0]).span])
    }

    /// A gradient fill's or stroke's gradient: `s` and `e` its points, `t`
    /// 1 linear or 2 radial, `g` its `p` colour stops (position, r, g, b)
    /// followed by opacity stops (position, alpha), merged: each stop of
    /// either kind with the other kind's value interpolated there.
    func gradient(_ item: Node, at frame: Double? = nil) throws -> Gradient {
        let start = try item.animated("s", default: [0, 0]), end = try item.animated("e", default: [0, 0])
        guard let g = item["g"] else { throw item.fail("a gradient without 'g' (its stops)") }
        let count = Int(holding: try g.number("p", default: 0), to: 0...4096)
        let values = try g.animated("k", default: [])
        let highlight = try item.animated("h", default: [0]), highlightAngle = try item.animated("a", default: [0])
        let f = frame ?? values.keyframes.first?.time ?? 0
        let v = values.value(at: f)
        guard count >= 0, count * 4 <= v.count else { throw g.fail("\(count) colour stops where 'k' holds \(v.count) numbers") }
        typealias ColorStop = (position: Double, rgb: (Double, Double, Double))
        typealias AlphaStop = (position: Double, alpha: Double)
        var colorStops: [ColorStop] = [], alphaStops: [AlphaStop] = []
        for i in 0..<count {
            let base = 4 * i
            colorStops.append((position: v[base], rgb: (v[base + 1], v[base + 2], v[base + 3])))
        }
        var k = 4 * count
        while k + 1 < v.count {
            alphaStops.append((position: v[k], alpha: v[k + 1]))
            k += 2
        }
        func rgb(at t: Double) -> (Double, Double, Double) {
            Gradient.interpolate(colorStops.map { ($0.position, $0.rgb) }, at: t) { a, b, k in
                (a.0 + (b.0 - a.0) * k, a.1 + (b.1 - a.1) * k, a.2 + (b.2 - a.2) * k)
            } ?? (0, 0, 0)
        }
        func alpha(at t: Double) -> Double {
            Gradient.interpolate(alphaStops.map { ($0.position, $0.alpha) }, at: t) { a, b, k in a + (b - a) * k } ?? 1
        }
        let positions = Set(colorStops.map { $0.position } + alphaStops.map { $0.position }).sorted()
        func byte(_ x: Double) -> UInt8 { UInt8(Swift.max(0, Swift.min(255, (x * 255).rounded()))) }
        let stops = positions.map { t -> Gradient.Stop in
            let c = rgb(at: t)
            return Gradient.Stop(t, RGBA8(byte(c.0), byte(c.1), byte(c.2), byte(alpha(at: t))))
        }
        func point(_ p: [Double]) -> Point { Point(p.count > 0 ? p[0] : 0, p.count > 1 ? p[1] : 0) }
        let kind: Gradient.Kind = item["t"]?.value.number == 2 ? .radial : .linear
        let from = point(start.value(at: f))
        var to = point(end.value(at: f))
        if kind == .radial {
            // The radius as rlottie and ThorVG take it: max(|dx|, |dy|) + 3/8 min(|dx|, |dy|), an estimate of the
            // distance a few percent long, which both peers draw with.
            let dx = abs(to.x - from.x), dy = abs(to.y - from.y), exact = (dx * dx + dy * dy).squareRoot()
            let estimate = Swift.max(dx, dy) + 0.375 * Swift.min(dx, dy)
            if exact > 0 { to = Point(from.x + (to.x - from.x) * estimate / exact, from.y + (to.y - from.y) * estimate / exact) }
        }
        // A radial gradient's highlight: its focus `h` percent of the radius from the centre, `a` degrees from the
        // direction of its end point (held inside the circle).
        var focus: Point?
        let h = Swift.min(0.99, Swift.max(-0.99, highlight.scalar(at: f) / 100))
        if kind == .radial, h != 0 {
            let r = ((to.x - from.x) * (to.x - from.x) + (to.y - from.y) * (to.y - from.y)).squareRoot()
            let turn = atan2(to.y - from.y, to.x - from.x) + highlightAngle.scalar(at: f) * Double.pi / 180
            focus = Point(from.x + cos(turn) * h * r, from.y + sin(turn) * h * r)
        }
        return Gradient(kind, start: from, end: to, stops: stops, focus: focus)
    }

    /// A repeater (`rp`): the items above it in its group drawn `c` times,
    /// copy k under the repeater's transform applied k times about its
    /// anchor (Core Animation's replicator: `Replicator`), its opacity
    /// going from `so` to `eo` percent over the copies. The number of copies
    /// is taken at the first frame; an offset is applied as that many steps
    /// before the first copy; copies are stacked each above the last.
    func repeater(_ item: Node, copying below: [Layer]) throws -> Layer {
        let copies = try item.animated("c", default: [1])
        if item["m"]?.value.number == 2 { without.add("repeaters stacked below (drawn above)") }
        let tr = item["tr"]
        let t = try LottieTransform(tr)
        let start = (try tr?.animated("so", default: [100]) ?? AnimatedValue([100])).scalar(at: 0) / 100
        let end = (try tr?.animated("eo", default: [100]) ?? AnimatedValue([100])).scalar(at: 0) / 100
        if copies.isAnimated {
            if t.isAnimated { without.add("animated repeater copies under an animated step (drawn at their first keyframe)") } else {
                return try unrolledRepeater(item, copying: below, copies: copies, step: t, opacity: (start, end))
            }
        }
        let asked = copies.scalar(at: copies.keyframes.first?.time ?? 0).rounded()
        guard asked <= Double(Self.maxCopies) else { throw item.fail("a repeater of \(asked) copies (at most \(Self.maxCopies))") }
        let count = Int(holding: asked, to: 0...Self.maxCopies)
        var layer = Layer(name: Self.name(item, or: "repeater"), frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: below)
        // Copies turn and scale about the anchor: the bounds' centre there, placed where it was.
        layer.anchorPoint = Point(0, 0)
        let ax = t.anchor.timeline(0, rate: rate), ay = t.anchor.timeline(1, rate: rate)
        layer.boundsOrigin = AnimatablePoint(x: ax, y: ay)
        layer.position = AnimatablePoint(x: ax, y: ay)
        var step = AnimatableTransform()
        step.translationX = t.position.timeline(0, rate: rate)
        step.translationY = t.position.timeline(1, rate: rate)
        step.rotation = t.rotation.timeline(0, scale: Double.pi / 180, rate: rate)
        step.scaleX = t.scale.timeline(0, scale: 0.01, rate: rate)
        step.scaleY = t.scale.timeline(1, scale: 0.01, rate: rate)
        setSkew(t, on: &step)
        let fade = count > 1 ? (end - start) / Double(count - 1) : 0
        layer.replicator = Replicator(count: count, instanceTransform: step, instanceColor: Tint(r: 1, g: 1, b: 1, a: Swift.min(1, Swift.max(0, start))),
                                      colorOffset: Tint(r: 0, g: 0, b: 0, a: fade))
        let offset = (try item.animated("o", default: [0])).scalar(at: 0).rounded()
        guard offset != 0, abs(offset) <= 1000 else { return layer }
        // An offset: the copies start that many steps on (the step's model values, applied as many times).
        // Below 0, that many steps back (the step undone).
        guard let m = offset > 0 ? Self.step(t) : Self.step(t).inverted else { return layer }
        let shifted = m.power(Int(abs(offset)))
        var holder = Layer(name: "repeater offset", frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: [layer])
        Self.place(&holder, shifted)
        return holder
    }

    /// A repeater's step at its first frame about its anchor a: T(a) M T(-a), M its position, rotation and scale.
    static func step(_ t: LottieTransform) -> Affine {
        let a = t.anchor.value(at: 0), ax = a.count > 0 ? a[0] : 0, ay = a.count > 1 ? a[1] : 0
        var plain = t
        plain.anchor = AnimatedValue([0, 0])
        return Affine.translation(ax, ay).concatenating(after: plain.matrix(at: 0).concatenating(after: .translation(-ax, -ay)))
    }

    /// Places a layer at the origin by `m`, any affine transform: taken
    /// apart as a rotation after a skew along x after a scale (the layer
    /// transform's own order; a negative y scale where `m` mirrors).
    static func place(_ layer: inout Layer, _ m: Affine) {
        layer.anchorPoint = Point(0, 0)
        layer.position = AnimatablePoint(m.tx, m.ty)
        let sx = (m.a * m.a + m.b * m.b).squareRoot(), turn = atan2(m.b, m.a)
        // Turned back, m is [sx, tan(skew) sy; 0, sy].
        let across = cos(turn) * m.c + sin(turn) * m.d, sy = -sin(turn) * m.c + cos(turn) * m.d
        layer.transform = AnimatableTransform(rotation: turn, scaleX: sx, scaleY: sy, skew: sy != 0 ? atan(across / sy) : 0)
    }

    /// A repeater whose number of copies changes (and whose step does not):
    /// as many copies as it ever has, each a layer placed by the step's
    /// matrix to its power, shown while the number of copies exceeds its
    /// index (a step at every frame: the count is sampled per frame).
    func unrolledRepeater(_ item: Node, copying below: [Layer], copies: AnimatedValue, step t: LottieTransform,
                                  opacity: (start: Double, end: Double)) throws -> Layer {
        let first = copies.keyframes.first?.time ?? 0, last = copies.keyframes.last?.time ?? 0
        let samples = FrameSamples(from: first, to: last)
        let counts = samples.frames.map { copies.scalar(at: $0) }
        let most = Int(holding: (counts.max() ?? 0).rounded(.up), to: 0...Self.maxCopies)
        guard most * (samples.count + 1) <= 2_000_000 else {
            throw item.fail("a repeater of up to \(most) copies over \(samples.count) frames (at most 2000000 copy-frames)")
        }
        let m = Self.step(t)
        // An offset starts the copies that many steps on.
        let offset = Int(Swift.max(-1000, Swift.min(1000, (try item.animated("o", default: [0])).scalar(at: 0).rounded())))
        // Below 0, the copies start that many steps back (the step undone).
        var power = (offset >= 0 ? m : m.inverted ?? .identity).power(abs(offset))
        var layers: [Layer] = []
        for k in 0..<most {
            var copy = Layer(name: "copy \(k)", frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: below)
            Self.place(&copy, power)
            let alpha = most > 1 ? opacity.start + (opacity.end - opacity.start) * Double(k) / Double(most - 1) : opacity.start
            // Shown while the count exceeds k, a fraction of a copy at that opacity (as rlottie), frame by frame.
            let shown = counts.map { alpha * Swift.min(1, Swift.max(0, $0 - Double(k))) }
            copy.opacity = samples.timeline(shown, rate: rate, discrete: true)
            layers.append(copy)
            power = m.concatenating(after: power)
        }
        var holder = Layer(name: Self.name(item, or: "repeater"), frame: Rect(x: 0, y: 0, width: 0, height: 0), sublayers: layers)
        holder.anchorPoint = Point(0, 0)
        holder.position = AnimatablePoint(0, 0)
        return holder
    }

    /// A trim: start and end in percent of an outline's length, turned by an
    /// offset in degrees; each outline cut alone (`m` 1, "simultaneously")
    /// or the outlines it cuts taken as one, one after another in the order
    /// they are made (`m` 2, "individually").
    struct Trim {
        let start: AnimatedValue, end: AnimatedValue, offset: AnimatedValue
        /// Cut as one (`m` 2): the outlines, as they register.
        let together: TrimmedTogether?

        init(_ item: Node, together: TrimmedTogether?) throws {
            start = try item.animated("s", default: [0])
            end = try item.animated("e", default: [100])
            offset = try item.animated("o", default: [0])
            self.together = together
        }

        var span: ClosedRange<Double>? { spanning([start.span, end.span, offset.span]) }

        /// The part kept at frame f, from and to in fractions of the length
        /// (to below from: round the end back to the start); nil keeps it all.
        func kept(at f: Double) -> (from: Double, to: Double)? {
            let shift = offset.scalar(at: f) / 360
            var a = start.scalar(at: f) / 100, b = end.scalar(at: f) / 100
            if a > b { swap(&a, &b) }
            if b - a >= 1 { return nil }
            if a == b { return (0, 0) }
            var from = (a + shift).truncatingRemainder(dividingBy: 1), to = (b + shift).truncatingRemainder(dividingBy: 1)
            if from < 0 { from += 1 }
            if to < 0 { to += 1 }
            if to == 0 && b > a { to = 1 }
            return (from, to)
        }

        /// `outline` cut by this trim.
        func cutting(_ outline: Geometry) -> Geometry {
            guard let together else {
                return Geometry(span: spanning([outline.span, span])) { f in
                    let lines = outline.lines(f)
                    guard let (from, to) = kept(at: f) else { return lines }
                    return lines.flatMap { Stroker.trimmed([$0], from: from, to: to) }
                }
            }
            // Its share of the part kept of all the outlines laid end to end; it changes whenever any of them does.
            // The outlines were all registered by a first pass over the layer (`shapeLayer`): the second takes its place.
            let k: Int
            if together.sealed {
                k = Swift.min(together.cursor, together.outlines.count - 1)
                together.cursor += 1
            } else {
                k = together.outlines.count
                together.outlines.append(outline)
            }
            guard k >= 0 else { return outline }
            let trimSpan = span
            return Geometry(lazySpan: { spanning([trimSpan] + together.outlines.map(\.span)) }) { f in
                let all = together.outlines.map { $0.lines(f) }
                guard let (from, to) = kept(at: f) else { return all[k] }
                let lengths = all.map { $0.reduce(0) { $0 + $1.length } }, total = lengths.reduce(0, +)
                let before = lengths[..<k].reduce(0, +), mine = lengths[k]
                guard mine > 0, total > 0 else { return [] }
                let pieces = to < from ? [(from, 1.0), (0.0, to)] : [(from, to)]
                return pieces.flatMap { piece -> [Polyline] in
                    let lo = Swift.max(piece.0 * total, before), hi = Swift.min(piece.1 * total, before + mine)
                    return hi > lo ? Stroker.trimmed(all[k], from: (lo - before) / mine, to: (hi - before) / mine) : []
                }
            }
        }
    }

    /// The outlines one trim of `m` 2 cuts as one, in the order they are made:
    /// registered by a first pass over the layer, then sealed, each outline of
    /// the second pass taking its place in order.
    final class TrimmedTogether {
        var outlines: [Geometry] = []
        var sealed = false
        var cursor = 0
    }

    /// The trim's outlines cut as one, for a trim of `m` 2 (nil for one that cuts each alone); one per trim item of
    /// the layer being built, shared by its two passes.
    func trimmedTogether(_ item: Node) -> TrimmedTogether? {
        guard item["m"]?.value.number == 2 else { return nil }
        if let known = trimsTogether[item.place] { return known }
        let together = TrimmedTogether()
        trimsTogether[item.place] = together
        return together
    }

    /// A shape layer's items as layers. Where a trim cuts outlines one after
    /// another (`m` 2), a first pass registers every outline it cuts (drawing
    /// nothing and counting nothing), so that each outline's share of their
    /// length is known when a style draws it in the second.
    func shapeLayer(_ items: [Node], depth: Int) throws -> [Layer] {
        defer { trimsTogether = [:] }
        if Self.cutsOneAfterAnother(items) {
            let saved = (without, itemsBuilt, sampledPoints, sampledFrames)
            registeringOutlines = true
            defer { registeringOutlines = false }
            _ = try group(items, depth: depth)
            registeringOutlines = false
            (without, itemsBuilt, sampledPoints, sampledFrames) = saved
            for together in trimsTogether.values { together.sealed = true }
        }
        return try group(items, depth: depth).layers
    }

    /// Whether a trim of `m` 2 is among `items` or in their groups.
    static func cutsOneAfterAnother(_ items: [Node]) -> Bool {
        items.contains { item in
            (item.string("ty") == "tm" && item["m"]?.value.number == 2) || (item.string("ty") == "gr" && cutsOneAfterAnother(item["it"]?.items ?? []))
        }
    }

    struct Stroke {
        var width: AnimatedValue
        var cap: LineCap
        var join: LineJoin
        var miterLimit: Double
        var dashes: [AnimatedValue]
        var dashOffset: AnimatedValue

        var span: ClosedRange<Double>? { spanning([width.span, dashOffset.span] + dashes.map(\.span)) }

        func style(at f: Double) -> StrokeStyle {
            StrokeStyle(width: width.scalar(at: f), cap: cap, join: join, miterLimit: miterLimit,
                        dashes: dashes.map { $0.scalar(at: f) }, dashOffset: dashOffset.scalar(at: f))
        }
    }

    /// The outline to fill: the outlines themselves (a fill) or their stroke; sampled at every frame where it changes.
    func outline(_ geometry: Geometry, style: Stroke?) throws -> ShapePath {
        func path(_ f: Double) throws -> Path {
            var builder = PathBuilder()
            let lines = geometry.lines(f)
            if let style {
                do { try Stroker.outline(lines, style.style(at: f), tolerance: tolerance, into: &builder) } catch let e as Stroker.TooLarge {
                    throw LottieError(place: "", problem: e.description)
                }
            } else {
                for line in lines where line.points.count > 2 { try line.fill(into: &builder) }
            }
            return builder.path
        }
        guard let span = spanning([geometry.span, style?.span]) else {
            let fixed = try path(0)
            sampledPoints += fixed.elements.count
            guard sampledPoints <= Self.maxSampledPoints else {
                throw LottieError(place: "", problem: "outlines of more than \(Self.maxSampledPoints) points in all")
            }
            return .fixed(fixed)
        }
        // Every frame the file has (its layers' keyframes are in these frames); the scene's time picks one.
        // Every whole frame it changes over that the layer's time reaches (held before and after).
        let first = Int(holding: Swift.max(span.lowerBound, sampledFrom), to: -Int(LottieAnimation.maxFrames)...Int(LottieAnimation.maxFrames))
        let last = Int(holding: Swift.min(span.upperBound, sampledTo).rounded(.up), to: first...(first + Int(LottieAnimation.maxFrames)))
        var frames: [Path] = []
        sampledFrames += last - first + 1
        guard sampledFrames <= Self.maxSampledFrames else {
            throw LottieError(place: "", problem: "changing outlines over more than \(Self.maxSampledFrames) frames in all")
        }
        for f in first...Swift.max(first, last) {
            let p = try path(Double(f))
            sampledPoints += p.elements.count
            guard sampledPoints <= Self.maxSampledPoints else {
                throw LottieError(place: "", problem: "outlines of more than \(Self.maxSampledPoints) points in all (a changing one's at every frame)")
            }
            frames.append(p)
        }
        return .dynamic(SampledOutline(firstFrame: first, frames: frames, rate: rate))
    }


    /// A shape layer drawing `path` in `color` at `opacity`.
    func drawable(_ path: ShapePath, fill: Fill, colors: Timeline<ColorValue>? = nil, opacity: Timeline<Double>) -> Layer {
        var shape: Shape
        switch path {
        case let .fixed(p): shape = Shape(path: p, fill: fill, color: colors)
        case let .dynamic(d): shape = Shape(dynamic: d, fill: fill, parameters: [SampledOutline.frameTimeline(rate: rate)], color: colors)
        }
        var layer = Layer(name: "shape", frame: Rect(x: 0, y: 0, width: 0, height: 0), contents: .shape(shape))
        // Shown scaled (the file fitted to the scene): GL rasterises it at that scale.
        layer.rasterizesAtShownScale = true
        layer.anchorPoint = Point(0, 0)
        layer.position = AnimatablePoint(0, 0)
        layer.opacity = opacity
        return layer
    }
}

/// Outlines in a group's coordinates at a frame, and the frames they change over (nil: they never change).
struct Geometry: @unchecked Sendable {
    private let spanNow: () -> ClosedRange<Double>?
    let lines: (Double) -> [Polyline]
    /// The frames its outline changes over (nil: never).
    var span: ClosedRange<Double>? { spanNow() }

    init(span: ClosedRange<Double>?, _ lines: @escaping (Double) -> [Polyline]) {
        spanNow = { span }
        self.lines = lines
    }

    /// A span known only when it is read (it depends on outlines made later).
    init(lazySpan: @escaping () -> ClosedRange<Double>?, _ lines: @escaping (Double) -> [Polyline]) {
        spanNow = lazySpan
        self.lines = lines
    }
}
