#version 330 core
// One batch of layers: a single quad covering the whole target area. Which
// layer a pixel belongs to is looked up in the fragment shader, so the
// per-frame vertex work is the same for 1 cell or 1000 (on a software
// driver vertex work is CPU time on the calling thread).

void main() {
    // Triangle strip corners (0,0) (1,0) (0,1) (1,1) from the vertex index alone.
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
