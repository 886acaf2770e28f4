#version 330 core
// A run of the layer tree's items in one draw of six vertices an item
// (GLInstanceRuns; not an instanced draw: llvmpipe runs its vertex
// pipeline once an instance): each item is an instance of the frame's
// table, and its two triangles cover its area (its rows and columns,
// inside its clip), as the scissor holds item.frag.glsl's quad to it.
// Two kinds of run read their instances here:
// - fixed paths with a solid fill (GLCoverageInstances, with
//   coverage_instances.frag.glsl): the coverage picture rasterised once on
//   the CPU into an atlas, read through the item's inverse transform this
//   frame; six texels an instance;
// - INSTANCED: polygons of a solid colour (GLPolygonRuns, with
//   item.frag.glsl's INSTANCED, which computes their coverage from these
//   flat values): dynamic paths, their rows in the frame's polygon tables;
//   four texels an instance.

uniform sampler2D u_instances; // 1024 texels a row.
#ifdef INSTANCED
                               // Four an instance: its first row-table texel, first row, first column and runs
                               // a row; its colour (non-premultiplied, 0...1); its opacity and fill rule (1:
                               // even-odd); its area (x0, y0, x1, y1).
#else
                               // Six an instance: texel x = dot(xyz, (x, y, 1)) at scene point (x, y), plus w
                               // (whole texels: the picture's place in the atlas and the transform's whole
                               // part); the same for texel y; the picture's texels in the atlas (x0, y0, x1,
                               // y1); the colour, premultiplied, times the opacity; the area (x0, y0, x1, y1);
                               // the taps' distance from the pixel's centre (a quarter pixel, or none).
#endif
uniform vec4 u_viewport;       // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;         // scene row shown at the area's top

#ifdef INSTANCED
const int TEXELS = 4;
flat out ivec4 v_rows;
flat out int v_evenOdd;
flat out vec4 v_color;
flat out float v_opacity;
#else
const int TEXELS = 6;
flat out vec4 v_inverseX;
flat out vec4 v_inverseY;
flat out vec4 v_rect;
flat out vec4 v_color;
flat out float v_tap;
#endif

ivec2 at(int i) { return ivec2(i & 1023, i >> 10); }

// The corners of an item's two triangles, by vertex (x: 0 left, 1 right; y: 0 top, 1 bottom).
const vec2 CORNERS[6] = vec2[6](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0), vec2(0.0, 1.0));

void main() {
    // Instance n's vertices are 6 n ..< 6 n + 6 (the draw starts at its run's first); its texels from TEXELS n.
    int i = TEXELS * (gl_VertexID / 6);
#ifdef INSTANCED
    v_rows = ivec4(texelFetch(u_instances, at(i), 0) + 0.5);
    v_color = texelFetch(u_instances, at(i + 1), 0);
    vec4 rule = texelFetch(u_instances, at(i + 2), 0);
    v_opacity = rule.x;
    v_evenOdd = int(rule.y + 0.5);
    vec4 area = texelFetch(u_instances, at(i + 3), 0);
#else
    v_inverseX = texelFetch(u_instances, at(i), 0);
    v_inverseY = texelFetch(u_instances, at(i + 1), 0);
    v_rect = texelFetch(u_instances, at(i + 2), 0);
    v_color = texelFetch(u_instances, at(i + 3), 0);
    vec4 area = texelFetch(u_instances, at(i + 4), 0);
    v_tap = texelFetch(u_instances, at(i + 5), 0).x;
#endif
    vec2 scene = mix(area.xy, area.zw, CORNERS[gl_VertexID % 6]);
    gl_Position = vec4(2.0 * scene.x / u_viewport.z - 1.0, 1.0 - 2.0 * (scene.y - float(u_pageTop)) / u_viewport.w, 0.0, 1.0);
}
