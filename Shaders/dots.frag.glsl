#version 330 core
// The dots' second pass: every pixel near the grid finds the copies that can
// reach it, reads each one's state (dots_state.frag.glsl, this frame) and
// computes its coverage from the geometry: the exact area of the pixel
// inside a rectangle with elliptical corners (the dot scaled about its
// centre). Copies are composited in index order, later over earlier, as
// the CPU strategy draws them. Nothing was rasterised on the CPU.
//
// Output is premultiplied, blended with ONE, ONE_MINUS_SRC_ALPHA.

uniform vec4 u_viewport;       // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;         // scene row shown at the area's top
uniform sampler2D u_state;     // per copy: scale x, scale y, opacity, tint progress
uniform int u_stateWidth;
uniform int u_count;
uniform int u_perRow;
uniform vec2 u_origin;         // copy 0's centre
uniform vec2 u_pitch;          // spacing along a row, between rows
uniform vec3 u_shape;          // width, height, corner radius at scale 1
uniform vec2 u_reach;          // this frame: the farthest a copy's edge is from its centre, + 1 px
uniform vec4 u_color;          // the paint, non-premultiplied, 0...1
uniform vec3 u_tintFrom;
uniform vec3 u_tintTo;

out vec4 fragColor;

const int maxCandidates = 256;

float overlap(float a0, float a1, float b0, float b1) { return max(0.0, min(a1, b1) - max(a0, b0)); }

// The integral of sqrt(1 - u^2) from 0 to u.
float discIntegral(float u) {
    u = clamp(u, 0.0, 1.0);
    return 0.5 * (u * sqrt(max(0.0, 1.0 - u * u)) + asin(u));
}

// The area of the unit quarter disc inside [u0, u1] x [v0, v1] (all in 0...1).
float quarterDisc(float u0, float u1, float v0, float v1) {
    float full = v1 < 1.0 ? sqrt(1.0 - v1 * v1) : 0.0;    // left of this the disc spans the whole [v0, v1]
    float empty = sqrt(max(0.0, 1.0 - v0 * v0));          // right of this it is below v0
    float area = (v1 - v0) * max(0.0, min(u1, full) - u0);
    float a = max(u0, full), b = min(u1, empty);
    if (b > a) area += discIntegral(b) - discIntegral(a) - v0 * (b - a);
    return area;
}

// The area of pixel [p0, p1] inside the rectangle centred on c with half
// sizes `halfSize` and elliptical corners of radii `radius`: the rectangle's
// overlap less, per corner, the part of the corner's square outside its ellipse.
float roundedRect(vec2 p0, vec2 p1, vec2 c, vec2 halfSize, vec2 radius) {
    float area = overlap(p0.x, p1.x, c.x - halfSize.x, c.x + halfSize.x) * overlap(p0.y, p1.y, c.y - halfSize.y, c.y + halfSize.y);
    if (area <= 0.0 || radius.x <= 0.0 || radius.y <= 0.0) return area;
    vec2 inner = halfSize - radius;
    for (int q = 0; q < 4; q++) {
        vec2 s = vec2((q & 1) == 0 ? -1.0 : 1.0, q < 2 ? -1.0 : 1.0);
        vec2 e = c + s * inner;                            // the corner's ellipse centre
        vec2 a = s * (p0 - e) / radius, b = s * (p1 - e) / radius;
        vec2 lo = clamp(min(a, b), 0.0, 1.0), hi = clamp(max(a, b), 0.0, 1.0);
        if (hi.x <= lo.x || hi.y <= lo.y) continue;
        float square = (hi.x - lo.x) * (hi.y - lo.y);
        area -= (square - quarterDisc(lo.x, hi.x, lo.y, hi.y)) * radius.x * radius.y;
    }
    return clamp(area, 0.0, 1.0);
}

void main() {
    vec2 local = gl_FragCoord.xy - u_viewport.xy;            // i + 0.5
    float row = float(int(u_viewport.w - local.y) + u_pageTop);
    vec2 p0 = vec2(floor(local.x), row), p1 = p0 + 1.0;
    vec2 centre = p0 + 0.5;
    int rows = (u_count + u_perRow - 1) / u_perRow;
    // The rows and columns of copies whose reach covers this pixel.
    int firstRow = 0, lastRow = 0;
    if (rows > 1) {
        firstRow = max(0, int(ceil((centre.y - u_reach.y - u_origin.y) / u_pitch.y)));
        lastRow = min(rows - 1, int(floor((centre.y + u_reach.y - u_origin.y) / u_pitch.y)));
    }
    int firstColumn = max(0, int(ceil((centre.x - u_reach.x - u_origin.x) / u_pitch.x)));
    int lastColumn = min(u_perRow - 1, int(floor((centre.x + u_reach.x - u_origin.x) / u_pitch.x)));
    vec4 sum = vec4(0.0);
    // ScenePlan refuses grids where more than maxCandidates copies can reach
    // one pixel (the CPU strategy draws those), so the bound never drops a copy.
    int visited = 0;
    for (int r = firstRow; r <= lastRow && visited < maxCandidates; r++) {
        for (int k = firstColumn; k <= lastColumn; k++) {
            int i = r * u_perRow + k;
            if (i >= u_count || visited >= maxCandidates) break;
            visited++;
            vec4 s = texelFetch(u_state, ivec2(i % u_stateWidth, i / u_stateWidth), 0);
            vec2 c = u_origin + vec2(float(k), float(r)) * u_pitch;
            float coverage = roundedRect(p0, p1, c, 0.5 * u_shape.xy * s.xy, u_shape.z * s.xy);
            if (coverage <= 0.0) continue;
            float a = u_color.a * s.z * coverage;
            vec3 rgb = u_color.rgb * mix(u_tintFrom, u_tintTo, s.w);
            sum = vec4(rgb * a, a) + sum * (1.0 - a);
        }
    }
    fragColor = sum;
}
