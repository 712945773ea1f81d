/* report_cpu.c — CPU timings: Figure 18 ratios to LBS, the fast single-precision kernels, thesis Table 3.2.
 * Part of the report model (report.c); rows judged against reports/reference.json. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"

static double cpu_ratio(const cJSON *d, const char *method)
{
    double r, a, b;
    if (skb__jnum(skb__jget(skb__jget(d, "ratio_to_linear"), method), &r) == 0)
        return r;
    if (skb__jnum(skb__jget(skb__jget(d, "ms"), method), &a) == 0 && skb__jnum(skb__jget(skb__jget(d, "ms"), "linear"), &b) == 0 && b > 0)
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

void skb__report_fig18(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "figure_18");
    static const char *const cols[] = { "dataset", "method", "ms", "ratio to LBS", "paper ratio", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    struct skb_rtable *t = skb__tbl_new(rep, "fig18", "DQ paper Figure 18: CPU time per deformation, ratio to LBS", src,
                                   skb__tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_CPU];
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], SKB_RF_CPU), strdup("—"), strdup("all"), NULL);
            continue;
        }
        const char *verified = NULL;
        if (cJSON_IsFalse(skb__jget(doc, "verified"))) {
            /* said once: the times of kernels whose output failed its check */
            char fl[600] = "";
            const cJSON *f;
            cJSON_ArrayForEach(f, skb__jget(doc, "failures")) {
                size_t l = strlen(fl);
                if (l < sizeof fl - 40)
                    snprintf(fl + l, sizeof fl - l, "%s%.60s", l ? ", " : "", f->string ? f->string : "?");
            }
            skb__row_add(rep, t, k, SKB_ROW_DIFFERS,
                    skb__fmt("cpu.json \"verified\" is false: not every timed kernel's output passed its check%s%s",
                      fl[0] ? "; failures: " : "", fl), strdup("(all)"), strdup("verification"), strdup("—"),
                    strdup("—"), strdup("—"), NULL);
        }
        const cJSON *d;
        cJSON_ArrayForEach(d, skb__jget(doc, "datasets")) {
            const cJSON *m;
            double lin;
            int has_lin = skb__jnum(skb__jget(skb__jget(d, "ms"), "linear"), &lin) == 0;
            cJSON_ArrayForEach(m, skb__jget(d, "ms")) {
                double ms, paper;
                skb__jnum(m, &ms);
                double r = cpu_ratio(d, m->string);
                char *note = NULL;
                int st;
                if (strcmp(m->string, "linear") == 0) {
                    st = SKB_ROW_CONTEXT;
                    note = strdup("the reference of the ratios");
                } else if (skb__jnum(skb__jget(skb__jget(sec, "ratio_to_linear"), m->string), &paper) == 0 && isfinite(r)) {
                    st = skb__judge(skb__jget(sec, "tolerance"), r, paper, NAN, &note);
                } else {
                    st = SKB_ROW_NEW;
                    paper = NAN;
                    note = strdup(has_lin ? "no paper value" : "no LBS time in this dataset");
                }
                if (strcmp(m->string, "linear") == 0)
                    paper = 1;
                note = skb__join_note(note, skb__why_lookup(doc, m->string, d->string));
                note = skb__join_note(note, verified);
                skb__row_add(rep, t, k, st, note, strdup(d->string), strdup(m->string), skb__numtxt(ms), skb__numtxt(r), skb__numtxt(paper), NULL);
            }
            /* paper methods this dataset did not time */
            const cJSON *pm;
            cJSON_ArrayForEach(pm, skb__jget(sec, "ratio_to_linear"))
                if (!skb__jget(skb__jget(d, "ms"), pm->string)) {
                    double pv = NAN;
                    skb__jnum(pm, &pv);
                    char *why = cpu_failure(doc, pm->string, d->string);
                    skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, why ? why : skb__fmt("method %s not timed on %s", pm->string, d->string),
                            strdup(d->string), strdup(pm->string), strdup("—"), strdup("—"), skb__numtxt(pv), NULL);
                }
            /* DQ paper App. B: DIB against DLB */
            double dib, dlb, pr;
            if (skb__jnum(skb__jget(skb__jget(d, "ms"), "dib"), &dib) == 0 && skb__jnum(skb__jget(skb__jget(d, "ms"), "dlb"), &dlb) == 0 && dlb > 0
                && skb__jnum(skb__jget(skb__jget(sec, "dib_ms"), "ratio_to_dlb"), &pr) == 0) {
                char *note;
                int st = skb__judge(skb__jget(sec, "tolerance"), dib / dlb, pr, NAN, &note);
                skb__row_add(rep, t, k, st, skb__join_note(note, "DQ paper App. B: DIB 15.33 ms vs DLB 5.07 ms at p = 1e-5"),
                        strdup(d->string), strdup("dib / dlb"), skb__numtxt(dib), skb__numtxt(dib / dlb), skb__numtxt(pr), NULL);
            }
        }
    }
}

/* the fast single-precision kernels: one row per timed method and dataset
 * (ratio to the f32 LBS, beside Figure 18's ratio where the paper has one),
 * then the roofline mesh against the issue-4 targets */
static void fast_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *sec, const char *dataset,
                      const cJSON *d)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, skb__jget(d, "ms_f32")) {
        double ms = NAN, r = NAN, paper = NAN;
        skb__jnum(m, &ms);
        skb__jnum(skb__jget(skb__jget(d, "ratio_to_linear_f32"), m->string), &r);
        char *note = NULL;
        int st;
        if (strcmp(m->string, "linear") == 0) {
            st = SKB_ROW_CONTEXT;
            paper = 1;
            note = strdup("the reference of the ratios");
        } else if (skb__jnum(skb__jget(skb__jget(sec, "ratio_to_linear"), m->string), &paper) == 0 && isfinite(r)) {
            st = skb__judge(skb__jget(sec, "tolerance"), r, paper, NAN, &note);
        } else {
            st = SKB_ROW_NEW;
            note = strdup("no paper value");
        }
        skb__row_add(rep, t, k, st, note, strdup(dataset), strdup(m->string), skb__numtxt(ms), skb__numtxt(r), skb__numtxt(paper), NULL);
    }
}

static void fast_target_row(struct skb_report *rep, struct skb_rtable *t, int k, const char *dataset,
                            const char *what, double meas, const cJSON *target, int at_most)
{
    double tv = NAN;
    if (skb__jnum(target, &tv) < 0 || !isfinite(meas)) {
        skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__fmt("cpu.json large_mesh has no %s", what), strdup(dataset), strdup(what),
                strdup("—"), strdup("—"), strdup("—"), NULL);
        return;
    }
    int met = at_most ? meas <= tv : meas >= tv;
    skb__row_add(rep, t, k, SKB_ROW_NEW, skb__fmt("target %s %g (issue 4, not a paper value): %s", at_most ? "≤" : "≥", tv,
                                      met ? "met" : "not met"),
            strdup(dataset), strdup(what), strdup("—"), skb__numtxt(meas), strdup("—"), NULL);
}

void skb__report_fast(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "figure_18"), *tg = skb__jget(rep->ref, "fast_kernel_targets");
    static const char *const cols[] = { "dataset", "method", "ms (f32)", "ratio to LBS (f32)", "paper ratio", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    struct skb_rtable *t = skb__tbl_new(rep, "fast", "Fast single-precision kernels: ratio to LBS beside Figure 18, roofline",
                                   src, skb__tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_CPU], *d;
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], SKB_RF_CPU), strdup("—"), strdup("all"), NULL);
            continue;
        }
        cJSON_ArrayForEach(d, skb__jget(doc, "datasets"))
            fast_rows(rep, t, k, sec, d->string, d);
        const cJSON *lm = skb__jget(doc, "large_mesh");
        if (!lm)
            continue;
        const char *name = skb__jstr(skb__jget(lm, "dataset")) ? skb__jstr(skb__jget(lm, "dataset")) : "large mesh";
        fast_rows(rep, t, k, sec, name, lm);
        double ratio = NAN, frac = NAN;
        skb__jnum(skb__jget(lm, "dlb_over_linear_f32"), &ratio);
        skb__jnum(skb__jget(skb__jget(lm, "roofline"), "linear_f32_fraction_of_roofline"), &frac);
        fast_target_row(rep, t, k, name, "dlb / linear (f32)", ratio, skb__jget(tg, "dlb_over_linear_f32_max"), 1);
        fast_target_row(rep, t, k, name, "linear (f32) fraction of the copy roofline", frac,
                        skb__jget(tg, "linear_f32_fraction_of_roofline_min"), 0);
    }
}

/* Table 3.2's paper ranges as shown in the paper column: "1.93–2.16 (000) / 1.26–1.35 (003)" */
static char *ranges_text(const cJSON *sec, double lo, double hi)
{
    char buf[256] = "";
    size_t n = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, skb__jget(sec, "ranges")) {
        double a = NAN, b = NAN;
        skb__jnum(skb__jget(r, "lo"), &a);
        skb__jnum(skb__jget(r, "hi"), &b);
        n += (size_t)snprintf(buf + n, n < sizeof buf ? sizeof buf - n : 0, "%s%.3g–%.3g (%s)", n ? " / " : "", a, b,
                              skb__ref_str(r, "seed"));
        if (n >= sizeof buf)
            break;
    }
    return n ? strdup(buf) : skb__fmt("%.3g–%.3g", lo, hi);
}

/* the SBS/LBS ratio against every paper's range (thesis Pentium 4 and 003's
 * Athlon disagree for the same models, issue 13): reproduced when inside any
 * widened range, and the note names which range(s) — or neither */
static int judge_ranges(const cJSON *sec, double ratio, char **note)
{
    double w = 0;
    skb__jnum(skb__jget(skb__jget(sec, "tolerance"), "value"), &w);
    char in[256] = "", out[256] = "";
    size_t ni = 0, no = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, skb__jget(sec, "ranges")) {
        double a = NAN, b = NAN;
        skb__jnum(skb__jget(r, "lo"), &a);
        skb__jnum(skb__jget(r, "hi"), &b);
        int ok = ratio >= a * (1 - w) && ratio <= b * (1 + w);
        char *dst = ok ? in : out;
        size_t *pn = ok ? &ni : &no;
        const char *how = !ok ? "" : ratio >= a && ratio <= b ? " (inside the paper's own range)" : " (only when widened)";
        if (*pn < sizeof in)
            *pn += (size_t)snprintf(dst + *pn, sizeof in - *pn, "%s%s %.3g–%.3g, widened [%.3g, %.3g]%s", *pn ? "; " : "",
                                    skb__ref_str(r, "name"), a, b, a * (1 - w), b * (1 + w), how);
    }
    if (ni == 0 && no == 0) {
        *note = strdup("reference.json table_3_2 has no ranges");
        return SKB_ROW_NOT_RUN;
    }
    if (ni)
        *note = no ? skb__fmt("%.4g in range of: %s; outside: %s", ratio, in, out) : skb__fmt("%.4g in range of: %s", ratio, in);
    else
        *note = skb__fmt("%.4g in neither paper's range (outside: %s)", ratio, out);
    return ni ? SKB_ROW_REPRODUCED : SKB_ROW_DIFFERS;
}

void skb__report_table32(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "table_3_2");
    static const char *const cols[] = { "dataset", "vertices / joints", "LBS ms", "SBS ms", "SBS / LBS",
                                        "paper SBS / LBS", "SVDs per pose", "paper SVDs", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    double lo = NAN, hi = NAN;
    skb__jnum(skb__jget(sec, "ratio_lo"), &lo);
    skb__jnum(skb__jget(sec, "ratio_hi"), &hi);
    struct skb_rtable *t = skb__tbl_new(rep, "table32", "Thesis Table 3.2: SBS against LBS on the CPU", src, skb__tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = rep->runs[k].doc[SKB_RF_CPU];
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], SKB_RF_CPU), strdup("—"), NULL);
            continue;
        }
        const cJSON *d;
        cJSON_ArrayForEach(d, skb__jget(doc, "datasets")) {
            double l = NAN, s = NAN, v = NAN, j = NAN, svd = NAN;
            skb__jnum(skb__jget(skb__jget(d, "ms"), "linear"), &l);
            skb__jnum(skb__jget(skb__jget(d, "ms"), "sb"), &s);
            skb__jnum(skb__jget(d, "vertices"), &v);
            skb__jnum(skb__jget(d, "joints"), &j);
            static const char *const svdkeys[] = { "svds_per_pose", "svds", "solves", "sb_solves", NULL };
            for (int i = 0; svdkeys[i] && !isfinite(svd); i++)
                skb__jnum(skb__jget(d, svdkeys[i]), &svd);
            if (!isfinite(svd))
                skb__jnum(skb__jget(skb__jget(skb__jget(d, "pose_stats"), "sb"), "solves_per_pose_mean"), &svd);
            char *note = NULL;
            int st;
            if (!isfinite(s) || !isfinite(l) || l <= 0) {
                st = SKB_ROW_NOT_RUN;
                note = cpu_failure(doc, isfinite(s) ? "linear" : "sb", d->string);
                if (!note)
                    note = skb__fmt("%s has no %s time", d->string, isfinite(s) ? "LBS" : "SBS (sb)");
            } else {
                st = judge_ranges(sec, s / l, &note);
            }
            skb__row_add(rep, t, k, st, note, strdup(d->string), skb__fmt("%.0f / %.0f", v, j), skb__numtxt(l), skb__numtxt(s),
                    isfinite(s) && isfinite(l) && l > 0 ? skb__numtxt(s / l) : strdup("—"), ranges_text(sec, lo, hi),
                    skb__numtxt(svd), strdup("38 / 37 / 56"), NULL);
        }
    }
}

/* ---- GPU: Figure 19, Figure 1, ratios to LBS ---- */

/* the Figure 19 entry whose aliases include this shader name */
