/* test_mix.c — blend_lbs_dqs: weight 0 is the registry's linear exactly,
 * weight 1 its dlb exactly, and a weight between mixes the two results
 * (skin and blend forms). */
#include "skb_test.h"

#define NV 6
#define NJ 3

static void make_mesh(gsl_rng *r, struct skb_mesh *m, double *pos, double *nrm, int *joint, double *weight)
{
    for (int v = 0; v < NV; v++) {
        double s = 0;
        for (int k = 0; k < 3; k++) {
            pos[3 * v + k] = gsl_ran_flat(r, -1, 1);
            nrm[3 * v + k] = gsl_ran_flat(r, -1, 1);
        }
        for (int k = 0; k < 4; k++) {
            joint[4 * v + k] = k < NJ ? k : 0;
            weight[4 * v + k] = k < NJ ? gsl_ran_flat(r, 0.1, 1) : 0;
            s += weight[4 * v + k];
        }
        for (int k = 0; k < 4; k++)
            weight[4 * v + k] /= s;
    }
    struct skb_mesh mm = { NV, 0, NJ, pos, nrm, NULL, joint, weight, NULL, NULL, NULL };
    *m = mm;
}

/* skin the mesh by method name with the given mix weight */
static void skin(const char *name, const struct skb_mesh *m, const double *mats, double a, double *out, double *nout)
{
    const struct skb_method *meth = skb_method_find(name);
    struct skb_skinner s;
    struct skb_params prm;
    char msg[256];
    struct skb_pose p = { NJ, mats, NULL };
    assert_non_null(meth);
    skb_params_default(&prm);
    prm.lbs_dqs_weight = a;
    if (skb_skin_init(&s, meth, m, msg, sizeof msg) < 0 || skb_skin_pose(&s, &p, &prm, out, nout, msg, sizeof msg) < 0)
        fail_msg("%s: %s", name, msg);
    skb_skin_fini(&s);
}

static void test_mix_ends_and_middle(void **state)
{
    (void)state;
    gsl_rng *r = skb_test_rng();
    double pos[3 * NV], nrm[3 * NV], weight[4 * NV], mats[16 * NJ];
    double l[3 * NV], ln[3 * NV], d[3 * NV], dn[3 * NV], x[3 * NV], xn[3 * NV];
    int joint[4 * NV];
    struct skb_mesh m;
    make_mesh(r, &m, pos, nrm, joint, weight);
    for (int j = 0; j < NJ; j++)
        skb_test_random_rigid(r, 0.8 * SKB_PI, 2, mats + 16 * j);
    skin("linear", &m, mats, 0.5, l, ln);
    skin("dlb", &m, mats, 0.5, d, dn);
    skin("blend_lbs_dqs", &m, mats, 0, x, xn);
    for (int k = 0; k < 3 * NV; k++) {
        assert_near(x[k], l[k], 0);
        assert_near(xn[k], ln[k], 0);
    }
    skin("blend_lbs_dqs", &m, mats, 1, x, xn);
    for (int k = 0; k < 3 * NV; k++) {
        assert_near(x[k], d[k], 0);
        assert_near(xn[k], dn[k], 0);
    }
    skin("blend_lbs_dqs", &m, mats, 0.25, x, xn);
    for (int k = 0; k < 3 * NV; k++) {
        assert_near(x[k], 0.75 * l[k] + 0.25 * d[k], TOL_EXACT);
        assert_near(xn[k], 0.75 * ln[k] + 0.25 * dn[k], TOL_EXACT);
    }
    gsl_rng_free(r);
}

static void test_mix_blend_form(void **state)
{
    (void)state;
    gsl_rng *r = skb_test_rng();
    double mats[32], w[2] = { 0.3, 0.7 }, lo[16], dq[16], mx[16];
    struct skb_params prm;
    char msg[256];
    skb_test_random_rigid(r, 0.8 * SKB_PI, 2, mats);
    skb_test_random_rigid(r, 0.8 * SKB_PI, 2, mats + 16);
    struct skb_blend_in in = { 2, w, mats, NULL };
    skb_params_default(&prm);
    assert_int_equal(skb_blend(skb_method_find("linear"), &in, &prm, lo, NULL, msg, sizeof msg), 0);
    assert_int_equal(skb_blend(skb_method_find("dlb"), &in, &prm, dq, NULL, msg, sizeof msg), 0);
    for (int i = 0; i < 3; i++) {
        prm.lbs_dqs_weight = 0.5 * i;
        assert_int_equal(skb_blend(skb_method_find("blend_lbs_dqs"), &in, &prm, mx, NULL, msg, sizeof msg), 0);
        for (int k = 0; k < 16; k++)
            assert_near(mx[k], (1 - 0.5 * i) * lo[k] + 0.5 * i * dq[k], i == 1 ? TOL_EXACT : 0);
    }
    gsl_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mix_ends_and_middle),
        cmocka_unit_test(test_mix_blend_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
