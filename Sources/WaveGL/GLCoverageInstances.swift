import CGL
import WaveCore

/// The GL strategy's fixed paths with a solid fill, drawn as instances of
/// one atlas in runs (`GLInstanceRuns`): each such path's coverage picture,
/// rasterised once as `GLTreeDraw` rasterises its coverage pictures, also
/// lies in one atlas; every frame each item drawn from it is an instance of
/// the runs' table (its inverse transform, its picture's place in the
/// atlas, its colour times its opacity, its area, its taps).
///
/// Only pictures of one tile are here (a wider one is drawn by
/// `item.frag.glsl`, an item at a time), each of its sub-pixel phases
/// (exact motion) a place of its own in the atlas, the nearest read at a
/// whole-pixel offset as `item.frag.glsl` reads its layer. A picture
/// rasterised at twice the scale it is shown (`CachedPicture.scale`) is
/// read with four taps a quarter pixel apart; the rest with four at one
/// point, so that both kinds share a run where they alternate (on a
/// software driver three reads more a pixel cost less than a draw more).
final class GLCoverageInstances {
    /// The most whole texels an instance's sampling may hold apart (a float's integers, less the atlas' size):
    /// past it, the item is drawn by itself.
    static let wholeLimit = 1 << 22

    /// A fixed path's coverage, rasterised once, for the atlas: `phases` pictures of `width` x `height`, one after another.
    struct Picture {
        let content: Int
        let coverage: [UInt8]
        let width: Int, height: Int
        let phases: Int
        /// Rasterised at twice the scale shown: read with four taps a pixel.
        let supersampled: Bool
    }

    /// The instance table and its draws: six texels an instance.
    /// The atlas (an R8 texture), read on `GLInstanceRuns.atlasUnit`.
    private(set) var atlasTexture: GLuint = 0
    /// Per content number: its first phase's place (-1: not in the atlas); a phase's place is that plus the phase.
    private var firstPlace: [Int]
    /// Per place (a phase of a picture): its first texel in the atlas (x, y), and its size.
    private var placeX: [Int] = [], placeY: [Int] = [], widths: [Int] = [], heights: [Int] = []
    /// Per content number: its picture is read with four taps a pixel.
    private var fourTaps: [Bool]

    /// The atlas of `pictures` (content numbers below `contents`); nil where they do not fit one texture of
    /// the driver's size, or the memory for it is not there.
    init?(_ pictures: [Picture], contents: Int, caps: GLCapabilities) throws {
        let side = Swift.min(caps.maxTextureSize, 4096)
        let sizes = pictures.flatMap { picture in [(width: Int, height: Int)](repeating: (picture.width, picture.height), count: picture.phases) }
        // Packed with an empty texel after each picture, and one more before the first row and column: every
        // picture has an empty texel round it, read as a texture's border would be.
        guard !pictures.isEmpty, let packed = GLRasterPictures.pack(sizes, maxWidth: side - 1, maxHeight: caps.maxTextureSize - 1) else { return nil }
        let atlas = GLRasterPictures.Atlas(places: packed.places.map { ($0.x + 1, $0.y + 1) }, width: packed.width + 1, height: packed.height + 1)
        firstPlace = [Int](repeating: -1, count: contents)
        fourTaps = [Bool](repeating: false, count: contents)
        // Where the memory is not there, each item is drawn by itself, as without the atlas.
        guard var texels = try? CheckedMemory.allocating(bytes: atlas.width * atlas.height, for: "an atlas of coverage", {
            [UInt8](repeating: 0, count: atlas.width * atlas.height)
        }) else { return nil }
        for picture in pictures {
            firstPlace[picture.content] = placeX.count
            fourTaps[picture.content] = picture.supersampled
            for phase in 0..<picture.phases {
                let place = atlas.places[placeX.count], first = phase * picture.width * picture.height
                placeX.append(place.x); placeY.append(place.y); widths.append(picture.width); heights.append(picture.height)
                for row in 0..<picture.height {
                    let from = first + row * picture.width, to = (place.y + row) * atlas.width + place.x
                    texels.replaceSubrange(to..<(to + picture.width), with: picture.coverage[from..<(from + picture.width)])
                }
            }
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        atlasTexture = makeClampedTexture(filter: GL_LINEAR)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R8, GLsizei(atlas.width), GLsizei(atlas.height), 0, GLenum(GL_RED),
                     GLenum(GL_UNSIGNED_BYTE), texels)
        try checkGLErrors("preparing the coverage atlas")
    }

    deinit {
        if atlasTexture != 0 { glDeleteTextures(1, &atlasTexture) }
    }

    /// Whether content number `n`'s picture is in the atlas.
    @inline(__always)
    func holds(_ n: Int) -> Bool { n >= 0 && n < firstPlace.count && firstPlace[n] >= 0 }

    // MARK: Every frame

    /// Adds an item of content `n` (`holds(n)`) to `table` as its next instance (kind 0): `sampling` reads its
    /// picture (the phase it names) at a scene point, `color` its solid paint (0...255, not premultiplied), over
    /// `rows` x `columns` of the scene.
    @inline(__always)
    func add(content: Int, _ sampling: PictureSampling, color c: ColorValue, opacity: Double, rows: Range<Int>, columns: Range<Int>,
             to table: GLInstanceRuns) {
        let n = firstPlace[content] + sampling.phase
        let alpha = c.a / 255 * opacity
        table.texel(Float(sampling.xx), Float(sampling.xy), Float(sampling.x1), Float(sampling.wholeX + placeX[n]))
        table.texel(Float(sampling.yx), Float(sampling.yy), Float(sampling.y1), Float(sampling.wholeY + placeY[n]))
        table.texel(Float(placeX[n]), Float(placeY[n]), Float(placeX[n] + widths[n]), Float(placeY[n] + heights[n]))
        table.texel(Float(c.r / 255 * alpha), Float(c.g / 255 * alpha), Float(c.b / 255 * alpha), Float(alpha))
        table.texel(Float(columns.lowerBound), Float(rows.lowerBound), Float(columns.upperBound), Float(rows.upperBound))
        table.texel(fourTaps[content] ? 0.25 : 0, 0, 0, 0)
    }
}

/// How a cached picture is read at a scene point (x, y): its texel is
/// (xx x + xy y + x1, yx x + yy y + y1) plus the whole texels apart, as
/// integers (so a shape moved far along is read as exactly as near its start).
/// Plain fields: a generic one's type would be made on first use, in a frame.
struct PictureSampling {
    var xx = 0.0, xy = 0.0, x1 = 0.0
    var yx = 0.0, yy = 0.0, y1 = 0.0
    var wholeX = 0, wholeY = 0
    /// With exact motion, the sub-pixel phase read (0: the only one).
    var phase = 0
}
