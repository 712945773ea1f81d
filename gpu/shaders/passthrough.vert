#version 450 core
// passthrough.vert — draws a mesh the CPU has already skinned (any method of
// the registry, shader or not): positions, normals and a per-vertex colour
// (flat grey, or an error heat-map colour) pass through unchanged.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_nrm;
layout(location = 2) in vec3 a_rgb;
layout(location = 0) uniform mat4 u_mvp;
layout(location = 1) out vec3 o_nrm;
layout(location = 2) out vec3 o_rgb;

void main()
{
    o_nrm = a_nrm;
    o_rgb = a_rgb;
    gl_Position = u_mvp * vec4(a_pos, 1.0);
}
