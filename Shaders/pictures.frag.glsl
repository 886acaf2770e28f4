#version 330 core
// A rasterized layer's picture (pictures.vert.glsl): its premultiplied
// texels read bilinearly at the pixel's centre (the same pixels at
// whole-pixel moves, sampled between texels where it turns, scales or
// moves by a fraction, as Core Animation samples a rasterized layer),
// never past the atlas columns its tile may read (its own, and one more
// either side where a wide picture goes on), scaled by tint and opacity.
// MASKED: times the mask texture (this page's mask, drawn first).
// Output is premultiplied, blended with ONE, ONE_MINUS_SRC_ALPHA.

uniform sampler2D u_atlas;     // premultiplied RGBA, every picture with a transparent texel round it
uniform sampler2D u_mask;      // MASKED: this page's mask, its coverage the luminance of its colour (grey for an alpha mask)
const vec3 MASK_LUMINANCE = vec3(0.2126, 0.7152, 0.0722); // WaveCore's MaskLuminance.weights
uniform vec4 u_viewport;

in vec2 v_texel;
flat in vec4 v_rect;
flat in vec4 v_scale;
out vec4 fragColor;

void main() {
    vec2 t = clamp(v_texel, v_rect.xy + 0.5, v_rect.zw - 0.5);
    vec4 texel = texture(u_atlas, t / vec2(textureSize(u_atlas, 0)));
    fragColor = texel * v_scale;
#ifdef MASKED
    fragColor *= dot(texelFetch(u_mask, ivec2(gl_FragCoord.xy - u_viewport.xy), 0).rgb, MASK_LUMINANCE);
#endif
}
