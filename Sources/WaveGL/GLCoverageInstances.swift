import CGL
import WaveCore

/// The GL strategy's fixed paths with a solid fill, drawn as instances of
/// one atlas (`Shaders/coverage_instances.vert.glsl`, `.frag.glsl`): each
/// such path's coverage picture, rasterised once as `GLTreeDraw`
/// rasterises its coverage pictures, also lies in one atlas; every frame
/// each item drawn from it is six texels of an instance table (its inverse
/// transform, its picture's place in the atlas, its colour times its
/// opacity, its area, its taps), uploaded in one call, and each run of
/// consecutive such items that share a mask is one draw of two triangles an
/// instance. A software driver's cost per draw (its state, its setup) is
/// paid once a run instead of once an item. Not an instanced draw: llvmpipe
/// runs its vertex pipeline once an instance, as for a draw of its own.
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
    /// Texels an instance in the table.
    static let texelsPerInstance = 6
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

    private struct Program {
        let program: ShaderProgram
        let viewport, pageTop: GLint
        init(_ program: ShaderProgram) {
            self.program = program
            viewport = program.uniform("u_viewport"); pageTop = program.uniform("u_pageTop")
        }
    }
    /// Unmasked, and masked (`MASKED`).
    private let programs: [Program]
    private var atlasTexture: GLuint = 0, instanceTexture: GLuint = 0
    private var instanceRows = 0
    /// Per content number: its first phase's place (-1: not in the atlas); a phase's place is that plus the phase.
    private var firstPlace: [Int]
    /// Per place (a phase of a picture): its first texel in the atlas (x, y), and its size.
    private var placeX: [Int] = [], placeY: [Int] = [], widths: [Int] = [], heights: [Int] = []
    /// Per content number: its picture is read with four taps a pixel.
    private var fourTaps: [Bool]
    /// This frame's instances, `texelsPerInstance` RGBA texels each (kept from frame to frame).
    private var instances: [Float] = []
    /// The instances this frame so far.
    private(set) var count = 0
    /// Draws since the frame began (for tests: one a run).
    private(set) var draws = 0
    /// The texture units the atlas and the table are read on (the tree's items use 0 to 5).
    private static let atlasUnit: Int32 = 6, instanceUnit: Int32 = 7

    /// The atlas of `pictures` (content numbers below `contents`), room for `capacity` instances a frame;
    /// nil where they do not fit one texture of the driver's size, or the memory for it is not there.
    init?(_ pictures: [Picture], contents: Int, capacity: Int, caps: GLCapabilities) throws {
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
        programs = try [[], ["MASKED"]].map { defines in
            Program(try ShaderProgram(vertex: "coverage_instances.vert.glsl", fragment: "coverage_instances.frag.glsl", defines: defines))
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        atlasTexture = makeClampedTexture(filter: GL_LINEAR)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R8, GLsizei(atlas.width), GLsizei(atlas.height), 0, GLenum(GL_RED),
                     GLenum(GL_UNSIGNED_BYTE), texels)
        instanceTexture = makeClampedTexture(filter: GL_NEAREST)
        instances.reserveCapacity(4 * Self.texelsPerInstance * Swift.max(1, capacity))
        for p in programs.map(\.program) {
            glUseProgram(p.id)
            for (name, unit) in [("u_atlas", Self.atlasUnit), ("u_instances", Self.instanceUnit), ("u_mask", 4)] {
                glUniform1i(p.uniform(name), GLint(unit))
            }
        }
        glUseProgram(0)
        try checkGLErrors("preparing the coverage atlas")
    }

    deinit {
        for var t in [atlasTexture, instanceTexture] where t != 0 { glDeleteTextures(1, &t) }
    }

    /// Whether content number `n`'s picture is in the atlas.
    @inline(__always)
    func holds(_ n: Int) -> Bool { n >= 0 && n < firstPlace.count && firstPlace[n] >= 0 }

    // MARK: Every frame

    /// Starts a frame's instances.
    func begin() {
        instances.removeAll(keepingCapacity: true)
        count = 0
        draws = 0
    }

    /// Adds an item of content `n` (`holds(n)`) as the next instance: `sampling` reads its picture (the phase it
    /// names) at a scene point, `color` its solid paint (0...255, not premultiplied), over `rows` x `columns` of the scene.
    @inline(__always)
    func add(content: Int, _ sampling: PictureSampling, color c: ColorValue, opacity: Double, rows: Range<Int>, columns: Range<Int>) {
        let n = firstPlace[content] + sampling.phase
        let alpha = c.a / 255 * opacity
        instances.append(Float(sampling.xx)); instances.append(Float(sampling.xy)); instances.append(Float(sampling.x1))
        instances.append(Float(sampling.wholeX + placeX[n]))
        instances.append(Float(sampling.yx)); instances.append(Float(sampling.yy)); instances.append(Float(sampling.y1))
        instances.append(Float(sampling.wholeY + placeY[n]))
        instances.append(Float(placeX[n])); instances.append(Float(placeY[n]))
        instances.append(Float(placeX[n] + widths[n])); instances.append(Float(placeY[n] + heights[n]))
        instances.append(Float(c.r / 255 * alpha)); instances.append(Float(c.g / 255 * alpha)); instances.append(Float(c.b / 255 * alpha))
        instances.append(Float(alpha))
        instances.append(Float(columns.lowerBound)); instances.append(Float(rows.lowerBound))
        instances.append(Float(columns.upperBound)); instances.append(Float(rows.upperBound))
        instances.append(fourTaps[content] ? 0.25 : 0); instances.append(0); instances.append(0); instances.append(0)
        count += 1
    }

    /// Sends the frame's instances to the GPU, in one call (two where the last row is partial).
    func upload() {
        guard count > 0 else { return }
        GLTreeDraw.upload(instances, into: instanceTexture, rows: &instanceRows, components: 4, format: GL_RGBA32F,
                          layout: GL_RGBA, type: GL_FLOAT)
    }

    /// Instances `first..<first + n` in one draw (blending set by the caller; each instance's triangles are its
    /// item's area, so the scissor is left off). Leaves texture unit 0 active.
    func draw(first: Int, _ n: Int, masked: Bool, viewport: Viewport, pageTop: Int) {
        let p = programs[masked ? 1 : 0]
        glUseProgram(p.program.id)
        glUniform4f(p.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(p.pageTop, GLint(pageTop))
        glActiveTexture(GLenum(GL_TEXTURE0 + Self.atlasUnit)); glBindTexture(GLenum(GL_TEXTURE_2D), atlasTexture)
        glActiveTexture(GLenum(GL_TEXTURE0 + Self.instanceUnit)); glBindTexture(GLenum(GL_TEXTURE_2D), instanceTexture)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDrawArrays(GLenum(GL_TRIANGLES), GLint(6 * first), GLsizei(6 * n))
        draws += 1
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
