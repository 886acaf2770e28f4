import CPolygonBooleans

/// Boolean operations on filled outlines: the union of polygons, one set
/// less, within or exclusive of another, each set filled by the non-zero
/// rule, the result as closed polylines whose windings fill it by that rule
/// (holes wound against their outlines). Clipper (Debian's libpolyclipping)
/// does the work on integer coordinates, 1/65536 of a unit apart.
public enum PolygonBooleans {
    public enum Operation: Sendable {
        case union, difference, intersection, exclusiveOr

        var clipper: WavesPolygonOperation {
            switch self {
            case .union: return WavesPolygonUnion
            case .difference: return WavesPolygonDifference
            case .intersection: return WavesPolygonIntersection
            case .exclusiveOr: return WavesPolygonExclusiveOr
            }
        }
    }

    /// Units to one integer step of Clipper's coordinates.
    static let scale = 65536.0

    /// `subject` op `clip`; nil where a coordinate is out of the range kept (4e15 / 65536: about 6e10 units).
    public static func combine(_ subject: [Polyline], _ operation: Operation, _ clip: [Polyline]) -> [Polyline]? {
        let shapes = (subject + clip).filter { $0.points.count > 2 }
        let subjectCount = subject.filter { $0.points.count > 2 }.count
        var xy: [Double] = []
        xy.reserveCapacity(shapes.reduce(0) { $0 + 2 * $1.points.count })
        for shape in shapes { for p in shape.points { xy.append(p.x); xy.append(p.y) } }
        let counts = shapes.map { Int32($0.points.count) }
        guard let result = waves_polygon_boolean(operation.clipper, xy, counts, Int32(subjectCount), Int32(shapes.count - subjectCount), scale) else {
            return nil
        }
        defer { waves_polygons_free(result) }
        return (0..<waves_polygons_count(result)).map { index in
            var points = [Double](repeating: 0, count: 2 * Int(waves_polygons_points(result, index)))
            waves_polygons_copy(result, index, &points)
            return Polyline(stride(from: 0, to: points.count, by: 2).map { Point(points[$0], points[$0 + 1]) }, closed: true)
        }
    }
}
