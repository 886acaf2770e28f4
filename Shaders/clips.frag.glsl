#version 330 core
// A sole clip's pixel (clips.vert.glsl): its picture's texel at the whole
// pixels and phase of this frame, written as it is (painted over the
// background on the CPU; nothing else reaches a sole clip, so nothing is
// blended): the pixels of a whole-pixel copy, in one draw for every clip.

uniform sampler2DArray u_phases; // every picture at each phase (a layer a phase), straight RGBA
uniform vec4 u_viewport;
uniform int u_pageTop;

flat in ivec3 v_read;
out vec4 fragColor;

void main() {
    int column = int(gl_FragCoord.x - u_viewport.x);
    int row = u_pageTop + int(u_viewport.y + u_viewport.w - gl_FragCoord.y);
    fragColor = texelFetch(u_phases, ivec3(column - v_read.x, v_read.y - row, v_read.z), 0);
}
