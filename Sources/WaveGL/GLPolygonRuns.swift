import CGL
import WaveCore

/// The GL strategy's polygons of a solid colour (dynamic paths, their
/// outlines made on the CPU every frame into `PolygonRows`' tables), drawn
/// a run at a time (`Shaders/instance_runs.vert.glsl` and `item.frag.glsl`,
/// both with their INSTANCED define): every frame each such item
/// is four texels of an instance table (its rows in the polygon tables, its
/// colour, its opacity and fill rule, its area), uploaded in one call, and
/// each run of consecutive such items that share a mask is one draw of two
/// triangles an item, as `GLCoverageInstances` draws fixed paths. A
/// gradient, a blend mode or a mask's own layer is drawn by itself.
final class GLPolygonRuns {
    /// The instance table and its draws: four texels an instance.
    private let table: GLInstanceRuns

    /// Room for `capacity` instances a frame; `readsMasks`: the kinds of mask runs may read in place (`GLMaskInPlace`).
    init(capacity: Int, readsMasks: GLMaskInPlace.Kinds) throws {
        // The table on unit 8 (the tree's items use 0 to 5, the coverage instances 6 and 7), the polygon tables on 1 to 3.
        table = try GLInstanceRuns(vertex: "instance_runs.vert.glsl", fragment: "item.frag.glsl", defines: ["INSTANCED"],
                                   texelsPerInstance: 4, instanceUnit: 8,
                                   integers: [("u_edges", 1), ("u_entries", 2), ("u_rows", 3), ("u_mask", 4), ("u_invertsCoverage", 0)],
                                   readsMasks: readsMasks, capacity: capacity, what: "the polygon runs")
    }

    /// The instances this frame so far.
    var count: Int { table.count }
    /// Draws since the frame began (for tests: one a run).
    var draws: Int { table.draws }

    // MARK: Every frame

    /// Starts a frame's instances.
    func begin() { table.begin() }

    /// Adds a polygon as the next instance: its rows from table texel `rowBase` over `rows` x `columns` of the
    /// scene (`PolygonRows.finish`), `color` its solid paint (0...255, not premultiplied).
    @inline(__always)
    func add(rowBase: Int, rows: Range<Int>, columns: Range<Int>, color c: ColorValue, opacity: Double, evenOdd: Bool) {
        table.texel(Float(rowBase), Float(rows.lowerBound), Float(columns.lowerBound), Float(PolygonRows.buckets(columns)))
        table.texel(Float(c.r / 255), Float(c.g / 255), Float(c.b / 255), Float(c.a / 255))
        table.texel(Float(opacity), evenOdd ? 1 : 0, 0, 0)
        table.texel(Float(columns.lowerBound), Float(rows.lowerBound), Float(columns.upperBound), Float(rows.upperBound))
    }

    /// Sends the frame's instances to the GPU.
    func upload() { table.upload() }

    /// Instances `first..<first + n` in one draw, masked as `GLInstanceRuns.draw` says (blending set by the caller, the polygon tables bound on units 1
    /// to 3). Leaves unit 0 active.
    func draw(first: Int, _ n: Int, masked: Bool, inPlace: GLMaskInPlace?, viewport: Viewport, pageTop: Int) {
        table.draw(first: first, n, masked: masked, inPlace: inPlace, viewport: viewport, pageTop: pageTop)
    }
}
