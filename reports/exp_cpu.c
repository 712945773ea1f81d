/* exp_cpu.c — the `cpu` experiment's report half (run half: harness/exp_cpu.c;
 * its files' tables: harness/exp_cpu_schema.c; its plots: exp_cpu_plots.c):
 * DQ paper Fig. 18 (CPU time per method as a ratio to LBS), thesis Table 3.2,
 * and the fast single-precision kernels: one row per timed kernel and
 * dataset with what its time covers (layout, normal option, threads, the
 * influence histogram it blends with, bytes per vertex, fraction of the copy
 * roofline) and its ratio to the f32 LBS beside Figure 18's; the peers with
 * what they do; the project targets (reference.json fast_kernel_targets, not
 * paper values), each met or not.  Rows judged against reports/reference.json;
 * its exact nightly gate: regress/gate_exact.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "skb_label.h"
#include "report_internal.h"
#include "skb_method.h"   /* the methods' roles (skb_method_role_name) */
#include "skb_run.h"

static double cpu_ratio(const cJSON *d, const char *method)
{
    double r, a, b;
    if (skb__jnum(skb__jget(skb__jget(d, "ratio_to_linear"), method), &r) == 0)
        return r;
    if (skb__jnum(skb__jget(skb__jget(d, "ms"), method), &a) == 0 && skb__jnum(skb__jget(skb__jget(d, "ms"), skb_method_role_name(SKB_MF_RATIO_REF)), &b) == 0
        && b > 0)
        return a / b;
    return NAN;
}

/* why cpu.json has no time for a method on a dataset: its check failed */
static char *cpu_failure(const cJSON *doc, const char *method, const char *dataset)
{
    char key[300];
    snprintf(key, sizeof key, "double/%s/%s", method, dataset);
    const char *f = skb__jstr(skb__jget(skb__jget(doc, "failures"), key));
    return f ? skb__fmt("not timed: %s: %s", key, f) : NULL;
}

/* a timed variant of a paper method ("dlb+alg2", "dib@p=0.001"): its base
 * name, or NULL when the key is the method itself (common/skb_label.h) */
static char *variant_base(const char *key)
{
    struct skb_label l;
    char m[sizeof l.method];
    if (skb_label_parse(key, &l) == 0)
        return l.nvariants || l.nkeys ? skb__fmt("%s", l.method) : NULL;
    /* no well-formed label: still a variant of the method it starts with */
    return key[skb_label_method(key, m, sizeof m)] ? skb__fmt("%s", m) : NULL;
}

/* what a double-path row timed (cpu.json checks.double.KEY.variant) */
static const char *variant_text(const cJSON *d, const char *key)
{
    const char *v = skb__jstr(skb__jget(skb__jget(skb__jget(skb__jget(d, "checks"), "double"), key), "variant"));
    return v ? v : "double";
}

/* where DIB's time goes (cpu.json dib_work): iterations per vertex beside
 * the time, logs and exps per vertex and what they cost */
static char *dib_work_note(const cJSON *d)
{
    const cJSON *w = skb__jget(d, "dib_work"), *h;
    if (!w)
        return NULL;
    char hist[200] = "";
    cJSON_ArrayForEach(h, skb__jget(w, "iterations_histogram")) {
        size_t l = strlen(hist);
        double v = NAN;
        skb__jnum(h, &v);
        snprintf(hist + l, sizeof hist - l, "%s%s: %.0f", l ? ", " : "", h->string ? h->string : "?", v);
    }
    double lv = NAN, ev = NAN, lns = NAN, ens = NAN, lem = NAN, diff = NAN, p = NAN;
    skb__jnum(skb__jget(w, "logs_per_vertex"), &lv);
    skb__jnum(skb__jget(w, "exps_per_vertex"), &ev);
    skb__jnum(skb__jget(w, "log_ns"), &lns);
    skb__jnum(skb__jget(w, "exp_ns"), &ens);
    skb__jnum(skb__jget(w, "log_exp_ms_per_deformation"), &lem);
    skb__jnum(skb__jget(w, "dib_minus_dlb_ms"), &diff);
    skb__jnum(skb__jget(w, "precision"), &p);
    return skb__fmt("where DIB's time goes (p = %g, this run): iterations per vertex {%s}; %.3g logs and %.3g exps "
                    "per vertex at %.3g / %.3g ns each = %.3g ms of the %.3g ms DIB takes over DLB; the other %.3g ms "
                    "is the rest of the per-vertex work (dual quaternion products, the start, branches on the "
                    "influence and iteration counts), not timed separately", p, hist, lv, ev, lns, ens, lem, diff,
                    diff - lem);
}

/* [min, max] of the per-round ratios num / den of one dataset (cpu.json
 * checks.double.L.repetition_ms: with random interleaving repetition i of
 * every kernel ran in round i): with 5 rounds the median ratio lies inside
 * with 94 % confidence.  NAN when the run stored no repetitions. */
static void round_interval(const cJSON *d, const char *num, const char *den, double *lo, double *hi)
{
    const cJSON *ck = skb__jget(skb__jget(d, "checks"), "double");
    const cJSON *a = skb__jget(skb__jget(ck, num), "repetition_ms"), *b = skb__jget(skb__jget(ck, den), "repetition_ms");
    int n = cJSON_GetArraySize(a);
    *lo = *hi = NAN;
    if (n < 2 || n != cJSON_GetArraySize(b))
        return;
    double mn = INFINITY, mx = -INFINITY;
    for (int i = 0; i < n; i++) {
        double x, y;
        if (skb__jnum(cJSON_GetArrayItem(a, i), &x) < 0 || skb__jnum(cJSON_GetArrayItem(b, i), &y) < 0 || !(y > 0))
            return;
        mn = fmin(mn, x / y);
        mx = fmax(mx, x / y);
    }
    *lo = mn;
    *hi = mx;
}

/* a timed ratio num / den of a dataset judged by the section's rule, with
 * its interval from the rounds widened to the run-to-run floor */
static int judge_cpu_ratio(const struct skb_report *rep, const cJSON *sec, const cJSON *d, const char *num,
                           const char *den, double r, double paper, struct skb_verdict *v, char **note)
{
    double lo, hi;
    int st = skb__judge_v(skb__jget(sec, "tolerance"), r, paper, NAN, v, note);
    if (!v->rule[0])
        return st;
    round_interval(d, num, den, &lo, &hi);
    return skb__judge_timed(v, lo, hi, skb__timing_floor(rep, "cpu"), note);
}

/* a driver the paper does not give that sets a Figure 18 row (the DQ paper
 * gives no SVD count for its SBS and no iteration count for its DIB clip):
 * the driver named with this run's value, or NULL */
static char *fig18_driver(const cJSON *d, const char *method)
{
    double svd = NAN, v = NAN, it = NAN, lv = NAN;
    char b1[32], b2[32];
    skb__jnum(skb__jget(d, "vertices"), &v);
    if (strcmp(method, skb_method_role_name(SKB_MF_ROT_CENTERS)) == 0) {
        skb__jnum(skb__jget(skb__jget(skb__jget(d, "pose_stats"), skb_method_role_name(SKB_MF_ROT_CENTERS)), "solves_per_pose_mean"), &svd);
        return skb__fmt("SVDs per pose: %s here on %.0f vertices (%s per 1000 vertices); the DQ paper's Fig. 18 "
                        "does not give its SBS model's SVD count", skb__num4(b1, svd), v,
                        skb__num4(b2, v > 0 ? 1000 * svd / v : NAN));
    }
    if (strcmp(method, skb_method_role_name(SKB_MF_ITERATIVE)) == 0) {
        const cJSON *w = skb__jget(d, "dib_work"), *h;
        double sum = 0, cnt = 0;
        cJSON_ArrayForEach(h, skb__jget(w, "iterations_histogram")) {
            double c = NAN, k = h->string ? atof(h->string) : NAN;
            if (skb__jnum(h, &c) == 0 && isfinite(k)) {
                sum += k * c;
                cnt += c;
            }
        }
        it = cnt > 0 ? sum / cnt : NAN;
        skb__jnum(skb__jget(w, "logs_per_vertex"), &lv);
        double mx = NAN;
        skb__jnum(skb__jget(skb__jget(skb__jget(d, "pose_stats"), skb_method_role_name(SKB_MF_ITERATIVE)), "max_iterations"), &mx);
        if (!isfinite(it) && isfinite(mx))   /* no dib_work on this dataset: the clip's largest count */
            return skb__fmt("DIB iterations: at most %.0f per blend over this clip's checked poses here; the DQ paper "
                            "does not give its clip's iteration count", mx);
        return skb__fmt("DIB iterations per vertex: mean %s here (%s logs per vertex) on this clip; the DQ paper "
                        "does not give its clip's iteration count", skb__num4(b1, it), skb__num4(b2, lv));
    }
    return NULL;
}

/* Longer than 80 lines, kept whole on purpose: one pass over datasets and
 * methods fills the ratio, interval and paper cells of Fig. 18 together, so a
 * cell and the interval that judges it come from the same lookup. */
static void section_fig18(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "figure_18");
    static const char *const cols[] = { "dataset", "method", "variant", "ms", "ratio to LBS", "paper ratio", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    char *tol = skb__tol_text(sec);
    const char *jv = skb__jstr(skb__jget(sec, "judged_variant")), *pn = skb__jstr(skb__jget(sec, "precision_note"));
    char *rule = skb__fmt("%s%s%s%s%s", tol, jv ? ". Judged: " : "", jv ? jv : "", pn ? ". Precision: " : "", pn ? pn : "");
    free(tol);
    struct skb_rtable *t = skb__tbl_new(rep, "fig18", "DQ paper Figure 18: CPU time per deformation, ratio to LBS", src,
                                   rule, cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "cpu.json");
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "cpu.json"), strdup("—"), strdup("all"), NULL);
            continue;
        }
        const char *verified = NULL;
        if (cJSON_IsFalse(skb__jget(doc, "verified"))) {
            /* said once: the times of kernels whose output failed its check */
            char fl[600] = "";
            const cJSON *f;
            struct skb_verdict vf;
            /* exact: the kernels whose output failed its check, against none */
            skb_verdict_init(&vf, "exact", 0, fmax(1, cJSON_GetArraySize(skb__jget(doc, "failures"))), 0);
            skb_rule_band(&vf);
            cJSON_ArrayForEach(f, skb__jget(doc, "failures")) {
                size_t l = strlen(fl);
                if (l < sizeof fl - 40)
                    snprintf(fl + l, sizeof fl - l, "%s%.60s", l ? ", " : "", f->string ? f->string : "?");
            }
            skb__row_add(rep, t, k, SKB_ROW_DIFFERS,
                    skb__fmt("cpu.json \"verified\" is false: not every timed kernel's output passed its check%s%s",
                      fl[0] ? "; failures: " : "", fl), strdup("(all)"), strdup("verification"), strdup("—"), strdup("—"),
                    strdup("—"), strdup("—"), NULL);
            skb__row_verdict(rep, t, &vf, NULL);
        }
        const cJSON *d;
        cJSON_ArrayForEach(d, skb__jget(doc, "datasets")) {
            const cJSON *m;
            double lin;
            int has_lin = skb__jnum(skb__jget(skb__jget(d, "ms"), skb_method_role_name(SKB_MF_RATIO_REF)), &lin) == 0;
            cJSON_ArrayForEach(m, skb__jget(d, "ms")) {
                double ms, paper;
                skb__jnum(m, &ms);
                double r = cpu_ratio(d, m->string);
                char *note = NULL, *base = variant_base(m->string), *cause = NULL;
                struct skb_verdict v = { .rule = "" };
                int st;
                const cJSON *pv = skb__jget(skb__jget(sec, "ratio_to_linear"), base ? base : m->string);
                if (strcmp(m->string, skb_method_role_name(SKB_MF_RATIO_REF)) == 0) {
                    st = SKB_ROW_CONTEXT;
                    note = strdup("the reference of the ratios");
                } else if (base && skb__jnum(pv, &paper) == 0) {
                    /* one judged row per paper method: other variants are context */
                    st = SKB_ROW_CONTEXT;
                    note = skb__fmt("context: not the paper's variant; Figure 18's %s row is judged on \"%s\"", base, base);
                } else if (!base && skb__jnum(pv, &paper) == 0 && isfinite(r)) {
                    st = judge_cpu_ratio(rep, sec, d, m->string, skb_method_role_name(SKB_MF_RATIO_REF), r, paper, &v, &note);
                    cause = fig18_driver(d, m->string);
                    v.setup = cause != NULL;
                    st = skb_verdict_status(&v);
                    note = skb__join_note(note, "judged: the paper's variant");
                    if (cause)
                        note = skb__join_note(note, cause);
                } else {
                    st = SKB_ROW_NEW;
                    paper = NAN;
                    note = strdup(has_lin ? "no paper value" : "no LBS time in this dataset");
                }
                if (strcmp(m->string, skb_method_role_name(SKB_MF_RATIO_REF)) == 0)
                    paper = 1;
                note = skb__join_note(note, skb__why_lookup(doc, m->string, d->string));
                note = skb__join_note(note, verified);
                free(base);
                skb__row_add(rep, t, k, st, note, strdup(d->string), strdup(m->string),
                             strdup(variant_text(d, m->string)), skb__numtxt(ms), skb__numtxt(r), skb__numtxt(paper), NULL);
                skb__row_verdict(rep, t, &v, cause);
            }
            /* paper methods this dataset did not time */
            const cJSON *pm;
            cJSON_ArrayForEach(pm, skb__jget(sec, "ratio_to_linear"))
                if (!skb__jget(skb__jget(d, "ms"), pm->string)) {
                    double pv = NAN;
                    skb__jnum(pm, &pv);
                    char *why = cpu_failure(doc, pm->string, d->string);
                    skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, why ? why : skb__fmt("method %s not timed on %s", pm->string, d->string),
                            strdup(d->string), strdup(pm->string), strdup("—"), strdup("—"), strdup("—"), skb__numtxt(pv), NULL);
                }
            /* DQ paper App. B: DIB against DLB */
            double dib, dlb, pr;
            const char *dibn = skb_method_role_name(SKB_MF_ITERATIVE), *dlbn = skb_method_role_name(SKB_MF_HEADLINE);
            if (skb__jnum(skb__jget(skb__jget(d, "ms"), dibn), &dib) == 0 && skb__jnum(skb__jget(skb__jget(d, "ms"), dlbn), &dlb) == 0 && dlb > 0
                && skb__jnum(skb__jget(skb__jget(sec, "dib_ms"), "ratio_to_dlb"), &pr) == 0) {
                char *note, *work = dib_work_note(d), *cause = fig18_driver(d, dibn);
                struct skb_verdict v;
                judge_cpu_ratio(rep, sec, d, dibn, dlbn, dib / dlb, pr, &v, &note);
                v.setup = 1;
                int st = skb_verdict_status(&v);
                note = skb__join_note(note, cause);
                note = skb__join_note(note, "DQ paper App. B: DIB 15.33 ms vs DLB 5.07 ms at p = 1e-5; both rows in this "
                                            "run, same variant");
                note = skb__join_note(note, work);
                free(work);
                skb__row_add(rep, t, k, st, note, strdup(d->string), strdup("dib / dlb"), strdup(variant_text(d, dibn)),
                             skb__numtxt(dib), skb__numtxt(dib / dlb), skb__numtxt(pr), NULL);
                skb__row_verdict(rep, t, &v, cause);
            }
            skb__report_dib_variants(rep, t, k, d);
        }
    }
}

/* one paper's range per row (never their union): the thesis's Table 3.2
 * row is judged against the thesis's range, seed 003's Table 2 row against
 * 003's; ranges[] of reference.json table_3_2, each with "judged" true or
 * false (a range shown as context beside the judged one) */
static int table32_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *sec, const cJSON *range,
                       const cJSON *d, double l, double s, double svd, double v, double j)
{
    double a = NAN, b = NAN, w = 0;
    skb__jnum(skb__jget(range, "lo"), &a);
    skb__jnum(skb__jget(range, "hi"), &b);
    skb__jnum(skb__jget(skb__jget(sec, "tolerance"), "value"), &w);
    int judged = !cJSON_IsFalse(skb__jget(range, "judged"));
    struct skb_verdict vd = { .rule = "" };
    char *note = NULL, *cause = NULL;
    int st;
    if (!isfinite(s) || !isfinite(l) || l <= 0) {
        st = SKB_ROW_NOT_RUN;
        note = cpu_failure(skb_results_doc(&rep->runs[k], "cpu.json"), isfinite(s) ? skb_method_role_name(SKB_MF_RATIO_REF) : skb_method_role_name(SKB_MF_ROT_CENTERS), d->string);
        if (!note)
            note = skb__fmt("%s has no %s time", d->string, isfinite(s) ? "LBS" : "SBS (sb)");
    } else if (!judged) {
        st = SKB_ROW_CONTEXT;
        note = skb__fmt("%s %.3g–%.3g: context (%s); this table judges the thesis's range only", skb__ref_str(range, "name"),
                        a, b, skb__ref_str(range, "why"));
    } else {
        skb_verdict_init(&vd, "range", w, s / l, b);
        vd.paper_lo = a;
        skb_rule_band(&vd);
        double lo, hi;
        round_interval(d, skb_method_role_name(SKB_MF_ROT_CENTERS), skb_method_role_name(SKB_MF_RATIO_REF), &lo, &hi);
        skb_verdict_timed(&vd, lo, hi, skb__timing_floor(rep, "cpu"));
        st = skb_verdict_status(&vd);
        note = skb__verdict_text(&vd, st);
        char b1[32];
        cause = skb__fmt("SVDs per pose: %s here (%.0f vertices, %.0f joints); the thesis's models: 38 / 37 / 56",
                         skb__num4(b1, svd), v, j);
        note = skb__join_note(note, cause);
    }
    /* the SVD count at the data's precision, trivial sets and fallbacks apart */
    char *svd_note = skb__sb_svd_note(rep, d);
    note = skb__join_note(note, svd_note);
    free(svd_note);
    skb__row_add(rep, t, k, st, note, strdup(d->string), skb__fmt("%.0f / %.0f", v, j), skb__numtxt(l), skb__numtxt(s),
                 isfinite(s) && isfinite(l) && l > 0 ? skb__numtxt(s / l) : strdup("—"),
                 skb__fmt("%.3g–%.3g (%s)", a, b, skb__ref_str(range, "seed")), skb__numtxt(svd),
                 strdup("38 / 37 / 56"), NULL);
    skb__row_seed(t, skb__ref_str(range, "seed"));
    skb__row_verdict(rep, t, &vd, cause);
    return st;
}

static void section_table32(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "table_3_2");
    static const char *const cols[] = { "dataset", "vertices / joints", "LBS ms", "SBS ms", "SBS / LBS",
                                        "paper SBS / LBS", "SVDs per pose", "paper SVDs", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    struct skb_rtable *t = skb__tbl_new(rep, "table32", "Thesis Table 3.2: SBS against LBS on the CPU", src, skb__tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "cpu.json");
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "cpu.json"), strdup("—"), NULL);
            continue;
        }
        const cJSON *d;
        cJSON_ArrayForEach(d, skb__jget(doc, "datasets")) {
            double l = NAN, s = NAN, v = NAN, j = NAN, svd = NAN;
            skb__jnum(skb__jget(skb__jget(d, "ms"), skb_method_role_name(SKB_MF_RATIO_REF)), &l);
            skb__jnum(skb__jget(skb__jget(d, "ms"), skb_method_role_name(SKB_MF_ROT_CENTERS)), &s);
            skb__jnum(skb__jget(d, "vertices"), &v);
            skb__jnum(skb__jget(d, "joints"), &j);
            static const char *const svdkeys[] = { "svds_per_pose", "svds", "solves", "sb_solves", NULL };
            for (int i = 0; svdkeys[i] && !isfinite(svd); i++)
                skb__jnum(skb__jget(d, svdkeys[i]), &svd);
            if (!isfinite(svd))
                skb__jnum(skb__jget(skb__jget(skb__jget(d, "pose_stats"), skb_method_role_name(SKB_MF_ROT_CENTERS)), "solves_per_pose_mean"), &svd);
            const cJSON *range;
            cJSON_ArrayForEach(range, skb__jget(sec, "ranges"))
                table32_row(rep, t, k, sec, range, d, l, s, svd, v, j);
        }
    }
}

/* ---- the fast kernels ---- */

#define NCOLS 10

/* "split · renormalise · 1 thread" from a kernel's checks entry */
static char *kernel_what(const cJSON *c)
{
    const char *lay = skb__jstr(skb__jget(c, "layout")), *nrm = skb__jstr(skb__jget(c, "normals"));
    double th = NAN;
    if (!lay || !nrm || skb__jnum(skb__jget(c, "threads"), &th) < 0)
        return strdup("—");
    return skb__fmt("%s · normals: %s · %g thread%s", lay, nrm, th, th == 1 ? "" : "s");
}

/* "1673 / 1148 / 193 / 0": vertices blended with 1, 2, 3, 4 influences */
static char *histogram_text(const cJSON *c)
{
    const cJSON *h = skb__jget(c, "influence_histogram");
    double v[4];
    if (cJSON_GetArraySize(h) != 4)
        return strdup("—");
    for (int i = 0; i < 4; i++)
        if (skb__jnum(cJSON_GetArrayItem(h, i), &v[i]) < 0)
            return strdup("—");
    return skb__fmt("%.0f / %.0f / %.0f / %.0f", v[0], v[1], v[2], v[3]);
}

/* vertices per second of a row's time (CPU time on one thread, wall time on
 * the pool: the ms column), to set beside other libraries' published
 * throughput */
static char *vps_text(const cJSON *d, double ms)
{
    double n = NAN;
    if (skb__jnum(skb__jget(d, "vertices"), &n) < 0 || !isfinite(n) || !(ms > 0))
        return strdup("—");
    return skb__fmt("%.3g", n / (ms * 1e-3));
}

static char *num_of(const cJSON *c, const char *k)
{
    double x = NAN;
    return skb__jnum(skb__jget(c, k), &x) == 0 && isfinite(x) ? skb__numtxt(x) : strdup("—");
}

/* a pooled kernel's limit sentence (cpu.json fast_kernels.pool_scaling,
 * by the label without its "@2t"), NULL when the run has none */
static const char *pool_limit_text(const cJSON *d, const char *label)
{
    const char *at = strrchr(label, '@');
    char head[64];
    if (!at || (size_t)(at - label) >= sizeof head)
        return NULL;
    memcpy(head, label, (size_t)(at - label));
    head[at - label] = 0;
    return skb__jstr(skb__jget(skb__jget(skb__jget(skb__jget(d, "fast_kernels"), "pool_scaling"), head), "limit"));
}

/* one row per timed kernel of one dataset (ratio to the f32 LBS, beside
 * Figure 18's ratio where the paper has one for the method, as context) */
static void fast_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *sec, const char *dataset,
                      const cJSON *d)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, skb__jget(d, "ms_f32")) {
        double ms = NAN, r = NAN, paper = NAN, th = 1;
        const cJSON *c = skb__jget(skb__jget(skb__jget(d, "checks"), "f32"), m->string);
        skb__jnum(skb__jget(c, "threads"), &th);
        skb__jnum(m, &ms);
        skb__jnum(skb__jget(skb__jget(d, "ratio_to_linear_f32"), m->string), &r);
        char *note = NULL;
        int st;
        if (strcmp(m->string, skb_method_role_name(SKB_MF_RATIO_REF)) == 0) {
            st = SKB_ROW_CONTEXT;
            paper = 1;
            note = strdup("the reference of the ratios");
        } else if (skb__jnum(skb__jget(skb__jget(sec, "ratio_to_linear"), m->string), &paper) == 0 && isfinite(r)) {
            /* Figure 18 is judged once, in table fig18, on the paper's variant */
            char *j;
            skb__judge(skb__jget(sec, "tolerance"), r, paper, NAN, &j);
            st = SKB_ROW_CONTEXT;
            note = skb__fmt("context (single precision; within the tolerance it would read: %s); Figure 18 is judged "
                            "once, on the double path's paper variant (table fig18)", j ? j : "?");
            free(j);
        } else {
            const char *lim = th > 1 ? pool_limit_text(d, m->string) : NULL;
            st = SKB_ROW_NEW;
            note = th > 1 ? skb__fmt("no paper value; wall time on the thread pool, ratio to LBS's wall time%s%s",
                                     lim ? "; " : "", lim ? lim : "")
                          : strdup("no paper value");
        }
        skb__row_add(rep, t, k, st, note, strdup(dataset), strdup(m->string), kernel_what(c), histogram_text(c),
                     num_of(c, "bytes_per_vertex"), skb__numtxt(ms), skb__numtxt(r), num_of(c, "fraction_of_roofline"),
                     vps_text(d, ms), skb__numtxt(paper), NULL);
    }
}

/* the engine peers timed beside our kernels, and what their time covers */
static void peer_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc, const char *dataset,
                      const cJSON *lm)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, skb__jget(doc, "peers")) {
        double ms = NAN, lin = NAN, th = NAN;
        skb__jnum(skb__jget(skb__jget(lm, "peers_ms"), p->string), &ms);
        skb__jnum(skb__jget(skb__jget(lm, "ms_f32"), skb_method_role_name(SKB_MF_RATIO_REF)), &lin);
        skb__jnum(skb__jget(p, "threads"), &th);
        skb__row_add(rep, t, k, SKB_ROW_CONTEXT,
                     skb__fmt("peer (checked against our %s): %s; layout: %s", skb__jstr(skb__jget(p, "reference"))
                              ? skb__jstr(skb__jget(p, "reference")) : "?", skb__jstr(skb__jget(p, "description"))
                              ? skb__jstr(skb__jget(p, "description")) : "?", skb__jstr(skb__jget(p, "layout"))
                              ? skb__jstr(skb__jget(p, "layout")) : "?"),
                     strdup(dataset), skb__fmt("peer %s", p->string),
                     skb__fmt("normals: %s · %g thread%s", skb__jstr(skb__jget(p, "normals")) ? skb__jstr(skb__jget(p, "normals")) : "?",
                              th, th == 1 ? "" : "s"),
                     strdup("all 4 slots"), strdup("—"), skb__numtxt(ms), skb__numtxt(ms / lin), strdup("—"),
                     vps_text(lm, ms), strdup("—"), NULL);
    }
}

/* ---- the planner's choices (cpu.json fast_kernels.plans) ---- */

/* "split/x86-64-v4/batch8 0.0084, ..." in the planner's order, fastest first marked */
static char *candidates_text(const cJSON *pl)
{
    char *out = strdup(""), *next;
    const cJSON *c;
    cJSON_ArrayForEach(c, skb__jget(pl, "candidates")) {
        double ms = NAN;
        const cJSON *v = skb__jget(c, "verified");
        skb__jnum(skb__jget(c, "ms"), &ms);
        next = skb__fmt("%s%s%s %s%s", out, out[0] ? ", " : "", skb__jstr(skb__jget(c, "candidate"))
                        ? skb__jstr(skb__jget(c, "candidate")) : "?", isfinite(ms) ? "" : "not timed",
                        cJSON_IsTrue(v) ? "" : " (failed its check)");
        free(out);
        out = next;
        if (isfinite(ms)) {
            char *n = skb__numtxt(ms);
            next = skb__fmt("%s%s ms", out, n);
            free(n);
            free(out);
            out = next;
        }
    }
    return out;
}

static void plan_rows(struct skb_report *rep, struct skb_rtable *t, int k, const char *dataset, const cJSON *d)
{
    const cJSON *pl;
    cJSON_ArrayForEach(pl, skb__jget(skb__jget(d, "fast_kernels"), "plans")) {
        double sp = NAN, cost = NAN, th = NAN, tm = NAN, bf = NAN;
        skb__jnum(skb__jget(pl, "speedup_over_best_fixed"), &sp);
        skb__jnum(skb__jget(pl, "planning_ms"), &cost);
        skb__jnum(skb__jget(pl, "threads"), &th);
        skb__jnum(skb__jget(pl, "timed_ms"), &tm);
        skb__jnum(skb__jget(pl, "best_fixed_ms"), &bf);
        const char *src = skb__jstr(skb__jget(pl, "source")), *bfn = skb__jstr(skb__jget(pl, "best_fixed"));
        double w1 = NAN;
        skb__jnum(skb__jget(pl, "one_thread_wall_ms_beside_pools"), &w1);
        char *c1 = candidates_text(pl), *cands = isfinite(w1) ? skb__fmt("%s; threads chosen on wall time, one thread "
                                                                        "%.4g ms beside the pools", c1, w1) : strdup(c1);
        free(c1);
        char *v = skb__cpu_plan_verdict(rep, d, pl->string);
        if (!v)
            v = skb__fmt("target speed-up >= 1 over the best fixed row (not a paper value): %s",
                         !isfinite(sp) ? "not measured" : sp >= 1 ? "met on one number (no pairs)"
                                                        : "not met on one number (no pairs)");
        char *note = skb__fmt("%s; %s; candidates (median round mean each): %s", v, src ? src : "?", cands);
        free(v);
        free(cands);
        skb__row_add(rep, t, k, SKB_ROW_NEW, note,
                     strdup(dataset), strdup(pl->string), strdup(skb__jstr(skb__jget(pl, "choice"))
                                                                 ? skb__jstr(skb__jget(pl, "choice")) : "none"),
                     skb__numtxt(th), skb__numtxt(tm), strdup(bfn ? bfn : "—"),
                     skb__numtxt(bf), skb__numtxt(sp), skb__numtxt(cost), NULL);
    }
}

static void plan_table(struct skb_report *rep)
{
    static const char *const cols[] = { "dataset", "row", "choice (layout/instruction set/renormalisation)",
                                        "threads planned", "ms (timed row)", "best fixed row", "its ms",
                                        "speed-up over best fixed", "planning ms", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "fast_plan", "Fast kernels: the planner's choice per dataset",
                                        "skinbench (docs/report-and-regression.md \"Fast kernels: the planner\")",
                                        strdup("Each @plan row runs the kernel the planner chose for the mesh after "
                                               "timing every candidate (checked against the double skin first); its "
                                               "name does not change with the choice. Target (not a paper value): "
                                               "at most 1.05 x the time of the faster of the fixed split and 4-slot "
                                               "rows in the same run, decided on the three rows timed pair by pair; "
                                               "the speed-up column is the medians'."),
                                        cols);
    if (!t)
        return;
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "cpu.json"), *d;
        if (!doc)
            continue;
        cJSON_ArrayForEach(d, skb__jget(doc, "datasets"))
            plan_rows(rep, t, k, d->string, d);
        const cJSON *lm = skb__jget(doc, "large_mesh");
        if (lm)
            plan_rows(rep, t, k, skb__jstr(skb__jget(lm, "dataset")) ? skb__jstr(skb__jget(lm, "dataset")) : "large mesh",
                      lm);
    }
}

/* ---- scaling to every core (cpu.json large_mesh.scaling) ---- */

static void scaling_table(struct skb_report *rep)
{
    static const char *const cols[] = { "threads", "LBS ms", "LBS speed-up", "LBS vertices/s",
                                        "LBS fraction of the copy", "DLB ms", "DLB speed-up", "copy GB/s", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "fast_scaling", "Fast kernels on every core: roofline mesh",
                                        "skinbench", strdup("Split f32 kernels (renormalised) at 1, 2, 4, ... threads "
                                        "and every CPU, wall time, beside the copy bandwidth at the same thread "
                                        "count. Targets (not paper values): >= 0.7 N speed-up or >= 0.8 of the "
                                        "N-thread copy bandwidth on 8 or more cores."), cols);
    if (!t)
        return;
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *sc = skb__jget(skb__jget(skb_results_doc(&rep->runs[k], "cpu.json"), "large_mesh"), "scaling"), *p;
        double cpus = NAN;
        if (!sc)
            continue;
        skb__jnum(skb__jget(sc, "cpus"), &cpus);
        cJSON_ArrayForEach(p, skb__jget(sc, "points")) {
            double v[9] = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
            static const char *const keys[] = { "threads", "linear_ms", "linear_speedup", "linear_vertices_per_s",
                                                "linear_fraction_of_copy", "dlb_ms", "dlb_speedup",
                                                "copy_bandwidth_GBps" };
            for (int i = 0; i < 8; i++)
                skb__jnum(skb__jget(p, keys[i]), &v[i]);
            int big = v[0] >= 8 && cpus >= 8;
            int met = big && (v[2] >= 0.7 * v[0] || v[4] >= 0.8);
            skb__row_add(rep, t, k, SKB_ROW_NEW,
                         cpus > 2 ? (big ? skb__fmt("target %s", met ? "met" : "not met") : strdup("no paper value"))
                                  : strdup("2 cores only: no scaling curve beyond the 2-thread pool"),
                         skb__numtxt(v[0]), skb__numtxt(v[1]), skb__numtxt(v[2]), skb__fmt("%.3g", v[3]),
                         skb__numtxt(v[4]), skb__numtxt(v[5]), skb__numtxt(v[6]), skb__numtxt(v[7]), NULL);
        }
    }
}

static void section_fast(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "figure_18"), *tg = skb__jget(rep->ref, "fast_kernel_targets");
    static const char *const cols[NCOLS + 1] = { "dataset", "method", "layout · normals · threads",
                                                 "vertices with 1/2/3/4 influences", "bytes/vertex", "ms (f32)",
                                                 "ratio to LBS (f32)", "fraction of copy roofline", "vertices/s",
                                                 "paper ratio", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    struct skb_rtable *t = skb__tbl_new(rep, "fast", "Fast single-precision kernels: ratio to LBS beside Figure 18, roofline",
                                   src, skb__tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "cpu.json"), *d;
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "cpu.json"), strdup("—"), strdup("all"), NULL);
            continue;
        }
        cJSON_ArrayForEach(d, skb__jget(doc, "datasets"))
            fast_rows(rep, t, k, sec, d->string, d);
        const cJSON *lm = skb__jget(doc, "large_mesh");
        if (!lm)
            continue;
        const char *name = skb__jstr(skb__jget(lm, "dataset")) ? skb__jstr(skb__jget(lm, "dataset")) : "large mesh";
        fast_rows(rep, t, k, sec, name, lm);
        peer_rows(rep, t, k, doc, name, lm);
        skb__cpu_target_rows(rep, t, k, doc, tg, name, lm);
    }
    plan_table(rep);
    scaling_table(rep);
    skb__cpu_control_table(rep);
}

/* ---- the experiment: run half harness/exp_cpu.c ---- */

const struct skb_experiment_desc skb_desc_cpu = {
    .run = &skb_exp_cpu,
    .files = (const struct skb_result_file[]){
        { "cpu.json", 1, NULL, "datasets/*/ms/*", &skb_schema_cpu },
        { "cpu-gbench.json", 0, NULL, NULL, &skb_schema_cpu_gbench },
        /* run cpu --offset-sweep (harness/fast_sweep.c): not compared, not in the report */
        { "cpu-offsets.json", 1, NULL, NULL, &skb_schema_cpu_offsets },
        { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "fig18", SKB_NEED_SKIN, section_fig18, NULL }, { "fast", SKB_NEED_F32, section_fast, NULL },
        { "table32", SKB_NEED_NONE, section_table32, NULL }, { NULL, 0, NULL, NULL } },
    /* stem "cpu": skb__plot_cpu (exp_cpu_plots.c) writes cpu-times and cpu-ratio */
    .plots = (const struct skb_report_plot[]){ { "cpu", SKB_NEED_SKIN, skb__plot_cpu }, { NULL, 0, NULL } },
};
