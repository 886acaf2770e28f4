#version 330 core
// The CPU strategy's frame shown from the memory it was drawn into
// (`SharedFramePresenter`): a buffer texture of RGBA8 words, rows stored
// top to bottom as the CPU rasteriser writes them fastest, read texel by
// texel (so the flip costs nothing); drawn over the viewport the frame's top
// rows fill (overlay.vert.glsl's quad), without blending.

uniform samplerBuffer u_frame;
uniform ivec2 u_origin;   // the framebuffer pixel of the frame's bottom-left shown pixel
uniform int u_width;      // texels a row
uniform int u_bottomRow;  // the frame's row shown at u_origin.y (rows above it are the rows before it)
out vec4 fragColor;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) - u_origin;
    fragColor = texelFetch(u_frame, (u_bottomRow - p.y) * u_width + p.x);
}
