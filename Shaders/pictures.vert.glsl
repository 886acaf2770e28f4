#version 330 core
// Rasterized layers (CALayer.shouldRasterize), all of a run in one
// instanced draw: each instance is one layer's picture, painted once on the
// CPU into an atlas, placed by its transform this frame. The CPU's work a
// frame is three texels an instance (the transform, the opacity and tint,
// and which picture); this quad covers the picture's rect as the transform
// turns it, and pictures.frag.glsl samples the atlas.

uniform sampler2D u_instances; // 1024 texels a row, three an instance:
                               // (a, b, c, d), (tx, ty, tile, opacity), tint (r, g, b, a)
uniform sampler2D u_pictures;  // 1024 texels a row, two a tile (a picture, or a piece of a wide one): the
                               // columns it draws in the atlas (x, y, w, h); their first texel in
                               // its layer's coordinates (x, y) and the atlas columns it may read
                               // (its own and, where the picture goes on, one either side)
uniform int u_first;           // this run's first instance
uniform vec4 u_viewport;       // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;         // scene row shown at the area's top

out vec2 v_texel;              // atlas texels (x, y), from its top left
flat out vec4 v_rect;          // the picture's texels in the atlas: x0, y0, x1, y1
flat out vec4 v_scale;         // premultiplied tint times opacity

ivec2 at(int i) { return ivec2(i & 1023, i >> 10); }

void main() {
    int i = 3 * (u_first + gl_InstanceID);
    vec4 m = texelFetch(u_instances, at(i), 0);
    vec4 place = texelFetch(u_instances, at(i + 1), 0);
    vec4 tint = texelFetch(u_instances, at(i + 2), 0);
    int p = int(place.z);
    vec4 rect = texelFetch(u_pictures, at(2 * p), 0);
    vec4 place2 = texelFetch(u_pictures, at(2 * p + 1), 0);
    vec2 origin = place2.xy;
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 local = origin + corner * rect.zw;
    vec2 scene = vec2(m.x * local.x + m.z * local.y, m.y * local.x + m.w * local.y) + place.xy;
    v_texel = rect.xy + corner * rect.zw;
    v_rect = vec4(place2.z, rect.y, place2.w, rect.y + rect.w);
    float alpha = tint.a * place.w;
    v_scale = vec4(tint.rgb * alpha, alpha);
    gl_Position = vec4(2.0 * scene.x / u_viewport.z - 1.0, 1.0 - 2.0 * (scene.y - float(u_pageTop)) / u_viewport.w, 0.0, 1.0);
}
