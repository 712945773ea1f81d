/* exp_artifacts.c — the `artifacts` experiment's report half and descriptor
 * (run half and results table: harness/exp_artifacts.c): one table per
 * artifact, per method of artifacts.json, its curves and its gate.  The papers
 * print none of these numbers, so every row is "new" except the flip of DQS
 * (our dlb), which DQ paper Fig. 20 shows: that row is judged against
 * reports/reference.json "figure_20".  Its nightly gate: the descriptor's .gate below. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_internal.h"
#include "plots_internal.h"
#include "skb_artifacts.h"
#include "skb_json.h"
#include "skb_method.h"
#include "skb_results.h"

#define ART "artifacts.json"

/* value of series `key` of method m where the scene's `xkey` array equals x */
static double at(const cJSON *scene, const char *xkey, const cJSON *m, const char *key, double x)
{
    const cJSON *xs = skb__jget(scene, xkey);
    for (int i = 0; i < cJSON_GetArraySize(xs); i++) {
        double a = NAN, y = NAN;
        if (skb__jnum(cJSON_GetArrayItem(xs, i), &a) == 0 && fabs(a - x) < 1e-9
            && skb__jnum(cJSON_GetArrayItem(skb__jget(m, key), i), &y) == 0)
            return y;
    }
    return NAN;
}

static char *num(double x)
{
    return isfinite(x) ? skb__fmt("%.4g", x) : strdup("—");
}

/* the largest element of method m's array `key` */
static double series_max(const cJSON *m, const char *key)
{
    const cJSON *e;
    double worst = NAN;
    cJSON_ArrayForEach(e, skb__jget(m, key)) {
        double y = NAN;
        if (skb__jnum(e, &y) == 0 && (isnan(worst) || y > worst))
            worst = y;
    }
    return worst;
}

/* the scene's name as a cell where the table has a "scene" column, else NULL
 * (which ends the row's cells) */
static char *scene_cell(const struct skb_report *rep, const struct skb_rtable *t, const char *sn)
{
    int c = rep->nruns > 1 ? 2 : 1;
    return c < t->ncols && strcmp(t->col[c], "scene") == 0 ? strdup(sn) : NULL;
}

/* one row of a per-method table: method m of scene (named) in run k */
typedef void (*row_fn)(struct skb_report *rep, struct skb_rtable *t, int k, const char *scene_name,
                       const cJSON *scene, const cJSON *m);

/* a method without a number: not applicable when its hooks rule the table
 * out (no skin path, no f32 kernel), else not run */
static int row_status(const char *name, int need)
{
    const struct skb_method *m = skb_method_find(name);
    return m && skb_method_absent_reason(m, need, NULL) ? SKB_ROW_NA : SKB_ROW_NOT_RUN;
}

/* every method of scene `scene_name` in every run: a "not run" row for the
 * file or the scene missing (the arm only: the other scenes are full runs'),
 * for a method that did not run, else fn's row */
static void method_rows(struct skb_report *rep, struct skb_rtable *t, const char *scene_name, int need, row_fn fn)
{
    for (int k = 0; k < rep->nruns && t; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], ART), *sc = skb__jget(doc, scene_name), *m;
        const char *why = skb__jstr(skb__jget(sc, "not_run"));
        if (!doc || !sc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, doc ? skb__fmt("%s has no \"%s\" (the body and clip scenes "
                         "run in full runs, not under --quick)", ART, scene_name)
                         : skb__missing_note(&rep->runs[k], ART), strdup("all"), scene_cell(rep, t, scene_name), NULL);
            continue;
        }
        if (why) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, strdup(why), strdup("all"), scene_cell(rep, t, scene_name), NULL);
            continue;
        }
        cJSON_ArrayForEach(m, skb__jget(sc, "methods")) {
            const char *mw = skb__jstr(skb__jget(m, "not_run"));
            if (!m->string)
                continue;
            if (mw)
                skb__row_add(rep, t, k, row_status(m->string, need), strdup(mw), strdup(m->string),
                             scene_cell(rep, t, scene_name), NULL);
            else
                fn(rep, t, k, scene_name, sc, m);
        }
    }
}

/* ---- candy wrapper ---- */

static void candy_row(struct skb_report *rep, struct skb_rtable *t, int k, const char *sn, const cJSON *sc,
                      const cJSON *m)
{
    skb__row_add(rep, t, k, SKB_ROW_NEW, NULL, strdup(m->string), strdup(sn),
                 num(at(sc, "twist_deg", m, "section_area_ratio", 90)),
                 num(at(sc, "twist_deg", m, "section_area_ratio", 135)),
                 num(at(sc, "twist_deg", m, "section_area_ratio", 180)), NULL);
}

static void report_candy(struct skb_report *rep)
{
    static const char *const cols[] = { "method", "scene", "area 90°", "area 135°", "area 180°", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "artifacts_candy", "Candy wrapper: elbow cross-section area / rest over twist",
        "thesis 2.2.1 Fig. 2.5, DQ paper Fig. 2 (pictures only)",
        skb__fmt("The arm's elbow twisted about the bone axis; the elbow ring's vector area over the rest pose's "
                 "(harness/arm_volume.c). LBS collapses the ring (the candy wrapper); rigid blends keep it. "
                 "Curve: plot artifacts-section. No paper prints these numbers: new."), cols);
    method_rows(rep, t, "arm", SKB_NEED_SKIN, candy_row);
}

/* ---- joint bulge ---- */

static void bulge_row(struct skb_report *rep, struct skb_rtable *t, int k, const char *sn, const cJSON *sc,
                      const cJSON *m)
{
    double n2 = NAN, n3 = NAN;
    char *note = NULL;
    /* the body's hip: the same bulge over the vertices on the hip and its
     * parent alone and over those a third joint weighs on */
    if (skb__jnum(skb__jget(sc, "vertices_joint_and_parent"), &n2) == 0
        && skb__jnum(skb__jget(sc, "vertices_other_joints"), &n3) == 0)
        note = skb__fmt("at 120°: %.3g over the %.0f vertices on the hip and its parent alone, %.3g over the %.0f a "
                        "third joint also weighs on", at(sc, "bend_deg", m, "bulge_joint_and_parent", 120), n2,
                        at(sc, "bend_deg", m, "bulge_other_joints", 120), n3);
    skb__row_add(rep, t, k, SKB_ROW_NEW, note, strdup(m->string), strdup(sn), num(at(sc, "bend_deg", m, "bulge", 60)),
                 num(at(sc, "bend_deg", m, "bulge", 90)), num(at(sc, "bend_deg", m, "bulge", 120)), NULL);
}

static void report_bulge(struct skb_report *rep)
{
    static const char *const cols[] = { "method", "scene", "bulge 60°", "bulge 90°", "bulge 120°", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "artifacts_bulge", "Joint bulge at 60°, 90°, 120° bends, in limb radii",
        "Le & Hodgins 2016 (the bulge of DQS at bent joints; no number printed)",
        skb__fmt("The largest outward growth, over the vertices weighted on the bent joint or its parent, of a "
                 "vertex's distance to the nearer of the two bone rays leaving the joint (each moved rigidly by its "
                 "bone), posed minus rest, over the limb radius: 0 for a union of rigid limbs, negative when every "
                 "vertex moved inwards (LBS's collapse). Scenes: the arm's elbow, the body's hip (full runs). Curve: "
                 "plot artifacts-bulge. New."), cols);
    method_rows(rep, t, "arm", SKB_NEED_SKIN, bulge_row);
    method_rows(rep, t, "body", SKB_NEED_SKIN, bulge_row);
}

/* ---- volume ---- */

static void volume_row(struct skb_report *rep, struct skb_rtable *t, int k, const char *sn, const cJSON *sc,
                       const cJSON *m)
{
    if (strcmp(sn, "arm") == 0)
        skb__row_add(rep, t, k, SKB_ROW_NEW, NULL, strdup(m->string), strdup(sn),
                     num(at(sc, "twist_deg", m, "volume_ratio_twist", 90)),
                     num(at(sc, "twist_deg", m, "volume_ratio_twist", 180)),
                     num(at(sc, "bend_deg", m, "volume_ratio_bend", 90)),
                     num(at(sc, "bend_deg", m, "volume_ratio_bend", 150)), NULL);
    else
        skb__row_add(rep, t, k, SKB_ROW_NEW, NULL, strdup(m->string), strdup(sn), strdup("—"), strdup("—"),
                     num(at(sc, "bend_deg", m, "volume_ratio", 90)), num(at(sc, "bend_deg", m, "volume_ratio", 150)),
                     NULL);
}

static void report_volume(struct skb_report *rep)
{
    static const char *const cols[] = { "method", "scene", "twist 90°", "twist 180°", "bend 90°", "bend 150°", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "artifacts_volume", "Volume / rest over twist and bend",
        "thesis 2.2.1 (volume loss of LBS; no number printed)",
        skb__fmt("The closed volume over the rest pose's: the arm's tube closed by a fan per end ring, the body's "
                 "mesh where every edge has two triangles (full runs). Curves: plots artifacts-volume-twist and "
                 "artifacts-volume-bend. New."), cols);
    method_rows(rep, t, "arm", SKB_NEED_SKIN, volume_row);
    method_rows(rep, t, "body", SKB_NEED_SKIN, volume_row);
}

/* ---- flipping ---- */

/* DQ paper Fig. 20's claim for method name (1: flips), NAN when it states none */
static double fig20_claim(const struct skb_report *rep, const char *name)
{
    double y = NAN;
    skb__jnum(skb__jget(skb__jget(skb__jget(rep->ref, "figure_20"), "flips"), name), &y);
    return y;
}

static void flip_row(struct skb_report *rep, struct skb_rtable *t, int k, const char *sn, const cJSON *sc,
                     const cJSON *m)
{
    double jump = NAN, thr = NAN, paper = fig20_claim(rep, m->string);
    skb__jnum(skb__jget(m, "flip_jump"), &jump);
    skb__jnum(skb__jget(sc, "flip_threshold"), &thr);
    int flipped = cJSON_IsTrue(skb__jget(m, "flipped"));
    if (isnan(paper)) {
        skb__row_add(rep, t, k, SKB_ROW_NEW, NULL, strdup(m->string), num(jump), strdup(flipped ? "yes" : "no"),
                     strdup("—"), NULL);
        return;
    }
    const cJSON *sec = skb__jget(rep->ref, "figure_20");
    struct skb_verdict v;
    char *note;
    int st = skb__judge_v(skb__jget(sec, "tolerance"), flipped, paper, NAN, &v, &note);
    skb__row_add(rep, t, k, st, note, strdup(m->string), num(jump), strdup(flipped ? "yes" : "no"),
                 strdup(paper > 0.5 ? "yes" : "no"), NULL);
    skb__row_verdict(rep, t, &v, NULL);
    skb__row_seed(t, skb__ref_str(sec, "seed"));
}

static void clip_flip_row(struct skb_report *rep, struct skb_rtable *t, int k, const char *sn, const cJSON *sc,
                          const cJSON *m)
{
    double jump = NAN, excess = NAN;
    skb__jnum(skb__jget(m, "max_jump"), &jump);
    skb__jnum(skb__jget(m, "max_excess_jump"), &excess);
    skb__row_add(rep, t, k, SKB_ROW_NEW, NULL, strdup(m->string), num(jump), num(excess), NULL);
}

static void report_flip(struct skb_report *rep)
{
    static const char *const cols[] = { "method", "jump 179°→181° (model sizes)", "flips", "Fig. 20", NULL };
    char src[300];
    skb__set_source(src, sizeof src, skb__jget(rep->ref, "figure_20"));
    struct skb_rtable *t = skb__tbl_new(rep, "artifacts_flip", "Flipping: the largest vertex jump between 179° and 181° of twist",
        src, skb__fmt("The arm's elbow twisted 179° then 181°: a continuous blend moves a vertex by 2° of arc; a "
                      "shortest-path blend takes the other way round and jumps by about a limb diameter. 'flips' when "
                      "the jump exceeds half a limb radius. DQ paper Fig. 20 shows DQS (dlb) flipping: that row is "
                      "judged (rule exact on 1 = flips); every other row is new."), cols);
    method_rows(rep, t, "arm", SKB_NEED_SKIN, flip_row);
}

static void report_clip_jump(struct skb_report *rep)
{
    static const char *const ccols[] = { "method", "largest frame-to-frame jump", "beyond DIB's", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "artifacts_clip_jump", "Flipping on a real clip: the largest jump between neighbouring frames",
        "new (no paper number)",
        skb__fmt("bcn_human's clip (its first frames, full runs): the largest vertex jump between neighbouring frames "
                 "and its largest excess over DIB's jump of the same vertex, in model sizes. New."), ccols);
    method_rows(rep, t, "clip", SKB_NEED_SKIN, clip_flip_row);
}

/* ---- self-intersections ---- */

static void isect_row(struct skb_report *rep, struct skb_rtable *t, int k, const char *sn, const cJSON *sc,
                      const cJSON *m)
{
    double n = NAN, rest = NAN;
    skb__jnum(skb__jget(sc, "rest_self_intersections"), &rest);
    if (cJSON_IsArray(skb__jget(m, "self_intersections")))
        n = at(sc, "bend_deg", m, "self_intersections", 150);
    else
        skb__jnum(skb__jget(m, "self_intersections"), &n);
    skb__row_add(rep, t, k, SKB_ROW_NEW, NULL, strdup(m->string), strdup(sn), num(n), num(rest), NULL);
}

static void report_isect(struct skb_report *rep)
{
    static const char *const cols[] = { "method", "scene", "pairs at 150° bend", "pairs at rest", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "artifacts_intersections", "Self-intersections at a 150° bend",
        "new (no paper number)",
        skb__fmt("Triangle pairs sharing no vertex whose closed triangles meet (skb_tri_tri_overlap, exact "
                 "predicates), the joint bent 150°: the arm's elbow, the body's hip (full runs). New."), cols);
    method_rows(rep, t, "arm", SKB_NEED_SKIN, isect_row);
    method_rows(rep, t, "body", SKB_NEED_SKIN, isect_row);
}

/* ---- distance to DIB ---- */

static void dib_row(struct skb_report *rep, struct skb_rtable *t, int k, const char *sn, const cJSON *sc,
                    const cJSON *m)
{
    double rms = series_max(m, "dib_rms"), mx = series_max(m, "dib_max");
    if (strcmp(sn, "clip") == 0) {
        skb__jnum(skb__jget(m, "dib_rms_worst_frame"), &rms);
        skb__jnum(skb__jget(m, "dib_max"), &mx);
    }
    skb__row_add(rep, t, k, SKB_ROW_NEW, NULL, strdup(m->string), strdup(sn), num(rms), num(mx), NULL);
}

static void report_dib(struct skb_report *rep)
{
    static const char *const cols[] = { "method", "scene", "RMS, worst pose", "max", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "artifacts_dib", "Distance to DIB over every pose, in model sizes",
        "thesis 4.3 (DIB, the exact bi-invariant blend, as the reference)",
        skb__fmt("Each method's vertices against DIB's in every pose of the scene (arm: every twist and bend; body: "
                 "every hip bend; bcn_human: every measured frame): the worst pose's RMS and the largest distance, "
                 "in model sizes (largest side of the rest box). New."), cols);
    method_rows(rep, t, "arm", SKB_NEED_SKIN, dib_row);
    method_rows(rep, t, "body", SKB_NEED_SKIN, dib_row);
    method_rows(rep, t, "clip", SKB_NEED_SKIN, dib_row);
}

/* ---- f32 far from the origin ---- */

static void far_row(struct skb_report *rep, struct skb_rtable *t, int k, const char *sn, const cJSON *sc,
                    const cJSON *m)
{
    const cJSON *e = skb__jget(m, "f32_error"), *f = skb__jget(m, "f32_rounding_floor");
    double y[4] = { NAN, NAN, NAN, NAN }, fl = NAN;
    for (int i = 0; i < 4; i++)
        skb__jnum(cJSON_GetArrayItem(e, i), &y[i]);
    skb__jnum(cJSON_GetArrayItem(f, 3), &fl);
    skb__row_add(rep, t, k, SKB_ROW_NEW, NULL, strdup(m->string), num(y[0]), num(y[1]), num(y[2]), num(y[3]), num(fl),
                 NULL);
}

static void report_far(struct skb_report *rep)
{
    static const char *const cols[] = { "method", "at origin", "10³", "10⁴", "10⁵", "f32 rounding at 10⁵", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "artifacts_precision", "f32 kernels far from the origin: error / model size",
        "new (users report jitter at large coordinates)",
        skb__fmt("The arm (elbow twisted and bent 90°) moved 0, 10³, 10⁴, 10⁵ model sizes along (1,1,1)/√3; each f32 "
                 "kernel's largest coordinate error against its method's double path, over the model size. The last "
                 "column is half an f32 ulp of the largest coordinate at 10⁵: no f32 output can do better. New."), cols);
    method_rows(rep, t, "precision", SKB_NEED_F32, far_row);
}

/* ---- curves ---- */

/* one series per method of the arm: method key `ykey` over the arm's `xkey` */
static void arm_curve(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r,
                      const char *stem, const char *title, const char *xkey, const char *ykey, const char *labels)
{
    const cJSON *arm = skb__jget(skb_results_doc(r, ART), "arm"), *xs = skb__jget(arm, xkey);
    char name[96], setup[400];
    snprintf(name, sizeof name, "%s%s", stem, sfx);
    if (!cJSON_IsArray(xs)) {
        skb__pl_not_run(rep, name, title, skb_results_doc(r, ART) ? ART " has no arm" : ART " not found (artifacts not run)");
        return;
    }
    snprintf(setup, sizeof setup, "%s\nset offsets 0, 0, graph 0.06, 0\n", labels);
    if (skb__pl_method_curves(rep, dir, name, title, xs, skb__jget(arm, "methods"), ykey, setup) < 0)
        skb__pl_not_run(rep, name, title, ART ": no method of the arm has this series");
}

static void plot_artifacts(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    arm_curve(rep, dir, sfx, r, "artifacts-section", "Arm elbow cross-section area / rest over twist", "twist_deg",
              "section_area_ratio", "set xlabel 'elbow twist (degrees)'\nset ylabel 'area / rest area'");
    arm_curve(rep, dir, sfx, r, "artifacts-volume-twist", "Arm volume / rest over twist", "twist_deg",
              "volume_ratio_twist", "set xlabel 'elbow twist (degrees)'\nset ylabel 'volume / rest volume'");
    arm_curve(rep, dir, sfx, r, "artifacts-volume-bend", "Arm volume / rest over bend", "bend_deg", "volume_ratio_bend",
              "set xlabel 'elbow bend (degrees)'\nset ylabel 'volume / rest volume'");
    arm_curve(rep, dir, sfx, r, "artifacts-bulge", "Arm joint bulge over bend, in limb radii", "bend_deg", "bulge",
              "set xlabel 'elbow bend (degrees)'\nset ylabel 'bulge / limb radius'");
}

/* ---- nightly gate: on the arm, a method that ran in the baseline and no
 * longer does, or whose flip between 179 and 181 degrees of twist (DQ paper
 * Fig. 20) changed, is a regression ---- */

static void gate_artifacts(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    const cJSON *a = skb__jget(skb_results_doc(base, ART), "arm"), *b = skb__jget(skb_results_doc(cur, ART), "arm"), *m;
    if (!a || !b)
        return;
    cJSON_ArrayForEach(m, skb__jget(a, "methods")) {
        const cJSON *bm = skb__jget(skb__jget(b, "methods"), m->string);
        if (!bm) {
            skb_gate_regression(g, ART ": method %s missing in the current run", m->string);
            continue;
        }
        if (!skb__jget(m, "not_run") && skb__jget(bm, "not_run"))
            skb_gate_regression(g, ART ": %s ran on the arm in the baseline, not now: %s", m->string,
                                skb__jstr(skb__jget(bm, "not_run")));
        if (cJSON_IsTrue(skb__jget(m, "flipped")) != cJSON_IsTrue(skb__jget(bm, "flipped")))
            skb_gate_regression(g, ART ": %s %s at 179 -> 181 degrees, the baseline %s", m->string,
                                cJSON_IsTrue(skb__jget(bm, "flipped")) ? "flips" : "does not flip",
                                cJSON_IsTrue(skb__jget(m, "flipped")) ? "did" : "did not");
    }
}

const struct skb_experiment_desc skb_desc_artifacts = {
    .run = &skb_exp_artifacts,
    .files = (const struct skb_result_file[]){
        { ART, 1, NULL, "arm/methods/* body/methods/* clip/methods/* precision/methods/*", &skb_schema_artifacts },
        { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "artifacts_candy", SKB_NEED_SKIN, report_candy, NULL },
        { "artifacts_bulge", SKB_NEED_SKIN, report_bulge, NULL },
        { "artifacts_volume", SKB_NEED_SKIN, report_volume, NULL },
        { "artifacts_flip", SKB_NEED_SKIN, report_flip, NULL },
        { "artifacts_clip_jump", SKB_NEED_NONE, report_clip_jump, NULL },
        { "artifacts_intersections", SKB_NEED_SKIN, report_isect, NULL },
        { "artifacts_dib", SKB_NEED_SKIN, report_dib, NULL },
        { "artifacts_precision", SKB_NEED_F32, report_far, NULL },
        { NULL, 0, NULL, NULL } },
    .plots = (const struct skb_report_plot[]){ { "artifacts", SKB_NEED_SKIN, plot_artifacts }, { NULL, 0, NULL } },
    .gate = gate_artifacts,
};
