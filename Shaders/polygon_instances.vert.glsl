#version 330 core
// Polygons of a solid colour (dynamic paths, rebuilt every frame), all of a
// run in one draw of six vertices an item (GLPolygonRuns; not an instanced
// draw: llvmpipe runs its vertex pipeline once an instance): each item is
// an instance of the table, its rows in the frame's polygon tables; its two
// triangles cover its area (its rows and columns, inside its clip), as the
// scissor holds item.frag.glsl's quad to it, and item.frag.glsl with
// INSTANCED computes its coverage from its flat values.

uniform sampler2D u_instances; // 1024 texels a row, four an instance: its first row-table texel, first
                               // row, first column and runs a row; its colour (non-premultiplied,
                               // 0...1); its opacity and fill rule (1: even-odd); its area (x0, y0, x1, y1)
uniform vec4 u_viewport;       // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;         // scene row shown at the area's top

flat out ivec4 v_rows;
flat out int v_evenOdd;
flat out vec4 v_color;
flat out float v_opacity;

ivec2 at(int i) { return ivec2(i & 1023, i >> 10); }

// The corners of an item's two triangles, by vertex (x: 0 left, 1 right; y: 0 top, 1 bottom).
const vec2 CORNERS[6] = vec2[6](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0), vec2(0.0, 1.0));

void main() {
    // Instance n's vertices are 6 n ..< 6 n + 6 (the draw starts at its run's first).
    int i = 4 * (gl_VertexID / 6);
    v_rows = ivec4(texelFetch(u_instances, at(i), 0) + 0.5);
    v_color = texelFetch(u_instances, at(i + 1), 0);
    vec4 rule = texelFetch(u_instances, at(i + 2), 0);
    v_opacity = rule.x;
    v_evenOdd = int(rule.y + 0.5);
    vec4 area = texelFetch(u_instances, at(i + 3), 0);
    vec2 scene = mix(area.xy, area.zw, CORNERS[gl_VertexID % 6]);
    gl_Position = vec4(2.0 * scene.x / u_viewport.z - 1.0, 1.0 - 2.0 * (scene.y - float(u_pageTop)) / u_viewport.w, 0.0, 1.0);
}
