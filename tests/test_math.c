/* test_math.c — the math module: conversions round-trip, exp/log invert,
 * Algorithm 1 equals the matrix, screw parameters rebuild the transform. */
#include "skb_test.h"

#define N_RANDOM 500

static void test_matrix_dq_qt_roundtrip(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_RANDOM; k++) {
        double m[16], back[16], t[3];
        struct skb_dq dq, dq2;
        struct skb_quat q;
        skb_test_random_rigid(r, SKB_PI, 10, m);
        skb_dq_from_mat4(m, &dq);
        skb_dq_to_mat4(&dq, back);
        assert_true(skb_test_mat_diff(m, back, 16) < TOL_TIGHT);
        skb_dq_to_qt(&dq, &q, t);
        for (int i = 0; i < 3; i++)
            assert_near(t[i], m[4 * i + 3], TOL_TIGHT);
        skb_dq_from_qt(&q, t, &dq2);
        assert_near(skb_quat_dot(&dq.r, &dq2.r), 1, TOL_TIGHT);
        assert_near(skb_quat_dot(&dq.d, &dq.r), 0, TOL_TIGHT);   /* unit dq */
    }
    gsl_rng_free(r);
}

static void test_quat_exp_log_pow(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_RANDOM; k++) {
        double m[16], rot[9], t[3];
        struct skb_quat q, l, e, h, hh;
        skb_test_random_rigid(r, SKB_PI, 1, m);
        skb_mat4_to_rt(m, rot, t);
        skb_quat_from_mat3(rot, &q);
        skb_quat_log(&q, &l);
        skb_quat_exp(&l, &e);
        assert_near(skb_quat_dot(&q, &e), 1, TOL_TIGHT);
        skb_quat_pow(&q, 0.5, &h);            /* (q^1/2)^2 = q */
        skb_quat_mul(&h, &h, &hh);
        assert_near(skb_quat_dot(&q, &hh), 1, TOL_TIGHT);
    }
    gsl_rng_free(r);
}

static void test_dq_exp_log_pow(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_RANDOM; k++) {
        double m[16], back[16], hm[16], h2[16];
        struct skb_dq q, l, e, h;
        skb_test_random_rigid(r, 0.999 * SKB_PI, 5, m);
        skb_dq_from_mat4(m, &q);
        skb_dq_log(&q, &l);
        skb_dq_exp(&l, &e);
        skb_dq_to_mat4(&e, back);
        assert_true(skb_test_mat_diff(m, back, 16) < 1e-9);
        skb_dq_pow(&q, 0.5, &h);
        skb_dq_to_mat4(&h, hm);
        skb_mat4_mul(hm, hm, h2);
        assert_true(skb_test_mat_diff(m, h2, 16) < 1e-9);
    }
    gsl_rng_free(r);
}

static void test_transform_point_algorithm1(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_RANDOM; k++) {
        double m[16], v[3], a[3], b[3], n[3], na[3], nb[3];
        struct skb_dq q;
        skb_test_random_rigid(r, SKB_PI, 5, m);
        skb_dq_from_mat4(m, &q);
        skb_dq_scale(&q, 0.3 + gsl_rng_uniform(r), &q);   /* Alg. 1 takes a non-unit blend */
        for (int i = 0; i < 3; i++)
            v[i] = 4 * gsl_rng_uniform(r) - 2, n[i] = gsl_rng_uniform(r);
        skb_mat4_apply(m, v, a);
        skb_dq_transform_point(&q, v, b);
        skb_mat4_apply_dir(m, n, na);
        skb_dq_transform_normal(&q, n, nb);
        for (int i = 0; i < 3; i++) {
            assert_near(a[i], b[i], TOL_TIGHT);
            assert_near(na[i], nb[i], TOL_TIGHT);
        }
    }
    gsl_rng_free(r);
}

static void test_screw_rebuilds_transform(void **state)
{
    /* rotation theta about axis s through p, plus d along s: compare moment,
     * angle and pitch with the construction */
    double s[3] = { 0, 0.6, 0.8 }, p[3] = { 1, -2, 1.5 }, m[16], rot[9], t[3];
    double theta = 1.3, d = 0.7;
    struct skb_quat q;
    struct skb_dq dq;
    struct skb_screw sc;
    skb_quat_from_axis_angle(s, theta, &q);
    skb_quat_to_mat3(&q, rot);
    for (int i = 0; i < 3; i++)   /* t = (I - R) p + d s */
        t[i] = p[i] - (rot[3 * i] * p[0] + rot[3 * i + 1] * p[1] + rot[3 * i + 2] * p[2]) + d * s[i];
    skb_mat4_from_rt(rot, t, m);
    skb_dq_from_mat4(m, &dq);
    skb_dq_screw(&dq, &sc);
    double mom[3];
    skb_v3_cross(p, s, mom);
    assert_near(sc.angle, theta, TOL_TIGHT);
    assert_near(sc.translation, d, TOL_TIGHT);
    for (int i = 0; i < 3; i++) {
        assert_near(sc.axis[i], s[i], TOL_TIGHT);
        assert_near(sc.moment[i], mom[i], TOL_TIGHT);
    }
}

static void test_rigid_log_exp(void **state)
{
    gsl_rng *r = skb_test_rng();
    for (int k = 0; k < N_RANDOM; k++) {
        double m[16], back[16], w[3], v[3];
        skb_test_random_rigid(r, 0.999 * SKB_PI, 5, m);
        skb_mat4_log_rigid(m, w, v);
        assert_true(skb_v3_norm(w) <= SKB_PI + TOL_EXACT);
        skb_mat4_exp_rigid(w, v, back);
        assert_true(skb_test_mat_diff(m, back, 16) < 1e-9);
    }
    gsl_rng_free(r);
}

static void test_rigid_error_detects_scale(void **state)
{
    double m[16];
    skb_mat4_identity(m);
    assert_true(skb_mat4_rigid_error(m) < TOL_EXACT);
    m[0] = 1.01;
    assert_true(skb_mat4_rigid_error(m) > 1e-3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix_dq_qt_roundtrip),
        cmocka_unit_test(test_quat_exp_log_pow),
        cmocka_unit_test(test_dq_exp_log_pow),
        cmocka_unit_test(test_transform_point_algorithm1),
        cmocka_unit_test(test_screw_rebuilds_transform),
        cmocka_unit_test(test_rigid_log_exp),
        cmocka_unit_test(test_rigid_error_detects_scale),
    };
    return cmocka_run_group_tests_name("math", tests, NULL, NULL);
}
