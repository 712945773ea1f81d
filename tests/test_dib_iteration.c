/* test_dib_iteration.c — DIB's iteration (thesis Alg. 4.1, DQ paper 4.1):
 * two inputs give sclerp, the iteration cap, the work of the algorithm as
 * written and the per-pose iteration statistics. */

#include "skb_test_blend.h"

/* thesis Lemma 4.7: DIB of two transforms is ScLERP after one iteration */
static void test_dib_two_is_sclerp(void **state)
{
    gsl_rng *r = skb_test_rng();
    struct skb_params prm;
    skb_params_default(&prm);
    prm.dib_precision = 1e-9;   /* well above rounding, well below the DLB-ScLERP gap */
    for (int k = 0; k < N_RANDOM; k++) {
        double a[32], o1[16], o2[16], t = 0.05 + 0.4 * gsl_rng_uniform(r);
        struct skb_blend_stats st;
        skb_test_random_rigid(r, 0.9 * SKB_PI, 3, a);
        skb_test_random_rigid(r, 0.9 * SKB_PI, 3, a + 16);
        /* keep the pair far enough apart that DLB is not already ScLERP to 1e-9 */
        double ia[16], rel[16], om[3], vv[3];
        skb_mat4_inv_rigid(a, ia);
        skb_mat4_mul(ia, a + 16, rel);
        skb_mat4_log_rigid(rel, om, vv);
        if (skb_v3_norm(om) < 0.3)
            continue;
        assert_int_equal(blend2(need("dib"), a, t, &prm, o1, &st), 0);
        assert_int_equal(blend2(need("sclerp"), a, t, &prm, o2, NULL), 0);
        if (st.iterations != 1)
            fail_msg("case %d: DIB took %d iterations, Lemma 4.7 says 1", k, st.iterations);
        assert_true(skb_test_mat_diff(o1, o2, 16) < TOL_TIGHT);
    }
    gsl_rng_free(r);
}

/* DIB with n > 2 converges in a few iterations; the cap returns the current
 * estimate (rigid, finite) with iterations = cap and no error */
static void test_dib_cap(void **state)
{
    gsl_rng *r = skb_test_rng();
    const struct skb_method *m = need("dib");
    struct skb_params prm;
    skb_params_default(&prm);
    prm.dib_precision = 1e-10;
    prm.dib_max_iter = 50;
    int worst = 0;
    for (int k = 0; k < N_RANDOM; k++) {
        double a[64], w[4], full[16], capped[16], c[3] = { 0, 0, 0 };
        char msg[256];
        struct skb_blend_stats st;
        for (int i = 0; i < 4; i++)
            skb_test_random_rigid(r, 0.8 * SKB_PI, 3, a + 16 * i);
        skb_test_random_weights(r, 4, w);
        struct skb_blend_in in = { 4, w, a, c };
        prm.dib_max_iter = 50;
        assert_int_equal(skb_blend(m, &in, &prm, full, &st, msg, sizeof msg), 0);
        assert_true(st.iterations >= 1 && st.iterations < 50);
        if (st.iterations > worst)
            worst = st.iterations;
        /* the converged result is a fixed point: sum_i w_i log(b* q_i) = 0 */
        struct skb_dq b, bc, d, l, x;
        memset(&x, 0, sizeof x);
        skb_dq_from_mat4(full, &b);
        struct skb_dq q[4];
        for (int i = 0; i < 4; i++)
            skb_dq_from_mat4(a + 16 * i, &q[i]);
        skb__dq_antipodal_pivot(4, 0, q);   /* the signs DIB blended with */
        if (skb_quat_dot(&q[0].r, &b.r) < 0)
            skb_dq_scale(&b, -1, &b);
        skb_dq_conj(&b, &bc);
        for (int i = 0; i < 4; i++) {
            skb_dq_mul(&bc, &q[i], &d);
            skb_dq_log(&d, &l);
            skb_dq_axpy(w[i], &l, &x);
        }
        double nx = sqrt(skb_quat_dot(&x.r, &x.r) + skb_quat_dot(&x.d, &x.d));
        if (!(nx < 1e-9))
            fail_msg("case %d: residual %.3g after %d iterations", k, nx, st.iterations);
        if (st.iterations < 2)
            continue;
        prm.dib_max_iter = 1;
        assert_int_equal(skb_blend(m, &in, &prm, capped, &st, msg, sizeof msg), 0);
        assert_int_equal(st.iterations, 1);
        assert_true(skb_mat4_rigid_error(capped) < TOL_TIGHT);
        assert_true(skb_test_mat_diff(capped, full, 16) > 1e-11);
    }
    print_message("DIB n=4: worst %d iterations to 1e-10\n", worst);
    gsl_rng_free(r);
}

/* the skin path reports the worst vertex's DIB iterations via pose_stats */
static void test_dib_pose_stats(void **state)
{
    gsl_rng *r = skb_test_rng();
    enum { NV = 50, NJ = 4 };
    double pos[3 * NV], weight[4 * NV], mats[16 * NJ], out[3 * NV];
    int joint[4 * NV];
    for (int v = 0; v < NV; v++) {
        skb_test_random_weights(r, 4, weight + 4 * v);
        for (int k = 0; k < 4; k++)
            joint[4 * v + k] = k;
        for (int k = 0; k < 3; k++)
            pos[3 * v + k] = gsl_rng_uniform(r);
    }
    for (int j = 0; j < NJ; j++)
        skb_test_random_rigid(r, 0.8 * SKB_PI, 2, mats + 16 * j);
    struct skb_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    mesh.nverts = NV; mesh.njoints = NJ; mesh.pos = pos; mesh.joint = joint; mesh.weight = weight;
    struct skb_pose pose = { NJ, mats, NULL };
    struct skb_params prm;
    skb_params_default(&prm);
    prm.dib_precision = 1e-12;
    const struct skb_method *m = need("dib");
    struct skb_skinner s;
    char msg[256];
    assert_int_equal(skb_skin_init(&s, m, &mesh, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &pose, &prm, out, NULL, msg, sizeof msg), 0);
    struct skb_pose_stats ps;
    assert_non_null(m->pose_stats);
    assert_int_equal(m->pose_stats(&mesh, s.state, &ps), 0);
    skb_skin_fini(&s);
    int worst = 0;
    for (int v = 0; v < NV; v++) {
        double res[16], c[3] = { 0, 0, 0 };
        double bm[64];
        struct skb_blend_stats st;
        for (int k = 0; k < 4; k++)
            memcpy(bm + 16 * k, mats + 16 * joint[4 * v + k], sizeof(double) * 16);
        struct skb_blend_in in = { 4, weight + 4 * v, bm, c };
        assert_int_equal(skb_blend(m, &in, &prm, res, &st, msg, sizeof msg), 0);
        if (st.iterations > worst)
            worst = st.iterations;
    }
    assert_true(worst >= 2);
    assert_int_equal(ps.max_iterations, worst);
    gsl_rng_free(r);
}

/* thesis Alg. 4.1 as written is DIB's default, on the blend and the skin
 * path: one input and two inputs run the pass that finds |x| < p (4.3: "the
 * second pass through the loop finds that |x| is zero"), so n = 2 costs 2n
 * logs and 2 exps, n = 1 one log and one exp; the shortcut (Lemma 4.7)
 * takes n = 2 in one log (skin) / one pass (blend) and returns one input */
static void test_dib_as_written_work(void **state)
{
    enum { NV = 2, NJ = 2 };
    double pos[3 * NV] = { 0.5, 1, 0,  0.2, 0.3, 0.1 };
    double weight[4 * NV] = { 0.7, 0.3, 0, 0,  1, 0, 0, 0 };
    int joint[4 * NV] = { 0, 1, 0, 0,  1, 0, 0, 0 };
    double mats[16 * NJ], t1[16];
    rot_z(0.2, mats);
    rot_x(1.1, t1);
    t1[3] = 0.4;                        /* a screw, not a pure rotation */
    memcpy(mats + 16, t1, sizeof t1);
    struct skb_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    mesh.nverts = NV; mesh.njoints = NJ; mesh.pos = pos; mesh.joint = joint; mesh.weight = weight;
    struct skb_pose pose = { NJ, mats, NULL };
    const struct skb_method *m = need("dib");
    /* expected logs, exps: {as written, one input returned, both shortcuts}
     * x {n = 2 vertex, n = 1 vertex} */
    static const int bits[3] = { 0, SKB_DIB_ONE_INPUT, SKB_DIB_ONE_INPUT | SKB_DIB_LEMMA47 };
    static const int want[3][2][2] = { { { 4, 2 }, { 1, 1 } }, { { 4, 2 }, { 0, 0 } }, { { 1, 1 }, { 0, 0 } } };
    struct skb_params def;
    skb_params_default(&def);
    assert_int_equal(def.dib_shortcut, 0);    /* the judged default is the paper's algorithm */
    double out[3][3 * NV];
    for (int shortcut = 0; shortcut < 3; shortcut++) {
        struct skb_params prm;
        struct skb_skinner s;
        char msg[256];
        skb_params_default(&prm);
        prm.dib_shortcut = bits[shortcut];
        assert_int_equal(skb_skin_init(&s, m, &mesh, msg, sizeof msg), 0);
        assert_int_equal(skb_skin_pose(&s, &pose, &prm, out[shortcut], NULL, msg, sizeof msg), 0);
        for (int v = 0; v < NV; v++) {
            struct skb_dq b;
            int work[2] = { 0, 0 };
            assert_int_equal(skb__dib_vertex_work(&mesh, s.state, v, &b, NULL, work), 0);
            if (work[0] != want[shortcut][v][0] || work[1] != want[shortcut][v][1])
                fail_msg("%s skin, vertex %d: %d logs / %d exps, want %d / %d",
                         shortcut ? "shortcut" : "as written", v, work[0], work[1], want[shortcut][v][0],
                         want[shortcut][v][1]);
        }
        skb_skin_fini(&s);
        /* the blend path: passes of n logs; the iteration count is the same */
        double res[16];
        struct skb_blend_stats st;
        assert_int_equal(blend2(m, mats, 0.3, &prm, res, &st), 0);
        assert_int_equal(st.iterations, 1);
        assert_int_equal(st.logs, shortcut == 2 ? 2 : 4);
        assert_int_equal(st.exps, shortcut == 2 ? 1 : 2);
    }
    /* the same blends to rounding */
    assert_true(skb_test_mat_diff(out[0], out[1], 3 * NV) < TOL_TIGHT);
    assert_true(skb_test_mat_diff(out[0], out[2], 3 * NV) < TOL_TIGHT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dib_two_is_sclerp),
        cmocka_unit_test(test_dib_cap),
        cmocka_unit_test(test_dib_pose_stats),
        cmocka_unit_test(test_dib_as_written_work),
    };
    return cmocka_run_group_tests_name("dib_iteration", tests, NULL, NULL);
}
