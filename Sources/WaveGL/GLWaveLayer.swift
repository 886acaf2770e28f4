import CGL
import WaveCore

/// The GPU strategy's drawing, independent of where it draws (an offscreen
/// page or half a window): the cached wave textures, the per-cell instance
/// data, and one instanced draw per frame.
///
/// prepare: each distinct cell picture is rasterised once with the CPU
/// rasteriser (so both strategies share pixels) and uploaded as one layer of
/// a texture array. Cells whose phase differs by a whole number of pixels
/// share a layer; the whole-pixel part becomes a per-instance shift. Cell k's
/// phase k/N is a content shift of k*W/(c*N) pixels, so there are at most
/// c*N/gcd(W, c*N) fractional shifts (times the two cell heights).
///
/// draw: one uniform (the offset) and one glDrawArraysInstanced; no upload,
/// no allocation.
public final class GLWaveLayer {
    public private(set) var scene: Scene?
    public private(set) var layerCount = 0
    private let program: ShaderProgram
    private let uniforms: (offset: GLint, viewport: GLint, pageTop: GLint, layerSize: GLint, target: GLint, waves: GLint)
    private var texture: GLuint = 0
    private var vertexArray: GLuint = 0
    private var cornerBuffer: GLuint = 0
    private var instanceBuffer: GLuint = 0

    public init() throws {
        program = try ShaderProgram(vertex: "wave.vert.glsl", fragment: "wave.frag.glsl")
        uniforms = (program.uniform("u_offset"), program.uniform("u_viewport"), program.uniform("u_pageTop"),
                    program.uniform("u_layerSize"), program.uniform("u_target"), program.uniform("u_waves"))
        glGenVertexArrays(1, &vertexArray)
        glBindVertexArray(vertexArray)
        let corners: [GLfloat] = [0, 0, 1, 0, 0, 1, 1, 1]
        glGenBuffers(1, &cornerBuffer)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), cornerBuffer)
        glBufferData(GLenum(GL_ARRAY_BUFFER), corners.count * 4, corners, GLenum(GL_STATIC_DRAW))
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 8, nil)
        glGenBuffers(1, &instanceBuffer)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        glEnableVertexAttribArray(1)
        glVertexAttribPointer(1, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 16, nil)
        glVertexAttribDivisor(1, 1)
        glBindVertexArray(0)
        glGenTextures(1, &texture)
    }

    deinit {
        glDeleteTextures(1, &texture)
        glDeleteBuffers(1, &cornerBuffer)
        glDeleteBuffers(1, &instanceBuffer)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// Rasterises and uploads the cell pictures; does nothing when the scene is unchanged.
    public func prepare(scene: Scene) throws {
        if scene == self.scene { return }
        self.scene = nil
        let plan = try LayerPlan(scene: scene)
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
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glTexImage3D(GLenum(GL_TEXTURE_2D_ARRAY), 0, GL_RGBA8, GLsizei(scene.width), GLsizei(plan.layerRows),
                     GLsizei(plan.layers.count), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), pixels)
        glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(GL_TEXTURE_WRAP_S), GL_REPEAT)
        glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D_ARRAY), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
        glBufferData(GLenum(GL_ARRAY_BUFFER), plan.instances.count * 4, plan.instances, GLenum(GL_STATIC_DRAW))
        try checkGLErrors("uploading \(plan.layers.count) wave layers")
        layerCount = plan.layers.count
        layerRows = plan.layerRows
        self.scene = scene
    }

    private var layerRows = 0

    /// Draws every cell for time `time` into the current framebuffer's
    /// `viewport` (x, y from the bottom left, width, height), which shows
    /// scene rows from `pageTop` down.
    public func draw(time: Double, viewport: (x: Int, y: Int, width: Int, height: Int), pageTop: Int = 0) {
        guard let scene else { return }
        glViewport(GLint(viewport.x), GLint(viewport.y), GLsizei(viewport.width), GLsizei(viewport.height))
        glDisable(GLenum(GL_BLEND))
        glUseProgram(program.id)
        glUniform1f(uniforms.offset, GLfloat(scene.wrappedOffset(at: time)))
        glUniform4f(uniforms.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1f(uniforms.pageTop, GLfloat(pageTop))
        glUniform2f(uniforms.layerSize, GLfloat(scene.width), GLfloat(layerRows))
        glUniform2f(uniforms.target, GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(uniforms.waves, 0)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D_ARRAY), texture)
        glBindVertexArray(vertexArray)
        glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(scene.cellCount))
        glBindVertexArray(0)
    }
}

/// Which cell pictures a scene needs, and each cell's instance data.
struct LayerPlan {
    struct Layer: Hashable {
        let rows: Int
        /// Fractional content shift, as (k*W mod c*N) / (c*N) pixels.
        let fractionNumerator: Int
    }

    let scene: Scene
    let layers: [Layer]
    let layerRows: Int
    /// Per cell: top row, rows, layer, whole-pixel shift.
    let instances: [GLfloat]

    init(scene: Scene) throws {
        self.scene = scene
        let n = scene.cellCount, w = scene.width, c = scene.wave.cycles
        var index: [Layer: Int] = [:]
        var layers: [Layer] = []
        var instances: [GLfloat] = []
        instances.reserveCapacity(n * 4)
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
            instances += [GLfloat(rows.lowerBound), GLfloat(rows.count), GLfloat(slot), GLfloat(whole % w)]
        }
        self.layers = layers
        self.layerRows = layers.map(\.rows).max() ?? 1
        self.instances = instances
    }

    /// Every layer rasterised at offset 0 by the CPU rasteriser, one after
    /// another (rows top to bottom), ready for glTexImage3D.
    func rasterise() -> [UInt32] {
        let w = scene.width
        var pixels = [UInt32](repeating: scene.background.packed, count: w * layerRows * layers.count)
        let paint = CoveragePaint(fill: scene.wave.color, over: scene.background)
        let n = scene.cellCount
        for (slot, layer) in layers.enumerated() {
            // One cell alone, its phase the fractional shift: numerator/(c*N)
            // pixels is numerator/(N*W) of a cycle.
            var single = scene
            single.height = layer.rows
            single.cellCount = 1
            let geometry = WaveGeometry(scene: single, phaseOverride: Double(layer.fractionNumerator) / Double(n * w))
            let rasterizer = CoverageRasterizer(width: w, height: layer.rows)
            geometry.addCells(offset: 0, to: rasterizer)
            pixels.withUnsafeMutableBufferPointer { buffer in
                rasterizer.resolve(into: buffer.baseAddress! + slot * w * layerRows, paint: paint)
            }
        }
        return pixels
    }
}
