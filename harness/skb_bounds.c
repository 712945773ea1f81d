/* skb_bounds.c — bounds and worked examples by numerical optimisation on the
 * registered methods (see skb_bounds.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <gsl/gsl_multimin.h>
#include "skb_bounds.h"

#define T_TOL       1e-11  /* Brent: width of the final t interval */
#define T_SCAN      32     /* scan that brackets the maximum before Brent */
#define SIMPLEX_TOL 1e-9   /* Nelder-Mead: simplex size at convergence */
#define SIMPLEX_MAX 400
#define SPEED_H     1e-4   /* finite-difference step for |omega(t)| */

struct fn1 {
    double (*f)(double x, void *p);
    void *p;
};

static double negf(double x, void *q)
{
    const struct fn1 *g = q;
    return -g->f(x, g->p);
}

double skb_maximize_1d(double (*f)(double x, void *p), void *p, double lo, double hi, int nscan,
                       double tol, double *xbest)
{
    int best = 0;
    double fb = -INFINITY;
    for (int k = 0; k <= nscan; k++) {
        double x = lo + (hi - lo) * k / nscan, y = f(x, p);
        if (y > fb) {
            fb = y;
            best = k;
        }
    }
    *xbest = lo + (hi - lo) * best / nscan;
    if (best == 0 || best == nscan)
        return fb;                       /* the maximum sits on the boundary */
    struct fn1 g = { f, p };
    gsl_function fn;
    fn.function = negf;                  /* GSL minimises */
    fn.params = &g;
    gsl_set_error_handler_off();
    gsl_min_fminimizer *s = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    double a = lo + (hi - lo) * (best - 1) / nscan, b = lo + (hi - lo) * (best + 1) / nscan;
    if (s && gsl_min_fminimizer_set(s, &fn, *xbest, a, b) == GSL_SUCCESS) {
        for (int it = 0; it < 200; it++) {
            if (gsl_min_fminimizer_iterate(s) != GSL_SUCCESS)
                break;
            a = gsl_min_fminimizer_x_lower(s);
            b = gsl_min_fminimizer_x_upper(s);
            if (gsl_min_test_interval(a, b, tol, 0) == GSL_SUCCESS)
                break;
        }
        double x = gsl_min_fminimizer_x_minimum(s), y = f(x, p);
        if (y >= fb) {
            fb = y;
            *xbest = x;
        }
    }
    gsl_min_fminimizer_free(s);
    return fb;
}

/* rotation angle in [0, pi] of a rigid matrix, or of A^T B */
static double mat_angle(const double m[16])
{
    struct skb_dq q;
    skb_dq_from_mat4(m, &q);
    double sn = sqrt(q.r.x * q.r.x + q.r.y * q.r.y + q.r.z * q.r.z);
    return 2 * atan2(sn, fabs(q.r.w));
}

static double rel_angle(const double a[16], const double b[16])
{
    double ai[16], e[16];
    skb_mat4_inv_rigid(a, ai);
    skb_mat4_mul(ai, b, e);
    return mat_angle(e);
}

static int blend2(const struct skb_method *m, const double *mats, double t, double out[16])
{
    double w[2] = { 1 - t, t };
    /* a method that needs a rotation centre (qb) blends about the origin:
     * the frame of the first transform, I */
    static const double origin[3] = { 0, 0, 0 };
    struct skb_blend_in in = { 2, w, mats, (m->flags & SKB_MF_NEEDS_CENTER) ? origin : NULL };
    return skb_blend(m, &in, NULL, out, NULL, NULL, 0);
}

/* the registered blend with role `role` (enum skb_method_flags); `what`
 * names it for the error */
static int need(unsigned role, const char *what, const struct skb_method **m, char *msg, size_t msglen)
{
    *m = skb_method_with_flag(role);
    if (!*m || !(*m)->blend) {
        snprintf(msg, msglen, "bounds: no %s method is registered", what);
        return SKB_ENOTSUP;
    }
    return 0;
}

/* ---- the outer maximisation over angles (Nelder-Mead simplex) ----
 * alpha0 = pi sin^2(x) maps the real line onto [0, pi], so the boundary
 * alpha0 = pi (where the gaps peak) is an interior optimum in x */

struct outer {
    double (*inner)(const double *v, void *p, double *tbest);   /* max over t */
    void *p;
    int evals;
};

static double outer_f(const gsl_vector *x, void *q)
{
    struct outer *o = q;
    double v[2] = { gsl_vector_get(x, 0), x->size > 1 ? gsl_vector_get(x, 1) : 0 }, t;
    o->evals++;
    return -o->inner(v, o->p, &t);
}

static double outer_max(struct outer *o, int dim, const double *start, double *vbest, double *tbest)
{
    gsl_multimin_function fn = { outer_f, (size_t)dim, o };
    gsl_vector *x = gsl_vector_alloc((size_t)dim), *step = gsl_vector_alloc((size_t)dim);
    gsl_multimin_fminimizer *s = gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, (size_t)dim);
    for (int i = 0; i < dim; i++) {
        gsl_vector_set(x, (size_t)i, start[i]);
        gsl_vector_set(step, (size_t)i, 0.3);
    }
    gsl_set_error_handler_off();
    gsl_multimin_fminimizer_set(s, &fn, x, step);
    for (int it = 0; it < SIMPLEX_MAX; it++) {
        if (gsl_multimin_fminimizer_iterate(s) != GSL_SUCCESS)
            break;
        if (gsl_multimin_test_size(gsl_multimin_fminimizer_size(s), SIMPLEX_TOL) == GSL_SUCCESS)
            break;
    }
    for (int i = 0; i < dim; i++)
        vbest[i] = gsl_vector_get(gsl_multimin_fminimizer_x(s), (size_t)i);
    double best = o->inner(vbest, o->p, tbest);
    gsl_multimin_fminimizer_free(s);
    gsl_vector_free(x);
    gsl_vector_free(step);
    return best;
}

static double alpha_of(double x)
{
    double s = sin(x);
    return SKB_PI * s * s;
}

/* ---- QLB vs SLERP (thesis Lemma 3.2) ---- */

struct qlb_ctx {
    const struct skb_method *m;
    double mats[32];
    struct skb_quat q1;
    double alpha0;
    int err;
};

static double qlb_gap(double t, void *p)
{
    struct qlb_ctx *c = p;
    double out[16];
    struct skb_quat id = { 1, 0, 0, 0 }, s;
    if (blend2(c->m, c->mats, t, out) < 0) {
        c->err = 1;
        return 0;
    }
    skb_quat_slerp(&id, &c->q1, t, &s);
    double sn = sqrt(s.x * s.x + s.y * s.y + s.z * s.z);
    return fabs(mat_angle(out) - 2 * atan2(sn, fabs(s.w)));
}

static void qlb_setup(struct qlb_ctx *c, double alpha0)
{
    double axis[3] = { 0.3, -0.5, 0.8 }, r[9], zero[3] = { 0, 0, 0 };
    c->alpha0 = alpha0;
    skb_mat4_identity(c->mats);
    skb_quat_from_axis_angle(axis, c->alpha0, &c->q1);
    skb_quat_to_mat3(&c->q1, r);
    skb_mat4_from_rt(r, zero, c->mats + 16);
}

static double qlb_inner(const double *v, void *p, double *tbest)
{
    struct qlb_ctx *c = p;
    qlb_setup(c, alpha_of(v[0]));
    return skb_maximize_1d(qlb_gap, c, 0, 1, T_SCAN, T_TOL, tbest);
}

int skb_bound_qlb_slerp_curve(double alpha0, int n, double *t, double *gap, char *msg, size_t msglen)
{
    struct qlb_ctx c;
    int rc;
    memset(&c, 0, sizeof c);
    if ((rc = need(SKB_MF_QUAT_LINEAR, "QLB'0", &c.m, msg, msglen)) < 0)
        return rc;
    qlb_setup(&c, alpha0);
    for (int i = 0; i < n; i++) {
        t[i] = (double)i / (n - 1);
        gap[i] = qlb_gap(t[i], &c);
    }
    if (c.err) {
        snprintf(msg, msglen, "bounds: qlb0 blend failed on the gap curve");
        return SKB_ENUMERIC;
    }
    return 0;
}

int skb_bound_qlb_slerp(struct skb_bound *out, char *msg, size_t msglen)
{
    struct qlb_ctx c;
    int rc;
    memset(&c, 0, sizeof c);
    if ((rc = need(SKB_MF_QUAT_LINEAR, "QLB'0", &c.m, msg, msglen)) < 0)
        return rc;
    struct outer o = { qlb_inner, &c, 0 };
    double start = 1.0, v[2], t;
    out->gap = outer_max(&o, 1, &start, v, &t);
    out->t = t;
    out->alpha0 = alpha_of(v[0]);
    out->evals = o.evals;
    if (c.err) {
        snprintf(msg, msglen, "bounds: qlb0 blend failed during the optimisation");
        return SKB_ENUMERIC;
    }
    return 0;
}

/* ---- DLB vs ScLERP (thesis 4.3, App. A.1) ---- */

/* any blend m against the exact pair interpolation ref (DLB vs ScLERP is
 * the thesis's case) */
struct dlb_ctx {
    const struct skb_method *dlb, *sclerp;   /* m, ref */
    double mats[32];
    double alpha0;
    int which;        /* 0: angle gap, 1: translation gap / alpha_eps */
    int err;
    double rigid_err; /* worst rigidity error of m's blends evaluated */
};

#define DLB_ALPHA_EPS 1.0   /* translation along the screw axis of M2 */

static double dlb_gap(double t, void *p)
{
    struct dlb_ctx *c = p;
    double a[16], b[16];
    struct skb_dq qa, qb;
    struct skb_screw sa, sb;
    if (blend2(c->dlb, c->mats, t, a) < 0 || blend2(c->sclerp, c->mats, t, b) < 0) {
        c->err = 1;
        return 0;
    }
    c->rigid_err = fmax(c->rigid_err, (double)skb_mat4_rigid_error(a));
    if (c->which == 0)
        return fabs(mat_angle(a) - mat_angle(b));
    skb_dq_from_mat4(a, &qa);
    skb_dq_from_mat4(b, &qb);
    skb_dq_screw(&qa, &sa);
    skb_dq_screw(&qb, &sb);
    /* both share the screw axis (thesis 4.3); compare translations along it */
    double ta = sa.translation * skb_v3_dot(sa.axis, sb.axis);
    return fabs(ta - sb.translation) / DLB_ALPHA_EPS;
}

/* M2: rotation alpha0 about the z axis through (offset, 0, 0), then alpha_eps along z */
static void dlb_setup(struct dlb_ctx *c, double alpha0, double off)
{
    double axis[3] = { 0, 0, 1 }, r[9], t[3];
    struct skb_quat q;
    c->alpha0 = alpha0;
    skb_quat_from_axis_angle(axis, c->alpha0, &q);
    skb_quat_to_mat3(&q, r);
    /* x -> R (x - o) + o + eps z: translation o - R o + eps z */
    t[0] = off - r[0] * off;
    t[1] = -r[3] * off;
    t[2] = DLB_ALPHA_EPS;
    skb_mat4_identity(c->mats);
    skb_mat4_from_rt(r, t, c->mats + 16);
}

static double dlb_inner(const double *v, void *p, double *tbest)
{
    struct dlb_ctx *c = p;
    dlb_setup(c, alpha_of(v[0]), v[1]);
    return skb_maximize_1d(dlb_gap, c, 0, 1, T_SCAN, T_TOL, tbest);
}

int skb_bound_dlb_sclerp_curve(double alpha0, double offset, int n, double *t, double *angle_gap,
                               double *trans_gap, char *msg, size_t msglen)
{
    struct dlb_ctx c;
    int rc;
    memset(&c, 0, sizeof c);
    if ((rc = need(SKB_MF_HEADLINE, "DLB", &c.dlb, msg, msglen)) < 0 || (rc = need(SKB_MF_EXACT_PAIR, "ScLERP", &c.sclerp, msg, msglen)) < 0)
        return rc;
    dlb_setup(&c, alpha0, offset);
    for (int i = 0; i < n; i++) {
        t[i] = (double)i / (n - 1);
        c.which = 0;
        angle_gap[i] = dlb_gap(t[i], &c);
        c.which = 1;
        trans_gap[i] = dlb_gap(t[i], &c);
    }
    if (c.err) {
        snprintf(msg, msglen, "bounds: dlb/sclerp blend failed on the gap curve");
        return SKB_ENUMERIC;
    }
    return 0;
}

int skb_bound_vs_exact(const struct skb_method *m, const struct skb_method *ref, struct skb_bound *angle,
                       struct skb_bound *trans, double *rigid_err, char *msg, size_t msglen)
{
    struct dlb_ctx c;
    memset(&c, 0, sizeof c);
    c.dlb = m;
    c.sclerp = ref;
    if (!m->blend || !ref->blend || (m->max_n && m->max_n < 2)) {
        snprintf(msg, msglen, "bounds: %s against %s: both need a blend of two transforms", m->name, ref->name);
        return SKB_ENOTSUP;
    }
    struct skb_bound *outs[2] = { angle, trans };
    for (int w = 0; w < 2; w++) {
        struct outer o = { dlb_inner, &c, 0 };
        double start[2] = { 1.0, 0.7 }, v[2], t;
        c.which = w;
        outs[w]->gap = outer_max(&o, 2, start, v, &t);
        outs[w]->t = t;
        outs[w]->alpha0 = alpha_of(v[0]);
        outs[w]->evals = o.evals;
    }
    if (rigid_err)
        *rigid_err = c.rigid_err;
    if (c.err) {
        snprintf(msg, msglen, "bounds: %s/%s blend failed during the optimisation", m->name, ref->name);
        return SKB_ENUMERIC;
    }
    return 0;
}

int skb_bound_dlb_sclerp(struct skb_bound *angle, struct skb_bound *trans, char *msg, size_t msglen)
{
    const struct skb_method *dlb, *sclerp;
    int rc;
    if ((rc = need(SKB_MF_HEADLINE, "DLB", &dlb, msg, msglen)) < 0 || (rc = need(SKB_MF_EXACT_PAIR, "ScLERP", &sclerp, msg, msglen)) < 0)
        return rc;
    return skb_bound_vs_exact(dlb, sclerp, angle, trans, NULL, msg, msglen);
}

/* ---- log-matrix angular speed (thesis App. A.2) ---- */

double skb_logm_speed_closed(double t)
{
    double u = 1 + t * t;
    return sqrt((t * t * t * t + t * t + 2 - 2 * cos(sqrt(u))) / (u * u));
}

static void logm_inputs(double mats[32])
{
    double x[3] = { 1, 0, 0 }, d[3] = { 1 / sqrt(2.0), 1 / sqrt(2.0), 0 }, r[9], zero[3] = { 0, 0, 0 };
    struct skb_quat q;
    skb_quat_from_axis_angle(x, 1.0, &q);
    skb_quat_to_mat3(&q, r);
    skb_mat4_from_rt(r, zero, mats);
    skb_quat_from_axis_angle(d, sqrt(2.0), &q);
    skb_quat_to_mat3(&q, r);
    skb_mat4_from_rt(r, zero, mats + 16);
}

int skb_logm_speed_measured(double t, double *speed, char *msg, size_t msglen)
{
    const struct skb_method *m;
    double mats[32], r0[16], r1[16], r2[16];
    int rc;
    if ((rc = need(SKB_MF_LOG_BLEND, "Log", &m, msg, msglen)) < 0)
        return rc;
    if (!(t >= 0 && t <= 1)) {
        snprintf(msg, msglen, "bounds: logm speed: t = %g outside [0, 1]", t);
        return SKB_EINVAL;
    }
    logm_inputs(mats);
    /* one-sided differences towards the inside of [0, 1] (the weights must stay
     * convex), Richardson-extrapolated: |omega| = 2 q(h/2) - q(h) + O(h^2) with
     * q(h) = angle(R(t)^T R(t + s h)) / h */
    double s = t < 0.5 ? 1 : -1;
    if ((rc = blend2(m, mats, t, r0)) < 0 || (rc = blend2(m, mats, t + s * SPEED_H / 2, r1)) < 0
        || (rc = blend2(m, mats, t + s * SPEED_H, r2)) < 0) {
        snprintf(msg, msglen, "bounds: logm blend failed at t = %g", t);
        return rc;
    }
    double qh = rel_angle(r0, r2) / SPEED_H, qh2 = rel_angle(r0, r1) / (SPEED_H / 2);
    *speed = 2 * qh2 - qh;
    return 0;
}

/* ---- SE(2) rotation centres under DLB (DQ paper eq. 9) ---- */

static void se2_member(double alpha, double m[16])
{
    double axis[3] = { 0, 0, 1 }, r[9], t[3] = { 2 * cos(alpha), 2 * sin(alpha), 0 };
    struct skb_quat q;
    skb_quat_from_axis_angle(axis, alpha, &q);
    skb_quat_to_mat3(&q, r);
    skb_mat4_from_rt(r, t, m);
}

int skb_se2_centre(double alpha1, double alpha2, double t, double centre_measured[2],
                   double centre_formula[2], char *msg, size_t msglen)
{
    const struct skb_method *m;
    double mats[32], out[16];
    int rc;
    if ((rc = need(SKB_MF_HEADLINE, "DLB", &m, msg, msglen)) < 0)
        return rc;
    se2_member(alpha1, mats);
    se2_member(alpha2, mats + 16);
    if ((rc = blend2(m, mats, t, out)) < 0) {
        snprintf(msg, msglen, "bounds: dlb blend failed at t = %g", t);
        return rc;
    }
    /* the fixed point of x -> R x + p in the plane: (I - R) c = p */
    double a = 1 - out[0], b = -out[1], c = -out[4], d = 1 - out[5], det = a * d - b * c;
    if (!(fabs(det) > 1e-300)) {
        snprintf(msg, msglen, "bounds: blended SE(2) transform has no rotation centre");
        return SKB_ENUMERIC;
    }
    centre_measured[0] = (d * out[3] - b * out[7]) / det;
    centre_measured[1] = (a * out[7] - c * out[3]) / det;
    /* eq. (9): sin(alpha_i / 2)-weighted interpolation of r_i = (-1, cot(alpha_i / 2)) */
    double s1 = (1 - t) * sin(alpha1 / 2), s2 = t * sin(alpha2 / 2);
    double c1 = cos(alpha1 / 2) / sin(alpha1 / 2), c2 = cos(alpha2 / 2) / sin(alpha2 / 2);
    centre_formula[0] = -1;
    centre_formula[1] = (s1 * c1 + s2 * c2) / (s1 + s2);
    return 0;
}
