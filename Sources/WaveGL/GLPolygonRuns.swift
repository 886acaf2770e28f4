import CGL
import WaveCore

/// The GL strategy's polygons of a solid colour (dynamic paths, their
/// outlines made on the CPU every frame into `PolygonRows`' tables), drawn
/// a run at a time (`Shaders/polygon_instances.vert.glsl`, and
/// `item.frag.glsl` with its INSTANCED define): every frame each such item
/// is four texels of an instance table (its rows in the polygon tables, its
/// colour, its opacity and fill rule, its area), uploaded in one call, and
/// each run of consecutive such items that share a mask is one draw of two
/// triangles an item, as `GLCoverageInstances` draws fixed paths. A
/// gradient, a blend mode or a mask's own layer is drawn by itself.
final class GLPolygonRuns {
    /// Texels an instance in the table.
    static let texelsPerInstance = 4

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
    private var instanceTexture: GLuint = 0
    private var instanceRows = 0
    /// This frame's instances, `texelsPerInstance` RGBA texels each (kept from frame to frame).
    private var instances: [Float] = []
    /// The instances this frame so far.
    private(set) var count = 0
    /// Draws since the frame began (for tests: one a run).
    private(set) var draws = 0
    /// The texture unit the table is read on (the tree's items use 0 to 5, the coverage instances 6 and 7).
    private static let instanceUnit: Int32 = 8

    /// Room for `capacity` instances a frame.
    init(capacity: Int) throws {
        programs = try [["INSTANCED"], ["INSTANCED", "MASKED"]].map { defines in
            Program(try ShaderProgram(vertex: "polygon_instances.vert.glsl", fragment: "item.frag.glsl", defines: defines))
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        instanceTexture = makeClampedTexture(filter: GL_NEAREST)
        instances.reserveCapacity(4 * Self.texelsPerInstance * Swift.max(1, capacity))
        for p in programs.map(\.program) {
            glUseProgram(p.id)
            for (name, unit) in [("u_instances", Self.instanceUnit), ("u_edges", 1), ("u_entries", 2), ("u_rows", 3), ("u_mask", 4)] {
                glUniform1i(p.uniform(name), GLint(unit))
            }
            glUniform1i(p.uniform("u_invertsCoverage"), 0)
        }
        glUseProgram(0)
        try checkGLErrors("preparing the polygon runs")
    }

    deinit {
        if instanceTexture != 0 { glDeleteTextures(1, &instanceTexture) }
    }

    // MARK: Every frame

    /// Starts a frame's instances.
    func begin() {
        instances.removeAll(keepingCapacity: true)
        count = 0
        draws = 0
    }

    /// Adds a polygon as the next instance: its rows from table texel `rowBase` over `rows` x `columns` of the
    /// scene (`PolygonRows.finish`), `color` its solid paint (0...255, not premultiplied).
    @inline(__always)
    func add(rowBase: Int, rows: Range<Int>, columns: Range<Int>, color c: ColorValue, opacity: Double, evenOdd: Bool) {
        instances.append(Float(rowBase)); instances.append(Float(rows.lowerBound)); instances.append(Float(columns.lowerBound))
        instances.append(Float(PolygonRows.buckets(columns)))
        instances.append(Float(c.r / 255)); instances.append(Float(c.g / 255)); instances.append(Float(c.b / 255))
        instances.append(Float(c.a / 255))
        instances.append(Float(opacity)); instances.append(evenOdd ? 1 : 0); instances.append(0); instances.append(0)
        instances.append(Float(columns.lowerBound)); instances.append(Float(rows.lowerBound))
        instances.append(Float(columns.upperBound)); instances.append(Float(rows.upperBound))
        count += 1
    }

    /// Sends the frame's instances to the GPU, in one call (two where the last row is partial).
    func upload() {
        guard count > 0 else { return }
        GLTreeDraw.upload(instances, into: instanceTexture, rows: &instanceRows, components: 4, format: GL_RGBA32F,
                          layout: GL_RGBA, type: GL_FLOAT)
    }

    /// Instances `first..<first + n` in one draw (blending set by the caller, the polygon tables bound on units 1
    /// to 3; each instance's triangles are its item's area, so the scissor is left off). Leaves unit 0 active.
    func draw(first: Int, _ n: Int, masked: Bool, viewport: Viewport, pageTop: Int) {
        let p = programs[masked ? 1 : 0]
        glUseProgram(p.program.id)
        glUniform4f(p.viewport, GLfloat(viewport.x), GLfloat(viewport.y), GLfloat(viewport.width), GLfloat(viewport.height))
        glUniform1i(p.pageTop, GLint(pageTop))
        glActiveTexture(GLenum(GL_TEXTURE0 + Self.instanceUnit)); glBindTexture(GLenum(GL_TEXTURE_2D), instanceTexture)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDrawArrays(GLenum(GL_TRIANGLES), GLint(6 * first), GLsizei(6 * n))
        draws += 1
    }
}
