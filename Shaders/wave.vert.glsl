#version 330 core
// The GPU strategy: one quad per cell, all cells in one instanced draw.
// Instance data per cell: first scene row, rows, texture layer, and the
// cell's phase as a whole-pixel shift of its layer.

layout(location = 0) in vec2 a_corner; // (0,0) to (1,1)
layout(location = 1) in vec4 a_cell;   // top row, rows, layer, shift (pixels)

uniform vec2 u_target;   // size of the area drawn into, in pixels
uniform float u_pageTop; // first scene row shown at the top of that area

flat out vec4 v_cell;

void main() {
    float row = a_cell.x - u_pageTop + a_corner.y * a_cell.y;
    gl_Position = vec4(a_corner.x * 2.0 - 1.0, 1.0 - 2.0 * row / u_target.y, 0.0, 1.0);
    v_cell = a_cell;
}
