/* test_qb_centre.c — QB's fixed rotation centre: kept under blending, its
 * default per-vertex centre, the pair table's skin equal to the per-vertex
 * one, and the quaternion methods refusing a pose with scale. */

#include "skb_test_blend.h"

/* QB about c of rotations about c: c stays fixed, and the result is
 * T_c QLB'_0(T_c^-1 C_i T_c) T_c^-1 (thesis Lemma 3.3) */
static void test_qb_keeps_centre(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_RANDOM; k++) {
        double c[3], a1[3], a2[3], m1[16], m2[16], b[16], e[3], t[16], ti[16], l1[16], l2[16], tmp[16], b0[16], want[16];
        random_point(r, 3, c);
        random_unit(r, a1);
        random_unit(r, a2);
        screw(a1, 0.9 * SKB_PI * gsl_rng_uniform(r), c, 0, m1);
        screw(a2, 0.9 * SKB_PI * gsl_rng_uniform(r), c, 0, m2);
        double w = gsl_rng_uniform(r);
        blend_pair(need("qb"), m1, m2, w, c, NULL, b);
        skb_mat4_apply(b, c, e);
        for (int i = 0; i < 3; i++)
            assert_near(e[i], c[i], TOL_TIGHT);
        skb_mat4_identity(t);
        t[3] = c[0]; t[7] = c[1]; t[11] = c[2];
        skb_mat4_inv_rigid(t, ti);
        skb_mat4_mul(ti, m1, tmp); skb_mat4_mul(tmp, t, l1);
        skb_mat4_mul(ti, m2, tmp); skb_mat4_mul(tmp, t, l2);
        blend_pair(need("qlb0"), l1, l2, w, NULL, NULL, b0);
        skb_mat4_mul(t, b0, tmp); skb_mat4_mul(tmp, ti, want);
        assert_true(skb_test_mat_diff(b, want, 16) < TOL_TIGHT);
    }
    gsl_rng_free(r);
}

/* QB without per-vertex centres: the rest position of the influence whose
 * parent also influences the vertex, else of the highest-weight joint */
static void test_qb_default_centre(void **state)
{
    gsl_rng *r = skb_test_rng();
    double pos[3 * SM_VERTS], weight[4 * SM_VERTS], mats[64], out[3 * SM_VERTS];
    int joint[4 * SM_VERTS], parent[4];
    double rest[12];
    /* expected centre joint per vertex of the small mesh */
    static const int want[SM_VERTS] = { 0, 1, 1, 2, 2, 0, 1 };
    struct skb_mesh mesh;
    struct skb_skinner s;
    char msg[256];
    const struct skb_method *qb = need("qb");
    small_mesh(&mesh, pos, joint, weight, r, mats);
    struct skb_pose pose = { 4, mats, NULL };
    /* neither centres nor joint positions: bind refuses, naming the need */
    assert_int_equal(skb_skin_init(&s, qb, &mesh, msg, sizeof msg), SKB_ENOCENTER);
    assert_non_null(strstr(msg, "qb"));
    assert_non_null(strstr(msg, "centre"));
    memcpy(parent, sm_parent, sizeof parent);
    memcpy(rest, sm_rest, sizeof rest);
    mesh.parent = parent;
    mesh.joint_rest = rest;
    assert_int_equal(skb_skin_init(&s, qb, &mesh, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
    for (int v = 0; v < SM_VERTS; v++) {
        double bm[64], bw[4], res[16], p[3];
        int n = 0;
        for (int k = 0; k < 4; k++)
            if (weight[4 * v + k] > 0) {
                memcpy(bm + 16 * n, mats + 16 * joint[4 * v + k], sizeof(double) * 16);
                bw[n++] = weight[4 * v + k];
            }
        struct skb_blend_in in = { n, bw, bm, rest + 3 * want[v] };
        assert_int_equal(skb_blend(qb, &in, NULL, res, NULL, msg, sizeof msg), 0);
        skb_mat4_apply(res, pos + 3 * v, p);
        for (int i = 0; i < 3; i++)
            if (fabs(p[i] - out[3 * v + i]) > TOL_TIGHT)
                fail_msg("vertex %d: skin %g, blend about joint %d %g", v, out[3 * v + i], want[v], p[i]);
    }
    skb_skin_fini(&s);
    gsl_rng_free(r);
}

/* QB's per-joint precomputation (Hejl's centres are joints): C_i c once per
 * (joint, centre joint) pair per pose gives the per-vertex form's skin bit
 * for bit; a vertex whose centre is not a joint keeps the per-vertex form */
static void test_qb_pair_table(void **state)
{
    gsl_rng *r = skb_test_rng();
    double pos[3 * SM_VERTS], weight[4 * SM_VERTS], mats[64], out[3 * SM_VERTS], ctr[3 * SM_VERTS];
    double rest[12], rows[48];
    int joint[4 * SM_VERTS], parent[4], pv = -1;
    struct skb_quat q[4];
    struct skb_mesh mesh;
    struct skb_skinner s;
    char msg[256];
    const struct skb_method *qb = need("qb");
    small_mesh(&mesh, pos, joint, weight, r, mats);
    memcpy(parent, sm_parent, sizeof parent);
    memcpy(rest, sm_rest, sizeof rest);
    mesh.parent = parent;
    mesh.joint_rest = rest;
    struct skb_pose pose = { 4, mats, NULL };
    skb_qlb_prepare(4, mats, q, rows);
    for (int pass = 0; pass < 2; pass++) {
        /* pass 1: the mesh's own centres, vertex 2's moved off its joint */
        assert_int_equal(skb__qb_default_centers(&mesh, ctr), 0);
        ctr[6] += 0.25 * pass;
        mesh.center = pass ? ctr : NULL;
        assert_int_equal(skb_skin_init(&s, qb, &mesh, msg, sizeof msg), 0);
        assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
        int np = skb__qb_pairs(&mesh, s.state, &pv);
        assert_true(np > 0 && np <= 4 * SM_VERTS);
        assert_int_equal(pv, SM_VERTS - pass);
        for (int v = 0; v < SM_VERTS; v++) {
            double p[3];
            assert_int_equal(skb_qlb_vertex(4, joint + 4 * v, weight + 4 * v, q, rows, ctr + 3 * v, 1, pos + 3 * v,
                                            NULL, p, NULL), 0);
            for (int k = 0; k < 3; k++)
                if (p[k] != out[3 * v + k])
                    fail_msg("pass %d vertex %d: pair table %.17g, per vertex %.17g", pass, v, out[3 * v + k], p[k]);
        }
        skb_skin_fini(&s);
    }
    gsl_rng_free(r);
}

/* quaternion methods have no scale/shear form: a pose with scale is refused */
static void test_scaled_pose_refused(void **state)
{
    const char *names[] = { "qlb0", "qb", "sb", "logm" };
    double pos[3 * SM_VERTS], weight[4 * SM_VERTS], mats[64], scale[64], out[3 * SM_VERTS];
    int joint[4 * SM_VERTS], parent[4];
    double rest[12];
    struct skb_mesh mesh;
    char msg[256];
    small_mesh(&mesh, pos, joint, weight, NULL, mats);
    small_mesh(&mesh, pos, joint, weight, NULL, scale);
    memcpy(parent, sm_parent, sizeof parent);
    memcpy(rest, sm_rest, sizeof rest);
    mesh.parent = parent;
    mesh.joint_rest = rest;
    struct skb_pose pose = { 4, mats, scale };
    for (int i = 0; i < 4; i++) {
        struct skb_skinner s;
        assert_int_equal(skb_skin_init(&s, need(names[i]), &mesh, msg, sizeof msg), 0);
        assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), SKB_ENOTSUP);
        skb_skin_fini(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qb_keeps_centre),
        cmocka_unit_test(test_qb_default_centre),
        cmocka_unit_test(test_qb_pair_table),
        cmocka_unit_test(test_scaled_pose_refused),
    };
    return cmocka_run_group_tests_name("qb_centre", tests, NULL, NULL);
}
