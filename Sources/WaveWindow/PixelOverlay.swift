import CGL
import WaveCore
import WaveGL

/// What the demo's O key shows over both halves: nothing, the pixels each
/// strategy painted in software this frame (Instruments' Flash Updated
/// Regions), or how many layers each blended at every pixel (Color Blended
/// Layers), from the counts each strategy keeps while an overlay is on
/// (`PixelCounts`).
public enum PixelOverlayMode: String, CaseIterable, Sendable {
    case off, updated, blended

    /// The next in the O key's cycle.
    public var next: PixelOverlayMode {
        switch self {
        case .off: .updated
        case .updated: .blended
        case .blended: .off
        }
    }

    /// What the overlay's colours mean, for the display.
    public var legend: String {
        switch self {
        case .off: ""
        case .updated: "overlay: updated regions (yellow: painted in software this frame)"
        case .blended: "overlay: blended layers (green 1, yellow 2, orange 3, red 4+)"
        }
    }
}

/// Draws one half's counts over its area (`Shaders/overlay.*.glsl`): the
/// chosen map uploaded as one byte a pixel, coloured in the shader and
/// blended over the picture.
final class PixelOverlay {
    private let program: ShaderProgram
    private let mode: GLint
    private let texture: GLuint
    private var vertexArray: GLuint = 0

    init() throws {
        program = try ShaderProgram(vertex: "overlay.vert.glsl", fragment: "overlay.frag.glsl")
        mode = program.uniform("u_mode")
        texture = makeClampedTexture(filter: GL_NEAREST)
        glGenVertexArrays(1, &vertexArray)
    }

    deinit {
        var texture = self.texture
        glDeleteTextures(1, &texture)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// `counts` as `overlay` shows them, over `viewport` of the bound draw framebuffer.
    func draw(_ counts: PixelCounts, as overlay: PixelOverlayMode, viewport: Viewport) {
        guard overlay != .off, counts.width > 0, counts.height > 0 else { return }
        let map = overlay == .updated ? counts.updated : counts.blendedLayers
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R8, GLsizei(counts.width), GLsizei(counts.height), 0, GLenum(GL_RED),
                     GLenum(GL_UNSIGNED_BYTE), map.baseAddress)
        glViewport(GLint(viewport.x), GLint(viewport.y), GLsizei(viewport.width), GLsizei(viewport.height))
        glUseProgram(program.id)
        glUniform1i(mode, overlay == .updated ? 1 : 2)
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glBindVertexArray(vertexArray)
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glBindVertexArray(0)
        glDisable(GLenum(GL_BLEND))
    }
}
