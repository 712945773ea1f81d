// sb.glsl — spherical blend skinning (Kavan & Zara 2005; thesis 3.1-3.3,
// Alg. 3.1 lines 7-9, eq. 3.7; DQ paper Fig. 1): QLB about the rotation
// centre r_c of the vertex's joint set,
//   v' = Q (v - r_c) + sum_i w_i C_i r_c,
// with sb's blend: quaternions with w >= 0, DQ paper Algorithm 2 against the
// first influence of weight > 0 (slot 0 after upload), Q = s/|s|.  r_c is
// solved per pose on the CPU (one SVD per joint set, the CPU method sb's own
// prepare) as DQ paper Fig. 1 did; the CPU also turns each set's data into a
// texture-buffer block (gpu_skin.c): the set's frame F (r_c's direction to
// +z), F r_c, and per joint k of the set F (q_ref* q_k) F* and
// e_k = C_k r_c - C_ref r_c, ref the set's first joint (a vertex with fewer
// than two joints reads block 0: F = 1, r_c = 0, one identity pair, ref its
// joint).  The shader evaluates the same v' as
//   C_ref v + R_ref F* (Q' - I) F (v - r_c) + sum_i w_i e_i,  Q' = F q_ref* Q F*,
// exact for convex weights (sum_i w_i = 1).  Why: a set whose joints nearly
// agree has its least-squares centre far out (thesis eq. 3.1; |r_c| up to
// 1e4 x the model on the datasets here).  The textbook order sums terms of
// size |r_c| that cancel, losing eps_float |r_c| (verification failed by 30x
// on wuson); in F's frame r_c lies on z, Q' nearly turns about z, and the
// large z component only meets Q''s small x, y parts, which float keeps to
// full relative precision.
layout(binding = 0) uniform samplerBuffer u_sb;

void skin(out vec3 pos, out vec3 nrm)
{
    vec4 f = texelFetch(u_sb, a_set.x), fc = vec4(-f.xyz, f.w);
    vec3 frc = texelFetch(u_sb, a_set.x + 1).xyz;
    vec4 pivot = texelFetch(u_sb, a_slot[0]);
    vec4 s = vec4(0.0);
    vec3 t = vec3(0.0);
    SKB_UNROLL for (int i = 0; i < 4; i++) {
        vec4 r = texelFetch(u_sb, a_slot[i]);
        s += (dot(pivot, r) < 0.0 ? -a_weight[i] : a_weight[i]) * r;
        t += a_weight[i] * texelFetch(u_sb, a_slot[i] + 1).xyz;
    }
    s *= inversesqrt(dot(s, s));                               // Q'
    vec3 d = qrot(fc, qdisp(s, qrot(f, a_pos) - frc));         // (Q~ - I)(v - r_c)
    int j = 2 * a_set.y;
    vec4 q = u_joint[j];
    pos = qrot(q, a_pos + d) + u_joint[j + 1].xyz + t;
    nrm = qrot(q, qrot(fc, qrot(s, qrot(f, a_nrm))));
}
