/* test_bounds.c — the optimised bounds of harness/skb_bounds.c against the
 * values the seeds print: thesis Lemma 3.2 and App. A.1 (8.15 deg, 15.1 %),
 * the log-matrix speed curve of SPEC 3 (thesis App. A.2), DQ paper eq. (9).
 * Paper numbers live here (tests may hold them), never in harness/. */
#include "skb_test.h"
#include "skb_bounds.h"

#define DEG (SKB_PI / 180)
#define PAPER_ANGLE_DEG 8.15      /* thesis Lemma 3.2, 4.3; DQ paper 3.2 */
#define PAPER_TRANS_FRAC 0.151    /* thesis 4.3 / App. A.1 (0.1501 at alpha0 = pi) */
#define PAPER_SPEED_T0 0.95885    /* SPEC 3 closed form at t = 0 */
#define PAPER_SPEED_T1 0.96022    /* ... and at t = 1 */
#define REL_1PCT 0.01             /* the 1 % band of reference.json */
#define TOL_FD 1e-6               /* Richardson finite differences vs the closed form */

static void test_qlb_slerp_bound(void **state)
{
    struct skb_bound b;
    char msg[256];
    if (skb_bound_qlb_slerp(&b, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    double deg = b.gap / DEG;
    print_message("QLB vs SLERP: %.6f deg at t = %.6f, alpha0 = %.4f deg\n", deg, b.t, b.alpha0 / DEG);
    assert_true(fabs(deg - PAPER_ANGLE_DEG) <= REL_1PCT * PAPER_ANGLE_DEG);
    /* Lemma 3.2's extremes: t = 1/2 +- sqrt(1/pi - 1/4), at alpha0 = pi */
    double tl = 0.5 - sqrt(1 / SKB_PI - 0.25);
    assert_true(fabs(b.t - tl) < 1e-4 || fabs(b.t - (1 - tl)) < 1e-4);
    assert_true(fabs(b.alpha0 - SKB_PI) < 1e-3);
}

static void test_dlb_sclerp_bounds(void **state)
{
    struct skb_bound a, t;
    char msg[256];
    if (skb_bound_dlb_sclerp(&a, &t, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    print_message("DLB vs ScLERP: angle %.6f deg, translation %.6f\n", a.gap / DEG, t.gap);
    assert_true(fabs(a.gap / DEG - PAPER_ANGLE_DEG) <= REL_1PCT * PAPER_ANGLE_DEG);
    assert_true(fabs(t.gap - PAPER_TRANS_FRAC) <= REL_1PCT * PAPER_TRANS_FRAC);
    /* the paper's bounds are strict: no larger gap exists */
    assert_true(a.gap / DEG < PAPER_ANGLE_DEG);
    assert_true(t.gap < PAPER_TRANS_FRAC);
}

/* the Fig. 23 curves: zero at both ends (both interpolate the inputs), peak
 * at Lemma 3.2's t, never above the optimised maximum */
/* every method that blends two transforms is bounded against the
 * exact pair interpolation the registry flags (ScLERP), not only DLB/QLB.
 * Log-matrix blending and DIB of I and M equal ScLERP (M^t; thesis Lemma
 * 4.7), so their gaps vanish; DLB's is the thesis case; a skin-only method
 * is refused. */
static void test_every_method_against_exact(void **state)
{
    (void)state;
    const struct skb_method *ref = skb_method_exact_pair();
    char msg[256];
    assert_non_null(ref);
    assert_true(ref->max_n == 2 || ref->max_n == 0);
    int bounded = 0;
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        struct skb_bound a, t;
        double rigid;
        int rc = skb_bound_vs_exact(m, ref, &a, &t, &rigid, msg, sizeof msg);
        if (!m->blend) {
            assert_int_equal(rc, SKB_ENOTSUP);
            continue;
        }
        assert_int_equal(rc, 0);
        assert_true(isfinite(a.gap) && a.gap >= 0 && isfinite(t.gap) && t.gap >= 0);
        if (strcmp(m->name, "logm") == 0 || strcmp(m->name, "dib") == 0 || m == ref)
            assert_true(a.gap < 1e-9 && t.gap < 1e-9);
        if (strcmp(m->name, "dlb") == 0) {
            struct skb_bound da, dt;
            assert_int_equal(skb_bound_dlb_sclerp(&da, &dt, msg, sizeof msg), 0);
            assert_true(a.gap == da.gap && t.gap == dt.gap);
            assert_true(a.gap > 0.1);   /* 8.1 deg: not a vanishing gap */
        }
        /* LBS's blends are not rigid, nor the LBS/DLB mix's: flagged */
        if (strcmp(m->name, "linear") == 0 || strcmp(m->name, "blend_lbs_dqs") == 0)
            assert_true(rigid > 1e-3);
        else
            assert_true(rigid < 1e-9);
        bounded++;
    }
    assert_true(bounded >= 7);
}

static void test_gap_curves(void **state)
{
    enum { N = 101 };
    double t[N], g[N], a[N], d[N];
    char msg[256];
    if (skb_bound_qlb_slerp_curve(SKB_PI, N, t, g, msg, sizeof msg) < 0
        || skb_bound_dlb_sclerp_curve(SKB_PI, 0.4, N, t, a, d, msg, sizeof msg) < 0)
        fail_msg("%s", msg);
    assert_true(g[0] < 1e-9 && g[N - 1] < 1e-9 && a[0] < 1e-9 && d[N - 1] < 1e-9);
    double tl = 0.5 - sqrt(1 / SKB_PI - 0.25), gmax = 0, amax = 0, dmax = 0;
    int imax = 0;
    for (int i = 0; i < N; i++) {
        if (g[i] > gmax)
            gmax = g[i], imax = i;
        amax = fmax(amax, a[i]);
        dmax = fmax(dmax, d[i]);
    }
    assert_true(fabs(t[imax] - tl) < 0.011 || fabs(t[imax] - (1 - tl)) < 0.011);
    assert_true(gmax / DEG < PAPER_ANGLE_DEG && gmax / DEG > (1 - REL_1PCT) * PAPER_ANGLE_DEG);
    assert_true(amax / DEG < PAPER_ANGLE_DEG && dmax < PAPER_TRANS_FRAC);
    assert_true(dmax > (1 - 2 * REL_1PCT) * PAPER_TRANS_FRAC);
}

static void test_logm_speed_curve(void **state)
{
    char msg[256];
    assert_true(fabs(skb_logm_speed_closed(0) - PAPER_SPEED_T0) < 1e-5);
    assert_true(fabs(skb_logm_speed_closed(1) - PAPER_SPEED_T1) < 1e-5);
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k <= 50; k++) {
        double t = k / 50.0, s;
        if (skb_logm_speed_measured(t, &s, msg, sizeof msg) < 0)
            fail_msg("%s", msg);
        double cl = skb_logm_speed_closed(t);
        if (!(fabs(s - cl) <= TOL_FD * cl))
            fail_msg("t = %g: measured |omega| %.9f, closed form %.9f", t, s, cl);
        lo = fmin(lo, s);
        hi = fmax(hi, s);
    }
    /* not constant speed (thesis App. A.2), though nearly so */
    assert_true(hi - lo > 1e-3);
    assert_true(hi - lo < 1e-2);
}

static void test_se2_centres_follow_eq9(void **state)
{
    double meas[2], form[2];
    char msg[256];
    for (int k = 0; k <= 20; k++) {
        if (skb_se2_centre(30 * DEG, 60 * DEG, k / 20.0, meas, form, msg, sizeof msg) < 0)
            fail_msg("%s", msg);
        assert_true(hypot(meas[0] - form[0], meas[1] - form[1]) < TOL_TIGHT);
    }
    /* eq. (6): r_i = (-1, cot(alpha_i / 2)) */
    skb_se2_centre(30 * DEG, 60 * DEG, 0, meas, form, msg, sizeof msg);
    assert_near(meas[1], 1 / tan(15 * DEG), TOL_TIGHT);
    assert_near(meas[0], -1, TOL_TIGHT);
}

/* the optimiser finds an interior maximum and one on the boundary */
static double parabola(double x, void *p)
{
    return -(x - 0.3) * (x - 0.3);
}

static double ramp(double x, void *p)
{
    return x;
}

static void test_maximize_1d(void **state)
{
    double x;
    double f = skb_maximize_1d(parabola, NULL, 0, 1, 8, 1e-12, &x);
    assert_near(x, 0.3, 1e-6);
    assert_near(f, 0, 1e-12);
    f = skb_maximize_1d(ramp, NULL, 0, 1, 8, 1e-12, &x);
    assert_near(x, 1, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qlb_slerp_bound),
        cmocka_unit_test(test_dlb_sclerp_bounds),
        cmocka_unit_test(test_every_method_against_exact),
        cmocka_unit_test(test_gap_curves),
        cmocka_unit_test(test_logm_speed_curve),
        cmocka_unit_test(test_se2_centres_follow_eq9),
        cmocka_unit_test(test_maximize_1d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
