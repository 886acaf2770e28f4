#version 330 core
// Slides the cached wave: pixel x shows content x + u. The layer wraps
// horizontally (GL_REPEAT); coordinates address texel centres, so a whole-pixel
// offset reads texels exactly and a fractional one filters linearly between
// two (the published "amplitude phasing", kept visible on purpose).

uniform sampler2DArray u_waves;
uniform float u_offset;    // content offset u(t), pixels
uniform vec4 u_viewport;   // x, y (bottom-left), width, height of the area
uniform float u_pageTop;
uniform vec2 u_layerSize;  // width, rows of one layer

flat in vec4 v_cell;
out vec4 fragColor;

void main() {
    vec2 local = gl_FragCoord.xy - u_viewport.xy;        // i + 0.5
    float rowInCell = u_viewport.w - local.y + u_pageTop - v_cell.x; // r + 0.5
    float s = (local.x + u_offset + v_cell.w) / u_layerSize.x;
    fragColor = texture(u_waves, vec3(s, rowInCell / u_layerSize.y, v_cell.z));
}
