import CGL
import WaveCore

/// The GL strategy for a replicator's copies (`Shaders/copies.vert.glsl`,
/// `Shaders/box.frag.glsl`): all copies of all its sublayers in one
/// instanced draw. The sublayers' property timelines are written once into
/// a table; every frame the vertex shader evaluates them for each copy at
/// its own time (the replicator's less k instance delays), so the CPU's
/// work a frame is a few uniforms and, for a live level, its history: the
/// same for 10 copies or 10,000. Boxes are the primitive drawn this way
/// (their coverage analytic), directly under the replicator or under one
/// still replicator inside it (a grid); a replicator of anything else, or
/// with timelines the table cannot hold, has its copies drawn one item each.
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
    }

    /// Whether this strategy draws the layer's copies in one instanced draw.
    static func canDraw(_ layer: Layer, levels: [Level]) -> Bool {
        var scratch = Tables()
        return encode(layer, levels: levels, into: &scratch) != nil
    }

    /// Where the copies' records start, how many boxes a copy draws, and
    /// the inner replicator a copy may hold (a grid: rows of rows), fixed.
    struct Record {
        var base: Int
        var children: Int
        var inner = Inner()
    }

    /// A still replicator inside the replicator (each outer copy holds all
    /// its copies): its count, delay, place in the outer copy, step and tints.
    struct Inner {
        var count = 1
        var delay = 0.0
        var place = Affine.identity
        var step = Affine.identity
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
        if shown.count == 1, let nested = innerReplicator(shown[0]) {
            inner = nested
            shown = shown[0].sublayers.filter { !$0.isHidden }
        }
        guard !shown.isEmpty, shown.allSatisfy(isPlainBox),
              replicator.count * inner.count * shown.count <= LayerTreeEvaluator.maxItems else { return nil }
        var records: [[SIMD4<Float>]] = []
        for sublayer in shown {
            guard case let .box(box)? = sublayer.contents else { return nil }
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
        return Record(base: base, children: records.count, inner: inner)
    }

    /// A replicator layer that draws nothing itself and whose every
    /// property and instance transform is constant (so one place and one
    /// step serve every outer copy), holding boxes.
    private static func innerReplicator(_ layer: Layer) -> Inner? {
        guard let r = layer.replicator, r.count >= 1, r.instanceDelay.isFinite, layer.contents == nil, layer.mask == nil,
              !layer.masksToBounds, layer.timing.isPassThrough else { return nil }
        let still = [layer.position.x, layer.position.y, layer.boundsOrigin.x, layer.boundsOrigin.y, layer.opacity]
            + layer.transform.timelines + r.instanceTransform.timelines
        guard still.allSatisfy(\.isConstant) else { return nil }
        let bounds = Rect(x: layer.boundsOrigin.x.value, y: layer.boundsOrigin.y.value, width: layer.size.width, height: layer.size.height)
        let position = Point(layer.position.x.value, layer.position.y.value)
        return Inner(count: r.count, delay: r.instanceDelay,
                     place: LayerTreeEvaluator.toParent(layer, position: position, bounds: bounds, at: 0, sources: nil),
                     step: LayerTreeEvaluator.instanceStep(r, bounds: bounds, at: 0, sources: nil),
                     opacity: Swift.min(1, Swift.max(0, layer.opacity.value)), instanceColor: r.instanceColor, colorOffset: r.colorOffset)
    }

    /// A box that draws nothing but itself, on the tree's own time.
    private static func isPlainBox(_ layer: Layer) -> Bool {
        guard case .box? = layer.contents else { return false }
        return layer.sublayers.isEmpty && layer.replicator == nil && layer.mask == nil && !layer.masksToBounds
            && layer.timing.isPassThrough
    }

    /// A timeline's record (see the shader's header); nil where it cannot be held.
    private static func encode<V: Interpolatable>(_ timeline: Timeline<V>, levels: [Level], into tables: inout Tables,
                                                  components: (V) -> SIMD4<Float>) -> Int? {
        var texels: [SIMD4<Float>] = [components(timeline.value), SIMD4(Float(timeline.animations.count), 0, 0, 0)]
        @inline(__always) func f(_ x: Double) -> Float { x.isInfinite ? (x > 0 ? huge : -huge) : Float(x) }
        func timing(_ m: MediaTiming, kind: Int, length: Int, function: TimingFunction) {
            var flags = 0
            if m.autoreverses { flags |= 1 }
            if m.fillMode == .backwards || m.fillMode == .both { flags |= 2 }
            if m.fillMode == .forwards || m.fillMode == .both { flags |= 4 }
            if m.duration.isInfinite { flags |= 8 }
            var code: Float = 1, curve = SIMD4<Float>(0, 0, 1, 1)
            switch function {
            case let .curve(c):
                if c == .linear { code = 0 }
                curve = SIMD4(Float(c.x1), Float(c.y1), Float(c.x2), Float(c.y2))
            case .bounceOut: code = 2
            }
            texels.append(SIMD4(Float(kind), Float(length), Float(flags), code))
            texels.append(SIMD4(f(m.beginTime), f(m.duration), f(m.speed), f(m.timeOffset)))
            texels.append(SIMD4(f(m.activeDuration), f(m.startTime), f(m.endTime), f(m.cycle)))
            texels.append(curve)
        }
        for animation in timeline.animations.reversed() {
            switch animation {
            case let .basic(a):
                timing(a.timing, kind: 0, length: 6, function: a.function)
                texels.append(components(a.from))
                texels.append(components(a.to))
            case let .keyframes(k):
                let n = k.values.count
                guard n >= 1, n <= 4096 else { return nil }
                let times = k.keyTimes ?? []
                timing(k.timing, kind: k.calculation == .discrete ? 2 : 1, length: 5 + n + (times.count + 3) / 4, function: k.function)
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
                timing(s.timing, kind: 3, length: 7, function: .linear)
                texels.append(components(s.from))
                texels.append(components(s.to))
                texels.append(SIMD4(Float(s.spring.naturalFrequency), Float(s.spring.dampingRatio), Float(-s.initialVelocity), 0))
            case let .driven(d):
                guard let source = sourceRecord(d.source, levels: levels, into: &tables) else { return nil }
                texels.append(SIMD4(4, 5, 0, 0))
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
            record = SIMD4(0, Float(c.isFinite ? c : 0), 0, 0)
        case let .envelope(e):
            guard !e.values.isEmpty, e.values.count <= maxSamples else { return nil }
            let base = tables.samples.count
            var i = 0
            while i < e.values.count {
                var packed = SIMD4<Float>(repeating: 0)
                for j in 0..<4 where i + j < e.values.count { packed[j] = Float(e.values[i + j]) }
                tables.samples.append(packed)
                i += 4
            }
            record = SIMD4(1, Float(base), Float(e.values.count), Float(e.rate))
        case .live:
            // A row of its own, rewritten every frame.
            let base = (tables.samples.count + rowTexels - 1) / rowTexels * rowTexels
            tables.samples.append(contentsOf: Array(repeating: SIMD4<Float>(-huge, 0, 0, 0), count: base + rowTexels - tables.samples.count))
            tables.live.append((index, base))
            record = SIMD4(2, Float(base), 0, 0)
        }
        tables.sourceRecords[index] = record
        return record
    }

    // MARK: Drawing

    private struct Program {
        let program: ShaderProgram
        let children, childBase, time, delay, world, step, opacity, tint, instanceColor, colorOffset, viewport, pageTop: GLint
        let inner, innerDelay, innerPlace, innerStep, innerColor, innerOffset: GLint
    }
    private var programs: [Program?] = [nil, nil]
    private var tables: Tables
    private let sources: DrivenSources
    private var programTexture: GLuint = 0, samplesTexture: GLuint = 0
    /// The step's powers as uniforms (kept: a frame allocates nothing).
    private let steps = UnsafeMutableBufferPointer<GLfloat>.allocate(capacity: 42 * 3)
    /// One live history row, filled each frame.
    private let history = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: rowTexels)

    /// The tables for every replicator `evaluator` leaves to this strategy.
    init(evaluator: LayerTreeEvaluator, levels: [Level]) throws {
        sources = evaluator.sources
        var tables = Tables()
        for (index, node) in evaluator.nodes.enumerated() where node.drawsCopies {
            guard let record = Self.encode(node.layer, levels: levels, into: &tables) else {
                throw GLError.limit(what: "a replicator's timelines for the GPU", needed: 1, available: 0)
            }
            tables.replicators[index] = record
        }
        self.tables = tables
        programTexture = Self.upload(tables.program)
        samplesTexture = Self.upload(tables.samples)
        try makeProgram(masked: false)
        try makeProgram(masked: true)
    }

    deinit {
        glDeleteTextures(1, &programTexture)
        glDeleteTextures(1, &samplesTexture)
        steps.deallocate()
        history.deallocate()
    }

    private static func upload(_ texels: [SIMD4<Float>]) -> GLuint {
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

    private func makeProgram(masked: Bool) throws {
        let program = try ShaderProgram(vertex: "copies.vert.glsl", fragment: "box.frag.glsl", defines: masked ? ["MASKED"] : [])
        glUseProgram(program.id)
        glUniform1i(program.uniform("u_program"), 5)
        glUniform1i(program.uniform("u_samples"), 6)
        glUniform1i(program.uniform("u_mask"), 4)
        glUseProgram(0)
        programs[masked ? 1 : 0] = Program(
            program: program, children: program.uniform("u_children"), childBase: program.uniform("u_childBase"),
            time: program.uniform("u_time"), delay: program.uniform("u_delay"), world: program.uniform("u_world"),
            step: program.uniform("u_step"), opacity: program.uniform("u_opacity"), tint: program.uniform("u_tint"),
            instanceColor: program.uniform("u_instanceColor"), colorOffset: program.uniform("u_colorOffset"),
            viewport: program.uniform("u_viewport"), pageTop: program.uniform("u_pageTop"),
            inner: program.uniform("u_inner"), innerDelay: program.uniform("u_innerDelay"), innerPlace: program.uniform("u_innerPlace"),
            innerStep: program.uniform("u_innerStep"), innerColor: program.uniform("u_innerColor"),
            innerOffset: program.uniform("u_innerOffset"))
    }

    /// Once a frame: every live level's history into its row, oldest first
    /// (earlier than its first sample, its first value).
    func prepareFrame() {
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

    /// The copies of the replicator that drew `item`, on the current page.
    func draw(_ item: PresentationItem, replicator node: Int, layer: Layer, masked: Bool, viewport: Viewport, pageTop: Int) {
        guard let replicator = layer.replicator, let record = tables.replicators[node],
              let program = programs[masked ? 1 : 0] else { return }
        glUseProgram(program.program.id)
        glActiveTexture(GLenum(GL_TEXTURE5)); glBindTexture(GLenum(GL_TEXTURE_2D), programTexture)
        glActiveTexture(GLenum(GL_TEXTURE6)); glBindTexture(GLenum(GL_TEXTURE_2D), samplesTexture)
        glActiveTexture(GLenum(GL_TEXTURE0))
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
        setPowers(program.innerStep, of: inner.step)
        let ic = inner.instanceColor, io = inner.colorOffset
        glUniform4f(program.innerColor, GLfloat(ic.r), GLfloat(ic.g), GLfloat(ic.b), GLfloat(ic.a))
        glUniform4f(program.innerOffset, GLfloat(io.r), GLfloat(io.g), GLfloat(io.b), GLfloat(io.a))
        glUniform1f(program.opacity, GLfloat(item.opacity * inner.opacity))
        let t = item.tint, c = replicator.instanceColor, o = replicator.colorOffset
        glUniform4f(program.tint, GLfloat(t.r), GLfloat(t.g), GLfloat(t.b), GLfloat(t.a))
        glUniform4f(program.instanceColor, GLfloat(c.r), GLfloat(c.g), GLfloat(c.b), GLfloat(c.a))
        glUniform4f(program.colorOffset, GLfloat(o.r), GLfloat(o.g), GLfloat(o.b), GLfloat(o.a))
        glUniform4f(program.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(program.pageTop, GLint(pageTop))
        glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(replicator.count * inner.count * record.children))
    }

    /// An affine as two rows (a, c, tx), (b, d, ty).
    private func setAffine(_ location: GLint, _ m: Affine) {
        steps[0] = GLfloat(m.a); steps[1] = GLfloat(m.c); steps[2] = GLfloat(m.tx)
        steps[3] = GLfloat(m.b); steps[4] = GLfloat(m.d); steps[5] = GLfloat(m.ty)
        glUniform3fv(location, 2, steps.baseAddress)
    }

    /// The step's powers 1, 2, 4, ... 2^20, multiplied in double precision, as rows.
    private func setPowers(_ location: GLint, of step: Affine) {
        var power = step
        for bit in 0..<21 {
            let o = bit * 6
            steps[o] = GLfloat(power.a); steps[o + 1] = GLfloat(power.c); steps[o + 2] = GLfloat(power.tx)
            steps[o + 3] = GLfloat(power.b); steps[o + 4] = GLfloat(power.d); steps[o + 5] = GLfloat(power.ty)
            power = power.concatenating(after: power)
        }
        glUniform3fv(location, 42, steps.baseAddress)
    }
}
