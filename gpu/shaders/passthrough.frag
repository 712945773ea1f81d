#version 450 core
// passthrough.frag — two-sided Lambert shading of the per-vertex colour, with
// the light of shade.frag so CPU-skinned pictures match the shader pictures.
layout(location = 1) in vec3 o_nrm;
layout(location = 2) in vec3 o_rgb;
layout(location = 0) out vec4 f_color;

void main()
{
    vec3 n = normalize(o_nrm);
    vec3 l = normalize(vec3(0.4, 0.7, 0.6));
    float d = abs(dot(n, l));
    f_color = vec4(o_rgb * (0.25 + 0.75 * d), 1.0);
}
