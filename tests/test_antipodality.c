/* test_antipodality.c — antipodal quaternions (DQ paper Algorithm 2: the
 * sign fixed against a pivot): blends and skins of the quaternion methods,
 * and DLB at the dual-quaternion level, from matrices and down a joint
 * hierarchy. */

#include "skb_test_blend.h"

static double dq_transform_diff(const struct skb_dq *a, const struct skb_dq *b)
{
    double ma[16], mb[16];
    skb_dq_to_mat4(a, ma);
    skb_dq_to_mat4(b, mb);
    return skb_test_mat_diff(ma, mb, 16);
}

/* DQ paper 4.1, Algorithm 2.  Matrices cannot carry a quaternion's sign, but
 * rotations more than 180 degrees apart (<q1, q2> < 0 for the w >= 0
 * quaternions of the matrices) show it: with the pivot fix the blend of
 * rot(x, 170) and rot(-x, 170) takes the short way (rot(x, 180)), without it
 * the long way (identity). */
static void test_antipodality(void **state)
{
    const char *names[] = { "qlb0", "qb", "sb" };
    const double x[3] = { 1, 0, 0 }, mx[3] = { -1, 0, 0 }, o[3] = { 0, 0, 0 };
    double m1[16], m2[16], a[16], b[16];
    struct skb_params prm;
    struct skb_quat q1, q2, nq2, s, sn, sf;
    screw(x, 170 * DEG, o, 0, m1);
    screw(mx, 170 * DEG, o, 0, m2);
    for (int i = 0; i < 3; i++) {
        const struct skb_method *m = need(names[i]);
        skb_params_default(&prm);
        blend_pair(m, m1, m2, 0.5, o, &prm, a);
        prm.antipodal = SKB_ANTIPODAL_NONE;
        blend_pair(m, m1, m2, 0.5, o, &prm, b);
        assert_near(a[0], 1, TOL_TIGHT); assert_near(a[5], -1, TOL_TIGHT); assert_near(a[10], -1, TOL_TIGHT);
        assert_near(b[0], 1, TOL_TIGHT); assert_near(b[5], 1, TOL_TIGHT); assert_near(b[10], 1, TOL_TIGHT);
    }
    /* at the quaternion level: -q2 in place of q2 changes nothing with the
     * pivot fix, and cancels without it */
    double w[2] = { 0.5, 0.5 };
    struct skb_quat qs[2];
    rot_quat(m1, &q1);
    skb_quat_from_axis_angle(x, 40 * DEG, &q2);
    skb_quat_scale(&q2, -1, &nq2);
    qs[0] = q1; qs[1] = q2;
    skb_quat_blend(2, w, NULL, qs, 1, &s);
    qs[1] = nq2;
    skb_quat_blend(2, w, NULL, qs, 1, &sn);
    assert_near(s.w, sn.w, TOL_EXACT); assert_near(s.x, sn.x, TOL_EXACT);
    skb_quat_blend(2, w, NULL, qs, 0, &sf);
    assert_true(fabs(sf.w - s.w) + fabs(sf.x - s.x) > 0.1);
    /* the pivot is the first term of non-zero weight */
    double w0[3] = { 0, 0.5, 0.5 };
    struct skb_quat q3[3] = { nq2, q2, q2 };
    skb_quat_blend(3, w0, NULL, q3, 1, &sn);
    assert_near(sn.w, q2.w, TOL_EXACT);
}

/* the skin path honours the antipodal setting too (prepare stores it) */
static void test_antipodality_skin(void **state)
{
    const char *names[] = { "qlb0", "qb", "sb" };
    const double x[3] = { 1, 0, 0 }, mx[3] = { -1, 0, 0 }, o[3] = { 0, 0, 0 };
    double pos[3] = { 0, 1, 0 }, nrm[3] = { 0, 0, 1 }, w[4] = { 0.5, 0.5, 0, 0 }, center[3] = { 0, 0, 0 };
    double mats[32], out[3], nout[3];
    int joint[4] = { 0, 1, 0, 0 };
    struct skb_mesh mesh = { 0 };
    struct skb_pose pose = { 2, mats, NULL };
    struct skb_params prm;
    char msg[256];
    mesh.nverts = 1; mesh.njoints = 2;
    mesh.pos = pos; mesh.nrm = nrm; mesh.joint = joint; mesh.weight = w; mesh.center = center;
    screw(x, 170 * DEG, o, 0, mats);
    screw(mx, 170 * DEG, o, 0, mats + 16);
    for (int i = 0; i < 3; i++) {
        struct skb_skinner s;
        assert_int_equal(skb_skin_init(&s, need(names[i]), &mesh, msg, sizeof msg), 0);
        skb_params_default(&prm);
        assert_int_equal(skb_skin_pose(&s, &pose, &prm, out, nout, msg, sizeof msg), 0);
        assert_near(out[1], -1, TOL_TIGHT);            /* rot(x, 180) */
        assert_near(nout[2], -1, TOL_TIGHT);
        prm.antipodal = SKB_ANTIPODAL_NONE;
        assert_int_equal(skb_skin_pose(&s, &pose, &prm, out, nout, msg, sizeof msg), 0);
        assert_near(out[1], 1, TOL_TIGHT);             /* identity: the long way */
        skb_skin_fini(&s);
    }
}

/* DQ paper 4.1 at the dual quaternion level: flipping an input's sign does
 * not change the resolved blend, and does change the unresolved one */
static void test_antipodal_dq_level(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_RANDOM; k++) {
        double a[16], w[3];
        struct skb_dq q[3], f[3], g[3], h[3], b1, b2, u1, u2;
        for (int i = 0; i < 3; i++) {
            skb_test_random_rigid(r, 0.6 * SKB_PI, 2, a);
            skb_dq_from_mat4(a, &q[i]);
        }
        skb_test_random_weights(r, 3, w);
        int flip = (int)gsl_rng_uniform_int(r, 3);
        for (int i = 0; i < 3; i++) {
            f[i] = q[i];
            g[i] = q[i];
            h[i] = q[i];
        }
        skb_dq_scale(&f[flip], -1, &f[flip]);
        assert_int_equal(skb__dlb_sum(3, w, g, SKB_ANTIPODAL_PIVOT, &b1), 0);
        assert_int_equal(skb__dlb_sum(3, w, f, SKB_ANTIPODAL_PIVOT, &b2), 0);
        skb_dq_normalize(&b1, &u1);
        skb_dq_normalize(&b2, &u2);
        assert_true(dq_transform_diff(&u1, &u2) < TOL_TIGHT);
        /* off: the flipped input is blended the long way round */
        for (int i = 0; i < 3; i++)
            f[i] = h[i];
        skb_dq_scale(&f[flip], -1, &f[flip]);
        assert_int_equal(skb__dlb_sum(3, w, h, SKB_ANTIPODAL_NONE, &b1), 0);
        int rc = skb__dlb_sum(3, w, f, SKB_ANTIPODAL_NONE, &b2);
        if (rc == 0) {
            skb_dq_normalize(&b1, &u1);
            skb_dq_normalize(&b2, &u2);
            assert_true(dq_transform_diff(&u1, &u2) > 1e-3);
        } else {
            assert_int_equal(rc, SKB_ECANCEL);
        }
    }
    gsl_rng_free(r);
}

/* the same through prm->antipodal on matrices: +-170 deg about z give
 * quaternions of opposite hemispheres (both converted with w >= 0) */
static void test_antipodal_matrices(void **state)
{
    double mats[32], out[16], ref[16];
    struct skb_params prm;
    skb_params_default(&prm);
    rot_z(170 * SKB_PI / 180, mats);
    rot_z(-170 * SKB_PI / 180, mats + 16);
    rot_z(SKB_PI, ref);
    const char *names[] = { "dlb", "dib", "sclerp" };
    for (int i = 0; i < 3; i++) {
        const struct skb_method *m = need(names[i]);
        int modes[2] = { SKB_ANTIPODAL_PIVOT, SKB_ANTIPODAL_HIERARCHY };
        for (int k = 0; k < 2; k++) {
            prm.antipodal = modes[k];
            assert_int_equal(blend2(m, mats, 0.5, &prm, out, NULL), 0);
            if (skb_test_mat_diff(out, ref, 16) > TOL_TIGHT)
                fail_msg("%s, mode %d: the short way through 180 deg not taken", m->name, modes[k]);
        }
        prm.antipodal = SKB_ANTIPODAL_NONE;
        assert_int_equal(blend2(m, mats, 0.5, &prm, out, NULL), 0);
        skb_mat4_identity(ref + 0);
        if (skb_test_mat_diff(out, ref, 16) > TOL_TIGHT)
            fail_msg("%s, resolution off: expected the long way (identity)", m->name);
        rot_z(SKB_PI, ref);
    }
}

/* hierarchy signs in the skin path: a chain 0 <- 1 <- 2 at 0, 170, 340 deg
 * about z.  Along the tree joint 2 continues to 340 deg (quaternion sign
 * flipped against joint 1): vertex A (joints 1,2) agrees with pivot; vertex B
 * (joints 0,2) shows the approximation of DQ paper 4.1 (170 deg, the long
 * way), where pivot gives -10 deg; parent = NULL (chain) gives the same. */
static void test_antipodal_hierarchy_skin(void **state)
{
    double pos[6] = { 1, 0, 0, 1, 0, 0 }, mats[48], out[6];
    int joint[8] = { 1, 2, 0, 0, 0, 2, 0, 0 }, parent[3] = { -1, 0, 1 };
    double weight[8] = { 0.5, 0.5, 0, 0, 0.5, 0.5, 0, 0 };
    skb_mat4_identity(mats);
    rot_z(170 * SKB_PI / 180, mats + 16);
    rot_z(340 * SKB_PI / 180, mats + 32);
    struct skb_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    mesh.nverts = 2; mesh.njoints = 3; mesh.pos = pos; mesh.joint = joint; mesh.weight = weight;
    struct skb_pose pose = { 3, mats, NULL };
    struct skb_params prm;
    skb_params_default(&prm);
    const char *names[] = { "dlb", "dib", "dlb_scale" };
    for (int i = 0; i < 3; i++) {
        const struct skb_method *m = need(names[i]);
        struct skb_skinner s;
        char msg[256];
        double ang[3][2];
        int modes[3] = { SKB_ANTIPODAL_PIVOT, SKB_ANTIPODAL_HIERARCHY, SKB_ANTIPODAL_NONE };
        for (int tree = 0; tree < 2; tree++) {
            mesh.parent = tree ? parent : NULL;
            assert_int_equal(skb_skin_init(&s, m, &mesh, msg, sizeof msg), 0);
            for (int k = 0; k < 3; k++) {
                prm.antipodal = modes[k];
                assert_int_equal(skb_skin_pose(&s, &pose, &prm, out, NULL, msg, sizeof msg), 0);
                for (int v = 0; v < 2; v++)
                    ang[k][v] = atan2(out[3 * v + 1], out[3 * v]) * 180 / SKB_PI;
            }
            skb_skin_fini(&s);
            /* vertex A: mean of 170 and 340 the short way = 255 = -105 deg */
            assert_near(ang[0][0], -105, 1e-6);
            assert_near(ang[1][0], -105, 1e-6);
            assert_near(ang[2][0], 75, 1e-6);     /* off: 170 and -20 -> 75 */
            /* vertex B: pivot -10, hierarchy 170, none -10 */
            assert_near(ang[0][1], -10, 1e-6);
            assert_near(ang[1][1], 170, 1e-6);
            assert_near(ang[2][1], -10, 1e-6);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_antipodality),
        cmocka_unit_test(test_antipodality_skin),
        cmocka_unit_test(test_antipodal_dq_level),
        cmocka_unit_test(test_antipodal_matrices),
        cmocka_unit_test(test_antipodal_hierarchy_skin),
    };
    return cmocka_run_group_tests_name("antipodality", tests, NULL, NULL);
}
