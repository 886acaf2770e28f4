#version 330 core
// Shapes alone in their clips under the GPU policy (GLClipCopies): the
// page one quad (layer.vert.glsl), scissored to where the clips reach.
// Each pixel finds the clip that covers it among its scene row's entries,
// reads that clip's whole pixels and phase this frame (the state pass:
// copies_state.frag.glsl's CLIPS variant) and writes its picture's texel
// there as it is (painted over the background on the CPU; nothing else
// reaches a sole clip, so nothing is blended): the pixels of a whole-pixel
// copy, with no vertex work a clip (on llvmpipe, none on the CPU's thread).

uniform sampler2DArray u_phases; // every picture at each phase (a layer a phase), straight RGBA
// An entry: all a pixel needs of its clip but this frame's x (the clip, its
// first column | its end column << 16, its picture's texture row at scene
// row 0, the path x of its picture's column 0).
uniform isampler2D u_rows;       // a texel a scene row: a row of one clip its entry, the clip as -1 - clip
                                 // (one fetch for a table's rows); any other (its first entry, entries, 0, 0)
uniform isampler2D u_entries;    // a texel an entry, a row's clips in drawing order
uniform sampler2D u_state;       // a texel a clip: (whole pixels, phase; -1: not drawn) this frame
uniform int u_sceneRows;
uniform vec4 u_viewport;         // x, y (bottom-left), width, height of the area in the framebuffer
uniform int u_pageTop;           // scene row shown at the area's top

out vec4 fragColor;

ivec2 at(int i) { return ivec2(i & 1023, i >> 10); }

void main() {
    int column = int(gl_FragCoord.x - u_viewport.x);
    int row = u_pageTop + int(u_viewport.y + u_viewport.w - gl_FragCoord.y);
    if (row < 0 || row >= u_sceneRows) discard;
    ivec4 first = texelFetch(u_rows, at(row), 0);
    bool alone = first.x < 0;
    int from = alone ? 0 : first.x, count = alone ? 1 : first.y;
    // The last drawn wins, as one copy after another would leave it.
    for (int i = from + count - 1; i >= from; i--) {
        ivec4 entry = alone ? ivec4(-1 - first.x, first.yzw) : texelFetch(u_entries, at(i), 0);
        if (column < (entry.y & 0xFFFF) || column >= (entry.y >> 16)) continue;
        vec4 state = texelFetch(u_state, at(entry.x), 0);
        if (state.y < 0.0) continue;
        // Texel column = scene column - whole pixels - the picture's origin; its rows bottom to top.
        fragColor = texelFetch(u_phases, ivec3(column - int(state.x) - entry.w, entry.z - row, int(state.y)), 0);
        return;
    }
    discard;
}
