// qb.glsl — QB, Hejl's direct quaternion blending about the fixed per-vertex
// centre c (DQ paper 2.3; CPU method `qb`): Q = normalised sum of w_i q_i
// (signs precomputed on the CPU along the hierarchy, DQ paper 4.1), then
// v' = Q (v - c) + sum_i w_i C_i c, with C_i c = q_i c q_i* + t_i.
// Per joint: quaternion (x, y, z, w) and translation t_i (w unused);
// qrot (eq. 15) is in skin_util.glsl.
void skin(out vec3 pos, out vec3 nrm)
{
    vec4 s = vec4(0.0);
    vec3 t = vec3(0.0);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        int j = 2 * a_joint[i];
        vec4 q = u_joint[j];
        s += a_weight[i] * q;
        t += a_weight[i] * (qrot(q, a_center) + u_joint[j + 1].xyz);
    }
    vec4 c = s * inversesqrt(dot(s, s));
    pos = qrot(c, a_pos - a_center) + t;
    nrm = qrot(c, a_nrm);
}
