import CGL
import WaveCore

/// A frame taller than the driver's largest texture, split into equal
/// pages of at most GL_MAX_TEXTURE_SIZE rows: one layer of a texture array
/// each (the benchmark's 1000 cells of 80 rows are 80,000 rows).
struct Pages {
    let count: Int
    /// Rows of every page; the last may hold fewer of the frame's rows.
    let rows: Int
    let height: Int

    /// Pages for `height` rows of a `width`-pixel frame on the current context.
    init(width: Int, height: Int, what: String) throws {
        var maxSize: GLint = 0, maxLayers: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &maxSize)
        glGetIntegerv(GLenum(GL_MAX_ARRAY_TEXTURE_LAYERS), &maxLayers)
        guard width <= Int(maxSize) else {
            throw GLError.limit(what: "a \(width)-pixel-wide \(what) (GL_MAX_TEXTURE_SIZE)", needed: width, available: Int(maxSize))
        }
        count = (height + Int(maxSize) - 1) / Int(maxSize)
        rows = (height + count - 1) / count
        self.height = height
        guard count <= Int(maxLayers) else {
            throw GLError.limit(what: "\(count) pages of \(rows) rows for a \(what)", needed: count, available: Int(maxLayers))
        }
    }

    /// The frame's rows held by `page`.
    func frameRows(of page: Int) -> Int { min(rows, height - page * rows) }
}

/// Reads the bound read framebuffer's bottom-left `width` x `height`
/// pixels, rows top to bottom (GL's are bottom to top: flipped once, here).
func readFramebuffer(width: Int, height: Int) -> RGBAImage {
    var image = RGBAImage(width: width, height: height)
    glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
    glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &image.pixels)
    image.flipRows()
    return image
}
