import CGL
import WaveCore

/// The translate strategy at its cheapest: the batch painted once, on the
/// CPU with the CPU strategy's own renderer, at a few sub-pixel phases; each
/// frame copies the nearest phase into place by whole pixels (same size, no
/// filtering: a memory copy, even on llvmpipe). No shader runs.
///
/// Two layouts. Where it fits (`screenBudget`), the whole scene is painted
/// one period wider than the screen, every cell's own shift baked in, so a
/// frame is one copy of the screen from column (offset mod period). Else
/// each distinct cell picture is painted one period wide, stacked, and a
/// frame is two copies per band where the picture wraps.
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

    /// The most the one-copy layout may take (all phases); past it, bands.
    static let screenBudget = 64 << 20

    enum Layout: Equatable {
        /// The scene painted `period` columns wider than the screen: one copy a page.
        case screen
        /// Each distinct picture painted one period wide, stacked: two copies a band.
        case bands
    }

    struct Plan: Equatable {
        var phases: Int
        var layout: Layout
    }

    let phases: Int
    let layout: Layout
    /// `.bands`: the runs of rows to copy.
    let bands: [Band]
    /// Whether some scene rows show no band (`.bands`: they are cleared first).
    let leavesRowsUncovered: Bool
    private let motion: Motion
    private let period: Int
    private let width: Int
    /// Rows of one phase's texture: the scene's (`.screen`) or the pictures stacked, `pictureRows` each.
    private let textureRows: Int
    private let pictureRows: Int
    private var textures: [GLuint]
    private var framebuffers: [GLuint]

    /// How a batch is copied, or nil when copies cannot draw it (or are not
    /// asked for): snapped motion needs one phase; exact motion 16, or 8
    /// where 16 do not fit the driver's limits or the memory budget.
    static func plan(for batch: ScenePlan.Batch, scene: Scene, subpixel: SubpixelMode, caps: GLCapabilities) -> Plan? {
        let curves = batch.curves
        guard case .solid = batch.paint, scene.background.a == 255 else { return nil }
        let wanted: [Int]
        if batch.motion.snapsToPixel || batch.motion.kind == .still {
            wanted = [1]
        } else if subpixel == .exact {
            wanted = [SubpixelPhases.exact, SubpixelPhases.fewest]
        } else {
            return nil
        }
        let wide = curves.period + scene.width
        if wide <= caps.maxTextureSize, scene.height <= caps.maxTextureSize, wanted[0] * wide * scene.height * 4 <= screenBudget {
            return Plan(phases: wanted[0], layout: .screen)
        }
        let rows = curves.pictureRows * curves.pictures.count
        guard curves.period <= caps.maxTextureSize, rows <= caps.maxTextureSize else { return nil }
        return wanted.first { $0 * curves.period * rows * 4 <= caps.maxCoverageBytes }.map { Plan(phases: $0, layout: .bands) }
    }

    init(_ batch: ScenePlan.Batch, scene: Scene, plan: Plan) throws {
        let curves = batch.curves
        phases = plan.phases
        layout = plan.layout
        motion = batch.motion
        period = curves.period
        width = scene.width
        pictureRows = curves.pictureRows
        let textureWidth = layout == .screen ? period + width : period
        textureRows = layout == .screen ? scene.height : curves.pictureRows * curves.pictures.count
        bands = layout == .screen ? [] : Self.bands(curves.rowEntries)
        leavesRowsUncovered = layout == .bands && curves.rowEntries.contains { $0 == nil }
        textures = Array(repeating: 0, count: phases)
        framebuffers = Array(repeating: 0, count: phases)
        glGenTextures(GLsizei(phases), &textures)
        glGenFramebuffers(GLsizei(phases), &framebuffers)

        // What is painted, as layers for the CPU strategy's own renderer: the scene
        // itself, one period wider (cell shifts and all), or each distinct picture
        // in its slot of `pictureRows` rows.
        let layers: [FlatLayer] = layout == .screen ? batch.layers.map { scene.layers[$0] }
            : curves.pictures.enumerated().map { slot, picture in
                var placed = picture
                placed.rows = slot * pictureRows..<slot * pictureRows + picture.rows.count
                return FlatLayer(content: .repeatingCurve(placed), paint: batch.paint)
            }
        // Rows bottom to top, the order GL uploads: one straight copy per phase.
        let painted = Pixmap(width: textureWidth, height: textureRows, rowStride: -textureWidth)
        let renderer = CPURenderer()
        // One pixel a second: drawn at time phase / phases, the offset is that phase.
        let slow = Motion(.loop(distance: 1, period: 1, direction: .left))
        try renderer.prepare(scene: Scene(width: textureWidth, height: textureRows, background: scene.background,
                                          layers: layers.map { var layer = $0; layer.motion = slow; return layer }))
        for phase in 0..<phases {
            try renderer.draw(time: Double(phase) / Double(phases), into: painted)
            glBindTexture(GLenum(GL_TEXTURE_2D), textures[phase])
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(textureWidth), GLsizei(textureRows), 0,
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

    /// The page's texture, where the target is one (set per page by the
    /// renderer): copied into with glCopyImageSubData, which needs no
    /// framebuffer; elsewhere (a window) the copies are framebuffer blits.
    var pageTexture: (texture: GLuint, layer: Int)?

    func prepareFrame(time: Double) {}

    func draw(time: Double, viewport: Viewport, pageTop: Int) {
        let (whole, phase) = SubpixelPhases.split(motion.offset(at: time), phases: phases)
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDisable(GLenum(GL_BLEND))
        if pageTexture == nil { glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffers[phase]) }
        let pageBottom = pageTop + viewport.height
        if layout == .screen {
            // Screen column x shows painted column x + (whole mod period): the whole page in one copy.
            let first = Swift.max(0, pageTop), last = Swift.min(textureRows, pageBottom)
            if first < last { copy(phase, column: SubpixelPhases.wrapped(whole, period), rows: first..<last, pictureTop: first, width: width,
                                   to: 0, viewport: viewport, pageTop: pageTop) }
        }
        // By index: in a debug build a for-in loop over an array allocates.
        for b in bands.indices {
            let band = bands[b]
            let first = Swift.max(band.sceneRows.lowerBound, pageTop), last = Swift.min(band.sceneRows.upperBound, pageBottom)
            if first >= last { continue }
            let pictureTop = band.picture * pictureRows + band.firstPictureRow + (first - band.sceneRows.lowerBound)
            // Screen column x shows picture column (x + whole + shift) mod period.
            var column = SubpixelPhases.wrapped(whole + band.shift, period)
            var x = 0
            while x < width {
                let run = Swift.min(width - x, period - column)
                copy(phase, column: column, rows: first..<last, pictureTop: pictureTop, width: run, to: x, viewport: viewport, pageTop: pageTop)
                x += run
                column = 0
            }
        }
        if pageTexture == nil { glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0) }
    }

    /// Copies `width` columns from `column` of phase `phase`'s texture, its
    /// rows from `pictureTop` down, onto scene `rows` of the page from screen column `x`.
    @inline(__always)
    private func copy(_ phase: Int, column: Int, rows: Range<Int>, pictureTop: Int, width: Int, to x: Int,
                      viewport: Viewport, pageTop: Int) {
        // Textures and pages hold their rows bottom to top.
        let sourceY1 = textureRows - pictureTop, sourceY0 = sourceY1 - rows.count
        let targetY1 = viewport.y + viewport.height - (rows.lowerBound - pageTop), targetY0 = targetY1 - rows.count
        if let page = pageTexture {
            glCopyImageSubData(textures[phase], GLenum(GL_TEXTURE_2D), 0, GLint(column), GLint(sourceY0), 0,
                               page.texture, GLenum(GL_TEXTURE_2D_ARRAY), 0, GLint(viewport.x + x), GLint(targetY0),
                               GLint(page.layer), GLsizei(width), GLsizei(rows.count), 1)
        } else {
            glBlitFramebuffer(GLint(column), GLint(sourceY0), GLint(column + width), GLint(sourceY1),
                              GLint(viewport.x + x), GLint(targetY0), GLint(viewport.x + x + width), GLint(targetY1),
                              GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        }
    }
}
