#version 330 core
// A rasterized layer's picture (pictures.vert.glsl): its premultiplied
// texels read bilinearly at the pixel's centre (the same pixels at
// whole-pixel moves, sampled between texels where it turns, scales or
// moves by a fraction, as Core Animation samples a rasterized layer),
// never past the atlas columns its tile may read (its own, and one more
// either side where a wide picture goes on), scaled by tint and opacity.
// MASKED: times the mask (coverage_reads.inc's maskCoverage).
// Output is premultiplied, blended with ONE, ONE_MINUS_SRC_ALPHA.

uniform sampler2D u_atlas;     // premultiplied RGBA, every picture with a transparent texel round it
uniform vec4 u_viewport;
uniform int u_pageTop;
#include "coverage_reads.inc"

in vec2 v_texel;
flat in vec4 v_rect;
flat in vec4 v_scale;
out vec4 fragColor;

void main() {
    vec2 t = clamp(v_texel, v_rect.xy + 0.5, v_rect.zw - 0.5);
    vec4 texel = texture(u_atlas, t / vec2(textureSize(u_atlas, 0)));
    fragColor = texel * v_scale;
#ifdef MASKED
    vec2 local = gl_FragCoord.xy - u_viewport.xy;
    fragColor *= maskCoverage(local, vec2(local.x, float(int(u_viewport.w - local.y) + u_pageTop) + 0.5));
#endif
}
