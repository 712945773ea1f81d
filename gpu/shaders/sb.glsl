// sb.glsl — spherical blend skinning (Kavan & Zara 2005; thesis 3.1-3.3,
// Alg. 3.1 lines 7-9, eq. 3.7; DQ paper Fig. 1): QLB about the rotation
// centre r_c of the vertex's joint set,
//   v' = Q (v - r_c) + sum_i w_i C_i r_c,
// with sb's blend: quaternions with w >= 0, DQ paper Algorithm 2 against the
// first influence of weight > 0 (slot 0 after upload, joint 0 below),
// Q = s/|s|.  r_c is solved per pose on the CPU (one SVD per joint set, the
// CPU method sb's own prepare), which also gives u_i = C_i r_c in double;
// both come from a texture buffer (gpu_skin.c; texel 0 is zero: r_c = 0 for
// a vertex with fewer than two joints, and its u_i - u_0 vanish).
//
// Evaluated as C_0 v + R_0 (Q~ - I)(v - r_c) + sum_i w_i (u_i - u_0), Q~ = q_0* Q,
// the same for convex weights (sum_i w_i = 1).  Why: a set whose joints
// nearly agree has its least-squares centre (thesis eq. 3.1) far away (|r_c|
// up to 1e4 x the model on the datasets here), and Q (v - r_c) +
// sum_i w_i C_i r_c sums terms of size |r_c| that cancel, losing several
// eps_float |r_c|; here only q_0* Q (near I when the joints nearly agree)
// meets v - r_c, and the u_i, rounded once from double, are differenced.
layout(location = 5) in int a_set;         // texel of r_c
layout(location = 6) in ivec4 a_slot;      // texel of u_i = C_i r_c per influence
layout(binding = 0) uniform samplerBuffer u_centers;

vec4 qmul(vec4 a, vec4 b)
{
    return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz));
}

void skin(out vec3 pos, out vec3 nrm)
{
    vec3 c = texelFetch(u_centers, a_set).xyz;
    vec3 u0 = texelFetch(u_centers, a_slot[0]).xyz;
    int j0 = 2 * a_joint[0];
    vec4 q0 = u_joint[j0];
    vec4 s = vec4(0.0);
    vec3 t = vec3(0.0);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        vec4 q = u_joint[2 * a_joint[i]];
        s += (dot(q0, q) < 0.0 ? -a_weight[i] : a_weight[i]) * q;
        t += a_weight[i] * (texelFetch(u_centers, a_slot[i]).xyz - u0);
    }
    s *= inversesqrt(dot(s, s));
    vec4 r = qmul(vec4(-q0.xyz, q0.w), s);   // Q~ = q_0* Q
    pos = qrot(q0, a_pos + qdisp(r, a_pos - c)) + u_joint[j0 + 1].xyz + t;
    nrm = qrot(s, a_nrm);
}
