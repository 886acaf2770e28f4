import CGL
import Foundation
import WaveCore

/// What every GL drawer of a frame is (`GLBatch`, `GLCopyBatch`,
/// `GLTreeDraw`) and the small pieces of GL state they share: colours, premultiplied blending.

/// What `GLRenderer` asks of a batch each frame.
protocol GLLayerDraw: AnyObject {
    /// Once a frame, before any page: work that does not depend on the page.
    func prepareFrame(time: Double)
    /// Draws into `viewport` of the bound framebuffer, which shows scene rows from `pageTop` down.
    func draw(time: Double, viewport: Viewport, pageTop: Int)
}

func setColor(_ location: GLint, _ c: RGBA8) {
    glUniform4f(location, GLfloat(c.r) / 255, GLfloat(c.g) / 255, GLfloat(c.b) / 255, GLfloat(c.a) / 255)
}

/// Source-over in premultiplied form, for batches drawn over earlier ones.
func blendPremultiplied() {
    glEnable(GLenum(GL_BLEND))
    glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
}
