/* exp_bounds.c — `skinbench run bounds`: the error bounds and worked examples
 * of thesis ch. 3-4 / DQ paper measured on our methods by numerical
 * optimisation (harness/skb_bounds.c), DIB's iteration counts over random
 * inputs, DIB = ScLERP for n = 2, and the lecture slides' worked examples
 * (seed 004) skinned and blended by the registry's methods.  Writes bounds.json. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "skb_bounds.h"
#include "skb_dataset.h"
#include "skb_results.h"
#include "skb_schemas.h"
#include "skb_props.h"

#define RAD2DEG (180.0 / SKB_PI)
#define CURVE_POINTS 21
#define GAP_CURVE_POINTS 101   /* DQ paper Fig. 23 curves */
#define ITER_HIST_MAX 64

struct se2_ctx { double a1, a2; int err; int linear; };

/* |centre of DLB - eq. (9)|, or |linear interpolation of r_i - eq. (9)| */
static double se2_err(double t, void *p)
{
    struct se2_ctx *c = p;
    double meas[2], form[2], r1[2], r2[2], dummy[2];
    char msg[128];
    if (skb_se2_centre(c->a1, c->a2, t, meas, form, msg, sizeof msg) < 0) {
        c->err = 1;
        return 0;
    }
    if (c->linear) {
        skb_se2_centre(c->a1, c->a2, 0, dummy, r1, msg, sizeof msg);
        skb_se2_centre(c->a1, c->a2, 1, dummy, r2, msg, sizeof msg);
        meas[0] = (1 - t) * r1[0] + t * r2[0];
        meas[1] = (1 - t) * r1[1] + t * r2[1];
    }
    return hypot(meas[0] - form[0], meas[1] - form[1]);
}

static double speed_gap(double t, void *p)
{
    double s;
    char msg[128];
    int *err = p;
    if (skb_logm_speed_measured(t, &s, msg, sizeof msg) < 0) {
        *err = 1;
        return 0;
    }
    return s;
}

static double neg_speed(double t, void *p)
{
    return -speed_gap(t, p);
}

static cJSON *bound_json(const struct skb_bound *b, int degrees)
{
    cJSON *o = cJSON_CreateObject();
    skb_json_add_number(o, degrees ? "gap_deg" : "gap_frac", degrees ? b->gap * RAD2DEG : b->gap);
    skb_json_add_number(o, "gap_rad", b->gap);
    skb_json_add_number(o, "at_t", b->t);
    skb_json_add_number(o, "at_alpha0_deg", b->alpha0 * RAD2DEG);
    cJSON_AddNumberToObject(o, "outer_evaluations", b->evals);
    return o;
}

/* random transform: angle uniform in [0, maxangle], or the property-check
 * distribution when maxangle < 0 */
static void rigid_limited(gsl_rng *r, double maxangle, double m[16])
{
    double axis[3], rot[9], t[3];
    struct skb_quat q;
    if (maxangle < 0) {
        skb_props_random_rigid(r, 1.0, m);
        return;
    }
    gsl_ran_dir_3d(r, &axis[0], &axis[1], &axis[2]);
    skb_quat_from_axis_angle(axis, maxangle * gsl_rng_uniform(r), &q);
    skb_quat_to_mat3(&q, rot);
    for (int i = 0; i < 3; i++)
        t[i] = 2 * gsl_rng_uniform(r) - 1;
    skb_mat4_from_rt(rot, t, m);
}

/* iterations of DIB at its default precision over random n = 2..8 blends;
 * writes {key: {...}, key_histogram: {...}}; returns the largest count */
static int dib_histogram(const struct skb_run_ctx *ctx, const struct skb_method *dib, int samples,
                         double maxangle, cJSON *root, const char *key)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    struct skb_params prm;
    double hist[ITER_HIST_MAX + 1] = { 0 }, mats[16 * SKB_PROPS_MAX_N], w[SKB_PROPS_MAX_N], a[16], mean = 0;
    int failed = 0, itmax = 0, capped = 0;
    char hkey[64];
    skb_params_default(&prm);
    gsl_rng_set(r, ctx->seed);
    for (int s = 0; s < samples; s++) {
        int n = 2 + (int)gsl_rng_uniform_int(r, SKB_PROPS_MAX_N - 1);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            rigid_limited(r, maxangle, mats + 16 * i);
            sum += (w[i] = gsl_rng_uniform_pos(r));
        }
        for (int i = 0; i < n; i++)
            w[i] /= sum;
        struct skb_blend_in in = { n, w, mats, NULL };
        struct skb_blend_stats st;
        if (skb_blend(dib, &in, &prm, a, &st, NULL, 0) < 0) {
            failed++;
            continue;
        }
        hist[st.iterations > ITER_HIST_MAX ? ITER_HIST_MAX : st.iterations]++;
        itmax = st.iterations > itmax ? st.iterations : itmax;
        capped += st.iterations >= prm.dib_max_iter;
        mean += st.iterations;
    }
    gsl_rng_free(r);
    int ok = samples - failed;
    snprintf(hkey, sizeof hkey, "%s_histogram", key);
    cJSON *h = cJSON_AddObjectToObject(root, hkey);
    for (int i = 0; i <= ITER_HIST_MAX; i++)
        if (hist[i] > 0) {
            char k[16];
            snprintf(k, sizeof k, "%d", i);
            skb_json_add_number(h, k, hist[i]);
        }
    cJSON *di = cJSON_AddObjectToObject(root, key);
    cJSON_AddNumberToObject(di, "samples", samples);
    cJSON_AddNumberToObject(di, "failed", failed);
    cJSON_AddNumberToObject(di, "reached_cap", capped);
    skb_json_add_number(di, "mean", ok > 0 ? mean / ok : NAN);
    cJSON_AddNumberToObject(di, "max", itmax);
    skb_json_add_number(di, "precision", prm.dib_precision);
    cJSON_AddNumberToObject(di, "cap", prm.dib_max_iter);
    if (maxangle < 0)
        cJSON_AddStringToObject(di, "inputs", "n = 2..8 random rigid transforms (angles in [0, pi] with mass "
                                "near 0 and pi, translations in [-1, 1]^3), random convex weights");
    else
        cJSON_AddStringToObject(di, "inputs", "n = 2..8 random rigid transforms, each rotation angle uniform "
                                "in [0, 45 deg] (pairwise <= 90 deg), translations in [-1, 1]^3, random convex weights");
    skb_run_progress(ctx, "bounds", "DIB (%s): mean %.2f, max %d iterations over %d inputs, %d at the cap",
                     key, ok > 0 ? mean / ok : NAN, itmax, ok, capped);
    return itmax;
}

/* DIB of two transforms equals ScLERP after one iteration (thesis Lemma 4.7) */
static void dib_vs_sclerp(const struct skb_run_ctx *ctx, const struct skb_method *dib,
                          const struct skb_method *sc, int pairs, cJSON *root)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    struct skb_params prm;
    double mats[32], w[2], a[16], b[16], diff = 0;
    int nmax = 0, nmin = 1 << 30, failed = 0;
    skb_params_default(&prm);
    gsl_rng_set(r, ctx->seed + 1);
    for (int s = 0; s < pairs; s++) {
        skb_props_random_rigid(r, 1.0, mats);
        skb_props_random_rigid(r, 1.0, mats + 16);
        double t = gsl_rng_uniform(r);
        w[0] = 1 - t; w[1] = t;
        struct skb_blend_in in = { 2, w, mats, NULL };
        struct skb_blend_stats st;
        if (skb_blend(dib, &in, &prm, a, &st, NULL, 0) < 0 || skb_blend(sc, &in, &prm, b, NULL, NULL, 0) < 0) {
            failed++;
            continue;
        }
        for (int k = 0; k < 16; k++)
            diff = fmax(diff, fabs(a[k] - b[k]));
        nmax = st.iterations > nmax ? st.iterations : nmax;
        nmin = st.iterations < nmin ? st.iterations : nmin;
    }
    gsl_rng_free(r);
    cJSON *d2 = cJSON_AddObjectToObject(root, "dib_vs_sclerp_n2");
    skb_json_add_number(d2, "max_abs_matrix_difference", diff);
    cJSON_AddNumberToObject(d2, "iterations_min", nmin);
    cJSON_AddNumberToObject(d2, "iterations_max", nmax);
    cJSON_AddNumberToObject(d2, "pairs", pairs);
    cJSON_AddNumberToObject(d2, "failed", failed);
    cJSON_AddStringToObject(d2, "what", "random pairs (property-check distribution, translations in [-1,1]^3) "
                            "and t uniform in [0, 1], default precision; iterations 0 happen where DLB is "
                            "already exact (t = 0 or 1, no rotation)");
    cJSON_AddNumberToObject(root, "dib_n2_iterations", nmax);
    skb_run_progress(ctx, "bounds", "DIB vs ScLERP, n = 2: max difference %.3g, iterations %d..%d",
                     diff, nmin, nmax);
}

/* what dlb_dib_skin_gap measured over the poses */
struct skin_gap {
    double gap, diag, hist[ITER_HIST_MAX + 1];
    int worst_pose, itmax;
};

/* DLB and DIB skin every pose of d; the largest vertex distance and DIB's
 * worst per-vertex iteration count per pose into g */
static int skin_gap_poses(const struct skb_method *dlb, const struct skb_method *dib, const struct skb_dataset *d,
                          double *pa, double *pb, struct skin_gap *g, char *msg, size_t msglen)
{
    struct skb_skinner sa, sb;
    int nv = d->mesh.nverts, rc;
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    rc = skb_skin_init(&sa, dlb, &d->mesh, msg, msglen);
    if (rc == 0)
        rc = skb_skin_init(&sb, dib, &d->mesh, msg, msglen);
    for (int k = 0; rc == 0 && k < d->nposes; k++) {
        struct skb_pose pose;
        struct skb_pose_stats ps;
        skb_dataset_pose(d, k, &pose);
        if ((rc = skb_skin_pose(&sa, &pose, NULL, pa, NULL, msg, msglen)) < 0
            || (rc = skb_skin_pose(&sb, &pose, NULL, pb, NULL, msg, msglen)) < 0
            || (rc = dib->pose_stats(&d->mesh, sb.state, &ps)) < 0)
            break;
        g->hist[ps.max_iterations > ITER_HIST_MAX ? ITER_HIST_MAX : ps.max_iterations]++;
        g->itmax = ps.max_iterations > g->itmax ? ps.max_iterations : g->itmax;
        for (int v = 0; v < nv; v++) {
            double gv = hypot(hypot(pa[3 * v] - pb[3 * v], pa[3 * v + 1] - pb[3 * v + 1]), pa[3 * v + 2] - pb[3 * v + 2]);
            if (gv > g->gap) {
                g->gap = gv;
                g->worst_pose = k;
            }
        }
    }
    skb_skin_fini(&sa);
    skb_skin_fini(&sb);
    return rc;
}

/* the rest mesh's bounding-box diagonal (the gap's scale) */
static double rest_diagonal(const struct skb_mesh *m)
{
    double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
    for (int v = 0; v < m->nverts; v++)
        for (int i = 0; i < 3; i++) {
            lo[i] = fmin(lo[i], m->pos[3 * v + i]);
            hi[i] = fmax(hi[i], m->pos[3 * v + i]);
        }
    return hypot(hypot(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
}

static void skin_gap_json(const struct skb_run_ctx *ctx, cJSON *root, const struct skb_dataset *d,
                          const struct skin_gap *g)
{
    double diag = g->diag, gap = g->gap;
    cJSON *j = cJSON_AddObjectToObject(root, "dlb_dib_skinning");
    cJSON_AddStringToObject(j, "dataset", d->name);
    cJSON_AddNumberToObject(j, "vertices", d->mesh.nverts);
    cJSON_AddNumberToObject(j, "poses", d->nposes);
    skb_json_add_number(j, "max_vertex_gap", gap);
    cJSON_AddNumberToObject(j, "at_pose", g->worst_pose);
    skb_json_add_number(j, "rest_bbox_diagonal", diag);
    skb_json_add_number(j, "max_vertex_gap_rel_bbox", diag > 0 ? gap / diag : NAN);
    cJSON_AddNumberToObject(j, "dib_max_iterations", g->itmax);
    cJSON *h = cJSON_AddObjectToObject(j, "dib_pose_max_iterations_histogram");
    for (int i = 0; i <= ITER_HIST_MAX; i++)
        if (g->hist[i] > 0) {
            char key[16];
            snprintf(key, sizeof key, "%d", i);
            skb_json_add_number(h, key, g->hist[i]);
        }
    cJSON_AddStringToObject(j, "what", "DLB and DIB (default precision) skinning of the procedural arm over its "
                            "poses: largest vertex distance (model units; the DQ paper's 0.29 is on their "
                            "character, so only the order of magnitude compares), and DIB's worst per-vertex "
                            "iteration count per pose");
    skb_json_add_number(root, "dlb_dib_max_vertex_gap", gap);
    skb_run_progress(ctx, "bounds", "DLB vs DIB skinning (%s): max vertex gap %.4g (%.3g of the model size), "
                     "DIB <= %d iterations", d->name, gap, diag > 0 ? gap / diag : NAN, g->itmax);
}

/* DLB vs DIB in skinning (DQ paper App. B: largest vertex gap over an
 * animation) on the procedural arm, with DIB's worst per-vertex iteration
 * count per pose (its pose_stats) */
static int dlb_dib_skin_gap(const struct skb_run_ctx *ctx, cJSON *root, char *msg, size_t msglen)
{
    const struct skb_method *dlb = skb_method_with_flag(SKB_MF_HEADLINE), *dib = skb_method_with_flag(SKB_MF_HEAT_REF);
    struct skb_dataset_opts o = { ctx->seed, ctx->quick, 0 };
    struct skb_dataset d;
    struct skin_gap g;
    int rc;
    if (!dlb || !dib || !dib->pose_stats)
        return 0;
    if ((rc = skb_run_dataset_load(ctx, skb_run_dataset(ctx, "arm"), &o, &d, msg, msglen)) < 0)
        return rc;
    int nv = d.mesh.nverts;
    double *pa = malloc(sizeof(double) * 3 * (size_t)nv), *pb = malloc(sizeof(double) * 3 * (size_t)nv);
    memset(&g, 0, sizeof g);
    g.worst_pose = -1;
    if (!pa || !pb) {
        snprintf(msg, msglen, "bounds: out of memory");
        rc = SKB_ENOMEM;
    } else if ((rc = skin_gap_poses(dlb, dib, &d, pa, pb, &g, msg, msglen)) == 0) {
        g.diag = rest_diagonal(&d.mesh);
        skin_gap_json(ctx, root, &d, &g);
    }
    free(pa);
    free(pb);
    skb_dataset_free(&d);
    return rc;
}

/* every blend method against the exact pair interpolation (any
 * method gets a bound, not only the thesis's DLB/ScLERP and QLB/SLERP):
 * "vs_exact": {reference, what, methods: {name: gaps, or why not}} */
static void add_vs_exact(const struct skb_run_ctx *ctx, cJSON *root)
{
    const struct skb_method *ref = skb_method_exact_pair();
    cJSON *ve = cJSON_AddObjectToObject(root, "vs_exact");
    if (!ref) {
        cJSON_AddStringToObject(ve, "not_measured", "no registered method is flagged SKB_MF_EXACT_PAIR");
        return;
    }
    cJSON_AddStringToObject(ve, "reference", ref->name);
    cJSON_AddStringToObject(ve, "what", "per method: max over t, alpha0 and the axis offset of the rotation-angle "
                            "gap and the screw-translation gap (fraction of alpha_eps) between blend(t; I, M2) "
                            "and the reference's, as dlb_sclerp; methods needing a centre blend about the origin; "
                            "max_rigidity_error above 1e-6 means the blend is not rigid and the gaps are of the "
                            "quaternion and screw read off it");
    cJSON *ms = cJSON_AddObjectToObject(ve, "methods");
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        struct skb_bound a, t;
        double rigid = 0;
        char why[256];
        if (!skb_run_wants_method(ctx, m))
            continue;
        cJSON *o = cJSON_AddObjectToObject(ms, m->name);
        if (m == ref) {
            cJSON_AddStringToObject(o, "not_measured", "the reference itself");
            continue;
        }
        if (!m->blend || (m->max_n && m->max_n < 2)) {
            cJSON_AddStringToObject(o, "not_measured", m->blend ? "blends fewer than two transforms"
                                                                : "no blend form (skin only)");
            continue;
        }
        if (skb_bound_vs_exact(m, ref, &a, &t, &rigid, why, sizeof why) < 0) {
            cJSON_AddStringToObject(o, "not_measured", why);
            continue;
        }
        cJSON_AddItemToObject(o, "angle", bound_json(&a, 1));
        cJSON_AddItemToObject(o, "translation", bound_json(&t, 0));
        skb_json_add_number(o, "max_rigidity_error", rigid);
        skb_run_progress(ctx, "bounds", "%s vs %s: angle %.5g deg, translation %.5g alpha_eps", m->name, ref->name,
                         a.gap * RAD2DEG, t.gap);
    }
}

/* thesis Lemma 3.2 (QLB vs SLERP) and 4.3, App. A.1 (DLB vs ScLERP) */
static int add_pair_bounds(const struct skb_run_ctx *ctx, cJSON *root, struct skb_bound *qs, struct skb_bound *dt,
                           char *msg, size_t msglen)
{
    int rc = 0;
    if ((rc = skb_bound_qlb_slerp(qs, msg, msglen)) < 0)
        return rc;
    skb_json_add_number(root, "qlb_slerp_max_angle_deg", qs->gap * RAD2DEG);
    skb_json_add_number(root, "qlb_slerp_argmax_t", qs->t);
    cJSON_AddItemToObject(root, "qlb_slerp", bound_json(qs, 1));
    skb_run_progress(ctx, "bounds", "QLB vs SLERP: %.5f deg at t = %.5f, alpha0 = %.4f deg",
                     qs->gap * RAD2DEG, qs->t, qs->alpha0 * RAD2DEG);

    struct skb_bound da;
    if ((rc = skb_bound_dlb_sclerp(&da, dt, msg, msglen)) < 0)
        return rc;
    skb_json_add_number(root, "dlb_sclerp_max_angle_deg", da.gap * RAD2DEG);
    skb_json_add_number(root, "dlb_sclerp_max_translation_frac", dt->gap);
    cJSON *dj = cJSON_AddObjectToObject(root, "dlb_sclerp");
    cJSON_AddItemToObject(dj, "angle", bound_json(&da, 1));
    cJSON_AddItemToObject(dj, "translation", bound_json(dt, 0));
    cJSON_AddStringToObject(dj, "translation_definition", "max over t and alpha0 of |d_DLB(t) - d_ScLERP(t)| / "
                            "alpha_eps: translation along the common screw axis of DLB(t; I, M2) and "
                            "ScLERP(t; I, M2), as a fraction of the translation alpha_eps along the axis of "
                            "M2 = p* q (thesis App. A.1: pitch - alpha_e t at alpha_e = 1); the axis offset "
                            "from the origin is the simplex's second variable");
    skb_run_progress(ctx, "bounds", "DLB vs ScLERP: angle %.5f deg, translation %.5f alpha_eps (alpha0 = %.4f deg)",
                     da.gap * RAD2DEG, dt->gap, dt->alpha0 * RAD2DEG);
    return 0;
}

/* the gap curves over t at the worst angles found (DQ paper Fig. 23) */
static int add_gap_curves(cJSON *root, double qs_alpha0, double dt_alpha0, char *msg, size_t msglen)
{
    int rc = 0;
    double ct[GAP_CURVE_POINTS], g1[GAP_CURVE_POINTS], g2[GAP_CURVE_POINTS];
    cJSON *qc = cJSON_AddObjectToObject(root, "qlb_slerp_curve");
    if ((rc = skb_bound_qlb_slerp_curve(qs_alpha0, GAP_CURVE_POINTS, ct, g1, msg, msglen)) < 0)
        return rc;
    for (int k = 0; k < GAP_CURVE_POINTS; k++)
        g1[k] *= RAD2DEG;
    skb_json_add_number(qc, "alpha0_deg", qs_alpha0 * RAD2DEG);
    cJSON_AddItemToObject(qc, "t", skb_json_array(ct, GAP_CURVE_POINTS));
    cJSON_AddItemToObject(qc, "angle_gap_deg", skb_json_array(g1, GAP_CURVE_POINTS));
    cJSON *dc = cJSON_AddObjectToObject(root, "dlb_sclerp_curve");
    if ((rc = skb_bound_dlb_sclerp_curve(dt_alpha0, 0, GAP_CURVE_POINTS, ct, g1, g2, msg, msglen)) < 0)
        return rc;
    for (int k = 0; k < GAP_CURVE_POINTS; k++) {
        g1[k] *= RAD2DEG;
        g2[k] *= 100;     /* percent of alpha_eps, to share the plot's axis with degrees */
    }
    skb_json_add_number(dc, "alpha0_deg", dt_alpha0 * RAD2DEG);
    skb_json_add_number(dc, "axis_offset", 0);
    cJSON_AddItemToObject(dc, "t", skb_json_array(ct, GAP_CURVE_POINTS));
    cJSON_AddItemToObject(dc, "angle_gap_deg", skb_json_array(g1, GAP_CURVE_POINTS));
    cJSON_AddItemToObject(dc, "translation_gap_pct_of_alpha_eps", skb_json_array(g2, GAP_CURVE_POINTS));
    return 0;
}

/* thesis App. A.2, SPEC 3 */
static int add_logm_speed(const struct skb_run_ctx *ctx, cJSON *root, char *msg, size_t msglen)
{
    int rc = 0;
    cJSON *ls = cJSON_AddObjectToObject(root, "logm_speed");
    cJSON *curve = cJSON_AddArrayToObject(ls, "curve");
    double worst = 0, s;
    int err = 0;
    for (int k = 0; k < CURVE_POINTS; k++) {
        double t = (double)k / (CURVE_POINTS - 1), cl = skb_logm_speed_closed(t), pt[3];
        if ((rc = skb_logm_speed_measured(t, &s, msg, msglen)) < 0)
            return rc;
        pt[0] = t; pt[1] = s; pt[2] = cl;
        cJSON_AddItemToArray(curve, skb_json_array(pt, 3));
        worst = fmax(worst, fabs(s - cl) / cl);
        if (k == 0)
            skb_json_add_number(ls, "at_t0", s);
        if (k == CURVE_POINTS - 1)
            skb_json_add_number(ls, "at_t1", s);
    }
    double tmax, tmin, smax = skb_maximize_1d(speed_gap, &err, 0, 1, 32, 1e-10, &tmax);
    double smin = -skb_maximize_1d(neg_speed, &err, 0, 1, 32, 1e-10, &tmin);
    skb_json_add_number(ls, "closed_form_t0", skb_logm_speed_closed(0));
    skb_json_add_number(ls, "closed_form_t1", skb_logm_speed_closed(1));
    skb_json_add_number(ls, "max_rel_error_vs_closed_form", worst);
    skb_json_add_number(ls, "min", smin);
    skb_json_add_number(ls, "argmin_t", tmin);
    skb_json_add_number(ls, "max", smax);
    skb_json_add_number(ls, "argmax_t", tmax);
    skb_json_add_number(ls, "max_minus_min", smax - smin);
    cJSON_AddStringToObject(ls, "what", "|omega(t)| of logm(t; rot(x, 1), rot((1,1,0)/sqrt2, sqrt2)): angle of "
                            "R(t)^T R(t +- h) / h, Richardson-extrapolated (h = 1e-4); curve = [t, measured, "
                            "closed form of SPEC 3]");
    skb_run_progress(ctx, "bounds", "log-matrix speed: %.6f .. %.6f (non-constancy %.3g), |closed form error| <= %.2g",
                     smin, smax, smax - smin, worst);
    return 0;
}

/* DQ paper eq. (9) */
static int add_se2_centre(const struct skb_run_ctx *ctx, cJSON *root, char *msg, size_t msglen)
{
    int rc = 0;
    struct se2_ctx c = { 30 / RAD2DEG, 60 / RAD2DEG, 0, 0 };
    double tb, tl, meas[2], form[2];
    double e9 = skb_maximize_1d(se2_err, &c, 0, 1, 32, 1e-10, &tb);
    c.linear = 1;
    double el = skb_maximize_1d(se2_err, &c, 0, 1, 32, 1e-10, &tl);
    cJSON *se = cJSON_AddObjectToObject(root, "se2_centre");
    skb_json_add_number(se, "alpha1_deg", 30);
    skb_json_add_number(se, "alpha2_deg", 60);
    skb_json_add_number(se, "max_error_vs_eq9", e9);
    skb_json_add_number(se, "at_t", tb);
    skb_json_add_number(se, "linear_interpolation_max_gap", el);
    skb_json_add_number(se, "linear_interpolation_at_t", tl);
    for (int k = 0; k <= 1; k++) {
        if ((rc = skb_se2_centre(c.a1, c.a2, k, meas, form, msg, msglen)) < 0)
            return rc;
        cJSON_AddItemToObject(se, k ? "r2_measured" : "r1_measured", skb_json_array(meas, 2));
        cJSON_AddItemToObject(se, k ? "r2_eq6" : "r1_eq6", skb_json_array(form, 2));
    }
    cJSON_AddStringToObject(se, "what", "rotation centre of DLB(t; M1, M2), M_i = [rot(alpha_i), (2 cos alpha_i, "
                            "2 sin alpha_i)], vs eq. (9); max over t by Brent; the linear interpolation of "
                            "r1, r2 shown for contrast (DQ paper Fig. 10)");
    if (c.err) {
        snprintf(msg, msglen, "bounds: SE(2) centre evaluation failed");
        rc = SKB_ENUMERIC;
        return rc;
    }
    skb_run_progress(ctx, "bounds", "SE(2) centre vs eq. (9): %.3g (linear interpolation: %.3g)", e9, el);
    return 0;
}

/* DQ paper 2.2: rotation-centre drift of QLB'0 */
static int add_centre_drift(cJSON *root, char *msg, size_t msglen)
{
    int rc = 0;
    const struct skb_method *q = skb_method_with_flag(SKB_MF_QUAT_LINEAR);
    if (q) {
        double axis[3] = { 0, 0, 1 }, r[9], t[3], mats[32], w[2] = { 0.5, 0.5 }, out[16];
        double u[3] = { 2, 0, 0 }, up[3];
        struct skb_quat qq;
        skb_quat_from_axis_angle(axis, 120 / RAD2DEG, &qq);
        skb_quat_to_mat3(&qq, r);
        for (int i = 0; i < 3; i++)
            t[i] = u[i] - (r[3 * i] * u[0] + r[3 * i + 1] * u[1] + r[3 * i + 2] * u[2]);
        skb_mat4_identity(mats);
        skb_mat4_from_rt(r, t, mats + 16);
        struct skb_blend_in in = { 2, w, mats, NULL };
        if ((rc = skb_blend(q, &in, NULL, out, NULL, msg, msglen)) < 0)
            return rc;
        skb_mat4_apply(out, u, up);
        cJSON *d = cJSON_AddObjectToObject(root, "rotation_centre_drift");
        skb_json_add_number(d, "x", up[0]);
        skb_json_add_number(d, "y", up[1]);
        skb_json_add_number(d, "z", up[2]);
        cJSON_AddStringToObject(d, "what", "u'(0.5) = QLB'0(0.5; I, C2) u with C2 the 120 deg rotation about z "
                                "around the elbow u = (2,0,0) (shoulder at the origin)");
    }
    return 0;
}

/* one method skins the lecture's six vertices (seed 004, "Homogeneous Mat
 * VS DQ"): P2, P5 (the half-and-half vertices) and their distance */
static int lecture_skin(const struct skb_method *m, struct skb_mesh *mesh, const struct skb_pose *pose,
                        cJSON *ms, char *msg, size_t msglen)
{
    static const char *const keys[6] = { "p2_x", "p2_y", "p2_z", "p5_x", "p5_y", "p5_z" };
    struct skb_skinner s;
    double out[18];
    int rc;
    memset(&s, 0, sizeof s);
    if ((rc = skb_skin_init(&s, m, mesh, msg, msglen)) == 0)
        rc = skb_skin_pose(&s, pose, NULL, out, NULL, msg, msglen);
    skb_skin_fini(&s);
    if (rc < 0)
        return rc;
    cJSON *o = cJSON_AddObjectToObject(ms, m->name);
    for (int k = 0; k < 6; k++)
        skb_json_add_number(o, keys[k], out[(k < 3 ? 3 : 12) + k % 3]);
    skb_json_add_number(o, "p2_p5_distance", hypot(hypot(out[3] - out[12], out[4] - out[13]), out[5] - out[14]));
    return 0;
}

/* the lecture slides' worked example (seed 004, "Homogeneous Mat VS DQ"):
 * six vertices, J1 at the origin turned 180 deg about x (M1), J2 left alone
 * (M2 = I); the seed's inputs, the methods' outputs */
static int add_lecture_six(const struct skb_run_ctx *ctx, cJSON *root, char *msg, size_t msglen)
{
    /* LBS, DLB, DIB and two-phase DLB: the seed's two and the exact blends */
    static const unsigned roles[] = { SKB_MF_RATIO_REF, SKB_MF_HEADLINE, SKB_MF_HEAT_REF, SKB_MF_TWO_PHASE, 0 };
    double pos[18] = { 0, 2.5, 0, 1, 2.5, 0, 2, 2.5, 0, 0, -2.5, 0, 1, -2.5, 0, 2, -2.5, 0 };
    static const double wrow[6][2] = { { 1, 0 }, { 0.5, 0.5 }, { 0, 1 }, { 1, 0 }, { 0.5, 0.5 }, { 0, 1 } };
    double weight[24] = { 0 }, mats[32] = { 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1 };
    int joint[24] = { 0 }, rc;
    for (int v = 0; v < 6; v++)
        for (int k = 0; k < 2; k++) {
            joint[4 * v + k] = k;
            weight[4 * v + k] = wrow[v][k];
        }
    skb_mat4_identity(mats + 16);
    struct skb_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    mesh.nverts = 6; mesh.njoints = 2; mesh.pos = pos; mesh.joint = joint; mesh.weight = weight;
    struct skb_pose pose = { 2, mats, NULL };
    cJSON *l = cJSON_AddObjectToObject(root, "lecture_six_vertices");
    cJSON_AddStringToObject(l, "what", "seed 004 'Homogeneous Mat VS DQ': P1..P6 = (0|1|2, +-2.5, 0), weights "
                            "(1,0), (0.5,0.5), (0,1) per row, M1 = rotation by 180 deg about x, M2 = I; the skinned "
                            "P2, P5 and their distance per method");
    cJSON *ms = cJSON_AddObjectToObject(l, "methods");
    for (int i = 0; roles[i]; i++) {
        const struct skb_method *m = skb_method_with_flag(roles[i]);
        if (!m || !skb_run_wants_method(ctx, m))
            continue;
        if ((rc = lecture_skin(m, &mesh, &pose, ms, msg, msglen)) < 0)
            return rc;
    }
    return 0;
}

/* the lecture's two dual-quaternion point transforms (seed 004, "Dual
 * Quaternion for Only Rotation or Only Translation", Examples 1 and 2) as
 * DLB blends of one transform: the rotation (axis, degrees), then t, on P */
static int lecture_dq_point(const struct skb_method *dlb, const double axis[3], double deg, const double t[3],
                            const double p[3], cJSON *o, char *msg, size_t msglen)
{
    double r[9], m[16], out[16], w = 1, q[3];
    struct skb_quat qq;
    skb_quat_from_axis_angle(axis, deg / RAD2DEG, &qq);
    skb_quat_to_mat3(&qq, r);
    skb_mat4_from_rt(r, t, m);
    struct skb_blend_in in = { 1, &w, m, NULL };
    int rc = skb_blend(dlb, &in, NULL, out, NULL, msg, msglen);
    if (rc < 0)
        return rc;
    skb_mat4_apply(out, p, q);
    skb_json_add_number(o, "x", q[0]);
    skb_json_add_number(o, "y", q[1]);
    skb_json_add_number(o, "z", q[2]);
    return 0;
}

static int add_lecture_dq_examples(cJSON *root, char *msg, size_t msglen)
{
    const struct skb_method *dlb = skb_method_with_flag(SKB_MF_HEADLINE);
    static const double up[3] = { 0, 0, 1 }, down[3] = { 0, 0, -1 }, t1[3] = { 2, 2, 2 }, t0[3] = { 0, 0, 0 };
    static const double p1[3] = { 0, 2, 0 }, p2[3] = { 1, 2, 0 };
    int rc;
    if (!dlb)
        return 0;
    cJSON *l = cJSON_AddObjectToObject(root, "lecture_dq_examples");
    cJSON_AddStringToObject(l, "what", "seed 004 Examples 1 and 2: (0,2,0) turned 90 deg about +z then moved by "
                            "(2,2,2); (1,2,0) turned 60 deg about -z; each as DLB of the one transform (weight 1)");
    if ((rc = lecture_dq_point(dlb, up, 90, t1, p1, cJSON_AddObjectToObject(l, "example1"), msg, msglen)) < 0)
        return rc;
    return lecture_dq_point(dlb, down, 60, t0, p2, cJSON_AddObjectToObject(l, "example2"), msg, msglen);
}

/* DIB iterations over random inputs, and DIB = ScLERP for n = 2 */
static void add_dib(const struct skb_run_ctx *ctx, cJSON *root)
{
    const struct skb_method *dib = skb_method_with_flag(SKB_MF_HEAT_REF), *sc = skb_method_exact_pair();
    int samples = ctx->quick ? 300 : 5000;
    if (dib) {
        /* full range, and joint-like inputs (each rotation <= 45 deg, so any
         * two differ by <= 90 deg) closer to the skinning the thesis timed */
        static const char *const keys[2] = { "dib_iterations", "dib_iterations_moderate" };
        static const double maxangle[2] = { -1, SKB_PI / 4 };
        for (int k = 0; k < 2; k++) {
            int itmax = dib_histogram(ctx, dib, samples, maxangle[k], root, keys[k]);
            if (k == 0)
                cJSON_AddNumberToObject(root, "dib_iterations_max", itmax);
            else
                cJSON_AddNumberToObject(root, "dib_iterations_moderate_max", itmax);
        }
    }
    if (dib && sc)
        dib_vs_sclerp(ctx, dib, sc, samples / 5, root);
}

static int run_bounds(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    cJSON *root = skb_json_results_new(ctx, "bounds");
    struct skb_bound qs, dt;
    int rc;
    cJSON_AddStringToObject(root, "how", "maxima over t by GSL Brent (gsl_min_fminimizer_brent, bracketed by a "
                            "33-point scan) nested in a Nelder-Mead simplex over the angles "
                            "(gsl_multimin_fminimizer_nmsimplex2, alpha0 = pi sin^2 x); every value runs the "
                            "registered methods' blends");
    if ((rc = add_pair_bounds(ctx, root, &qs, &dt, msg, msglen)) == 0
        && (rc = add_gap_curves(root, qs.alpha0, dt.alpha0, msg, msglen)) == 0
        && (rc = add_logm_speed(ctx, root, msg, msglen)) == 0 && (rc = add_se2_centre(ctx, root, msg, msglen)) == 0
        && (rc = add_centre_drift(root, msg, msglen)) == 0 && (rc = add_lecture_six(ctx, root, msg, msglen)) == 0
        && (rc = add_lecture_dq_examples(root, msg, msglen)) == 0) {
        add_dib(ctx, root);
        if ((rc = dlb_dib_skin_gap(ctx, root, msg, msglen)) == 0) {
            add_vs_exact(ctx, root);
            rc = skb_results_write(ctx, &skb_schema_bounds, root, msg, msglen);
        }
    }
    cJSON_Delete(root);
    return rc;
}

const struct skb_experiment skb_exp_bounds = {
    .name = "bounds",
    .description = "QLB/SLERP and DLB/ScLERP gaps, log-matrix speed, SE(2) centres, DIB iterations (optimised)",
    .run = run_bounds,
    .takes_dataset = 1,
    .dataset_note = "the DLB-DIB vertex gap (DQ paper App. B) is measured over its animation; the closed-form curves take no mesh",
};
