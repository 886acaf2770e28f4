#version 330 core
// A quad over the viewport from its corner number alone (no vertex buffer):
// the demo's pixel overlays (the O key) over a strategy's half, and the
// CPU frame shown in place (frame.frag.glsl). The overlays read that
// half's per-pixel counts (overlay.frag.glsl) at v_uv.

out vec2 v_uv; // the counts' texture, rows top to bottom

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    v_uv = vec2(corner.x, 1.0 - corner.y);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
