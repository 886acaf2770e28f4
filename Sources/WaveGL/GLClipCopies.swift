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
/// - one instanced draw a page for every clip (`Shaders/clips.*.glsl`), on
///   a GPU, where a draw call is the CPU's cost and a copy a draw's: the
///   phases are layers of one texture array and a frame sends one texel a
///   clip (its whole pixels and phase), so a thousand clips are one call.
///
/// Clips that scroll together (a table's cells: one column span, rows one
/// after another, each showing the same loop a whole number of pixels
/// ahead) are also painted as one band per phase, each clip's rows turned
/// by its lead, so a frame is one copy of the band, as long as the frame's
/// clips keep together (checked every frame; otherwise one copy a clip).
///
/// A frame finds each clip's x from its layer's timing and translation
/// alone (`LayerTreeEvaluator.x(of:at:)`), and copies every clip first:
/// nothing else reaches a sole clip, so the order is free. Where every
/// item is a copy, the rest of the tree need not be evaluated at all.
final class GLClipCopies {
    /// One painted picture: the shape it shows and where (its rows, the path
    /// x of its column 0, its width), and its rows' first in the stacked textures.
    struct Picture {
        struct Key: Hashable {
            var content: Int, rows: Int, y: Double, originX: Int, width: Int
        }
        var key: Key
        var top: Int
    }

    let phases: Int
    /// One instanced draw for every clip (the GPU policy), not copies.
    let instanced: Bool
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
    /// Copies or draws a frame makes a page: one instanced draw, or one
    /// copy of the band where the clips scroll together, else one copy a clip.
    var copiesPerFrame: Int { instanced || band != nil ? 1 : clips.count }
    /// The GL calls (copies, blits or instanced draws) the last frame made, every page's.
    private(set) var callsLastFrame = 0
    /// Instanced: every phase as a layer of one texture array, each clip's
    /// rectangle and picture (two texels), this frame's state (a texel a clip), the program.
    private var phaseArray: GLuint = 0, clipTable: GLuint = 0, stateTable: GLuint = 0
    private let state: UnsafeMutableBufferPointer<Int32>
    private var program: (program: ShaderProgram, viewport: GLint, pageTop: GLint, first: GLint)?
    /// Rows the state table has (sized at the first upload).
    private var stateRows = 0
    /// The most rows a clip spans (clips are kept from the top one down: a page's are a run of them).
    private var tallestClip = 0

    /// Every clip painted as one band, where they scroll together (slot k: clip k), and whether this frame's keep together.
    private var band: Band?
    private var bandHolds = false

    /// The page's texture, where the target is one (set per page by the
    /// renderer): copied into with glCopyImageSubData, which needs no
    /// framebuffer; elsewhere (a window) the copies are framebuffer blits.
    var pageTexture: (texture: GLuint, layer: Int)?
    /// While set, each copy's pixels are counted into it as written.
    var counts: PixelCounts?
    /// Fragments the instanced draw wrote while counting, since last taken.
    private var writtenFragments = 0

    /// The fragments the instanced draw wrote (counted already) since the last call: the renderer's
    /// samples query saw them too.
    func takeWrittenFragments() -> Int {
        defer { writtenFragments = 0 }
        return writtenFragments
    }

    /// Nil where nothing qualifies or the pictures do not fit the driver's limits and budget.
    /// `instanced`: one draw for every clip (the GPU policy), else copies.
    init?(evaluator: LayerTreeEvaluator, width: Int, height: Int, background: RGBA8, subpixel: SubpixelMode,
          caps: GLCapabilities, instanced: Bool) throws {
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
            let key = Picture.Key(content: evaluator.nodes[clip.node].content, rows: clip.rows.count,
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
        // Too many clips for the instanced draw's table: none are drawn here (the shader draws each).
        guard !instanced || (2 * byNode.count + GLTreeDraw.tableWidth - 1) / GLTreeDraw.tableWidth <= caps.maxTextureSize else { return nil }
        self.phases = phases
        self.instanced = instanced
        self.evaluator = evaluator
        self.clips = byNode
        self.drawnHere = drawnHere
        whole = .allocate(capacity: byNode.count)
        whole.initialize(repeating: 0)
        phase = .allocate(capacity: byNode.count)
        phase.initialize(repeating: -1)
        state = .allocate(capacity: instanced ? 2 * byNode.count : 0)
        state.initialize(repeating: 0)
        self.pictures = pictures
        textureRows = rows
        textures = Array(repeating: 0, count: instanced ? 0 : phases)
        framebuffers = Array(repeating: 0, count: instanced ? 0 : phases)
        if instanced {
            try makeInstanceTables(widest: widest, rows: rows)
        } else {
            glGenTextures(GLsizei(phases), &textures)
            glGenFramebuffers(GLsizei(phases), &framebuffers)
        }
        var band = instanced ? nil : Band(clips: byNode, pictures: pictures.map(\.key), evaluator: evaluator, phases: phases, caps: caps,
                                          budget: Swift.min(Band.budget, caps.maxCoverageBytes - phases * widest * rows * 4))

        // Each picture's path and paint, and a rasteriser of its size, made once for every phase.
        let painting = try pictures.map { picture -> (path: Path, paint: FillProgram, rasterizer: CoverageRasterizer)? in
            guard case let .shape(shape) = evaluator.contents[picture.key.content], case let .fixed(path) = shape.path else { return nil }
            return (path, FillProgram(fill: shape.fill, background: background),
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
            if instanced {
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

    /// The instanced draw's texture array (a layer a phase, filled as each is
    /// painted), its table of clips (written once) and of states, and its program.
    private func makeInstanceTables(widest: Int, rows: Int) throws {
        glGenTextures(1, &phaseArray)
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), phaseArray)
        glTexImage3D(GLenum(GL_TEXTURE_2D_ARRAY), 0, GL_RGBA8, GLsizei(widest), GLsizei(rows), GLsizei(phases), 0, GLenum(GL_RGBA),
                     GLenum(GL_UNSIGNED_BYTE), nil)
        for parameter in [GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER] {
            glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(parameter), GL_NEAREST)
        }
        var table = [Int32]()
        table.reserveCapacity(8 * clips.count)
        for (clip, picture) in clips {
            table += [clip.columns.lowerBound, clip.rows.lowerBound, clip.columns.count, clip.rows.count].map { Int32($0) }
            table += [Int32(pictures[picture].top), Int32(pictures[picture].key.originX), 0, 0]
        }
        clipTable = GLTreeDraw.makeTableTexture()
        var clipRows = 0
        GLTreeDraw.upload(table, into: clipTable, rows: &clipRows, components: 4, format: GL_RGBA32I, layout: GL_RGBA_INTEGER, type: GL_INT)
        stateTable = GLTreeDraw.makeTableTexture()
        uploadState()
        let made = try ShaderProgram(vertex: "clips.vert.glsl", fragment: "clips.frag.glsl")
        glUseProgram(made.id)
        for (name, unit) in [("u_phases", 0), ("u_clips", 1), ("u_state", 2)] { glUniform1i(made.uniform(name), GLint(unit)) }
        glUniform1i(made.uniform("u_textureRows"), GLint(rows))
        glUseProgram(0)
        program = (made, made.uniform("u_viewport"), made.uniform("u_pageTop"), made.uniform("u_first"))
        tallestClip = clips.map(\.clip.rows.count).max() ?? 0
    }

    /// This frame's state, a texel a clip.
    private func uploadState() {
        GLTreeDraw.upload(UnsafeBufferPointer(state), into: stateTable, rows: &stateRows, components: 2, format: GL_RG32I,
                          layout: GL_RG_INTEGER, type: GL_INT)
    }

    deinit {
        glDeleteFramebuffers(GLsizei(framebuffers.count), &framebuffers)
        glDeleteTextures(GLsizei(textures.count), &textures)
        for var texture in [phaseArray, clipTable, stateTable] where texture != 0 { glDeleteTextures(1, &texture) }
        whole.deallocate()
        phase.deallocate()
        state.deallocate()
    }

    /// Each clip's whole pixels and phase at scene time t, and whether the band keeps together: every clip at the
    /// first's phase and whole pixels plus its lead (mod the period). Allocates nothing.
    func prepareFrame(time t: Double) {
        callsLastFrame = 0
        var k = 0
        while k < clips.count {
            let x = evaluator.x(of: clips[k].clip, at: t)
            if x.isFinite { (whole[k], phase[k]) = SubpixelPhases.split(x, phases: phases) } else { phase[k] = -1 }
            k += 1
        }
        if instanced {
            // One texel a clip: whole pixels (held to what a texel column can be) and phase.
            k = 0
            while k < clips.count {
                state[2 * k] = Int32(truncatingIfNeeded: Swift.min(Swift.max(whole[k], -(1 << 30)), 1 << 30))
                state[2 * k + 1] = Int32(phase[k])
                k += 1
            }
            uploadState()
            return
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

    /// Every clip onto the page's rows of it: in one instanced draw; or the band in one copy where this frame's clips
    /// keep together, else each copied from its picture at the phase nearest its x.
    func drawAll(viewport: Viewport, pageTop: Int) {
        if instanced {
            drawInstances(viewport: viewport, pageTop: pageTop)
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

    /// Every clip in one draw, written (not blended: nothing else reaches a sole clip).
    private func drawInstances(viewport: Viewport, pageTop: Int) {
        guard let program else { return }
        // The run of clips that can reach the page's rows: from the first whose top is within a clip's height above it.
        let first = firstClip(atOrBelow: pageTop - tallestClip + 1), end = firstClip(atOrBelow: pageTop + viewport.height)
        guard first < end else { return }
        // Counted as written, not blended: kept out of the stencil that counts blended fragments, and told apart from the
        // samples the renderer's query sees (`takeWrittenFragments`).
        let counting = counts != nil && glIsEnabled(GLenum(GL_STENCIL_TEST)) != 0
        if let counts {
            var k = first
            while k < end {
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
        glDisable(GLenum(GL_SCISSOR_TEST))
        glUseProgram(program.program.id)
        glUniform4f(program.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(program.pageTop, GLint(pageTop))
        glUniform1i(program.first, GLint(first))
        glActiveTexture(GLenum(GL_TEXTURE0)); glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), phaseArray)
        glActiveTexture(GLenum(GL_TEXTURE1)); glBindTexture(GLenum(GL_TEXTURE_2D), clipTable)
        glActiveTexture(GLenum(GL_TEXTURE2)); glBindTexture(GLenum(GL_TEXTURE_2D), stateTable)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(end - first))
        callsLastFrame += 1
    }

    /// The first clip whose top row is at or below `row` (clips.count: none).
    private func firstClip(atOrBelow row: Int) -> Int {
        var low = 0, high = clips.count
        while low < high {
            let mid = (low + high) / 2
            if clips[mid].clip.rows.lowerBound < row { low = mid + 1 } else { high = mid }
        }
        return low
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
