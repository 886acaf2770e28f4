#version 330 core
// Slides the cached wave: pixel x shows content x + u. Each scene row's
// entry in u_rows says which texture layer holds its cell's picture, the
// cell's phase as a whole-pixel shift, and the row's place in the cell.
// The layer wraps horizontally (GL_REPEAT); coordinates address texel
// centres, so a whole-pixel offset reads texels exactly and a fractional one
// filters linearly between two (the published "amplitude phasing", kept
// visible on purpose).

uniform sampler2DArray u_waves;
uniform sampler2D u_rows;   // per scene row: layer, shift (pixels), row in cell
uniform float u_offset;     // content offset u(t), pixels
uniform vec4 u_viewport;    // x, y (bottom-left), width, height of the area
uniform int u_pageTop;      // first scene row shown at the area's top
uniform vec2 u_layerSize;   // width, rows of one layer

out vec4 fragColor;

void main() {
    vec2 local = gl_FragCoord.xy - u_viewport.xy;             // i + 0.5
    int row = int(u_viewport.w - local.y) + u_pageTop;        // scene row, from the top
    int tableWidth = textureSize(u_rows, 0).x;
    vec3 entry = texelFetch(u_rows, ivec2(row % tableWidth, row / tableWidth), 0).xyz;
    float s = (local.x + u_offset + entry.y) / u_layerSize.x;
    fragColor = texture(u_waves, vec3(s, (entry.z + 0.5) / u_layerSize.y, entry.x));
}
