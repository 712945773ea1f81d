/* test_mix.c — blend_lbs_dqs: weight 0 is the registry's linear exactly,
 * weight 1 its dlb exactly, and a weight between mixes the two results
 * (skin and blend forms); painted per-vertex weights mix each vertex by its
 * own, and the arm's paint near the elbow is DLB there, LBS far away. */
#include "skb_test.h"
#include "skb_test_data.h"
#include "skb_mix.h"

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

/* skin the mesh by method name with the given mix weight, or the painted
 * ones where painted is not NULL */
static void skin_painted(const char *name, const struct skb_mesh *m, const double *mats, double a,
                         const double *painted, double *out, double *nout)
{
    const struct skb_method *meth = skb_method_find(name);
    struct skb_skinner s;
    struct skb_params prm;
    char msg[256];
    struct skb_pose p = { m->njoints, mats, NULL };
    assert_non_null(meth);
    skb_params_default(&prm);
    prm.lbs_dqs_weight = a;
    prm.lbs_dqs_painted = painted;
    if (skb_skin_init(&s, meth, m, msg, sizeof msg) < 0 || skb_skin_pose(&s, &p, &prm, out, nout, msg, sizeof msg) < 0)
        fail_msg("%s: %s", name, msg);
    skb_skin_fini(&s);
}

static void skin(const char *name, const struct skb_mesh *m, const double *mats, double a, double *out, double *nout)
{
    skin_painted(name, m, mats, a, NULL, out, nout);
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

/* painted weights: each vertex mixed by its own share (0 and 1 exactly
 * LBS and DLB), whatever the global weight; a share outside [0, 1] refused */
static void test_mix_painted(void **state)
{
    (void)state;
    gsl_rng *r = skb_test_rng();
    double pos[3 * NV], nrm[3 * NV], weight[4 * NV], mats[16 * NJ];
    double l[3 * NV], ln[3 * NV], d[3 * NV], dn[3 * NV], x[3 * NV], xn[3 * NV];
    double painted[NV] = { 0, 1, 0.25, 0.5, 1, 0 };
    int joint[4 * NV];
    struct skb_mesh m;
    make_mesh(r, &m, pos, nrm, joint, weight);
    for (int j = 0; j < NJ; j++)
        skb_test_random_rigid(r, 0.8 * SKB_PI, 2, mats + 16 * j);
    skin("linear", &m, mats, 0.5, l, ln);
    skin("dlb", &m, mats, 0.5, d, dn);
    skin_painted("blend_lbs_dqs", &m, mats, 0.5, painted, x, xn);
    for (int v = 0; v < NV; v++)
        for (int k = 0; k < 3; k++) {
            int i = 3 * v + k;
            double a = painted[v], tol = a == 0 || a == 1 ? 0 : TOL_EXACT;
            assert_near(x[i], (1 - a) * l[i] + a * d[i], tol);
            assert_near(xn[i], (1 - a) * ln[i] + a * dn[i], tol);
        }
    const struct skb_method *mix = skb_method_find("blend_lbs_dqs");
    struct skb_skinner s;
    struct skb_params prm;
    struct skb_pose p = { NJ, mats, NULL };
    char msg[256];
    skb_params_default(&prm);
    painted[2] = 1.5;
    prm.lbs_dqs_painted = painted;
    assert_int_equal(skb_skin_init(&s, mix, &m, msg, sizeof msg), 0);
    assert_int_equal(skb_skin_pose(&s, &p, &prm, x, xn, msg, sizeof msg), SKB_EINVAL);
    skb_skin_fini(&s);
    gsl_rng_free(r);
}

/* the arm painted near its elbow (joint 1): DLB's share 1 at the joint,
 * fading to 0 at the radius; vertices beyond it skin exactly as LBS, those
 * inside mix, and the paint reaches well into the elbow (radius 0.75: the
 * arm's surface lies 0.25 from its axis, so the elbow ring gets 2/3) */
static void test_mix_painted_arm_elbow(void **state)
{
    (void)state;
    struct skb_dataset d;
    struct skb_pose p;
    if (skb_test_load_quick("arm", &d) < 0)
        fail_msg("the arm does not load");
    int n = d.mesh.nverts, far = 0, near = 0;
    double radius = 0.75, *a = malloc(sizeof(double) * (size_t)n);
    double *l = malloc(sizeof(double) * 6 * (size_t)n), *q = malloc(sizeof(double) * 6 * (size_t)n);
    double *x = malloc(sizeof(double) * 6 * (size_t)n);
    assert_true(a && l && q && x);
    assert_int_equal(skb_lbs_dqs_paint_near_joint(&d.mesh, 1, radius, a), 0);
    assert_int_equal(skb_lbs_dqs_paint_near_joint(&d.mesh, d.mesh.njoints, radius, a + 0), SKB_EINVAL);
    skb_dataset_pose(&d, d.nposes - 1, &p);
    skin("linear", &d.mesh, p.mats, 0.5, l, l + 3 * n);
    skin("dlb", &d.mesh, p.mats, 0.5, q, q + 3 * n);
    skin_painted("blend_lbs_dqs", &d.mesh, p.mats, 0.5, a, x, x + 3 * n);
    for (int v = 0; v < n; v++) {
        const double *e = d.mesh.joint_rest + 3;
        double dist = sqrt(pow(d.mesh.pos[3 * v] - e[0], 2) + pow(d.mesh.pos[3 * v + 1] - e[1], 2)
                           + pow(d.mesh.pos[3 * v + 2] - e[2], 2));
        assert_near(a[v], fmax(0, 1 - dist / radius), TOL_EXACT);
        far += a[v] == 0;
        near += a[v] > 0.5;
        for (int k = 0; k < 6; k++) {
            size_t i = k < 3 ? 3 * (size_t)v + (size_t)k : 3 * (size_t)n + 3 * (size_t)v + (size_t)(k - 3);
            assert_near(x[i], (1 - a[v]) * l[i] + a[v] * q[i], a[v] == 0 ? 0 : TOL_EXACT);
        }
    }
    assert_true(far > 0 && near > 0);
    free(a); free(l); free(q); free(x);
    skb_dataset_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mix_ends_and_middle),
        cmocka_unit_test(test_mix_blend_form),
        cmocka_unit_test(test_mix_painted),
        cmocka_unit_test(test_mix_painted_arm_elbow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
