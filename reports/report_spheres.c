/* report_spheres.c — bounding spheres: thesis Tables 5.2 / 6.1 radii, the sphere tree, Table 5.3 CD scaling.
 * Part of the report model (report.c); rows judged against reports/reference.json. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"
#include "skb_method.h"   /* the methods' roles (skb_method_role_name) */

static double trivial_band(const cJSON *sec)
{
    double b = NAN;
    skb__jnum(skb__jget(sec, "trivial_band"), &b);
    return isfinite(b) && b >= 0 ? b : 0;
}




/* avg / reference of column `key` at level l (measured) and at paper index li */
static void level_ratio(const cJSON *l, const cJSON *tab, int li, const char *key, double refavg, double pref,
                        double *meas, double *paper)
{
    double a = NAN, p = NAN;
    skb__jnum(skb__jget(skb__jget(l, key), "avg"), &a);
    skb__jnum(cJSON_GetArrayItem(skb__jget(tab, key), li), &p);
    *meas = refavg > 0 ? a / refavg : NAN;
    *paper = pref > 0 ? p / pref : NAN;
}

/* x with 3 significant digits, or a dash when unknown */
static void num3(char out[32], double x)
{
    if (isfinite(x))
        snprintf(out, 32, "%.3g", x);
    else
        snprintf(out, 32, "—");
}

/* note + "<label> / reference C (paper CP)<join><method> / <name> R/C (paper
 * PR/CP)<tail>": a comparison row's ratio to the reference and the differing
 * row's ratio to it, ours and the paper's */
static char *join_ratio(char *note, const char *label, const char *join, const char *name, const char *method,
                        double c, double cp, double r, double pr, const char *tail)
{
    char v[4][32];
    num3(v[0], c);
    num3(v[1], cp);
    num3(v[2], r / c);
    num3(v[3], cp > 0 ? pr / cp : NAN);
    char *x = skb__fmt("%s / reference %s (paper %s)%s%s / %s %s (paper %s)%s", label, v[0], v[1], join, method, name,
                       v[2], v[3], tail);
    note = skb__join_note(note, x);
    free(x);
    return note;
}

/* what a differing sphere row measured beside it, at the same level and in
 * the same posture (the evidence, never a guess): the reference
 * radius, LBS's ratio and the ratio of the exact minimal spheres of the
 * same deformation ("best": no sphere of it can be smaller), each against
 * the paper's; and how far the row's refit is from best, ours and the
 * paper's.  A paper ratio below our best ratio cannot be reached by any
 * bounding sphere of our deformation. */
static char *level_evidence(const cJSON *l, const cJSON *tab, int li, double refavg, double pref, const char *method,
                            double r, double pr)
{
    double lm, lp, bm, bp, n = NAN;
    char *note = NULL, *x, v[3][32];
    skb__jnum(skb__jget(l, "spheres"), &n);
    const char *lin = skb_method_role_name(SKB_MF_RATIO_REF);   /* LBS */
    level_ratio(l, tab, li, lin, refavg, pref, &lm, &lp);
    level_ratio(l, tab, li, "best", refavg, pref, &bm, &bp);
    v[0][0] = 0;
    if (isfinite(n))
        snprintf(v[0], sizeof v[0], "%.0f spheres, ", n);
    num3(v[1], refavg);
    num3(v[2], pref);
    x = skb__fmt("same level and posture: %sreference radius avg %s (paper %s)", v[0], v[1], v[2]);
    note = skb__join_note(note, x);
    free(x);
    if (strcmp(method, lin) != 0 && isfinite(lm) && lm > 0)
        note = join_ratio(note, "LBS", ", so ", "LBS", method, lm, lp, r, pr, "");
    if (isfinite(bm) && bm > 0 && strcmp(method, "best") != 0)
        note = join_ratio(note, "best (exact minimal spheres of the same deformation)", "; ", "best", method, bm, bp, r, pr,
                          isfinite(pr) && pr < bm ? "; the paper's ratio is below our best: no bounding sphere of this "
                          "deformation reaches it" : "");
    return note;
}

/* the paper's order at one level (thesis Table 5.2: bottom-up spheres are
 * looser than LBS's on-demand refit at every level): a row judged by
 * "ordering" on bottom-up avg / on-demand avg, where the paper gives both */
static void ordering_row(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *sec, const cJSON *tab,
                         const cJSON *l, int li, const char *dataset, double lv)
{
    double bu = NAN, od = NAN, pbu = NAN, pod = NAN, gap = NAN;
    const cJSON *rule = skb__jget(sec, "ordering");
    skb__jnum(skb__jget(skb__jget(l, "bottom_up"), "avg"), &bu);
    const char *lin = skb_method_role_name(SKB_MF_RATIO_REF);   /* LBS's refit (thesis 5.3) */
    skb__jnum(skb__jget(skb__jget(l, lin), "avg"), &od);
    skb__jnum(cJSON_GetArrayItem(skb__jget(tab, "bottom_up"), li), &pbu);
    skb__jnum(cJSON_GetArrayItem(skb__jget(tab, lin), li), &pod);
    skb__jnum(skb__jget(rule, "value"), &gap);
    if (li < 0 || !rule || !(pod > 0) || !(pbu > pod) || !(od > 0) || !isfinite(bu))
        return;
    struct skb_verdict v;
    skb_verdict_init(&v, "ordering", gap, bu / od, pbu / pod);
    skb_rule_band(&v);
    int st = skb_verdict_status(&v);
    char *note = skb__verdict_text(&v, st);
    note = skb__join_note(note, "the paper's order: bottom-up refitted spheres are looser than on-demand LBS's at every "
                          "level (measured: bottom-up avg / LBS avg)");
    skb__row_add(rep, t, k, st, note, strdup(dataset), skb__fmt("%.0f", lv), strdup("bottom_up / lbs"), strdup(""),
                 skb__numtxt(bu / od), strdup(""), skb__numtxt(bu / od), skb__numtxt(pbu / pod), skb__numtxt(pbu / pod), NULL);
    skb__row_verdict(rep, t, &v, st == SKB_ROW_DIFFERS ? skb__fmt("bottom-up / on-demand %.4g: not looser by %g as the "
                                                                "paper's %.4g", bu / od, gap, pbu / pod) : NULL);
}

/* Longer than 80 lines, kept whole on purpose: one loop over runs, datasets
 * and tree levels that fills the table's columns and the paper's matched cells
 * in step; its pieces share the loop's dozen locals (posture, levels, refits). */
void skb__report_sphere_table(struct skb_report *rep, const char *id, const char *title, const char *refkey,
                               const char *const *methods_here, int take_new)
{
    const cJSON *sec = skb__jget(rep->ref, "spheres"), *tab = skb__jget(sec, refkey);
    static const char *const cols[] = { "dataset", "level", "method", "min", "avg", "max", "avg / reference",
                                        "paper avg", "paper avg / ref.", NULL };
    char src[240];
    snprintf(src, sizeof src, "seed %s, %s", skb__ref_str(sec, "seed"), skb__ref_str(tab, "where"));
    struct skb_rtable *t = skb__tbl_new(rep, id, title, src, skb__tol_text(sec), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "spheres.json");
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "spheres.json"), strdup("—"), NULL);
            continue;
        }
        const cJSON *d;
        cJSON_ArrayForEach(d, skb__jget(doc, "datasets")) {
            /* the posture this table describes (spheres.json "postures",
             * docs/outputs.md): its own levels where it has them, else the dataset's */
            const cJSON *post = skb__jget(skb__jget(d, "postures"), refkey), *l;
            const cJSON *levels = cJSON_IsArray(skb__jget(post, "levels")) ? skb__jget(post, "levels") : skb__jget(d, "levels");
            const char *posture = skb__jstr(skb__jget(post, "posture"));
            if (skb__posture_not_applicable(rep, t, k, d, post))
                continue;
            cJSON_ArrayForEach(l, levels) {
                double lv = NAN, refavg = NAN;
                skb__jnum(skb__jget(l, "level"), &lv);
                skb__jnum(skb__jget(skb__jget(l, "reference"), "avg"), &refavg);
                int li = -1, i = 0;
                const cJSON *pl;
                cJSON_ArrayForEach(pl, skb__jget(tab, "levels")) {
                    double x;
                    if (skb__jnum(pl, &x) == 0 && x == lv)
                        li = i;
                    i++;
                }
                double pref = NAN;
                skb__jnum(cJSON_GetArrayItem(skb__jget(tab, "reference"), li), &pref);
                const cJSON *m;
                cJSON_ArrayForEach(m, l) {
                    double avg0;
                    /* a refit method's entry: {min, avg, max} */
                    if (!cJSON_IsObject(m) || skb__jnum(skb__jget(m, "avg"), &avg0) < 0)
                        continue;
                    int here = 0, known = strcmp(m->string, "reference") == 0;
                    for (int q = 0; methods_here[q]; q++)
                        here |= strcmp(methods_here[q], m->string) == 0;
                    /* methods neither paper table knows go to the table that takes new ones */
                    const char *const all_known[] = { "reference", skb_method_role_name(SKB_MF_RATIO_REF),
                                                      skb_method_role_name(SKB_MF_ROT_CENTERS), "bottom_up", "best", NULL };
                    int in_any = 0;
                    for (int q = 0; all_known[q]; q++)
                        in_any |= strcmp(all_known[q], m->string) == 0;
                    if (!here && !(take_new && !in_any))
                        continue;
                    double mn = NAN, av = NAN, mx = NAN, pav = NAN;
                    skb__jnum(skb__jget(m, "min"), &mn);
                    skb__jnum(skb__jget(m, "avg"), &av);
                    skb__jnum(skb__jget(m, "max"), &mx);
                    skb__jnum(cJSON_GetArrayItem(skb__jget(tab, m->string), li), &pav);
                    double r = refavg > 0 ? av / refavg : NAN, pr = pref > 0 ? pav / pref : NAN;
                    char *note = NULL, *cause = NULL;
                    struct skb_verdict v = { .rule = "" };
                    int st;
                    if (strcmp(m->string, "best") == 0) {
                        /* the exact minimal spheres describe the posture, not a refit method */
                        st = SKB_ROW_CONTEXT;
                        note = skb__fmt("context: the minimal spheres of the posture describe the posture, not a "
                                        "method (paper %.4g)", pr);
                    } else if (known) {
                        st = SKB_ROW_CONTEXT;
                        note = strdup("the reference of the ratios (reference posture)");
                    } else if (!isfinite(pav)) {
                        st = in_any && li >= 0 ? SKB_ROW_NOT_RUN : SKB_ROW_NEW;
                        note = strdup(li < 0 ? "level beyond the paper's tree depth" : "no paper value");
                        if (st == SKB_ROW_NOT_RUN)
                            st = SKB_ROW_NEW;
                    } else if (!isfinite(r)) {
                        st = SKB_ROW_NOT_RUN;
                        note = strdup("no reference radius at this level");
                    } else {
                        skb__judge_v(skb__jget(sec, "tolerance"), r, pr, NAN, &v, &note);
                        v.trivial = trivial_band(sec);
                        /* the growth of the spheres is set by how strongly the posture bends the
                         * model: the paper shows its posture only as a picture (thesis Fig. 5.3, 6.4) */
                        double ps = NAN;
                        skb__jnum(skb__jget(post, "pose_strength_rad"), &ps);
                        if (!isfinite(ps))
                            skb__jnum(skb__jget(d, "pose_strength_rad"), &ps);
                        char b1[32];
                        cause = skb__fmt("posture strength: %s rad here (%s); the paper gives its posture only as a "
                                         "picture", skb__num4(b1, ps), posture ? posture : "posture not recorded");
                        v.setup = 1;
                        st = skb_verdict_status(&v);
                        free(note);
                        note = skb__verdict_text(&v, st);
                        if (st == SKB_ROW_TRIVIAL)
                            note = skb__join_note(note, "the refit spheres keep the reference size, so agreeing claims "
                                                  "nothing (not counted as reproduced)");
                        if (st == SKB_ROW_DIFFERS_SETUP)
                            note = skb__join_note(note, cause);
                    }
                    note = skb__join_note(note, skb__why_lookup(doc, m->string, d->string));
                    if (st == SKB_ROW_DIFFERS || st == SKB_ROW_DIFFERS_SETUP) {
                        char *ev = level_evidence(l, tab, li, refavg, pref, m->string, r, pr);
                        note = skb__join_note(note, ev);
                        free(ev);
                    }
                    if (posture && !known) {
                        char *pn = skb__fmt("posture: %s", posture);
                        note = skb__join_note(note, pn);
                        free(pn);
                    }
                    skb__row_add(rep, t, k, st, note, strdup(d->string), skb__fmt("%.0f", lv), strdup(m->string), skb__numtxt(mn),
                            skb__numtxt(av), skb__numtxt(mx), skb__numtxt(r), skb__numtxt(pav), skb__numtxt(pr), NULL);
                    skb__row_verdict(rep, t, &v, cause);
                }
                ordering_row(rep, t, k, sec, tab, l, li, d->string, lv);
            }
        }
    }
}

/* sphere tree sizes and refit cost per sphere (thesis 5.1, 5.4, 6.6) */
void skb__report_sphere_tree(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "spheres"), *tree = skb__jget(sec, "tree");
    const cJSON *rt = skb__jget(skb__jget(rep->ref, "table_6_2"), "refit_us_per_sphere");
    static const char *const cols[] = { "dataset", "quantity", "measured", "paper (Athlon 2.5 GHz)", NULL };
    char src[240];
    snprintf(src, sizeof src, "seed %s, thesis 5.1 (tree), 5.4 and 6.6 (refit per sphere)", skb__ref_str(sec, "seed"));
    struct skb_rtable *t = skb__tbl_new(rep, "spheretree", "Sphere tree and refit cost per sphere", src,
                                   strdup("Context only: the paper's models and machine are not ours. The tree rows are the creature model "
                                          "(thesis 5.1); the refit-per-sphere rows are the two-men scenario (see each row)."), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "spheres.json");
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "spheres.json"), strdup("—"), NULL);
            continue;
        }
        const cJSON *d;
        cJSON_ArrayForEach(d, skb__jget(doc, "datasets")) {
            static const struct { const char *key, *label, *pkey; } tq[] = {
                { "spheres_before_collapse", "spheres before collapse", "spheres_before" },
                { "depth_before_collapse", "depth before collapse", "depth_before" },
                { "spheres", "spheres after collapse (C = 0.6)", "spheres_after" },
                { "depth", "depth after collapse", "depth_after" },
                { "max_children", "most children of a node", "max_children" },
            };
            for (size_t i = 0; i < sizeof tq / sizeof tq[0]; i++) {
                double v, pv = NAN;
                if (skb__jnum(skb__jget(skb__jget(d, "tree"), tq[i].key), &v) < 0)
                    continue;
                skb__jnum(skb__jget(tree, tq[i].pkey), &pv);
                skb__row_add(rep, t, k, SKB_ROW_CONTEXT, strdup("paper: creature model, thesis 5.1"), strdup(d->string),
                        strdup(tq[i].label), skb__numtxt(v), skb__numtxt(pv), NULL);
            }
            const cJSON *m;
            cJSON_ArrayForEach(m, skb__jget(d, "refit_time")) {
                double us, pv = NAN;
                if (skb__jnum(skb__jget(m, "on_demand_us_per_sphere"), &us) < 0)
                    continue;
                skb__jnum(skb__jget(rt, m->string), &pv);
                skb__row_add(rep, t, k, isfinite(pv) ? SKB_ROW_CONTEXT : SKB_ROW_NEW,
                        strdup(isfinite(pv) ? skb__ref_str(rt, "where") : "no paper value"), strdup(d->string),
                        skb__fmt("on-demand refit µs per sphere: %s", m->string), skb__numtxt(us), skb__numtxt(pv), NULL);
            }
        }
    }
}

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
struct scale_cols { double lv, tri, sph, od, bu, sod, sbu, sp; };
static void scale_cols_read(const cJSON *x, const cJSON *pt, struct scale_cols *c)
{
    *c = (struct scale_cols){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
    skb__jnum(skb__jget(x, "level"), &c->lv);
    skb__jnum(skb__jget(x, "triangles"), &c->tri);
    skb__jnum(skb__jget(x, "spheres"), &c->sph);
    skb__jnum(skb__jget(pt, "on_demand_ms"), &c->od);
    skb__jnum(skb__jget(pt, "bottom_up_ms"), &c->bu);
    skb__jnum(skb__jget(pt, "sphere_tests_on_demand"), &c->sod);
    skb__jnum(skb__jget(pt, "sphere_tests_bottom_up"), &c->sbu);
    skb__jnum(skb__jget(pt, "speedup"), &c->sp);
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
    if (isfinite(psp) && c->sp > 0) {
        char *j = NULL;
        skb__judge_v(skb__jget(sec, "tolerance"), c->sp, psp, NAN, &v, &j);
        v.setup = 1;
        skb_verdict_timed(&v, NAN, NAN, skb__timing_floor(rep, "cd"));
        st = skb_verdict_status(&v);
        free(j);
        char b1[32];
        cause = skb__fmt("distance between the models: %s root radii apart here; the thesis does not give its "
                         "placement", skb__num4(b1, off));
        char *both = skb__join_note(skb__verdict_text(&v, st), note);
        free(note);
        note = both;
        if (st == SKB_ROW_DIFFERS_SETUP)
            note = skb__join_note(note, cause);
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
    double prev = NAN, step = INFINITY;
    int n = 0;
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
            if (n++ > 0)
                step = fmin(step, prev > 0 ? c.sp / prev : NAN);
            prev = c.sp;
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
        double gap = 0, f = skb__timing_floor(rep, "cd");
        skb__jnum(skb__jget(skb__jget(sec, "trend"), "value"), &gap);
        skb_verdict_init(&v, "trend", gap, step, 1);
        skb_rule_band(&v);
        /* a step ratio of two timed speed-ups: both intervals widen it */
        skb_verdict_timed(&v, NAN, NAN, (1 + f) * (1 + f) - 1);
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

void skb__report_table53(struct skb_report *rep)
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
