import CGL

/// A mask read in place: an alpha mask that is one path alone, added (a
/// layer's one mask path, a mask layer of one shape), is not drawn into the
/// page's mask texture first. Each draw it masks reads the path's coverage
/// itself (`Shaders/coverage_reads.inc`'s `maskCoverage`), held to the
/// path's area, times its alpha, 1 less it where the mask is inverted: a
/// fixed path's coverage tiles through its inverse transform (MASK_PICTURE),
/// or a dynamic path's rows in this frame's polygon tables (MASK_POLYGON).
/// What the pass would have written, without the pass: no framebuffer
/// switched to the mask and back, which on a software driver flushes the
/// frame's draws and costs the GL thread about 25 us a mask.
/// Plain fields (no enum with payloads): a frame reads it in a draw path.
struct GLMaskInPlace {
    /// The kinds a tree's masks may be read in place as (the programs it makes for them).
    struct Kinds {
        var pictures = false, polygons = false
        var any: Bool { pictures || polygons }
    }

    /// The texture unit a fixed path's tiles are read on (the tree's items use 0 to 5, the runs' tables 6 to 8).
    static let unit: Int32 = 9

    /// A dynamic path's polygon (else a fixed path's picture).
    var polygon: Bool
    /// The picture: its coverage tiles (a texture array), how they are laid out and read at a scene point, and
    /// whether it was rasterised at twice the scale shown (read with four taps a pixel).
    var tiles: GLuint = 0
    var tileStep = 0, phases = 1
    var fourTaps = false
    var sampling = PictureSampling()
    /// The polygon: its first row texel in the tables, its first row and column, its runs a row, its fill rule.
    var rowBase = 0, buckets = 0
    var evenOdd = false
    /// Its area in scene pixels: nothing of it past that.
    var rows: Range<Int>, columns: Range<Int>
    /// Its paint's alpha times its opacity (0...1).
    var alpha: Double
    var inverted: Bool

    /// A fixed path's picture read in place.
    init(tiles: GLuint, tileStep: Int, phases: Int, fourTaps: Bool, sampling: PictureSampling, rows: Range<Int>, columns: Range<Int>,
         alpha: Double, inverted: Bool) {
        (polygon, self.tiles, self.tileStep, self.phases, self.fourTaps, self.sampling) = (false, tiles, tileStep, phases, fourTaps, sampling)
        (self.rows, self.columns, self.alpha, self.inverted) = (rows, columns, alpha, inverted)
    }

    /// A dynamic path's polygon read in place, its rows from table texel `rowBase`.
    init(rowBase: Int, evenOdd: Bool, rows: Range<Int>, columns: Range<Int>, alpha: Double, inverted: Bool) {
        (polygon, self.rowBase, self.buckets, self.evenOdd) = (true, rowBase, PolygonRows.buckets(columns), evenOdd)
        (self.rows, self.columns, self.alpha, self.inverted) = (rows, columns, alpha, inverted)
    }

    /// The uniforms of one program that reads a mask so (those of the other source are -1).
    struct Uniforms {
        let area, alpha, inverted: GLint
        let inverseX, inverseY, whole, tiling, tap: GLint
        let maskRows, evenOdd: GLint

        /// The locations in `program`, whose `u_maskTiles` is set to `GLMaskInPlace.unit` (it is made current).
        init(_ program: ShaderProgram) {
            area = program.uniform("u_maskArea"); alpha = program.uniform("u_maskAlpha"); inverted = program.uniform("u_maskInverted")
            inverseX = program.uniform("u_maskInverseX"); inverseY = program.uniform("u_maskInverseY")
            whole = program.uniform("u_maskWhole"); tiling = program.uniform("u_maskTiling"); tap = program.uniform("u_maskTap")
            maskRows = program.uniform("u_maskRows"); evenOdd = program.uniform("u_maskEvenOdd")
            glUseProgram(program.id)
            glUniform1i(program.uniform("u_maskTiles"), GLMaskInPlace.unit)
        }
    }

    /// Binds a picture's tiles on the mask's unit (a polygon's tables are bound with the frame's); leaves unit 0 active.
    func bind() {
        guard !polygon else { return }
        glActiveTexture(GLenum(GL_TEXTURE0 + Self.unit))
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), tiles)
        glActiveTexture(GLenum(GL_TEXTURE0))
    }

    /// Sets the mask's uniforms in the current program, whose locations are `u`.
    func set(_ u: Uniforms) {
        glUniform4f(u.area, GLfloat(columns.lowerBound), GLfloat(rows.lowerBound), GLfloat(columns.upperBound), GLfloat(rows.upperBound))
        glUniform1f(u.alpha, GLfloat(alpha))
        glUniform1i(u.inverted, inverted ? 1 : 0)
        if polygon {
            glUniform4i(u.maskRows, GLint(rowBase), GLint(rows.lowerBound), GLint(columns.lowerBound), GLint(buckets))
            glUniform1i(u.evenOdd, evenOdd ? 1 : 0)
            return
        }
        let s = sampling
        glUniform3f(u.inverseX, GLfloat(s.xx), GLfloat(s.xy), GLfloat(s.x1))
        glUniform3f(u.inverseY, GLfloat(s.yx), GLfloat(s.yy), GLfloat(s.y1))
        glUniform2i(u.whole, GLint(s.wholeX), GLint(s.wholeY))
        glUniform3i(u.tiling, GLint(tileStep), GLint(phases), GLint(s.phase))
        glUniform1f(u.tap, fourTaps ? 0.25 : 0)
    }
}
