// main.vert — the vertex entry point: skin the vertex, hand position and
// normal to transform feedback and to the shading fragment shader.
layout(location = 0) uniform mat4 u_mvp;

layout(location = 0) out vec3 o_pos;     // captured by transform feedback
layout(location = 1) out vec3 o_nrm;

void main()
{
    vec3 p, n;
    skin(p, n);
    o_pos = p;
    o_nrm = n;
    gl_Position = u_mvp * vec4(p, 1.0);
}
