// qlb0.glsl — QLB'0 (thesis 3.3, eq. 3.5; DQ paper 2.2; CPU method qlb0):
// the rotations blended as quaternions with DQ paper Algorithm 2 against the
// first influence (slot 0, weight > 0) and normalised, the joints'
// translations blended linearly, so the rotation is about the origin.
// Per joint: quaternion (x, y, z, w) and translation t_i; qrot (eq. 15) is
// in skin_util.glsl.
void skin(out vec3 pos, out vec3 nrm)
{
    vec4 pivot = u_joint[2 * a_joint[0]];
    vec4 s = vec4(0.0);
    vec3 t = vec3(0.0);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        int j = 2 * a_joint[i];
        vec4 q = u_joint[j];
        s += (dot(pivot, q) < 0.0 ? -a_weight[i] : a_weight[i]) * q;
        t += a_weight[i] * u_joint[j + 1].xyz;
    }
    vec4 c = s * inversesqrt(dot(s, s));
    pos = qrot(c, a_pos) + t;
    nrm = qrot(c, a_nrm);
}
