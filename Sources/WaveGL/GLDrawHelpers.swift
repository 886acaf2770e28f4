import CGL
import Foundation
import WaveCore

/// The small pieces of GL state the layer tree's drawers (`GLTreeDraw`,
/// `GLCopies`, `GLClipCopies`, `GLRasterPictures`) share: a colour uniform,
/// clamped textures, an offscreen pass, premultiplied blending, coverage texture arrays.

func setColor(_ location: GLint, _ c: RGBA8) {
    glUniform4f(location, GLfloat(c.r) / 255, GLfloat(c.g) / 255, GLfloat(c.b) / 255, GLfloat(c.a) / 255)
}

/// A new 2D texture, bound to the active unit, filtered by `filter`
/// (GL_NEAREST or GL_LINEAR) and clamped at its edges.
package func makeClampedTexture(filter: Int32) -> GLuint {
    var texture: GLuint = 0
    glGenTextures(1, &texture)
    glBindTexture(GLenum(GL_TEXTURE_2D), texture)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    return texture
}

/// Runs `pass` drawing into `framebuffer` (a state pass: `GLCopies`,
/// `GLClipCopies`) with blending and the scissor off, then puts back the
/// framebuffer, viewport, blending and scissor it found; `saved` is four
/// GLints the caller keeps, so a frame allocates nothing.
@inline(__always)
func drawingOffscreen(into framebuffer: GLuint, saving saved: UnsafeMutableBufferPointer<GLint>, _ pass: () -> Void) {
    var previous: GLint = 0
    glGetIntegerv(GLenum(GL_DRAW_FRAMEBUFFER_BINDING), &previous)
    glGetIntegerv(GLenum(GL_VIEWPORT), saved.baseAddress)
    let blending = glIsEnabled(GLenum(GL_BLEND)) != 0, scissoring = glIsEnabled(GLenum(GL_SCISSOR_TEST)) != 0
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
    glDisable(GLenum(GL_BLEND))
    glDisable(GLenum(GL_SCISSOR_TEST))
    pass()
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(previous))
    glViewport(saved[0], saved[1], saved[2], saved[3])
    if blending { glEnable(GLenum(GL_BLEND)) }
    if scissoring { glEnable(GLenum(GL_SCISSOR_TEST)) }
}

/// Source-over in premultiplied form, for batches drawn over earlier ones
/// (and the state every other blending goes back to).
func blendPremultiplied() {
    glEnable(GLenum(GL_BLEND))
    glBlendEquation(GLenum(GL_FUNC_ADD))
    glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
}

/// Coverage (R8) as layers of the texture array `texture`, filtered
/// linearly, transparent past its rows (and its columns, unless `wrapS`
/// repeats them): the tree's cached coverage pictures.
func uploadCoverage(_ bytes: [UInt8], width: Int, rows: Int, layers: Int, into texture: GLuint, wrapS: Int32 = GL_CLAMP_TO_BORDER) {
    let target = GLenum(GL_TEXTURE_2D_ARRAY)
    glActiveTexture(GLenum(GL_TEXTURE0))
    glBindTexture(target, texture)
    glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
    glTexImage3D(target, 0, GL_R8, GLsizei(width), GLsizei(rows), GLsizei(layers), 0, GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE), bytes)
    glTexParameteri(target, GLenum(GL_TEXTURE_WRAP_S), wrapS)
    glTexParameteri(target, GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_BORDER)
    var transparent: [GLfloat] = [0, 0, 0, 0]
    glTexParameterfv(target, GLenum(GL_TEXTURE_BORDER_COLOR), &transparent)
    glTexParameteri(target, GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
    glTexParameteri(target, GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
}
