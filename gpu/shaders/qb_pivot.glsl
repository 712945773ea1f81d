// qb_pivot.glsl — QB' : QB with DQ paper Algorithm 2 in the shader (each
// influence whose quaternion has a negative dot product with the first one's
// enters the quaternion sum with the opposite sign); the centre's translation
// sum keeps the plain weights and, as in qb.glsl, reads each C_i c from the
// per-pose pair texels (Hejl's centre is a joint).  Per joint: quaternion
// (x, y, z, w), t_i (unused here); qrot (eq. 15) is in skin_util.glsl.
layout(binding = 0) uniform samplerBuffer u_qb;

void skin(out vec3 pos, out vec3 nrm)
{
    vec4 pivot = u_joint[2 * a_joint[0]];
    vec4 s = vec4(0.0);
    vec3 t = vec3(0.0);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        vec4 q = u_joint[2 * a_joint[i]];
        s += (dot(pivot, q) < 0.0 ? -a_weight[i] : a_weight[i]) * q;
        t += a_weight[i] * texelFetch(u_qb, a_pair[i]).xyz;
    }
    vec4 c = s * inversesqrt(dot(s, s));
    pos = qrot(c, a_pos - a_center) + t;
    nrm = qrot(c, a_nrm);
}
