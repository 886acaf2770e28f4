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
final class GLClipCopies {
    /// One painted picture: its rows in the stacked textures, and the path x of its column 0.
    private struct Picture {
        var top: Int
        var rows: Int
        var originX: Int
    }
    private struct Key: Hashable {
        var content: Int, rows: Int, y: Double, originX: Int, width: Int
    }

    let phases: Int
    /// Per compiled node: the clip it alone draws and its picture (nil: drawn otherwise).
    private var byNode: [(clip: SoleClip, picture: Int)?]
    private var pictures: [Picture] = []
    private let textureRows: Int
    private var textures: [GLuint]
    private var framebuffers: [GLuint]
    /// Rows every pixel of which a copy writes each frame (the rest are cleared first).
    let rowsPaintedWhole: [Range<Int>]
    /// Every pixel of every frame is a copy and nothing else is drawn: the
    /// frame holds the pictures' straight colours (not premultiplied).
    let drawsEverything: Bool
    /// Copies a frame makes: one a clip.
    var copiesPerFrame: Int { byNode.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    /// The page's texture, where the target is one (set per page by the
    /// renderer): copied into with glCopyImageSubData, which needs no
    /// framebuffer; elsewhere (a window) the copies are framebuffer blits.
    var pageTexture: (texture: GLuint, layer: Int)?

    /// Nil where nothing qualifies or the pictures do not fit the driver's limits and budget.
    init?(evaluator: LayerTreeEvaluator, width: Int, height: Int, background: RGBA8, subpixel: SubpixelMode,
          caps: GLCapabilities) throws {
        // Shapes on whole rows whose x stays within known bounds; moving by fractions only where exact motion is asked for.
        let clips = evaluator.soleClips(width: width, height: height).filter { clip in
            clip.y == clip.y.rounded() && clip.xRange != nil && (clip.wholeX || subpixel == .exact)
        }
        guard !clips.isEmpty else { return nil }
        var whole = [Bool](repeating: false, count: height)
        for clip in clips where clip.columns == 0..<width { for r in clip.rows { whole[r] = true } }
        // Copies write every pixel of the frame and nothing else draws: the frame is the painted pictures, as they are.
        drawsEverything = !whole.contains(false) && evaluator.maskNodes.isEmpty
            && evaluator.nodes.indices.allSatisfy { i in evaluator.nodes[i].layer.contents == nil || clips.contains { $0.node == i } }
        // Painted straight, a translucent background's pixels are right only where nothing is blended over or beside them.
        guard background.a == 255 || drawsEverything else { return nil }
        let allWhole = clips.allSatisfy(\.wholeX)
        var keys: [Key: Int] = [:]
        var keyOf: [Key] = []
        var byNode = [(clip: SoleClip, picture: Int)?](repeating: nil, count: evaluator.nodes.count)
        var rows = 0, widest = 0
        var sizes: [(key: Key, top: Int)] = []
        for clip in clips {
            let range = clip.xRange!
            // Path columns the clip can show: left of its left edge at the rightmost x to past its right edge at the leftmost.
            let originX = Int((Double(clip.columns.lowerBound) - range.upperBound).rounded(.down)) - 1
            let end = Int((Double(clip.columns.upperBound) - range.lowerBound).rounded(.up)) + 1
            let key = Key(content: evaluator.nodes[clip.node].content, rows: clip.rows.count, y: clip.y - Double(clip.rows.lowerBound),
                          originX: originX, width: end - originX)
            let picture = keys[key] ?? {
                keys[key] = sizes.count
                sizes.append((key, rows))
                keyOf.append(key)
                rows += key.rows
                widest = Swift.max(widest, key.width)
                return sizes.count - 1
            }()
            byNode[clip.node] = (clip, picture)
        }
        guard widest <= caps.maxTextureSize, rows <= caps.maxTextureSize else { return nil }
        let wanted = allWhole ? [1] : [SubpixelPhases.exact, SubpixelPhases.fewest]
        guard let phases = wanted.first(where: { $0 * widest * rows * 4 <= caps.maxCoverageBytes }) else { return nil }
        self.phases = phases
        self.byNode = byNode
        pictures = sizes.map { Picture(top: $0.top, rows: $0.key.rows, originX: $0.key.originX) }
        textureRows = rows
        rowsPaintedWhole = TreePainter.runs(of: whole, where: true)
        textures = Array(repeating: 0, count: phases)
        framebuffers = Array(repeating: 0, count: phases)
        glGenTextures(GLsizei(phases), &textures)
        glGenFramebuffers(GLsizei(phases), &framebuffers)

        // Every picture at every phase, painted as the CPU strategy paints the shape alone in its clip.
        let stacked = Pixmap(width: widest, height: rows, rowStride: -widest)
        for phase in 0..<phases {
            stacked.fill(background, rows: 0..<rows)
            for (index, key) in keyOf.enumerated() {
                guard case let .shape(shape) = evaluator.contents[key.content], case let .fixed(path) = shape.path else { continue }
                let rasterizer = try CoverageRasterizer(width: key.width, height: key.rows)
                let shift = Affine(a: 1, b: 0, c: 0, d: 1, tx: -Double(key.originX) + Double(phase) / Double(phases), ty: key.y)
                PrimitiveOutlines.addPath(path, shift, columns: 0..<key.width, into: rasterizer)
                let whole = stacked.view
                let slot = PixmapView(rowZero: whole.row(sizes[index].top), width: key.width, height: key.rows, rowStride: whole.rowStride)
                var blitter = PaintBlitter(view: slot, fill: FillProgram(fill: shape.fill, background: background), clears: true)
                rasterizer.resolve(rows: 0..<key.rows, into: &blitter)
            }
            glBindTexture(GLenum(GL_TEXTURE_2D), textures[phase])
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(widest), GLsizei(rows), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                         stacked.memory.baseAddress)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffers[phase])
            glFramebufferTexture2D(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), textures[phase], 0)
            let status = glCheckFramebufferStatus(GLenum(GL_READ_FRAMEBUFFER))
            guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else { throw GLError.framebuffer(status: status) }
        }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        try checkGLErrors("painting \(pictures.count) clip picture(s) at \(phases) sub-pixel phase(s)")
    }

    deinit {
        glDeleteFramebuffers(GLsizei(framebuffers.count), &framebuffers)
        glDeleteTextures(GLsizei(textures.count), &textures)
    }

    /// Whether compiled node `node`'s item is drawn here.
    @inline(__always)
    func draws(_ node: Int) -> Bool { byNode[node] != nil }

    /// The item's clip, from the phase nearest its x, onto the page's rows of it.
    func copy(_ item: PresentationItem, viewport: Viewport, pageTop: Int) {
        guard let (clip, index) = byNode[item.layer] else { return }
        let picture = pictures[index]
        let first = Swift.max(clip.rows.lowerBound, pageTop), last = Swift.min(clip.rows.upperBound, pageTop + viewport.height)
        guard first < last, item.transform.tx.isFinite else { return }
        let (whole, phase) = SubpixelPhases.split(item.transform.tx, phases: phases)
        // Scene column x shows path x - whole - phase/phases: picture column x - whole - originX.
        let column = clip.columns.lowerBound - whole - picture.originX
        guard column >= 0 else { return }
        // Textures and pages hold their rows bottom to top.
        let pictureRow = picture.top + (first - clip.rows.lowerBound)
        let sourceY1 = textureRows - pictureRow, sourceY0 = sourceY1 - (last - first)
        let targetY1 = viewport.y + viewport.height - (first - pageTop), targetY0 = targetY1 - (last - first)
        let x = viewport.x + clip.columns.lowerBound, w = clip.columns.count
        if let page = pageTexture {
            glCopyImageSubData(textures[phase], GLenum(GL_TEXTURE_2D), 0, GLint(column), GLint(sourceY0), 0,
                               page.texture, GLenum(GL_TEXTURE_2D_ARRAY), 0, GLint(x), GLint(targetY0), GLint(page.layer),
                               GLsizei(w), GLsizei(last - first), 1)
        } else {
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffers[phase])
            glBlitFramebuffer(GLint(column), GLint(sourceY0), GLint(column + w), GLint(sourceY1),
                              GLint(x), GLint(targetY0), GLint(x + w), GLint(targetY1), GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
        }
    }
}
