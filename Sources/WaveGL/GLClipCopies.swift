import CGL
import WaveCore

/// The translate strategy at its cheapest, for shapes alone in their clips
/// (`SoleClip`: a table of scrolling cells): each shape painted once, on the
/// CPU with the CPU strategy's own rasteriser and paint, over the
/// background, across every column its clip can show while it moves, at a
/// few sub-pixel phases; a frame copies the nearest phase into the clip by
/// whole pixels (same size, no filtering: a memory copy, even on llvmpipe).
/// No shader runs and nothing is blended.
///
/// Over an opaque background: one phase where the shapes only move by
/// whole pixels (snapped or still), 16 (or 8, within the budget) for exact
/// sub-pixel motion. Shapes of one path, clip size and reach share one
/// picture; every picture of a phase is stacked in one texture. How a frame
/// puts them in place is the driver policy's (`GLPlan.swift`):
/// - copies, on software drivers (llvmpipe), where a copy is a memcpy and a
///   shader pass is CPU work on every pixel: one copy a clip (or a band);
/// - on a GPU, where a draw call is the CPU's cost and a copy a draw's: the
///   phases are layers of one texture array; a state pass evaluates every
///   clip's x from its timelines on the GPU (`copies_state.frag.glsl`'s
///   CLIPS variant, one fragment a clip), and one quad a page
///   (`Shaders/clips.frag.glsl`) has each pixel find its clip from its
///   row's entries and read the picture at that clip's whole pixels and phase.
///   The CPU's work a frame is a uniform, the state pass and one quad a
///   page, the same for one clip or a thousand (the driver's too: no vertex
///   or binning work a clip).
///
/// Clips that scroll together (a table's cells: one column span, rows one
/// after another, each showing the same loop a whole number of pixels
/// ahead) are also painted as one band per phase, each clip's rows turned
/// by its lead, so a frame is one copy of the band, as long as the frame's
/// clips keep together (checked every frame; otherwise one copy a clip).
///
/// A frame finds each clip's x from its layer's timing and translation
/// alone (`LayerTreeEvaluator.x(of:at:)`, or its GPU evaluation), and puts every clip first:
/// nothing else reaches a sole clip, so the order is free. Where every
/// item is a copy, the rest of the tree need not be evaluated at all.
final class GLClipCopies {
    /// One painted picture: the shape it shows (its path, by content number, and its colour: the evaluator
    /// numbers contents by path alone) and where (its rows, the path x of its column 0, its width), and its
    /// rows' first in the stacked textures.
    struct Picture {
        struct Key: Hashable {
            var content: Int, color: RGBA8, rows: Int, y: Double, originX: Int, width: Int
        }
        var key: Key
        var top: Int
    }

    let phases: Int
    /// Drawn by one quad a page with each clip's x evaluated on the GPU (the GPU policy), not copies.
    let drawsByLookup: Bool
    /// The most clips one scene row may meet for the quad to draw them (each of its pixels looks through its row's entries).
    static let maxClipsPerRow = 64
    private let evaluator: LayerTreeEvaluator
    /// The clips from the top one down, each with its picture; whether each compiled node is drawn here.
    private let clips: [(clip: SoleClip, picture: Int)]
    private let drawnHere: [Bool]
    /// This frame's whole pixels and phase of each clip (phase -1: not drawn, its x not a number).
    private let whole: UnsafeMutableBufferPointer<Int>
    private let phase: UnsafeMutableBufferPointer<Int>
    private let pictures: [Picture]
    private let textureRows: Int
    private var textures: [GLuint]
    private var framebuffers: [GLuint]
    /// The rows a frame must clear first: those no copy writes whole.
    let rowsToClear: [Range<Int>]
    /// Every item of every frame is a copy (no other contents, copies or masks in the tree).
    let drawsEveryItem: Bool
    /// Every pixel of every frame is a copy and nothing else is drawn: the
    /// frame holds the pictures' straight colours (not premultiplied).
    let drawsEverything: Bool
    /// Copies or draws a frame makes a page: one quad, or one
    /// copy of the band where the clips scroll together, else one copy a clip.
    var copiesPerFrame: Int { drawsByLookup || band != nil ? 1 : clips.count }
    /// The GL calls (copies, blits or page quads) the last frame made, every page's; the state pass is not counted.
    private(set) var callsLastFrame = 0
    /// The GPU policy's: every phase as a layer of one texture array; the tables `LookupTables` holds; the
    /// state pass's target (a texel a clip: whole pixels, phase) and its framebuffer; the two programs.
    private var phaseArray: GLuint = 0, rowTable: GLuint = 0, entryTable: GLuint = 0
    private var timelineTable: GLuint = 0, stateTexture: GLuint = 0, stateFramebuffer: GLuint = 0
    private var stateProgram: (program: ShaderProgram, time: GLint)?
    private var pageProgram: (program: ShaderProgram, viewport: GLint, pageTop: GLint)?
    /// Every clip's rows and columns together: the part of a page the quad is scissored to.
    private var reach = (rows: 0..<0, columns: 0..<0)
    /// The viewport saved around the state pass.
    private let savedViewport = UnsafeMutableBufferPointer<GLint>.allocate(capacity: 4)
    /// The texture units the GPU policy's tables use (0: the phases): past those the tree and the copies use.
    private static let rowUnit = 1, entryUnit = 2, stateUnit = 14, timelineUnit = 13

    /// Every clip painted as one band, where they scroll together (slot k: clip k), and whether this frame's keep together.
    private var band: Band?
    private var bandHolds = false

    /// The page's texture, where the target is one (set per page by the
    /// renderer): copied into with glCopyImageSubData, which needs no
    /// framebuffer; elsewhere (a window) the copies are framebuffer blits.
    var pageTexture: (texture: GLuint, layer: Int)?
    /// While set, each copy's pixels are counted into it as written.
    var counts: PixelCounts?
    /// Fragments the lookup quad wrote while counting, since last taken.
    private var writtenFragments = 0

    /// The fragments the lookup quad wrote (counted already) since the last call: the renderer's
    /// samples query saw them too.
    func takeWrittenFragments() -> Int {
        defer { writtenFragments = 0 }
        return writtenFragments
    }

    /// Nil where nothing qualifies or the pictures do not fit the driver's limits and budget.
    /// `drawsByLookup`: one quad a page for every clip (the GPU policy), else copies.
    init?(evaluator: LayerTreeEvaluator, width: Int, height: Int, background: RGBA8, subpixel: SubpixelMode,
          caps: GLCapabilities, drawsByLookup: Bool) throws {
        // Shapes on whole rows whose x stays within known bounds; moving by fractions only where exact motion is asked for.
        let clips = evaluator.soleClips(width: width, height: height).filter { clip in
            clip.y == clip.y.rounded() && clip.xRange != nil && (clip.wholeX || subpixel == .exact)
        }
        guard !clips.isEmpty else { return nil }
        rowsToClear = SoleClip.rowsToClear(clips, width: width, height: height)
        var index: [Picture.Key: Int] = [:]
        var byNode: [(clip: SoleClip, picture: Int)] = []
        var pictures: [Picture] = []
        var rows = 0, widest = 0
        for clip in clips.sorted(by: { $0.rows.lowerBound < $1.rows.lowerBound }) {
            let range = clip.xRange!
            // Path columns the clip can show: left of its left edge at the rightmost x to past its right edge at the leftmost.
            let originX = Int((Double(clip.columns.lowerBound) - range.upperBound).rounded(.down)) - 1
            let end = Int((Double(clip.columns.upperBound) - range.lowerBound).rounded(.up)) + 1
            // Sole clips are solid fills (`soleClips`).
            guard case let .shape(shape)? = evaluator.nodes[clip.node].layer.contents, case let .solid(color) = shape.fill else { continue }
            let key = Picture.Key(content: evaluator.nodes[clip.node].content, color: color, rows: clip.rows.count,
                                  y: clip.y - Double(clip.rows.lowerBound), originX: originX, width: end - originX)
            let picture = index[key] ?? {
                index[key] = pictures.count
                pictures.append(Picture(key: key, top: rows))
                rows += key.rows
                widest = Swift.max(widest, key.width)
                return pictures.count - 1
            }()
            byNode.append((clip, picture))
        }
        var drawnHere = [Bool](repeating: false, count: evaluator.nodes.count)
        for (clip, _) in byNode { drawnHere[clip.node] = true }
        drawsEveryItem = evaluator.itemsAreOnly { drawnHere[$0] }
        // Copies write every pixel of the frame and nothing else draws: the frame is the painted pictures, as they are.
        drawsEverything = rowsToClear.isEmpty && drawsEveryItem
        // Painted straight, a translucent background's pixels are right only where nothing is blended over or beside them.
        guard background.a == 255 || drawsEverything else { return nil }
        guard widest <= caps.maxTextureSize, rows <= caps.maxTextureSize else { return nil }
        let wanted = clips.allSatisfy(\.wholeX) ? [1] : [SubpixelPhases.exact, SubpixelPhases.fewest]
        guard let phases = wanted.first(where: { $0 * widest * rows * 4 <= caps.maxCoverageBytes }) else { return nil }
        // The GPU policy's tables, where they hold every clip: else none are drawn here (the shader draws each).
        let lookup = drawsByLookup ? LookupTables(clips: byNode.map(\.clip), pictures: byNode.map { pictures[$0.picture] }, textureRows: rows,
                                                  evaluator: evaluator, height: height) : nil
        guard !drawsByLookup || lookup.map({ $0.fits(caps) }) == true else { return nil }
        self.phases = phases
        self.drawsByLookup = drawsByLookup
        self.evaluator = evaluator
        self.clips = byNode
        self.drawnHere = drawnHere
        whole = .allocate(capacity: byNode.count)
        whole.initialize(repeating: 0)
        phase = .allocate(capacity: byNode.count)
        phase.initialize(repeating: -1)
        self.pictures = pictures
        textureRows = rows
        textures = Array(repeating: 0, count: drawsByLookup ? 0 : phases)
        framebuffers = Array(repeating: 0, count: drawsByLookup ? 0 : phases)
        if let lookup {
            try makeLookup(lookup, widest: widest, rows: rows)
        } else {
            glGenTextures(GLsizei(phases), &textures)
            glGenFramebuffers(GLsizei(phases), &framebuffers)
        }
        var band = drawsByLookup ? nil : Band(clips: byNode, pictures: pictures.map(\.key), evaluator: evaluator, phases: phases, caps: caps,
                                          budget: Swift.min(Band.budget, caps.maxCoverageBytes - phases * widest * rows * 4))

        // Each picture's path and paint, and a rasteriser of its size, made once for every phase.
        let painting = try pictures.map { picture -> (path: Path, paint: FillProgram, rasterizer: CoverageRasterizer)? in
            guard case let .shape(shape) = evaluator.contents[picture.key.content], case let .fixed(path) = shape.path else { return nil }
            return (path, FillProgram(fill: .solid(picture.key.color), background: background),
                    try CoverageRasterizer(width: picture.key.width, height: picture.key.rows))
        }
        // Every picture at every phase, painted as the CPU strategy paints the shape alone in its clip.
        let stacked = Pixmap(width: widest, height: rows, rowStride: -widest)
        let whole = stacked.view
        let pictureTops = pictures.map(\.top)
        for phase in 0..<phases {
            stacked.fill(background, rows: 0..<rows)
            for (picture, painting) in zip(pictures, painting) {
                guard let painting else { continue }
                let key = picture.key
                let slot = PixmapView(rowZero: whole.row(picture.top), width: key.width, height: key.rows, rowStride: whole.rowStride)
                let shift = Affine(a: 1, b: 0, c: 0, d: 1, tx: -Double(key.originX) + Double(phase) / Double(phases), ty: key.y)
                TreePainter.paintAlone(painting.path, shift, rows: 0..<key.rows, columns: 0..<key.width, paint: painting.paint,
                                       rasterizer: painting.rasterizer, into: slot)
            }
            if drawsByLookup {
                glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), phaseArray)
                glTexSubImage3D(GLenum(GL_TEXTURE_2D_ARRAY), 0, 0, 0, GLint(phase), GLsizei(widest), GLsizei(rows), 1, GLenum(GL_RGBA),
                                GLenum(GL_UNSIGNED_BYTE), stacked.memory.baseAddress)
                continue
            }
            try Self.upload(stacked, into: textures[phase], framebuffer: framebuffers[phase])
            // The band of this phase, from the pictures just painted; none where a clip's turned rows would not match.
            if let painting = band, try !painting.paint(phase: phase, from: whole, pictureTops: pictureTops) { band = nil }
        }
        self.band = band
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), 0)
        try checkGLErrors("painting \(pictures.count) clip picture(s) at \(phases) sub-pixel phase(s)")
    }

    /// A painted phase into its texture, readable through its framebuffer (for blits into a window).
    static func upload(_ pixmap: Pixmap, into texture: GLuint, framebuffer: GLuint) throws {
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(pixmap.width), GLsizei(pixmap.height), 0, GLenum(GL_RGBA),
                     GLenum(GL_UNSIGNED_BYTE), pixmap.memory.baseAddress)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_READ_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else { throw GLError.framebuffer(status: status) }
    }

    /// The GPU policy's tables, made once: each scene row's clips, and the timelines its state pass evaluates
    /// (allocates; nil where a timeline cannot be held).
    struct LookupTables {
        /// An entry a clip of a row (all a pixel needs of its clip but this frame's x): (the clip, its first column |
        /// its end column << 16, its picture's texture row at scene row 0, the path x of its picture's column 0).
        /// A texel a scene row: a row of one clip holds its entry, the clip as -1 - clip; any other, (its first
        /// entry, how many, 0, 0), those entries a texel each, in drawing order.
        var rows: [Int32] = [], entries: [Int32] = []
        /// The timelines (`copies_state.frag.glsl`, CLIPS): clip k's head at texel k, then the timings, then the records.
        var timelines: [SIMD4<Float>] = []
        var mostClipsInARow = 0, widest = 0

        /// `textureRows`: the rows of the stacked pictures.
        init?(clips: [SoleClip], pictures: [Picture], textureRows: Int, evaluator: LayerTreeEvaluator, height: Int) {
            var byRow = [[Int32]](repeating: [], count: height)
            var entry: [[Int32]] = []
            for (k, clip) in clips.enumerated() {
                let readRow = textureRows - 1 - pictures[k].top + clip.rows.lowerBound
                entry.append([Int32(k), Int32(clip.columns.lowerBound | clip.columns.upperBound << 16), Int32(readRow),
                              Int32(pictures[k].key.originX)])
                widest = Swift.max(widest, clip.columns.upperBound)
                for row in clip.rows where row >= 0 && row < height { byRow[row].append(Int32(k)) }
            }
            for clipsOfRow in byRow {
                if clipsOfRow.count == 1 {
                    rows += [-1 - clipsOfRow[0]] + entry[Int(clipsOfRow[0])].dropFirst()
                } else {
                    rows += [Int32(entries.count / 4), Int32(clipsOfRow.count), 0, 0]
                    for k in clipsOfRow { entries += entry[Int(k)] }
                }
                mostClipsInARow = Swift.max(mostClipsInARow, clipsOfRow.count)
            }
            // Heads first (filled below), then each clip's timings above it and its own, then its translation's record.
            var tables = GLCopies.Tables()
            tables.program = Array(repeating: SIMD4<Float>(repeating: 0), count: clips.count)
            for (k, clip) in clips.enumerated() {
                let timings = clip.timeChain.map { evaluator.nodes[$0].layer.timing }.filter { !$0.isPassThrough }
                let first = tables.program.count
                for timing in timings {
                    tables.program.append(SIMD4(Float(TimelineCode.Flags(timing).rawValue), 0, 0, 0))
                    tables.program += GLCopies.timingTexels(timing)
                }
                guard let translation = GLCopies.encode(evaluator.nodes[clip.node].layer.transform.translationX, levels: [],
                                                        into: &tables, components: { SIMD4(Float($0), 0, 0, 0) }) else { return nil }
                tables.program[k] = SIMD4(Float(clip.xOffset), Float(translation), Float(first), Float(timings.count))
            }
            timelines = tables.program
        }

        /// Whether the driver's textures hold them and no row meets more clips than a pixel may look through.
        /// (and every column fits in 16 bits of an entry).
        func fits(_ caps: GLCapabilities) -> Bool {
            let most = Swift.max(rows.count / 4, entries.count / 4, timelines.count)
            return mostClipsInARow <= GLClipCopies.maxClipsPerRow && widest < 1 << 16
                && (most + GLTreeDraw.tableWidth - 1) / GLTreeDraw.tableWidth <= caps.maxTextureSize
        }
    }

    /// The GPU policy's texture array (a layer a phase, filled as each is painted), its tables, the state
    /// pass's target, and its two programs.
    private func makeLookup(_ lookup: LookupTables, widest: Int, rows: Int) throws {
        glGenTextures(1, &phaseArray)
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), phaseArray)
        glTexImage3D(GLenum(GL_TEXTURE_2D_ARRAY), 0, GL_RGBA8, GLsizei(widest), GLsizei(rows), GLsizei(phases), 0, GLenum(GL_RGBA),
                     GLenum(GL_UNSIGNED_BYTE), nil)
        for parameter in [GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER] {
            glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(parameter), GL_NEAREST)
        }
        var tableRows = 0
        rowTable = GLTreeDraw.makeTableTexture()
        GLTreeDraw.upload(lookup.rows, into: rowTable, rows: &tableRows, components: 4, format: GL_RGBA32I, layout: GL_RGBA_INTEGER, type: GL_INT)
        tableRows = 0
        entryTable = GLTreeDraw.makeTableTexture()
        GLTreeDraw.upload(lookup.entries, into: entryTable, rows: &tableRows, components: 4, format: GL_RGBA32I, layout: GL_RGBA_INTEGER,
                          type: GL_INT)
        timelineTable = GLCopies.upload(lookup.timelines)

        // The state pass's target: RGBA32F, a texel a clip, 1024 a row.
        let stateRows = (clips.count + GLTreeDraw.tableWidth - 1) / GLTreeDraw.tableWidth
        stateTexture = GLTreeDraw.makeTableTexture()
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(GLTreeDraw.tableWidth), GLsizei(stateRows), 0, GLenum(GL_RGBA),
                     GLenum(GL_FLOAT), nil)
        var previous: GLint = 0
        glGetIntegerv(GLenum(GL_DRAW_FRAMEBUFFER_BINDING), &previous)
        glGenFramebuffers(1, &stateFramebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), stateFramebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), stateTexture, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(previous))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else { throw GLError.framebuffer(status: status) }

        let state = try ShaderProgram(vertex: "layer.vert.glsl", fragment: "copies_state.frag.glsl", defines: ["CLIPS"])
        glUseProgram(state.id)
        // The samples are never read (a sole clip's x is not driven by a level); the unit is the timelines'.
        for name in ["u_program", "u_samples"] { glUniform1i(state.uniform(name), GLint(Self.timelineUnit)) }
        glUniform1i(state.uniform("u_clipCount"), GLint(clips.count))
        glUniform1i(state.uniform("u_phaseCount"), GLint(phases))
        stateProgram = (state, state.uniform("u_sceneTime"))
        let page = try ShaderProgram(vertex: "layer.vert.glsl", fragment: "clips.frag.glsl")
        glUseProgram(page.id)
        for (name, unit) in [("u_phases", 0), ("u_rows", Self.rowUnit), ("u_entries", Self.entryUnit), ("u_state", Self.stateUnit)] {
            glUniform1i(page.uniform(name), GLint(unit))
        }
        glUniform1i(page.uniform("u_sceneRows"), GLint(lookup.rows.count / 4))
        glUseProgram(0)
        pageProgram = (page, page.uniform("u_viewport"), page.uniform("u_pageTop"))
        let top = clips.map(\.clip.rows.lowerBound).min() ?? 0, bottom = clips.map(\.clip.rows.upperBound).max() ?? 0
        let left = clips.map(\.clip.columns.lowerBound).min() ?? 0, right = clips.map(\.clip.columns.upperBound).max() ?? 0
        reach = (top..<bottom, left..<right)
    }

    deinit {
        glDeleteFramebuffers(GLsizei(framebuffers.count), &framebuffers)
        glDeleteTextures(GLsizei(textures.count), &textures)
        for var texture in [phaseArray, rowTable, entryTable, timelineTable, stateTexture] where texture != 0 {
            glDeleteTextures(1, &texture)
        }
        if stateFramebuffer != 0 { glDeleteFramebuffers(1, &stateFramebuffer) }
        whole.deallocate()
        phase.deallocate()
        savedViewport.deallocate()
    }

    /// Each clip's whole pixels and phase at scene time t, and whether the band keeps together: every clip at the
    /// first's phase and whole pixels plus its lead (mod the period). Under the GPU policy, the state pass
    /// finds them on the GPU instead (and the CPU too only while pixels are counted). Allocates nothing.
    func prepareFrame(time t: Double) {
        callsLastFrame = 0
        if drawsByLookup { evaluateStates(time: t) }
        if drawsByLookup && counts == nil { return }
        var k = 0
        while k < clips.count {
            let x = evaluator.x(of: clips[k].clip, at: t)
            if x.isFinite { (whole[k], phase[k]) = SubpixelPhases.split(x, phases: phases) } else { phase[k] = -1 }
            k += 1
        }
        guard let band else { return }
        bandHolds = phase[0] >= 0
        k = 0
        while bandHolds && k < clips.count {
            bandHolds = phase[k] == phase[0] && band.wholes[phase[0]].contains(whole[k])
                && SubpixelPhases.wrapped(whole[k] - whole[0] - band.leads[k], band.period) == 0
            k += 1
        }
    }

    /// Whether compiled node `node`'s item is drawn here.
    @inline(__always)
    func draws(_ node: Int) -> Bool { drawnHere[node] }

    /// Every clip onto the page's rows of it: by one quad; or the band in one copy where this frame's clips
    /// keep together, else each copied from its picture at the phase nearest its x.
    func drawAll(viewport: Viewport, pageTop: Int) {
        if drawsByLookup {
            drawByLookup(viewport: viewport, pageTop: pageTop)
            return
        }
        if bandHolds, let band {
            // Every clip's rows are turned to read at the first clip's column.
            copy(from: band.textures[phase[0]], band.framebuffers[phase[0]], rows: band.rows.count,
                 column: band.columns.lowerBound - whole[0] - band.originX, topRow: 0, onto: band.rows, band.columns,
                 viewport: viewport, pageTop: pageTop)
            return
        }
        var k = 0
        while k < clips.count {
            defer { k += 1 }
            guard phase[k] >= 0 else { continue }
            let clip = clips[k].clip, picture = pictures[clips[k].picture]
            // Scene column x shows path x - whole - phase/phases: picture column x - whole - originX.
            copy(from: textures[phase[k]], framebuffers[phase[k]], rows: textureRows,
                 column: clip.columns.lowerBound - whole[k] - picture.key.originX, topRow: picture.top, onto: clip.rows, clip.columns,
                 viewport: viewport, pageTop: pageTop)
        }
    }

    /// The state pass: every clip's whole pixels and phase at scene time t, a fragment a clip, into the state
    /// texture; the framebuffer, viewport, blending and scissor restored.
    private func evaluateStates(time t: Double) {
        guard let state = stateProgram else { return }
        drawingOffscreen(into: stateFramebuffer, saving: savedViewport) {
            let width = GLTreeDraw.tableWidth
            glViewport(0, 0, GLsizei(Swift.min(clips.count, width)), GLsizei((clips.count + width - 1) / width))
            glUseProgram(state.program.id)
            bind(timelineTable, unit: Self.timelineUnit)
            glActiveTexture(GLenum(GL_TEXTURE0))
            glUniform1f(state.time, GLfloat(t))
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        }
    }

    @inline(__always)
    private func bind(_ table: GLuint, unit: Int) {
        glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
        glBindTexture(GLenum(GL_TEXTURE_2D), table)
    }

    /// What the state pass wrote this frame, a (whole pixels, phase) a clip
    /// (phase -1: not drawn): the GPU's evaluation of the clips' x, read back (allocates: for tests).
    func readStates() -> [(whole: Int, phase: Int)] {
        guard drawsByLookup else { return [] }
        let width = GLTreeDraw.tableWidth, rows = (clips.count + width - 1) / width
        var texels = [SIMD4<Float>](repeating: .zero, count: rows * width)
        var previous: GLint = 0
        glGetIntegerv(GLenum(GL_READ_FRAMEBUFFER_BINDING), &previous)
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), stateFramebuffer)
        glReadPixels(0, 0, GLsizei(width), GLsizei(rows), GLenum(GL_RGBA), GLenum(GL_FLOAT), &texels)
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), GLuint(previous))
        return texels.prefix(clips.count).map { (Int($0.x), Int($0.y)) }
    }

    /// Every clip, written (not blended: nothing else reaches a sole clip), by one quad over the part of the
    /// page the clips reach: each pixel finds its clip among its row's entries (`Shaders/clips.frag.glsl`).
    private func drawByLookup(viewport: Viewport, pageTop: Int) {
        guard let program = pageProgram,
              let area = PageArea(rows: reach.rows, columns: reach.columns, viewport: viewport, pageTop: pageTop) else { return }
        // Counted as written, not blended: kept out of the stencil that counts blended fragments, and told apart from the
        // samples the renderer's query sees (`takeWrittenFragments`).
        let counting = counts != nil && glIsEnabled(GLenum(GL_STENCIL_TEST)) != 0
        if let counts {
            var k = 0
            while k < clips.count {
                if phase[k] >= 0, let area = PageArea(rows: clips[k].clip.rows, columns: clips[k].clip.columns, viewport: viewport, pageTop: pageTop) {
                    counts.write(rows: area.rows, columns: clips[k].clip.columns, blends: false, software: false)
                    writtenFragments += area.rows.count * clips[k].clip.columns.count
                }
                k += 1
            }
        }
        if counting { glDisable(GLenum(GL_STENCIL_TEST)) }
        defer { if counting { glEnable(GLenum(GL_STENCIL_TEST)) } }
        glDisable(GLenum(GL_BLEND))
        glEnable(GLenum(GL_SCISSOR_TEST))
        area.setScissor()
        glUseProgram(program.program.id)
        glUniform4f(program.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(program.pageTop, GLint(pageTop))
        glActiveTexture(GLenum(GL_TEXTURE0)); glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), phaseArray)
        // Three binds written out: a frame allocates nothing.
        bind(rowTable, unit: Self.rowUnit)
        bind(entryTable, unit: Self.entryUnit)
        bind(stateTexture, unit: Self.stateUnit)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glDisable(GLenum(GL_SCISSOR_TEST))
        callsLastFrame += 1
    }

    /// Scene rectangle `rows` x `columns` (the page's part of it) from a painted texture of `textureRows` rows,
    /// from its column `column` and its row `topRow` down.
    private func copy(from texture: GLuint, _ framebuffer: GLuint, rows textureRows: Int, column: Int, topRow: Int,
                      onto rows: Range<Int>, _ columns: Range<Int>, viewport: Viewport, pageTop: Int) {
        guard column >= 0, let area = PageArea(rows: rows, columns: columns, viewport: viewport, pageTop: pageTop) else { return }
        let first = area.rows.lowerBound, last = area.rows.upperBound
        // Textures and pages hold their rows bottom to top.
        let sourceY1 = textureRows - (topRow + first - rows.lowerBound), sourceY0 = sourceY1 - (last - first)
        let targetY0 = area.rect.y, targetY1 = targetY0 + area.rect.height
        let x = area.rect.x, w = area.rect.width
        // A copy of a picture painted once: stored, not blended, not painted now.
        counts?.write(rows: first..<last, columns: columns, blends: false, software: false)
        callsLastFrame += 1
        if let page = pageTexture {
            glCopyImageSubData(texture, GLenum(GL_TEXTURE_2D), 0, GLint(column), GLint(sourceY0), 0,
                               page.texture, GLenum(GL_TEXTURE_2D_ARRAY), 0, GLint(x), GLint(targetY0), GLint(page.layer),
                               GLsizei(w), GLsizei(last - first), 1)
        } else {
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
            glBlitFramebuffer(GLint(column), GLint(sourceY0), GLint(column + w), GLint(sourceY1),
                              GLint(x), GLint(targetY0), GLint(x + w), GLint(targetY1), GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
        }
    }
}
