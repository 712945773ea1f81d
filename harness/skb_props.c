/* skb_props.c — the property checks of thesis 4.1-4.2 (see skb_props.h).
 * Every number comes from running the method's blend on seeded inputs; the
 * worst input of a failed check is kept as a replayable counterexample. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include "skb_json.h"
#include "skb_props.h"

const char *const skb_prop_names[SKB_PROP_COUNT] = {
    "rigidity", "left_invariance", "right_invariance", "bi_invariance",
    "coordinate_invariance", "multi", "constant_speed", "shortest_path"
};

/* translation scales the inputs are drawn at (several orders of magnitude) */
static const double tscales[] = { 0.1, 1.0, 10.0 };
#define NSCALES ((int)(sizeof tscales / sizeof tscales[0]))

void skb_props_cfg_default(struct skb_props_cfg *cfg, unsigned long seed, int quick)
{
    cfg->seed = seed;
    cfg->samples = quick ? 150 : 3000;
    cfg->pairs = quick ? 30 : 400;
    cfg->grid = quick ? 16 : 64;
    cfg->nmax = SKB_PROPS_MAX_N;
}

static double rand_angle(gsl_rng *r)
{
    /* [0, pi] with extra mass at both ends: near-pi rotations are where the
     * quaternion sign choice and the screw axis get delicate */
    double u = gsl_rng_uniform(r);
    if (u < 0.15)
        return SKB_PI - 1e-3 * gsl_rng_uniform(r);
    if (u < 0.25)
        return 1e-3 * gsl_rng_uniform(r);
    return SKB_PI * gsl_rng_uniform(r);
}

static void rigid_from_angle(gsl_rng *r, double angle, double tscale, double m[16])
{
    double axis[3], rot[9], t[3];
    struct skb_quat q;
    gsl_ran_dir_3d(r, &axis[0], &axis[1], &axis[2]);
    skb_quat_from_axis_angle(axis, angle, &q);
    skb_quat_to_mat3(&q, rot);
    for (int i = 0; i < 3; i++)
        t[i] = tscale * (2 * gsl_rng_uniform(r) - 1);
    skb_mat4_from_rt(rot, t, m);
}

void skb_props_random_rigid(gsl_rng *r, double tscale, double m[16])
{
    rigid_from_angle(r, rand_angle(r), tscale, m);
}

static double tnorm(const double m[16])
{
    return sqrt(m[3] * m[3] + m[7] * m[7] + m[11] * m[11]);
}

/* largest entry difference, translations divided by the scale L */
static double mat_err(const double a[16], const double b[16], double L)
{
    double e = 0;
    for (int i = 0; i < 16; i++) {
        double d = fabs(a[i] - b[i]);
        if (i == 3 || i == 7 || i == 11)
            d /= L;
        if (!(d <= e))
            e = isnan(d) ? INFINITY : d;
    }
    return e;
}

/* one blend; 0 ok, 1 skipped (blend error or iteration cap reached) */
static int run_blend(const struct skb_method *m, const struct skb_params *prm, int n,
                     const double *w, const double *mats, const double *c, double out[16], int *rc)
{
    struct skb_blend_in in = { n, w, mats, c };
    struct skb_blend_stats st;
    *rc = skb_blend(m, &in, prm, out, &st, NULL, 0);
    if (*rc < 0)
        return 1;
    if ((m->flags & SKB_MF_ITERATIVE) && st.iterations >= prm->dib_max_iter)
        return 1;
    return 0;
}

static void random_weights(gsl_rng *r, int n, double *w)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += (w[i] = gsl_rng_uniform_pos(r));
    for (int i = 0; i < n; i++)
        w[i] /= s;
}

static void keep_cex(struct skb_prop_result *res, int kind, double err, int n, const double *w,
                     const double *mats, const double *c, const double *u, double t, const char *what)
{
    struct skb_prop_cex *x = &res->cex;
    if (x->valid && !(err > x->error))
        return;
    x->valid = 1;
    x->kind = kind;
    x->n = n;
    x->error = err;
    memcpy(x->w, w, sizeof(double) * (size_t)n);
    memcpy(x->mats, mats, sizeof(double) * 16 * (size_t)n);
    x->has_center = c != NULL;
    if (c)
        memcpy(x->center, c, sizeof x->center);
    x->has_u = u != NULL;
    if (u)
        memcpy(x->u, u, sizeof x->u);
    x->t = t;
    snprintf(x->what, sizeof x->what, "%s", what);
}

static void note(struct skb_prop_result *res, double err)
{
    res->samples++;
    if (!(err <= res->worst))
        res->worst = isnan(err) ? INFINITY : err;
}

static void finish(struct skb_prop_result *res, double tol)
{
    if (res->samples == 0)
        res->verdict = '?';
    else
        res->verdict = res->worst <= tol ? '+' : '-';
    if (res->verdict != '-')
        res->cex.valid = 0;
}

static void params_for(const struct skb_method *m, struct skb_params *prm)
{
    skb_params_default(prm);
    if (m->flags & SKB_MF_ITERATIVE) {
        prm->dib_precision = SKB_PROP_ITER_PRECISION;
        prm->dib_max_iter = SKB_PROP_ITER_CAP;
    }
}

static int method_nmax(const struct skb_method *m, const struct skb_props_cfg *cfg)
{
    int nmax = cfg->nmax > SKB_PROPS_MAX_N ? SKB_PROPS_MAX_N : cfg->nmax;
    if (m->max_n && m->max_n < nmax)
        nmax = m->max_n;
    return nmax < 2 ? 2 : nmax;
}

/* the three invariances of thesis 4.1 as actions of U on a transform X:
 * left U X, right X U, coordinates U X U^-1.  The relation holds when
 * Phi(w; act(M_i)) = act(Phi(w; M_i)).  A rest-pose centre moves with the
 * rest pose: unchanged (left), U^-1 c (right), U c (coordinates). */
static void act(int kind, const double u[16], const double x[16], double out[16])
{
    double ui[16], tmp[16];
    if (kind == SKB_PROP_LEFT) {
        skb_mat4_mul(u, x, out);
    } else if (kind == SKB_PROP_RIGHT) {
        skb_mat4_mul(x, u, out);
    } else {
        skb_mat4_inv_rigid(u, ui);
        skb_mat4_mul(u, x, tmp);
        skb_mat4_mul(tmp, ui, out);
    }
}

static void act_inputs(int kind, const double u[16], int n, const double *mats, const double *c,
                       double *tm, double tc[3])
{
    double ui[16];
    for (int i = 0; i < n; i++)
        act(kind, u, mats + 16 * i, tm + 16 * i);
    if (!c)
        return;
    skb_mat4_inv_rigid(u, ui);
    if (kind == SKB_PROP_LEFT)
        memcpy(tc, c, 3 * sizeof(double));
    else
        skb_mat4_apply(kind == SKB_PROP_RIGHT ? ui : u, c, tc);
}

static const char *const relation_text[SKB_PROP_COUNT] = {
    [SKB_PROP_LEFT] = "U * blend(replay[0]) differs from blend(replay[1]) = blend(U M_i)",
    [SKB_PROP_RIGHT] = "blend(replay[0]) * U differs from blend(replay[1]) = blend(M_i U)",
    [SKB_PROP_COORD] = "U * blend(replay[0]) * U^-1 differs from blend(replay[1]) = blend(U M_i U^-1)",
};

/* rigidity and the three invariances on the same random inputs */
static void check_invariance(const struct skb_method *m, const struct skb_props_cfg *cfg,
                             struct skb_prop_result res[SKB_PROP_COUNT])
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    struct skb_params prm;
    int nmax = method_nmax(m, cfg);
    double mats[16 * SKB_PROPS_MAX_N], tm[16 * SKB_PROPS_MAX_N], w[SKB_PROPS_MAX_N];
    double u[16], base[16], other[16], ref[16], c[3], tc[3];
    char what[200];
    params_for(m, &prm);
    gsl_rng_set(r, cfg->seed);
    for (int s = 0; s < cfg->samples; s++) {
        int n = 2 + (int)gsl_rng_uniform_int(r, (unsigned long)(nmax - 1)), rc;
        double sc = tscales[gsl_rng_uniform_int(r, NSCALES)];
        double L = 1;
        for (int i = 0; i < n; i++) {
            skb_props_random_rigid(r, sc, mats + 16 * i);
            L = fmax(L, 1 + tnorm(mats + 16 * i));
        }
        random_weights(r, n, w);
        skb_props_random_rigid(r, tscales[gsl_rng_uniform_int(r, NSCALES)], u);
        L = fmax(L, 1 + tnorm(u));
        for (int k = 0; k < 3; k++)
            c[k] = sc * (2 * gsl_rng_uniform(r) - 1);
        const double *cp = (m->flags & SKB_MF_NEEDS_CENTER) ? c : NULL;
        if (cp)
            L = fmax(L, 1 + sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]));
        if (run_blend(m, &prm, n, w, mats, cp, base, &rc)) {
            for (int p = SKB_PROP_RIGIDITY; p <= SKB_PROP_COORD; p++)
                res[p].skipped++;
            continue;
        }
        double e = skb_mat4_rigid_error(base);
        note(&res[SKB_PROP_RIGIDITY], e);
        if (e > SKB_PROP_TOL_RIGID) {
            snprintf(what, sizeof what, "blend(replay[0]) is not rigid: max(|R^T R - I|, |det R - 1|) = %.3g", e);
            keep_cex(&res[SKB_PROP_RIGIDITY], SKB_PROP_RIGIDITY, e, n, w, mats, cp, NULL, 0, what);
        }
        for (int kind = SKB_PROP_LEFT; kind <= SKB_PROP_COORD; kind++) {
            if (kind == SKB_PROP_BI)
                continue;
            act_inputs(kind, u, n, mats, cp, tm, tc);
            if (run_blend(m, &prm, n, w, tm, cp ? tc : NULL, other, &rc)) {
                res[kind].skipped++;
                continue;
            }
            act(kind, u, base, ref);
            e = mat_err(ref, other, L);
            note(&res[kind], e);
            if (e > SKB_PROP_TOL_INV) {
                snprintf(what, sizeof what, "%s by %.3g", relation_text[kind], e);
                keep_cex(&res[kind], kind, e, n, w, mats, cp, u, 0, what);
            }
        }
    }
    finish(&res[SKB_PROP_RIGIDITY], SKB_PROP_TOL_RIGID);
    finish(&res[SKB_PROP_LEFT], SKB_PROP_TOL_INV);
    finish(&res[SKB_PROP_RIGHT], SKB_PROP_TOL_INV);
    finish(&res[SKB_PROP_COORD], SKB_PROP_TOL_INV);
    /* bi-invariance = left and right (thesis 4.1) */
    struct skb_prop_result *b = &res[SKB_PROP_BI], *l = &res[SKB_PROP_LEFT], *rr = &res[SKB_PROP_RIGHT];
    b->samples = l->samples < rr->samples ? l->samples : rr->samples;
    b->skipped = l->skipped + rr->skipped;
    b->worst = fmax(l->worst, rr->worst);
    b->part[0] = l->worst;
    b->part[1] = rr->worst;
    finish(b, SKB_PROP_TOL_INV);
    if (b->verdict == '-')
        b->cex = rr->cex.valid && (!l->cex.valid || rr->worst >= l->worst) ? rr->cex : l->cex;
    gsl_rng_free(r);
}

/* n > 2: does the method blend 3..8 transforms at all?  Details: unit weight
 * (thesis 4.2 property 1) and permutation invariance (property 3) */
static void check_multi(const struct skb_method *m, const struct skb_props_cfg *cfg,
                        struct skb_prop_result *res)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    struct skb_params prm;
    int nmax = cfg->nmax > SKB_PROPS_MAX_N ? SKB_PROPS_MAX_N : cfg->nmax;
    double mats[16 * SKB_PROPS_MAX_N], pm[16 * SKB_PROPS_MAX_N], w[SKB_PROPS_MAX_N], pw[SKB_PROPS_MAX_N];
    double out[16], pout[16], c[3];
    char what[200], emsg[150];
    params_for(m, &prm);
    gsl_rng_set(r, cfg->seed + 1);
    for (int s = 0; s < cfg->samples && nmax >= 3; s++) {
        int n = 3 + (int)gsl_rng_uniform_int(r, (unsigned long)(nmax - 2)), rc;
        double sc = tscales[gsl_rng_uniform_int(r, NSCALES)], L = 1;
        for (int i = 0; i < n; i++) {
            skb_props_random_rigid(r, sc, mats + 16 * i);
            L = fmax(L, 1 + tnorm(mats + 16 * i));
        }
        random_weights(r, n, w);
        for (int k = 0; k < 3; k++)
            c[k] = sc * (2 * gsl_rng_uniform(r) - 1);
        const double *cp = (m->flags & SKB_MF_NEEDS_CENTER) ? c : NULL;
        struct skb_blend_in in = { n, w, mats, cp };
        rc = skb_blend(m, &in, &prm, out, NULL, emsg, sizeof emsg);
        if (rc == SKB_ETOOMANY || rc == SKB_ENOTSUP) {
            note(res, 1);
            snprintf(what, sizeof what, "blend of %d transforms refused: %s", n, emsg);
            keep_cex(res, SKB_PROP_MULTI, 1, n, w, mats, cp, NULL, 0, what);
            continue;
        }
        if (rc < 0) {
            res->skipped++;
            continue;
        }
        note(res, 0);
        /* unit weight on one transform returns it */
        int hot = (int)gsl_rng_uniform_int(r, (unsigned long)n);
        double ew[SKB_PROPS_MAX_N] = { 0 };
        ew[hot] = 1;
        if (!run_blend(m, &prm, n, ew, mats, cp, pout, &rc))
            res->part[0] = fmax(res->part[0], mat_err(pout, mats + 16 * hot, L));
        /* permutation: reversed order */
        for (int i = 0; i < n; i++) {
            memcpy(pm + 16 * i, mats + 16 * (n - 1 - i), sizeof(double) * 16);
            pw[i] = w[n - 1 - i];
        }
        if (!run_blend(m, &prm, n, pw, pm, cp, pout, &rc))
            res->part[1] = fmax(res->part[1], mat_err(pout, out, L));
    }
    finish(res, 0);   /* any refusal of n > 2 is a "-" */
    gsl_rng_free(r);
}

/* screw parameters of M1^-1 X, X rigid */
static void rel_screw(const double m1i[16], const double x[16], struct skb_screw *s)
{
    double e[16];
    struct skb_dq q;
    skb_mat4_mul(m1i, x, e);
    skb_dq_from_mat4(e, &q);
    skb_dq_screw(&q, s);
}

/* rotation angle in [0, pi] of A^-1 B */
static double rel_angle(const double a[16], const double b[16])
{
    double ai[16], e[16];
    struct skb_dq q;
    skb_mat4_inv_rigid(a, ai);
    skb_mat4_mul(ai, b, e);
    skb_dq_from_mat4(e, &q);
    double sn = sqrt(q.r.x * q.r.x + q.r.y * q.r.y + q.r.z * q.r.z);
    return 2 * atan2(sn, fabs(q.r.w));
}

static double v3_dist(const double *a, const double *b)
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

static double v3_len(const double *a)
{
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/* one grid step's screw against the end's, into the probe; mid: the step
 * nearest t = 1/2, kept apart for a counterexample far from both ends */
static void probe_step(struct skb_path_probe *p, const struct skb_screw *s1, const struct skb_screw *st, double t,
                       int mid)
{
    double es = fabs(st->angle - t * s1->angle), ep = 0;
    if (mid)
        p->t_mid = t;
    if (st->angle >= SKB_PROP_MIN_TWIST && s1->angle >= SKB_PROP_MIN_TWIST) {
        ep = fabs(st->translation - t * s1->translation) / p->L;
        double ea = v3_dist(st->axis, s1->axis), em = v3_dist(st->moment, s1->moment) / p->L;
        if (mid) {
            p->axis_mid = ea;
            p->moment_mid = em;
            memcpy(p->moment_mid_v, st->moment, sizeof p->moment_mid_v);
        }
        if (fmax(ea, em) > fmax(p->axis, p->moment)) {
            p->t_path = t;
            memcpy(p->moment_t, st->moment, sizeof p->moment_t);
        }
        p->axis = fmax(p->axis, ea);
        p->moment = fmax(p->moment, em);
    }
    if (fmax(es, ep) > fmax(p->twist, p->pitch))
        p->t_speed = t;
    p->twist = fmax(p->twist, es);
    p->pitch = fmax(p->pitch, ep);
}

/* the same screw motion described about the opposite axis: -a, -m, angle
 * 2 pi - theta, translation -d (the dual quaternion's sign flipped) */
static void screw_flip(struct skb_screw *s)
{
    for (int i = 0; i < 3; i++) {
        s->axis[i] = -s->axis[i];
        s->moment[i] = -s->moment[i];
    }
    s->angle = 2 * SKB_PI - s->angle;
    s->translation = -s->translation;
}

static int at_pi_edge_opposed(const struct skb_screw *s, const struct skb_screw *ref)
{
    return SKB_PI - s->angle <= SKB_PROP_TOL_PATH &&
           s->axis[0] * ref->axis[0] + s->axis[1] * ref->axis[1] + s->axis[2] * ref->axis[2] < 0;
}

/* At the pi edge (twist within SKB_PROP_TOL_PATH of pi) both ways round are
 * shortest (thesis 4.2 allows theta(1) in [-pi, pi]), and whether a screw
 * decomposes about a or -a is a rounding sign of cos(theta/2).  So the end's
 * screw s1 takes the orientation of the path's first step with a defined
 * axis, and a later step at the edge (t = 1 itself) that of s1; a step off
 * the edge must match as before.  Without this a correct method (DIB) failed
 * with axis drift 2 on an exactly-pi pair (tests/test_shortest.c). */
static void orient_at_pi_edge(struct skb_screw *s1, struct skb_screw *st, int *oriented)
{
    if (st->angle < SKB_PROP_MIN_TWIST)
        return;
    if (!*oriented && at_pi_edge_opposed(s1, st))
        screw_flip(s1);
    *oriented = 1;
    if (at_pi_edge_opposed(st, s1))
        screw_flip(st);
}

int skb_props_path_probe(const struct skb_method *m, const double mats[32], const double *center, int grid,
                         struct skb_path_probe *p)
{
    struct skb_params prm;
    struct skb_screw s1, st;
    double m1i[16], w[2], out[16], prev[16];
    int rc;
    memset(p, 0, sizeof *p);
    params_for(m, &prm);
    p->L = 1 + fmax(fmax(tnorm(mats), tnorm(mats + 16)), center ? v3_len(center) : 0);
    skb_mat4_inv_rigid(mats, m1i);
    w[0] = 0; w[1] = 1;
    if (run_blend(m, &prm, 2, w, mats, center, out, &rc))
        return 1;
    if ((p->rigid = skb_mat4_rigid_error(out)) > SKB_PROP_TOL_RIGID) {
        p->t_rigid = 1;
        return 2;
    }
    rel_screw(m1i, out, &s1);
    for (int k = 0, oriented = 0; k <= grid; k++) {
        double t = (double)k / grid, re;
        w[0] = 1 - t; w[1] = t;
        if (run_blend(m, &prm, 2, w, mats, center, out, &rc))
            return 1;
        if ((re = skb_mat4_rigid_error(out)) > SKB_PROP_TOL_RIGID) {
            p->rigid = re;
            p->t_rigid = t;
            return 2;
        }
        if (k > 0)
            p->path += rel_angle(prev, out);
        memcpy(prev, out, sizeof prev);
        rel_screw(m1i, out, &st);
        orient_at_pi_edge(&s1, &st, &oriented);
        probe_step(p, &s1, &st, t, k == grid / 2);
    }
    p->theta1 = s1.angle;
    memcpy(p->moment_1, s1.moment, sizeof p->moment_1);
    return 0;
}

/* the pair: M2 = M1 D at a random translation scale */
static void path_pair(gsl_rng *r, const struct skb_method *m, double mats[32], double c[3], const double **cp)
{
    double d[16], sc = tscales[gsl_rng_uniform_int(r, NSCALES)];
    skb_props_random_rigid(r, sc, mats);
    skb_props_random_rigid(r, sc, d);
    skb_mat4_mul(mats, d, mats + 16);
    for (int k = 0; k < 3; k++)
        c[k] = sc * (2 * gsl_rng_uniform(r) - 1);
    *cp = (m->flags & SKB_MF_NEEDS_CENTER) ? c : NULL;
}

static double path_error(const struct skb_path_probe *p)
{
    return fmax(fmax(p->axis, p->moment), fmax(0, p->path - SKB_PI));
}

/* a shortest-path counterexample with what the walk measured at t: the
 * worst step (mid = 0) or the step nearest t = 1/2 (mid = 1) */
static void keep_path_cex(struct skb_prop_cex *x, const struct skb_path_probe *p, int mid, const double mats[32],
                          const double *c)
{
    double t = mid ? p->t_mid : p->t_path, w[2] = { 1 - t, t };
    double ea = mid ? p->axis_mid : p->axis, em = mid ? p->moment_mid : p->moment;
    double e = mid ? fmax(ea, em) : path_error(p);
    struct skb_prop_result tmp;
    char what[200];
    if (x->valid && !(e > x->error))
        return;
    memset(&tmp, 0, sizeof tmp);
    snprintf(what, sizeof what, "screw of M1^-1 blend(t) moves: axis by %.3g, moment by %.3g (relative)%s; "
             "path angle %.6g rad (pi allowed)", ea, em, mid ? " at t = 1/2" : "", p->path);
    keep_cex(&tmp, SKB_PROP_SHORTEST, e, 2, w, mats, c, NULL, t, what);
    *x = tmp.cex;
    x->path_angle = p->path;
    x->axis_drift = ea;
    x->moment_drift = em;
    x->scale = p->L;
    memcpy(x->moment_t, mid ? p->moment_mid_v : p->moment_t, sizeof x->moment_t);
    memcpy(x->moment_1, p->moment_1, sizeof x->moment_1);
}

/* a completed walk into both results, a counterexample where it fails */
static void path_record(const struct skb_path_probe *p, const double mats[32], const double *c,
                        struct skb_prop_result *speed, struct skb_prop_result *shortest)
{
    double w[2] = { 1 - p->t_speed, p->t_speed };
    char what[200];
    double e_speed = fmax(p->twist, p->pitch), e_short = path_error(p);
    if (p->theta1 < SKB_PROP_MIN_TWIST) {
        speed->twist_only++;
        shortest->twist_only++;
    }
    note(speed, e_speed);
    note(shortest, e_short);
    speed->part[0] = fmax(speed->part[0], p->twist);
    speed->part[1] = fmax(speed->part[1], p->pitch);
    shortest->part[0] = fmax(shortest->part[0], p->axis);
    shortest->part[1] = fmax(shortest->part[1], p->moment);
    shortest->part[2] = fmax(shortest->part[2], fmax(0, p->path - SKB_PI));
    if (e_speed > SKB_PROP_TOL_SPEED) {
        snprintf(what, sizeof what, "M1^-1 blend(t) is not linear in t: twist off t*theta(1) by %.3g rad, "
                 "pitch off t*d(1) by %.3g (relative); theta(1) = %.6g rad", p->twist, p->pitch, p->theta1);
        keep_cex(speed, SKB_PROP_SPEED, e_speed, 2, w, mats, c, NULL, p->t_speed, what);
    }
    if (e_short <= SKB_PROP_TOL_PATH)
        return;
    keep_path_cex(&shortest->cex, p, 0, mats, c);
    if (p->path <= SKB_PROP_MODERATE_ANGLE && p->theta1 >= SKB_PROP_MODERATE_MIN &&
        fmax(p->axis_mid, p->moment_mid) > SKB_PROP_TOL_PATH)
        keep_path_cex(&shortest->moderate, p, 1, mats, c);
}

/* a blend(t) off SE(3): a counterexample of both (its screw is undefined) */
static void path_nonrigid(const struct skb_path_probe *p, const double mats[32], const double *c,
                          struct skb_prop_result *speed, struct skb_prop_result *shortest)
{
    double w[2] = { 1 - p->t_rigid, p->t_rigid };
    char what[200];
    note(speed, p->rigid);
    note(shortest, p->rigid);
    snprintf(what, sizeof what, "blend(replay[0]) at t = %g is not rigid (error %.3g): "
             "its twist, pitch and screw axis are undefined", p->t_rigid, p->rigid);
    keep_cex(speed, SKB_PROP_SPEED, p->rigid, 2, w, mats, c, NULL, p->t_rigid, what);
    keep_cex(shortest, SKB_PROP_SHORTEST, p->rigid, 2, w, mats, c, NULL, p->t_rigid, what);
}

/* the same pair with both translations set to 0: rotations about the
 * origin, the only case thesis Lemma 3.1 covers */
static void path_rotation_only(const struct skb_method *m, const struct skb_props_cfg *cfg, const double mats[32],
                               const double *c, struct skb_prop_result *shortest)
{
    double rm[32];
    struct skb_path_probe p;
    memcpy(rm, mats, sizeof rm);
    rm[3] = rm[7] = rm[11] = rm[19] = rm[23] = rm[27] = 0;
    int bad = skb_props_path_probe(m, rm, c, cfg->grid, &p);
    if (bad == 1) {
        shortest->rot_only.skipped++;
        return;
    }
    double e = bad == 2 ? p.rigid : path_error(&p);
    shortest->rot_only.samples++;
    if (!(e <= shortest->rot_only.worst))
        shortest->rot_only.worst = isnan(e) ? INFINITY : e;
}

/* constant speed and shortest path on random pairs (thesis 4.2) */
static void check_path(const struct skb_method *m, const struct skb_props_cfg *cfg,
                       struct skb_prop_result *speed, struct skb_prop_result *shortest)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, cfg->seed + 2);
    for (int s = 0; s < cfg->pairs; s++) {
        double mats[32], c[3];
        const double *cp;
        struct skb_path_probe p;
        path_pair(r, m, mats, c, &cp);
        int bad = skb_props_path_probe(m, mats, cp, cfg->grid, &p);
        if (bad == 1) {
            speed->skipped++;
            shortest->skipped++;
        } else if (bad == 2) {
            path_nonrigid(&p, mats, cp, speed, shortest);
        } else {
            path_record(&p, mats, cp, speed, shortest);
        }
        path_rotation_only(m, cfg, mats, cp, shortest);
    }
    finish(speed, SKB_PROP_TOL_SPEED);
    finish(shortest, SKB_PROP_TOL_PATH);
    if (shortest->verdict != '-')
        shortest->moderate.valid = 0;
    shortest->rot_only.verdict = shortest->rot_only.samples == 0 ? '?'
                                 : shortest->rot_only.worst <= SKB_PROP_TOL_PATH ? '+' : '-';
    gsl_rng_free(r);
}

int skb_props_check(const struct skb_method *m, const struct skb_props_cfg *cfg,
                    struct skb_prop_result res[SKB_PROP_COUNT], char *msg, size_t msglen)
{
    memset(res, 0, sizeof(struct skb_prop_result) * SKB_PROP_COUNT);
    if (!m->blend) {
        snprintf(msg, msglen, "method %s has no blend form", m->name);
        return SKB_ENOTSUP;
    }
    if (cfg->samples < 1 || cfg->pairs < 1 || cfg->grid < 2 || cfg->nmax < 2) {
        snprintf(msg, msglen, "properties: samples, pairs, grid and nmax must be positive (grid, nmax >= 2)");
        return SKB_EINVAL;
    }
    check_invariance(m, cfg, res);
    check_multi(m, cfg, &res[SKB_PROP_MULTI]);
    check_path(m, cfg, &res[SKB_PROP_SPEED], &res[SKB_PROP_SHORTEST]);
    return 0;
}

static cJSON *input_json(int n, const double *w, const double *mats, const double *c)
{
    cJSON *o = cJSON_CreateObject(), *tr = cJSON_AddArrayToObject(o, "transforms");
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(tr, skb_json_array(mats + 16 * i, 16));
    cJSON_AddItemToObject(o, "weights", skb_json_array(w, n));
    if (c)
        cJSON_AddItemToObject(o, "center", skb_json_array(c, 3));
    return o;
}

static const double *tol_of(int prop)
{
    static const double tols[SKB_PROP_COUNT] = {
        SKB_PROP_TOL_RIGID, SKB_PROP_TOL_INV, SKB_PROP_TOL_INV, SKB_PROP_TOL_INV, SKB_PROP_TOL_INV,
        0, SKB_PROP_TOL_SPEED, SKB_PROP_TOL_PATH
    };
    return &tols[prop];
}

/* the same pairs as rotations about the origin (thesis Lemma 3.1's scope) */
static void rotation_only_json(cJSON *o, const struct skb_prop_result *r)
{
    char v[2] = { r->rot_only.verdict, 0 };
    cJSON *c = cJSON_AddObjectToObject(o, "rotation_only");
    cJSON_AddStringToObject(c, "inputs", "the same pairs with both translations set to 0: rotations about "
                            "the origin, the scope of thesis Lemma 3.1");
    cJSON_AddStringToObject(c, "verdict", v);
    skb_json_add_number(c, "worst_error", r->rot_only.worst);
    cJSON_AddNumberToObject(c, "samples", r->rot_only.samples);
    cJSON_AddNumberToObject(c, "skipped", r->rot_only.skipped);
}

/* the shortest-path counterexample clear of the pi edge, with the walk's
 * own numbers: enough to replay it without the run */
static cJSON *moderate_json(const struct skb_method *m, const struct skb_prop_cex *x)
{
    double w1[2] = { 0, 1 };
    const double *c = x->has_center ? x->center : NULL;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "method", m->name);
    cJSON_AddStringToObject(o, "what", x->what);
    char sel[200];
    snprintf(sel, sizeof sel, "the largest drift at t = 1/2 among the violations with path angle <= %g rad "
             "and twist theta(1) >= %g rad",
             SKB_PROP_MODERATE_ANGLE, SKB_PROP_MODERATE_MIN);
    cJSON_AddStringToObject(o, "chosen_as", sel);
    skb_json_add_number(o, "error", x->error);
    skb_json_add_number(o, "t", x->t);
    skb_json_add_number(o, "path_angle_rad", x->path_angle);
    skb_json_add_number(o, "axis_drift", x->axis_drift);
    skb_json_add_number(o, "moment_drift_rel", x->moment_drift);
    skb_json_add_number(o, "scale_L", x->scale);
    cJSON_AddItemToObject(o, "moment_at_t", skb_json_array(x->moment_t, 3));
    cJSON_AddItemToObject(o, "moment_at_1", skb_json_array(x->moment_1, 3));
    cJSON_AddStringToObject(o, "replay_with", "skinbench blend --method METHOD --input FILE (FILE = the "
                            "\"replay\" array): replay[0] gives blend(t), replay[1] blend(1) = M2; the moment of "
                            "the screw of M1^-1 blend(t) is moment_at_t, that of M1^-1 M2 moment_at_1 "
                            "(moment_drift_rel = |difference| / scale_L)");
    cJSON *rep = cJSON_AddArrayToObject(o, "replay");
    cJSON_AddItemToArray(rep, input_json(2, x->w, x->mats, c));
    cJSON_AddItemToArray(rep, input_json(2, w1, x->mats, c));
    return o;
}

cJSON *skb_props_result_json(const struct skb_method *m, int prop, const struct skb_prop_result *r)
{
    cJSON *o = cJSON_CreateObject();
    char v[2] = { r->verdict, 0 };
    cJSON_AddStringToObject(o, "verdict", v);
    skb_json_add_number(o, "worst_error", r->worst);
    skb_json_add_number(o, "tolerance", *tol_of(prop));
    cJSON_AddNumberToObject(o, "samples", r->samples);
    cJSON_AddNumberToObject(o, "skipped", r->skipped);
    if (prop == SKB_PROP_SPEED) {
        cJSON *p = cJSON_AddObjectToObject(o, "parts");
        skb_json_add_number(p, "twist_rad", r->part[0]);
        skb_json_add_number(p, "pitch_rel", r->part[1]);
        cJSON_AddNumberToObject(o, "pairs_twist_only", r->twist_only);
    } else if (prop == SKB_PROP_SHORTEST) {
        cJSON *p = cJSON_AddObjectToObject(o, "parts");
        skb_json_add_number(p, "axis", r->part[0]);
        skb_json_add_number(p, "moment_rel", r->part[1]);
        skb_json_add_number(p, "path_angle_over_pi", r->part[2]);
        cJSON_AddNumberToObject(o, "pairs_twist_only", r->twist_only);
        rotation_only_json(o, r);
        if (r->verdict == '-' && r->moderate.valid)
            cJSON_AddItemToObject(o, "moderate_counterexample", moderate_json(m, &r->moderate));
    } else if (prop == SKB_PROP_BI) {
        cJSON *p = cJSON_AddObjectToObject(o, "parts");
        skb_json_add_number(p, "left", r->part[0]);
        skb_json_add_number(p, "right", r->part[1]);
    } else if (prop == SKB_PROP_MULTI) {
        cJSON *p = cJSON_AddObjectToObject(o, "parts");
        skb_json_add_number(p, "unit_weight_error", r->part[0]);
        skb_json_add_number(p, "permutation_error", r->part[1]);
    }
    const struct skb_prop_cex *x = &r->cex;
    if (r->verdict != '-' || !x->valid)
        return o;
    cJSON *cx = cJSON_AddObjectToObject(o, "counterexample");
    cJSON_AddStringToObject(cx, "method", m->name);
    cJSON_AddStringToObject(cx, "relation", skb_prop_names[x->kind]);
    cJSON_AddStringToObject(cx, "what", x->what);
    skb_json_add_number(cx, "error", x->error);
    cJSON_AddStringToObject(cx, "replay_with", "skinbench blend --method METHOD --input FILE "
                            "(FILE = the \"replay\" array)");
    const double *c = x->has_center ? x->center : NULL;
    cJSON *rep = cJSON_AddArrayToObject(cx, "replay");
    double tm[16 * SKB_PROPS_MAX_N], tc[3];
    if (x->has_u)
        cJSON_AddItemToObject(cx, "U", skb_json_array(x->u, 16));
    switch (x->kind) {
    case SKB_PROP_LEFT:
    case SKB_PROP_RIGHT:
    case SKB_PROP_COORD:
        act_inputs(x->kind, x->u, x->n, x->mats, c, tm, tc);
        cJSON_AddItemToArray(rep, input_json(x->n, x->w, x->mats, c));
        cJSON_AddItemToArray(rep, input_json(x->n, x->w, tm, c ? tc : NULL));
        break;
    case SKB_PROP_SPEED:
    case SKB_PROP_SHORTEST: {
        double w1[2] = { 0, 1 };
        skb_json_add_number(cx, "t", x->t);
        cJSON_AddItemToArray(rep, input_json(2, x->w, x->mats, c));
        cJSON_AddItemToArray(rep, input_json(2, w1, x->mats, c));
        break;
    }
    default:
        cJSON_AddItemToArray(rep, input_json(x->n, x->w, x->mats, c));
    }
    return o;
}
