#version 330 core
// The dots' first pass, once a frame: one fragment per copy computes copy
// i's animation at time t - i * delay (Core Animation's instance delay)
// into an RGBA float texel: scale x, scale y, opacity, tint progress.
// The CPU strategy computes the same (WaveCore's InstanceAnimation).
//
// Times reach the GPU reduced on the CPU in double precision: per channel,
// (t - begin) mod one forward-and-back cycle, and copy i's delay is taken
// as (i / 1024) blocks of (1024 delay mod cycle) plus (i mod 1024) delays,
// so a copy's time stays within about 1e-5 s for 10,000 copies (1e-4 s for
// a million) at any t.

uniform int u_stateWidth;      // texels a row
uniform float u_delay;         // seconds per copy
// Per channel (0 scale, 1 opacity, 2 tint): (t - begin) mod cycle,
// t - begin (held within +/-1e9), duration, (1024 delay) mod cycle.
uniform vec4 u_channel[3];
uniform vec4 u_timing[3];      // cubic Bezier timing curve x1, y1, x2, y2
uniform vec2 u_maxScale;       // x, y at full swing
uniform float u_level;         // this frame: how far the scale swings, 0...1
uniform vec2 u_opacity;        // from, to

out vec4 state;

const int bisectionSteps = 24;

float bezier(float s, float a, float b) {
    float r = 1.0 - s;
    return 3.0 * r * r * s * a + 3.0 * r * s * s * b + s * s * s;
}

// Eased progress for linear progress p (WaveCore's TimingCurve.value).
float eased(float p, vec4 curve) {
    float x = clamp(p, 0.0, 1.0);
    float lo = 0.0, hi = 1.0;
    for (int i = 0; i < bisectionSteps; i++) {
        float mid = 0.5 * (lo + hi);
        if (bezier(mid, curve.x, curve.z) < x) lo = mid; else hi = mid;
    }
    return bezier(0.5 * (lo + hi), curve.y, curve.w);
}

// Channel c's eased progress for copy i (0 before its begin).
float progress(int c, int i) {
    vec4 ch = u_channel[c];
    float cycle = 2.0 * ch.z;
    float lag = float(i / 1024) * ch.w + float(i - (i / 1024) * 1024) * u_delay;
    if (ch.y - float(i) * u_delay <= 0.0) return 0.0;
    float phase = mod(mod(ch.x - lag, cycle) + cycle, cycle) / ch.z;
    return eased(phase <= 1.0 ? phase : 2.0 - phase, u_timing[c]);
}

void main() {
    int i = int(gl_FragCoord.y) * u_stateWidth + int(gl_FragCoord.x);
    float swing = progress(0, i) * u_level;
    vec2 scale = 1.0 + (u_maxScale - 1.0) * swing;
    float opacity = mix(u_opacity.x, u_opacity.y, progress(1, i));
    state = vec4(scale, opacity, progress(2, i));
}
