import CGL
import WaveCore

/// A frame taller than the driver's largest texture, split into equal
/// pages of at most GL_MAX_TEXTURE_SIZE rows: one layer of a texture array
/// each (the benchmark's 1000 cells of 80 rows are 80,000 rows).
package struct Pages: Equatable, Sendable {
    package let count: Int
    /// Rows of every page; the last may hold fewer of the frame's rows.
    package let rows: Int
    package let height: Int

    /// Pages for `height` rows of a `width`-pixel frame within `caps`.
    package init(width: Int, height: Int, caps: GLCapabilities, what: String) throws {
        guard width <= caps.maxTextureSize else {
            throw GLError.limit(what: "a \(width)-pixel-wide \(what) (GL_MAX_TEXTURE_SIZE)", needed: width, available: caps.maxTextureSize)
        }
        count = (height + caps.maxTextureSize - 1) / caps.maxTextureSize
        rows = (height + count - 1) / count
        self.height = height
        guard count <= caps.maxArrayLayers else {
            throw GLError.limit(what: "\(count) pages of \(rows) rows for a \(what)", needed: count, available: caps.maxArrayLayers)
        }
    }

    /// The frame's rows held by `page`.
    package func frameRows(of page: Int) -> Int { min(rows, height - page * rows) }
}

/// Reads the bound read framebuffer's `width` x `height` pixels from (x, y),
/// rows top to bottom (GL's are bottom to top: flipped once, here).
func readFramebuffer(x: Int = 0, y: Int = 0, width: Int, height: Int) -> RGBAImage {
    var image = RGBAImage(width: width, height: height)
    readFramebuffer(x: x, y: y, width: width, height: height, into: &image, fromRow: 0)
    return image
}

/// The same pixels read into `image`'s rows from `fromRow` on, in place
/// (a paged frame is read page by page into one image: no copy of a page).
func readFramebuffer(x: Int = 0, y: Int = 0, width: Int, height: Int, into image: inout RGBAImage, fromRow: Int) {
    precondition(width == image.width && fromRow + height <= image.height)
    let row = width * 4
    image.pixels.withUnsafeMutableBytes { bytes in
        let first = bytes.baseAddress! + fromRow * row
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glReadPixels(GLint(x), GLint(y), GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), first)
        // GL's rows run bottom to top: swapped in place, through one row of scratch.
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: row, alignment: 16)
        defer { scratch.deallocate() }
        for r in 0..<height / 2 {
            let top = first + r * row, bottom = first + (height - 1 - r) * row
            scratch.copyMemory(from: top, byteCount: row)
            top.copyMemory(from: bottom, byteCount: row)
            bottom.copyMemory(from: scratch, byteCount: row)
        }
    }
}

/// What a window shows of `framebuffer`'s bottom-left `width` x `height`
/// pixels, rows top to bottom: its colours as stored (premultiplied, so a
/// translucent frame shows as over black) with alpha 255, the HUD included.
package func readShownPixels(framebuffer: GLuint, width: Int, height: Int) -> RGBAImage {
    glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
    var image = readFramebuffer(width: width, height: height)
    for i in stride(from: 3, to: image.pixels.count, by: 4) { image.pixels[i] = 255 }
    return image
}

/// Where scene rows and columns land on a page: the one place the page's
/// rows (top to bottom, the page's first at `pageTop`) become GL's
/// (bottom to top, within a viewport).
package struct PageArea: Equatable {
    /// The rectangle in the framebuffer, GL's origin (bottom left).
    package let rect: Viewport
    /// The scene rows it holds (those of the asked rows on this page).
    package let rows: Range<Int>

    /// Scene `rows` x `columns` on the page whose top row is `pageTop`,
    /// shown in `viewport`; nil where they meet none of it.
    package init?(rows: Range<Int>, columns: Range<Int>, viewport: Viewport, pageTop: Int) {
        let first = Swift.max(rows.lowerBound, pageTop), last = Swift.min(rows.upperBound, pageTop + viewport.height)
        guard first < last, !columns.isEmpty else { return nil }
        self.rows = first..<last
        rect = Viewport(x: viewport.x + columns.lowerBound, y: viewport.y + viewport.height - (last - pageTop),
                        width: columns.count, height: last - first)
    }

    /// Makes it the scissor rectangle (the scissor test is the caller's).
    package func setScissor() {
        glScissor(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
    }
}
