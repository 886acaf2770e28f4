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
    /// One painted picture: the shape it shows and where (its rows, the path
    /// x of its column 0, its width), and its rows' first in the stacked textures.
    private struct Picture {
        struct Key: Hashable {
            var content: Int, rows: Int, y: Double, originX: Int, width: Int
        }
        var key: Key
        var top: Int
    }

    let phases: Int
    /// Per compiled node: the clip it alone draws and its picture (nil: drawn otherwise).
    private var byNode: [(clip: SoleClip, picture: Int)?]
    private let pictures: [Picture]
    private let textureRows: Int
    private var textures: [GLuint]
    private var framebuffers: [GLuint]
    /// The rows a frame must clear first: those no copy writes whole.
    let rowsToClear: [Range<Int>]
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
        rowsToClear = SoleClip.rowsToClear(clips, width: width, height: height)
        var index: [Picture.Key: Int] = [:]
        var byNode = [(clip: SoleClip, picture: Int)?](repeating: nil, count: evaluator.nodes.count)
        var pictures: [Picture] = []
        var rows = 0, widest = 0
        for clip in clips {
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
            byNode[clip.node] = (clip, picture)
        }
        // Copies write every pixel of the frame and nothing else draws: the frame is the painted pictures, as they are.
        drawsEverything = rowsToClear.isEmpty && evaluator.maskNodes.isEmpty
            && evaluator.nodes.indices.allSatisfy { evaluator.nodes[$0].layer.contents == nil || byNode[$0] != nil }
        // Painted straight, a translucent background's pixels are right only where nothing is blended over or beside them.
        guard background.a == 255 || drawsEverything else { return nil }
        guard widest <= caps.maxTextureSize, rows <= caps.maxTextureSize else { return nil }
        let wanted = clips.allSatisfy(\.wholeX) ? [1] : [SubpixelPhases.exact, SubpixelPhases.fewest]
        guard let phases = wanted.first(where: { $0 * widest * rows * 4 <= caps.maxCoverageBytes }) else { return nil }
        self.phases = phases
        self.byNode = byNode
        self.pictures = pictures
        textureRows = rows
        textures = Array(repeating: 0, count: phases)
        framebuffers = Array(repeating: 0, count: phases)
        glGenTextures(GLsizei(phases), &textures)
        glGenFramebuffers(GLsizei(phases), &framebuffers)

        // Each picture's path and paint, and a rasteriser of its size, made once for every phase.
        let painting = try pictures.map { picture -> (path: Path, paint: FillProgram, rasterizer: CoverageRasterizer)? in
            guard case let .shape(shape) = evaluator.contents[picture.key.content], case let .fixed(path) = shape.path else { return nil }
            return (path, FillProgram(fill: shape.fill, background: background),
                    try CoverageRasterizer(width: picture.key.width, height: picture.key.rows))
        }
        // Every picture at every phase, painted as the CPU strategy paints the shape alone in its clip.
        let stacked = Pixmap(width: widest, height: rows, rowStride: -widest)
        let whole = stacked.view
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
        let column = clip.columns.lowerBound - whole - picture.key.originX
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
