// qb.glsl — QB, Hejl's direct quaternion blending about the fixed per-vertex
// centre c (DQ paper 2.3; CPU method `qb`): Q = normalised sum of w_i q_i
// (signs precomputed on the CPU along the hierarchy, DQ paper 4.1), then
// v' = Q (v - c) + sum_i w_i C_i c.  Hejl's centre is a joint, so C_i c is
// one value per (influence joint, centre joint) pair of the rig: the CPU
// computes each once per pose (methods/qb.c's prepare, gpu_skin.c) and the
// shader only weights them (texel a_pair[i]; a vertex whose centre is not a
// joint has its own texels) instead of rotating c by every q_i.
// Per joint: quaternion (x, y, z, w) and translation t_i (unused here);
// qrot (eq. 15) is in skin_util.glsl.
layout(binding = 0) uniform samplerBuffer u_qb;

void skin(out vec3 pos, out vec3 nrm)
{
    vec4 s = vec4(0.0);
    vec3 t = vec3(0.0);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        s += a_weight[i] * u_joint[2 * a_joint[i]];
        t += a_weight[i] * texelFetch(u_qb, a_pair[i]).xyz;
    }
    vec4 c = s * inversesqrt(dot(s, s));
    pos = qrot(c, a_pos - a_center) + t;
    nrm = qrot(c, a_nrm);
}
