/* test_methods_b.c — the dual quaternion family: sclerp, dlb, dib, dlb_scale
 * (thesis 4.3, Alg. 4.1; DQ paper 3.2, 4.1, 4.2; lecture seed 004). */
#include "skb_test.h"
#include "skb_dqblend.h"

#define N_RANDOM 200

static const struct skb_method *need(const char *name)
{
    const struct skb_method *m = skb_method_find(name);
    if (!m)
        fail_msg("method %s is not in the registry", name);
    return m;
}

/* rotation by angle about the coordinate axis `axis` (0 = x, 2 = z) */
static void rot_axis(int axis, double angle, double m[16])
{
    double a[3] = { 0, 0, 0 }, r[9], t[3] = { 0, 0, 0 };
    struct skb_quat q;
    a[axis] = 1;
    skb_quat_from_axis_angle(a, angle, &q);
    skb_quat_to_mat3(&q, r);
    skb_mat4_from_rt(r, t, m);
}

static void rot_x(double angle, double m[16])
{
    rot_axis(0, angle, m);
}

static void rot_z(double angle, double m[16])
{
    rot_axis(2, angle, m);
}

static int blend2(const struct skb_method *m, const double *mats, double w1, const struct skb_params *prm,
                  double out[16], struct skb_blend_stats *st)
{
    double w[2] = { 1 - w1, w1 }, c[3] = { 0, 0, 0 };
    char msg[256];
    struct skb_blend_in in = { 2, w, mats, c };
    int rc = skb_blend(m, &in, prm, out, st, msg, sizeof msg);
    if (rc < 0)
        print_message("%s: %s\n", m->name, msg);
    return rc;
}

/* the lecture's six vertices (seed 004, "Homogeneous Mat VS DQ"): J1 at the
 * origin twisted 180 deg about x, J2 at (2,0,0) left alone */
static void test_lecture_six_vertices(void **state)
{
    double pos[18] = { 0, 2.5, 0,  1, 2.5, 0,  2, 2.5, 0,  0, -2.5, 0,  1, -2.5, 0,  2, -2.5, 0 };
    double wrow[6][2] = { { 1, 0 }, { 0.5, 0.5 }, { 0, 1 }, { 1, 0 }, { 0.5, 0.5 }, { 0, 1 } };
    int joint[24];
    double weight[24], mats[32], out[18];
    for (int v = 0; v < 6; v++)
        for (int k = 0; k < 4; k++) {
            joint[4 * v + k] = k < 2 ? k : 0;
            weight[4 * v + k] = k < 2 ? wrow[v][k] : 0;
        }
    rot_x(SKB_PI, mats);            /* M1 of the lecture */
    skb_mat4_identity(mats + 16);   /* M2 */
    struct skb_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    mesh.nverts = 6; mesh.njoints = 2; mesh.pos = pos; mesh.joint = joint; mesh.weight = weight;
    struct skb_pose pose = { 2, mats, NULL };
    struct skb_skinner s;
    char msg[256];

    /* LBS: P2 and P5 both collapse to (1,0,0) */
    assert_int_equal(skb_skin_init(&s, need("linear"), &mesh, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
    skb_skin_fini(&s);
    double lbs[18] = { 0, -2.5, 0,  1, 0, 0,  2, 2.5, 0,  0, 2.5, 0,  1, 0, 0,  2, -2.5, 0 };
    assert_true(skb_test_mat_diff(out, lbs, 18) < TOL_EXACT);

    /* DLB: P2, P5 go to (1,0,-+2.5) (the lecture's Q* P Q convention gives the
     * mirror image of ours, q P q*): 5 apart; the others as under LBS */
    const char *dq_methods[] = { "dlb", "dib", "dlb_scale" };
    for (int i = 0; i < 3; i++) {
        assert_int_equal(skb_skin_init(&s, need(dq_methods[i]), &mesh, msg, sizeof msg), 0);
        assert_int_equal(skb_skin_pose(&s, &pose, NULL, out, NULL, msg, sizeof msg), 0);
        skb_skin_fini(&s);
        double d[3] = { out[3] - out[12], out[4] - out[13], out[5] - out[14] };
        assert_near(skb_v3_norm(d), 5, TOL_TIGHT);
        assert_near(out[3], 1, TOL_TIGHT);
        assert_near(out[4], 0, TOL_TIGHT);
        assert_near(fabs(out[5]), 2.5, TOL_TIGHT);
        for (int v = 0; v < 6; v++)
            if (v != 1 && v != 4)
                for (int k = 0; k < 3; k++)
                    assert_near(out[3 * v + k], lbs[3 * v + k], TOL_TIGHT);
    }
    /* the blend path gives the same for P2 */
    double b[16], p[3];
    assert_int_equal(blend2(need("dlb"), mats, 0.5, NULL, b, NULL), 0);
    skb_mat4_apply(b, pos + 3, p);
    assert_near(fabs(p[2]), 2.5, TOL_TIGHT);
}

/* candy wrapper: two joints, 180 deg twist about the bone axis x, weights
 * 1/2: LBS collapses the vertex onto the axis, rigid blends keep its radius */
static void test_candy_wrapper(void **state)
{
    double mats[32], out[16], p[3], x[3] = { 1, 0.7, 0.4 };
    double r0 = sqrt(x[1] * x[1] + x[2] * x[2]);
    skb_mat4_identity(mats);
    rot_x(SKB_PI, mats + 16);
    assert_int_equal(blend2(need("linear"), mats, 0.5, NULL, out, NULL), 0);
    skb_mat4_apply(out, x, p);
    assert_near(sqrt(p[1] * p[1] + p[2] * p[2]), 0, TOL_EXACT);
    const char *keep[] = { "dlb", "dib", "sclerp", "sb", "logm" };
    for (int i = 0; i < 5; i++) {
        const struct skb_method *m = need(keep[i]);   /* a missing method fails */
        assert_int_equal(blend2(m, mats, 0.5, NULL, out, NULL), 0);
        skb_mat4_apply(out, x, p);
        if (fabs(sqrt(p[1] * p[1] + p[2] * p[2]) - r0) > TOL_TIGHT)
            fail_msg("%s: distance from the axis %.17g, rest %.17g", m->name,
                     sqrt(p[1] * p[1] + p[2] * p[2]), r0);
        assert_near(p[0], x[0], TOL_TIGHT);
    }
}

/* ScLERP basics: pure translation is interpolated linearly; left and right
 * invariance (thesis Lemma 4.4); the rotation follows SLERP */
static void test_sclerp_properties(void **state)
{
    gsl_rng *r = skb_test_rng();
    const struct skb_method *m = need("sclerp");
    double mats[32], out[16];
    skb_mat4_identity(mats);
    skb_mat4_identity(mats + 16);
    mats[16 + 3] = 2; mats[16 + 7] = -4; mats[16 + 11] = 1;
    assert_int_equal(blend2(m, mats, 0.25, NULL, out, NULL), 0);
    assert_near(out[3], 0.5, TOL_TIGHT);
    assert_near(out[7], -1, TOL_TIGHT);
    assert_near(out[11], 0.25, TOL_TIGHT);
    for (int k = 0; k < N_RANDOM; k++) {
        double a[32], rr[16], l[32], rt[32], o1[16], o2[16], ro[16], t = gsl_rng_uniform(r);
        skb_test_random_rigid(r, 0.95 * SKB_PI, 3, a);
        skb_test_random_rigid(r, 0.95 * SKB_PI, 3, a + 16);
        skb_test_random_rigid(r, SKB_PI, 3, rr);
        assert_int_equal(blend2(m, a, t, NULL, out, NULL), 0);
        for (int i = 0; i < 2; i++) {
            skb_mat4_mul(rr, a + 16 * i, l + 16 * i);
            skb_mat4_mul(a + 16 * i, rr, rt + 16 * i);
        }
        assert_int_equal(blend2(m, l, t, NULL, o1, NULL), 0);
        assert_int_equal(blend2(m, rt, t, NULL, o2, NULL), 0);
        skb_mat4_mul(rr, out, ro);
        assert_true(skb_test_mat_diff(o1, ro, 16) < TOL_TIGHT * 10);
        skb_mat4_mul(out, rr, ro);
        assert_true(skb_test_mat_diff(o2, ro, 16) < TOL_TIGHT * 10);
        /* rotation part = SLERP of the rotation parts */
        struct skb_dq p, q;
        struct skb_quat s;
        double rs[9], ro9[9], tt[3];
        skb_dq_from_mat4(a, &p);
        skb_dq_from_mat4(a + 16, &q);
        skb_quat_slerp(&p.r, &q.r, t, &s);
        skb_quat_to_mat3(&s, rs);
        skb_mat4_to_rt(out, ro9, tt);
        assert_true(skb_test_mat_diff(rs, ro9, 9) < TOL_TIGHT);
    }
    gsl_rng_free(r);
}

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

/* DLB output is a rigid transform (the dual normalisation), and for two
 * transforms it lies on ScLERP's screw axis (thesis 4.3) */
static void test_dlb_rigid(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_RANDOM; k++) {
        double a[64], w[4], out[16], c[3] = { 0, 0, 0 };
        char msg[256];
        for (int i = 0; i < 4; i++)
            skb_test_random_rigid(r, 0.9 * SKB_PI, 3, a + 16 * i);
        skb_test_random_weights(r, 4, w);
        struct skb_blend_in in = { 4, w, a, c };
        assert_int_equal(skb_blend(need("dlb"), &in, NULL, out, NULL, msg, sizeof msg), 0);
        assert_true(skb_mat4_rigid_error(out) < TOL_TIGHT);
        /* dual part orthogonal to the real part after normalisation */
        struct skb_dq q[4], b, u;
        for (int i = 0; i < 4; i++)
            skb_dq_from_mat4(a + 16 * i, &q[i]);
        assert_int_equal(skb__dlb_sum(4, w, q, SKB_ANTIPODAL_PIVOT, &b), 0);
        assert_int_equal(skb_dq_normalize(&b, &u), 0);
        double o2[16];
        skb_dq_to_mat4(&u, o2);
        assert_true(skb_test_mat_diff(o2, out, 16) < TOL_TIGHT);
    }
    gsl_rng_free(r);
}

static double dq_transform_diff(const struct skb_dq *a, const struct skb_dq *b)
{
    double ma[16], mb[16];
    skb_dq_to_mat4(a, ma);
    skb_dq_to_mat4(b, mb);
    return skb_test_mat_diff(ma, mb, 16);
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

/* cancelling antipodal inputs: SKB_ECANCEL with a one-line message, no NaN */
static void test_dlb_cancel(void **state)
{
    double mats[32], out[16];
    double eps = 1e-10;   /* half-angle gap: |b0| = sin(eps/2) << SKB_DLB_CANCEL_REL */
    struct skb_params prm;
    skb_params_default(&prm);
    prm.antipodal = SKB_ANTIPODAL_NONE;
    rot_z(SKB_PI - eps, mats);
    rot_z(-(SKB_PI - eps), mats + 16);
    const char *names[] = { "dlb", "dib" };
    for (int i = 0; i < 2; i++) {
        double w[2] = { 0.5, 0.5 }, c[3] = { 0, 0, 0 };
        char msg[256] = "";
        struct skb_blend_in in = { 2, w, mats, c };
        for (int k = 0; k < 16; k++)
            out[k] = 7;
        assert_int_equal(skb_blend(need(names[i]), &in, &prm, out, NULL, msg, sizeof msg), SKB_ECANCEL);
        assert_non_null(strstr(msg, names[i]));
        assert_null(strchr(msg, '\n'));
        for (int k = 0; k < 16; k++)
            assert_true(isfinite(out[k]));
    }
    /* the pivot rule never cancels on the same input */
    prm.antipodal = SKB_ANTIPODAL_PIVOT;
    assert_int_equal(blend2(need("dlb"), mats, 0.5, &prm, out, NULL), 0);
    /* at the dual quaternion level: q and -q */
    struct skb_dq q[2], b;
    double w[2] = { 0.5, 0.5 };
    skb_dq_from_mat4(mats, &q[0]);
    skb_dq_scale(&q[0], -1, &q[1]);
    assert_int_equal(skb__dlb_sum(2, w, q, SKB_ANTIPODAL_NONE, &b), SKB_ECANCEL);
    /* and in the skin path */
    double pos[3] = { 1, 2, 3 }, weight[4] = { 0.5, 0.5, 0, 0 }, pout[3];
    int joint[4] = { 0, 1, 0, 0 };
    struct skb_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    mesh.nverts = 1; mesh.njoints = 2; mesh.pos = pos; mesh.joint = joint; mesh.weight = weight;
    struct skb_pose pose = { 2, mats, NULL };
    prm.antipodal = SKB_ANTIPODAL_NONE;
    const char *skin_names[] = { "dlb", "dib", "dlb_scale" };
    for (int i = 0; i < 3; i++) {
        struct skb_skinner s;
        char msg[256];
        assert_int_equal(skb_skin_init(&s, need(skin_names[i]), &mesh, msg, sizeof msg), 0);
        assert_int_equal(skb_skin_pose(&s, &pose, &prm, pout, NULL, msg, sizeof msg), SKB_ECANCEL);
        skb_skin_fini(&s);
    }
}

/* random scale/shear part: symmetric positive, near identity, plus a translation */
static void random_scale(gsl_rng *r, double s[16])
{
    skb_mat4_identity(s);
    for (int i = 0; i < 3; i++) {
        s[5 * i] = 0.5 + gsl_rng_uniform(r);
        s[4 * i + 3] = 0.2 * (gsl_rng_uniform(r) - 0.5);
    }
    s[1] = s[4] = 0.3 * (gsl_rng_uniform(r) - 0.5);
    s[6] = 0.3 * (gsl_rng_uniform(r) - 0.5);
}

#define TP_VERTS 100
#define TP_JOINTS 5

static void tp_mesh(gsl_rng *r, struct skb_mesh *mesh, double *pos, double *nrm, int *joint, double *weight)
{
    memset(mesh, 0, sizeof *mesh);
    mesh->nverts = TP_VERTS; mesh->njoints = TP_JOINTS;
    mesh->pos = pos; mesh->nrm = nrm; mesh->joint = joint; mesh->weight = weight;
    for (int v = 0; v < TP_VERTS; v++) {
        skb_test_random_weights(r, 3, weight + 4 * v);
        weight[4 * v + 3] = 0;
        for (int k = 0; k < 4; k++)
            joint[4 * v + k] = (v + k) % TP_JOINTS;
        gsl_ran_dir_3d(r, nrm + 3 * v, nrm + 3 * v + 1, nrm + 3 * v + 2);
        for (int k = 0; k < 3; k++)
            pos[3 * v + k] = 2 * gsl_rng_uniform(r) - 1;
    }
}

static void skin(const char *name, const struct skb_mesh *mesh, const struct skb_pose *pose,
                 double *pos, double *nrm)
{
    struct skb_skinner s;
    char msg[256];
    if (skb_skin_init(&s, need(name), mesh, msg, sizeof msg) < 0
        || skb_skin_pose(&s, pose, NULL, pos, nrm, msg, sizeof msg) < 0)
        fail_msg("%s: %s", name, msg);
    skb_skin_fini(&s);
}

/* DQ paper 4.2: identity rigid parts -> LBS of the scales (normals by the
 * inverse transpose); identity scales -> dlb; in general -> dlb applied to
 * the phase-1 mesh */
static void test_two_phase(void **state)
{
    gsl_rng *r = skb_test_rng();
    static double pos[3 * TP_VERTS], nrm[3 * TP_VERTS], weight[4 * TP_VERTS];
    static double o1[3 * TP_VERTS], o2[3 * TP_VERTS], n1[3 * TP_VERTS], n2[3 * TP_VERTS];
    static int joint[4 * TP_VERTS];
    double ids[16 * TP_JOINTS], mats[16 * TP_JOINTS], scale[16 * TP_JOINTS];
    struct skb_mesh mesh;
    tp_mesh(r, &mesh, pos, nrm, joint, weight);
    for (int j = 0; j < TP_JOINTS; j++) {
        skb_mat4_identity(ids + 16 * j);
        skb_test_random_rigid(r, 0.7 * SKB_PI, 2, mats + 16 * j);
        random_scale(r, scale + 16 * j);
    }
    /* 1: identity rigid parts == LBS of the scales */
    struct skb_pose ps = { TP_JOINTS, ids, scale };
    skin("dlb_scale", &mesh, &ps, o1, n1);
    skin("linear", &mesh, &ps, o2, NULL);
    assert_true(skb_test_mat_diff(o1, o2, 3 * TP_VERTS) < TOL_TIGHT);
    for (int v = 0; v < TP_VERTS; v++) {
        /* normal: unit, orthogonal to every blended tangent, same side as n */
        double a[9] = { 0 }, t1[3], t2[3], at[3], an[3], e[3] = { 1, 0, 0 };
        for (int k = 0; k < 4; k++)
            for (int i = 0; i < 3; i++)
                for (int c = 0; c < 3; c++)
                    a[3 * i + c] += weight[4 * v + k] * scale[16 * joint[4 * v + k] + 4 * i + c];
        skb_v3_cross(nrm + 3 * v, e, t1);
        skb_v3_cross(nrm + 3 * v, t1, t2);
        assert_near(skb_v3_norm(n1 + 3 * v), 1, TOL_TIGHT);
        const double *ts[2] = { t1, t2 };
        for (int q = 0; q < 2; q++) {
            for (int i = 0; i < 3; i++)
                at[i] = a[3 * i] * ts[q][0] + a[3 * i + 1] * ts[q][1] + a[3 * i + 2] * ts[q][2];
            assert_near(skb_v3_dot(at, n1 + 3 * v), 0, TOL_TIGHT);
        }
        for (int i = 0; i < 3; i++)
            an[i] = a[3 * i] * nrm[3 * v] + a[3 * i + 1] * nrm[3 * v + 1] + a[3 * i + 2] * nrm[3 * v + 2];
        assert_true(skb_v3_dot(an, n1 + 3 * v) > 0);
    }
    /* 2: identity scales (and no scales) == dlb */
    struct skb_pose pr = { TP_JOINTS, mats, ids }, pn = { TP_JOINTS, mats, NULL };
    skin("dlb", &mesh, &pn, o2, n2);
    skin("dlb_scale", &mesh, &pr, o1, n1);
    assert_true(skb_test_mat_diff(o1, o2, 3 * TP_VERTS) < TOL_TIGHT);
    assert_true(skb_test_mat_diff(n1, n2, 3 * TP_VERTS) < TOL_TIGHT);
    skin("dlb_scale", &mesh, &pn, o1, n1);
    assert_true(skb_test_mat_diff(o1, o2, 3 * TP_VERTS) < TOL_EXACT);
    /* 3: both: dlb on the phase-1 mesh (positions and normals) */
    static double p1[3 * TP_VERTS], q1[3 * TP_VERTS];
    skin("dlb_scale", &mesh, &ps, p1, q1);
    struct skb_mesh m1 = mesh;
    m1.pos = p1;
    m1.nrm = q1;
    struct skb_pose pb = { TP_JOINTS, mats, scale };
    skin("dlb_scale", &mesh, &pb, o1, n1);
    skin("dlb", &m1, &pn, o2, n2);
    assert_true(skb_test_mat_diff(o1, o2, 3 * TP_VERTS) < TOL_TIGHT);
    assert_true(skb_test_mat_diff(n1, n2, 3 * TP_VERTS) < TOL_TIGHT);
    gsl_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lecture_six_vertices),
        cmocka_unit_test(test_candy_wrapper),
        cmocka_unit_test(test_sclerp_properties),
        cmocka_unit_test(test_dib_two_is_sclerp),
        cmocka_unit_test(test_dib_cap),
        cmocka_unit_test(test_dib_pose_stats),
        cmocka_unit_test(test_dib_as_written_work),
        cmocka_unit_test(test_dlb_rigid),
        cmocka_unit_test(test_antipodal_dq_level),
        cmocka_unit_test(test_antipodal_matrices),
        cmocka_unit_test(test_antipodal_hierarchy_skin),
        cmocka_unit_test(test_dlb_cancel),
        cmocka_unit_test(test_two_phase),
    };
    return cmocka_run_group_tests_name("methods_b", tests, NULL, NULL);
}
