#version 330 core
// The demo's display (FlatColorProgram): stb_easy_font's glyph quads, the
// panel, and the frame-time graph's bars and lines, in pixels from the
// viewport's top left (y down), one colour a draw (text.frag.glsl).

layout(location = 0) in vec2 a_position;

uniform vec2 u_viewportSize;

void main() {
    vec2 ndc = a_position / u_viewportSize * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
