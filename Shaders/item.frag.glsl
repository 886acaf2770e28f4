#version 330 core
#ifdef ADVANCED_BLEND
#extension GL_KHR_blend_equation_advanced : require
#endif
// One presentation item of the layer tree (WaveCore's Tree/), drawn by one
// of the tree's primitives, then painted, masked and composited here.
// Output is premultiplied, blended with ONE, ONE_MINUS_SRC_ALPHA over what
// is already in the frame (a scissor holds the item to its rows, columns
// and clip).
//
// Coverage, by define:
//   PICTURE_COVERAGE  a fixed path's coverage, rasterised once by the CPU
//                     strategy's rasteriser into tiles (layers of a texture
//                     array, overlapping by 3 columns), read through the
//                     item's inverse transform, its whole texels apart as
//                     integers (exact at whole-pixel moves however far;
//                     with exact motion, tiles at 16 sub-pixel phases and
//                     the nearest read at a whole-pixel offset; else
//                     sampled bilinearly between them, or turned or scaled);
//                     with SUPERSAMPLED, a picture rasterised at twice the
//                     scale shown, read with four taps a pixel (a variant,
//                     not a uniform's branch: llvmpipe runs both sides)
//   PICTURE_RGBA      a picture's texels, read the same way (their alpha
//                     is the coverage, their colour the paint)
//   RECT              an axis-aligned rectangle's exact coverage, the
//                     product of the pixel's overlaps with its columns and
//                     rows (u_rect): a box away from its corners, drawn
//                     apart from them (the corners take the polygon below),
//                     which a software driver shades for a fraction of the
//                     polygon's cost
//   (none of these)   a polygon in scene pixels, rebuilt every frame (a
//                     dynamic path, a box), its exact coverage from its
//                     rows in the polygon tables (coverage_reads.inc's
//                     polygonRowsCoverage), even-odd where u_evenOdd says
// Paint: GRADIENT (a two-colour linear gradient whose position is an affine
// function of the scene point, or with u_gradientKind 1 or 2 a ramp of
// stops, linear or radial, read from u_ramp at the nearest of its 256
// entries, times u_color, the tint), else a solid colour; tinted on the CPU.
// MASKED: coverage times the mask (coverage_reads.inc's maskCoverage: the
// page's mask texture, drawn first, or with MASK_PICTURE a lone path's
// coverage read in place).
// AS_MASK: the item is part of a mask: its alpha (1 less it with
// u_invertsCoverage) is written to every channel; the blending folds it
// into the mask by the item's mode (GLTreeDraw.setMaskBlend).

uniform vec4 u_viewport;      // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;        // scene row shown at the area's top
uniform vec4 u_color;         // non-premultiplied, 0...1 (a gradient's start)
uniform float u_opacity;
uniform vec4 u_colorB;        // a gradient's end
uniform vec3 u_gradient;      // position = x * a + y * b + c at the scene point (x, y); a ramp's u
uniform vec3 u_gradientV;     // a radial ramp's v: its position is |(u, v)|, or with a focus radialPosition's
uniform vec2 u_focus;         // a radial ramp's focal point less its centre, over its radius (0, 0: the centre)
uniform int u_gradientKind;   // 0: two colours; 1: a linear ramp; 2: a radial ramp
uniform sampler2D u_ramp;     // a ramp's 256 colours, non-premultiplied

uniform sampler2D u_picture;  // pictures: coverage (red) or colour
uniform vec3 u_inverseX;      // pictures: texel x = dot(u_inverseX, (x, y, 1)) for the scene point
uniform vec3 u_inverseY;
uniform vec2 u_pictureSize;   // texels
uniform sampler2DArray u_tiles; // PICTURE_COVERAGE: one tile a layer
uniform ivec2 u_whole;        // PICTURE_COVERAGE: whole texels added to the inverse transform's result
uniform int u_tileStep;       // PICTURE_COVERAGE: columns from one tile to the next
uniform int u_phases;         // PICTURE_COVERAGE: sub-pixel phases a tile (exact motion; 1: filtered)
uniform int u_phase;          // PICTURE_COVERAGE: this item's phase (its layers are tile * u_phases + phase)

// polygons: the tables u_edges, u_entries and u_rows (coverage_reads.inc), this item's rows in them:
uniform int u_rowBase;        // this item's first row-table texel
uniform int u_evenOdd;        // polygons: 1 for the even-odd rule, 0 for non-zero
uniform int u_firstRow;       // the scene row of that texel
uniform int u_firstColumn;    // the scene column its runs start at
uniform int u_buckets;        // runs a row

uniform vec4 u_rect;          // RECT: x0, y0, x1, y1 of the rectangle in scene pixels (y down)
uniform int u_invertsCoverage; // AS_MASK: 1 writes 1 - alpha (an inverted mask layer); else 1 draws 1 - its colour

#include "coverage_reads.inc"

out vec4 fragColor;
#ifdef ADVANCED_BLEND
// Blended by a blend mode's equation (GLTreeDraw.setItemBlend): multiply, screen, overlay...
layout(blend_support_all_equations) out;
#endif


// A radial ramp's position at (u, v) with its focus at f (|f| < 1): the t whose circle, radius t about
// f + t (0 - f), passes through the point; Gradient.radialPosition in WaveCore is the same.
float radialPosition(vec2 p, vec2 f) {
    if (f == vec2(0.0)) return length(p);
    vec2 q = p - f;
    float along = dot(q, f), a = 1.0 - dot(f, f);
    return (along + sqrt(along * along + a * dot(q, q))) / a;
}

float polygonCoverage(float px, int row) {
    return polygonRowsCoverage(ivec4(u_rowBase, u_firstRow, u_firstColumn, u_buckets), u_evenOdd != 0, px, row);
}

#if defined(PICTURE_COVERAGE)
// The picture's coverage at scene point p (filtered between texels).
float pictureCoverage(vec2 p) {
    return tileCoverage(u_tiles, u_inverseX, u_inverseY, u_whole, u_tileStep, u_phases, u_phase, p);
}
#endif

void main() {
    vec2 local = gl_FragCoord.xy - u_viewport.xy;           // i + 0.5
    int row = int(u_viewport.w - local.y) + u_pageTop;      // scene row, from the top
    vec2 scene = vec2(local.x, float(row) + 0.5);           // the pixel's centre in scene pixels
    vec4 color = u_color;
#ifdef GRADIENT
    if (u_gradientKind == 0) {
        color = mix(u_color, u_colorB, clamp(dot(u_gradient, vec3(scene, 1.0)), 0.0, 1.0));
    } else {
        float gu = dot(u_gradient, vec3(scene, 1.0));
        float gv = dot(u_gradientV, vec3(scene, 1.0));
        float at = clamp(u_gradientKind == 1 ? gu : radialPosition(vec2(gu, gv), u_focus), 0.0, 1.0);
        color = u_color * texelFetch(u_ramp, ivec2(int(floor(at * 255.0 + 0.5)), 0), 0);
    }
#endif
    float coverage;
#if defined(PICTURE_COVERAGE)
#ifdef SUPERSAMPLED
    // Two texels a pixel (rasterised at twice the scale shown): four taps a quarter pixel from the centre, averaged
    // (a box filter's area).
    coverage = FOUR_TAPS(pictureCoverage, scene, 0.25);
#else
    coverage = pictureCoverage(scene);
#endif
#elif defined(PICTURE_RGBA)
    vec2 t = vec2(dot(u_inverseX, vec3(scene, 1.0)), dot(u_inverseY, vec3(scene, 1.0)));
    vec4 sampled = texture(u_picture, t / u_pictureSize);
    // Premultiplied texels (filtered as such): back to a colour and its coverage.
    coverage = sampled.a;
    color = vec4(coverage > 0.0 ? sampled.rgb / coverage : vec3(0.0), 1.0) * u_color;
#elif defined(RECT)
    vec2 pixel = vec2(floor(local.x), float(row));
    vec2 overlap = clamp(min(pixel + 1.0, u_rect.zw) - max(pixel, u_rect.xy), 0.0, 1.0);
    coverage = overlap.x * overlap.y;
#else
    coverage = polygonCoverage(floor(local.x), row);
#endif
#ifdef MASKED
    coverage *= maskCoverage(local, scene);
#endif
    float a = color.a * coverage * u_opacity;
#ifdef AS_MASK
    fragColor = vec4(u_invertsCoverage != 0 ? 1.0 - a : a);
#else
    // In an inverted luminance mask (u_invertsCoverage), 1 less its colour: the mask, started white, darkens by it.
    fragColor = vec4((u_invertsCoverage != 0 ? 1.0 - color.rgb : color.rgb) * a, a);
#endif
}
