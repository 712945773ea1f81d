/* skb_test.h — shared test helpers: cmocka, named tolerances, random rigid
 * transforms from a printed, settable seed (SKB_TEST_SEED). */
#ifndef SKB_TEST_H
#define SKB_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include "skb_method.h"

/* tolerances, scaled to unit-size inputs in double precision */
#define TOL_EXACT   1e-12   /* identities that hold to rounding */
#define TOL_TIGHT   1e-9    /* closed forms through trig / sqrt */
#define TOL_ITER    1e-6    /* iterative methods at their default precision */

#define assert_near(a, b, tol) do { \
    double a_ = (double)(a), b_ = (double)(b); \
    if (!(fabs(a_ - b_) <= (tol))) \
        fail_msg("%s = %.17g, %s = %.17g, |diff| %.3g > %g", #a, a_, #b, b_, fabs(a_ - b_), (double)(tol)); \
} while (0)

static inline unsigned long skb_test_seed(void)
{
    const char *s = getenv("SKB_TEST_SEED");
    unsigned long seed = s ? strtoul(s, NULL, 10) : 12345UL;
    return seed;
}

static inline gsl_rng *skb_test_rng(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    unsigned long seed = skb_test_seed();
    gsl_rng_set(r, seed);
    print_message("seed %lu (set SKB_TEST_SEED to change)\n", seed);
    return r;
}

/* random rotation axis/angle (angle uniform in [0, maxangle]) + translation */
static inline void skb_test_random_rigid(gsl_rng *r, double maxangle, double tscale, double m[16])
{
    double axis[3], rot[9], t[3];
    struct skb_quat q;
    gsl_ran_dir_3d(r, &axis[0], &axis[1], &axis[2]);
    skb_quat_from_axis_angle(axis, gsl_rng_uniform(r) * maxangle, &q);
    skb_quat_to_mat3(&q, rot);
    for (int i = 0; i < 3; i++)
        t[i] = tscale * (2 * gsl_rng_uniform(r) - 1);
    skb_mat4_from_rt(rot, t, m);
}

/* two joints about one axis, the second turned back twice as far, with
 * translations: the small two-joint pose the CoR and DDM tests share */
static inline void skb_test_pose2(double ang, double mats[32])
{
    double ax[3] = { 0.3, 0.4, 0.866 }, r[9], t0[3] = { 0.5, -1, 2 }, t1[3] = { -0.2, 0.7, 0.1 };
    struct skb_quat q;
    double n = skb_v3_norm(ax);
    for (int k = 0; k < 3; k++)
        ax[k] /= n;
    skb_quat_from_axis_angle(ax, ang, &q);
    skb_quat_to_mat3(&q, r);
    skb_mat4_from_rt(r, t0, mats);
    skb_quat_from_axis_angle(ax, -2 * ang, &q);
    skb_quat_to_mat3(&q, r);
    skb_mat4_from_rt(r, t1, mats + 16);
}

static inline void skb_test_random_weights(gsl_rng *r, int n, double *w)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += (w[i] = gsl_rng_uniform_pos(r));
    for (int i = 0; i < n; i++)
        w[i] /= s;
}

static inline double skb_test_mat_diff(const double *a, const double *b, int n)
{
    double e = 0;
    for (int i = 0; i < n; i++)
        if (fabs(a[i] - b[i]) > e)
            e = fabs(a[i] - b[i]);
    return e;
}

#endif
