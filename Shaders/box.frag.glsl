#version 330 core
// The box primitive (CALayer's background, cornerRadius and border),
// analytic: a pixel's coverage is the exact area of the pixel inside the
// rounded rectangle under any affine transform. In the layer's coordinates
// the box is axis-aligned with circular corners and the pixel is a
// parallelogram; the area is the parallelogram's area in the rectangle,
// less, at each corner it reaches, its area in the corner's square outside
// the corner's circle, each by Green's theorem round the parallelogram's
// four edges in closed form. Scaled back by the transform's determinant. The CPU
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
// area has a simpler closed form (a software driver runs both sides of a
// data-dependent branch: the general terms are left out, not skipped).
// MASKED: coverage times the mask (coverage_reads.inc's maskCoverage).
// Output is premultiplied, blended with ONE, ONE_MINUS_SRC_ALPHA.

uniform vec4 u_viewport;      // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;        // scene row shown at the area's top
#include "coverage_reads.inc"

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
float cross2(vec2 a, vec2 b) { return a.x * b.y - a.y * b.x; }

// The integral of max(0, h) over an interval of length len, h linear from ha to hb.
float positivePart(float ha, float hb, float len) {
    float pa = max(ha, 0.0), pb = max(hb, 0.0);
    bool mixed = (ha > 0.0) != (hb > 0.0);
    return mixed ? 0.5 * len * (pa * pa + pb * pb) / abs(ha - hb) : 0.5 * len * (pa + pb);
}

// Green's theorem, one edge at a time: the area of a polygon inside a
// region whose rows are intervals is the integral round the polygon's
// boundary of f dy, f(x, y) the length of the region's row at y left of x
// (its x-derivative is the region's indicator). Edges a to b are straight, so
// each term has a closed form; no polygon is clipped and no array is used
// (a software driver turns arrays into memory traffic on every pixel).

// Edge a to b's term for the rectangle xs.x..xs.y by ys.x..ys.y.
float rectangleTerm(vec2 a, vec2 b, vec2 xs, vec2 ys) {
    float dy = b.y - a.y;
    bool level = abs(dy) < 1e-7;
    float slope = (b.x - a.x) / (level ? 1.0 : dy);
    float lo = max(min(a.y, b.y), ys.x), hi = max(lo, min(max(a.y, b.y), ys.y));
    float glo = a.x + (lo - a.y) * slope, ghi = a.x + (hi - a.y) * slope, len = hi - lo;
    float v = positivePart(glo - xs.x, ghi - xs.x, len) - positivePart(glo - xs.y, ghi - xs.y, len);
    return level ? 0.0 : (dy > 0.0 ? v : -v);
}

// The integral of sqrt(r^2 - t^2) from lo to hi (within -r..r): the
// trapezoid terms and the sector between the two angles, taken as one
// atan of the angle between them (accurate for the small differences a
// pixel makes, where a difference of two asin would not be).
float discIntegral(float lo, float hi, float r) {
    float a = clamp(hi / r, -1.0, 1.0), b = clamp(lo / r, -1.0, 1.0);
    float ca = sqrt(max(0.0, 1.0 - a * a)), cb = sqrt(max(0.0, 1.0 - b * b));
    return 0.5 * r * r * (a * ca - b * cb + atan(a * cb - b * ca, ca * cb + a * b));
}

// Edge a to b's term for the quarter disc X, Y >= 0, X^2 + Y^2 <= r^2 (the
// corner's frame, outward from its circle's centre): its row at Y is
// 0..s(Y), s = sqrt(r^2 - Y^2), so the term is the integral of clamp(g, 0, s)
// for the edge's X = g(Y), which is (-g)+ + s - (s - g)+; s - g is concave,
// so it is positive on one interval: where g < 0 or where Y^2 + g^2 < r^2.
float quarterDiscTerm(vec2 a, vec2 b, float r) {
    float dy = b.y - a.y;
    bool level = abs(dy) < 1e-7;
    float q = (b.x - a.x) / (level ? 1.0 : dy);
    float lo = max(min(a.y, b.y), 0.0), hi = max(lo, min(max(a.y, b.y), r));
    // g(Y) = a.x + q (Y - a.y); t = Y - a.y keeps the numbers near the edge.
    float tlo = lo - a.y, thi = hi - a.y;
    float glo = a.x + q * tlo, ghi = a.x + q * thi;
    float area = positivePart(-glo, -ghi, hi - lo) + discIntegral(lo, hi, r);
    // Where g < 0, as t: below -a.x / q (q > 0), above it (q < 0), everywhere or nowhere (q = 0).
    float z = q == 0.0 ? 0.0 : -a.x / q;
    vec2 h = q > 0.0 ? vec2(tlo, min(thi, z)) : q < 0.0 ? vec2(max(tlo, z), thi)
           : (a.x < 0.0 ? vec2(tlo, thi) : vec2(1.0, 0.0));
    // Where (a.y + t)^2 + (a.x + q t)^2 < r^2.
    float A = 1.0 + q * q, B = a.y + q * a.x, C = dot(a, a) - r * r;
    float disc = B * B - A * C, root = sqrt(max(disc, 0.0));
    vec2 i = disc > 0.0 ? vec2(max(tlo, (-B - root) / A), min(thi, (-B + root) / A)) : vec2(1.0, 0.0);
    bool hEmpty = !(h.y > h.x), iEmpty = !(i.y > i.x);
    vec2 e = hEmpty ? i : iEmpty ? h : vec2(min(h.x, i.x), max(h.y, i.y));
    if (e.y > e.x) {
        // The integral of s - g over e (back in Y for s).
        float sArea = discIntegral(a.y + e.x, a.y + e.y, r);
        float gArea = (e.y - e.x) * (a.x + 0.5 * q * (e.x + e.y));
        area -= sArea - gArea;
    }
    return level ? 0.0 : (dy > 0.0 ? area : -area);
}

// The area (in the layer's units) of the parallelogram q0, q0 + u,
// q0 + u + v, q0 + v inside the rectangle with corners of radius r: its
// area in the rectangle less, at each corner, its area in the corner's
// square outside the corner's circle. Where the pixel is too small to reach
// two corners' squares only the nearest is looked at (a loop of one: a
// software driver runs a loop only as long as its longest lane, where it
// would run both sides of a branch).
float roundedArea(vec2 q0, vec2 u, vec2 v, vec4 rect, float r) {
    if (rect.z <= rect.x || rect.w <= rect.y) return 0.0;
    vec2 q1 = q0 + u, q2 = q1 + v, q3 = q0 + v;
    vec2 xs = rect.xz, ys = rect.yw;
    float sum = rectangleTerm(q0, q1, xs, ys) + rectangleTerm(q1, q2, xs, ys)
              + rectangleTerm(q2, q3, xs, ys) + rectangleTerm(q3, q0, xs, ys);
    vec2 reach = abs(u) + abs(v);
    int corners = r <= 0.0 ? 0
                : (reach.x < rect.z - rect.x - 2.0 * r && reach.y < rect.w - rect.y - 2.0 * r) ? 1 : 4;
    vec2 middle = q0 + 0.5 * (u + v), centre = 0.5 * (rect.xy + rect.zw);
    int nearest = (middle.x < centre.x ? 0 : 1) + (middle.y < centre.y ? 0 : 2);
    for (int k = 0; k < corners; k++) {
        int q = (nearest + k) & 3;
        // Outward from the corner circle's centre; mirroring one axis reverses the boundary.
        vec2 s = vec2((q & 1) == 0 ? -1.0 : 1.0, q < 2 ? -1.0 : 1.0);
        vec2 c = vec2(s.x < 0.0 ? rect.x + r : rect.z - r, s.y < 0.0 ? rect.y + r : rect.w - r);
        vec2 a0 = s * (q0 - c), a1 = s * (q1 - c), a2 = s * (q2 - c), a3 = s * (q3 - c);
        vec2 square = vec2(0.0, r);
        float outside = rectangleTerm(a0, a1, square, square) + rectangleTerm(a1, a2, square, square)
                      + rectangleTerm(a2, a3, square, square) + rectangleTerm(a3, a0, square, square)
                      - quarterDiscTerm(a0, a1, r) - quarterDiscTerm(a1, a2, r)
                      - quarterDiscTerm(a2, a3, r) - quarterDiscTerm(a3, a0, r);
        sum -= s.x * s.y * outside;
    }
    return max(cross2(u, v) < 0.0 ? -sum : sum, 0.0);
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
    vec2 d = p0 - centre;
    vec2 q0 = localCentre + vec2(inverse.x * d.x + inverse.y * d.y, inverse.z * d.x + inverse.w * d.y);
#define PIXEL q0, inverse.xz, inverse.yw
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
    color *= maskCoverage(local, vec2(local.x, row + 0.5));
#endif
    fragColor = color;
}
