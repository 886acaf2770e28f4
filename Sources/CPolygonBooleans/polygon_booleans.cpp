// The C API of polygon_booleans.h over Clipper: no C++ exception leaves it.
#include "polygon_booleans.h"

#include <polyclipping/clipper.hpp>
#include <cmath>
#include <new>

struct WavesPolygons {
    ClipperLib::Paths paths;
    double scale;
};

extern "C" WavesPolygons *waves_polygon_boolean(enum WavesPolygonOperation operation, const double *points, const int *counts,
                                                int subjectPolygons, int clipPolygons, double scale) {
    try {
        ClipperLib::Paths subject, clip;
        size_t at = 0;
        const double limit = 4.0e15;
        for (int p = 0; p < subjectPolygons + clipPolygons; p++) {
            ClipperLib::Path path;
            path.reserve(counts[p] > 0 ? counts[p] : 0);
            for (int i = 0; i < counts[p]; i++, at++) {
                double x = points[2 * at] * scale, y = points[2 * at + 1] * scale;
                if (!std::isfinite(x) || !std::isfinite(y) || std::fabs(x) > limit || std::fabs(y) > limit) return nullptr;
                path.push_back(ClipperLib::IntPoint((ClipperLib::cInt)std::llround(x), (ClipperLib::cInt)std::llround(y)));
            }
            (p < subjectPolygons ? subject : clip).push_back(path);
        }
        ClipperLib::Clipper clipper;
        clipper.AddPaths(subject, ClipperLib::ptSubject, true);
        clipper.AddPaths(clip, ClipperLib::ptClip, true);
        ClipperLib::ClipType type = operation == WavesPolygonIntersection ? ClipperLib::ctIntersection
            : operation == WavesPolygonUnion ? ClipperLib::ctUnion
            : operation == WavesPolygonDifference ? ClipperLib::ctDifference : ClipperLib::ctXor;
        WavesPolygons *result = new WavesPolygons();
        result->scale = scale;
        if (!clipper.Execute(type, result->paths, ClipperLib::pftNonZero, ClipperLib::pftNonZero)) {
            delete result;
            return nullptr;
        }
        return result;
    } catch (...) {
        return nullptr;
    }
}

extern "C" int waves_polygons_count(const WavesPolygons *polygons) { return (int)polygons->paths.size(); }

extern "C" int waves_polygons_points(const WavesPolygons *polygons, int index) { return (int)polygons->paths[index].size(); }

extern "C" void waves_polygons_copy(const WavesPolygons *polygons, int index, double *xy) {
    const ClipperLib::Path &path = polygons->paths[index];
    for (size_t i = 0; i < path.size(); i++) {
        xy[2 * i] = (double)path[i].X / polygons->scale;
        xy[2 * i + 1] = (double)path[i].Y / polygons->scale;
    }
}

extern "C" void waves_polygons_free(WavesPolygons *polygons) { delete polygons; }
