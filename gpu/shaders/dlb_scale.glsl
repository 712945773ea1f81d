// dlb_scale.glsl — two-phase skinning with scale/shear joints (DQ paper 4.2;
// CPU method `dlb_scale`): phase one blends the non-rigid parts S_i linearly
// (LBS, no rotations involved), phase two applies DLB of the rigid parts in
// the fast form of Algorithm 1 (signs precomputed along the hierarchy).  The
// normal goes through the inverse transpose of the blended S (its cofactor
// matrix: rows r1 x r2, r2 x r0, r0 x r1, up to det), renormalised.
// Per joint: dual quaternion (x, y, z, w) + (x, y, z, w), then S_i's 3 rows.
void skin(out vec3 pos, out vec3 nrm)
{
    vec4 b0, be, s0 = vec4(0.0), s1 = vec4(0.0), s2 = vec4(0.0);
    dq_blend(b0, be);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        int j = SKB_JOINT_VEC4 * a_joint[i];
        s0 += a_weight[i] * u_joint[j + 2];
        s1 += a_weight[i] * u_joint[j + 3];
        s2 += a_weight[i] * u_joint[j + 4];
    }
    vec4 p = vec4(a_pos, 1.0);
    vec3 v = vec3(dot(s0, p), dot(s1, p), dot(s2, p));
    vec3 n = normalize(vec3(dot(cross(s1.xyz, s2.xyz), a_nrm), dot(cross(s2.xyz, s0.xyz), a_nrm),
                            dot(cross(s0.xyz, s1.xyz), a_nrm)));
    dq_apply(b0, be, v, n, pos, nrm);
}
