import CGL
import WaveCore

/// The translate strategy at its cheapest: the batch's bands painted once,
/// on the CPU with the CPU strategy's own rasteriser and paint, at a few
/// sub-pixel phases; each frame copies the nearest phase into place by whole
/// pixels (glBlitFramebuffer, same size, no filtering: a memory copy, even on
/// llvmpipe), two copies per band where the picture wraps. No shader runs.
///
/// Used for a scene of one batch of repeating curves with a solid paint over
/// an opaque background: `--subpixel exact` (16 phases, so the copied frame
/// is the CPU's within 1/32 pixel of motion), or snapped motion (one phase).
final class GLCopyBatch: GLLayerDraw {
    /// A run of scene rows showing consecutive rows of one picture with one shift.
    struct Band: Equatable {
        var sceneRows: Range<Int>
        var picture: Int
        var shift: Int
        var firstPictureRow: Int
    }

    /// Phases per pixel when exact motion is asked for, and the fewest that
    /// still keep a moving edge within the CPU tolerance (16/255: 1/16 pixel).
    static let exactPhases = 16
    static let fewestExactPhases = 8

    let phases: Int
    let bands: [Band]
    /// Whether some scene rows show no band (they are cleared first).
    let leavesRowsUncovered: Bool
    private let motion: Motion
    private let period: Int
    private let width: Int
    /// Rows of one phase's texture: the pictures stacked, `pictureRows` each.
    private let textureRows: Int
    private let pictureRows: Int
    private var textures: [GLuint]
    private var framebuffers: [GLuint]

    /// The phases a batch gets, or nil when copies cannot draw it (or are not
    /// asked for): snapped motion needs one; exact motion 16, or 8 where 16
    /// do not fit the driver's limits or the memory budget.
    static func phases(for batch: ScenePlan.Batch, scene: Scene, subpixel: SubpixelMode, caps: GLCapabilities) -> Int? {
        guard case let .curves(curves) = batch.content, case .fill(.solid) = batch.paint, scene.background.a == 255 else { return nil }
        let wanted: [Int]
        if batch.motion.snapsToPixel || batch.motion.kind == .still {
            wanted = [1]
        } else if subpixel == .exact {
            wanted = [exactPhases, fewestExactPhases]
        } else {
            return nil
        }
        let rows = curves.pictureRows * curves.pictures.count
        guard curves.period <= caps.maxTextureSize, rows <= caps.maxTextureSize else { return nil }
        return wanted.first { $0 * curves.period * rows * 4 <= caps.maxCoverageBytes }
    }

    init(_ batch: ScenePlan.Batch, scene: Scene, phases: Int) throws {
        guard case let .curves(curves) = batch.content, case let .fill(fill) = batch.paint else {
            throw GLError.limit(what: "copies of anything but repeating curves with one fill", needed: 1, available: 0)
        }
        self.phases = phases
        motion = batch.motion
        period = curves.period
        width = scene.width
        pictureRows = curves.pictureRows
        textureRows = curves.pictureRows * curves.pictures.count
        bands = Self.bands(curves.rowEntries)
        leavesRowsUncovered = curves.rowEntries.contains { $0 == nil }
        textures = Array(repeating: 0, count: phases)
        framebuffers = Array(repeating: 0, count: phases)
        glGenTextures(GLsizei(phases), &textures)
        glGenFramebuffers(GLsizei(phases), &framebuffers)

        // Rows bottom to top, the order GL uploads: one straight copy per phase.
        let painted = Pixmap(width: period, height: textureRows, rowStride: -period)
        let program = FillProgram(fill: fill, background: scene.background)
        for phase in 0..<phases {
            painted.fill(scene.background)
            for (slot, picture) in curves.pictures.enumerated() {
                let rasterizer = CoverageRasterizer(width: period, height: picture.rows.count)
                picture.addOutline(offset: Double(phase) / Double(phases), width: period, to: rasterizer)
                let block = painted.view(rows: slot * pictureRows..<slot * pictureRows + picture.rows.count)
                var blitter = PaintBlitter(view: block, left: program, right: program, split: Int.max, clears: true)
                rasterizer.resolve(rows: 0..<picture.rows.count, into: &blitter)
            }
            glBindTexture(GLenum(GL_TEXTURE_2D), textures[phase])
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(period), GLsizei(textureRows), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), painted.memory.baseAddress)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffers[phase])
            glFramebufferTexture2D(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), textures[phase], 0)
            let status = glCheckFramebufferStatus(GLenum(GL_READ_FRAMEBUFFER))
            guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else { throw GLError.framebuffer(status: status) }
        }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        try checkGLErrors("painting \(curves.pictures.count) picture(s) at \(phases) sub-pixel phase(s)")
    }

    deinit {
        glDeleteFramebuffers(GLsizei(framebuffers.count), &framebuffers)
        glDeleteTextures(GLsizei(textures.count), &textures)
    }

    /// Consecutive rows of one picture with one shift, as one band.
    static func bands(_ entries: [(picture: Int, shift: Int, row: Int)?]) -> [Band] {
        var bands: [Band] = []
        for (row, entry) in entries.enumerated() {
            guard let entry else { continue }
            if var last = bands.last, last.sceneRows.upperBound == row, last.picture == entry.picture, last.shift == entry.shift,
               last.firstPictureRow + last.sceneRows.count == entry.row {
                last.sceneRows = last.sceneRows.lowerBound..<row + 1
                bands[bands.count - 1] = last
            } else {
                bands.append(Band(sceneRows: row..<row + 1, picture: entry.picture, shift: entry.shift, firstPictureRow: entry.row))
            }
        }
        return bands
    }

    /// The whole pixels and the phase for content offset `u`: the phase
    /// nearest its fraction (rounding up to the next whole pixel).
    static func split(_ u: Double, phases: Int) -> (whole: Int, phase: Int) {
        let floor = u.rounded(.down)
        var whole = Int(Swift.max(Swift.min(floor, 1e15), -1e15))
        var phase = Int(((u - floor) * Double(phases)).rounded())
        if phase == phases { phase = 0; whole += 1 }
        return (whole, phase)
    }

    /// The page's texture, where the target is one (set per page by the
    /// renderer): copied into with glCopyImageSubData, which needs no
    /// framebuffer; elsewhere (a window) the copies are framebuffer blits.
    var pageTexture: (texture: GLuint, layer: Int)?

    func prepareFrame(time: Double) {}

    func draw(time: Double, viewport: Viewport, pageTop: Int) {
        let (whole, phase) = Self.split(motion.offset(at: time), phases: phases)
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDisable(GLenum(GL_BLEND))
        if pageTexture == nil { glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffers[phase]) }
        let pageBottom = pageTop + viewport.height
        // By index: in a debug build a for-in loop over an array allocates.
        for b in bands.indices {
            let band = bands[b]
            let first = Swift.max(band.sceneRows.lowerBound, pageTop), last = Swift.min(band.sceneRows.upperBound, pageBottom)
            if first >= last { continue }
            // Picture rows, as texture rows (bottom to top), and the page's rows they land on.
            let pictureTop = band.picture * pictureRows + band.firstPictureRow + (first - band.sceneRows.lowerBound)
            let sourceY1 = textureRows - pictureTop, sourceY0 = sourceY1 - (last - first)
            let targetY1 = viewport.y + viewport.height - (first - pageTop), targetY0 = targetY1 - (last - first)
            // Screen column x shows picture column (x + whole + shift) mod period.
            var column = (whole + band.shift) % period
            if column < 0 { column += period }
            var x = 0
            while x < width {
                let run = Swift.min(width - x, period - column)
                if let page = pageTexture {
                    glCopyImageSubData(textures[phase], GLenum(GL_TEXTURE_2D), 0, GLint(column), GLint(sourceY0), 0,
                                       page.texture, GLenum(GL_TEXTURE_2D_ARRAY), 0, GLint(viewport.x + x), GLint(targetY0),
                                       GLint(page.layer), GLsizei(run), GLsizei(last - first), 1)
                    x += run
                    column = 0
                    continue
                }
                glBlitFramebuffer(GLint(column), GLint(sourceY0), GLint(column + run), GLint(sourceY1),
                                  GLint(viewport.x + x), GLint(targetY0), GLint(viewport.x + x + run), GLint(targetY1),
                                  GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
                x += run
                column = 0
            }
        }
        if pageTexture == nil { glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0) }
    }
}
