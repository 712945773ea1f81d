/* report_fast.c — the fast single-precision kernels: one
 * row per timed kernel and dataset with what its time covers (layout,
 * normal option, threads, the influence histogram it blends with, bytes
 * per vertex, fraction of the copy roofline) and its ratio to the f32 LBS
 * beside Figure 18's; the peers with what they do; the project targets
 * (reference.json fast_kernel_targets, not paper values), each met or not. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"
#include "skb_method.h"   /* the methods' roles (skb_method_role_name) */

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

/* a measured figure against a project target */
static void target_row(struct skb_report *rep, struct skb_rtable *t, int k, const char *dataset, const char *what,
                       double meas, const cJSON *target, int at_most, const char *issue, char *why)
{
    double tv = NAN;
    if (skb__jnum(target, &tv) < 0 || !isfinite(meas)) {
        skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__fmt("cpu.json has no %s%s%s", what, why ? "; " : "", why ? why : ""),
                     strdup(dataset), strdup(what), strdup("—"), strdup("—"), strdup("—"), strdup("—"), strdup("—"),
                     strdup("—"), strdup("—"), strdup("—"), NULL);
        free(why);
        return;
    }
    int met = at_most ? meas <= tv : meas >= tv;
    skb__row_add(rep, t, k, SKB_ROW_NEW, skb__fmt("target %s %g (%s, not a paper value): %s%s%s", at_most ? "≤" : "≥",
                                                  tv, issue, met ? "met" : "not met", why ? "; " : "", why ? why : ""),
                 strdup(dataset), strdup(what), strdup("—"), strdup("—"), strdup("—"), strdup("—"),
                 skb__numtxt(meas), strdup("—"), strdup("—"), strdup("—"), NULL);
    free(why);
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

/* DLB over LBS (both renormalising) on every dataset: the worst one */
static double worst_dlb_over_linear(const cJSON *doc, const char **where)
{
    double worst = NAN;
    const cJSON *d;
    *where = NULL;
    cJSON_ArrayForEach(d, skb__jget(doc, "datasets")) {
        double r = NAN;
        if (skb__jnum(skb__jget(skb__jget(d, "fast_kernels"), "dlb_over_linear"), &r) == 0 && isfinite(r)
            && !(r <= worst)) {
            worst = r;
            *where = d->string;
        }
    }
    return worst;
}

/* the issue-15 targets: the split layout's speed-up on its dataset, DLB/LBS
 * everywhere, the roofline with normals left to the shader, the pool */
static void fast_target_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc, const cJSON *tg,
                         const char *large, const cJSON *lm)
{
    const char *sds = skb__jstr(skb__jget(tg, "split_speedup_dataset")), *where;
    const cJSON *sp = skb__jget(skb__jget(skb__jget(skb__jget(doc, "datasets"), sds ? sds : ""), "fast_kernels"),
                                "split_speedup_over_slot4");
    for (int i = 0; i < 2; i++) {
        char key[64];   /* LBS's label, renormalised or with normals to the shader */
        snprintf(key, sizeof key, "%s%s", skb_method_role_name(SKB_MF_RATIO_REF), i ? "+nrm_shader" : "");
        double x = NAN;
        skb__jnum(skb__jget(sp, key), &x);
        target_row(rep, t, k, sds ? sds : "—", i ? "LBS split / 4-slot speed-up, normals to the shader"
                                                  : "LBS split / 4-slot speed-up, renormalised",
                   x, skb__jget(tg, "split_speedup_min"), 0, "project target, docs/report-and-regression.md \"Fast kernels\"", strdup("same normal option, one run"));
    }
    double w = worst_dlb_over_linear(doc, &where);
    target_row(rep, t, k, where ? where : "—", "dlb / linear (f32), worst dataset", w,
               skb__jget(tg, "dlb_over_linear_f32_every_dataset_max"), 1, "project target, docs/report-and-regression.md \"Fast kernels\"",
               strdup("both renormalised; every dataset's in its fast_kernels"));
    double fr = NAN, ps = NAN, cs = NAN, la = NAN, cpus = NAN;
    skb__jnum(skb__jget(skb__jget(lm, "roofline"), "linear_nrm_shader_f32_fraction_of_roofline"), &fr);
    target_row(rep, t, k, large, "LBS (f32, normals to the shader) fraction of the copy roofline", fr,
               skb__jget(tg, "linear_nrm_shader_fraction_of_roofline_min"), 0, "project target, docs/report-and-regression.md \"Fast kernels\"", strdup("one thread"));
    skb__jnum(skb__jget(skb__jget(skb__jget(skb__jget(lm, "fast_kernels"), "pool_scaling"), "linear+nrm_shader"),
                        "speedup"), &ps);
    skb__jnum(skb__jget(skb__jget(lm, "roofline"), "copy_bandwidth_scaling"), &cs);
    skb__jnum(skb__jget(skb__jget(doc, "cpus"), "load_average_1min_after"), &la);
    skb__jnum(skb__jget(skb__jget(doc, "cpus"), "available"), &cpus);
    char lim[480] = "no pool memcpy timing", load[192] = "";
    const char *pl = skb__jstr(skb__jget(skb__jget(skb__jget(skb__jget(lm, "fast_kernels"), "pool_scaling"),
                                                   "linear+nrm_shader"), "limit"));
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
    target_row(rep, t, k, large, "pool / one thread throughput, LBS normals to the shader (wall time)", ps,
               skb__jget(tg, "pool_scaling_min"), 0, "project target, docs/report-and-regression.md \"Fast kernels\"", skb__fmt("%s%s", lim, load));
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
        char *note = skb__fmt("target speed-up >= 1 over the best fixed row (not a paper value): %s; %s; candidates "
                              "(fastest deformation each): %s", !isfinite(sp) ? "not measured" : sp >= 1 ? "met"
                              : "not met", src ? src : "?", cands);
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
                                               "speed-up over the faster of the fixed split and 4-slot rows >= 1."),
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

void skb__report_fast(struct skb_report *rep)
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
        double ratio = NAN, frac = NAN;
        skb__jnum(skb__jget(lm, "dlb_over_linear_f32"), &ratio);
        skb__jnum(skb__jget(skb__jget(lm, "roofline"), "linear_f32_fraction_of_roofline"), &frac);
        target_row(rep, t, k, name, "dlb / linear (f32)", ratio, skb__jget(tg, "dlb_over_linear_f32_max"), 1, "project target, docs/report-and-regression.md \"Fast kernels\"",
                   NULL);
        target_row(rep, t, k, name, "linear (f32) fraction of the copy roofline", frac,
                   skb__jget(tg, "linear_f32_fraction_of_roofline_min"), 0, "project target, docs/report-and-regression.md \"Fast kernels\"", NULL);
        fast_target_rows(rep, t, k, doc, tg, name, lm);
    }
    plan_table(rep);
    scaling_table(rep);
}
