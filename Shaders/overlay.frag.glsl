#version 330 core
// A half's counts as Instruments' Core Animation overlays show them,
// blended over the picture: updated regions (pixels painted in software
// this frame) tinted yellow, or blended layers as a heat map (green one
// layer blended, yellow two, orange three, red four or more).

uniform sampler2D u_counts; // R8, one texel a pixel: 1 where painted in software, or layers blended (0-255)
uniform int u_mode;         // 1: updated regions, 2: blended layers

in vec2 v_uv;
out vec4 fragColor;

void main() {
    float n = floor(texture(u_counts, v_uv).r * 255.0 + 0.5);
    if (n < 0.5) discard;
    vec3 c = vec3(1.0, 0.85, 0.0);
    if (u_mode == 2) {
        c = n < 1.5 ? vec3(0.0, 0.8, 0.2) : n < 2.5 ? vec3(1.0, 0.9, 0.0) : n < 3.5 ? vec3(1.0, 0.5, 0.0) : vec3(1.0, 0.0, 0.0);
    }
    const float a = 0.55;
    fragColor = vec4(c * a, a);
}
