/* exp_cd.c — the `cd` experiment's report half (run half: harness/exp_cd.c;
 * cd.json's table of fields: harness/exp_cd_schema.c): collision detection
 * on demand against bottom-up, thesis Table 5.3 (subdivision scaling) and
 * the scenarios of thesis Table 6.2 / seed 002 Table 2, and the scaling plot
 * (Table 5.3 overlaid).  Rows judged against reports/reference.json; the
 * gnuplot core: plots.c. */
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
#include "skb_label.h"
#include "skb_method.h"
#include "skb_report.h"
#include "plots_internal.h"
#include "skb_run.h"

/* ---- collision detection: Table 5.3 and Table 6.2 ---- */

static int scaling_free(const cJSON *x)
{
    const char *pose = skb__jstr(skb__jget(x, "pose"));
    return cJSON_IsFalse(skb__jget(x, "colliding")) || (pose && (strstr(pose, "free") || strstr(pose, "apart")));
}

/* one point of a scaling series: the colliding / collision-free sub-object
 * when cd.json has them, else the entry itself (flagged by "colliding":
 * false or a "pose" naming a free pose) */
static const cJSON *scaling_point(const cJSON *x, int free_pose)
{
    const cJSON *sub = skb__jget(x, free_pose ? "collision_free" : "colliding");
    if (cJSON_IsObject(sub))
        return sub;
    if (skb__jget(x, "collision_free") || cJSON_IsObject(skb__jget(x, "colliding")))
        return NULL;
    return scaling_free(x) == free_pose ? x : NULL;
}

/* the measured columns of one scaling point: level, triangles and spheres
 * from the entry x, times, sphere tests and speed-up from its point pt */
struct scale_cols { double lv, tri, sph, od, bu, sod, sbu, sp; struct skb_paired p; int paired; };

/* the speed-up bottom-up / on demand of a point or scenario entry, timed
 * pair by pair (cd.json ...paired.rows) */
static int cd_speedup(const cJSON *o, struct skb_paired *p)
{
    return skb__paired_read(skb__paired_find(skb__jget(skb__jget(o, "paired"), "rows"), "bottom_up", "on_demand", NULL), p);
}

static void scale_cols_read(const cJSON *x, const cJSON *pt, struct scale_cols *c)
{
    *c = (struct scale_cols){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, { NAN, NAN, NAN, NAN, 0 }, 0 };
    skb__jnum(skb__jget(x, "level"), &c->lv);
    skb__jnum(skb__jget(x, "triangles"), &c->tri);
    skb__jnum(skb__jget(x, "spheres"), &c->sph);
    skb__jnum(skb__jget(pt, "on_demand_ms"), &c->od);
    skb__jnum(skb__jget(pt, "bottom_up_ms"), &c->bu);
    skb__jnum(skb__jget(pt, "sphere_tests_on_demand"), &c->sod);
    skb__jnum(skb__jget(pt, "sphere_tests_bottom_up"), &c->sbu);
    c->paired = cd_speedup(pt, &c->p) == 0;
    c->sp = c->paired ? c->p.ratio : NAN;   /* the medians' ratio is not shown: one number per ratio */
}

/* the skinned creature's colliding series beside the rigid one (cd.json
 * "scaling_skinned"): context, not judged (the thesis's dwarf is rigid) */
static void skinned_context_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, skb__jget(doc, "scaling_skinned")) {
        const cJSON *pt = scaling_point(x, 0);
        struct scale_cols c;
        if (!pt)
            continue;
        scale_cols_read(x, pt, &c);
        skb__row_add(rep, t, k, SKB_ROW_CONTEXT,
                     skb__fmt("the same model skinned (%s): context, not judged — the thesis's dwarf is rigid",
                              skb__jstr(skb__jget(skb__jget(doc, "scaling_skinned_setup"), "model")) ?
                              skb__jstr(skb__jget(skb__jget(doc, "scaling_skinned_setup"), "model")) : "?"),
                     strdup("colliding, skinned"), skb__fmt("%.0f", c.lv), skb__numtxt(c.tri), skb__numtxt(c.sph),
                     skb__numtxt(c.od), skb__numtxt(c.bu), skb__numtxt(c.sod), skb__numtxt(c.sbu), skb__numtxt(c.sp),
                     strdup("—"), NULL);
    }
}

/* the driver of a Table 5.3 row, with its arithmetic: how many of
 * bottom-up's sphere tests on demand still made, here and in the paper
 * (colliding pose; the paper gives no counts for the collision-free one).
 * First order, on-demand time taken as proportional to its tests: with the
 * paper's proportion the speed-up would be sp x (here / paper); when that
 * lands in the band, the placement (how far the models interpenetrate,
 * which the thesis does not give) accounts for the gap */
static char *table53_driver(const cJSON *sec, const struct scale_cols *c, const struct skb_verdict *v, int pass, int lvi,
                            double off)
{
    double po = NAN, pb = NAN;
    char b1[32];
    if (pass || lvi < 0 || skb__jnum(cJSON_GetArrayItem(skb__jget(sec, "sphere_tests_on_demand"), lvi), &po) < 0
        || skb__jnum(cJSON_GetArrayItem(skb__jget(sec, "sphere_tests_bottom_up"), lvi), &pb) < 0 || !(pb > 0)
        || !(c->sbu > 0) || !(po > 0))
        return skb__fmt("placement: %s root radii apart here (the thesis gives neither its placement nor, for this "
                        "pose, its sphere-test counts): no driver value accounts for a gap", skb__num4(b1, off));
    double here = c->sod / c->sbu, paper = po / pb, adj = c->sp * here / paper;
    int in = adj >= v->band_lo && adj <= v->band_hi;
    return skb__fmt("driver: sphere tests on demand / bottom-up %.0f / %.0f = %.3g here (placement %s root radii "
                    "apart), %.0f / %.0f = %.3g in the paper; on-demand time taken as proportional to its tests, the "
                    "paper's proportion gives %.3g x %.3g / %.3g = %.3g, %s the band [%.4g, %.4g]: %s", c->sod, c->sbu,
                    here, skb__num4(b1, off), po, pb, paper, c->sp, here, paper, adj, in ? "inside" : "outside",
                    v->band_lo, v->band_hi, in ? "the sphere-test proportion accounts for the gap"
                                               : "the sphere-test proportion does not account for the gap");
}

/* one level of a scaling series: the speed-up on the paper's side of 1 and
 * within the rule's factor of the paper's (order_factor); the distance
 * between the two models, which the thesis does not give, sets how much
 * on-demand can skip */
static void table53_level(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *sec, const cJSON *x,
                          const cJSON *pt, const struct scale_cols *c, int pass, int lvi)
{
    double psp = NAN, pod = NAN, pbu = NAN, off = NAN;
    const char *pkey = pass ? "speedup_collision_free" : "speedup";
    skb__jnum(cJSON_GetArrayItem(skb__jget(sec, pkey), lvi), &psp);
    skb__jnum(cJSON_GetArrayItem(skb__jget(sec, "on_demand_ms"), lvi), &pod);
    skb__jnum(cJSON_GetArrayItem(skb__jget(sec, "bottom_up_ms"), lvi), &pbu);
    skb__jnum(skb__jget(pt, "offset_root_radii"), &off);
    if (!isfinite(off))
        skb__jnum(skb__jget(skb__jget(x, pass ? "collision_free" : "colliding"), "offset_root_radii"), &off);
    char *note = pass ? strdup("the paper gives speed-ups only") : isfinite(pod)
                 ? skb__fmt("paper: %.4g ms on-demand, %.4g ms bottom-up (context)", pod, pbu)
                 : strdup("level beyond the paper's series");
    struct skb_verdict v = { .rule = "" };
    char *cause = NULL;
    int st = SKB_ROW_CONTEXT;
    if (isfinite(psp) && c->paired) {
        char *j = NULL;
        skb__judge_v(skb__jget(sec, "tolerance"), c->sp, psp, NAN, &v, &j);
        skb__judge_paired(rep, &v, &c->p, &j);
        cause = table53_driver(sec, c, &v, pass, lvi, off);
        v.setup = cause && strstr(cause, "accounts for the gap") != NULL;
        st = skb_verdict_status(&v);
        free(j);
        char *both = skb__join_note(skb__verdict_text(&v, st), note);
        free(note);
        note = skb__join_note(both, cause);
    } else if (isfinite(psp)) {
        st = SKB_ROW_NOT_RUN;
        note = skb__join_note(note, "no paired timing of this level in cd.json");
    }
    skb__row_add(rep, t, k, st, note, strdup(pass ? "collision-free" : "colliding"), skb__fmt("%.0f", c->lv),
                 skb__numtxt(c->tri), skb__numtxt(c->sph), skb__numtxt(c->od), skb__numtxt(c->bu), skb__numtxt(c->sod),
                 skb__numtxt(c->sbu), skb__numtxt(c->sp), skb__numtxt(psp), NULL);
    skb__row_verdict(rep, t, &v, cause);
}

/* the colliding (pass 0) or collision-free (pass 1) series: a row per
 * level, then the trend row: the speed-up grows with the level (thesis
 * Table 5.3, Fig. 5.6), judged by "trend" on the smallest step ratio
 * s[i+1] / s[i], each speed-up's interval widened by the cd floor */
static void table53_series(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *sec, const cJSON *doc,
                           int pass)
{
    double prev = NAN, step = INFINITY, plo = NAN, phi = NAN, slo = INFINITY, shi = INFINITY, fmx = NAN;
    int n = 0, undecided = 0;
    const cJSON *series[2] = { skb__jget(doc, "scaling"), pass ? skb__jget(doc, "scaling_collision_free") : NULL }, *x;
    for (int sidx = 0; sidx < 2; sidx++) {
        cJSON_ArrayForEach(x, series[sidx]) {
            const cJSON *pt = sidx ? x : scaling_point(x, pass);
            if (!pt)
                continue;
            struct scale_cols c;
            scale_cols_read(x, pt, &c);
            if (!isfinite(c.sp) && c.od > 0)
                c.sp = c.bu / c.od;
            /* results.c bounds "level" in "scaling"; this series may be the
             * collision-free one: never cast an out-of-range double to int */
            int lvi = c.lv >= 0 && c.lv <= SKB_CD_MAX_LEVEL ? (int)c.lv : -1;
            /* the step's interval: this level's widened interval over the
             * last one's (both from their own pairs and A/A floors) */
            struct skb_verdict w;
            skb_verdict_init(&w, "", 0, c.sp, NAN);
            double f = c.paired ? skb__paired_floor(rep, &c.p) : NAN;
            skb_verdict_paired(&w, c.p.lo, c.p.hi, f);
            if (!isfinite(f) || !isfinite(w.lo))
                undecided = 1;
            fmx = isnan(fmx) ? f : fmax(fmx, f);
            if (n++ > 0 && prev > 0 && c.sp / prev < step) {
                step = c.sp / prev;
                slo = w.lo / phi;
                shi = w.hi / plo;
            }
            prev = c.sp;
            plo = w.lo;
            phi = w.hi;
            table53_level(rep, t, k, sec, x, pt, &c, pass, lvi);
        }
    }
    const cJSON *setup = skb__jget(doc, "scaling_setup");
    const char *skinning = skb__jstr(skb__jget(setup, "skinning")), *model = skb__jstr(skb__jget(setup, "model"));
    struct skb_verdict v = { .rule = "" };
    int st = SKB_ROW_NOT_RUN;
    char *tn;
    if (n < 2 || !isfinite(step)) {
        tn = skb__fmt("%s series has %d level(s); need 2 to see a trend", pass ? "collision-free" : "colliding", n);
    } else {
        double gap = 0;
        skb__jnum(skb__jget(skb__jget(sec, "trend"), "value"), &gap);
        skb_verdict_init(&v, "trend", gap, step, 1);
        skb_rule_band(&v);
        /* a step ratio of two paired speed-ups: their widened intervals bound it */
        v.lo = undecided ? 0 : slo;
        v.hi = undecided ? INFINITY : shi;
        v.floor = fmx;   /* the levels' floors, each in its own interval */
        st = skb_verdict_status(&v);
        char *vt = skb__verdict_text(&v, st);
        tn = skb__fmt("speed-up %s with the subdivision level (smallest step s[i+1] / s[i] = %.3g); %s",
                      step > 1 ? "grows" : "does NOT grow", step, vt);
        free(vt);
    }
    if (skinning) {   /* which model and skinning the series measured */
        char *vn = skb__fmt("%s, %s", model ? model : "model not recorded", skinning);
        char *joined = skb__join_note(vn, tn);
        free(tn);
        tn = joined;
    }
    skb__row_add(rep, t, k, st, tn, strdup(pass ? "collision-free" : "colliding"), strdup("trend"), strdup(""),
                 strdup(""), strdup(""), strdup(""), strdup(""), strdup(""),
                 strdup(n >= 2 ? (step > 1 ? "increasing" : "not increasing") : "—"), strdup("increasing"), NULL);
    skb__row_verdict(rep, t, &v, st == SKB_ROW_DIFFERS ? skb__fmt("the speed-up does not grow: smallest step %.3g",
                                                                  step) : NULL);
}

static void section_table53(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "table_5_3");
    static const char *const cols[] = { "pose", "level", "triangles", "spheres", "on-demand ms", "bottom-up ms",
                                        "S-S on-demand", "S-S bottom-up", "speed-up", "paper speed-up", NULL };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    struct skb_rtable *t = skb__tbl_new(rep, "table53", "Thesis Table 5.3: CD scaling with subdivision", src, skb__tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "cd.json");
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "cd.json"), strdup("—"), NULL);
            continue;
        }
        for (int pass = 0; pass < 2; pass++)
            table53_series(rep, t, k, sec, doc, pass);
        skinned_context_rows(rep, t, k, doc);
    }
}

static int name_matches(const char *name, const cJSON *match)
{
    const cJSON *alt;
    char low[256];
    size_t i;
    for (i = 0; name[i] && i < sizeof low - 1; i++)
        low[i] = (char)((name[i] >= 'A' && name[i] <= 'Z') ? name[i] + 32 : name[i]);
    low[i] = 0;
    cJSON_ArrayForEach(alt, match) {
        const cJSON *tok;
        int all = 1;
        cJSON_ArrayForEach(tok, alt) all &= skb__jstr(tok) && strstr(low, tok->valuestring) != NULL;
        if (all)
            return 1;
    }
    return 0;
}

/* the paper scenario a measured one stands for: same id, else its tokens */
static const cJSON *paper_scenario(const cJSON *sec, const char *name, int *index)
{
    const cJSON *e;
    int i = 0;
    cJSON_ArrayForEach(e, skb__jget(sec, "scenarios")) {
        if (strcmp(skb__ref_str(e, "id"), name) == 0) {
            *index = i;
            return e;
        }
        i++;
    }
    i = 0;
    cJSON_ArrayForEach(e, skb__jget(sec, "scenarios")) {
        if (name_matches(name, skb__jget(e, "match"))) {
            *index = i;
            return e;
        }
        i++;
    }
    return NULL;
}

/* append "; <formatted>" to *n */
static void note_add(char **n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_add(char **n, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    *n = skb__join_note(*n, buf);
}

/* spheres.json's per-sphere refit cost of a method on a model (µs) */
static double refit_us(const cJSON *spheres, const char *model, const char *method, const char *key)
{
    double us = NAN;
    if (model)
        skb__jnum(skb__jget(skb__jget(skb__jget(skb__jget(skb__jget(spheres, "datasets"), model), "refit_time"), method), key), &us);
    return us;
}

/* what SBS did for its centres on this model (spheres.json sbs_centres,
 * methods/sb.c): trivial joint sets take the joint (seed 003 section 4, no
 * SVD), the others the SVD least-squares centre, cut where it would leave a
 * bound around the set; the refit (Alg. 6.1) bounds each sphere about
 * these centres.  Facts of the run only, no cause is asserted. */
static void sbs_centres_note(char **n, const cJSON *spheres, const char *model, const char *method)
{
    const cJSON *c = model ? skb__jget(skb__jget(skb__jget(spheres, "datasets"), model), "sbs_centres") : NULL;
    double sets, tmin, tmax, smax, reg, bound, off, poses;
    if (!c || strcmp(method, skb_method_role_name(SKB_MF_ROT_CENTERS)) != 0 || skb__jnum(skb__jget(c, "joint_sets"), &sets) < 0
        || skb__jnum(skb__jget(c, "trivial_min"), &tmin) < 0 || skb__jnum(skb__jget(c, "trivial_max"), &tmax) < 0
        || skb__jnum(skb__jget(c, "solved_max"), &smax) < 0 || skb__jnum(skb__jget(c, "regularised_max"), &reg) < 0
        || skb__jnum(skb__jget(c, "centre_bound_extents"), &bound) < 0
        || skb__jnum(skb__jget(c, "centre_offset_max_reach"), &off) < 0 || skb__jnum(skb__jget(c, "poses"), &poses) < 0)
        return;
    note_add(n, "SBS centres on %s over %.6g poses (spheres.json): %.6g joint sets, %.6g-%.6g trivial (one joint, or a "
             "parent and child: the child's joint, no SVD), at most %.6g solved by SVD, at most %.6g of those cut by the "
             "bound (centre within %.3g set extents of the set's rest centroid); farthest centre %.3g model reaches from "
             "its set", model, poses, sets, tmin, tmax, smax, reg, bound, off);
}

/* "P of W ms (x %)": a part's share of a whole, given only when it is one
 * (0 <= part <= whole).  A part timed apart from its whole (re-timed after
 * the frame, or another file's estimate) can come out larger than it; then
 * no share is printed, only both figures (a "424 %" refit share
 * came from dividing spheres.json's mean pass time by cd.json's best frame). */
static char *share_text(double part, double whole)
{
    if (!isfinite(part) || !isfinite(whole) || part < 0 || !(whole > 0))
        return strdup("not recorded");
    if (part > whole)
        return skb__fmt("%.3g ms, more than the %.3g ms it is part of (timed apart): no share", part, whole);
    return skb__fmt("%.3g ms (%.0f %%)", part, 100 * part / whole);
}

/* cd.json's time split of one method in one scenario (ms per frame, best
 * of the repeats of each frame), in wall clock and in this thread's CPU time
 * over the same intervals: where each way's time went, how long it waited
 * for a core, and what the split bounds: with an on-demand query no cheaper
 * than bottom-up's, no refit scheme could beat bottom-up / its query alone */
static void time_split_note(char **n, const cJSON *doc, const cJSON *m, double on_ms, double bu_ms, double refitted,
                            double spheres)
{
    double op, oq, orf, osk, bp, bq, oc = NAN, bc = NAN, bpc = NAN, la = NAN, cores = NAN;
    if (skb__jnum(skb__jget(m, "on_demand_prepare_ms"), &op) < 0 || skb__jnum(skb__jget(m, "on_demand_query_ms"), &oq) < 0
        || skb__jnum(skb__jget(m, "bottom_up_prepare_skin_refit_ms"), &bp) < 0
        || skb__jnum(skb__jget(m, "bottom_up_query_ms"), &bq) < 0) {
        note_add(n, "time split not recorded (cd.json without on_demand_query_ms / bottom_up_query_ms)");
        return;
    }
    char *a = share_text(op, on_ms), *b = share_text(oq, on_ms), *c = share_text(bp, bu_ms), *d = share_text(bq, bu_ms);
    note_add(n, "time split per frame (cd.json, wall clock, absolute: best of the repeats): on demand %.3g ms = prepare %s + query with its refits and "
             "skins %s; bottom-up %.3g ms = prepare, skin and refit everything %s + query %s", on_ms, a, b, bu_ms, c, d);
    free(a); free(b); free(c); free(d);
    skb__jnum(skb__jget(m, "on_demand_cpu_ms"), &oc);
    skb__jnum(skb__jget(m, "bottom_up_cpu_ms"), &bc);
    skb__jnum(skb__jget(m, "bottom_up_prepare_skin_refit_cpu_ms"), &bpc);
    skb__jnum(skb__jget(skb__jget(doc, "load_average_at_start"), "one_minute"), &la);
    skb__jnum(skb__jget(skb__jget(doc, "load_average_at_start"), "online_cores"), &cores);
    if (oc > 0 && bc > 0) {
        a = share_text(bpc, bc);
        char b1[32], b2[32];
        note_add(n, "thread CPU time of the same frames (absolute): on demand %.3g ms (waited for a core %.3g ms), "
                 "bottom-up %.3g ms (waited %.3g ms; prepare, skin and refit everything %s of its CPU time; load average "
                 "%s on %s cores at the start of the run)", oc, fmax(0, on_ms - oc), bc, fmax(0, bu_ms - bc), a,
                 skb__num4(b1, la), skb__num4(b2, cores));
        free(a);
        if (skb__jnum(skb__jget(m, "on_demand_refit_cpu_ms_retimed"), &orf) == 0
            && skb__jnum(skb__jget(m, "on_demand_skin_cpu_ms_retimed"), &osk) == 0) {
            a = share_text(orf, oc);
            b = share_text(osk, oc);
            note_add(n, "on-demand's refits re-timed after the query (CPU, warm) %s of its CPU time, its vertex skins %s", a, b);
            free(a); free(b);
            if (refitted > 0 && spheres > 0 && bpc > 0)
                note_add(n, "CPU time per sphere: %.3g µs per on-demand refit, %.3g µs per sphere for bottom-up's prepare, "
                         "skin and refit of everything (x%.3g)", 1e3 * orf / refitted, 1e3 * bpc / spheres,
                         (orf / refitted) / (bpc / spheres));
        }
        if (bpc >= 0 && bpc < bc)
            note_add(n, "bottom-up's query alone is %.3g ms of CPU time, so with a query no cheaper than bottom-up's on "
                     "demand could be at most %.3g x faster in CPU time", bc - bpc, bc / (bc - bpc));
    } else if (bq > 0 && bq <= bu_ms) {
        note_add(n, "bottom-up's query alone is %.3g ms, so with a query no cheaper than bottom-up's on demand could be at "
                 "most %.3g x faster", bq, bu_ms / bq);
    }
}

/* the work behind a scenario's times, as cd.json counted and timed it:
 * the evidence for why on-demand wins or loses, never a guess */
static char *scenario_work_note(const cJSON *doc, const cJSON *x, const cJSON *m, const char *method,
                                const cJSON *spheres, double on_ms, double bu_ms)
{
    double on, bu, rf, pairs, spb = NAN, bodies = NAN, vo, vb, reach, med;
    char *n = NULL;
    if (skb__jnum(skb__jget(m, "sphere_tests_on_demand"), &on) < 0 || skb__jnum(skb__jget(m, "sphere_tests_bottom_up"), &bu) < 0)
        return NULL;
    skb__jnum(skb__jget(x, "spheres_per_body"), &spb);
    skb__jnum(skb__jget(x, "bodies"), &bodies);
    if (skb__jnum(skb__jget(m, "colliding_pairs"), &pairs) == 0)
        note_add(&n, "colliding triangle pairs per frame: %.6g", pairs);
    note_add(&n, "sphere-sphere tests per frame: %.6g on demand, %.6g bottom-up (%.0f %%)", on, bu,
             bu > 0 ? 100 * on / bu : NAN);
    if (skb__jnum(skb__jget(m, "spheres_refitted_on_demand"), &rf) == 0) {
        if (spb > 0 && bodies > 0)
            note_add(&n, "%.6g spheres refitted on demand of %.6g (%.0f %%)", rf, spb * bodies, 100 * rf / (spb * bodies));
        else
            note_add(&n, "%.6g spheres refitted on demand", rf);
    }
    if (on_ms > 0 && bu_ms > 0)
        time_split_note(&n, doc, m, on_ms, bu_ms, skb__jnum(skb__jget(m, "spheres_refitted_on_demand"), &rf) == 0 ? rf : NAN,
                        spb * bodies);
    if (skb__jnum(skb__jget(m, "vertices_skinned_on_demand"), &vo) == 0 && skb__jnum(skb__jget(m, "vertices_skinned_bottom_up"), &vb) == 0)
        note_add(&n, "vertices skinned: %.6g on demand, %.6g bottom-up", vo, vb);
    sbs_centres_note(&n, spheres, skb__jstr(skb__jget(x, "model")), method);
    if (skb__jnum(skb__jget(m, "rotation_centre_reach_median"), &med) == 0 && skb__jnum(skb__jget(m, "rotation_centre_reach_max"), &reach) == 0)
        note_add(&n, "farthest rotation centre per pose: median %.3g, max %.3g x the model's reach from the origin (cd.json)",
                 med, reach);
    return n;
}

/* why on-demand lost, from the counts above only: how much of bottom-up's
 * work it still did, and what each of its refits cost against bottom-up's
 * (both per-sphere costs from spheres.json, timed the same way) */
static char *slower_note(const cJSON *x, const cJSON *m, const char *method, const cJSON *spheres, double sp)
{
    double on, bu;
    if (!(sp < 1) || skb__jnum(skb__jget(m, "sphere_tests_on_demand"), &on) < 0 ||
        skb__jnum(skb__jget(m, "sphere_tests_bottom_up"), &bu) < 0 || !(bu > 0))
        return NULL;
    const char *model = skb__jstr(skb__jget(x, "model"));
    double uo = refit_us(spheres, model, method, "on_demand_us_per_sphere");
    double ub = refit_us(spheres, model, method, "bottom_up_us_per_sphere");
    /* cd.json's own CPU time per refitted sphere (time_split_note) is the
     * better figure: spheres.json's averages every sphere of the tree */
    if (isfinite(uo) && ub > 0 && !skb__jget(m, "on_demand_refit_cpu_ms_retimed"))
        return skb__fmt("on-demand was %.3g x slower (paired): it still made %.0f %% of bottom-up's sphere tests, and an "
                 "on-demand %s refit of a sphere cost %.3g x bottom-up's skin-and-refit of all spheres per sphere (%.3g vs "
                 "%.3g µs, spheres.json)", 1 / sp, 100 * on / bu, method, uo / ub, uo, ub);
    return skb__fmt("on-demand was %.3g x slower (paired): it still made %.0f %% of bottom-up's sphere tests", 1 / sp,
                    100 * on / bu);
}

/* the driver of a Table 6.2 row: the CPU time of one on-demand refit
 * against one sphere-sphere test's share of bottom-up's query, on this CPU */
static char *refit_cost_driver(const cJSON *m, const cJSON *doc)
{
    double orf = NAN, rf = NAN, bc = NAN, bpc = NAN, bu = NAN;
    skb__jnum(skb__jget(m, "on_demand_refit_cpu_ms_retimed"), &orf);
    skb__jnum(skb__jget(m, "spheres_refitted_on_demand"), &rf);
    skb__jnum(skb__jget(m, "bottom_up_cpu_ms"), &bc);
    skb__jnum(skb__jget(m, "bottom_up_prepare_skin_refit_cpu_ms"), &bpc);
    skb__jnum(skb__jget(m, "sphere_tests_bottom_up"), &bu);
    const char *cpu = skb__jstr(skb__jget(skb__jget(doc, "machine"), "cpu"));
    double refit_us = rf > 0 ? 1e3 * orf / rf : NAN, test_us = bu > 0 ? 1e3 * (bc - bpc) / bu : NAN;
    double times = test_us > 0 ? refit_us / test_us : NAN;
    char b1[32], b2[32], b3[32];
    return skb__fmt("CPU generation: an on-demand refit costs %s µs and a sphere-sphere test %s µs (x%s) on %s "
                    "here; the paper's Athlon 2.5 GHz (2006) gives neither", skb__num4(b1, refit_us),
                    skb__num4(b2, test_us), skb__num4(b3, times), cpu ? cpu : "this CPU");
}

/* Longer than 80 lines, kept whole on purpose: one pass over the scenarios
 * builds both readings of Table 6.2 (centres charged to the query / left to
 * the skinning) side by side; split, the two would have to share every
 * scenario's timing locals. */
static void section_table62(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "table_6_2");
    static const char *const cols[] = { "scenario", "refit", "on-demand ms", "bottom-up ms", "bottom-up / on-demand",
                                        "paper on-demand ms", "paper bottom-up ms", "paper ratio", NULL };
    /* the paper's two refits (thesis 5.3 LBS, 6.5 SBS) by registry name, and
     * the fields of the flat form and of reference.json that hold them */
    const char *lin = skb_method_role_name(SKB_MF_RATIO_REF), *sbn = skb_method_role_name(SKB_MF_ROT_CENTERS);
    const char *const flat[][2] = { { lin, "lbs_ms" }, { sbn, "sbs_ms" } };
    char src[240];
    skb__set_source(src, sizeof src, sec);
    struct skb_rtable *t = skb__tbl_new(rep, "table62", "Thesis Table 6.2 / 002 Table 2: collision queries in scenarios", src,
                                   skb__tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "cd.json");
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "cd.json"), strdup("—"), NULL);
            continue;
        }
        int matched[16] = { 0 };
        const cJSON *x;
        cJSON_ArrayForEach(x, skb__jget(doc, "scenarios")) {
            const char *name = x->string ? x->string : skb__jstr(skb__jget(x, "name"));
            if (!name || !cJSON_IsObject(x))
                continue;
            int pi = -1;
            const cJSON *pe = paper_scenario(sec, name, &pi);
            if (pi >= 0 && pi < 16)
                matched[pi] = 1;
            /* {"methods": {M: {on_demand_ms, bottom_up_ms}}}, or flat lbs_ms / sbs_ms / bottom_up_ms */
            const cJSON *ms = skb__jget(x, "methods"), *m;
            const cJSON *rows[16];
            const char *names[16];
            int nr = 0;
            cJSON_ArrayForEach(m, ms) if (cJSON_IsObject(m)) {
                if (nr == 16) {
                    skb__overflow(rep, "report: cd.json scenario %.80s has more than 16 refit methods "
                                  "(exp_cd.c)", name);
                    break;
                }
                rows[nr] = m;
                names[nr++] = m->string;
            }
            for (int f = 0; !ms && f < 2; f++)
                if (skb__jget(x, flat[f][1])) {
                    rows[nr] = x;
                    names[nr++] = flat[f][0];
                }
            for (int r = 0; r < nr; r++) {
                double on = NAN, bu = NAN, pon = NAN, pbu = NAN;
                if (rows[r] == x)
                    skb__jnum(skb__jget(x, strcmp(names[r], lin) ? "sbs_ms" : "lbs_ms"), &on);
                else
                    skb__jnum(skb__jget(rows[r], "on_demand_ms"), &on);
                if (skb__jnum(skb__jget(rows[r], "bottom_up_ms"), &bu) < 0)
                    skb__jnum(skb__jget(x, "bottom_up_ms"), &bu);
                int is_sbs = strcmp(names[r], sbn) == 0, is_lbs = strcmp(names[r], lin) == 0;
                if (is_lbs || is_sbs) {
                    skb__jnum(skb__jget(pe, is_sbs ? "sbs_ms" : "lbs_ms"), &pon);
                    /* 002 Table 2's bottom-up ran on the SBS-deformed model */
                    if (!is_sbs || skb__jnum(skb__jget(pe, "bottom_up_ms_002"), &pbu) < 0)
                        skb__jnum(skb__jget(pe, "bottom_up_ms"), &pbu);
                }
                struct skb_paired pp;
                int paired = cd_speedup(rows[r], &pp) == 0;
                double r_meas = paired ? pp.ratio : NAN, r_pap = pon > 0 ? pbu / pon : NAN;
                char *note = NULL, *cause = NULL;
                struct skb_verdict v = { .rule = "" };
                int st;
                if (!pe || (!is_lbs && !is_sbs)) {
                    st = SKB_ROW_NEW;
                    note = strdup(pe ? "refit method not in the paper" : "no matching paper scenario");
                } else if (!isfinite(r_meas)) {
                    st = SKB_ROW_NOT_RUN;
                    note = strdup("no speed-up timed pair by pair for this row (cd.json ...paired: the paper's "
                                  "refits, LBS's and SBS's, are; a crowd's SBS is not, a pass takes seconds): absolute "
                                  "times only");
                } else if (!isfinite(r_pap)) {
                    st = SKB_ROW_NEW;
                    note = skb__fmt("paper gives no %s time for %s", names[r], skb__ref_str(pe, "title"));
                } else {
                    skb__judge_v(skb__jget(sec, "tolerance"), r_meas, r_pap, NAN, &v, &note);
                    st = skb__judge_paired(rep, &v, &pp, &note);
                    /* what an on-demand refit and a sphere test cost here, stated;
                     * the paper gives neither for its Athlon, so no arithmetic
                     * can tie them to the gap: never "differs (setup)" */
                    note = skb__join_note_take(note, refit_cost_driver(rows[r], skb_results_doc(&rep->runs[k], "cd.json")));
                    char *n2 = skb__fmt("paper scenario: %s", skb__ref_str(pe, "title"));
                    note = skb__join_note(note, n2);
                    free(n2);
                }
                const cJSON *sph = skb_results_doc(&rep->runs[k], "spheres.json");
                char *work = slower_note(x, rows[r], names[r], sph, r_meas);
                note = skb__join_note(note, work);
                free(work);
                work = scenario_work_note(doc, x, rows[r], names[r], sph, on, bu);
                note = skb__join_note(note, work);
                free(work);
                skb__row_add(rep, t, k, st, note, strdup(name), strdup(names[r]), skb__numtxt(on), skb__numtxt(bu), skb__numtxt(r_meas), skb__numtxt(pon),
                        skb__numtxt(pbu), skb__numtxt(r_pap), NULL);
                skb__row_verdict(rep, t, &v, cause);
            }
            skb__report_sbs_centre_rows(rep, t, k, name, x, pe);
        }
        const cJSON *e;
        int ei = 0;
        cJSON_ArrayForEach(e, skb__jget(sec, "scenarios")) {
            if (ei >= 16 || !matched[ei]) {
                double pl = NAN, pb = NAN;
                skb__jnum(skb__jget(e, "lbs_ms"), &pl);
                skb__jnum(skb__jget(e, "bottom_up_ms"), &pb);
                skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__fmt("no scenario in cd.json matches \"%s\"", skb__ref_str(e, "title")),
                        strdup(skb__ref_str(e, "title")), strdup(lin), strdup("—"), strdup("—"), strdup("—"), skb__numtxt(pl),
                        skb__numtxt(pb), pl > 0 ? skb__numtxt(pb / pl) : strdup("—"), NULL);
            }
            ei++;
        }
    }
}

/* ---- collision detection scaling ---- */

/* thesis Table 5.3's speed-ups (colliding and collision-free) at its
 * triangle counts: NAME-paper.dat blocks 0 and 1; the clauses into f, in
 * the colours of the measured speed-up curves (series 2 and 3 of 4) */
static void cd_paper(const struct skb_report *rep, const char *dir, const char *name, FILE *f)
{
    const cJSON *t = skb__jget(rep->ref, "table_5_3");
    static const char *const keys[] = { "speedup", "speedup_collision_free" };
    static const char *const labels[] = { "paper Table 5.3 speed-up (dwarf)", "paper Table 5.3 speed-up, collision-free" };
    struct memfile mf;
    FILE *d = skb__pl_mem_open(&mf);
    char pname[80], lc[40];
    int have[2] = { 0, 0 };
    if (!d)
        return;
    for (int k = 0; k < 2; k++) {
        const cJSON *tri = skb__jget(t, "triangles"), *sp = skb__jget(t, keys[k]);
        for (int j = 0; j < cJSON_GetArraySize(tri) && j < cJSON_GetArraySize(sp); j++) {
            double a = NAN, b = NAN;
            skb__jnum(cJSON_GetArrayItem(tri, j), &a);
            skb__jnum(cJSON_GetArrayItem(sp, j), &b);
            skb__pl_fnum(d, a);
            skb__pl_fnum(d, b);
            fputc('\n', d);
            have[k] = 1;
        }
        fprintf(d, "\n\n");
    }
    snprintf(pname, sizeof pname, "%s-paper", name);
    if (skb__pl_dat_close(&mf, dir, pname) < 0)
        return;
    for (int k = 0; k < 2; k++)
        if (have[k])
            fprintf(f, ", '%s.dat' index %d using 1:2 axes x1y2 with points pt %d ps 1.8 lw 2 %s title '%s'",
                    pname, k, k ? 8 : 6, skb__pl_series_colour(lc, sizeof lc, 2 + k, 4), labels[k]);
}

static void plot_cd(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = skb_results_doc(r, "cd.json"), *x;
    char name[64];
    const char *title = "CD time and speed-up against model size (thesis Table 5.3)";
    snprintf(name, sizeof name, "cd-scaling%s", sfx);
    if (!doc) {
        skb__pl_not_run(rep, name, title, skb_results_err(r, "cd.json")[0] ? "cd.json unreadable" : "cd.json not found (cd not run)");
        return;
    }
    struct memfile mf;
    FILE *f = skb__pl_mem_open(&mf);
    if (!f)
        return;
    int rows = 0, nfree = 0;
    cJSON_ArrayForEach(x, skb__jget(doc, "scaling")) {
        double tri = NAN, od = NAN, bu = NAN, sp = NAN, lv = NAN, spf = NAN;
        const char *pose = cJSON_GetStringValue(skb__jget(x, "pose"));
        if (cJSON_IsFalse(skb__jget(x, "colliding")) || (pose && strstr(pose, "free")))
            continue;
        skb__jnum(skb__jget(x, "level"), &lv);
        if (skb__jnum(skb__jget(x, "triangles"), &tri) < 0)
            tri = lv;
        skb__jnum(skb__jget(x, "on_demand_ms"), &od);
        skb__jnum(skb__jget(x, "bottom_up_ms"), &bu);
        if (skb__jnum(skb__jget(x, "speedup"), &sp) < 0 && od > 0)
            sp = bu / od;
        skb__pl_fnum(f, tri > 0 ? tri : NAN);
        skb__pl_fnum(f, od > 0 ? od : NAN);
        skb__pl_fnum(f, bu > 0 ? bu : NAN);
        skb__pl_fnum(f, sp > 0 ? sp : NAN);
        /* cd.json may carry the collision-free pose of the same level */
        skb__jnum(skb__jget(skb__jget(x, "collision_free"), "speedup"), &spf);
        skb__pl_fnum(f, spf > 0 ? spf : NAN);
        nfree += spf > 0;
        fputc('\n', f);
        rows++;
    }
    struct body b;
    if (skb__pl_dat_close(&mf, dir, name) < 0 || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return;
    }
    if (!rows) {
        fclose(b.f);
        free(b.buf);
        skb__pl_not_run(rep, name, title, "cd.json \"scaling\" is empty");
        return;
    }
    char s0[96], s1[96], s2[96], s3[96];
    fprintf(b.f, "set key below\nset logscale xy\nset logscale y2\nset xlabel 'triangles (log scale)'\nset ylabel 'time per CD query (ms, log scale)'\n"
                 "set y2label 'speed-up = bottom-up time / on-demand time (log scale)'\nset y2tics\nset ytics nomirror\n"
                 "plot '%s.dat' using 1:2 with linespoints lw 2 %s title 'on-demand (ms)', "
                 "'%s.dat' using 1:3 with linespoints lw 2 %s title 'bottom-up (ms)', "
                 "'%s.dat' using 1:4 axes x1y2 with linespoints lw 2 dt 2 %s title 'speed-up'",
            name, skb__pl_series_style(s0, sizeof s0, 0, 4), name, skb__pl_series_style(s1, sizeof s1, 1, 4), name,
            skb__pl_series_style(s2, sizeof s2, 2, 4));
    if (nfree)
        fprintf(b.f, ", '%s.dat' using 1:5 axes x1y2 with linespoints lw 2 dt 3 %s title 'speed-up, collision-free pose'",
                name, skb__pl_series_style(s3, sizeof s3, 3, 4));
    cd_paper(rep, dir, name, b.f);
    fputc('\n', b.f);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

/* ---- the experiment: run half harness/exp_cd.c ---- */

const struct skb_experiment_desc skb_desc_cd = {
    .run = &skb_exp_cd,
    .files = (const struct skb_result_file[]){
        { "cd.json", 1, NULL, "scenarios/*/methods/*", &skb_schema_cd }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "table53", SKB_NEED_NONE, section_table53, NULL }, { "table62", SKB_NEED_REFIT, section_table62, NULL },
        { NULL, 0, NULL, NULL } },
    .plots = (const struct skb_report_plot[]){ { "cd-scaling", SKB_NEED_NONE, plot_cd }, { NULL, 0, NULL } },
};
