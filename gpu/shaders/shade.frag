#version 450 core
// shade.frag — two-sided Lambert shading with a fixed light, for the pictures.
layout(location = 1) in vec3 o_nrm;
layout(location = 1) uniform vec3 u_color;
layout(location = 0) out vec4 f_color;

void main()
{
    vec3 n = normalize(o_nrm);
    vec3 l = normalize(vec3(0.4, 0.7, 0.6));
    float d = abs(dot(n, l));
    f_color = vec4(u_color * (0.25 + 0.75 * d), 1.0);
}
