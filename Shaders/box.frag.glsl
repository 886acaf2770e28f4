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
// MASKED: coverage times the mask texture (this page's mask, drawn first).
// Output is premultiplied, blended with ONE, ONE_MINUS_SRC_ALPHA.

uniform vec4 u_viewport;      // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;        // scene row shown at the area's top
uniform sampler2D u_mask;     // MASKED: this page's mask coverage (red)

flat in vec2 v_centre;
flat in vec4 v_inverse;
flat in vec2 v_localCentre;
flat in vec4 v_rect;
flat in vec3 v_shape;         // corner radius, border width, |det|
flat in vec4 v_fill;
flat in vec4 v_border;

out vec4 fragColor;

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

void main() {
    vec2 local = gl_FragCoord.xy - u_viewport.xy;           // i + 0.5
    float row = float(int(u_viewport.w - local.y) + u_pageTop);
    vec2 p0 = vec2(floor(local.x), row);
    // The pixel's corners in the layer's coordinates (offsets from the centre keep the precision).
    vec2 pixel[maxPoints];
    vec2 corners[4] = vec2[4](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(1.0, 1.0), vec2(0.0, 1.0));
    for (int i = 0; i < 4; i++) {
        vec2 d = p0 + corners[i] - v_centre;
        pixel[i] = v_localCentre + vec2(v_inverse.x * d.x + v_inverse.y * d.y, v_inverse.z * d.x + v_inverse.w * d.y);
    }
    float r = v_shape.x, det = v_shape.z;
    float outer = min(1.0, roundedArea(pixel, v_rect, r) * det);
    vec4 color = v_fill * outer;
    if (v_shape.y > 0.0) {
        float w = min(v_shape.y, 0.5 * min(v_rect.z - v_rect.x, v_rect.w - v_rect.y));
        float inner = min(1.0, roundedArea(pixel, v_rect + vec4(w, w, -w, -w), max(0.0, r - w)) * det);
        vec4 border = v_border * max(0.0, outer - inner);
        color = border + color * (1.0 - border.a);
    }
#ifdef MASKED
    color *= texelFetch(u_mask, ivec2(local), 0).r;
#endif
    fragColor = color;
}
