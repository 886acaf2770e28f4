import CGL

/// A mask read in place: an alpha mask that is one fixed path alone, added
/// (a Lottie layer's one mask, a matte of one shape), is not drawn into the
/// page's mask texture first. Each draw it masks reads that path's coverage
/// tiles itself, through the path's inverse transform (`MASK_PICTURE`,
/// `Shaders/coverage_reads.inc`), times the path's alpha, 1 less it where the
/// mask is inverted. What the pass would have written, without the pass: no
/// framebuffer switched to the mask and back, which on a software driver
/// flushes the frame's draws and costs the GL thread about 25 us a mask.
struct GLMaskPicture {
    /// The texture unit the mask's tiles are read on (the tree's items use 0 to 5, the runs' tables 6 to 8).
    static let unit: Int32 = 9

    /// The path's coverage tiles (a texture array) and how they are laid out.
    var tiles: GLuint
    var tileStep: Int, phases: Int
    /// Rasterised at twice the scale shown: read with four taps a pixel.
    var fourTaps: Bool
    /// How its tiles are read at a scene point.
    var sampling: PictureSampling
    /// Its area in scene pixels: nothing of it past that.
    var rows: Range<Int>, columns: Range<Int>
    /// Its paint's alpha times its opacity (0...1).
    var alpha: Double
    var inverted: Bool

    /// The uniforms of one program that reads a mask so.
    struct Uniforms {
        let inverseX, inverseY, whole, tiling, tap, area, alpha, inverted: GLint

        /// The locations in `program`, whose `u_maskTiles` is set to `GLMaskPicture.unit` (it is made current).
        init(_ program: ShaderProgram) {
            inverseX = program.uniform("u_maskInverseX"); inverseY = program.uniform("u_maskInverseY")
            whole = program.uniform("u_maskWhole"); tiling = program.uniform("u_maskTiling"); tap = program.uniform("u_maskTap")
            area = program.uniform("u_maskArea")
            alpha = program.uniform("u_maskAlpha"); inverted = program.uniform("u_maskInverted")
            glUseProgram(program.id)
            glUniform1i(program.uniform("u_maskTiles"), GLMaskPicture.unit)
        }
    }

    /// Binds the tiles on the mask's unit (leaves unit 0 active).
    func bind() {
        glActiveTexture(GLenum(GL_TEXTURE0 + Self.unit))
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), tiles)
        glActiveTexture(GLenum(GL_TEXTURE0))
    }

    /// Sets the mask's uniforms in the current program, whose locations are `u`.
    func set(_ u: Uniforms) {
        let s = sampling
        glUniform3f(u.inverseX, GLfloat(s.xx), GLfloat(s.xy), GLfloat(s.x1))
        glUniform3f(u.inverseY, GLfloat(s.yx), GLfloat(s.yy), GLfloat(s.y1))
        glUniform2i(u.whole, GLint(s.wholeX), GLint(s.wholeY))
        glUniform3i(u.tiling, GLint(tileStep), GLint(phases), GLint(s.phase))
        glUniform1f(u.tap, fourTaps ? 0.25 : 0)
        glUniform4f(u.area, GLfloat(columns.lowerBound), GLfloat(rows.lowerBound), GLfloat(columns.upperBound), GLfloat(rows.upperBound))
        glUniform1f(u.alpha, GLfloat(alpha))
        glUniform1i(u.inverted, inverted ? 1 : 0)
    }
}
