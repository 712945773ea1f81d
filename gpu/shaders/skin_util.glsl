// skin_util.glsl — helpers shared by the quaternion shaders; the loader puts
// this file after common.glsl in every vertex shader (compilers drop what a
// shader does not call, so it costs the others nothing).

// the displacement qrot(q, v) - v of v under the unit quaternion q: DQ paper
// eq. 15 without its leading v (never forms v + ... where only the
// difference is wanted)
vec3 qdisp(vec4 q, vec3 v)
{
    return 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}

// rotate v by the unit quaternion q = (x, y, z, w): DQ paper eq. 15
vec3 qrot(vec4 q, vec3 v)
{
    return v + qdisp(q, v);
}

// b = sum_i w_i q_i over the 4 influences, signs as uploaded; the dual
// quaternion is the first two vec4s of each joint
void dq_blend(out vec4 b0, out vec4 be)
{
    b0 = vec4(0.0);
    be = vec4(0.0);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        int j = SKB_JOINT_VEC4 * a_joint[i];
        b0 += a_weight[i] * u_joint[j];
        be += a_weight[i] * u_joint[j + 1];
    }
}

// DQ paper Algorithm 1 on an unnormalised blend b = b0 + eps be: divide both
// parts by |b0| and transform the point v and the normal n with eq. 15
void dq_apply(vec4 b0, vec4 be, vec3 v, vec3 n, out vec3 pos, out vec3 nrm)
{
    float inv = inversesqrt(dot(b0, b0));
    vec3 d0 = b0.xyz * inv, de = be.xyz * inv;
    float a0 = b0.w * inv, ae = be.w * inv;
    pos = v + 2.0 * cross(d0, cross(d0, v) + a0 * v) + 2.0 * (a0 * de - ae * d0 + cross(d0, de));
    nrm = n + 2.0 * cross(d0, cross(d0, n) + a0 * n);
}
