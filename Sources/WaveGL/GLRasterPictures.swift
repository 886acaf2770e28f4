import CGL
import WaveCore

/// The GL strategy for rasterized layers (`Layer.shouldRasterize`,
/// `Shaders/pictures.vert.glsl`, `Shaders/pictures.frag.glsl`): each
/// distinct look is painted once by the CPU strategy's painter
/// (`RasterPicture.paint`) into one atlas texture; every frame each
/// rasterized item is three texels of an instance table (its transform,
/// its opacity and tint, its picture), uploaded in one call (a picture
/// wider than the atlas is in tiles, an instance each), and each run
/// of them that shares a clip and a mask is one instanced draw. So 5,000
/// rasterized layers are one upload of 5,000 transforms and one draw,
/// however they turn.
final class GLRasterPictures {
    /// Texels a table row, three an instance.
    static let rowTexels = 1024

    /// Where each picture lies in the atlas, and the atlas' size.
    struct Atlas: Equatable {
        var places: [(x: Int, y: Int)]
        var width: Int, height: Int
        static func == (a: Atlas, b: Atlas) -> Bool {
            a.width == b.width && a.height == b.height && a.places.elementsEqual(b.places) { $0 == $1 }
        }
    }

    /// Shelf packing: tallest first, left to right in rows at most
    /// `maxWidth` wide, a transparent texel between neighbours; nil where
    /// one is wider than `maxWidth` or they need more than `maxHeight` rows.
    static func pack(_ sizes: [(width: Int, height: Int)], maxWidth: Int, maxHeight: Int) -> Atlas? {
        var places = [(x: Int, y: Int)](repeating: (0, 0), count: sizes.count)
        let order = sizes.indices.sorted { (sizes[$0].height, $1) > (sizes[$1].height, $0) }
        var x = 0, y = 0, shelf = 0, width = 1
        for i in order {
            let (w, h) = sizes[i]
            guard w + 1 <= maxWidth else { return nil }
            if x + w + 1 > maxWidth { y += shelf; x = 0; shelf = 0 }
            places[i] = (x, y)
            x += w + 1
            shelf = Swift.max(shelf, h + 1)
            width = Swift.max(width, x)
        }
        let height = Swift.max(1, y + shelf)
        return height <= maxHeight ? Atlas(places: places, width: width, height: height) : nil
    }

    private struct Program {
        let program: ShaderProgram
        let viewport, pageTop, first: GLint
        init(_ program: ShaderProgram) {
            self.program = program
            viewport = program.uniform("u_viewport"); pageTop = program.uniform("u_pageTop"); first = program.uniform("u_first")
        }
    }
    private let program: Program
    private let maskedProgram: Program
    private var atlasTexture: GLuint = 0, pictureTexture: GLuint = 0, instanceTexture: GLuint = 0
    private var instanceRows = 0
    /// This frame's instances, three RGBA texels each (kept from frame to frame).
    private var instances: [Float] = []
    /// The instances this frame so far.
    private(set) var count = 0
    /// Instanced draws since the frame began (for tests: one a run).
    private(set) var draws = 0
    /// Per picture number: its tiles (entries of the picture table), one instance each.
    private var tiles: [Range<Int>] = []
    /// Pictures not cached (a shadowed layer without `shouldRasterize`): each
    /// painted again by the CPU strategy's painter the first time a frame
    /// draws it, and its tiles uploaded again (the offscreen pass Core
    /// Animation runs every frame for such a layer).
    private struct Repainted {
        let painter: RasterPicture.Painter
        /// Each tile's stored columns and its place in the atlas.
        let pieces: [(stored: Range<Int>, x: Int, y: Int)]
    }
    private var repainted: [Repainted?] = []
    /// Per picture: painted this frame already.
    private var paintedThisFrame: [Bool] = []
    /// Premultiplied texels of one tile, for the upload (made once).
    private var staging: [UInt8] = []
    /// Pictures painted on the CPU this frame, and their pixels.
    private(set) var paintsThisFrame = 0
    private(set) var pixelsPaintedThisFrame = 0

    init(evaluator: LayerTreeEvaluator, caps: GLCapabilities) throws {
        program = Program(try ShaderProgram(vertex: "pictures.vert.glsl", fragment: "pictures.frag.glsl"))
        maskedProgram = Program(try ShaderProgram(vertex: "pictures.vert.glsl", fragment: "pictures.frag.glsl", defines: ["MASKED"]))
        let painters = try evaluator.rasterPictures.map { $0.isCached ? nil : try RasterPicture.Painter($0) }
        let images = try evaluator.rasterPictures.indices.map { n in
            guard let painter = painters[n] else { return try evaluator.rasterPictures[n].paint() }
            painter.paint()
            return try painter.pixmap.readback()
        }
        let bytes = images.reduce(0) { $0 + $1.width * $1.height * 4 }
        guard bytes <= caps.maxCoverageBytes else {
            throw GLError.limit(what: "\(bytes) bytes of rasterized layers' pictures (the backend's memory budget)", needed: bytes,
                                available: caps.maxCoverageBytes)
        }
        // Pictures wider than a row of the atlas are cut into tiles, each drawn over its own columns and stored with
        // one column more each side where the picture has one (so a sample at a tile's edge reads its neighbour's texel).
        let side = Swift.min(caps.maxTextureSize, 4096), step = side - 3
        if let tall = images.first(where: { $0.height + 1 > caps.maxTextureSize }) {
            throw GLError.limit(what: "a rasterized layer's picture \(tall.height) rows tall (GL_MAX_TEXTURE_SIZE)", needed: tall.height + 1,
                                available: caps.maxTextureSize)
        }
        var pieces: [(picture: Int, drawn: Range<Int>, stored: Range<Int>)] = []
        for (n, image) in images.enumerated() {
            tiles.append(pieces.count..<pieces.count)
            guard image.width > 0, image.height > 0 else { continue }
            var x = 0
            while x < image.width {
                let drawn = x..<Swift.min(image.width, x + step)
                pieces.append((n, drawn, Swift.max(0, drawn.lowerBound - 1)..<Swift.min(image.width, drawn.upperBound + 1)))
                x = drawn.upperBound
            }
            tiles[n] = tiles[n].lowerBound..<pieces.count
        }
        guard let atlas = Self.pack(pieces.map { ($0.stored.count, images[$0.picture].height) }, maxWidth: side,
                                    maxHeight: caps.maxTextureSize) else {
            throw GLError.limit(what: "rasterized layers' pictures in one atlas (GL_MAX_TEXTURE_SIZE)", needed: side + 1,
                                available: caps.maxTextureSize)
        }
        // The atlas, premultiplied; each tile's drawn rect, its origin in its layer, the atlas columns it may read.
        var texels = try CheckedMemory.allocating(bytes: atlas.width * atlas.height * 4, for: "a \(atlas.width)x\(atlas.height) atlas of rasterized layers") {
            [UInt8](repeating: 0, count: atlas.width * atlas.height * 4)
        }
        var table: [Float] = []
        repainted = [Repainted?](repeating: nil, count: images.count)
        paintedThisFrame = [Bool](repeating: false, count: images.count)
        var largestTile = 0
        for (k, piece) in pieces.enumerated() {
            let image = images[piece.picture], place = atlas.places[k]
            image.pixels.withUnsafeBufferPointer { from in
                texels.withUnsafeMutableBufferPointer { to in
                    Self.premultiply(from.baseAddress!, rowBytes: image.width * 4, columns: piece.stored, rows: image.height,
                                     into: to.baseAddress! + (place.y * atlas.width + place.x) * 4, rowBytes: atlas.width * 4)
                }
            }
            if let painter = painters[piece.picture] {
                let earlier = repainted[piece.picture]?.pieces ?? []
                repainted[piece.picture] = Repainted(painter: painter, pieces: earlier + [(piece.stored, place.x, place.y)])
                largestTile = Swift.max(largestTile, piece.stored.count * image.height * 4)
            }
            let origin = evaluator.rasterPictures[piece.picture].bounds ?? .zero
            let drawnX = place.x + piece.drawn.lowerBound - piece.stored.lowerBound
            table += [Float(drawnX), Float(place.y), Float(piece.drawn.count), Float(image.height),
                      Float(origin.x + Double(piece.drawn.lowerBound)), Float(origin.y), Float(place.x), Float(place.x + piece.stored.count)]
        }
        staging = [UInt8](repeating: 0, count: largestTile)
        atlasTexture = makeClampedTexture(filter: GL_LINEAR)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(atlas.width), GLsizei(atlas.height), 0, GLenum(GL_RGBA),
                     GLenum(GL_UNSIGNED_BYTE), texels)
        // Rows of 1024 texels, as the instance table (two a tile).
        pictureTexture = makeClampedTexture(filter: GL_NEAREST)
        let tableRows = Swift.max(1, (table.count / 4 + Self.rowTexels - 1) / Self.rowTexels)
        table += [Float](repeating: 0, count: tableRows * Self.rowTexels * 4 - table.count)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(Self.rowTexels), GLsizei(tableRows), 0, GLenum(GL_RGBA),
                     GLenum(GL_FLOAT), table)
        instanceTexture = makeClampedTexture(filter: GL_NEAREST)
        let most = evaluator.capacity.items * Swift.max(1, tiles.map(\.count).max() ?? 1)
        instances.reserveCapacity(12 * most)
        for p in [program.program, maskedProgram.program] {
            glUseProgram(p.id)
            for (name, unit) in [("u_atlas", 0), ("u_instances", 1), ("u_pictures", 2), ("u_mask", 4)] {
                glUniform1i(p.uniform(name), GLint(unit))
            }
        }
        glUseProgram(0)
        try checkGLErrors("preparing the rasterized layers' atlas")
    }

    deinit {
        for var t in [atlasTexture, pictureTexture, instanceTexture] where t != 0 { glDeleteTextures(1, &t) }
    }

    /// Straight-alpha RGBA rows to premultiplied ones: `rows` rows of `columns` of the source.
    private static func premultiply(_ from: UnsafePointer<UInt8>, rowBytes: Int, columns: Range<Int>, rows: Int,
                                    into to: UnsafeMutablePointer<UInt8>, rowBytes toRowBytes: Int) {
        var row = 0
        while row < rows {
            var a = row * rowBytes + columns.lowerBound * 4, b = row * toRowBytes
            var column = columns.lowerBound
            while column < columns.upperBound {
                let alpha = Int(from[a + 3])
                to[b] = UInt8((Int(from[a]) * alpha + 127) / 255)
                to[b + 1] = UInt8((Int(from[a + 1]) * alpha + 127) / 255)
                to[b + 2] = UInt8((Int(from[a + 2]) * alpha + 127) / 255)
                to[b + 3] = UInt8(alpha)
                a += 4
                b += 4
                column += 1
            }
            row += 1
        }
    }

    // MARK: Every frame

    /// Starts a frame's instances.
    func begin() {
        instances.removeAll(keepingCapacity: true)
        count = 0
        draws = 0
        paintsThisFrame = 0
        pixelsPaintedThisFrame = 0
        var n = 0
        while n < paintedThisFrame.count { paintedThisFrame[n] = false; n += 1 }
    }

    /// Paints a picture not cached again and uploads its tiles (once a frame).
    private func repaint(_ n: Int) {
        guard let r = repainted[n], !paintedThisFrame[n] else { return }
        paintedThisFrame[n] = true
        r.painter.paint()
        let pixmap = r.painter.pixmap
        paintsThisFrame += 1
        pixelsPaintedThisFrame += pixmap.width * pixmap.height
        glBindTexture(GLenum(GL_TEXTURE_2D), atlasTexture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        let source = UnsafeRawPointer(pixmap.view.row(0)).assumingMemoryBound(to: UInt8.self)
        var k = 0
        while k < r.pieces.count {
            let piece = r.pieces[k]
            staging.withUnsafeMutableBufferPointer { to in
                Self.premultiply(source, rowBytes: pixmap.rowStride * 4, columns: piece.stored, rows: pixmap.height,
                                 into: to.baseAddress!, rowBytes: piece.stored.count * 4)
                glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(piece.x), GLint(piece.y), GLsizei(piece.stored.count),
                                GLsizei(pixmap.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), to.baseAddress)
            }
            k += 1
        }
    }

    /// Whether picture `n` was painted on the CPU this frame.
    func wasPaintedThisFrame(_ n: Int) -> Bool { paintedThisFrame[n] }

    /// The instances an item of picture `n` takes (its tiles).
    func instances(of n: Int) -> Int { tiles[n].count }

    /// Adds a rasterized item as the next instances, one a tile of its picture.
    @inline(__always)
    func add(_ item: PresentationItem) {
        if repainted[item.content] != nil { repaint(item.content) }
        let m = item.transform, t = item.tint
        var tile = tiles[item.content].lowerBound
        while tile < tiles[item.content].upperBound {
            instances.append(Float(m.a)); instances.append(Float(m.b)); instances.append(Float(m.c)); instances.append(Float(m.d))
            instances.append(Float(m.tx)); instances.append(Float(m.ty)); instances.append(Float(tile))
            instances.append(Float(item.opacity))
            instances.append(Float(t.r)); instances.append(Float(t.g)); instances.append(Float(t.b)); instances.append(Float(t.a))
            count += 1
            tile += 1
        }
    }

    /// Sends the frame's instances to the GPU, in one call (two where the last row is partial).
    func upload() {
        guard count > 0 else { return }
        GLTreeDraw.upload(instances, into: instanceTexture, rows: &instanceRows, components: 4, format: GL_RGBA32F,
                          layout: GL_RGBA, type: GL_FLOAT)
    }

    /// Instances `first..<first + n` in one instanced draw (blending and the scissor set by the caller).
    func draw(first: Int, _ n: Int, masked: Bool, viewport: Viewport, pageTop: Int) {
        let p = masked ? maskedProgram : program
        glUseProgram(p.program.id)
        glUniform4f(p.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(p.pageTop, GLint(pageTop))
        glUniform1i(p.first, GLint(first))
        glActiveTexture(GLenum(GL_TEXTURE0)); glBindTexture(GLenum(GL_TEXTURE_2D), atlasTexture)
        glActiveTexture(GLenum(GL_TEXTURE1)); glBindTexture(GLenum(GL_TEXTURE_2D), instanceTexture)
        glActiveTexture(GLenum(GL_TEXTURE2)); glBindTexture(GLenum(GL_TEXTURE_2D), pictureTexture)
        glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(n))
        draws += 1
    }
}
