/* exp_cpu_targets.c — the `cpu` experiment's project targets for the fast
 * kernels (reports/reference.json fast_kernel_targets, not paper values)
 * and the paired timings that decide them (harness/cpu_paired.c): each
 * target row is met, not met or undecided by the interval of a ratio timed
 * pair by pair, widened to the run-to-run floor reference.json declares;
 * and the table of the in-process control on the roofline mesh (cpu.json
 * large_mesh.paired_control: what separate processes are compared on,
 * scripts/device-cpu.sh). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_internal.h"
#include "skb_json.h"
#include "skb_method.h"
#include "skb_report.h"

static char *interval_text(double lo, double hi)
{
    return isfinite(lo) && isfinite(hi) ? skb__fmt("%.4g – %.4g", lo, hi) : strdup("too few pairs");
}

static void control_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *pc)
{
    const cJSON *row;
    cJSON_ArrayForEach(row, skb__jget(pc, "rows")) {
        double v[6] = { NAN, NAN, NAN, NAN, NAN, NAN };
        static const char *const keys[] = { "ratio", "ci_low", "ci_high", "floor_ratio", "min_ms",
                                            "control_min_ms" };
        for (int i = 0; i < 6; i++)
            skb__jnum(skb__jget(row, keys[i]), &v[i]);
        const char *kn = skb__jstr(skb__jget(row, "kernel")), *cn = skb__jstr(skb__jget(row, "control"));
        skb__row_add(rep, t, k, SKB_ROW_NEW, strdup("no paper value"), strdup(kn ? kn : "?"), strdup(cn ? cn : "?"),
                     skb__fmt("%.4g", v[0]), interval_text(v[1], v[2]), skb__fmt("%.4g", v[3]),
                     skb__fmt("%.4g", v[4]), skb__fmt("%.4g", v[5]), NULL);
    }
}

void skb__cpu_control_table(struct skb_report *rep)
{
    static const char *const cols[] = { "kernel", "control", "time ratio (pairs)", "95 % interval",
                                        "fastest over fastest", "kernel fastest ms", "control fastest ms", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "fast_control", "Fast kernels against an in-process control: roofline mesh",
                                        "skinbench (docs/report-and-regression.md \"Fast kernels: the paired control\")",
                                        strdup("One deformation of the kernel and one run of its control (memcpy of 72 "
                                               "bytes a vertex, or the method's 4-slot kernel) back to back, order "
                                               "alternating, one thread, CPU time; the ratio is the Hodges-Lehmann "
                                               "estimate over the pairs. Separate processes are compared on these "
                                               "ratios (target, not a paper value: spread <= 10 % across five)."),
                                        cols);
    if (!t)
        return;
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *lm = skb__jget(skb_results_doc(&rep->runs[k], "cpu.json"), "large_mesh");
        if (skb__jget(lm, "paired_control"))
            control_rows(rep, t, k, skb__jget(lm, "paired_control"));
    }
}

/* the paired ratio kernel / control of a cpu.json dataset entry d (control
 * "memcpy": the large mesh's paired_control) into iv[0] and its 95 %
 * interval into iv[1], iv[2]: widened (1) by this run's A/A floor of the
 * control or the declared minimum, the larger, as every timed verdict is
 * (skb__judge_paired), or this run's interval alone (0: a claim about one
 * run, such as the planner's choice against the fixed rows beside it; NAN
 * with too few pairs, or without an A/A to widen by); -1 where d has no
 * such pair */
static int paired(const struct skb_report *rep, const cJSON *d, const char *kernel, const char *control, int widen,
                  double iv[3])
{
    int copy = strcmp(control, "memcpy") == 0;
    const cJSON *rows = copy ? skb__jget(skb__jget(d, "paired_control"), "rows")
                             : skb__jget(skb__jget(skb__jget(d, "fast_kernels"), "paired"), "rows");
    struct skb_paired p;
    if (skb__paired_read(skb__paired_find(rows, kernel, control, NULL), &p) < 0)
        return -1;
    iv[0] = p.ratio;
    iv[1] = p.lo;
    iv[2] = p.hi;
    if (widen) {
        struct skb_verdict v;
        skb_verdict_init(&v, NULL, NAN, p.ratio, NAN);
        skb_verdict_paired(&v, p.lo, p.hi, skb__paired_floor(rep, &p));
        /* no A/A beside the pairs (or too few pairs): [0, inf], undecided */
        iv[1] = isfinite(v.floor) && isfinite(v.lo) ? v.lo : 0;
        iv[2] = isfinite(v.floor) && isfinite(v.hi) ? v.hi : INFINITY;
    } else if (!(isfinite(p.lo) && isfinite(p.hi))) {
        iv[1] = iv[2] = NAN;
    }
    return 0;
}

/* ---- the targets ---- */

#define TARGET_SOURCE "project target, docs/report-and-regression.md \"Fast kernels\""

/* v[0] with its interval [v[1], v[2]] against the target tv (at most, or
 * at least): "met" when the whole interval is on the target's side, "not
 * met" when it is wholly beyond, else "undecided"; without an interval
 * (NAN), by v[0] alone, met or not met */
static const char *decide(const double v[3], double tv, int at_most)
{
    int iv = !isnan(v[1]) && !isnan(v[2]);
    double good = iv ? (at_most ? v[2] : v[1]) : v[0], bad = iv ? (at_most ? v[1] : v[2]) : v[0];
    if (at_most ? good <= tv : good >= tv)
        return "met";
    return (at_most ? bad > tv : bad < tv) ? "not met" : "undecided";
}

/* a measured figure v[0] against a project target: decided by its interval
 * [v[1], v[2]] where it has one (met: the whole interval on the target's
 * side; not met: the whole interval beyond; else undecided), by the one
 * number otherwise, and saying so */
static void target_row(struct skb_report *rep, struct skb_rtable *t, int k, const char *dataset, const char *what,
                       const double v[3], const cJSON *target, int at_most, char *why)
{
    double tv = NAN;
    if (skb__jnum(target, &tv) < 0 || !isfinite(v[0])) {
        skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__fmt("cpu.json has no %s%s%s", what, why ? "; " : "", why ? why : ""),
                     strdup(dataset), strdup(what), strdup("—"), strdup("—"), strdup("—"), strdup("—"), strdup("—"),
                     strdup("—"), strdup("—"), strdup("—"), NULL);
        free(why);
        return;
    }
    const char *d = decide(v, tv, at_most);
    char *how = !isnan(v[1]) && !isnan(v[2])
                    ? skb__fmt("%s: interval [%.4g, %.4g]%s", d, v[1], v[2],
                               strcmp(d, "undecided") == 0 ? " crosses the target" : "")
                    : skb__fmt("%s on one number (no interval)", d);
    skb__row_add(rep, t, k, SKB_ROW_NEW, skb__fmt("target %s %g (%s, not a paper value): %s%s%s", at_most ? "≤" : "≥",
                                                  tv, TARGET_SOURCE, how, why ? "; " : "", why ? why : ""),
                 strdup(dataset), strdup(what), strdup("—"), strdup("—"), strdup("—"), strdup("—"),
                 skb__numtxt(v[0]), strdup("—"), strdup("—"), strdup("—"), NULL);
    free(how);
    free(why);
}

/* the ratio kernel / control of dataset entry d, paired (v: estimate and
 * widened interval), or else the median ratio fallback (no interval) */
static const char *ratio_or_median(const struct skb_report *rep, const cJSON *d, const char *kernel,
                                   const char *control, double median, double v[3])
{
    if (paired(rep, d, kernel, control, 1, v) == 0)
        return "paired";
    v[0] = median;
    v[1] = v[2] = NAN;
    return "medians of the repetitions";
}

/* how a target's figure was timed, for its note ("paired", or the
 * medians' fallback where a run has no pairs) */
static char *how_text(const char *how, double median)
{
    (void)median;   /* one number per ratio: the medians' is not shown beside the pairs' */
    return strdup(how);
}

/* v = a / v, the interval turned over (a > 0) */
static void over(double a, double v[3])
{
    double lo = v[1];
    v[0] = a / v[0];
    v[1] = a / v[2];
    v[2] = a / lo;
}

/* the split layout's speed-up over the 4-slot kernel on its dataset, at
 * both normal options */
static void split_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc, const cJSON *tg)
{
    const char *sds = skb__jstr(skb__jget(tg, "split_speedup_dataset"));
    const cJSON *d = skb__jget(skb__jget(doc, "datasets"), sds ? sds : "");
    for (int i = 0; i < 2; i++) {
        char key[64], k4[80];   /* LBS's label, renormalised or with normals to the shader */
        snprintf(key, sizeof key, "%s%s", skb_method_role_name(SKB_MF_RATIO_REF), i ? "+nrm_shader" : "");
        snprintf(k4, sizeof k4, "%s@slot4", key);
        double med = NAN, v[3];
        skb__jnum(skb__jget(skb__jget(skb__jget(d, "fast_kernels"), "split_speedup_over_slot4"), key), &med);
        char *how = how_text(ratio_or_median(rep, d, key, k4, 1 / med, v), med);
        over(1, v);
        target_row(rep, t, k, sds ? sds : "—", i ? "LBS split / 4-slot speed-up, normals to the shader"
                                                  : "LBS split / 4-slot speed-up, renormalised",
                   v, skb__jget(tg, "split_speedup_min"), 0, skb__fmt("same normal option, %s", how));
        free(how);
    }
}

/* DLB over LBS (both renormalising) on every dataset: the worst estimate,
 * and the interval of the largest ratio (the largest low end and the
 * largest high end: met only where every dataset's interval is) */
static void dlb_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc, const cJSON *tg,
                     const char *large, const cJSON *lm)
{
    const char *lin = skb_method_role_name(SKB_MF_RATIO_REF), *dlb = skb_method_role_name(SKB_MF_HEADLINE);
    const char *where = NULL, *how = NULL;
    double w[3] = { NAN, -INFINITY, -INFINITY }, v[3], med = NAN;
    const cJSON *d;
    int unpaired = 0;
    cJSON_ArrayForEach(d, skb__jget(doc, "datasets")) {
        med = NAN;
        skb__jnum(skb__jget(skb__jget(d, "fast_kernels"), "dlb_over_linear"), &med);
        how = ratio_or_median(rep, d, dlb, lin, med, v);
        unpaired += !isfinite(v[1]);
        if (!isfinite(v[0]))
            continue;
        if (!(v[0] <= w[0])) {
            w[0] = v[0];
            where = d->string;
        }
        w[1] = fmax(w[1], v[1]);
        w[2] = fmax(w[2], v[2]);
    }
    if (unpaired || !isfinite(w[1]))
        w[1] = w[2] = NAN;
    target_row(rep, t, k, where ? where : "—", "dlb / linear (f32), worst dataset", w,
               skb__jget(tg, "dlb_over_linear_f32_every_dataset_max"), 1,
               skb__fmt("both renormalised; every dataset's in its fast_kernels (%s)", unpaired ? "some not paired"
                        : how ? how : "none"));
    med = NAN;
    skb__jnum(skb__jget(lm, "dlb_over_linear_f32"), &med);
    how = ratio_or_median(rep, lm, dlb, lin, med, v);
    target_row(rep, t, k, large, "dlb / linear (f32)", v, skb__jget(tg, "dlb_over_linear_f32_max"), 1,
               how_text(how, med));
}

/* a kernel's fraction of the copy roofline on the roofline mesh: its bytes
 * a vertex over memcpy's (read and written) over its paired time ratio */
static void roofline_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *lm, const char *large,
                         const char *key, const char *median_key, const char *what, const cJSON *target)
{
    double bpv = NAN, cbpv = NAN, med = NAN, v[3];
    skb__jnum(skb__jget(skb__jget(skb__jget(skb__jget(lm, "checks"), "f32"), key), "bytes_per_vertex"), &bpv);
    skb__jnum(skb__jget(skb__jget(lm, "paired_control"), "memcpy_bytes_per_vertex"), &cbpv);
    skb__jnum(skb__jget(skb__jget(lm, "roofline"), median_key), &med);
    if (!(bpv > 0 && cbpv > 0) || paired(rep, lm, key, "memcpy", 1, v) < 0) {
        v[0] = med;
        v[1] = v[2] = NAN;
        target_row(rep, t, k, large, what, v, target, 0, strdup("one thread; medians of the repetitions"));
        return;
    }
    over(bpv / (2 * cbpv), v);
    char *how = how_text("paired", med);
    target_row(rep, t, k, large, what, v, target, 0,
               skb__fmt("one thread; %.4g bytes a vertex over the copy's %.4g, %s with memcpy", bpv, 2 * cbpv, how));
    free(how);
}

/* the pool's throughput over one thread's (wall time), beside what limits it */
static void pool_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc, const cJSON *tg,
                     const char *large, const cJSON *lm)
{
    double v[3] = { NAN, NAN, NAN }, cs = NAN, la = NAN, cpus = NAN;
    const cJSON *ps = skb__jget(skb__jget(skb__jget(lm, "fast_kernels"), "pool_scaling"), "linear+nrm_shader");
    skb__jnum(skb__jget(ps, "speedup"), &v[0]);
    skb__jnum(skb__jget(skb__jget(lm, "roofline"), "copy_bandwidth_scaling"), &cs);
    skb__jnum(skb__jget(skb__jget(doc, "cpus"), "load_average_1min_after"), &la);
    skb__jnum(skb__jget(skb__jget(doc, "cpus"), "available"), &cpus);
    char lim[480] = "no pool memcpy timing", load[192] = "";
    const char *pl = skb__jstr(skb__jget(ps, "limit"));
    if (pl)
        snprintf(lim, sizeof lim, "%s", pl);
    else if (isfinite(cs))
        snprintf(lim, sizeof lim, "the limit beside it: memcpy on the pool moves %.3g x one thread's bytes per second "
                 "(wall time)", cs);
    double cpu1 = NAN, wall1 = NAN;
    const cJSON *one = skb__jget(skb__jget(skb__jget(lm, "checks"), "f32"), "linear+nrm_shader");
    skb__jnum(skb__jget(one, "cpu_ms"), &cpu1);
    skb__jnum(skb__jget(one, "real_ms"), &wall1);
    if (isfinite(la) && isfinite(cpus) && isfinite(wall1 / cpu1))
        snprintf(load, sizeof load, "; load average %.3g on %.3g CPUs while timing: one thread's wall time was "
                 "%.3g x its CPU time", la, cpus, wall1 / cpu1);
    else if (isfinite(la) && isfinite(cpus))
        snprintf(load, sizeof load, "; load average %.3g on %.3g CPUs while timing", la, cpus);
    target_row(rep, t, k, large, "pool / one thread throughput, LBS normals to the shader (wall time)", v,
               skb__jget(tg, "pool_scaling_min"), 0, skb__fmt("%s%s", lim, load));
}

void skb__cpu_target_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc, const cJSON *tg,
                          const char *large, const cJSON *lm)
{
    char key[64];
    snprintf(key, sizeof key, "%s+nrm_shader", skb_method_role_name(SKB_MF_RATIO_REF));
    dlb_rows(rep, t, k, doc, tg, large, lm);
    roofline_row(rep, t, k, lm, large, skb_method_role_name(SKB_MF_RATIO_REF), "linear_f32_fraction_of_roofline",
                 "linear (f32) fraction of the copy roofline", skb__jget(tg, "linear_f32_fraction_of_roofline_min"));
    split_rows(rep, t, k, doc, tg);
    roofline_row(rep, t, k, lm, large, key, "linear_nrm_shader_f32_fraction_of_roofline",
                 "LBS (f32, normals to the shader) fraction of the copy roofline",
                 skb__jget(tg, "linear_nrm_shader_fraction_of_roofline_min"));
    pool_row(rep, t, k, doc, tg, large, lm);
}

/* ---- the planner's choice against the fixed rows of the same run ---- */

char *skb__cpu_plan_verdict(const struct skb_report *rep, const cJSON *d, const char *row, double *over_best)
{
    char split[64], slot4[80];
    const char *at = strstr(row, "@plan");
    double tol = NAN, a[3], b[3];
    skb__jnum(skb__jget(skb__jget(rep->ref, "fast_kernel_targets"), "plan_over_best_fixed_max"), &tol);
    *over_best = NAN;
    if (!at || !isfinite(tol))
        return NULL;
    snprintf(split, sizeof split, "%.*s", (int)(at - row), row);
    snprintf(slot4, sizeof slot4, "%s@slot4", split);
    if (paired(rep, d, row, split, 0, a) < 0 || paired(rep, d, row, slot4, 0, b) < 0)
        return NULL;
    /* over the better fixed row: the larger of the two ratios */
    double w[3] = { fmax(a[0], b[0]), fmax(a[1], b[1]), fmax(a[2], b[2]) };
    *over_best = w[0];
    int iv = isfinite(w[1]) && isfinite(w[2]);
    char *ia = interval_text(a[1], a[2]), *ib = interval_text(b[1], b[2]);
    char *out = skb__fmt("target: at most %g x the faster fixed row's time in this run (project target, not a paper "
                         "value): %s%s; paired with %s %.4g (95 %% interval %s), with %s %.4g (%s)",
                         tol, decide(w, tol, 1), iv ? "" : " on one number (too few pairs for an interval)", split,
                         a[0], ia, slot4, b[0], ib);
    free(ia);
    free(ib);
    return out;
}
