#version 330 core
// Heads-up display: stb_easy_font quads (and solid panels) in window pixels, y down.

layout(location = 0) in vec2 a_position;

uniform vec2 u_viewportSize;

void main() {
    vec2 ndc = a_position / u_viewportSize * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
