#version 330 core
// A run of the layer tree's items in one draw of six vertices an item
// (GLInstanceRuns; not an instanced draw: llvmpipe runs its vertex
// pipeline once an instance): each item is an instance of the frame's
// table, and its two triangles cover its area (its rows and columns,
// inside its clip), as the scissor holds item.frag.glsl's quad to it.
// Two kinds of item share a run, in the order the tree draws them
// (instance_runs.frag.glsl computes each one's coverage by its kind):
// - kind 0, a fixed path with a solid fill (GLCoverageInstances): its
//   coverage picture rasterised once on the CPU into an atlas, read through
//   the item's inverse transform this frame;
// - kind 1, a polygon of a solid colour (a dynamic path): its rows in the
//   frame's polygon tables (PolygonRows).

uniform sampler2D u_instances; // 1024 texels a row, six an instance:
                               // kind 0: texel x = dot(xyz, (x, y, 1)) at scene point (x, y), plus w (whole texels:
                               // the picture's place in the atlas and the transform's whole part); the same for
                               // texel y; the picture's texels in the atlas (x0, y0, x1, y1);
                               // kind 1: its first row-table texel, first row, first column and runs a row; its
                               // fill rule (x, 1: even-odd); nothing;
                               // then both: the colour, premultiplied, times the opacity; the area (x0, y0, x1,
                               // y1); the taps' distance from the pixel's centre (a quarter pixel, or none) and
                               // the kind.
uniform vec4 u_viewport;       // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;         // scene row shown at the area's top

flat out vec4 v_inverseX;      // kind 1: its rows in the tables
flat out vec4 v_inverseY;      // kind 1: x, its fill rule
flat out vec4 v_rect;
flat out vec4 v_color;
flat out float v_tap;
flat out int v_kind;

ivec2 at(int i) { return ivec2(i & 1023, i >> 10); }

// The corners of an item's two triangles, by vertex (x: 0 left, 1 right; y: 0 top, 1 bottom).
const vec2 CORNERS[6] = vec2[6](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0), vec2(0.0, 1.0));

void main() {
    // Instance n's vertices are 6 n ..< 6 n + 6 (the draw starts at its run's first); its texels from 6 n.
    int i = 6 * (gl_VertexID / 6);
    v_inverseX = texelFetch(u_instances, at(i), 0);
    v_inverseY = texelFetch(u_instances, at(i + 1), 0);
    v_rect = texelFetch(u_instances, at(i + 2), 0);
    v_color = texelFetch(u_instances, at(i + 3), 0);
    vec4 area = texelFetch(u_instances, at(i + 4), 0);
    vec4 last = texelFetch(u_instances, at(i + 5), 0);
    v_tap = last.x;
    v_kind = int(last.y + 0.5);
    vec2 scene = mix(area.xy, area.zw, CORNERS[gl_VertexID % 6]);
    gl_Position = vec4(2.0 * scene.x / u_viewport.z - 1.0, 1.0 - 2.0 * (scene.y - float(u_pageTop)) / u_viewport.w, 0.0, 1.0);
}
