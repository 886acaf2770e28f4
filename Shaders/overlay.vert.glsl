#version 330 core
// The demo's pixel overlays (the O key): one quad over a strategy's half,
// from the quad's corner number alone (no vertex buffer), reading that
// half's per-pixel counts (overlay.frag.glsl).

out vec2 v_uv; // the counts' texture, rows top to bottom

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    v_uv = vec2(corner.x, 1.0 - corner.y);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
