#version 330 core
// A replicator's copies, their state (WaveCore's Tree/, CAReplicatorLayer):
// one fragment per instance (copy k times sublayers plus sublayer c; in a
// grid (k1 * inner + k2) * children + c), 1024 a row from u_firstRow, drawn
// once a frame with layer.vert.glsl's full-screen quad. Each evaluates its
// sublayer's property timelines at its own time (the replicator's less the
// copy's instance delays) from a table the CPU wrote once (GLCopies.swift),
// so the work runs on the GPU (on llvmpipe, its worker threads) and the
// CPU's is the same for 10 copies or 10,000. The copy's transform is the
// replicator's world transform, the step k times (from powers of two the
// CPU computes in double precision each frame), then the sublayer's own.
// Written to six targets, read by copies.vert.glsl and box.frag.glsl:
//   0: the box's centre in scene pixels, its half reach (-1: hidden);
//   1: scene offsets to the layer's: (a, c) and (b, d) of the inverse;
//   2: the box in its layer: x0, y0, x1, y1;
//   3: corner radius, border width, |det| (layer area to scene area), 0;
//   4, 5: fill and border, premultiplied, opacity and tint applied.
// CLIPS: the same timelines for shapes alone in their clips (GLClipCopies,
// the GPU policy): one fragment a clip writes its x this frame, split into
// whole pixels and a sub-pixel phase (the CLIPS main below).
//
// Timeline records (texels of u_program, 1024 a row), their codes the
// constants WaveGL puts after the version line, generated from WaveCore's
// TimelineCode (KIND_, FLAG_, FUNCTION_, SOURCE_, BOUNCE_OUT; for the
// offline validator, Shaders/timeline_codes.inc holds the same):
//   property: model value; (animations, 0, 0, 0); then each animation, the
//     topmost first: (kind, texels, flags, function), then by kind:
//     KIND_BASIC and KIND_KEYFRAMES_LINEAR / _DISCRETE: (begin, duration,
//       speed, offset), (active duration, start, end, cycle), the cubic
//       curve; basic: from, to; keyframes: (values, has key times, 0, 0),
//       the values, the key times four a texel;
//     KIND_SPRING: the same three timing texels, from, to, (w0, zeta, v0, 0);
//     KIND_DRIVEN: (gain, bias, lower, upper), (source kind, a, b, c), from, to.
//   source kinds: SOURCE_CONSTANT a; SOURCE_RECORDED, b values from texel a
//     of u_samples (four a texel) at c a second; SOURCE_LIVE, a history of
//     1024 (time, value) texels from texel a, oldest first.

uniform sampler2D u_program;
uniform sampler2D u_samples;
uniform int u_firstRow;       // the state's first row
uniform int u_instances;      // instances in all
uniform int u_children;       // sublayers a copy
uniform int u_childBase;      // this replicator's first sublayer record
uniform float u_time;         // the replicator's local time
uniform float u_delay;        // seconds between copies
uniform vec3 u_world[2];      // the replicator's layer to scene: rows (a, c, tx), (b, d, ty)
uniform vec3 u_step[42];      // the instance step to the powers 1, 2, 4, ... 2^20, two rows each
uniform float u_opacity;      // the replicator's opacity (its ancestors' included)
uniform vec4 u_tint;          // the tint from above the replicator
uniform vec4 u_instanceColor;
uniform vec4 u_colorOffset;
// A replicator inside (a grid; u_inner 1: none): outer copy k1 holds
// inner copies k2, k2 more delays late. Its step is fixed (u_innerStep's
// powers), or animated (u_innerAnimated 1, a row that curls): its
// timelines' records at u_innerStepAt (translation x, y, rotation, scale
// x) and u_innerCentre.z (scale y), evaluated at the outer copy's time and
// turned about u_innerCentre.xy, then raised to the power k2 here.
uniform int u_innerAnimated;
uniform vec4 u_innerStepAt;
uniform vec3 u_innerCentre;
uniform int u_inner;
uniform float u_innerDelay;
uniform vec3 u_innerPlace[2]; // the inner replicator's layer in the outer copy
uniform vec3 u_innerStep[42];
uniform vec4 u_innerColor;
uniform vec4 u_innerOffset;

#ifdef CLIPS
uniform int u_clipCount;      // clips in all
uniform int u_phaseCount;     // sub-pixel phases a pixel
uniform float u_sceneTime;
layout(location = 0) out vec4 clipState;
#else
layout(location = 0) out vec4 stateCentre;
layout(location = 1) out vec4 stateInverse;
layout(location = 2) out vec4 stateRect;
layout(location = 3) out vec4 stateShape;
layout(location = 4) out vec4 stateFill;
layout(location = 5) out vec4 stateBorder;
#endif

const int texelsPerChild = 6;
const float huge = 3.0e38;

vec4 fetch(int i) { return texelFetch(u_program, ivec2(i & 1023, i >> 10), 0); }
vec4 sampleTexel(int i) { return texelFetch(u_samples, ivec2(i & 1023, i >> 10), 0); }

float bezier(float s, float a, float b) {
    float r = 1.0 - s;
    return 3.0 * r * r * s * a + 3.0 * r * s * s * b + s * s * s;
}

// WaveCore's TimingFunction.value.
float eased(float p, int function, vec4 curve) {
    float x = clamp(p, 0.0, 1.0);
    if (function == FUNCTION_LINEAR) return x;
    if (function == FUNCTION_BOUNCE_OUT) {
        int i = 0;
        while (i + 1 < BOUNCE_OUT.length() && x >= BOUNCE_OUT[i].x) i++;
        return (BOUNCE_OUT[i].y * x + BOUNCE_OUT[i].z) * x + BOUNCE_OUT[i].w;
    }
    float lo = 0.0, hi = 1.0;
    for (int i = 0; i < 24; i++) {
        float mid = 0.5 * (lo + hi);
        if (bezier(mid, curve.x, curve.z) < x) lo = mid; else hi = mid;
    }
    return bezier(0.5 * (lo + hi), curve.y, curve.w);
}

// WaveCore's MediaTiming.simpleTime: false where the timing has no effect.
bool simpleTime(float t, vec4 timing, vec4 span, int flags, out float s) {
    bool always = (flags & FLAG_ALWAYS_RUNNING) != 0;
    float running = always ? t * timing.z : (t - timing.x) * timing.z;
    s = 0.0;
    if (!always && running < 0.0) { s = span.y; return (flags & FLAG_FILLS_BACKWARDS) != 0; }
    if (!always && running >= span.x) { s = span.z; return (flags & FLAG_FILLS_FORWARDS) != 0; }
    float local = running + timing.w;
    if ((flags & FLAG_INFINITE_DURATION) != 0) { s = local; return true; }
    float r = mod(local, span.w);
    s = (flags & FLAG_AUTOREVERSES) != 0 && r > timing.y ? span.w - r : r;
    return true;
}

// WaveCore's Spring.solution(x0: 1, v0:, at:).x, as progress 1 - x.
float springProgress(float t, vec4 p) {
    float w0 = p.x, zeta = p.y, v0 = p.z, x;
    if (abs(zeta - 1.0) < 1e-6) {
        float b = v0 + w0;
        x = (1.0 + b * t) * exp(-w0 * t);
    } else if (zeta < 1.0) {
        float wd = w0 * sqrt(1.0 - zeta * zeta), s = zeta * w0;
        float b = (v0 + s) / wd;
        x = exp(-s * t) * (cos(wd * t) + b * sin(wd * t));
    } else {
        float root = w0 * sqrt(zeta * zeta - 1.0);
        float r2 = -zeta * w0 - root, r1 = w0 * w0 / r2;
        float c2 = (v0 - r1) / (r2 - r1), c1 = 1.0 - c2;
        x = c1 * exp(r1 * t) + c2 * exp(r2 * t);
    }
    return 1.0 - x;
}

float keyTime(int at, int i, int n, bool hasTimes, bool discrete) {
    if (hasTimes) return fetch(at + i / 4)[i % 4];
    if (discrete) return float(i) / float(n);
    return n > 1 ? float(i) / float(n - 1) : 0.0;
}

// WaveCore's KeyframeAnimation.value(progress:); the record's values start at `at`.
vec4 keyframes(int at, float p, bool discrete) {
    vec4 h = fetch(at);
    int n = int(h.x);
    bool hasTimes = h.y > 0.5;
    int values = at + 1, times = values + n;
    if (discrete) {
        int i = 0;
        while (i + 1 < n && p >= keyTime(times, i + 1, n, hasTimes, true)) i++;
        return fetch(values + i);
    }
    if (n == 1 || p <= keyTime(times, 0, n, hasTimes, false)) return fetch(values);
    int i = 0;
    while (i + 2 < n && p >= keyTime(times, i + 1, n, hasTimes, false)) i++;
    float t0 = keyTime(times, i, n, hasTimes, false), t1 = keyTime(times, i + 1, n, hasTimes, false);
    float f = t1 > t0 ? min(1.0, (p - t0) / (t1 - t0)) : 1.0;
    return mix(fetch(values + i), fetch(values + i + 1), f);
}

// WaveCore's Level.value through DrivenSources.value(of:at:), clamped to 0...1.
float source(vec4 s, float t) {
    int kind = int(s.x);
    float v = s.y;
    if (kind == SOURCE_RECORDED) {
        int base = int(s.y), n = int(s.z);
        float position = t * s.w;
        if (position <= 0.0) {
            v = sampleTexel(base).x;
        } else if (position >= float(n - 1)) {
            v = sampleTexel(base + (n - 1) / 4)[(n - 1) % 4];
        } else {
            int i = int(position);
            float f = position - float(i);
            float a = sampleTexel(base + i / 4)[i % 4], b = sampleTexel(base + (i + 1) / 4)[(i + 1) % 4];
            v = a + (b - a) * f;
        }
    } else if (kind == SOURCE_LIVE) {
        // The newest sample at or before t (oldest first, 1024 of them), then between it and the next.
        int base = int(s.y);
        vec4 newest = sampleTexel(base + 1023);
        if (t >= newest.x) {
            v = newest.y;
        } else {
            int lo = 0, hi = 1023;          // time[lo] <= t < time[hi], when time[0] <= t
            vec4 first = sampleTexel(base);
            if (t < first.x) {
                v = first.y;
            } else {
                while (hi - lo > 1) {
                    int mid = (lo + hi) / 2;
                    if (sampleTexel(base + mid).x <= t) lo = mid; else hi = mid;
                }
                vec4 a = sampleTexel(base + lo), b = sampleTexel(base + hi);
                float f = b.x > a.x ? (t - a.x) / (b.x - a.x) : 1.0;
                v = a.y + (b.y - a.y) * f;
            }
        }
    }
    return clamp(v, 0.0, 1.0);
}

// WaveCore's Timeline.value(at:): the topmost animation in effect, else the model value.
vec4 property(int at, float t) {
    int count = int(fetch(at + 1).x);
    int a = at + 2;
    for (int j = 0; j < count; j++) {
        vec4 h = fetch(a);
        int kind = int(h.x), flags = int(h.z), function = int(h.w);
        if (kind == KIND_DRIVEN) {
            vec4 map = fetch(a + 1);
            float x = clamp(map.x * source(fetch(a + 2), t) + map.y, map.z, map.w);
            return mix(fetch(a + 3), fetch(a + 4), x);
        }
        vec4 timing = fetch(a + 1);
        float s;
        if (simpleTime(t, timing, fetch(a + 2), flags, s)) {
            if (kind == KIND_SPRING) return mix(fetch(a + 4), fetch(a + 5), springProgress(s, fetch(a + 6)));
            float p = eased(s / timing.y, function, fetch(a + 3));
            if (kind == KIND_BASIC) return mix(fetch(a + 4), fetch(a + 5), p);
            return keyframes(a + 4, p, kind == KIND_KEYFRAMES_DISCRETE);
        }
        a += int(h.y);
    }
    return fetch(at);
}

// Affines as two rows (a, c, tx), (b, d, ty): p = A (q).
void compose(vec3 a0, vec3 a1, vec3 b0, vec3 b1, out vec3 r0, out vec3 r1) {
    r0 = vec3(a0.x * b0.x + a0.y * b1.x, a0.x * b0.y + a0.y * b1.y, a0.x * b0.z + a0.y * b1.z + a0.z);
    r1 = vec3(a1.x * b0.x + a1.y * b1.x, a1.x * b0.y + a1.y * b1.y, a1.x * b0.z + a1.y * b1.z + a1.z);
}

#ifdef CLIPS
// Clip k's record at texel k: (its x's still part, its layer's x
// translation's timeline record, its first timing texel, timings). Its x
// is LayerTreeEvaluator.x(of:at:): the scene time taken through each
// timing above it and its own (three texels each: flags, then
// simpleTime's two; pass-through timings left out), the translation at
// that time plus the still part. Written as SubpixelPhases.split makes it:
// (whole pixels, phase 0..<u_phaseCount); phase -1 where x is not a number.
void main() {
    int k = int(gl_FragCoord.y) * 1024 + int(gl_FragCoord.x);
    if (k >= u_clipCount) discard;
    vec4 head = fetch(k);
    float t = u_sceneTime;
    for (int i = 0; i < int(head.w); i++) {
        int at = int(head.z) + 3 * i;
        float s;
        simpleTime(t, fetch(at + 1), fetch(at + 2), int(fetch(at).x), s);
        t = s;
    }
    float x = head.x + property(int(head.y), t).x;
    if (isnan(x) || isinf(x)) { clipState = vec4(0.0, -1.0, 0.0, 0.0); return; }
    x = clamp(x, -1.0e7, 1.0e7);
    float whole = floor(x);
    float phase = floor((x - whole) * float(u_phaseCount) + 0.5);
    if (phase >= float(u_phaseCount)) { phase = 0.0; whole += 1.0; }
    clipState = vec4(whole, phase, 0.0, 0.0);
}
#else
void main() {
    int instance = (int(gl_FragCoord.y) - u_firstRow) * 1024 + int(gl_FragCoord.x);
    if (instance >= u_instances) discard;
    int copy = instance / u_children, c = instance - copy * u_children;
    int k = copy / u_inner, k2 = copy - k * u_inner;
    int record = u_childBase + texelsPerChild * c;
    float t = u_time - float(k) * u_delay - float(k2) * u_innerDelay;
    vec4 size = fetch(record), box = fetch(record + 1), borderColor = fetch(record + 2);
    vec4 at0 = fetch(record + 3), at1 = fetch(record + 4), at2 = fetch(record + 5);
    vec2 position = vec2(property(int(at0.x), t).x, property(int(at0.y), t).x);
    vec2 origin = vec2(property(int(at0.z), t).x, property(int(at0.w), t).x);
    float opacity = u_opacity * clamp(property(int(at1.x), t).x, 0.0, 1.0);
    vec2 translation = vec2(property(int(at1.y), t).x, property(int(at1.z), t).x);
    float rotation = property(int(at1.w), t).x;
    vec2 scale = vec2(property(int(at2.x), t).x, property(int(at2.y), t).x);
    vec4 fill = property(int(at2.z), t) / 255.0;

    // The sublayer's transform to the copy's space (WaveCore's LayerTreeEvaluator.toParent).
    float cr = cos(rotation), sr = sin(rotation);
    vec3 m0 = vec3(cr * scale.x, -sr * scale.y, translation.x), m1 = vec3(sr * scale.x, cr * scale.y, translation.y);
    if (rotation == 0.0) { m0.xy = vec2(scale.x, 0.0); m1.xy = vec2(0.0, scale.y); }
    vec2 anchor = origin + size.zw * size.xy;
    m0.z += position.x - (m0.x * anchor.x + m0.y * anchor.y);
    m1.z += position.y - (m1.x * anchor.x + m1.y * anchor.y);
    // The replicator's world, then the step k times (its binary powers), then the sublayer's.
    vec3 w0 = u_world[0], w1 = u_world[1];
    for (int bit = 0; bit < 21; bit++) {
        if ((k & (1 << bit)) != 0) compose(w0, w1, u_step[2 * bit], u_step[2 * bit + 1], w0, w1);
    }
    compose(w0, w1, u_innerPlace[0], u_innerPlace[1], w0, w1);
    if (u_innerAnimated == 1) {
        // The step at the outer copy's time (WaveCore's AnimatableTransform.matrix, about the layer's centre).
        float tk = u_time - float(k) * u_delay;
        float sx = property(int(u_innerStepAt.w), tk).x, sy = property(int(u_innerCentre.z), tk).x;
        float r = property(int(u_innerStepAt.z), tk).x, cs = cos(r), sn = sin(r);
        vec3 p0 = vec3(cs * sx, -sn * sy, property(int(u_innerStepAt.x), tk).x);
        vec3 p1 = vec3(sn * sx, cs * sy, property(int(u_innerStepAt.y), tk).x);
        if (r == 0.0) { p0.xy = vec2(sx, 0.0); p1.xy = vec2(0.0, sy); }
        vec2 c = u_innerCentre.xy;
        p0.z += c.x - (p0.x * c.x + p0.y * c.y);
        p1.z += c.y - (p1.x * c.x + p1.y * c.y);
        // The step k2 times: its binary powers, squared as the bits go.
        for (int bit = 0; bit < 21 && (k2 >> bit) != 0; bit++) {
            if ((k2 & (1 << bit)) != 0) compose(w0, w1, p0, p1, w0, w1);
            compose(p0, p1, p0, p1, p0, p1);
        }
    } else {
        for (int bit = 0; bit < 21; bit++) {
            if ((k2 & (1 << bit)) != 0) compose(w0, w1, u_innerStep[2 * bit], u_innerStep[2 * bit + 1], w0, w1);
        }
    }
    vec3 a0, a1;
    compose(w0, w1, m0, m1, a0, a1);

    vec4 rect = vec4(origin, origin + size.xy);
    vec2 localCentre = 0.5 * (rect.xy + rect.zw);
    vec2 centre = vec2(dot(a0, vec3(localCentre, 1.0)), dot(a1, vec3(localCentre, 1.0)));
    float det = a0.x * a1.y - a0.y * a1.x;
    // The box's reach about its centre in scene pixels, a pixel wider each way.
    vec2 halfSize = 0.5 * size.xy;
    vec2 extent = vec2(abs(a0.x) * halfSize.x + abs(a0.y) * halfSize.y, abs(a1.x) * halfSize.x + abs(a1.y) * halfSize.y) + 1.0;
    bool hidden = opacity <= 0.0 || abs(det) <= 1e-20;

    // Copy k's tint: the instance colour k offsets on, each channel held to 0...1.
    vec4 tint = u_tint * clamp(u_instanceColor + float(k) * u_colorOffset, 0.0, 1.0)
              * clamp(u_innerColor + float(k2) * u_innerOffset, 0.0, 1.0);
    vec4 f = fill * tint, b = borderColor * tint;
    stateCentre = vec4(centre, hidden ? vec2(-1.0) : extent);
    stateInverse = hidden ? vec4(0.0) : vec4(a1.y, -a0.y, -a1.x, a0.x) / det;
    stateRect = rect;
    stateShape = vec4(min(box.x, 0.5 * min(size.x, size.y)), box.y, abs(det), 0.0);
    stateFill = hidden ? vec4(0.0) : vec4(f.rgb, 1.0) * f.a * opacity;
    stateBorder = hidden || box.y <= 0.0 ? vec4(0.0) : vec4(b.rgb, 1.0) * b.a * opacity;
}
#endif
