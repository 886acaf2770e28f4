#version 330 core
// A voice curve (WaveCore's ModulatedSine) computed on the GPU every frame:
// nothing was rasterised or uploaded for it. Per frame only the amplitude
// (the level) and the phase change.
//
// The band is y(x) -/+ h(x), with h = lineWidth/2 * sqrt(1 + y'^2), sampled
// on the same grid as the CPU strategy (u_samplesPerPixel points a pixel)
// and joined by straight lines. A pixel's coverage is the exact area of
// the band inside it: over each grid segment, the average of
// clamp(bottom - row, 0, 1) - clamp(top - row, 0, 1) for linear top and
// bottom, in closed form. That is the area the CPU's polygon covers.
//
// Defines: ENVELOPE_PARABOLA (else siriwave's attenuation (K/(K+u^4))^K).
// Output is premultiplied, blended with ONE, ONE_MINUS_SRC_ALPHA.

uniform vec4 u_viewport;       // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;         // scene row shown at the area's top
uniform float u_width;         // scene width: p = x / width
uniform float u_samplesPerPixel;
uniform float u_centreY;
uniform float u_frequency;     // radians over the width
uniform float u_lineWidth;
uniform float u_k;             // the attenuation's K
uniform float u_amplitude;     // this frame: pixels (the level applied)
uniform float u_phase;         // this frame: radians, in [0, 2 pi)
uniform vec4 u_color;          // non-premultiplied, 0...1

out vec4 fragColor;

// The envelope and its slope in p.
vec2 envelope(float p) {
#ifdef ENVELOPE_PARABOLA
    float q = 2.0 * p - 1.0;
    return vec2(1.0 - q * q, -4.0 * q);
#else
    float u = 4.0 * p - 2.0, u3 = u * u * u, d = u_k + u3 * u;
    float g = pow(u_k / d, u_k);
    return vec2(g, -16.0 * u_k * u3 * g / d);
#endif
}

// The band's top and bottom (scene y, down) at x.
vec2 edges(float x) {
    float p = x / u_width;
    vec2 e = envelope(p);
    float angle = u_frequency * p + u_phase;
    float s = sin(angle), c = cos(angle);
    float y = u_centreY + u_amplitude * e.x * s;
    float slope = u_amplitude / u_width * (e.y * s + e.x * u_frequency * c);
    float h = 0.5 * u_lineWidth * sqrt(1.0 + slope * slope);
    return vec2(y - h, y + h);
}

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

void main() {
    vec2 local = gl_FragCoord.xy - u_viewport.xy;            // i + 0.5
    float row = float(int(u_viewport.w - local.y) + u_pageTop);
    float column = floor(local.x);
    float coverage = 0.0;
    if (column < u_width) {
        int steps = int(u_samplesPerPixel);
        vec2 previous = edges(column);
        for (int j = 1; j <= steps; j++) {
            vec2 next = edges(column + float(j) / u_samplesPerPixel);
            coverage += meanClamped(previous.y - row, next.y - row) - meanClamped(previous.x - row, next.x - row);
            previous = next;
        }
        coverage = clamp(coverage / u_samplesPerPixel, 0.0, 1.0);
    }
    float a = u_color.a * coverage;
    fragColor = vec4(u_color.rgb * a, a);
}
