#version 330 core
// Sole clips (GLClipCopies, the GPU policy), every one in one instanced
// draw: instance k is clip k's rectangle, read from its picture painted
// once over the background at the phase nearest its x this frame. The
// CPU's work a frame is one texel a clip (its whole pixels and phase).

uniform isampler2D u_clips;    // 1024 texels a row, two a clip: (x0, y0, width, height) in scene pixels;
                               // (its picture's first row, the path x of the picture's column 0, 0, 0)
uniform isampler2D u_state;    // 1024 texels a row, one a clip: (whole pixels, phase) this frame; phase -1: not drawn
uniform int u_textureRows;     // rows of every phase's picture (GL's rows, bottom to top)
uniform vec4 u_viewport;       // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;         // scene row shown at the area's top
uniform int u_first;           // the first clip this page's draw holds (those that can reach its rows)

flat out ivec3 v_read;         // texel column = scene column - x; texel row = y - scene row; layer z (the phase)

ivec2 at(int i) { return ivec2(i & 1023, i >> 10); }

void main() {
    int k = u_first + gl_InstanceID;
    ivec4 rect = texelFetch(u_clips, at(2 * k), 0);
    ivec4 picture = texelFetch(u_clips, at(2 * k + 1), 0);
    ivec4 state = texelFetch(u_state, at(k), 0);
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    // A clip not drawn this frame (its x not a number) has no area.
    vec2 scene = vec2(rect.xy) + (state.y < 0 ? vec2(0.0) : corner * vec2(rect.zw));
    v_read = ivec3(state.x + picture.y, u_textureRows - 1 - picture.x + rect.y, max(state.y, 0));
    gl_Position = vec4(2.0 * scene.x / u_viewport.z - 1.0, 1.0 - 2.0 * (scene.y - float(u_pageTop)) / u_viewport.w, 0.0, 1.0);
}
