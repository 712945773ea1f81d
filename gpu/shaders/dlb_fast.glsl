// dlb_fast.glsl — DQ paper Algorithm 1: blend the joints' dual quaternions
// (signs fixed on the CPU along the hierarchy, DQ paper 4.1), divide both parts
// by |b0| and transform with eq. 15 (no matrix, no full normalisation).
// Quaternions are stored (x, y, z, w): .xyz vector part, .w scalar part.
void skin(out vec3 pos, out vec3 nrm)
{
    vec4 b0 = vec4(0.0), be = vec4(0.0);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        int j = 2 * a_joint[i];
        b0 += a_weight[i] * u_joint[j];
        be += a_weight[i] * u_joint[j + 1];
    }
    float inv = inversesqrt(dot(b0, b0));
    vec3 d0 = b0.xyz * inv, de = be.xyz * inv;
    float a0 = b0.w * inv, ae = be.w * inv;
    pos = a_pos + 2.0 * cross(d0, cross(d0, a_pos) + a0 * a_pos)
        + 2.0 * (a0 * de - ae * d0 + cross(d0, de));
    nrm = a_nrm + 2.0 * cross(d0, cross(d0, a_nrm) + a0 * a_nrm);
}
