#version 330 core
// The box primitive (CALayer's background, cornerRadius and border),
// analytic: a pixel's coverage is the exact area of the pixel inside the
// rounded rectangle under any affine transform. In the layer's coordinates
// the box is axis-aligned with circular corners and the pixel is a
// parallelogram; the area is the parallelogram clipped to the rectangle,
// less, at each corner it reaches, the part of the corner's square outside
// the corner's circle (the clipped polygon less its overlap with the disc,
// in closed form). Scaled back by the transform's determinant. The CPU
// strategy rasterises the same box as chords within 0.02 px of its corners.
// A border is the box less the box inset by the border's width (its radius
// reduced as much), painted over the fill.
// Without LATTICE: one box a draw instance (copies.vert.glsl).
// LATTICE: a replicator's copies on a lattice (steps that only translate),
// the whole page one quad (layer.vert.glsl): each pixel finds the copies
// whose reach can cover it from the lattice (k1 along the outer step, k2
// along the inner), reads their state (copies_state.frag.glsl's targets)
// and composites their coverage in instance order.
// AXIS_ALIGNED (with LATTICE): every box's transform neither turns nor
// shears, so the pixel is an axis-aligned rectangle in the layer and its
// area has a closed form (a software driver runs both sides of a data-
// dependent branch: the polygon clipping is left out, not skipped).
// MASKED: coverage times the mask texture (this page's mask, drawn first).
// Output is premultiplied, blended with ONE, ONE_MINUS_SRC_ALPHA.

uniform vec4 u_viewport;      // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;        // scene row shown at the area's top
uniform sampler2D u_mask;     // MASKED: this page's mask coverage (red)

#ifdef LATTICE
uniform sampler2D u_state[6]; // copies_state.frag.glsl's targets, 1024 texels a row
uniform int u_stateBase;      // this item's first instance texel
uniform int u_children;       // sublayers a copy
uniform ivec2 u_counts;       // outer copies, inner copies (1: none)
uniform vec3 u_worldInverse[2]; // scene to the replicator's layer: rows (a, c, tx), (b, d, ty)
uniform vec4 u_reach;         // every box of copy (0, 0) at any time, in the replicator's layer: x0, y0, x1, y1
uniform vec4 u_steps;         // the outer step's translation, the inner step's (in the replicator's layer)
const int maxCandidates = 256;
#else
flat in vec2 v_centre;
flat in vec4 v_inverse;
flat in vec4 v_rect;
flat in vec3 v_shape;         // corner radius, border width, |det|
flat in vec4 v_fill;
flat in vec4 v_border;
#endif

out vec4 fragColor;

#ifdef AXIS_ALIGNED
float overlap(float a0, float a1, float b0, float b1) { return max(0.0, min(a1, b1) - max(a0, b0)); }

// The integral of sqrt(1 - u^2) from 0 to u.
float discIntegral(float u) {
    u = clamp(u, 0.0, 1.0);
    return 0.5 * (u * sqrt(max(0.0, 1.0 - u * u)) + asin(u));
}

// The area of the unit quarter disc (u, v >= 0) inside [u0, u1] x [v0, v1] (all in 0...1).
float quarterDisc(float u0, float u1, float v0, float v1) {
    float full = v1 < 1.0 ? sqrt(1.0 - v1 * v1) : 0.0;    // left of this the disc spans the whole [v0, v1]
    float empty = sqrt(max(0.0, 1.0 - v0 * v0));          // right of this it is below v0
    float area = (v1 - v0) * max(0.0, min(u1, full) - u0);
    float a = max(u0, full), b = min(u1, empty);
    if (b > a) area += discIntegral(b) - discIntegral(a) - v0 * (b - a);
    return area;
}

// The area (in the layer's units) of the axis-aligned pixel [lo, hi] inside
// the rectangle with corners of radius r: the overlap less, at each corner,
// the part of the corner's square outside its circle.
float roundedArea(vec2 lo, vec2 hi, vec4 rect, float r) {
    float area = overlap(lo.x, hi.x, rect.x, rect.z) * overlap(lo.y, hi.y, rect.y, rect.w);
    if (area <= 0.0 || r <= 0.0) return area;
    for (int q = 0; q < 4; q++) {
        // Outward from the corner circle's centre, in radii.
        vec2 s = vec2((q & 1) == 0 ? -1.0 : 1.0, q < 2 ? -1.0 : 1.0);
        vec2 centre = vec2(s.x < 0.0 ? rect.x + r : rect.z - r, s.y < 0.0 ? rect.y + r : rect.w - r);
        vec2 a = s * (lo - centre) / r, b = s * (hi - centre) / r;
        vec2 l = clamp(min(a, b), 0.0, 1.0), h = clamp(max(a, b), 0.0, 1.0);
        if (h.x <= l.x || h.y <= l.y) continue;
        area -= ((h.x - l.x) * (h.y - l.y) - quarterDisc(l.x, h.x, l.y, h.y)) * r * r;
    }
    return max(area, 0.0);
}
#else
const int maxPoints = 12;

float cross2(vec2 a, vec2 b) { return a.x * b.y - a.y * b.x; }

// Twice the signed area of a polygon.
float twiceArea(vec2 p[maxPoints], int n) {
    float sum = 0.0;
    for (int i = 0; i < n; i++) sum += cross2(p[i], p[(i + 1) % n]);
    return sum;
}

// Keeps the part of the polygon where side * (p[axis] - v) >= 0 (Sutherland-Hodgman).
void clip(inout vec2 p[maxPoints], inout int n, int axis, float v, float side) {
    vec2 q[maxPoints];
    int m = 0;
    for (int i = 0; i < n; i++) {
        vec2 a = p[i], b = p[(i + 1) % n];
        float da = side * (a[axis] - v), db = side * (b[axis] - v);
        if (da >= 0.0 && m < maxPoints) q[m++] = a;
        if ((da < 0.0) != (db < 0.0) && m < maxPoints) q[m++] = mix(a, b, da / (da - db));
    }
    p = q;
    n = m;
}

// The signed area of triangle (0, a, b) inside the disc of radius r about 0.
float triangleInDisc(vec2 a, vec2 b, float r) {
    vec2 d = b - a;
    float A = dot(d, d), B = dot(a, d), C = dot(a, a) - r * r;
    if (A < 1e-12) return 0.0;
    float sector = 0.5 * r * r * atan(cross2(a, b), dot(a, b));
    float discriminant = B * B - A * C;
    if (discriminant <= 0.0) return sector;
    float root = sqrt(discriminant);
    float t1 = (-B - root) / A, t2 = (-B + root) / A;
    if (t2 <= 0.0 || t1 >= 1.0) return sector;
    vec2 p1 = a + d * max(t1, 0.0), p2 = a + d * min(t2, 1.0);
    float area = 0.5 * cross2(p1, p2);
    if (t1 > 0.0) area += 0.5 * r * r * atan(cross2(a, p1), dot(a, p1));
    if (t2 < 1.0) area += 0.5 * r * r * atan(cross2(p2, b), dot(p2, b));
    return area;
}

// The area (in the layer's units) of quad `pixel` inside the rectangle with corners of radius r.
float roundedArea(vec2 pixel[maxPoints], vec4 rect, float r) {
    if (rect.z <= rect.x || rect.w <= rect.y) return 0.0;
    vec2 lo = min(min(pixel[0], pixel[1]), min(pixel[2], pixel[3]));
    vec2 hi = max(max(pixel[0], pixel[1]), max(pixel[2], pixel[3]));
    if (hi.x <= rect.x || lo.x >= rect.z || hi.y <= rect.y || lo.y >= rect.w) return 0.0;
    // Inside the rectangle and clear of its corners: the whole pixel.
    bool insideX = lo.x >= rect.x && hi.x <= rect.z, insideY = lo.y >= rect.y && hi.y <= rect.w;
    if (insideX && insideY && (lo.x >= rect.x + r && hi.x <= rect.z - r || lo.y >= rect.y + r && hi.y <= rect.w - r)) {
        return 0.5 * abs(twiceArea(pixel, 4));
    }
    vec2 p[maxPoints] = pixel;
    int n = 4;
    clip(p, n, 0, rect.x, 1.0); clip(p, n, 0, rect.z, -1.0);
    clip(p, n, 1, rect.y, 1.0); clip(p, n, 1, rect.w, -1.0);
    if (n < 3) return 0.0;
    float twice = twiceArea(p, n);
    float orientation = twice < 0.0 ? -1.0 : 1.0;
    float area = abs(twice) * 0.5;
    if (r <= 0.0) return area;
    for (int q = 0; q < 4; q++) {
        // The corner's square and the centre of its circle.
        float sx = (q & 1) == 0 ? 1.0 : -1.0, sy = q < 2 ? 1.0 : -1.0;
        float cx = (q & 1) == 0 ? rect.x + r : rect.z - r, cy = q < 2 ? rect.y + r : rect.w - r;
        if (sx > 0.0 ? lo.x >= cx : hi.x <= cx) continue;
        if (sy > 0.0 ? lo.y >= cy : hi.y <= cy) continue;
        vec2 c[maxPoints] = p;
        int m = n;
        clip(c, m, 0, cx, -sx);
        clip(c, m, 1, cy, -sy);
        if (m < 3) continue;
        float inDisc = 0.0;
        vec2 centre = vec2(cx, cy);
        for (int i = 0; i < m; i++) inDisc += triangleInDisc(c[i] - centre, c[(i + 1) % m] - centre, r);
        area -= orientation * (0.5 * twiceArea(c, m) - inDisc);
    }
    return max(area, 0.0);
}

#endif

// The box's colour over pixel p0 (its top-left corner in scene pixels), border over fill.
vec4 boxColor(vec2 p0, vec2 centre, vec4 inverse, vec4 rect, vec3 shape, vec4 fill, vec4 border) {
    // The pixel in the layer's coordinates (offsets from the centre keep the precision).
    vec2 localCentre = 0.5 * (rect.xy + rect.zw);
#ifdef AXIS_ALIGNED
    vec2 a = localCentre + inverse.xw * (p0 - centre), b = localCentre + inverse.xw * (p0 + 1.0 - centre);
    vec2 lo = min(a, b), hi = max(a, b);
#define PIXEL lo, hi
#else
    vec2 pixel[maxPoints];
    vec2 corners[4] = vec2[4](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(1.0, 1.0), vec2(0.0, 1.0));
    for (int i = 0; i < 4; i++) {
        vec2 d = p0 + corners[i] - centre;
        pixel[i] = localCentre + vec2(inverse.x * d.x + inverse.y * d.y, inverse.z * d.x + inverse.w * d.y);
    }
#define PIXEL pixel
#endif
    float r = shape.x, det = shape.z;
    float outer = min(1.0, roundedArea(PIXEL, rect, r) * det);
    vec4 color = fill * outer;
    if (shape.y > 0.0) {
        float w = min(shape.y, 0.5 * min(rect.z - rect.x, rect.w - rect.y));
        float inner = min(1.0, roundedArea(PIXEL, rect + vec4(w, w, -w, -w), max(0.0, r - w)) * det);
        vec4 edge = border * max(0.0, outer - inner);
        color = edge + color * (1.0 - edge.a);
    }
    return color;
}

#ifdef LATTICE
// The whole numbers k in 0..<count with k * step within [lo, hi] (empty: x > y).
ivec2 onLattice(float lo, float hi, float step, int count) {
    if (step == 0.0) return lo <= 0.0 && hi >= 0.0 ? ivec2(0, count - 1) : ivec2(1, 0);
    float a = lo / step, b = hi / step;
    return ivec2(max(0, int(ceil(min(a, b)))), min(count - 1, int(floor(max(a, b)))));
}

// Every copy whose reach holds pixel p0, in instance order, composited.
vec4 latticeColor(vec2 p0) {
    // The pixel's bounds in the replicator's layer, then the copy origins whose reach can meet them.
    vec2 mid = p0 + 0.5;
    vec2 at = vec2(dot(u_worldInverse[0], vec3(mid, 1.0)), dot(u_worldInverse[1], vec3(mid, 1.0)));
    vec2 halfPixel = 0.5 * vec2(abs(u_worldInverse[0].x) + abs(u_worldInverse[0].y), abs(u_worldInverse[1].x) + abs(u_worldInverse[1].y));
    vec2 lo = at - halfPixel - u_reach.zw, hi = at + halfPixel - u_reach.xy;
    vec2 s1 = u_steps.xy, s2 = u_steps.zw;
    // Outer copies: k1 s1 within the origins less any inner copy's offset.
    vec2 spread = float(u_counts.y - 1) * s2;
    ivec2 rx = onLattice(lo.x - max(0.0, spread.x), hi.x - min(0.0, spread.x), s1.x, u_counts.x);
    ivec2 ry = onLattice(lo.y - max(0.0, spread.y), hi.y - min(0.0, spread.y), s1.y, u_counts.x);
    int k1 = max(rx.x, ry.x), last1 = min(rx.y, ry.y);
    // The walk: outer copy k1 (its inner copies k2 to last2 found on reaching it), then each sublayer c.
    // The costly coverage runs once per copy that reaches the pixel, found by a cheap inner loop
    // (lanes run both sides of a branch together, but a loop only as long as its longest lane).
    int k2 = 0, last2 = -1, c = 0, candidates = 0;
    vec4 color = vec4(0.0);
    while (candidates < maxCandidates) {
        bool found = false;
        ivec2 texel;
        vec4 centre;
        while (candidates < maxCandidates) {
            if (k2 > last2) {
                if (k1 > last1) break;
                vec2 origin = float(k1) * s1;
                ivec2 cx = onLattice(lo.x - origin.x, hi.x - origin.x, s2.x, u_counts.y);
                ivec2 cy = onLattice(lo.y - origin.y, hi.y - origin.y, s2.y, u_counts.y);
                k2 = max(cx.x, cy.x);
                last2 = min(cx.y, cy.y);
                c = 0;
                k1++;
                continue;
            }
            int i = u_stateBase + ((k1 - 1) * u_counts.y + k2) * u_children + c;
            c++;
            if (c == u_children) { c = 0; k2++; }
            candidates++;
            texel = ivec2(i & 1023, i >> 10);
            centre = texelFetch(u_state[0], texel, 0);
            if (centre.z >= 0.0 && all(lessThanEqual(abs(mid - centre.xy), centre.zw))) { found = true; break; }
        }
        if (!found) break;
        vec4 box = boxColor(p0, centre.xy, texelFetch(u_state[1], texel, 0), texelFetch(u_state[2], texel, 0),
                            texelFetch(u_state[3], texel, 0).xyz, texelFetch(u_state[4], texel, 0), texelFetch(u_state[5], texel, 0));
        color = box + color * (1.0 - box.a);
    }
    return color;
}
#endif

void main() {
    vec2 local = gl_FragCoord.xy - u_viewport.xy;           // i + 0.5
    float row = float(int(u_viewport.w - local.y) + u_pageTop);
    vec2 p0 = vec2(floor(local.x), row);
#ifdef LATTICE
    vec4 color = latticeColor(p0);
#else
    vec4 color = boxColor(p0, v_centre, v_inverse, v_rect, v_shape, v_fill, v_border);
#endif
#ifdef MASKED
    color *= texelFetch(u_mask, ivec2(local), 0).r;
#endif
    fragColor = color;
}
