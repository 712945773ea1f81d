/* exp_gpu.c — the `gpu` experiment's report half (run half: harness/exp_gpu.c;
 * gpu.json's table of fields: harness/exp_gpu_schema.c): DQ paper Fig. 19 (shader instruction counts), the GPU
 * times, the compute path, and the numbers behind the pictures
 * (harness/arm_volume.c and gpu_pictures.c): the arm's volume and elbow
 * cross-section over twist per method (the candy wrapper of thesis 2.2.1 /
 * DQ paper Fig. 2 as a number), and each method's distance to DIB in the
 * heat-map pose (the papers print no such numbers: descriptive tables, not
 * judged); its plots: GPU times per dataset and as ratios to LBS, the compute
 * sweep, the arm's volume and cross-section curves, and the GPU pictures'
 * captions.  The timing grid the GPU plots share with the CPU plots:
 * plots_timings.c; the gnuplot core: plots.c.  Its exact nightly gate: the
 * shaders' instruction counts. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "skb_json.h"
#include "report_internal.h"
#include "skb_method.h"   /* the methods' roles (skb_method_role_name) */
#include "skb_run.h"
#include "skb_label.h"
#include "skb_method.h"
#include "skb_report.h"
#include "plots_internal.h"

/* ---- GPU: Figure 19, Figure 1, ratios to LBS ---- */

/* the Figure 19 entry whose aliases include this shader name */
static const cJSON *fig19_entry(const cJSON *sec, const char *shader)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, skb__jget(sec, "shaders")) {
        const cJSON *a;
        if (strcmp(e->string, shader) == 0)
            return e;
        cJSON_ArrayForEach(a, skb__jget(e, "aliases"))
            if (skb__jstr(a) && strcmp(a->valuestring, shader) == 0)
                return e;
    }
    return NULL;
}

static double gpu_lbs(const cJSON *map, const cJSON *sec)
{
    const cJSON *x;
    double v;
    cJSON_ArrayForEach(x, map) {
        const cJSON *e = fig19_entry(sec, x->string);
        if (e && strcmp(e->string, skb_method_role_name(SKB_MF_RATIO_REF)) == 0 && skb__jnum(x, &v) == 0)
            return v;
    }
    return NAN;
}

/* the measured count of the Figure 19 entry `key` (by its aliases) in a
 * gpu.json instruction map */
static double fig19_count(const cJSON *sec, const cJSON *ins, const char *key)
{
    const cJSON *x, *e = skb__jget(skb__jget(sec, "shaders"), key);
    double n = NAN;
    cJSON_ArrayForEach(x, ins)
        if (e && fig19_entry(sec, x->string) == e && skb__jnum(x, &n) == 0)
            return n;
    return NAN;
}

/* DQ paper 4.1 / Fig. 19: resolving antipodality in the shader costs DLB'
 * 52 instructions against DLB's 43 (+21 %); the same delta from each of our
 * counts (Mesa NIR, SPIR-V), judged as the totals are */
static void fig19_antipodal_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *sec, const cJSON *doc)
{
    static const char *const maps[][2] = { { "instructions", "Mesa NIR" }, { "instructions_spirv", "SPIR-V" } };
    double pd = NAN, pp = NAN;
    skb__jnum(skb__jget(skb__jget(skb__jget(sec, "shaders"), "dlb"), "instructions"), &pd);
    skb__jnum(skb__jget(skb__jget(skb__jget(sec, "shaders"), "dlb_prime"), "instructions"), &pp);
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        const cJSON *ins = skb__jget(doc, maps[i][0]);
        double d = fig19_count(sec, ins, "dlb"), dp = fig19_count(sec, ins, "dlb_prime");
        if (!ins || !(d > 0) || !isfinite(dp) || !(pd > 0))
            continue;
        char *note = NULL;
        struct skb_verdict v;
        int st = skb__judge_v(skb__jget(skb__jget(rep->ref, "figure_18"), "tolerance"), dp / d, pp / pd, NAN, &v, &note);
        note = skb__join_note_take(note, skb__fmt("the in-shader antipodality's cost, DLB' / DLB, %s counts: %.0f / %.0f "
                                                  "(%+.1f %%) against the paper's 52 / 43 (+20.9 %%); judged as an excess "
                                                  "within a factor of 2, as the CPU ratios", maps[i][1], dp, d,
                                                  100 * (dp / d - 1)));
        skb__row_add(rep, t, k, st, note, skb__fmt("DLB' / DLB (%s)", maps[i][1]), skb__fmt("%.0f / %.0f", dp, d),
                     skb__numtxt(dp / d), strdup("52 / 43"), skb__numtxt(pp / pd), strdup("—"), NULL);
        skb__row_verdict(rep, t, &v, NULL);
    }
}

static void section_fig19(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "figure_19");
    static const char *const cols[] = { "shader", "instructions", "ratio to LBS", "paper", "paper ratio",
                                        "max |GPU − CPU|", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    struct skb_rtable *t = skb__tbl_new(rep, "fig19", "DQ paper Figure 19: vertex-shader instructions (4 influences)", src,
                                   skb__tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "gpu.json");
        const cJSON *ins = skb__jget(doc, "instructions");
        if (!doc || !ins) {
            const char *sk = skb__jstr(skb__jget(doc, "skipped"));
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN,
                    doc ? skb__fmt("gpu.json has no \"instructions\"%s%s", sk ? ": skipped: " : "", sk ? sk : "")
                        : skb__missing_note(&rep->runs[k], "gpu.json"), strdup("all"), NULL);
            continue;
        }
        double lbs = gpu_lbs(ins, sec), plbs = NAN;
        skb__jnum(skb__jget(skb__jget(skb__jget(sec, "shaders"), skb_method_role_name(SKB_MF_RATIO_REF)), "instructions"), &plbs);
        const cJSON *x;
        cJSON_ArrayForEach(x, ins) {
            double n = NAN, err = NAN, pn = NAN;
            skb__jnum(x, &n);
            skb__jnum(skb__jget(skb__jget(doc, "max_abs_error"), x->string), &err);
            const cJSON *e = fig19_entry(sec, x->string);
            char *note = NULL;
            struct skb_verdict v = { .rule = "" };
            int st;
            double r = isfinite(lbs) && lbs > 0 ? n / lbs : NAN;
            if (e)
                skb__jnum(skb__jget(e, "instructions"), &pn);
            if (!e) {
                st = SKB_ROW_NEW;
                note = strdup("no paper value");
            } else if (strcmp(e->string, skb_method_role_name(SKB_MF_RATIO_REF)) == 0) {
                st = SKB_ROW_CONTEXT;
                note = strdup("the reference of the ratios");
            } else if (!isfinite(r)) {
                st = SKB_ROW_NOT_RUN;
                note = strdup("no LBS shader count to form the ratio");
            } else {
                st = skb__judge_v(skb__jget(sec, "tolerance"), r, pn / plbs, NAN, &v, &note);
            }
            note = skb__join_note(note, skb__why_lookup(doc, x->string, NULL));
            note = skb__join_note(note, skb__jstr(skb__jget(e, "derived")));
            skb__row_add(rep, t, k, st, note, strdup(x->string), skb__numtxt(n), skb__numtxt(r), skb__numtxt(pn),
                    e ? skb__numtxt(pn / plbs) : strdup("—"), skb__numtxt(err), NULL);
            skb__row_verdict(rep, t, &v, NULL);
        }
        /* paper shaders without a measured count */
        const cJSON *e;
        cJSON_ArrayForEach(e, skb__jget(sec, "shaders")) {
            int found = 0;
            cJSON_ArrayForEach(x, ins) found |= fig19_entry(sec, x->string) == e;
            if (!found) {
                double pn = NAN;
                skb__jnum(skb__jget(e, "instructions"), &pn);
                skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__fmt("no shader named %s (or an alias) in gpu.json", e->string),
                        strdup(e->string), strdup("—"), strdup("—"), skb__numtxt(pn), skb__numtxt(pn / plbs), strdup("—"), NULL);
            }
        }
        fig19_antipodal_rows(rep, t, k, sec, doc);
        /* uniform data per joint (DQ paper 5) */
        const cJSON *fl = skb__jget(doc, "floats_per_joint");
        if (!fl)
            fl = skb__jget(doc, "uniform_floats_per_joint");
        cJSON_ArrayForEach(x, fl) {
            double n = NAN, pn = NAN;
            skb__jnum(x, &n);
            const cJSON *fe = fig19_entry(sec, x->string);
            int has = fe && skb__jnum(skb__jget(skb__jget(sec, "floats_per_joint"), fe->string), &pn) == 0;
            /* a design constant of each method, not a measurement: context */
            skb__row_add(rep, t, k, has ? SKB_ROW_CONTEXT : SKB_ROW_NEW,
                    has ? skb__fmt("context: a design constant (DQ paper 1, 5), %s the paper's", n == pn ? "equal to"
                                   : "not equal to") : strdup("no paper value"), skb__fmt("%s floats per joint", x->string), skb__numtxt(n), strdup(""),
                    has ? skb__numtxt(pn) : strdup("—"), strdup(""), strdup(""), NULL);
        }
    }
}

/* a software rasteriser (Mesa llvmpipe / softpipe / swrast): its draw times
 * are CPU emulation, so a frame-rate ratio from it is context against the
 * paper's 2008 GPU, not a reproduction attempt */
static int software_renderer(const cJSON *doc)
{
    static const char *const sw[] = { "llvmpipe", "softpipe", "swrast", NULL };
    const char *r = skb__jstr(skb__jget(doc, "renderer"));
    if (cJSON_IsTrue(skb__jget(doc, "software_renderer")))
        return 1;
    for (int i = 0; r && sw[i]; i++)
        if (strstr(r, sw[i]))
            return 1;
    return 0;
}

/* DQ paper Fig. 1 ran SBS's centres on the CPU: where gpu.json times that
 * per-pose CPU work apart ("<shader>_cpu_center_ms"), say whether the
 * shader's ms includes it and what the ratio is with it (NULL: nothing to say) */
static char *cpu_center_note(const cJSON *doc, const char *other, const char *dataset, double po, double pd)
{
    char key[128];
    double c = NAN;
    snprintf(key, sizeof key, "%s_cpu_center_ms", other);
    if (skb__jnum(skb__jget(skb__jget(doc, key), dataset), &c) < 0)
        return NULL;
    snprintf(key, sizeof key, "%s_ms_includes_cpu_center", other);
    if (cJSON_IsTrue(skb__jget(doc, key)))
        return skb__fmt("%s ms includes its per-pose CPU centres (%.4g ms)", other, c);
    return skb__fmt("%s ms is the GPU draw only; its per-pose CPU centres take %.4g ms more, %s / dlb with them %.4g",
             other, c, other, pd > 0 ? (po + c) / pd : NAN);
}

/* gpu.json "vertex_path.pipeline_bound": every vertex shader's time within
 * a few per cent of the fastest on the dataset (harness/exp_gpu.c) */
static int pipeline_bound(const cJSON *doc, const char *dataset)
{
    return cJSON_IsTrue(skb__jget(skb__jget(skb__jget(doc, "vertex_path"), "pipeline_bound"), dataset));
}

static double pipeline_rel(const cJSON *doc)
{
    double r = NAN;
    skb__jnum(skb__jget(skb__jget(doc, "vertex_path"), "pipeline_bound_rel"), &r);
    return r;
}

static void report_gpu_compute(struct skb_report *rep);

/* DQ paper Fig. 1's pairs from the compute path (gpu.json
 * compute.fig1_paired: dispatches of the other method and DLB's timed pair
 * by pair): judged on a hardware renderer, on the pairs with this run's A/A
 * floor, unless every compute kernel's time at the sweep's largest size lies
 * within the pipeline-bound spread of the fastest (then nothing tells the
 * methods apart there either) */
static void fig1_compute_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc, const cJSON *sec,
                              int soft)
{
    const cJSON *c = skb__jget(doc, "compute"), *sw = skb__jget(c, "sweep"), *pair, *x;
    const cJSON *last = cJSON_GetArrayItem(sw, cJSON_GetArraySize(sw) - 1), *ms = skb__jget(last, "ms");
    const cJSON *fp = skb__jget(c, "fig1_paired");
    double v, times[64];
    int n = 0;
    if (!c)
        return;
    cJSON_ArrayForEach(x, ms)
        if (n < 64 && skb__jnum(x, &v) == 0)
            times[n++] = v;
    double rel = pipeline_rel(doc), lo = INFINITY, hi = 0;
    for (int i = 0; i < n; i++) {
        lo = fmin(lo, times[i]);
        hi = fmax(hi, times[i]);
    }
    int equal = n >= 2 && isfinite(rel) && hi <= lo * (1 + rel);
    char *where = skb__jnum(skb__jget(fp, "vertices"), &v) == 0 ? skb__fmt("compute, %.0f vertices", v) : strdup("compute");
    cJSON_ArrayForEach(pair, skb__jget(sec, "pairs")) {
        const char *other = skb__ref_str(pair, "other");
        double pr = NAN;
        struct skb_paired p;
        struct skb_verdict vd = { .rule = "" };
        skb__jnum(skb__jget(pair, "ratio"), &pr);
        int ok = skb__paired_read(skb__paired_find(skb__jget(fp, "rows"), other,
                                                   skb_method_role_name(SKB_MF_HEADLINE), NULL), &p) == 0;
        char *note = NULL;
        int st = SKB_ROW_NOT_RUN;
        if (!ok)
            note = skb__fmt("gpu.json compute.fig1_paired has no %s / dlb pair", other);
        else if (soft) {
            st = SKB_ROW_CONTEXT;
            note = skb__fmt("measured − paper = %+.4g (paired, interval %.4g – %.4g); software renderer: context, not "
                            "judged", p.ratio - pr, p.lo, p.hi);
        } else if (equal) {
            st = SKB_ROW_CONTEXT;
            note = skb__fmt("measured − paper = %+.4g; not judged: every compute kernel within %.3g of the fastest "
                            "(memory-bound: the methods cannot be told apart by time here)", p.ratio - pr, rel);
        } else {
            skb__judge_v(skb__jget(sec, "tolerance"), p.ratio, pr, NAN, &vd, &note);
            st = skb__judge_paired(rep, &vd, &p, &note);
        }
        note = skb__join_note(note, "compute path (gpu.json compute.fig1_paired): one dispatch of each back to back, "
                                    "order alternating, timed by the GPU's timer queries on hardware; per-pose CPU work "
                                    "not included");
        skb__row_add(rep, t, k, st, note, strdup(where), skb__fmt("%s / dlb", other), strdup("—"),
                     ok ? skb__numtxt(p.ratio) : strdup("—"), skb__numtxt(pr), NULL);
        skb__row_verdict(rep, t, &vd, NULL);
    }
    free(where);
}

static void section_gpu_times(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "figure_1"), *s19 = skb__jget(rep->ref, "figure_19");
    static const char *const cols[] = { "dataset", "shader", "ms", "ratio to LBS", "paper", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    struct skb_rtable *t = skb__tbl_new(rep, "gpu", "GPU skinning time and DQ paper Figure 1 frame-rate ratios", src,
                                   skb__fmt("%s. Rows \"X / dlb\" set the other method's time against DLB's, as Figure 1's "
                                     "frame rates do. On a software renderer (llvmpipe, softpipe) these are CPU times of Mesa's emulation: "
                                     "the ratios are then context, not judged.",
                                     "Rule: rel 0.25 on the ratio"), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "gpu.json");
        const cJSON *ms = skb__jget(doc, "ms");
        if (!doc || !ms) {
            const char *sk = skb__jstr(skb__jget(doc, "skipped"));
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN,
                    doc ? skb__fmt("gpu.json has no \"ms\"%s%s", sk ? ": skipped: " : "", sk ? sk : "")
                        : skb__missing_note(&rep->runs[k], "gpu.json"), strdup("—"), strdup("all"), NULL);
            continue;
        }
        int soft = software_renderer(doc);
        const char *sw = soft ? "software renderer" : NULL;
        if (soft && !rep->software_gpu[0])
            snprintf(rep->software_gpu, sizeof rep->software_gpu, "%.160s",
                     skb__jstr(skb__jget(doc, "renderer")) ? skb__jstr(skb__jget(doc, "renderer")) : "unnamed");
        const cJSON *d;
        cJSON_ArrayForEach(d, ms) {
            double lbs = gpu_lbs(d, s19);
            const cJSON *x;
            cJSON_ArrayForEach(x, d) {
                double v = NAN;
                skb__jnum(x, &v);
                const cJSON *e = fig19_entry(s19, x->string);
                int is_lbs = e && strcmp(e->string, skb_method_role_name(SKB_MF_RATIO_REF)) == 0;
                skb__row_add(rep, t, k, is_lbs ? SKB_ROW_CONTEXT : SKB_ROW_NEW,
                        skb__join_note(strdup(is_lbs ? "the reference of the ratios" : "the paper gives no GPU time ratio to LBS"), sw),
                        strdup(d->string), strdup(x->string), skb__numtxt(v), lbs > 0 ? skb__numtxt(v / lbs) : strdup("—"), strdup("—"), NULL);
            }
            const cJSON *pair;
            cJSON_ArrayForEach(pair, skb__jget(sec, "pairs")) {
                const char *other = skb__ref_str(pair, "other");
                double po = NAN, pd = NAN, pr = NAN;
                skb__jnum(skb__jget(pair, "ratio"), &pr);
                int ho = skb__jnum(skb__jget(d, other), &po) == 0, hd = skb__jnum(skb__jget(d, skb_method_role_name(SKB_MF_HEADLINE)), &pd) == 0;
                char *note = NULL;
                struct skb_verdict v = { .rule = "" };
                int st = SKB_ROW_NOT_RUN;
                if (ho && hd && pd > 0 && soft) {
                    st = SKB_ROW_CONTEXT;
                    note = skb__fmt("measured − paper = %+.4g; context, not judged, until a hardware renderer runs it", po / pd - pr);
                } else if (ho && hd && pd > 0 && pipeline_bound(doc, d->string)) {
                    st = SKB_ROW_CONTEXT;
                    note = skb__fmt("measured − paper = %+.4g; not judged: the vertex path is pipeline-bound on %s (every "
                                    "shader within %.3g of the fastest), so methods cannot be told apart on it; see the "
                                    "compute path's rows", po / pd - pr, d->string, pipeline_rel(doc));
                } else if (ho && hd && pd > 0) {
                    /* medians of draws timed apart: the judged Fig. 1 rows are the
                     * compute path's, timed pair by pair (fig1_compute_rows) */
                    st = SKB_ROW_CONTEXT;
                    note = skb__fmt("measured − paper = %+.4g (medians of the vertex path's draws, timed apart): "
                                    "context; Figure 1 is judged on the compute path's dispatch pairs below",
                                    po / pd - pr);
                } else
                    note = skb__fmt("gpu.json has no %s shader time on %s", ho ? skb_method_role_name(SKB_MF_HEADLINE) : other, d->string);
                char *cn = ho && hd ? cpu_center_note(doc, other, d->string, po, pd) : NULL;
                note = skb__join_note(note, cn);
                free(cn);
                skb__row_add(rep, t, k, st, skb__join_note(note, sw), strdup(d->string), skb__fmt("%s / dlb", other),
                        strdup("—"), ho && hd && pd > 0 ? skb__numtxt(po / pd) : strdup("—"), skb__numtxt(pr), NULL);
                skb__row_verdict(rep, t, &v, NULL);
            }
        }
        fig1_compute_rows(rep, t, k, doc, sec, soft);
    }
    report_gpu_compute(rep);
}

/* ---- the compute path (gpu.json "compute", docs/experiments.md "GPU experiment") ---- */

static const char *const compute_cols[] = { "method", "vertices/s", "fraction of copy", "bytes/vertex", "ratio to LBS",
                                            "verified", "max |GPU − CPU| / size", NULL };

static double cnum(const cJSON *o, const char *key, const char *name)
{
    double v = NAN;
    skb__jnum(skb__jget(name ? skb__jget(o, key) : o, name ? name : key), &v);
    return v;
}

static char *verified_txt(const cJSON *o, const char *name)
{
    const cJSON *v = skb__jget(skb__jget(o, "verified"), name);
    return strdup(cJSON_IsBool(v) ? (cJSON_IsTrue(v) ? "yes" : "NO") : "—");
}

/* one method's row at the sweep's largest size; DIB's note gives its
 * iterations per vertex on the device */
static void compute_method_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *c, const char *name,
                               int st, const char *why)
{
    char *note = strdup(why);
    const cJSON *it = skb__jget(c, "dib_iterations");
    const char *ds = skb__jstr(skb__jget(it, "dataset"));
    if (strcmp(name, skb_method_role_name(SKB_MF_ITERATIVE)) == 0 && it)
        note = skb__join_note_take(note, skb__fmt("DIB iterations per vertex on the device: mean %.3g, max %.3g (%s, pose %.0f)",
                                             cnum(it, "mean", NULL), cnum(it, "max", NULL), ds ? ds : "?",
                                             cnum(it, "pose", NULL)));
    if (cJSON_IsFalse(skb__jget(skb__jget(c, "verified"), name)))
        note = skb__join_note(note, "VERIFICATION FAILED: this kernel disagrees with its CPU method");
    skb__row_add(rep, t, k, st, note, strdup(name), skb__numtxt(cnum(c, "vertices_per_s", name)),
                 skb__numtxt(cnum(c, "fraction_of_copy", name)), skb__numtxt(cnum(c, "bytes_per_vertex", name)),
                 skb__numtxt(cnum(c, "ratio_to_lbs", name)), verified_txt(c, name),
                 skb__numtxt(cnum(c, "max_rel_error", name)), NULL);
}

/* one layout's rows: each measured method, its accuracy cost in the note */
static void compute_layout_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *le, int st,
                                const char *why)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, skb__jget(le, "bytes_per_vertex")) {
        const char *title = skb__jstr(skb__jget(le, "title"));
        char *note = skb__fmt("%s; %s; vs the CPU on float weights (the layout's own error, not judged): %.3g of "
                              "the model size", why, title ? title : le->string,
                              cnum(le, "quantization_error_rel", x->string));
        if (cJSON_IsFalse(skb__jget(skb__jget(le, "verified"), x->string)))
            note = skb__join_note(note, "VERIFICATION FAILED against the CPU on the layout's weights");
        double lbs = cnum(le, "ms", skb_method_role_name(SKB_MF_RATIO_REF)), ms = cnum(le, "ms", x->string);
        skb__row_add(rep, t, k, st, note, skb__fmt("%s @ %s", x->string, le->string),
                     skb__numtxt(cnum(le, "vertices_per_s", x->string)), skb__numtxt(cnum(le, "fraction_of_copy", x->string)),
                     skb__numtxt(cnum(le, "bytes_per_vertex", x->string)), skb__numtxt(lbs > 0 ? ms / lbs : NAN),
                     verified_txt(le, x->string), skb__numtxt(cnum(le, "max_rel_error", x->string)), NULL);
    }
}

/* the vertex path's pipeline-bound datasets, one row */
static void vertex_path_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc)
{
    const cJSON *x;
    char *list = NULL;
    int n = 0, all = 0;
    cJSON_ArrayForEach(x, skb__jget(skb__jget(doc, "vertex_path"), "pipeline_bound")) {
        all++;
        if (cJSON_IsTrue(x)) {
            list = skb__join_note(list, x->string);
            n++;
        }
    }
    if (!all)
        return;
    char *note = n ? skb__fmt("pipeline-bound (every vertex shader within %.3g of the fastest) on %d of %d datasets: %s; "
                              "methods cannot be told apart on that path there", pipeline_rel(doc), n, all, list)
                   : skb__fmt("pipeline-bound on none of %d datasets (spread above %.3g)", all, pipeline_rel(doc));
    free(list);
    skb__row_add(rep, t, k, SKB_ROW_CONTEXT, note, strdup("vertex path"), strdup("—"), strdup("—"), strdup("—"),
                 strdup("—"), strdup("—"), strdup("—"), NULL);
}

static void compute_run(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc)
{
    const cJSON *c = skb__jget(doc, "compute"), *x;
    int soft = software_renderer(doc) || cJSON_IsTrue(skb__jget(c, "software_renderer"));
    int st = soft ? SKB_ROW_CONTEXT : SKB_ROW_NEW;
    double copy = cnum(c, "copy_bandwidth_GBps", NULL), bpv = cnum(c, "bytes_per_vertex", skb_method_role_name(SKB_MF_RATIO_REF));
    char *why = skb__fmt("%s; %.0f vertices (copies of %s) per dispatch", soft ? "software renderer: context, not a "
                         "GPU's figure" : "no paper value", cnum(c, "largest_vertices", NULL),
                         skb__jstr(skb__jget(c, "sweep_dataset")) ? skb__jstr(skb__jget(c, "sweep_dataset")) : "?");
    const char *src = skb__jstr(skb__jget(c, "copy_bandwidth_source"));
    skb__row_add(rep, t, k, st, skb__fmt("the faster copy of %.0f MiB (%s): %.4g GB/s, bytes read + written (IQR "
                                         "%.4g–%.4g); glCopyBufferSubData %.4g GB/s, shader copy %.4g GB/s",
                                         cnum(c, "copy_bytes", NULL) / 1048576.0, src ? src : "glCopyBufferSubData",
                                         copy, cnum(c, "copy_bandwidth_GBps_q1", NULL),
                                         cnum(c, "copy_bandwidth_GBps_q3", NULL), cnum(c, "buffer_copy_GBps", NULL),
                                         cnum(c, "shader_copy_GBps", NULL)),
                 strdup("copy roofline"), skb__numtxt(copy * 1e9 / bpv), strdup("1"), skb__numtxt(bpv), strdup("—"),
                 strdup("—"), strdup("—"), NULL);
    cJSON_ArrayForEach(x, skb__jget(c, "vertices_per_s"))
        compute_method_row(rep, t, k, c, x->string, st, why);
    cJSON_ArrayForEach(x, skb__jget(c, "layouts"))
        if (cJSON_IsObject(x))
            compute_layout_rows(rep, t, k, x, st, soft ? "software renderer: context" : "no paper value");
    vertex_path_row(rep, t, k, doc);
    free(why);
}

static void report_gpu_compute(struct skb_report *rep)
{
    struct skb_rtable *t = skb__tbl_new(rep, "gpu_compute",
        "GPU compute path: vertices/s and fraction of the copy roofline at the sweep's largest size", "measured only",
        skb__fmt("Compute-shader skinning (gpu/shaders/main.comp around each method's skin()); the sweep plot "
                 "(gpu-sweep) draws vertices/s against vertices with the copy roofline. \"fraction of copy\" = vertices/s "
                 "× bytes per vertex (read + written) / the copy rate (read + written): the faster of glCopyBufferSubData "
                 "and a compute-shader copy (a driver may run glCopyBufferSubData on a copy engine slower than the "
                 "shader cores' path to memory, as on an H100). Layout rows "
                 "(\"method @ layout\") give the ratio to LBS in the same layout. On a software renderer these are "
                 "CPU figures of Mesa's emulation: context."), compute_cols);
    for (int k = 0; t && k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "gpu.json");
        if (!skb__jget(doc, "compute")) {
            const char *why = skb__jstr(skb__jget(doc, "compute_not_run"));
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN,
                         why ? skb__fmt("not run: %s", why)
                             : strdup(doc ? "gpu.json has no \"compute\"" : "gpu.json not found"),
                         strdup("all"), NULL);
            continue;
        }
        compute_run(rep, t, k, doc);
    }
}

/* ---- the numbers behind the pictures ---- */

/* value of series key at twist angle deg, as text */
static char *at_twist(const cJSON *av, const cJSON *m, const char *key, double deg)
{
    const cJSON *tw = skb__jget(av, "twist_deg");
    for (int i = 0; i < cJSON_GetArraySize(tw); i++) {
        double x = NAN, y = NAN;
        if (skb__jnum(cJSON_GetArrayItem(tw, i), &x) == 0 && fabs(x - deg) < 1e-9
            && skb__jnum(cJSON_GetArrayItem(skb__jget(m, key), i), &y) == 0)
            return skb__fmt("%.4f", y);
    }
    return strdup("—");
}

static void section_arm_volume(struct skb_report *rep)
{
    static const char *const cols[] = { "method", "volume 90°", "volume 135°", "volume 180°", "section 90°",
                                        "section 135°", "section 180°", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "arm_volume", "Arm volume and elbow cross-section over twist "
        "(candy wrapper, thesis 2.2.1 / DQ paper Fig. 2)", "thesis 2.2.1 Fig. 2.5, DQ paper Fig. 2 (pictures only)",
        skb__fmt("Ratios to the rest pose of the closed tube's volume and of the elbow ring's area, the elbow "
                 "twisted about the bone axis (plot arm-volume / arm-section). The papers show this as pictures; "
                 "descriptive, not judged. Rigid blends lose a little volume too: the tube's facets between rings "
                 "shear as the rings turn."), cols);
    if (!t)
        return;
    t->unjudged = 1;
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "gpu.json"), *av = skb__jget(doc, "arm_volume"), *m;
        if (!av) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, doc ? strdup("gpu.json has no \"arm_volume\"")
                         : skb__missing_note(&rep->runs[k], "gpu.json"), strdup("all"), NULL);
            continue;
        }
        cJSON_ArrayForEach(m, skb__jget(av, "methods")) {
            const char *why = skb__jstr(skb__jget(m, "not_run"));
            if (!m->string)   /* "methods" an array in a hostile gpu.json: no method name */
                continue;
            if (why) {
                skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, strdup(why), strdup(m->string), NULL);
                continue;
            }
            skb__row_add(rep, t, k, SKB_ROW_CONTEXT, strdup(""), strdup(m->string),
                         at_twist(av, m, "volume_ratio", 90), at_twist(av, m, "volume_ratio", 135),
                         at_twist(av, m, "volume_ratio", 180), at_twist(av, m, "section_area_ratio", 90),
                         at_twist(av, m, "section_area_ratio", 135), at_twist(av, m, "section_area_ratio", 180), NULL);
        }
    }
}

static void section_heat_map(struct skb_report *rep)
{
    static const char *const cols[] = { "method", "scene", "max distance / model size", "median", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "heat_map", "Distance to DIB per vertex (the heat maps)",
        "thesis 4.3 (DIB as the reference blend)",
        skb__fmt("Each method's skinned vertex against DIB's in one pose, in model sizes (largest extent of the "
                 "rest mesh); the heat-map pictures colour the same distances. Descriptive, not judged."), cols);
    if (!t)
        return;
    t->unjudged = 1;
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *hm = skb__jget(skb__jget(skb_results_doc(&rep->runs[k], "gpu.json"), "method_pictures"), "heat_map"), *m;
        const char *scene = skb__jstr(skb__jget(hm, "scene"));
        if (!hm || skb__jstr(skb__jget(hm, "not_run"))) {
            const char *why = skb__jstr(skb__jget(hm, "not_run"));
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, strdup(why ? why : "gpu.json has no \"method_pictures\".\"heat_map\""),
                         strdup("all"), NULL);
            continue;
        }
        cJSON_ArrayForEach(m, skb__jget(hm, "methods")) {
            double mx = NAN, md = NAN;
            if (!m->string)   /* "methods" an array in a hostile gpu.json: no method name */
                continue;
            skb__jnum(skb__jget(m, "max_rel"), &mx);
            skb__jnum(skb__jget(m, "median_rel"), &md);
            skb__row_add(rep, t, k, SKB_ROW_CONTEXT, strdup(""), strdup(m->string), strdup(scene ? scene : "?"),
                         skb__numtxt(mx), skb__numtxt(md), NULL);
        }
    }
}

/* ---- plots; the GPU image captions ---- */

/* "DLB — candy wrapper (arm, pose 0)" for images/FILE from gpu.json
 * "images" (method and scene, not the file name); the file name when
 * gpu.json does not list it */
void skb__image_caption(const cJSON *gpu, const char *file, char *buf, size_t len)
{
    const cJSON *im;
    cJSON_ArrayForEach(im, skb__jget(gpu, "images")) {
        const char *fn = cJSON_GetStringValue(skb__jget(im, "file")), *base = fn ? strrchr(fn, '/') : NULL;
        base = base ? base + 1 : fn;
        if (!base || strcmp(base, file) != 0)
            continue;
        const char *sh = cJSON_GetStringValue(skb__jget(im, "shader")), *sc = cJSON_GetStringValue(skb__jget(im, "scene"));
        const char *ds = cJSON_GetStringValue(skb__jget(im, "dataset"));
        /* the harness states the pose in every picture's caption (older
         * results without one fall back to dataset and pose number) */
        const char *ang = cJSON_GetStringValue(skb__jget(im, "caption"));
        char hn[120], scene[120];
        double pose = NAN;
        skb__jnum(skb__jget(im, "pose"), &pose);
        snprintf(scene, sizeof scene, "%s", sc ? sc : "?");
        for (char *c = scene; *c; c++)
            *c = *c == '_' ? ' ' : *c;
        int n = snprintf(buf, len, "%s — %s", sh ? skb__plot_series_name(sh, skb__jget(gpu, "shaders"), hn, sizeof hn) : "?", scene);
        if (n < 0 || (size_t)n >= len)
            return;
        if (ang) {
            snprintf(buf + n, len - (size_t)n, " (%s)", ang);
            return;
        }
        /* a scene named after its model leaves the dataset empty */
        if (ds && *ds)
            n += snprintf(buf + n, len - (size_t)n, " (%s", ds);
        if ((size_t)n < len && isfinite(pose))
            n += snprintf(buf + n, len - (size_t)n, "%spose %.0f", ds && *ds ? ", " : " (", pose);
        if ((size_t)n < len && ((ds && *ds) || isfinite(pose)))
            snprintf(buf + n, len - (size_t)n, ")");
        return;
    }
    snprintf(buf, len, "%s", file);
}

/* the arm's volume or elbow cross-section over twist, one series per method
 * (gpu.json "arm_volume", harness/arm_volume.c); key: "volume_ratio" or
 * "section_area_ratio" */
static void volume_plot(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r,
                        const char *key, const char *what)
{
    const cJSON *av = skb__jget(skb_results_doc(r, "gpu.json"), "arm_volume"), *tw = skb__jget(av, "twist_deg");
    char name[64], title[200], qt[420], lab[200], setup[800];
    snprintf(name, sizeof name, "arm-%s%s", key[0] == 'v' ? "volume" : "section", sfx);
    snprintf(title, sizeof title, "Arm %s over elbow twist, ratio to the rest pose", what);
    if (!cJSON_IsArray(tw)) {
        skb__pl_not_run(rep, name, title, skb_results_doc(r, "gpu.json") ? "gpu.json has no \"arm_volume\"" : "gpu.json not found (gpu not run)");
        return;
    }
    snprintf(lab, sizeof lab, "%s / %s at rest (dimensionless)", what, what);
    snprintf(setup, sizeof setup, "set xlabel 'elbow twist (degrees)'\nset ylabel %s\nset xrange [0:180]\nset xtics 30\n"
             "set offsets 0, 0, graph 0.06, 0\nset arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444'\n",
             skb__pl_gp_quote(qt, sizeof qt, lab));
    if (skb__pl_method_curves(rep, dir, name, title, tw, skb__jget(av, "methods"), key, setup) < 0)
        skb__pl_not_run(rep, name, title, "gpu.json \"arm_volume\" has no method with this series");
}

static void plot_arm_volume(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    volume_plot(rep, dir, sfx, r, "volume_ratio", "volume");
}

static void plot_arm_section(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    volume_plot(rep, dir, sfx, r, "section_area_ratio", "cross-section area");
}

/* ---- GPU times and the compute sweep ---- */

/* gpu.json "compute": sweep rows (vertices, then per method vertices/s at
 * the median and at the quartiles of time); returns the methods written */
static int sweep_dat(const cJSON *c, const char **ser, int max, const char *dir, const char *name)
{
    const cJSON *sw = skb__jget(c, "sweep"), *e, *x;
    int ns = 0;
    cJSON_ArrayForEach(x, skb__jget(cJSON_GetArrayItem(sw, 0), "ms"))
        if (ns < max && x->string)
            ser[ns++] = x->string;
    struct memfile m;
    FILE *f = ns ? skb__pl_mem_open(&m) : NULL;
    if (!f)
        return 0;
    cJSON_ArrayForEach(e, sw) {
        double n = NAN;
        skb__jnum(skb__jget(e, "vertices"), &n);
        skb__pl_fnum(f, n);
        for (int i = 0; i < ns; i++) {
            double ms = NAN, q1 = NAN, q3 = NAN;
            skb__jnum(skb__jget(skb__jget(e, "ms"), ser[i]), &ms);
            skb__jnum(skb__jget(skb__jget(e, "ms_q1"), ser[i]), &q1);
            skb__jnum(skb__jget(skb__jget(e, "ms_q3"), ser[i]), &q3);
            /* the slower quartile of time is the lower one of the rate */
            skb__pl_fnum(f, n / (ms * 1e-3));
            skb__pl_fnum(f, n / (q3 * 1e-3));
            skb__pl_fnum(f, n / (q1 * 1e-3));
        }
        fputc('\n', f);
    }
    return skb__pl_dat_close(&m, dir, name) == 0 ? ns : 0;
}

/* the compute sweep: vertices/s against vertices, log-log, one line per
 * method, and the copy roofline (copy bandwidth / bytes per vertex) for
 * each distinct bytes per vertex of the methods */
static void gpu_sweep_plot(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = skb_results_doc(r, "gpu.json"), *c = skb__jget(doc, "compute");
    const char *ser[MAXSER];
    char name[64], title[200], st[96];
    double copy = NAN;
    snprintf(name, sizeof name, "gpu-sweep%s", sfx);
    snprintf(title, sizeof title, "GPU compute skinning: vertices/s against vertices%s [%.50s]",
             cJSON_IsTrue(skb__jget(c, "software_renderer")) ? " (software renderer: context)" : "", r->machine_key);
    int ns = c ? sweep_dat(c, ser, MAXSER, dir, name) : 0;
    struct body b;
    if (!ns || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, c ? "gpu.json \"compute\" has no sweep" : "gpu.json has no \"compute\"");
        return;
    }
    skb__jnum(skb__jget(c, "copy_bandwidth_GBps"), &copy);
    fprintf(b.f, "set logscale xy\nset xlabel 'vertices skinned per dispatch (log scale)'\n"
                 "set ylabel 'vertices per second (log scale); bars: interquartile range'\nset grid xtics ytics mytics\n");
    fprintf(b.f, "plot ");
    for (int i = 0; i < ns; i++) {
        fprintf(b.f, "%s'%s.dat' using 1:%d:%d:%d with yerrorlines %s ps 1 lw 1.5", i ? ", " : "", name, 2 + 3 * i,
                3 + 3 * i, 4 + 3 * i, skb__pl_series_style(st, sizeof st, i, ns));
        skb__pl_put_title(b.f, ser[i], skb__jget(doc, "shaders"));
    }
    int seen[8], nseen = 0;
    for (int i = 0; i < ns && isfinite(copy) && copy > 0; i++) {
        double bpv = NAN;
        int dup = 0;
        if (skb__jnum(skb__jget(skb__jget(c, "bytes_per_vertex"), ser[i]), &bpv) < 0 || !(bpv > 0))
            continue;
        for (int k = 0; k < nseen; k++)
            dup |= seen[k] == (int)bpv;
        if (dup || nseen >= 8)
            continue;
        seen[nseen++] = (int)bpv;
        fprintf(b.f, ", %.9g with lines dt %d lw 2 lc rgb '#333333' title 'copy roofline, %d B/vertex (%.4g GB/s)'",
                copy * 1e9 / bpv, 2 + nseen, (int)bpv, copy);
    }
    fputc('\n', b.f);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

static void plot_gpu(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    char name[64], name2[64], what[160];
    const cJSON *doc = skb_results_doc(r, "gpu.json");
    int soft = cJSON_IsTrue(skb__jget(doc, "software_renderer"));
    snprintf(name, sizeof name, "gpu-times%s", sfx);
    snprintf(name2, sizeof name2, "gpu-ratio%s", sfx);
    if (!skb__jget(doc, "ms")) {
        const char *why = doc ? "gpu.json has no \"ms\" (skipped?)"
                        : skb_results_err(r, "gpu.json")[0] ? "gpu.json unreadable" : "gpu.json not found (gpu not run)";
        skb__pl_not_run(rep, name, "GPU time per deformation", why);
        return;
    }
    struct tgrid *t = malloc(sizeof *t);
    if (!t)
        return;
    skb__pl_tgrid_fill(t, skb__jget(doc, "ms"), skb__jget(doc, "ms_q1"), skb__jget(doc, "ms_q3"), NULL);
    t->shaders = skb__jget(doc, "shaders");
    const char *ctx = soft ? " (software renderer: context)" : "";
    snprintf(what, sizeof what, "GPU time per deformation%s [%.50s]", ctx, r->machine_key);
    skb__pl_times_plot(rep, dir, name, what, t);
    snprintf(what, sizeof what, "GPU time / LBS%s [%.50s]", ctx, r->machine_key);
    skb__pl_ratio_plot(rep, dir, name2, what, t, skb_method_role_name(SKB_MF_RATIO_REF), NULL, NULL);   /* LBS's shader */
    free(t);
    gpu_sweep_plot(rep, dir, sfx, r);
}

/* ---- nightly gate: the shaders' instruction counts stay exact ---- */

static void gate_gpu(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    const cJSON *gi = skb__jget(skb_results_doc(base, "gpu.json"), "instructions"), *b = skb_results_doc(cur, "gpu.json");
    if (gi && b)
        skb_gate_exact_tree(g, "gpu.json", "instructions", gi, skb__jget(b, "instructions"), "shader instruction count");
}

/* ---- the experiment: run half harness/exp_gpu.c ---- */

const struct skb_experiment_desc skb_desc_gpu = {
    .run = &skb_exp_gpu,
    .files = (const struct skb_result_file[]){
        { "gpu.json", 1, NULL, "shaders/*/cpu_method", &skb_schema_gpu }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "fig19", SKB_NEED_SHADER, section_fig19, NULL }, { "gpu", SKB_NEED_SHADER, section_gpu_times, NULL },
        { "arm_volume", SKB_NEED_SKIN, section_arm_volume, NULL }, { "heat_map", SKB_NEED_SKIN, section_heat_map, NULL },
        { NULL, 0, NULL, NULL } },
    .plots = (const struct skb_report_plot[]){
        /* stem "gpu": plot_gpu writes gpu-times and gpu-ratio */
        { "gpu", SKB_NEED_SHADER, plot_gpu }, { "arm-volume", SKB_NEED_SKIN, plot_arm_volume },
        { "arm-section", SKB_NEED_SKIN, plot_arm_section }, { NULL, 0, NULL } },
    .gate = gate_gpu,
};
