/* test_math.c — the math module: conversions round-trip, exp/log invert,
 * Algorithm 1 equals the matrix, screw parameters rebuild the transform. */
#include "skb_test.h"
#include "skb_dqblend.h"

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

/* ---- the operation-minimal kernels against the formulas they replaced ----
 * The FLOP work rewrote the counted code: quaternion -> matrix
 * from 2/<q,q>, the dual part as a product by the pure t, DLB's translation
 * as vec(E R*)/<R,R> without a full dual normalisation.  These are
 * reformulations: on seeded random inputs they must agree with the old
 * formulas, kept here verbatim as the oracle, to 1e-12 relative. */
#define REFORM_TOL 1e-12

/* the old quaternion from a rotation matrix: Shoemake's trace-first branch */
static void old_quat_from_mat3(const double m[9], struct skb_quat *out)
{
    double tr = m[0] + m[4] + m[8];
    struct skb_quat q;
    if (tr > 0) {
        double s = sqrt(tr + 1) * 2;
        q.w = s / 4; q.x = (m[7] - m[5]) / s; q.y = (m[2] - m[6]) / s; q.z = (m[3] - m[1]) / s;
    } else if (m[0] > m[4] && m[0] > m[8]) {
        double s = sqrt(1 + m[0] - m[4] - m[8]) * 2;
        q.w = (m[7] - m[5]) / s; q.x = s / 4; q.y = (m[1] + m[3]) / s; q.z = (m[2] + m[6]) / s;
    } else if (m[4] > m[8]) {
        double s = sqrt(1 + m[4] - m[0] - m[8]) * 2;
        q.w = (m[2] - m[6]) / s; q.x = (m[1] + m[3]) / s; q.y = s / 4; q.z = (m[5] + m[7]) / s;
    } else {
        double s = sqrt(1 + m[8] - m[0] - m[4]) * 2;
        q.w = (m[3] - m[1]) / s; q.x = (m[2] + m[6]) / s; q.y = (m[5] + m[7]) / s; q.z = s / 4;
    }
    if (q.w < 0)
        skb_quat_scale(&q, -1, &q);
    *out = q;
}

static void old_quat_to_mat3_scaled(const struct skb_quat *q, double m[9])
{
    double ww = q->w * q->w, xx = q->x * q->x, yy = q->y * q->y, zz = q->z * q->z;
    double inv = 1 / (ww + xx + yy + zz);
    double xy = 2 * q->x * q->y, xz = 2 * q->x * q->z, yz = 2 * q->y * q->z;
    double wx = 2 * q->w * q->x, wy = 2 * q->w * q->y, wz = 2 * q->w * q->z;
    m[0] = (xx + ww - yy - zz) * inv; m[1] = (xy - wz) * inv; m[2] = (xz + wy) * inv;
    m[3] = (xy + wz) * inv; m[4] = (yy + ww - xx - zz) * inv; m[5] = (yz - wx) * inv;
    m[6] = (xz - wy) * inv; m[7] = (yz + wx) * inv; m[8] = (zz + ww - xx - yy) * inv;
}

static void old_dq_from_mat4(const double m[16], struct skb_dq *out)
{
    double r[9], t[3];
    struct skb_quat q, tq, d;
    skb_mat4_to_rt(m, r, t);
    old_quat_from_mat3(r, &q);
    tq.w = 0; tq.x = t[0]; tq.y = t[1]; tq.z = t[2];
    skb_quat_mul(&tq, &q, &d);
    out->r = q;
    skb_quat_scale(&d, 0.5, &out->d);
}

static void old_dq_to_mat4(const struct skb_dq *q, double m[16])
{
    struct skb_quat c, tt;
    double r[9], t[3];
    skb_quat_conj(&q->r, &c);
    skb_quat_mul(&q->d, &c, &tt);
    t[0] = 2 * tt.x; t[1] = 2 * tt.y; t[2] = 2 * tt.z;
    skb_quat_to_mat3(&q->r, r);
    skb_mat4_from_rt(r, t, m);
}

static int old_dq_normalize(const struct skb_dq *q, struct skb_dq *out)
{
    double n2 = skb_quat_dot(&q->r, &q->r);
    if (!(n2 > 0) || !isfinite(n2))
        return -1;
    double inv = 1 / sqrt(n2), de = skb_quat_dot(&q->r, &q->d) / n2;
    struct skb_quat r, d;
    skb_quat_scale(&q->r, inv, &r);
    skb_quat_scale(&q->d, inv, &d);
    skb_quat_axpy(-de, &r, &d);
    out->r = r;
    out->d = d;
    return 0;
}

/* the old dlb_blend (pivot = first positive weight; chain for hierarchy) */
static int old_dlb(int n, const double *w, const double *mats, int antipodal, double out[16])
{
    struct skb_dq piv, prev, qi, b, u;
    int pivot = 0;
    while (pivot < n - 1 && !(w[pivot] > 0))
        pivot++;
    old_dq_from_mat4(mats + 16 * pivot, &piv);
    prev = piv;
    memset(&b, 0, sizeof b);
    double ref = 0;
    for (int i = 0; i < n; i++) {
        if (i == pivot)
            qi = piv;
        else
            old_dq_from_mat4(mats + 16 * i, &qi);
        if (antipodal == SKB_ANTIPODAL_PIVOT && skb_quat_dot(&piv.r, &qi.r) < 0)
            skb_dq_scale(&qi, -1, &qi);
        else if (antipodal == SKB_ANTIPODAL_HIERARCHY && i > 0 && skb_quat_dot(&prev.r, &qi.r) < 0)
            skb_dq_scale(&qi, -1, &qi);
        skb_dq_axpy(w[i], &qi, &b);
        ref += w[i] * skb_quat_norm(&qi.r);
        prev = qi;
    }
    if (skb__dlb_cancelled(&b, ref) || old_dq_normalize(&b, &u) < 0)
        return SKB_ECANCEL;
    old_dq_to_mat4(&u, out);
    return 0;
}

/* the old skb_mat4_qlb */
static int old_qlb(int n, const double *w, const double *mats, const double *c, int pivot, double out[16])
{
    struct skb_quat s = { 0, 0, 0, 0 }, p = s, q;
    double t[3] = { 0, 0, 0 }, rot[9], ci[3];
    int have = 0;
    for (int i = 0; i < n; i++) {
        const double *m = mats + 16 * i;
        double wi = w[i];
        if (wi == 0)
            continue;
        skb_mat4_to_rt(m, rot, ci);
        old_quat_from_mat3(rot, &q);
        if (!have) {
            p = q;
            have = 1;
        } else if (pivot && skb_quat_dot(&p, &q) < 0) {
            wi = -wi;
        }
        skb_quat_axpy(wi, &q, &s);
        if (c)
            skb_mat4_apply(m, c, ci);
        for (int k = 0; k < 3; k++)
            t[k] += w[i] * ci[k];
    }
    if (!(skb_quat_dot(&s, &s) > SKB_QLB_MIN_NORM2))
        return -1;
    old_quat_to_mat3_scaled(&s, rot);
    if (c)
        for (int k = 0; k < 3; k++)
            t[k] -= rot[3 * k] * c[0] + rot[3 * k + 1] * c[1] + rot[3 * k + 2] * c[2];
    skb_mat4_from_rt(rot, t, out);
    return 0;
}

/* the old sclerp_blend: two conversions, p (p* q)^t with full products */
static void old_sclerp(const double *mats, double t, double out[16])
{
    struct skb_dq p, q, pc, d, dt, r;
    old_dq_from_mat4(mats, &p);
    old_dq_from_mat4(mats + 16, &q);
    if (skb_quat_dot(&p.r, &q.r) < 0)
        skb_dq_scale(&q, -1, &q);
    skb_dq_conj(&p, &pc);
    skb_dq_mul(&pc, &q, &d);
    skb_dq_pow(&d, t, &dt);
    skb_dq_mul(&p, &dt, &r);
    old_dq_to_mat4(&r, out);
}

/* |a - b|_max relative to max(1, |b|_max) */
static double rel_diff(const double *a, const double *b, int n)
{
    double s = 1;
    for (int i = 0; i < n; i++)
        s = fmax(s, fabs(b[i]));
    return skb_test_mat_diff(a, b, n) / s;
}

static void test_reformulated_kernels_match_old_formulas(void **state)
{
    gsl_rng *r = skb_test_rng();
    const struct skb_method *dlb = skb_method_find("dlb"), *qlb0 = skb_method_find("qlb0");
    assert_non_null(dlb);
    assert_non_null(qlb0);
    double worst = 0;
    int blends = 0;
    for (int k = 0; k < 2000; k++) {
        int n = 1 + k % 8;
        double mats[16 * 8], w[8], c[3], a[16], b[16], m3a[9], m3b[9];
        for (int i = 0; i < n; i++)
            skb_test_random_rigid(r, SKB_PI, 10, mats + 16 * i);
        skb_test_random_weights(r, n, w);
        for (int i = 0; i < 3; i++)
            c[i] = 4 * gsl_rng_uniform(r) - 2;
        /* primitives: a non-unit quaternion's scaled matrix, dq <-> 4x4 */
        struct skb_quat q = { gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1),
                              gsl_ran_gaussian(r, 1) };
        skb_quat_to_mat3_scaled(&q, m3a);
        old_quat_to_mat3_scaled(&q, m3b);
        worst = fmax(worst, rel_diff(m3a, m3b, 9));
        double rot[9], tt[3];
        struct skb_quat qa, qb;
        skb_mat4_to_rt(mats, rot, tt);
        skb_quat_from_mat3(rot, &qa);      /* both give w >= 0 */
        old_quat_from_mat3(rot, &qb);
        worst = fmax(worst, rel_diff(&qa.w, &qb.w, 4));
        struct skb_dq dqa, dqb;
        skb_dq_from_mat4(mats, &dqa);
        old_dq_from_mat4(mats, &dqb);
        worst = fmax(worst, rel_diff(&dqa.r.w, &dqb.r.w, 8));
        skb_dq_to_mat4(&dqb, a);
        old_dq_to_mat4(&dqb, b);
        worst = fmax(worst, rel_diff(a, b, 16));
        /* the blends, through the registry (the counted and timed code) */
        for (int mode = 0; mode < 2; mode++) {
            struct skb_params prm;
            skb_params_default(&prm);
            prm.antipodal = mode ? SKB_ANTIPODAL_HIERARCHY : SKB_ANTIPODAL_PIVOT;
            struct skb_blend_in in = { n, w, mats, NULL };
            assert_int_equal(skb_blend(dlb, &in, &prm, a, NULL, NULL, 0), 0);
            assert_int_equal(old_dlb(n, w, mats, prm.antipodal, b), 0);
            worst = fmax(worst, rel_diff(a, b, 16));
            if (skb_blend(qlb0, &in, &prm, a, NULL, NULL, 0) == 0 && old_qlb(n, w, mats, NULL, 1, b) == 0)
                worst = fmax(worst, rel_diff(a, b, 16));
            blends += 2;
        }
        if (n == 2) {
            struct skb_params prm;
            skb_params_default(&prm);
            struct skb_blend_in in = { 2, w, mats, NULL };
            assert_int_equal(skb_blend(skb_method_find("sclerp"), &in, &prm, a, NULL, NULL, 0), 0);
            old_sclerp(mats, w[1], b);
            worst = fmax(worst, rel_diff(a, b, 16));
        }
        assert_int_equal(skb_mat4_qlb(n, w, mats, c, 1, a), 0);   /* QLB'_c (sb, qb) */
        assert_int_equal(old_qlb(n, w, mats, c, 1, b), 0);
        worst = fmax(worst, rel_diff(a, b, 16));
        if (!(worst <= REFORM_TOL))
            fail_msg("input %d (n = %d): new kernels differ from the old formulas by %.3g relative > %g",
                     k, n, worst, REFORM_TOL);
    }
    print_message("%d blends: worst relative difference to the old formulas %.3g\n", blends, worst);
    gsl_rng_free(r);
}

/* a random skinned mesh for the skin-path reformulation checks: NJ joints
 * in a random tree, 1-4 influences per vertex, convex weights */
#define RM_NV 400
#define RM_NJ 9
struct rmesh {
    struct skb_mesh m;
    double pos[3 * RM_NV], nrm[3 * RM_NV], weight[4 * RM_NV], mats[16 * RM_NJ];
    int joint[4 * RM_NV], parent[RM_NJ];
};

static void random_mesh(gsl_rng *r, struct rmesh *x)
{
    memset(x, 0, sizeof *x);
    for (int j = 0; j < RM_NJ; j++)
        x->parent[j] = j ? (int)gsl_rng_uniform_int(r, (unsigned long)j) : -1;
    for (int v = 0; v < RM_NV; v++) {
        int n = 1 + (int)gsl_rng_uniform_int(r, 4);
        double w[4];
        skb_test_random_weights(r, n, w);
        for (int k = 0; k < n; k++) {
            x->joint[4 * v + k] = (int)gsl_rng_uniform_int(r, RM_NJ);
            x->weight[4 * v + k] = w[k];
        }
        double nn = 0;
        for (int i = 0; i < 3; i++) {
            x->pos[3 * v + i] = 4 * gsl_rng_uniform(r) - 2;
            x->nrm[3 * v + i] = gsl_ran_gaussian(r, 1);
            nn += x->nrm[3 * v + i] * x->nrm[3 * v + i];
        }
        for (int i = 0; i < 3; i++)
            x->nrm[3 * v + i] /= sqrt(nn);
    }
    x->m.nverts = RM_NV;
    x->m.njoints = RM_NJ;
    x->m.pos = x->pos;
    x->m.nrm = x->nrm;
    x->m.joint = x->joint;
    x->m.weight = x->weight;
    x->m.parent = x->parent;
}

/* the old DLB skin of one vertex: gathered copies, the guard with a square
 * root per input, Algorithm 1 with two normalisations (skb_dq_transform_*) */
static int old_dlb_skin_vertex(const struct skb_mesh *m, const void *state, int v, double x[3], double n[3])
{
    struct skb_dq q[SKB_MAX_INFLUENCES], b;
    double w[SKB_MAX_INFLUENCES], ref = 0;
    int cnt = skb__dq_gather(m, state, v, q, w);
    memset(&b, 0, sizeof b);
    for (int i = 0; i < cnt; i++) {
        skb_dq_axpy(w[i], &q[i], &b);
        ref += w[i] * skb_quat_norm(&q[i].r);
    }
    if (skb__dlb_cancelled(&b, ref))
        return SKB_ECANCEL;
    skb_dq_transform_point(&b, m->pos + 3 * v, x);
    skb_dq_transform_normal(&b, m->nrm + 3 * v, n);
    return 0;
}

/* the old DIB (methods/dib.c before its FLOP rewrite, verbatim but for names):
 * skb__dlb_sum's start with the square-root guard, every pass through
 * skb_math.c, the confirming pass also for n = 1 and 2, a final
 * normalisation */
static int old_dib(int n, const double *w, struct skb_dq *q, double precision, int max_iter, struct skb_dq *b,
                   int *iterations)
{
    struct skb_dq s;
    double ref = 0;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < n; i++) {
        skb_dq_axpy(w[i], &q[i], &s);
        ref += w[i] * skb_quat_norm(&q[i].r);
    }
    if (skb__dlb_cancelled(&s, ref) || skb_dq_normalize(&s, b) < 0)
        return SKB_ECANCEL;
    int it = 0;
    for (;;) {
        struct skb_dq x, bc, d, l, e, nb;
        memset(&x, 0, sizeof x);
        skb_dq_conj(b, &bc);
        for (int i = 0; i < n; i++) {
            skb_dq_mul(&bc, &q[i], &d);
            skb_dq_log(&d, &l);
            skb_dq_axpy(w[i], &l, &x);
        }
        double nx = sqrt(skb_quat_dot(&x.r, &x.r) + skb_quat_dot(&x.d, &x.d));
        int converged = nx < precision;
        if (!converged && it >= max_iter)
            break;
        skb_dq_exp(&x, &e);
        skb_dq_mul(b, &e, &nb);
        *b = nb;
        if (converged)
            break;
        it++;
    }
    struct skb_dq u;
    if (skb_dq_normalize(b, &u) == 0)
        *b = u;
    *iterations = it;
    return 0;
}

/* the old DIB skin of one vertex */
static int old_dib_skin_vertex(const struct skb_mesh *m, const void *state, int v, double x[3], double n[3],
                               int *iterations)
{
    struct skb_dq q[SKB_MAX_INFLUENCES], b;
    double w[SKB_MAX_INFLUENCES];
    struct skb_params prm;
    skb_params_default(&prm);
    int cnt = skb__dq_gather(m, state, v, q, w);
    int rc = old_dib(cnt, w, q, prm.dib_precision, prm.dib_max_iter, &b, iterations);
    if (rc < 0)
        return rc;
    skb_dq_transform_point(&b, m->pos + 3 * v, x);
    skb_dq_transform_normal(&b, m->nrm + 3 * v, n);
    return 0;
}

/* DIB's blend (one division per log / exp, one input returned,
 * n = 2 without the confirming pass) against the old code on random inputs */
static void test_dib_blend_matches_old(void **state)
{
    gsl_rng *r = skb_test_rng();
    const struct skb_method *dib = skb_method_find("dib");
    struct skb_params prm;
    skb_params_default(&prm);
    double worst = 0;
    for (int k = 0; k < 2000; k++) {
        int n = 1 + k % 8, it_old = 0;
        double mats[16 * 8], w[8], a[16], b[16];
        struct skb_dq q[8], u;
        for (int i = 0; i < n; i++)
            skb_test_random_rigid(r, k % 2 ? SKB_PI : 0.5 * SKB_PI, 10, mats + 16 * i);
        skb_test_random_weights(r, n, w);
        struct skb_blend_in in = { n, w, mats, NULL };
        struct skb_blend_stats st;
        assert_int_equal(skb_blend(dib, &in, &prm, a, &st, NULL, 0), 0);
        for (int i = 0; i < n; i++)
            skb_dq_from_mat4(mats + 16 * i, &q[i]);
        skb__dq_antipodal_pivot(n, 0, q);
        assert_int_equal(old_dib(n, w, q, prm.dib_precision, prm.dib_max_iter, &u, &it_old), 0);
        skb_dq_to_mat4(&u, b);
        assert_int_equal(st.iterations, it_old);
        worst = fmax(worst, rel_diff(a, b, 16));
        if (!(worst <= REFORM_TOL))
            fail_msg("input %d (n = %d): DIB differs from the old code by %.3g relative > %g", k, n, worst, REFORM_TOL);
    }
    print_message("2000 DIB blends: worst relative difference to the old code %.3g\n", worst);
    gsl_rng_free(r);
}

/* the skin paths' reformulations (the sum straight from the joint
 * table, the guard from per-joint norms, Algorithm 1 over <b0,b0> with no
 * square root) against the old per-vertex code, for every sign rule */
static void test_skin_reformulations_match_old(void **state)
{
    gsl_rng *r = skb_test_rng();
    static struct rmesh x;
    static double pos[3 * RM_NV], nrm[3 * RM_NV];
    const struct skb_method *dlb = skb_method_find("dlb"), *dib = skb_method_find("dib");
    double worst = 0;
    int vertices = 0;
    for (int k = 0; k < 20; k++) {
        random_mesh(r, &x);
        for (int j = 0; j < RM_NJ; j++)
            skb_test_random_rigid(r, SKB_PI, 10, x.mats + 16 * j);
        struct skb_pose p = { RM_NJ, x.mats, NULL };
        for (int mode = 0; mode < 3; mode++) {
            struct skb_params prm;
            struct skb_skinner sk;
            skb_params_default(&prm);
            prm.antipodal = mode;
            assert_int_equal(skb_skin_init(&sk, dlb, &x.m, NULL, 0), 0);
            int rc = skb_skin_pose(&sk, &p, &prm, pos, nrm, NULL, 0);
            for (int v = 0; rc == 0 && v < RM_NV; v++) {
                double ox[3], on[3];
                assert_int_equal(old_dlb_skin_vertex(&x.m, sk.state, v, ox, on), 0);
                worst = fmax(worst, rel_diff(pos + 3 * v, ox, 3));
                worst = fmax(worst, rel_diff(nrm + 3 * v, on, 3));
                vertices++;
            }
            if (rc != 0)   /* NONE / HIERARCHY may cancel: then the old code must too */
                assert_int_equal(rc, SKB_ECANCEL);
            skb_skin_fini(&sk);
            /* DIB: same blends and the same iteration counts (pose_stats) */
            assert_int_equal(skb_skin_init(&sk, dib, &x.m, NULL, 0), 0);
            rc = skb_skin_pose(&sk, &p, &prm, pos, nrm, NULL, 0);
            int oldmax = 0;
            for (int v = 0; rc == 0 && v < RM_NV; v++) {
                double ox[3], on[3];
                int it = 0;
                assert_int_equal(old_dib_skin_vertex(&x.m, sk.state, v, ox, on, &it), 0);
                worst = fmax(worst, rel_diff(pos + 3 * v, ox, 3));
                worst = fmax(worst, rel_diff(nrm + 3 * v, on, 3));
                oldmax = it > oldmax ? it : oldmax;
                vertices++;
            }
            if (rc == 0) {
                struct skb_pose_stats st;
                assert_int_equal(dib->pose_stats(&x.m, sk.state, &st), 0);
                assert_int_equal(st.max_iterations, oldmax);
            }
            skb_skin_fini(&sk);
        }
        if (!(worst <= REFORM_TOL))
            fail_msg("mesh %d: the DLB / DIB skin differs from the old per-vertex code by %.3g relative > %g", k,
                     worst, REFORM_TOL);
    }
    assert_true(vertices > 0);
    print_message("%d vertices: worst relative difference of the skin paths to the old code %.3g\n", vertices, worst);
    gsl_rng_free(r);
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
        cmocka_unit_test(test_reformulated_kernels_match_old_formulas),
        cmocka_unit_test(test_skin_reformulations_match_old),
        cmocka_unit_test(test_dib_blend_matches_old),
    };
    return cmocka_run_group_tests_name("math", tests, NULL, NULL);
}
