#version 330 core
// A replicator's copies where their steps turn or scale (the general case):
// one instance per copy and sublayer, each a quad over its box as turned,
// grown by a pixel's span in the box's space. The instance's state (its
// transform, rect, colours) was evaluated this frame by
// copies_state.frag.glsl; this only fetches it, so the vertex work (CPU
// time on a software driver) is a few texel reads a copy. box.frag.glsl
// computes the coverage.

uniform sampler2D u_state[6]; // copies_state.frag.glsl's targets, 1024 texels a row
uniform int u_stateBase;      // this item's first instance texel
uniform vec4 u_viewport;      // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;        // scene row shown at the area's top

flat out vec2 v_centre;       // the box's centre in scene pixels
flat out vec4 v_inverse;      // scene offsets to the layer's: (a, c) and (b, d) of the inverse
flat out vec4 v_rect;         // the box in its layer: x0, y0, x1, y1
flat out vec3 v_shape;        // corner radius, border width, |det| (layer area to scene area)
flat out vec4 v_fill;         // premultiplied, opacity and tint applied
flat out vec4 v_border;

void main() {
    int i = u_stateBase + gl_InstanceID;
    ivec2 at = ivec2(i & 1023, i >> 10);
    vec4 centre = texelFetch(u_state[0], at, 0);
    v_centre = centre.xy;
    v_inverse = texelFetch(u_state[1], at, 0);
    v_rect = texelFetch(u_state[2], at, 0);
    v_shape = texelFetch(u_state[3], at, 0).xyz;
    v_fill = texelFetch(u_state[4], at, 0);
    v_border = texelFetch(u_state[5], at, 0);
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    // The box itself, turned as it is (a turned bar's axis-aligned reach can
    // be many times its area), grown in its own space by what a pixel spans
    // there, so every pixel it touches is drawn; the reach where it flattens.
    mat2 toBox = mat2(v_inverse.x, v_inverse.z, v_inverse.y, v_inverse.w); // columns: box offset = toBox * scene offset
    vec2 scene = centre.xy + corner * centre.zw;
    if (abs(determinant(toBox)) > 1e-12) {
        vec2 grow = vec2(length(v_inverse.xy), length(v_inverse.zw));
        vec2 extent = 0.5 * (v_rect.zw - v_rect.xy) + grow;
        scene = centre.xy + inverse(toBox) * (corner * extent);
    }
    gl_Position = centre.z < 0.0 ? vec4(2.0, 2.0, 2.0, 1.0)
                : vec4(2.0 * scene.x / u_viewport.z - 1.0, 1.0 - 2.0 * (scene.y - float(u_pageTop)) / u_viewport.w, 0.0, 1.0);
}
