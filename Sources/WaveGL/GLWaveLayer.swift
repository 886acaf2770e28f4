import CGL
import WaveCore

/// The GPU strategy's drawing, independent of where it draws (an offscreen
/// page or half a window): the cached wave textures, a per-row table, and one
/// draw per frame.
///
/// prepare: each distinct cell picture is rasterised once with the CPU
/// rasteriser (so both strategies share pixels) and uploaded as one layer of
/// a texture array. Cells whose phase differs by a whole number of pixels
/// share a layer; the whole-pixel part becomes a shift. Cell k's phase k/N is
/// a content shift of k*W/(c*N) pixels, so there are at most c*N/gcd(W, c*N)
/// fractional shifts (times the two cell heights). A table with one entry
/// per scene row (layer, shift, row within the cell) tells the fragment
/// shader what each row shows.
///
/// draw: one uniform (the offset) and one draw of a single quad covering the
/// area; no upload, no allocation, and the same vertex work for any number of
/// cells. (Instancing one quad per cell was measured first: on llvmpipe the
/// vertex work of each instance runs inside the draw call on the calling
/// thread, about 1.3 us and one driver allocation per cell.)
public final class GLWaveLayer {
    public private(set) var scene: Scene?
    public private(set) var layerCount = 0
    private let program: ShaderProgram
    private let uniforms: (offset: GLint, viewport: GLint, pageTop: GLint, layerSize: GLint, waves: GLint, rows: GLint)
    private var waveTexture: GLuint = 0
    private var rowTable: GLuint = 0
    private var emptyVertexArray: GLuint = 0
    private var layerRows = 0

    /// Row-table texels per texture row (the shader reads the table's width).
    static let tableWidth = 4096

    public init() throws {
        program = try ShaderProgram(vertex: "wave.vert.glsl", fragment: "wave.frag.glsl")
        uniforms = (program.uniform("u_offset"), program.uniform("u_viewport"), program.uniform("u_pageTop"),
                    program.uniform("u_layerSize"), program.uniform("u_waves"), program.uniform("u_rows"))
        // The quad comes from gl_VertexID; core profile still wants a vertex array bound.
        glGenVertexArrays(1, &emptyVertexArray)
        glGenTextures(1, &waveTexture)
        glGenTextures(1, &rowTable)
    }

    deinit {
        glDeleteTextures(1, &waveTexture)
        glDeleteTextures(1, &rowTable)
        glDeleteVertexArrays(1, &emptyVertexArray)
    }

    /// Rasterises and uploads the cell pictures; does nothing when the scene is unchanged.
    public func prepare(scene: Scene) throws {
        if scene == self.scene { return }
        self.scene = nil
        let plan = LayerPlan(scene: scene)
        var maxLayers: GLint = 0, maxSize: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_ARRAY_TEXTURE_LAYERS), &maxLayers)
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &maxSize)
        guard scene.width <= Int(maxSize), plan.layerRows <= Int(maxSize) else {
            throw GLError.limit(what: "a \(scene.width)x\(plan.layerRows) wave texture (GL_MAX_TEXTURE_SIZE)",
                                needed: max(scene.width, plan.layerRows), available: Int(maxSize))
        }
        guard plan.layers.count <= Int(maxLayers) else {
            throw GLError.limit(what: "\(plan.layers.count) distinct cell pictures (GL_MAX_ARRAY_TEXTURE_LAYERS)",
                                needed: plan.layers.count, available: Int(maxLayers))
        }
        let pixels = plan.rasterise()
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), waveTexture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glTexImage3D(GLenum(GL_TEXTURE_2D_ARRAY), 0, GL_RGBA8, GLsizei(scene.width), GLsizei(plan.layerRows),
                     GLsizei(plan.layers.count), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), pixels)
        glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(GL_TEXTURE_WRAP_S), GL_REPEAT)
        glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)

        let table = plan.rowTable(width: Self.tableWidth)
        glBindTexture(GLenum(GL_TEXTURE_2D), rowTable)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(Self.tableWidth),
                     GLsizei(table.count / (4 * Self.tableWidth)), 0, GLenum(GL_RGBA), GLenum(GL_FLOAT), table)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        try checkGLErrors("uploading \(plan.layers.count) wave layers and a \(scene.height)-row table")
        layerCount = plan.layers.count
        layerRows = plan.layerRows
        self.scene = scene
    }

    /// Draws the scene for time `time` into the current framebuffer's
    /// `viewport` (x, y from the bottom left, width, height), which shows
    /// scene rows from `pageTop` down.
    public func draw(time: Double, viewport: (x: Int, y: Int, width: Int, height: Int), pageTop: Int = 0) {
        guard let scene else { return }
        glViewport(GLint(viewport.x), GLint(viewport.y), GLsizei(viewport.width), GLsizei(viewport.height))
        glDisable(GLenum(GL_BLEND))
        glUseProgram(program.id)
        glUniform1f(uniforms.offset, GLfloat(scene.wrappedOffset(at: time)))
        glUniform4f(uniforms.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(uniforms.pageTop, GLint(pageTop))
        glUniform2f(uniforms.layerSize, GLfloat(scene.width), GLfloat(layerRows))
        glUniform1i(uniforms.waves, 0)
        glUniform1i(uniforms.rows, 1)
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), rowTable)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), waveTexture)
        glBindVertexArray(emptyVertexArray)
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glBindVertexArray(0)
    }
}

/// Which cell pictures a scene needs, and each cell's layer and shift.
struct LayerPlan {
    struct Layer: Hashable {
        let rows: Int
        /// Fractional content shift, as (k*W mod c*N) / (c*N) pixels.
        let fractionNumerator: Int
    }

    let scene: Scene
    let layers: [Layer]
    let layerRows: Int
    /// Per cell: its layer and its phase's whole-pixel shift.
    let cells: [(layer: Int, shift: Int)]

    init(scene: Scene) {
        self.scene = scene
        let n = scene.cellCount, w = scene.width, c = scene.wave.cycles
        var index: [Layer: Int] = [:]
        var layers: [Layer] = []
        var cells: [(layer: Int, shift: Int)] = []
        cells.reserveCapacity(n)
        for k in 0..<n {
            let rows = scene.cellRows(k)
            // Content shift of phase k/N: k*W/(c*N) pixels = whole + numerator/(c*N).
            let whole = (k * w) / (c * n), numerator = (k * w) % (c * n)
            let layer = Layer(rows: rows.count, fractionNumerator: numerator)
            let slot = index[layer] ?? {
                layers.append(layer)
                index[layer] = layers.count - 1
                return layers.count - 1
            }()
            cells.append((slot, whole))
        }
        self.layers = layers
        self.layerRows = layers.map(\.rows).max() ?? 1
        self.cells = cells
    }

    /// One RGBA float texel per scene row (layer, shift, row within the
    /// cell, unused), `width` texels a texture row, padded to whole rows.
    func rowTable(width: Int) -> [GLfloat] {
        let textureRows = (scene.height + width - 1) / width
        var table = [GLfloat](repeating: 0, count: textureRows * width * 4)
        for k in 0..<scene.cellCount {
            let rows = scene.cellRows(k)
            for row in rows {
                table[row * 4] = GLfloat(cells[k].layer)
                table[row * 4 + 1] = GLfloat(cells[k].shift)
                table[row * 4 + 2] = GLfloat(row - rows.lowerBound)
            }
        }
        return table
    }

    /// Every layer rasterised at offset 0 by the CPU rasteriser, one after
    /// another (rows top to bottom), ready for glTexImage3D.
    func rasterise() -> [UInt32] {
        let w = scene.width
        var pixels = [UInt32](repeating: scene.background.packed, count: w * layerRows * layers.count)
        let paint = CoveragePaint(fill: scene.wave.color, over: scene.background)
        let n = scene.cellCount
        let subdivisions = WaveGeometry.subdivisions(for: scene)
        for (slot, layer) in layers.enumerated() {
            // One cell alone, its phase the fractional shift: numerator/(c*N)
            // pixels is numerator/(N*W) of a cycle.
            var single = scene
            single.height = layer.rows
            single.cellCount = 1
            let geometry = WaveGeometry(scene: single, phaseOverride: Double(layer.fractionNumerator) / Double(n * w),
                                        subdivisions: subdivisions)
            let rasterizer = CoverageRasterizer(width: w, height: layer.rows)
            geometry.addCells(offset: 0, to: rasterizer)
            pixels.withUnsafeMutableBufferPointer { buffer in
                rasterizer.resolve(into: buffer.baseAddress! + slot * w * layerRows, paint: paint)
            }
        }
        return pixels
    }
}
