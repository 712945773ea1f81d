// dlb_pivot.glsl — DLB' : DQ paper Algorithm 2 in the shader (each influence
// whose rotation part has a negative dot product with that of the first
// influence enters with the opposite sign), then Algorithm 1 (dq_apply).
// Quaternions are stored (x, y, z, w).
void skin(out vec3 pos, out vec3 nrm)
{
    vec4 pivot = u_joint[2 * a_joint[0]];
    vec4 b0 = vec4(0.0), be = vec4(0.0);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        int j = 2 * a_joint[i];
        vec4 q0 = u_joint[j];
        float w = dot(pivot, q0) < 0.0 ? -a_weight[i] : a_weight[i];
        b0 += w * q0;
        be += w * u_joint[j + 1];
    }
    dq_apply(b0, be, a_pos, a_nrm, pos, nrm);
}
