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

/* the paired ratio kernel / control of a cpu.json dataset entry in one
 * treatment (NULL: any), read into *p; -1 when it was not timed */
static int pair_of(const cJSON *d, const char *kernel, const char *control, const char *treatment,
                   struct skb_paired *p)
{
    const cJSON *rows = skb__jget(skb__jget(d, "paired"), "rows");
    return skb__paired_read(skb__paired_find(rows, kernel, control, treatment), p);
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

/* where DIB's time goes (cpu.json dib_work, this run): the DLB start, the
 * iterations' logs and exps, the confirming pass, and what is left, each
 * in ms per deformation and as a share of DIB - DLB */
static char *dib_work_note(const cJSON *d, const cJSON *sec)
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
    double x[8];
    static const char *const keys[] = { "precision", "dlb_ms", "dib_minus_dlb_ms", "iteration_logs_ms",
                                        "confirming_logs_ms", "exps_ms", "rest_ms", "logs_per_vertex" };
    for (int i = 0; i < 8; i++)
        if (skb__jnum(skb__jget(w, keys[i]), &x[i]) < 0)
            x[i] = NAN;
    double dd = x[2], nv = NAN, pv = NAN, pd = NAN, pb = NAN;
    skb__jnum(skb__jget(d, "vertices"), &nv);
    skb__jnum(skb__jget(sec, "vertices"), &pv);
    skb__jnum(skb__jget(skb__jget(sec, "ms"), skb_method_role_name(SKB_MF_HEADLINE)), &pd);
    skb__jnum(skb__jget(skb__jget(sec, "dib_ms"), "value"), &pb);
    return skb__fmt("where DIB's time goes (p = %g, this run, per deformation): the DLB start %.3g ms; over it "
                    "%.3g ms: the iterations' logs %.3g ms (%.0f %%), the exps %.3g ms (%.0f %%), the confirming "
                    "pass's logs %.3g ms (%.0f %%), the rest (dual quaternion products, the norm test, branches) "
                    "%.3g ms (%.0f %%); iterations per vertex {%s}, %.3g logs per vertex; per vertex the DLB start "
                    "costs %.3g ns and DIB's excess %.3g ns here (ratio 1 + %.3g), against the paper's %.3g ns and "
                    "%.3g ns (1 + %.3g): the start runs %.0fx faster here, the excess %.0fx", x[0], x[1], dd, x[3],
                    100 * x[3] / dd, x[5], 100 * x[5] / dd, x[4], 100 * x[4] / dd, x[6], 100 * x[6] / dd, hist, x[7],
                    1e6 * x[1] / nv, 1e6 * dd / nv, dd / x[1], 1e6 * pd / pv, 1e6 * (pb - pd) / pv, (pb - pd) / pd,
                    (pd / pv) / (x[1] / nv), ((pb - pd) / pv) / (dd / nv));
}

/* SBS's driver (DQ paper Fig. 18 gives no SVD count): the SVD and centre
 * work is SBS - QLB'0 (the same quaternion blend without centres), in LBS
 * units; the paper's is SBS - QB = 2.95 - 1.27 (QB: its quaternion blend
 * without least squares).  The driver accounts for the gap when QLB'0's
 * ratio plus the paper's share lands in the band: then the row differs
 * by its rig's SVDs alone (setup).  *cause: the arithmetic. */
static int sb_setup(const struct skb_report *rep, const cJSON *sec, const cJSON *d, const struct skb_verdict *v,
                    double sb, char **cause)
{
    const char *qlb = skb_method_role_name(SKB_MF_QUAT_LINEAR);
    struct skb_paired q;
    double psb = NAN, pqb = NAN, svd = NAN;
    skb__jnum(skb__jget(skb__jget(sec, "ratio_to_linear"), skb_method_role_name(SKB_MF_ROT_CENTERS)), &psb);
    skb__jnum(skb__jget(skb__jget(sec, "ratio_to_linear"), skb_method_role_name(SKB_MF_JOINT_CENTERS)), &pqb);
    skb__jnum(skb__jget(skb__jget(skb__jget(d, "pose_stats"), skb_method_role_name(SKB_MF_ROT_CENTERS)),
                        "solves_per_pose_mean"), &svd);
    char b1[32];
    (void)rep;
    if (!qlb || pair_of(d, qlb, skb_method_role_name(SKB_MF_RATIO_REF), "positions", &q) < 0 || !isfinite(psb)
        || !isfinite(pqb)) {
        *cause = skb__fmt("SVDs per pose: %s here; no QLB'0 ratio in this run to split SBS's time", skb__num4(b1, svd));
        return 0;
    }
    double share = sb - q.ratio, pshare = psb - pqb, adj = q.ratio + pshare;
    int accounts = adj >= v->band_lo && adj <= v->band_hi;
    *cause = skb__fmt("driver: the SVDs and centres, %s SVDs per pose here; SBS - QLB'0 = %.3g - %.3g = %.3g LBS "
                      "here, against the paper's SBS - QB = %.3g - %.3g = %.3g; QLB'0 here plus the paper's share: "
                      "%.3g + %.3g = %.3g, %s the band [%.4g, %.4g]%s", skb__num4(b1, svd), sb, q.ratio, share, psb, pqb, pshare,
                      q.ratio, pshare, adj, accounts ? "inside" : "outside", v->band_lo, v->band_hi,
                      accounts ? ": the rig's SVD count accounts for the gap" : ": the SVD count does not account for the gap");
    return accounts;
}

/* one Figure 18 row: a double-path label of dataset d over LBS, paired,
 * judged when it is a paper method's own row */
static void fig18_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *sec, const cJSON *doc,
                      const cJSON *d, const char *label, const char *verified)
{
    const char *lin = skb_method_role_name(SKB_MF_RATIO_REF);
    double ms = NAN, paper = NAN;
    struct skb_paired p, pn;
    skb__jnum(skb__jget(skb__jget(d, "ms"), label), &ms);
    int paired = pair_of(d, label, lin, "positions", &p) == 0, pn_ok = pair_of(d, label, lin, "normals", &pn) == 0;
    char *note = NULL, *base = variant_base(label), *cause = NULL;
    struct skb_verdict v = { .rule = "" };
    int st, is_lin = strcmp(label, lin) == 0;
    const cJSON *pv = skb__jget(skb__jget(sec, "ratio_to_linear"), base ? base : label);
    if (is_lin) {
        st = SKB_ROW_CONTEXT;
        note = strdup("the reference of the ratios");
        paper = 1;
        p.ratio = pn.ratio = 1;
        paired = pn_ok = 1;
    } else if (base && skb__jnum(pv, &paper) == 0) {
        st = SKB_ROW_CONTEXT;
        note = skb__fmt("context: not the paper's variant; Figure 18's %s row is judged on \"%s\"", base, base);
    } else if (!base && skb__jnum(pv, &paper) == 0 && paired) {
        skb__judge_v(skb__jget(sec, "tolerance"), p.ratio, paper, NAN, &v, &note);
        skb__judge_paired(rep, &v, &p, &note);
        if (strcmp(label, skb_method_role_name(SKB_MF_ROT_CENTERS)) == 0)
            v.setup = sb_setup(rep, sec, d, &v, p.ratio, &cause);
        st = skb_verdict_status(&v);
        note = skb__join_note(note, "judged: the paper's variant, positions only");
        note = skb__join_note(note, cause);
    } else {
        st = SKB_ROW_NEW;
        paper = NAN;
        note = strdup(paired ? "no paper value" : "no paired timing of this row in this run");
    }
    note = skb__join_note(note, skb__why_lookup(doc, label, d->string));
    note = skb__join_note(note, verified);
    free(base);
    skb__row_add(rep, t, k, st, note, strdup(d->string), strdup(label), strdup(variant_text(d, label)),
                 skb__numtxt(ms), paired ? skb__numtxt(p.ratio) : strdup("—"), pn_ok ? skb__numtxt(pn.ratio) : strdup("—"),
                 skb__numtxt(paper), NULL);
    skb__row_verdict(rep, t, &v, cause);
}

/* DQ paper App. B: DIB against DLB, paired, with where DIB's time goes */
static void fig18_dib_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *sec, const cJSON *d)
{
    const char *dibn = skb_method_role_name(SKB_MF_ITERATIVE), *dlbn = skb_method_role_name(SKB_MF_HEADLINE);
    struct skb_paired p;
    double pr = NAN, dib = NAN;
    if (pair_of(d, dibn, dlbn, "positions", &p) < 0
        || skb__jnum(skb__jget(skb__jget(sec, "dib_ms"), "ratio_to_dlb"), &pr) < 0)
        return;
    skb__jnum(skb__jget(skb__jget(d, "ms"), dibn), &dib);
    char *note = NULL, *work = dib_work_note(d, sec);
    struct skb_verdict v;
    skb__judge_v(skb__jget(sec, "tolerance"), p.ratio, pr, NAN, &v, &note);
    int st = skb__judge_paired(rep, &v, &p, &note);
    note = skb__join_note(note, "DQ paper App. B: DIB 15.33 ms vs DLB 5.07 ms at p = 1e-5; both rows in this run, "
                                "same variant, paired, positions only; the paper gives no iteration count for its clip, "
                                "and no named driver accounts for the gap here: it is judged as measured");
    note = skb__join_note(note, work);
    free(work);
    skb__row_add(rep, t, k, st, note, strdup(d->string), strdup("dib / dlb"), strdup(variant_text(d, dibn)),
                 skb__numtxt(dib), skb__numtxt(p.ratio), strdup("—"), skb__numtxt(pr), NULL);
    skb__row_verdict(rep, t, &v, NULL);
}

/* the paper methods a dataset did not time, each with why */
static void fig18_missing(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *sec, const cJSON *doc,
                          const cJSON *d)
{
    const cJSON *pm;
    cJSON_ArrayForEach(pm, skb__jget(sec, "ratio_to_linear"))
        if (!skb__jget(skb__jget(d, "ms"), pm->string)) {
            double pv = NAN;
            skb__jnum(pm, &pv);
            char *why = cpu_failure(doc, pm->string, d->string);
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, why ? why : skb__fmt("method %s not timed on %s", pm->string, d->string),
                         strdup(d->string), strdup(pm->string), strdup("—"), strdup("—"), strdup("—"), strdup("—"),
                         skb__numtxt(pv), NULL);
        }
}

/* "verified": false said once, as a row that differs (exact: the kernels
 * whose output failed its check, against none) */
static void fig18_unverified(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc)
{
    char fl[600] = "";
    const cJSON *f;
    struct skb_verdict vf;
    skb_verdict_init(&vf, "exact", 0, fmax(1, cJSON_GetArraySize(skb__jget(doc, "failures"))), 0);
    skb_rule_band(&vf);
    cJSON_ArrayForEach(f, skb__jget(doc, "failures")) {
        size_t l = strlen(fl);
        if (l < sizeof fl - 40)
            snprintf(fl + l, sizeof fl - l, "%s%.60s", l ? ", " : "", f->string ? f->string : "?");
    }
    skb__row_add(rep, t, k, SKB_ROW_DIFFERS,
                 skb__fmt("cpu.json \"verified\" is false: not every timed kernel's output passed its check%s%s",
                          fl[0] ? "; failures: " : "", fl), strdup("(all)"), strdup("verification"), strdup("—"),
                 strdup("—"), strdup("—"), strdup("—"), strdup("—"), NULL);
    skb__row_verdict(rep, t, &vf, NULL);
}

static void section_fig18(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "figure_18");
    static const char *const cols[] = { "dataset", "method", "variant", "ms (absolute, Google Benchmark median)",
                                        "ratio to LBS", "ratio to LBS with normals", "paper ratio", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    char *tol = skb__tol_text(sec);
    const char *jv = skb__jstr(skb__jget(sec, "judged_variant")), *pn = skb__jstr(skb__jget(sec, "precision_note"));
    char *rule = skb__fmt("%s%s%s%s%s. Every ratio is timed pair by pair in this run (the method and LBS back to back, "
                          "order alternating, the Hodges-Lehmann estimate of 31 pairs with its 95 %% interval, "
                          "widened by this run's A/A floor of LBS or the declared minimum, the larger); ratio to LBS: "
                          "positions only, judged; with normals: each method's own normal path, a labelled variant. "
                          "The ms column is Google Benchmark's absolute median, with normals", tol,
                          jv ? ". Judged: " : "", jv ? jv : "", pn ? ". Precision: " : "", pn ? pn : "");
    free(tol);
    struct skb_rtable *t = skb__tbl_new(rep, "fig18", "DQ paper Figure 18: CPU time per deformation, ratio to LBS", src,
                                        rule, cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "cpu.json");
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "cpu.json"), strdup("—"), strdup("all"), NULL);
            continue;
        }
        if (cJSON_IsFalse(skb__jget(doc, "verified")))
            fig18_unverified(rep, t, k, doc);
        const cJSON *d, *m;
        cJSON_ArrayForEach(d, skb__jget(doc, "datasets")) {
            cJSON_ArrayForEach(m, skb__jget(d, "ms"))
                fig18_row(rep, t, k, sec, doc, d, m->string, NULL);
            fig18_missing(rep, t, k, sec, doc, d);
            fig18_dib_row(rep, t, k, sec, d);
            skb__report_dib_variants(rep, t, k, d);
        }
    }
}

/* one paper's range per row (never their union): the thesis's Table 3.2
 * row is judged against the thesis's range, seed 003's Table 2 row against
 * 003's; ranges[] of reference.json table_3_2, each with "judged" true or
 * false (a range shown as context beside the judged one).  SBS over LBS is
 * Figure 18's paired row (positions only); a rig whose SVD count accounts
 * for the gap (sb_setup) is "differs (setup)" as it is there */
static int table32_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *sec, const cJSON *range,
                       const cJSON *d, double svd, double v, double j)
{
    const char *sbn = skb_method_role_name(SKB_MF_ROT_CENTERS), *lin = skb_method_role_name(SKB_MF_RATIO_REF);
    double a = NAN, b = NAN, w = 0, l = NAN, s = NAN;
    struct skb_paired p;
    skb__jnum(skb__jget(range, "lo"), &a);
    skb__jnum(skb__jget(range, "hi"), &b);
    skb__jnum(skb__jget(skb__jget(sec, "tolerance"), "value"), &w);
    skb__jnum(skb__jget(skb__jget(d, "ms"), lin), &l);
    skb__jnum(skb__jget(skb__jget(d, "ms"), sbn), &s);
    int judged = !cJSON_IsFalse(skb__jget(range, "judged")), paired = pair_of(d, sbn, lin, "positions", &p) == 0;
    struct skb_verdict vd = { .rule = "" };
    char *note = NULL, *cause = NULL;
    int st;
    if (!paired) {
        st = SKB_ROW_NOT_RUN;
        note = cpu_failure(skb_results_doc(&rep->runs[k], "cpu.json"), isfinite(s) ? lin : sbn, d->string);
        if (!note)
            note = skb__fmt("%s has no paired SBS / LBS timing", d->string);
    } else if (!judged) {
        st = SKB_ROW_CONTEXT;
        note = skb__fmt("%s %.3g–%.3g: context (%s); this table judges the thesis's range only", skb__ref_str(range, "name"),
                        a, b, skb__ref_str(range, "why"));
    } else {
        skb_verdict_init(&vd, "range", w, p.ratio, b);
        vd.paper_lo = a;
        skb_rule_band(&vd);
        skb__judge_paired(rep, &vd, &p, &note);
        /* setup as Figure 18's SBS row on this dataset is: the same
         * arithmetic, against Figure 18's band (the seeds give no SVD share
         * for the thesis's models) */
        const cJSON *f18 = skb__jget(rep->ref, "figure_18");
        struct skb_verdict vf;
        double psb = NAN;
        char *fn = NULL;
        skb__jnum(skb__jget(skb__jget(f18, "ratio_to_linear"), sbn), &psb);
        skb__judge_v(skb__jget(f18, "tolerance"), p.ratio, psb, NAN, &vf, &fn);
        free(fn);
        vd.setup = skb_verdict_status(&vf) != SKB_ROW_REPRODUCED && sb_setup(rep, f18, d, &vf, p.ratio, &cause);
        if (cause && skb_verdict_status(&vd) == SKB_ROW_REPRODUCED) {
            free(cause);   /* nothing to account for */
            cause = NULL;
        } else if (cause) {
            cause = skb__join_note_take(skb__fmt("as Figure 18's SBS row on %s:", d->string), cause);
        }
        st = skb_verdict_status(&vd);
        free(note);   /* decided again with the setup flag */
        note = skb__verdict_text(&vd, st);
        note = skb__join_note_take(note, skb__fmt("the thesis's models: 38 / 37 / 56 SVDs per pose"));
        note = skb__join_note(note, cause);
    }
    /* the SVD count at the data's precision, trivial sets and fallbacks apart */
    char *svd_note = skb__sb_svd_note(rep, d);
    note = skb__join_note(note, svd_note);
    free(svd_note);
    skb__row_add(rep, t, k, st, note, strdup(d->string), skb__fmt("%.0f / %.0f", v, j), skb__numtxt(l), skb__numtxt(s),
                 paired ? skb__numtxt(p.ratio) : strdup("—"),
                 skb__fmt("%.3g–%.3g (%s)", a, b, skb__ref_str(range, "seed")), skb__numtxt(svd),
                 strdup("38 / 37 / 56"), NULL);
    skb__row_seed(t, skb__ref_str(range, "seed"));
    skb__row_verdict(rep, t, &vd, cause);
    return st;
}

static void section_table32(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "table_3_2");
    static const char *const cols[] = { "dataset", "vertices / joints", "LBS ms (absolute)", "SBS ms (absolute)",
                                        "SBS / LBS", "paper SBS / LBS", "SVDs per pose", "paper SVDs", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    char *tol = skb__tol_text(sec);
    char *intro = skb__fmt("%s. SBS / LBS is Figure 18's paired ratio (positions only); the ms columns are Google "
                           "Benchmark's absolute medians", tol);
    free(tol);
    struct skb_rtable *t = skb__tbl_new(rep, "table32", "Thesis Table 3.2: SBS against LBS on the CPU", src, intro, cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "cpu.json");
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "cpu.json"), strdup("—"), NULL);
            continue;
        }
        const cJSON *d;
        cJSON_ArrayForEach(d, skb__jget(doc, "datasets")) {
            double v = NAN, j = NAN, svd = NAN;
            skb__jnum(skb__jget(d, "vertices"), &v);
            skb__jnum(skb__jget(d, "joints"), &j);
            skb__jnum(skb__jget(skb__jget(skb__jget(d, "pose_stats"), skb_method_role_name(SKB_MF_ROT_CENTERS)),
                                "solves_per_pose_mean"), &svd);
            const cJSON *range;
            cJSON_ArrayForEach(range, skb__jget(sec, "ranges"))
                table32_row(rep, t, k, sec, range, d, svd, v, j);
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
        double over = NAN;
        char *v = skb__cpu_plan_verdict(rep, d, pl->string, &over);
        /* one number per ratio on the page: where the pairs timed the
         * planned row against both fixed rows, the speed-up column is theirs
         * (the planner's medians, timed apart, can read 1.67x the other way) */
        if (isfinite(over) && over > 0)
            sp = 1 / over;
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
