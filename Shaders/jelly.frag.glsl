#version 330 core
// The jelly block (WaveCore's SpringBlock) computed on the GPU every frame:
// the CPU steps the spring and passes the pose (the left edge u_x and the
// bulge u_bulge); nothing is rasterised or uploaded. Each edge is the
// polyline through u_segments + 1 points at s = j / u_segments across the
// width, pushed out by 4 d s (1 - s) (the quadratic through the corners and
// a control point 2d out), exactly the CPU strategy's polygon. A pixel's
// coverage is the area of the block inside it: over each segment part
// within the pixel's column, the mean of clamp(bottom - row, 0, 1) -
// clamp(top - row, 0, 1) for the linear edges there, in closed form.
//
// Output is premultiplied, blended with ONE, ONE_MINUS_SRC_ALPHA.

uniform vec4 u_viewport;       // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;         // scene row shown at the area's top
uniform float u_width;         // the block's width and height, its top edge's corners' y
uniform float u_height;
uniform float u_top;
uniform int u_segments;
uniform vec4 u_color;          // non-premultiplied, 0...1
uniform float u_x;             // this frame: the left edge
uniform float u_bulge;         // this frame: d

out vec4 fragColor;

// The integral of clamp(s, 0, 1) from 0 to s.
float ramp(float s) { return s <= 0.0 ? 0.0 : (s >= 1.0 ? s - 0.5 : 0.5 * s * s); }

// The mean of clamp(s, 0, 1) while s runs linearly from a to b.
float meanClamped(float a, float b) {
    float lo = min(a, b), hi = max(a, b);
    if (hi <= 0.0) return 0.0;
    if (lo >= 1.0) return 1.0;
    if (hi - lo < 1e-4) return clamp(0.5 * (lo + hi), 0.0, 1.0);
    return (ramp(hi) - ramp(lo)) / (hi - lo);
}

float push(int j) {
    float s = float(j) / float(u_segments);
    return 4.0 * u_bulge * s * (1.0 - s);
}

void main() {
    vec2 local = gl_FragCoord.xy - u_viewport.xy;            // i + 0.5
    float row = float(int(u_viewport.w - local.y) + u_pageTop);
    float column = floor(local.x);
    float a = max(column, u_x), b = min(column + 1.0, u_x + u_width);
    float coverage = 0.0;
    if (b > a) {
        float n = float(u_segments);
        int first = clamp(int(floor((a - u_x) / u_width * n)), 0, u_segments - 1);
        int last = clamp(int(ceil((b - u_x) / u_width * n)), first + 1, u_segments);
        for (int j = first; j < last && j < first + 64; j++) {
            float x0 = u_x + u_width * float(j) / n, x1 = u_x + u_width * float(j + 1) / n;
            float lo = max(x0, a), hi = min(x1, b);
            if (hi <= lo) continue;
            float p0 = push(j), p1 = push(j + 1);
            float f0 = (lo - x0) / (x1 - x0), f1 = (hi - x0) / (x1 - x0);
            float pLo = mix(p0, p1, f0), pHi = mix(p0, p1, f1);
            float topLo = u_top - pLo - row, topHi = u_top - pHi - row;
            float bottomLo = u_top + u_height + pLo - row, bottomHi = u_top + u_height + pHi - row;
            coverage += (hi - lo) * (meanClamped(bottomLo, bottomHi) - meanClamped(topLo, topHi));
        }
        coverage = clamp(coverage, 0.0, 1.0);
    }
    float alpha = u_color.a * coverage;
    fragColor = vec4(u_color.rgb * alpha, alpha);
}
