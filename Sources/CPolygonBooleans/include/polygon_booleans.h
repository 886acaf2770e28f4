// Boolean operations on polygons (union, difference, intersection,
// exclusive or) behind a C API, for Swift: Angus Johnson's Clipper
// (Debian's libpolyclipping) does the work on integer coordinates, the
// points scaled by `scale` and back.
#ifndef WAVES_POLYGON_BOOLEANS_H
#define WAVES_POLYGON_BOOLEANS_H

#ifdef __cplusplus
extern "C" {
#endif

/// The operations, as Clipper names them.
enum WavesPolygonOperation {
    WavesPolygonIntersection = 0,
    WavesPolygonUnion = 1,
    WavesPolygonDifference = 2,
    WavesPolygonExclusiveOr = 3,
};

typedef struct WavesPolygons WavesPolygons;

/// `subject` op `clip`, each a list of polygons filled by the non-zero
/// rule: `points` holds every polygon's (x, y) pairs one after another,
/// `counts` the points of each, subject polygons first. Nil where the
/// coordinates are out of Clipper's range or memory runs out.
WavesPolygons *waves_polygon_boolean(enum WavesPolygonOperation operation, const double *points, const int *counts,
                                     int subjectPolygons, int clipPolygons, double scale);
/// How many polygons the result holds, and how many points polygon `index` has.
int waves_polygons_count(const WavesPolygons *polygons);
int waves_polygons_points(const WavesPolygons *polygons, int index);
/// Copies polygon `index`'s points as (x, y) pairs into `xy`.
void waves_polygons_copy(const WavesPolygons *polygons, int index, double *xy);
void waves_polygons_free(WavesPolygons *polygons);

#ifdef __cplusplus
}
#endif

#endif
