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
/// Used on software drivers (llvmpipe), where a copy is a memcpy and a
/// shader pass is CPU work on every pixel, over an opaque background: one
/// phase where the shapes only move by whole pixels (snapped or still), 16
/// (or 8, within the budget) for exact sub-pixel motion. Shapes of one path,
/// clip size and reach share one picture; every picture of a phase is
/// stacked in one texture.
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
    /// Copies a frame makes: one for the band where the clips scroll together, else one a clip.
    var copiesPerFrame: Int { band == nil ? clips.count : 1 }

    /// Every clip painted as one band, where they scroll together (slot k: clip k), and whether this frame's keep together.
    private var band: Band?
    private var bandHolds = false

    /// The page's texture, where the target is one (set per page by the
    /// renderer): copied into with glCopyImageSubData, which needs no
    /// framebuffer; elsewhere (a window) the copies are framebuffer blits.
    var pageTexture: (texture: GLuint, layer: Int)?
    /// While set, each copy's pixels are counted into it as written.
    var counts: PixelCounts?

    /// Nil where nothing qualifies or the pictures do not fit the driver's limits and budget.
    init?(evaluator: LayerTreeEvaluator, width: Int, height: Int, background: RGBA8, subpixel: SubpixelMode,
          caps: GLCapabilities) throws {
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
        self.phases = phases
        self.evaluator = evaluator
        self.clips = byNode
        self.drawnHere = drawnHere
        whole = .allocate(capacity: byNode.count)
        whole.initialize(repeating: 0)
        phase = .allocate(capacity: byNode.count)
        phase.initialize(repeating: -1)
        self.pictures = pictures
        textureRows = rows
        textures = Array(repeating: 0, count: phases)
        framebuffers = Array(repeating: 0, count: phases)
        glGenTextures(GLsizei(phases), &textures)
        glGenFramebuffers(GLsizei(phases), &framebuffers)
        var band = Band(clips: byNode, pictures: pictures.map(\.key), evaluator: evaluator, phases: phases, caps: caps,
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
            try Self.upload(stacked, into: textures[phase], framebuffer: framebuffers[phase])
            // The band of this phase, from the pictures just painted; none where a clip's turned rows would not match.
            if let painting = band, try !painting.paint(phase: phase, from: whole, pictureTops: pictureTops) { band = nil }
        }
        self.band = band
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
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

    deinit {
        glDeleteFramebuffers(GLsizei(framebuffers.count), &framebuffers)
        glDeleteTextures(GLsizei(textures.count), &textures)
        whole.deallocate()
        phase.deallocate()
    }

    /// Each clip's whole pixels and phase at scene time t, and whether the band keeps together: every clip at the
    /// first's phase and whole pixels plus its lead (mod the period). Allocates nothing.
    func prepareFrame(time t: Double) {
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

    /// Every clip onto the page's rows of it: the band in one copy where this frame's clips keep together, else
    /// each from its picture at the phase nearest its x.
    func copyAll(viewport: Viewport, pageTop: Int) {
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
