// dlb_fast.glsl — DQ paper Algorithm 1: blend the joints' dual quaternions
// (signs fixed on the CPU along the hierarchy, DQ paper 4.1), divide both parts
// by |b0| and transform with eq. 15 (no matrix, no full normalisation); the
// blend and the transform are dq_blend and dq_apply of skin_util.glsl.
void skin(out vec3 pos, out vec3 nrm)
{
    vec4 b0, be;
    dq_blend(b0, be);
    dq_apply(b0, be, a_pos, a_nrm, pos, nrm);
}
