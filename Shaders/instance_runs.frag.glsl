#version 330 core
// A run of items (instance_runs.vert.glsl), each by its kind:
// - kind 0, a fixed path's coverage from the atlas, read as item.frag.glsl's
//   PICTURE_COVERAGE reads its tiles: the texel position is whole texels
//   plus the fraction of the inverse transform's result, sampled
//   bilinearly, never past the empty texels round the picture (read as
//   item.frag.glsl's tiles read their border). Four taps a pixel, v_tap
//   pixels from its centre, averaged: a quarter for a picture rasterised at
//   twice the scale shown, none (four reads of one point) for the rest, so
//   that both share a run where they alternate;
// - kind 1, a polygon's exact coverage from its rows in the frame's polygon
//   tables (coverage_reads.inc's polygonRowsCoverage), as item.frag.glsl
//   computes a polygon's.
// A run holds the kinds its program was made for: PICTURES (kind 0),
// POLYGONS (kind 1), or both defined for a run of both (a software driver
// runs both sides of a branch, so a run of one kind leaves the other out).
// Times the colour (premultiplied, times the opacity). MASKED: times the
// mask (coverage_reads.inc's maskCoverage). Output is premultiplied,
// blended with ONE, ONE_MINUS_SRC_ALPHA.

uniform sampler2D u_atlas;     // coverage (red), every picture with an empty texel round it (the next one's after it)
uniform vec4 u_viewport;
uniform int u_pageTop;
#include "coverage_reads.inc"

flat in vec4 v_inverseX;
flat in vec4 v_inverseY;
flat in vec4 v_rect;
flat in vec4 v_color;
flat in float v_tap;
flat in int v_kind;
out vec4 fragColor;

// The picture's coverage at scene point p (filtered between texels).
float pictureCoverage(vec2 p) {
    vec2 t = vec2(dot(v_inverseX.xyz, vec3(p, 1.0)), dot(v_inverseY.xyz, vec3(p, 1.0)));
    vec2 whole = floor(t);
    vec2 texel = vec2(v_inverseX.w, v_inverseY.w) + whole + (t - whole);
    texel = clamp(texel, v_rect.xy - 0.5, v_rect.zw + 0.5);
    return texture(u_atlas, texel / vec2(textureSize(u_atlas, 0))).r;
}

void main() {
    vec2 local = gl_FragCoord.xy - u_viewport.xy;           // i + 0.5
    int row = int(u_viewport.w - local.y) + u_pageTop;      // scene row, from the top
    vec2 scene = vec2(local.x, float(row) + 0.5);           // the pixel's centre in scene pixels
    float coverage = 0.0;
#ifdef PICTURES
    if (v_kind == 0) {
        coverage = FOUR_TAPS(pictureCoverage, scene, v_tap);
    }
#endif
#ifdef POLYGONS
    if (v_kind == 1) {
        // A picture's instance reads no rows (no runs a row: no entries), where both sides run.
        coverage = polygonRowsCoverage(v_kind == 1 ? ivec4(v_inverseX + 0.5) : ivec4(0), v_inverseY.x > 0.5, floor(local.x), row);
    }
#endif
#ifdef MASKED
    coverage *= maskCoverage(local, scene);
#endif
    fragColor = v_color * coverage;
}
