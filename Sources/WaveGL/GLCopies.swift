import CGL
import WaveCore

/// The GL strategy for a replicator's copies (`Shaders/copies_state.frag.glsl`,
/// `Shaders/copies.vert.glsl`, `Shaders/box.frag.glsl`). The sublayers'
/// property timelines are written once into a table; every frame a state
/// pass (one fragment per copy and sublayer, on the GPU's or llvmpipe's
/// worker threads) evaluates them for each copy at its own time (the
/// replicator's less k instance delays) into state textures. Then, where
/// the steps only translate (a lattice), each page is one quad whose pixels
/// find the copies that reach them by lattice arithmetic; where they turn
/// or scale, one instanced draw whose vertices only fetch their state. The
/// CPU's work a frame is a few uniforms and, for a live level, its history:
/// the same for 10 copies or 10,000. Boxes are the primitive drawn this
/// way (their coverage analytic), directly under the replicator or under
/// one replicator inside it (a grid; its place fixed, its step fixed or
/// animated, as a row that curls); a replicator of anything else,
/// or with timelines the table cannot hold, has its copies drawn one item each.
final class GLCopies {
    /// Texels a table row (both tables).
    static let rowTexels = 1024
    /// Texels a sublayer's record: size and anchor, corner radius and
    /// border width, border colour, then its eleven properties' addresses.
    static let texelsPerChild = 6
    /// The most values a recorded level may bring to the table.
    static let maxSamples = 1 << 22
    static let huge: Float = 3.0e38

    /// The timeline table, built once per scene.
    struct Tables {
        var program: [SIMD4<Float>] = []
        var samples: [SIMD4<Float>] = []
        /// Per level source: its record (kind, a, b, c), made on first use.
        var sourceRecords: [Int: SIMD4<Float>] = [:]
        /// Live sources and the table texel where their history starts (a row of its own).
        var live: [(source: Int, texel: Int)] = []
        /// Per replicator layer (by the evaluator's node index): its first sublayer record and sublayer count.
        var replicators: [Int: Record] = [:]
        /// False for a trial: recorded levels are checked, not copied (a long one is megabytes).
        var copiesSamples = true
    }

    /// Whether this strategy draws the layer's copies in one instanced draw
    /// (a trial encoding: the same checks as the real one, no samples copied).
    static func canDraw(_ layer: Layer, levels: [Level]) -> Bool {
        var scratch = Tables()
        scratch.copiesSamples = false
        return encode(layer, levels: levels, into: &scratch) != nil
    }

    /// Where the copies' records start, how many boxes a copy draws, and
    /// the inner replicator a copy may hold (a grid: rows of rows), fixed.
    struct Record {
        var base: Int
        var children: Int
        var inner = Inner()
        /// Where both steps only translate: every box's reach about copy
        /// (0, 0) in the replicator's layer, and the inner step's translation there.
        var lattice: Lattice?
    }

    /// A lattice's fixed parts (see `Record.lattice`).
    struct Lattice {
        var reach: (x0: Double, y0: Double, x1: Double, y1: Double)
        var innerStep: (x: Double, y: Double)
        /// Whether a box may turn in its copy (or the inner place turns or shears it).
        var turns: Bool
    }

    /// A replicator inside the replicator (each outer copy holds all its
    /// copies): its count, delay, place in the outer copy, step and tints.
    /// Its step is fixed, or (a row that curls) animated: then each outer
    /// copy evaluates it at its own time on the GPU (`animatedStep`).
    struct Inner {
        var count = 1
        var delay = 0.0
        var place = Affine.identity
        var step = Affine.identity
        /// The animated step's timelines (translation x and y, rotation, scale x and y: their
        /// records' addresses) and the centre it turns about; nil for a fixed step.
        var animatedStep: (records: [Int], centre: (x: Double, y: Double))?
        var opacity = 1.0
        var instanceColor = Tint.identity
        var colorOffset = Tint.zero
    }

    /// The replicator's sublayers' records (nil: not drawable this way).
    @discardableResult
    static func encode(_ layer: Layer, levels: [Level], into tables: inout Tables) -> Record? {
        guard let replicator = layer.replicator, replicator.count >= 1, replicator.count <= Replicator.maxCount,
              replicator.instanceDelay.isFinite else { return nil }
        var shown = layer.sublayers.filter { !$0.isHidden }
        var inner = Inner()
        if shown.count == 1, let nested = innerReplicator(shown[0], levels: levels, into: &tables) {
            inner = nested
            shown = shown[0].sublayers.filter { !$0.isHidden }
        }
        guard !shown.isEmpty, shown.allSatisfy(isPlainBox),
              replicator.count * inner.count * shown.count <= LayerTreeEvaluator.maxItems else { return nil }
        var records: [[SIMD4<Float>]] = []
        let lattice = latticeReach(of: replicator, shown, inner: inner)
        for sublayer in shown {
            // The shader turns and scales a box; a skewed one is drawn by another mechanism.
            guard case let .box(box)? = sublayer.contents, sublayer.transform.skew == .constant(0) else { return nil }
            var addresses: [Float] = []
            let t = sublayer.transform
            for timeline in [sublayer.position.x, sublayer.position.y, sublayer.boundsOrigin.x, sublayer.boundsOrigin.y,
                             sublayer.opacity, t.translationX, t.translationY, t.rotation, t.scaleX, t.scaleY] {
                guard let at = encode(timeline, levels: levels, into: &tables, components: { SIMD4(Float($0), 0, 0, 0) }) else {
                    return nil
                }
                addresses.append(Float(at))
            }
            guard let fill = encode(box.fillColor, levels: levels, into: &tables,
                                    components: { SIMD4(Float($0.r), Float($0.g), Float($0.b), Float($0.a)) }) else { return nil }
            addresses.append(Float(fill))
            addresses.append(0)
            let b = box.borderColor
            records.append([
                SIMD4(Float(sublayer.size.width), Float(sublayer.size.height), Float(sublayer.anchorPoint.x), Float(sublayer.anchorPoint.y)),
                SIMD4(Float(box.cornerRadius), Float(box.borderWidth), 0, 0),
                SIMD4(Float(b.r / 255), Float(b.g / 255), Float(b.b / 255), Float(b.a / 255)),
                SIMD4(addresses[0], addresses[1], addresses[2], addresses[3]),
                SIMD4(addresses[4], addresses[5], addresses[6], addresses[7]),
                SIMD4(addresses[8], addresses[9], addresses[10], addresses[11]),
            ])
        }
        let base = tables.program.count
        for record in records { tables.program.append(contentsOf: record) }
        guard tables.program.count < 1 << 24 else { return nil }
        return Record(base: base, children: records.count, inner: inner, lattice: lattice)
    }

    /// The lattice's fixed parts where the outer step and the inner step
    /// only translate at every time (nil: they turn or scale, or a box's
    /// reach has no finite bound).
    static func latticeReach(of replicator: Replicator, _ boxes: [Layer], inner: Inner) -> Lattice? {
        let t = replicator.instanceTransform
        guard t.rotation == .constant(0), t.scaleX == .constant(1), t.scaleY == .constant(1), t.skew == .constant(0),
              inner.animatedStep == nil, boxes.allSatisfy({ $0.transform.skew == .constant(0) }) else { return nil }
        let s = inner.step, place = inner.place
        guard s.a == 1, s.d == 1, s.b == 0, s.c == 0 else { return nil }
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        var turns = place.b != 0 || place.c != 0
        for box in boxes {
            guard let px = range(of: box.position.x), let py = range(of: box.position.y),
                  let tx = range(of: box.transform.translationX), let ty = range(of: box.transform.translationY),
                  let rotation = range(of: box.transform.rotation), let sx = range(of: box.transform.scaleX),
                  let sy = range(of: box.transform.scaleY) else { return nil }
            // The box about its anchor: the rect less the anchor, whatever the bounds' origin.
            let w = box.size.width, h = box.size.height, ax = box.anchorPoint.x, ay = box.anchorPoint.y
            let dx = (lo: -ax * w, hi: (1 - ax) * w), dy = (lo: -ay * h, hi: (1 - ay) * h)
            var ex: (lo: Double, hi: Double), ey: (lo: Double, hi: Double)
            if rotation.lo == 0 && rotation.hi == 0 {
                ex = product(sx, dx)
                ey = product(sy, dy)
            } else {
                turns = true
                let scale = Swift.max(abs(sx.lo), abs(sx.hi), abs(sy.lo), abs(sy.hi))
                let radius = scale * (Swift.max(dx.lo * dx.lo, dx.hi * dx.hi) + Swift.max(dy.lo * dy.lo, dy.hi * dy.hi)).squareRoot()
                ex = (-radius, radius)
                ey = (-radius, radius)
            }
            let lx = px.lo + tx.lo + ex.lo, hx = px.hi + tx.hi + ex.hi
            let ly = py.lo + ty.lo + ey.lo, hy = py.hi + ty.hi + ey.hi
            // Through the inner replicator's fixed place (identity without one).
            for (x, y) in [(lx, ly), (hx, ly), (lx, hy), (hx, hy)] {
                let qx = place.a * x + place.c * y + place.tx, qy = place.b * x + place.d * y + place.ty
                x0 = Swift.min(x0, qx); x1 = Swift.max(x1, qx)
                y0 = Swift.min(y0, qy); y1 = Swift.max(y1, qy)
            }
        }
        // A pixel more each way for rounding.
        let reach = (x0: x0 - 1, y0: y0 - 1, x1: x1 + 1, y1: y1 + 1)
        guard [reach.x0, reach.y0, reach.x1, reach.y1].allSatisfy(\.isFinite) else { return nil }
        return Lattice(reach: reach, innerStep: (place.a * s.tx + place.c * s.ty, place.b * s.tx + place.d * s.ty), turns: turns)
    }

    private static func product(_ a: (lo: Double, hi: Double), _ b: (lo: Double, hi: Double)) -> (lo: Double, hi: Double) {
        let p = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
        return (p.min()!, p.max()!)
    }

    /// Every value a timeline can take at any time, bounded: its model value,
    /// each animation's values over its whole progress (a timing curve's
    /// overshoot, a spring's amplitude, a driven value's clamped range); nil
    /// where no finite bound is known.
    static func range(of timeline: Timeline<Double>) -> (lo: Double, hi: Double)? {
        var lo = timeline.value, hi = timeline.value
        func include(_ from: Double, _ to: Double, progress p0: Double, _ p1: Double) {
            for p in [p0, p1] {
                let v = from + (to - from) * p
                lo = Swift.min(lo, v); hi = Swift.max(hi, v)
            }
        }
        func progress(_ function: TimingFunction) -> (Double, Double) {
            guard case let .curve(c) = function else { return (0, 1) }
            return (Swift.min(0, c.y1, c.y2), Swift.max(1, c.y1, c.y2))
        }
        for animation in timeline.animations {
            switch animation {
            case let .basic(a):
                let (p0, p1) = progress(a.function)
                include(a.from, a.to, progress: p0, p1)
            case let .keyframes(k):
                for v in k.values { lo = Swift.min(lo, v); hi = Swift.max(hi, v) }
            case let .spring(s):
                // The displacement x (progress 1 - x) from x = 1 with velocity v0, bounded by its amplitude.
                let w0 = s.spring.naturalFrequency, zeta = s.spring.dampingRatio, v0 = -s.initialVelocity
                guard w0 > 0, w0.isFinite, zeta >= 0 else { return nil }
                let amplitude: Double
                if abs(zeta - 1) < 1e-6 {
                    amplitude = 1 + abs(v0 + w0) / (w0 * 2.718281828459045)
                } else if zeta < 1 {
                    let wd = w0 * (1 - zeta * zeta).squareRoot(), b = (v0 + zeta * w0) / wd
                    amplitude = (1 + b * b).squareRoot()
                } else {
                    let root = w0 * (zeta * zeta - 1).squareRoot(), r2 = -zeta * w0 - root, r1 = w0 * w0 / r2
                    let c2 = (v0 - r1) / (r2 - r1)
                    amplitude = abs(1 - c2) + abs(c2)
                }
                include(s.from, s.to, progress: 1 - amplitude, 1 + amplitude)
            case let .driven(d):
                let held = { (x: Double) in Swift.min(Swift.max(x, d.lower), d.upper) }
                include(d.from, d.to, progress: held(d.bias), held(d.gain + d.bias))
            }
        }
        return lo.isFinite && hi.isFinite ? (lo, hi) : nil
    }

    /// A replicator layer that draws nothing itself and whose every
    /// property is constant (so one place serves every outer copy), holding
    /// boxes. Its instance transform is constant (one step for every outer
    /// copy), or animated on the layer's own time, which is then each outer
    /// copy's (its timelines are recorded for the GPU to evaluate).
    private static func innerReplicator(_ layer: Layer, levels: [Level], into tables: inout Tables) -> Inner? {
        guard let r = layer.replicator, r.count >= 1, r.instanceDelay.isFinite, layer.contents == nil, layer.mask == nil,
              !layer.masksToBounds, let still = LayerTreeEvaluator.StillPlacement(layer) else { return nil }
        var inner = Inner(count: r.count, delay: r.instanceDelay, place: still.toParent,
                          step: LayerTreeEvaluator.instanceStep(r, bounds: still.bounds, at: 0, sources: nil),
                          opacity: still.opacity, instanceColor: r.instanceColor, colorOffset: r.colorOffset)
        if !r.instanceTransform.timelines.allSatisfy(\.isConstant) {
            // The shader steps by translation, rotation and scale (a skew that animates is drawn by another mechanism).
            let t = r.instanceTransform
            guard layer.isOnParentTime, t.skew.isConstant, t.skewAxis.isConstant, t.skew.value == 0 else { return nil }
            var records: [Int] = []
            for timeline in [t.translationX, t.translationY, t.rotation, t.scaleX, t.scaleY] {
                guard let at = encode(timeline, levels: levels, into: &tables, components: { SIMD4(Float($0), 0, 0, 0) }) else {
                    return nil
                }
                records.append(at)
            }
            inner.animatedStep = (records, (still.bounds.midX, still.bounds.midY))
        }
        return inner
    }

    /// A box that draws nothing but itself, on the tree's own time.
    private static func isPlainBox(_ layer: Layer) -> Bool {
        guard case .box? = layer.contents else { return false }
        return layer.sublayers.isEmpty && layer.replicator == nil && layer.mask == nil && !layer.masksToBounds
            && layer.isOnParentTime
    }

    /// A double as the tables hold it: infinities as the largest floats.
    @inline(__always)
    private static func f(_ x: Double) -> Float { x.isInfinite ? (x > 0 ? huge : -huge) : Float(x) }

    /// A timing's two texels, as the shader's `simpleTime` reads them: (begin, duration, speed, offset) and
    /// (active duration, start, end, cycle); its flags go in the texel before them.
    static func timingTexels(_ m: MediaTiming) -> [SIMD4<Float>] {
        [SIMD4(f(m.beginTime), f(m.duration), f(m.speed), f(m.timeOffset)), SIMD4(f(m.activeDuration), f(m.startTime), f(m.endTime), f(m.cycle))]
    }

    /// A timeline's record (see the shader's header), appended to the table; nil where it cannot be held.
    static func encode<V: Interpolatable>(_ timeline: Timeline<V>, levels: [Level], into tables: inout Tables,
                                          components: (V) -> SIMD4<Float>) -> Int? {
        var texels: [SIMD4<Float>] = [components(timeline.value), SIMD4(Float(timeline.animations.count), 0, 0, 0)]
        // The codes are TimelineCode's, which the shader's constants are generated from.
        func timing(_ m: MediaTiming, kind: TimelineCode.Kind, length: Int, function: TimingFunction) {
            var curve = SIMD4<Float>(0, 0, 1, 1)
            if case let .curve(c) = function { curve = SIMD4(Float(c.x1), Float(c.y1), Float(c.x2), Float(c.y2)) }
            texels.append(SIMD4(Float(kind.rawValue), Float(length), Float(TimelineCode.Flags(m).rawValue),
                                Float(TimelineCode.Function(function).rawValue)))
            texels += timingTexels(m)
            texels.append(curve)
        }
        for animation in timeline.animations.reversed() {
            switch animation {
            case let .basic(a):
                guard !a.isCumulative else { return nil }
                timing(a.timing, kind: TimelineCode.Kind(animation), length: 6, function: a.function)
                texels.append(components(a.from))
                texels.append(components(a.to))
            case let .keyframes(k):
                let n = k.values.count
                guard n >= 1, n <= 4096, !k.isCumulative else { return nil }
                let times = k.keyTimes ?? []
                timing(k.timing, kind: TimelineCode.Kind(animation), length: 5 + n + (times.count + 3) / 4, function: k.function)
                texels.append(SIMD4(Float(n), times.isEmpty ? 0 : 1, 0, 0))
                for v in k.values { texels.append(components(v)) }
                var i = 0
                while i < times.count {
                    var packed = SIMD4<Float>(repeating: 1)
                    for j in 0..<4 where i + j < times.count { packed[j] = Float(times[i + j]) }
                    texels.append(packed)
                    i += 4
                }
            case let .spring(s):
                timing(s.timing, kind: TimelineCode.Kind(animation), length: 7, function: .linear)
                texels.append(components(s.from))
                texels.append(components(s.to))
                texels.append(SIMD4(Float(s.spring.naturalFrequency), Float(s.spring.dampingRatio), Float(-s.initialVelocity), 0))
            case let .driven(d):
                // One that begins later (a state entered later) is evaluated on the CPU.
                guard d.begin == -.infinity, let source = sourceRecord(d.source, levels: levels, into: &tables) else { return nil }
                texels.append(SIMD4(Float(TimelineCode.Kind(animation).rawValue), 5, 0, 0))
                texels.append(SIMD4(f(d.gain), f(d.bias), f(d.lower), f(d.upper)))
                texels.append(source)
                texels.append(components(d.from))
                texels.append(components(d.to))
            }
        }
        let address = tables.program.count
        tables.program.append(contentsOf: texels)
        return address
    }

    /// A level's record: (0, value) constant, (1, first texel, values, rate) recorded, (2, first texel) live.
    private static func sourceRecord(_ index: Int, levels: [Level], into tables: inout Tables) -> SIMD4<Float>? {
        if let known = tables.sourceRecords[index] { return known }
        guard index >= 0 && index < levels.count else { return SIMD4(0, 0, 0, 0) }
        let record: SIMD4<Float>
        switch levels[index] {
        case let .constant(c):
            record = SIMD4(Float(TimelineCode.Source.constant.rawValue), Float(c.isFinite ? c : 0), 0, 0)
        case let .envelope(e):
            guard !e.values.isEmpty, e.values.count <= maxSamples else { return nil }
            let base = tables.samples.count
            var i = tables.copiesSamples ? 0 : e.values.count
            while i < e.values.count {
                var packed = SIMD4<Float>(repeating: 0)
                for j in 0..<4 where i + j < e.values.count { packed[j] = Float(e.values[i + j]) }
                tables.samples.append(packed)
                i += 4
            }
            record = SIMD4(Float(TimelineCode.Source.recorded.rawValue), Float(base), Float(e.values.count), Float(e.rate))
        case .simulated:
            // Stepped on the CPU: the copies are evaluated there.
            return nil
        case .live:
            // A row of its own, rewritten every frame.
            let base = (tables.samples.count + rowTexels - 1) / rowTexels * rowTexels
            if tables.copiesSamples {
                tables.samples.append(contentsOf: Array(repeating: SIMD4<Float>(-huge, 0, 0, 0), count: base + rowTexels - tables.samples.count))
            }
            tables.live.append((index, base))
            record = SIMD4(Float(TimelineCode.Source.live.rawValue), Float(base), 0, 0)
        }
        tables.sourceRecords[index] = record
        return record
    }


    // MARK: Drawing

    /// The state pass's targets (`copies_state.frag.glsl`'s outputs).
    static let stateTargets = 6
    /// The first texture unit of the state textures (units 0-6 are the tree's, the tables').
    static let stateUnit = 7
    /// The most copies that may reach one pixel in a lattice draw (more: instanced).
    static let maxCandidates = 256

    private struct StateProgram {
        let program: ShaderProgram
        let firstRow, instances, children, childBase, time, delay, world, step, opacity, tint, instanceColor, colorOffset: GLint
        let inner, innerDelay, innerPlace, innerStep, innerColor, innerOffset, innerAnimated, innerStepAt, innerCentre: GLint
    }
    private struct BoxProgram {
        let program: ShaderProgram
        let stateBase, viewport, pageTop: GLint
        // Lattice draws only.
        let children, counts, worldInverse, reach, steps: GLint
    }
    private var stateProgram: StateProgram?
    /// Instanced, lattice and lattice of axis-aligned boxes, each plain and masked.
    private var programs: [BoxProgram?] = [nil, nil, nil, nil, nil, nil]
    private var tables: Tables
    private let evaluator: LayerTreeEvaluator
    private let sources: DrivenSources
    private var programTexture: GLuint = 0, samplesTexture: GLuint = 0
    private var stateTextures = [GLuint](repeating: 0, count: stateTargets)
    private var stateFramebuffer: GLuint = 0
    /// Rows the state textures hold (grown, never shrunk, when a frame's copies need more).
    private var stateRows = 0
    /// This frame's first state row per item (-1: not copies), for the items and the mask items.
    private var itemRows: [Int] = [], maskItemRows: [Int] = []
    /// The step's powers as uniforms (kept: a frame allocates nothing).
    private let steps = UnsafeMutableBufferPointer<GLfloat>.allocate(capacity: 42 * 3)
    /// One live history row, filled each frame.
    private let history = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: rowTexels)
    /// The viewport saved around the state pass.
    private let savedViewport = UnsafeMutableBufferPointer<GLint>.allocate(capacity: 4)

    /// Whether a replicator whose steps only translate is drawn as a lattice (tests turn it off to compare).
    var allowsLattice = true
    /// Draws so far by kind (a page's copies are one draw).
    private(set) var latticeDraws = 0, alignedDraws = 0, instancedDraws = 0

    /// The tables for every replicator `evaluator` leaves to this strategy.
    init(evaluator: LayerTreeEvaluator, levels: [Level]) throws {
        self.evaluator = evaluator
        sources = evaluator.sources
        var tables = Tables()
        var rows = 0
        for (index, node) in evaluator.nodes.enumerated() where node.drawsCopies {
            guard let record = Self.encode(node.layer, levels: levels, into: &tables) else {
                throw GLError.limit(what: "a replicator's timelines for the GPU", needed: 1, available: 0)
            }
            tables.replicators[index] = record
            rows += Self.rows(Self.instances(node.layer.replicator, record))
        }
        self.tables = tables
        itemRows.reserveCapacity(evaluator.capacity.items)
        maskItemRows.reserveCapacity(evaluator.capacity.maskItems)
        programTexture = Self.upload(tables.program)
        samplesTexture = Self.upload(tables.samples)
        try makeStateTarget(rows: Swift.max(1, rows))
        try makePrograms()
    }

    deinit {
        glDeleteTextures(1, &programTexture)
        glDeleteTextures(1, &samplesTexture)
        glDeleteTextures(GLsizei(Self.stateTargets), stateTextures)
        glDeleteFramebuffers(1, &stateFramebuffer)
        steps.deallocate()
        history.deallocate()
        savedViewport.deallocate()
    }

    private static func instances(_ replicator: Replicator?, _ record: Record) -> Int {
        (replicator?.count ?? 0) * record.inner.count * record.children
    }

    private static func rows(_ instances: Int) -> Int { (instances + rowTexels - 1) / rowTexels }

    /// A table of texels (RGBA32F, 1024 a row) as a texture.
    static func upload(_ texels: [SIMD4<Float>]) -> GLuint {
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        let rows = Swift.max(1, (texels.count + rowTexels - 1) / rowTexels)
        var padded = texels
        padded.append(contentsOf: Array(repeating: SIMD4<Float>(repeating: 0), count: rows * rowTexels - texels.count))
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(rowTexels), GLsizei(rows), 0, GLenum(GL_RGBA), GLenum(GL_FLOAT),
                     padded)
        return texture
    }

    /// The state textures (RGBA32F, 1024 texels a row) and their framebuffer, `rows` tall.
    private func makeStateTarget(rows: Int) throws {
        if stateFramebuffer == 0 {
            glGenTextures(GLsizei(Self.stateTargets), &stateTextures)
            glGenFramebuffers(1, &stateFramebuffer)
        }
        var previous: GLint = 0
        glGetIntegerv(GLenum(GL_DRAW_FRAMEBUFFER_BINDING), &previous)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), stateFramebuffer)
        var target = 0
        while target < Self.stateTargets {
            glBindTexture(GLenum(GL_TEXTURE_2D), stateTextures[target])
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(Self.rowTexels), GLsizei(rows), 0, GLenum(GL_RGBA),
                         GLenum(GL_FLOAT), nil)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
            glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0 + Int32(target)), GLenum(GL_TEXTURE_2D),
                                   stateTextures[target], 0)
            target += 1
        }
        if stateRows == 0 {
            let buffers = (0..<Self.stateTargets).map { GLenum(GL_COLOR_ATTACHMENT0 + Int32($0)) }
            glDrawBuffers(GLsizei(buffers.count), buffers)
        }
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(previous))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw GLError.limit(what: "the copies' state targets (\(Self.stateTargets) RGBA32F, framebuffer status \(status))",
                                needed: Self.stateTargets, available: 0)
        }
        stateRows = rows
    }

    private func makePrograms() throws {
        let state = try ShaderProgram(vertex: "layer.vert.glsl", fragment: "copies_state.frag.glsl")
        glUseProgram(state.id)
        glUniform1i(state.uniform("u_program"), 5)
        glUniform1i(state.uniform("u_samples"), 6)
        stateProgram = StateProgram(
            program: state, firstRow: state.uniform("u_firstRow"), instances: state.uniform("u_instances"),
            children: state.uniform("u_children"), childBase: state.uniform("u_childBase"),
            time: state.uniform("u_time"), delay: state.uniform("u_delay"), world: state.uniform("u_world"),
            step: state.uniform("u_step"), opacity: state.uniform("u_opacity"), tint: state.uniform("u_tint"),
            instanceColor: state.uniform("u_instanceColor"), colorOffset: state.uniform("u_colorOffset"),
            inner: state.uniform("u_inner"), innerDelay: state.uniform("u_innerDelay"), innerPlace: state.uniform("u_innerPlace"),
            innerStep: state.uniform("u_innerStep"), innerColor: state.uniform("u_innerColor"),
            innerOffset: state.uniform("u_innerOffset"), innerAnimated: state.uniform("u_innerAnimated"),
            innerStepAt: state.uniform("u_innerStepAt"), innerCentre: state.uniform("u_innerCentre"))
        let units = (0..<Self.stateTargets).map { GLint(Self.stateUnit + $0) }
        for variant in 0..<6 {
            let lattice = variant >= 2, aligned = variant >= 4, masked = variant & 1 != 0
            let program = try ShaderProgram(vertex: lattice ? "layer.vert.glsl" : "copies.vert.glsl", fragment: "box.frag.glsl",
                                            defines: (lattice ? ["LATTICE"] : []) + (aligned ? ["AXIS_ALIGNED"] : [])
                                                + (masked ? ["MASKED"] : []))
            glUseProgram(program.id)
            glUniform1iv(program.uniform("u_state"), GLsizei(units.count), units)
            glUniform1i(program.uniform("u_mask"), 4)
            programs[variant] = BoxProgram(
                program: program, stateBase: program.uniform("u_stateBase"), viewport: program.uniform("u_viewport"),
                pageTop: program.uniform("u_pageTop"), children: program.uniform("u_children"), counts: program.uniform("u_counts"),
                worldInverse: program.uniform("u_worldInverse"), reach: program.uniform("u_reach"), steps: program.uniform("u_steps"))
        }
        glUseProgram(0)
    }

    /// The first state row of this frame's item `index` (of the mask items where `mask`), -1 where none.
    func stateRow(of index: Int, mask: Bool) -> Int {
        let rows = mask ? maskItemRows : itemRows
        return index < rows.count ? rows[index] : -1
    }

    /// Once a frame, before any page: every live level's history into its
    /// row, then the state pass for every copies item of `list` (each from
    /// a row of its own), restoring the framebuffer, viewport, blending and scissor.
    func prepareFrame(_ list: PresentationList) {
        uploadHistories()
        var needed = 0
        assignRows(list.items, mask: false, into: &itemRows, next: &needed)
        assignRows(list.maskItems, mask: true, into: &maskItemRows, next: &needed)
        guard needed > 0, let state = stateProgram else { return }
        if needed > stateRows { try? makeStateTarget(rows: Swift.max(needed, stateRows * 2)) }
        drawingOffscreen(into: stateFramebuffer, saving: savedViewport) {
            glUseProgram(state.program.id)
            glActiveTexture(GLenum(GL_TEXTURE5)); glBindTexture(GLenum(GL_TEXTURE_2D), programTexture)
            glActiveTexture(GLenum(GL_TEXTURE6)); glBindTexture(GLenum(GL_TEXTURE_2D), samplesTexture)
            glActiveTexture(GLenum(GL_TEXTURE0))
            evaluateStates(list.items, mask: false, rows: itemRows, state)
            evaluateStates(list.maskItems, mask: true, rows: maskItemRows, state)
        }
    }

    /// What the state pass wrote this frame to its target `target` (0: each
    /// instance's centre and half reach, ...; see the shader), the first
    /// `count` instances from state row `row` on: the GPU's evaluation of the
    /// copies' timelines, read back (allocates: for tests).
    func readState(target: Int, fromRow row: Int = 0, count: Int) -> [SIMD4<Float>] {
        let rows = (count + Self.rowTexels - 1) / Self.rowTexels
        var values = [SIMD4<Float>](repeating: .zero, count: rows * Self.rowTexels)
        var previous: GLint = 0
        glGetIntegerv(GLenum(GL_READ_FRAMEBUFFER_BINDING), &previous)
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), stateFramebuffer)
        glReadBuffer(GLenum(GL_COLOR_ATTACHMENT0 + Int32(target)))
        values.withUnsafeMutableBytes { bytes in
            glReadPixels(0, GLint(row), GLsizei(Self.rowTexels), GLsizei(rows), GLenum(GL_RGBA), GLenum(GL_FLOAT), bytes.baseAddress)
        }
        glReadBuffer(GLenum(GL_COLOR_ATTACHMENT0))
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), GLuint(previous))
        return Array(values.prefix(count))
    }

    private func assignRows(_ items: [PresentationItem], mask: Bool, into rows: inout [Int], next: inout Int) {
        rows.removeAll(keepingCapacity: true)
        var i = 0
        while i < items.count {
            let item = items[i]
            i += 1
            guard item.primitive == .copies, let record = tables.replicators[item.layer] else {
                rows.append(-1)
                continue
            }
            rows.append(next)
            next += Self.rows(Self.instances(evaluator.node(of: item, mask: mask).layer.replicator, record))
        }
    }

    private func evaluateStates(_ items: [PresentationItem], mask: Bool, rows: [Int], _ program: StateProgram) {
        var i = 0
        while i < items.count {
            let item = items[i], row = rows[i]
            i += 1
            guard row >= 0, let replicator = evaluator.node(of: item, mask: mask).layer.replicator,
                  let record = tables.replicators[item.layer] else { continue }
            let instances = Self.instances(replicator, record)
            guard instances > 0 else { continue }
            glViewport(0, GLint(row), GLsizei(Self.rowTexels), GLsizei(Self.rows(instances)))
            glUniform1i(program.firstRow, GLint(row))
            glUniform1i(program.instances, GLint(instances))
            glUniform1i(program.children, GLint(record.children))
            glUniform1i(program.childBase, GLint(record.base))
            glUniform1f(program.time, GLfloat(item.time))
            glUniform1f(program.delay, GLfloat(replicator.instanceDelay))
            setPowers(program.step, of: LayerTreeEvaluator.instanceStep(replicator, bounds: item.bounds, at: item.time, sources: sources))
            setAffine(program.world, item.transform)
            let inner = record.inner
            glUniform1i(program.inner, GLint(inner.count))
            glUniform1f(program.innerDelay, GLfloat(inner.delay))
            setAffine(program.innerPlace, inner.place)
            if let animated = inner.animatedStep {
                // The step is evaluated and raised to its powers in the shader, per outer copy.
                let at = animated.records.map { GLfloat($0) }
                glUniform1i(program.innerAnimated, 1)
                glUniform4f(program.innerStepAt, at[0], at[1], at[2], at[3])
                glUniform3f(program.innerCentre, GLfloat(animated.centre.x), GLfloat(animated.centre.y), at[4])
            } else {
                glUniform1i(program.innerAnimated, 0)
                setPowers(program.innerStep, of: inner.step)
            }
            let ic = inner.instanceColor, io = inner.colorOffset
            glUniform4f(program.innerColor, GLfloat(ic.r), GLfloat(ic.g), GLfloat(ic.b), GLfloat(ic.a))
            glUniform4f(program.innerOffset, GLfloat(io.r), GLfloat(io.g), GLfloat(io.b), GLfloat(io.a))
            glUniform1f(program.opacity, GLfloat(item.opacity * inner.opacity))
            let t = item.tint, c = replicator.instanceColor, o = replicator.colorOffset
            glUniform4f(program.tint, GLfloat(t.r), GLfloat(t.g), GLfloat(t.b), GLfloat(t.a))
            glUniform4f(program.instanceColor, GLfloat(c.r), GLfloat(c.g), GLfloat(c.b), GLfloat(c.a))
            glUniform4f(program.colorOffset, GLfloat(o.r), GLfloat(o.g), GLfloat(o.b), GLfloat(o.a))
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        }
    }

    /// Every live level's history into its row, oldest first (earlier than its first sample, its first value).
    private func uploadHistories() {
        guard !tables.live.isEmpty else { return }
        glBindTexture(GLenum(GL_TEXTURE_2D), samplesTexture)
        var i = 0
        while i < tables.live.count {
            let (source, texel) = tables.live[i]
            i += 1
            var n = 0
            sources.forEachSample(of: source) { _, _ in n += 1 }
            let pad = Self.rowTexels - Swift.min(n, Self.rowTexels)
            var k = 0
            sources.forEachSample(of: source) { time, value in
                if k == 0 { for j in 0..<pad { history[j] = SIMD4(-Self.huge, Float(value), 0, 0) } }
                if pad + k < Self.rowTexels { history[pad + k] = SIMD4(Float(time), Float(value), 0, 0) }
                k += 1
            }
            if n == 0 { for j in 0..<Self.rowTexels { history[j] = SIMD4(-Self.huge, 0, 0, 0) } }
            glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, GLint(texel / Self.rowTexels), GLsizei(Self.rowTexels), 1, GLenum(GL_RGBA),
                            GLenum(GL_FLOAT), history.baseAddress)
        }
    }

    /// The copies of the replicator that drew `item` (their state from row
    /// `stateRow`), on the current page: a lattice draw where its steps only
    /// translate and few copies reach any pixel, else one instanced draw.
    /// `scissor`: the item's area on this page, in the framebuffer (x, y, width, height), set already.
    func draw(_ item: PresentationItem, replicator node: Int, copying replicator: Replicator?, stateRow: Int, masked: Bool,
              viewport: Viewport, pageTop: Int, scissor: Viewport) {
        guard stateRow >= 0, let replicator, let record = tables.replicators[node] else { return }
        let instances = Self.instances(replicator, record)
        let lattice = allowsLattice ? latticeSteps(item, replicator, record) : nil
        // Axis-aligned boxes where none turns in its copy and the replicator's layer neither turns nor shears.
        var aligned = false
        if let lattice { aligned = !lattice.turns && item.transform.b == 0 && item.transform.c == 0 }
        guard let program = programs[(lattice == nil ? 0 : aligned ? 4 : 2) + (masked ? 1 : 0)] else { return }
        glUseProgram(program.program.id)
        var unit = 0
        while unit < Self.stateTargets {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(Self.stateUnit + unit)))
            glBindTexture(GLenum(GL_TEXTURE_2D), stateTextures[unit])
            unit += 1
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        glUniform1i(program.stateBase, GLint(stateRow * Self.rowTexels))
        glUniform4f(program.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(program.pageTop, GLint(pageTop))
        if let lattice {
            let m = item.transform, det = m.determinant
            // Scene to the replicator's layer, as rows.
            steps[0] = GLfloat(m.d / det); steps[1] = GLfloat(-m.c / det); steps[2] = GLfloat((m.c * m.ty - m.d * m.tx) / det)
            steps[3] = GLfloat(-m.b / det); steps[4] = GLfloat(m.a / det); steps[5] = GLfloat((m.b * m.tx - m.a * m.ty) / det)
            glUniform3fv(program.worldInverse, 2, steps.baseAddress)
            let r = lattice.reach
            glUniform4f(program.reach, GLfloat(r.x0), GLfloat(r.y0), GLfloat(r.x1), GLfloat(r.y1))
            glUniform4f(program.steps, GLfloat(lattice.outer.x), GLfloat(lattice.outer.y), GLfloat(lattice.inner.x),
                        GLfloat(lattice.inner.y))
            glUniform1i(program.children, GLint(record.children))
            glUniform2i(program.counts, GLint(replicator.count), GLint(record.inner.count))
            narrowScissor(scissor, to: lattice, counts: (replicator.count, record.inner.count), m, viewport: viewport, pageTop: pageTop)
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
            latticeDraws += 1
            if aligned { alignedDraws += 1 }
        } else {
            glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(instances))
            instancedDraws += 1
        }
    }

    /// This frame's lattice for `item`: its reach and both steps' translations
    /// in the replicator's layer, where its steps only translate and at most
    /// `maxCandidates` copies can reach one pixel (nil: draw it instanced).
    private func latticeSteps(_ item: PresentationItem, _ replicator: Replicator, _ record: Record)
        -> (reach: (x0: Double, y0: Double, x1: Double, y1: Double), outer: (x: Double, y: Double), inner: (x: Double, y: Double),
            turns: Bool)? {
        guard let fixed = record.lattice else { return nil }
        let m = item.transform, det = m.determinant
        guard det != 0, det.isFinite else { return nil }
        let step = LayerTreeEvaluator.instanceStep(replicator, bounds: item.bounds, at: item.time, sources: sources)
        guard step.a == 1, step.d == 1, step.b == 0, step.c == 0 else { return nil }
        // A pixel's bounds in the replicator's layer, and the span of copy origins whose reach can meet it.
        let pixelX = (abs(m.d) + abs(m.c)) / abs(det), pixelY = (abs(m.b) + abs(m.a)) / abs(det)
        let spanX = pixelX + fixed.reach.x1 - fixed.reach.x0, spanY = pixelY + fixed.reach.y1 - fixed.reach.y0
        let n1 = replicator.count, n2 = record.inner.count
        // Copies along a step a span can hold: the fewest over the axes the step moves along (all where it moves along none).
        func along(_ span: (x: Double, y: Double), _ s: (x: Double, y: Double), count: Int) -> Int {
            var most = count
            if abs(s.x) > 1e-9 { most = Swift.min(most, Int(Swift.min(span.x / abs(s.x), 1e9)) + 2) }
            if abs(s.y) > 1e-9 { most = Swift.min(most, Int(Swift.min(span.y / abs(s.y), 1e9)) + 2) }
            return most
        }
        let inner = fixed.innerStep
        let k2 = n2 == 1 ? 1 : along((spanX, spanY), inner, count: n2)
        let spread = Double(n2 - 1)
        let k1 = along((spanX + spread * abs(inner.x), spanY + spread * abs(inner.y)), (step.tx, step.ty), count: n1)
        guard k1 * k2 * record.children <= Self.maxCandidates else { return nil }
        return (fixed.reach, (step.tx, step.ty), inner, fixed.turns)
    }

    /// The scissor (the item's area on this page) narrowed to the scene
    /// bounds of every copy's reach, so pixels no copy reaches run no shader.
    private func narrowScissor(_ scissor: Viewport, to lattice: (reach: (x0: Double, y0: Double, x1: Double, y1: Double), outer: (x: Double, y: Double),
                                            inner: (x: Double, y: Double), turns: Bool),
                               counts: (Int, Int), _ world: Affine, viewport: Viewport, pageTop: Int) {
        let outer = (x: Double(counts.0 - 1) * lattice.outer.x, y: Double(counts.0 - 1) * lattice.outer.y)
        let inner = (x: Double(counts.1 - 1) * lattice.inner.x, y: Double(counts.1 - 1) * lattice.inner.y)
        let x0 = lattice.reach.x0 + Swift.min(0, outer.x) + Swift.min(0, inner.x)
        let x1 = lattice.reach.x1 + Swift.max(0, outer.x) + Swift.max(0, inner.x)
        let y0 = lattice.reach.y0 + Swift.min(0, outer.y) + Swift.min(0, inner.y)
        let y1 = lattice.reach.y1 + Swift.max(0, outer.y) + Swift.max(0, inner.y)
        // The four corners in the scene, then in the framebuffer (rows from the page's top).
        let m = world
        let xs = (m.a * x0 + m.c * y0, m.a * x1 + m.c * y0, m.a * x0 + m.c * y1, m.a * x1 + m.c * y1)
        let ys = (m.b * x0 + m.d * y0, m.b * x1 + m.d * y0, m.b * x0 + m.d * y1, m.b * x1 + m.d * y1)
        // Pairwise: min and max of more than two take an array.
        let left = Swift.min(Swift.min(xs.0, xs.1), Swift.min(xs.2, xs.3)) + m.tx
        let right = Swift.max(Swift.max(xs.0, xs.1), Swift.max(xs.2, xs.3)) + m.tx
        let top = Swift.min(Swift.min(ys.0, ys.1), Swift.min(ys.2, ys.3)) + m.ty
        let bottom = Swift.max(Swift.max(ys.0, ys.1), Swift.max(ys.2, ys.3)) + m.ty
        let fx0 = viewport.x + Self.held(left.rounded(.down)), fx1 = viewport.x + Self.held(right.rounded(.up))
        let fy0 = viewport.y + viewport.height - Self.held(bottom.rounded(.up) - Double(pageTop))
        let fy1 = viewport.y + viewport.height - Self.held(top.rounded(.down) - Double(pageTop))
        let sx0 = scissor.x, sy0 = scissor.y, sx1 = scissor.x + scissor.width, sy1 = scissor.y + scissor.height
        let nx0 = Swift.max(sx0, fx0), nx1 = Swift.min(sx1, fx1), ny0 = Swift.max(sy0, fy0), ny1 = Swift.min(sy1, fy1)
        glScissor(GLint(nx0), GLint(ny0), GLsizei(Swift.max(0, nx1 - nx0)), GLsizei(Swift.max(0, ny1 - ny0)))
    }

    /// A pixel coordinate as a whole number, held far from overflow.
    private static func held(_ v: Double) -> Int { Int(Swift.min(Swift.max(v, -1e9), 1e9)) }

    /// An affine as two rows (a, c, tx), (b, d, ty).
    private func setAffine(_ location: GLint, _ m: Affine) {
        steps[0] = GLfloat(m.a); steps[1] = GLfloat(m.c); steps[2] = GLfloat(m.tx)
        steps[3] = GLfloat(m.b); steps[4] = GLfloat(m.d); steps[5] = GLfloat(m.ty)
        glUniform3fv(location, 2, steps.baseAddress)
    }

    /// The step's powers 1, 2, 4, ... 2^20, multiplied in double precision, as rows.
    private func setPowers(_ location: GLint, of step: Affine) {
        var power = step
        var bit = 0
        while bit < 21 {
            let o = bit * 6
            steps[o] = GLfloat(power.a); steps[o + 1] = GLfloat(power.c); steps[o + 2] = GLfloat(power.tx)
            steps[o + 3] = GLfloat(power.b); steps[o + 4] = GLfloat(power.d); steps[o + 5] = GLfloat(power.ty)
            power = power.concatenating(after: power)
            bit += 1
        }
        glUniform3fv(location, 42, steps.baseAddress)
    }
}
