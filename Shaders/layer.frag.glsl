#version 330 core
// One batch of repeating curves (bands of rows), drawn from coverage
// rasterised once on the CPU and cached in textures: the content is moved
// by the offset u(t) (pixel x shows content x + u), then painted and
// composited here, so neither motion nor paint uploads anything per frame.
//
// Coverage is sampled at pixel centres with linear filtering: a whole-pixel
// offset reads texels exactly; a fractional one filters between two (the
// published "amplitude phasing", kept visible with --subpixel linear). With
// exact motion, curves come as pictures at u_phases sub-pixel phases and the
// CPU passes a whole-pixel offset and the nearest phase: nothing is filtered.
//
// The first batch composites onto the background itself (no blending; every
// pixel written). A scene of one batch is written non-premultiplied; with
// more, output is premultiplied and later batches blend with ONE,
// ONE_MINUS_SRC_ALPHA: source-over in premultiplied form.
//
// Each batch's program is this file specialised by defines placed after the
// version line (on a software driver every branch costs CPU time):
//   FILL_GRADIENT     the fill is a linear gradient (else solid)
//   OVER_BACKGROUND   the first batch: composite onto u_background
//   STRAIGHT_OUTPUT   the only batch: write non-premultiplied colour (exact
//                     at any background alpha; nothing is blended over it)

uniform sampler2DArray u_coverage;
uniform sampler2D u_rows;     // curves, per scene row: picture, shift (px), row in band, 1 if any
uniform float u_offset;       // the offset u(t) reduced into one period (whole with phases)
uniform int u_phases;         // sub-pixel phases per picture (1: filtered)
uniform int u_phase;          // this frame's phase, 0 to u_phases - 1
uniform vec4 u_viewport;      // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;        // scene row shown at the area's top
uniform vec2 u_layerSize;     // width, rows of one coverage layer (a picture)

uniform vec4 u_colorA;        // solid colour, or a gradient's start colour; non-premultiplied, 0...1
uniform vec4 u_colorB;        // a gradient's end colour
uniform vec4 u_gradient;      // a gradient's start x, y and end x, y in scene pixels
uniform vec4 u_background;    // non-premultiplied, 0...1

out vec4 fragColor;

float coverageAt(vec2 local, int row) {
    int tableWidth = textureSize(u_rows, 0).x;
    vec4 entry = texelFetch(u_rows, ivec2(row % tableWidth, row / tableWidth), 0);
    if (entry.w == 0.0) return 0.0;
    float s = (local.x + u_offset + entry.y) / u_layerSize.x;
    float layer = entry.x * float(u_phases) + float(u_phase);
    return texture(u_coverage, vec3(s, (entry.z + 0.5) / u_layerSize.y, layer)).r;
}

vec4 gradient(vec2 pixelCentre) {
    vec2 d = u_gradient.zw - u_gradient.xy;
    float length2 = dot(d, d);
    float t = length2 > 0.0 ? clamp(dot(pixelCentre - u_gradient.xy, d) / length2, 0.0, 1.0) : 0.0;
    return mix(u_colorA, u_colorB, t);
}

void main() {
    vec2 local = gl_FragCoord.xy - u_viewport.xy;             // i + 0.5
    int row = int(u_viewport.w - local.y) + u_pageTop;        // scene row, from the top
    float coverage = coverageAt(local, row);
    vec2 centre = vec2(local.x, float(row) + 0.5);
#ifdef FILL_GRADIENT
    vec4 color = gradient(centre);
#else
    vec4 color = u_colorA;
#endif
    float sa = color.a * coverage;
#ifdef OVER_BACKGROUND
    float da = u_background.a;
    float outA = sa + da * (1.0 - sa);
    vec3 premultiplied = color.rgb * sa + u_background.rgb * da * (1.0 - sa);
#ifdef STRAIGHT_OUTPUT
    fragColor = vec4(outA > 0.0 ? premultiplied / outA : vec3(0.0), outA);
#else
    fragColor = vec4(premultiplied, outA);
#endif
#else
    fragColor = vec4(color.rgb * sa, sa);
#endif
}
