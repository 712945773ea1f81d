/* report_gpu.c — GPU: Figure 19 shader instruction counts and GPU time ratios.
 * Part of the report model (report.c); rows judged against reports/reference.json. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"

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
        if (e && strcmp(e->string, "linear") == 0 && skb__jnum(x, &v) == 0)
            return v;
    }
    return NAN;
}

void skb__report_fig19(struct skb_report *rep)
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
        skb__jnum(skb__jget(skb__jget(skb__jget(sec, "shaders"), "linear"), "instructions"), &plbs);
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
            } else if (strcmp(e->string, "linear") == 0) {
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
 * paper's 2008 GPU, not a reproduction attempt (issue 17) */
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

void skb__report_gpu_times(struct skb_report *rep)
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
        const cJSON *d;
        cJSON_ArrayForEach(d, ms) {
            double lbs = gpu_lbs(d, s19);
            const cJSON *x;
            cJSON_ArrayForEach(x, d) {
                double v = NAN;
                skb__jnum(x, &v);
                const cJSON *e = fig19_entry(s19, x->string);
                int is_lbs = e && strcmp(e->string, "linear") == 0;
                skb__row_add(rep, t, k, is_lbs ? SKB_ROW_CONTEXT : SKB_ROW_NEW,
                        skb__join_note(strdup(is_lbs ? "the reference of the ratios" : "the paper gives no GPU time ratio to LBS"), sw),
                        strdup(d->string), strdup(x->string), skb__numtxt(v), lbs > 0 ? skb__numtxt(v / lbs) : strdup("—"), strdup("—"), NULL);
            }
            const cJSON *pair;
            cJSON_ArrayForEach(pair, skb__jget(sec, "pairs")) {
                const char *other = skb__ref_str(pair, "other");
                double po = NAN, pd = NAN, pr = NAN;
                skb__jnum(skb__jget(pair, "ratio"), &pr);
                int ho = skb__jnum(skb__jget(d, other), &po) == 0, hd = skb__jnum(skb__jget(d, "dlb"), &pd) == 0;
                char *note = NULL;
                struct skb_verdict v = { .rule = "" };
                int st = SKB_ROW_NOT_RUN;
                if (ho && hd && pd > 0 && soft) {
                    st = SKB_ROW_CONTEXT;
                    note = skb__fmt("measured − paper = %+.4g; context, not judged, until a hardware renderer runs it", po / pd - pr);
                } else if (ho && hd && pd > 0)
                    st = skb__judge_v(skb__jget(sec, "tolerance"), po / pd, pr, NAN, &v, &note);
                else
                    note = skb__fmt("gpu.json has no %s shader time on %s", ho ? "dlb" : other, d->string);
                char *cn = ho && hd ? cpu_center_note(doc, other, d->string, po, pd) : NULL;
                note = skb__join_note(note, cn);
                free(cn);
                skb__row_add(rep, t, k, st, skb__join_note(note, sw), strdup(d->string), skb__fmt("%s / dlb", other),
                        strdup("—"), ho && hd && pd > 0 ? skb__numtxt(po / pd) : strdup("—"), skb__numtxt(pr), NULL);
                skb__row_verdict(rep, t, &v, NULL);
            }
        }
    }
}

/* ---- spheres: Tables 5.2 and 6.1 ---- */

/* reference.json spheres.trivial_band: how close to 1 a ratio is "~1" */
