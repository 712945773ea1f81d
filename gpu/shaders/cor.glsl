// cor.glsl — CoR, skinning with optimized centres of rotation (Le & Hodgins,
// SIGGRAPH 2016, eq. 3-4; CPU method `cor`): Q = normalised sum of w_i q_i
// with DQ paper Algorithm 2 in the shader (signs against slot 0, the first
// influence with weight, as the CPU skin path), then
//   v' = Q (v - p*) + sum_i w_i C_i p*,
// the translation being the LBS of the centre: the blended 3x4 rows applied
// to p*.  p* is the vertex's centre of rotation precomputed by cor's bind
// (attribute a_cor; gpu_skin.c uploads it once per mesh).  Per joint: the
// quaternion (x, y, z, w), then the three rows of C_i; qrot (eq. 15) is in
// skin_util.glsl.
void skin(out vec3 pos, out vec3 nrm)
{
    vec4 pivot = u_joint[SKB_JOINT_VEC4 * a_joint[0]];
    vec4 s = vec4(0.0), r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        int j = SKB_JOINT_VEC4 * a_joint[i];
        vec4 q = u_joint[j];
        s += (dot(pivot, q) < 0.0 ? -a_weight[i] : a_weight[i]) * q;
        r0 += a_weight[i] * u_joint[j + 1];
        r1 += a_weight[i] * u_joint[j + 2];
        r2 += a_weight[i] * u_joint[j + 3];
    }
    vec4 c = vec4(a_cor, 1.0);
    vec4 q = s * inversesqrt(dot(s, s));
    pos = qrot(q, a_pos - a_cor) + vec3(dot(r0, c), dot(r1, c), dot(r2, c));
    nrm = qrot(q, a_nrm);
}
