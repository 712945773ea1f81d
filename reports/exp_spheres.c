/* exp_spheres.c — the `spheres` experiment's report half (run half:
 * harness/exp_spheres.c; spheres.json's table of fields:
 * harness/exp_spheres_schema.c): thesis Tables 5.2 / 6.1 sphere radii per
 * level, the sphere tree, and the plot of the radii per tree level as ratios
 * to the reference (Tables 5.2 / 6.1 overlaid).  Rows judged against
 * reports/reference.json; the gnuplot core: plots.c. */
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

/* ---- spheres: Tables 5.2 and 6.1 ---- */

/* reference.json spheres.trivial_band: how close to 1 a ratio is "~1" */
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

/* the index of tree level lv in a paper table's "levels", or -1 */
static int paper_level_index(const cJSON *tab, double lv)
{
    const cJSON *pl;
    int i = 0;
    cJSON_ArrayForEach(pl, skb__jget(tab, "levels")) {
        double x;
        if (skb__jnum(pl, &x) == 0 && x == lv)
            return i;
        i++;
    }
    return -1;
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

/* whether the posture accounts for a radius row's gap, measured: the
 * minimal spheres of the same deformation (best / reference) say how much
 * the posture alone grows the spheres, here and in the paper's column; the
 * measured ratio carried to the paper's posture (r x paper best / our best)
 * is judged by the row's own rule.  1 when that reproduces (the gap is the
 * posture's: "differs (setup)"), 0 when it does not or no best value
 * measures the posture (the gap stays "differs"); *cause the arithmetic */
static int posture_accounts(const cJSON *tol, double r, double pr, double bm, double bp, double strength,
                            const char *posture, char **cause)
{
    char b[5][32];
    num3(b[0], bm);
    num3(b[1], bp);
    num3(b[4], strength);
    const char *pn = posture ? posture : "posture not recorded";
    if (!(bm > 0) || !(bp > 0)) {
        *cause = skb__fmt("posture strength %s rad (%s); no best (minimal spheres) value here and in the paper at this "
                          "level measures the posture's share of the gap, so it is not set down to the posture", b[4], pn);
        return 0;
    }
    double adj = r * bp / bm;
    struct skb_verdict va = { .rule = "" };
    char *scratch = NULL;
    skb__judge_v(tol, adj, pr, NAN, &va, &scratch);
    free(scratch);
    int st = va.rule[0] ? skb_verdict_status(&va) : SKB_ROW_CONTEXT, ok = st == SKB_ROW_REPRODUCED;
    num3(b[2], r);
    num3(b[3], adj);
    *cause = skb__fmt("posture: best / reference %s here against the paper's %s (posture strength %s rad, %s); the "
                      "measured %s carried to the paper's posture, %s x %s / %s = %s, %s the rule: %s", b[0], b[1], b[4],
                      pn, b[2], b[2], b[1], b[0], b[3], ok ? "within" : "still outside",
                      ok ? "the posture accounts for the gap" : "the posture does not account for the gap (the refit "
                      "itself is looser or tighter than the paper's)");
    return ok;
}

/* what the rig study (spheres.json "rig_study") says of an LBS row's gap at
 * level lv: the same posture with one influence per vertex; NULL without it */
static char *rig_note(const cJSON *d, double lv, double r, double pr)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, skb__jget(skb__jget(d, "rig_study"), "levels")) {
        double L = NAN, r1 = NAN, j1 = NAN, jr = NAN;
        skb__jnum(skb__jget(e, "level"), &L);
        if (L != lv)
            continue;
        skb__jnum(skb__jget(e, "linear_over_reference"), &r1);
        skb__jnum(skb__jget(e, "joint_sets_per_sphere"), &j1);
        skb__jnum(skb__jget(e, "joint_sets_per_sphere_rig"), &jr);
        if (!isfinite(r1) || !isfinite(r) || !isfinite(pr))
            return NULL;
        return skb__fmt("rig: with every vertex on its largest weight alone LBS / reference reads %.3f here (%.1f joint "
                        "sets a sphere, %.1f with the rig's weights): of the gap %.3f - %.3f = %+.3f the blend weights "
                        "account for %+.3f; %+.3f remains with one influence, where a refit depends only on the joints "
                        "its sphere spans and the pose", r1, j1, jr, r, pr, r - pr, r - r1, r1 - pr);
    }
    return NULL;
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
static void sphere_table(struct skb_report *rep, const char *id, const char *title, const char *refkey,
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
                int li = paper_level_index(tab, lv);
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
                                                      skb_method_role_name(SKB_MF_ROT_CENTERS), "bottom_up",
                                                      "bottom_up_exact", "best", NULL };
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
                    } else if (strcmp(m->string, "bottom_up_exact") == 0) {
                        /* the leaf fit the thesis does not use, beside the one it does */
                        double pbu = NAN;
                        skb__jnum(cJSON_GetArrayItem(skb__jget(tab, "bottom_up"), li), &pbu);
                        st = SKB_ROW_CONTEXT;
                        note = skb__fmt("variant: bottom-up with minimal leaf spheres (the judged bottom_up row fits "
                                        "each leaf by thesis Alg. 5.1, the approximation thesis 5.3 uses for every "
                                        "refit); the paper's bottom-up / reference here %.4g", pref > 0 ? pbu / pref : NAN);
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
                         * model, and the paper shows its posture only as a picture (thesis Fig. 5.3,
                         * 6.4): its Best column measures it, and a gap is set down to the posture only
                         * where that measurement accounts for it */
                        double ps = NAN, bm, bp;
                        skb__jnum(skb__jget(post, "pose_strength_rad"), &ps);
                        if (!isfinite(ps))
                            skb__jnum(skb__jget(d, "pose_strength_rad"), &ps);
                        level_ratio(l, tab, li, "best", refavg, pref, &bm, &bp);
                        v.setup = posture_accounts(skb__jget(sec, "tolerance"), r, pr, bm, bp, ps, posture, &cause);
                        st = skb_verdict_status(&v);
                        free(note);
                        note = skb__verdict_text(&v, st);
                        if (st == SKB_ROW_TRIVIAL)
                            note = skb__join_note(note, "the refit spheres keep the reference size, so agreeing claims "
                                                  "nothing (not counted as reproduced)");
                        if ((st == SKB_ROW_DIFFERS_SETUP || st == SKB_ROW_DIFFERS)
                            && strcmp(m->string, skb_method_role_name(SKB_MF_RATIO_REF)) == 0)
                            cause = skb__join_note_take(cause, rig_note(d, lv, r, pr));
                        if (st == SKB_ROW_DIFFERS_SETUP || st == SKB_ROW_DIFFERS)
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
static void section_sphere_tree(struct skb_report *rep)
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

/* ---- the sections: Table 5.2 (LBS refits), Table 6.1 (SBS and the new refits) ---- */

static void section_table52(struct skb_report *rep)
{
    const char *const t52[] = { skb_method_role_name(SKB_MF_RATIO_REF), "bottom_up", "bottom_up_exact", "best", NULL };
    sphere_table(rep, "table52", "Thesis Table 5.2: average sphere radius per level, LBS refits",
                 "table_5_2", t52, 0);
}

static void section_table61(struct skb_report *rep)
{
    const char *const t61[] = { skb_method_role_name(SKB_MF_RATIO_REF), skb_method_role_name(SKB_MF_ROT_CENTERS),
                                "best", NULL };
    sphere_table(rep, "table61", "Thesis Table 6.1 / 002 Table 1: sphere radius per level, SBS and new refits",
                 "table_6_1", t61, 1);
}

/* the posture rule's choice per dataset (spheres.json "posture_rule") and
 * the clip's strongest pose beside it as context: LBS, bottom-up and best
 * over the reference per level, the paper's Table 5.2 ratio beside them */
static void strongest_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *d, const cJSON *tab)
{
    const cJSON *r = skb__jget(d, "posture_rule"), *st = skb__jget(skb__jget(d, "postures"), "strongest"), *l;
    double pose = NAN, dev = NAN, sp = NAN, sdev = NAN, within = NAN, scanned = NAN, band = NAN;
    skb__jnum(skb__jget(r, "pose"), &pose);
    skb__jnum(skb__jget(r, "best_deviation"), &dev);
    skb__jnum(skb__jget(r, "strongest_pose"), &sp);
    skb__jnum(skb__jget(r, "strongest_best_deviation"), &sdev);
    skb__jnum(skb__jget(r, "poses_within_band"), &within);
    skb__jnum(skb__jget(r, "poses_scanned"), &scanned);
    skb__jnum(skb__jget(r, "band"), &band);
    if (!r)
        return;
    double s_pose = NAN, s_strong = NAN;
    skb__jnum(skb__jget(d, "pose_strength_rad"), &s_pose);
    skb__jnum(skb__jget(st, "pose_strength_rad"), &s_strong);
    if (!st)
        s_strong = s_pose;   /* the rule chose the strongest pose itself */
    skb__row_add(rep, t, k, SKB_ROW_CONTEXT,
                 skb__fmt("strength %.3g rad; %.0f of %.0f poses within the band %g%s. Rule: %s", s_pose, within, scanned,
                          band, cJSON_IsTrue(skb__jget(r, "fallback_nearest")) ? ": none, the nearest taken" : "",
                          skb__jstr(skb__jget(r, "rule"))),
                 strdup(d->string), strdup("judged: the posture rule's"), skb__fmt("%.0f", pose), strdup("—"),
                 strdup("best deviation"), skb__numtxt(dev), strdup(""), NULL);
    skb__row_add(rep, t, k, SKB_ROW_CONTEXT, skb__fmt("strength %.3g rad: the clip's strongest pose (sum of joint "
                                                     "angles to the parent)", s_strong),
                 strdup(d->string), strdup("context: the strongest"), skb__fmt("%.0f", sp), strdup("—"),
                 strdup("best deviation"), skb__numtxt(sdev), strdup(""), NULL);
    cJSON_ArrayForEach(l, skb__jget(st, "levels")) {
        const char *const keys[] = { skb_method_role_name(SKB_MF_RATIO_REF), "bottom_up", "best" };
        double lv = NAN, ref = NAN, pref = NAN;
        skb__jnum(skb__jget(l, "level"), &lv);
        skb__jnum(skb__jget(skb__jget(l, "reference"), "avg"), &ref);
        int li = paper_level_index(tab, lv);
        skb__jnum(cJSON_GetArrayItem(skb__jget(tab, "reference"), li), &pref);
        for (int q = 0; q < 3; q++) {
            double m, pr;
            level_ratio(l, tab, li, keys[q], ref, pref, &m, &pr);
            skb__row_add(rep, t, k, SKB_ROW_CONTEXT, strdup("context scenario, not judged"), strdup(d->string),
                         strdup("context: the strongest"), skb__fmt("%.0f", sp), skb__fmt("%.0f", lv),
                         skb__fmt("%s / reference", keys[q]), skb__numtxt(m), skb__numtxt(pr), NULL);
        }
    }
}

/* which pose the sphere tables are measured on, and the strongest pose as
 * context (harness/spheres_posture.c) */
static void section_posture(struct skb_report *rep)
{
    const cJSON *sec = skb__jget(rep->ref, "spheres"), *tab = skb__jget(sec, "table_5_2");
    static const char *const cols[] = { "dataset", "posture", "pose", "level", "quantity", "measured",
                                        "paper (Table 5.2)", NULL };
    char src[240];
    snprintf(src, sizeof src, "seed %s, thesis Fig. 5.3 and Table 5.2's Best column", skb__ref_str(sec, "seed"));
    struct skb_rtable *t = skb__tbl_new(rep, "spheres_posture", "The posture of the sphere tables, and the strongest "
                                        "pose as context", src, strdup("Context only: which clip frame the judged "
                                        "sphere rows use and why; best deviation is the largest |best avg / reference "
                                        "avg - 1| over the tree levels."), cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *doc = skb_results_doc(&rep->runs[k], "spheres.json"), *d;
        if (!doc) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "spheres.json"), strdup("—"), NULL);
            continue;
        }
        cJSON_ArrayForEach(d, skb__jget(doc, "datasets"))
            strongest_rows(rep, t, k, d, tab);
    }
}

/* ---- plot: radii per level ---- */

/* methods with {avg} in the levels of one dataset, the reference excluded */
static int sphere_series(const cJSON *d, const char **ser, int max)
{
    const cJSON *l, *m;
    int ns = 0;
    cJSON_ArrayForEach(l, skb__jget(d, "levels")) cJSON_ArrayForEach(m, l) {
        int seen = strcmp(m->string, "reference") == 0;
        if (!cJSON_IsObject(m) || !skb__jget(m, "avg"))
            continue;
        for (int i = 0; i < ns; i++)
            seen |= strcmp(ser[i], m->string) == 0;
        if (!seen && ns < max)
            ser[ns++] = m->string;
    }
    return ns;
}

/* the data file: level, then avg / reference avg per series */
static int sphere_dat(const cJSON *d, const char **ser, int ns, const char *dir, const char *name)
{
    struct memfile mf;
    const cJSON *l;
    FILE *f = skb__pl_mem_open(&mf);
    if (!f)
        return -1;
    cJSON_ArrayForEach(l, skb__jget(d, "levels")) {
        double lv = NAN, ref = NAN;
        skb__jnum(skb__jget(l, "level"), &lv);
        skb__jnum(skb__jget(skb__jget(l, "reference"), "avg"), &ref);
        skb__pl_fnum(f, lv);
        for (int i = 0; i < ns; i++) {
            double v = NAN;
            skb__jnum(skb__jget(skb__jget(l, ser[i]), "avg"), &v);
            skb__pl_fnum(f, v > 0 && ref > 0 ? v / ref : NAN);
        }
        fputc('\n', f);
    }
    return skb__pl_dat_close(&mf, dir, name);
}

/* thesis Tables 5.2 and 6.1 as ratios avg / reference per level: one index
 * block per (table, method) in NAME-paper.dat, the plot clauses into f,
 * each in its method's colour with an open marker */
static void sphere_paper(const struct skb_report *rep, const char **ser, int ns, const char *dir, const char *name,
                         FILE *f)
{
    static const struct { const char *key, *label; int pt; } tabs[] = {
        { "table_5_2", "Table 5.2", 6 }, { "table_6_1", "Table 6.1", 8 },
    };
    const cJSON *sec = skb__jget(rep->ref, "spheres");
    struct memfile mf;
    FILE *d = skb__pl_mem_open(&mf);
    char pname[80], label[8][200], st[8][96];
    int n = 0;
    if (!d)
        return;
    for (int k = 0; k < 2; k++) {
        const cJSON *tab = skb__jget(sec, tabs[k].key), *lv = skb__jget(tab, "levels"), *ref = skb__jget(tab, "reference");
        for (int i = 0; i < ns && n < 8; i++) {
            const cJSON *pv = skb__jget(tab, ser[i]);
            if (!cJSON_IsArray(pv) || !cJSON_IsArray(lv) || !cJSON_IsArray(ref))
                continue;
            for (int j = 0; j < cJSON_GetArraySize(lv); j++) {
                double l = NAN, a = NAN, rr = NAN;
                skb__jnum(cJSON_GetArrayItem(lv, j), &l);
                skb__jnum(cJSON_GetArrayItem(pv, j), &a);
                skb__jnum(cJSON_GetArrayItem(ref, j), &rr);
                skb__pl_fnum(d, l);
                skb__pl_fnum(d, a > 0 && rr > 0 ? a / rr : NAN);
                fputc('\n', d);
            }
            fprintf(d, "\n\n");
            char hn[120];
            snprintf(label[n], sizeof label[n], "paper %s: %s", tabs[k].label, skb__plot_series_name(ser[i], NULL, hn, sizeof hn));
            /* the method's colour, the table's open marker */
            skb__pl_series_style(st[n], sizeof st[n], i, ns);
            *strstr(st[n], " pt ") = 0;
            snprintf(st[n] + strlen(st[n]), sizeof st[n] - strlen(st[n]), " pt %d", tabs[k].pt);
            n++;
        }
    }
    snprintf(pname, sizeof pname, "%s-paper", name);
    if (skb__pl_dat_close(&mf, dir, pname) < 0)
        return;
    for (int k = 0; k < n; k++) {
        char qt[420];
        fprintf(f, ", '%s.dat' index %d using 1:2 with linespoints dt 3 lw 1 ps 1.6 %s title %s", pname, k, st[k],
                skb__pl_gp_quote(qt, sizeof qt, label[k]));
    }
}

static void sphere_plot(struct skb_report *rep, const char *dir, const char *sfx, const cJSON *d)
{
    const char *ser[MAXSER];
    char name[64], title[160], st[96];
    int ns = sphere_series(d, ser, MAXSER);
    double ref1 = NAN;
    snprintf(name, sizeof name, "sphere-radii-%s%s", d->string, sfx);
    skb__pl_sanitize(name);
    snprintf(title, sizeof title, "Average sphere radius / reference-posture radius per tree level: %.60s", d->string);
    skb__jnum(skb__jget(skb__jget(cJSON_GetArrayItem(skb__jget(d, "levels"), 0), "reference"), "avg"), &ref1);
    struct body b;
    if (!ns) {
        skb__pl_not_run(rep, name, title, "no levels with radii");
        return;
    }
    if (sphere_dat(d, ser, ns, dir, name) < 0 || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return;
    }
    fprintf(b.f, "set key below\nset xlabel 'tree level (1 = root)'\nset ylabel 'average radius / reference radius (dimensionless)'\n"
                 "set xtics 1\nset arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444'\n");
    if (isfinite(ref1))
        fprintf(b.f, "set label 1 'reference root radius %.4g model units' at graph 0.98, graph 0.94 right\n", ref1);
    fprintf(b.f, "plot ");
    for (int i = 0; i < ns; i++) {
        fprintf(b.f, "%s'%s.dat' using 1:%d with linespoints lw 2 ps 1.2 %s", i ? ", " : "", name, 2 + i,
                skb__pl_series_style(st, sizeof st, i, ns));
        skb__pl_put_title(b.f, ser[i], NULL);
    }
    sphere_paper(rep, ser, ns, dir, name, b.f);
    fputc('\n', b.f);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

static void plot_spheres(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = skb_results_doc(r, "spheres.json"), *d;
    if (!doc) {
        char name[64];
        snprintf(name, sizeof name, "sphere-radii%s", sfx);
        skb__pl_not_run(rep, name, "Average sphere radius per tree level",
                skb_results_err(r, "spheres.json")[0] ? "spheres.json unreadable" : "spheres.json not found (spheres not run)");
        return;
    }
    cJSON_ArrayForEach(d, skb__jget(doc, "datasets"))
        sphere_plot(rep, dir, sfx, d);
}

/* ---- the experiment: run half harness/exp_spheres.c ---- */

const struct skb_experiment_desc skb_desc_spheres = {
    .run = &skb_exp_spheres,
    .files = (const struct skb_result_file[]){
        { "spheres.json", 1, NULL, "datasets/*/refit_time/*", &skb_schema_spheres }, { NULL, 0, NULL, NULL, NULL } },
    .sections = (const struct skb_report_section[]){
        { "table52", SKB_NEED_REFIT, section_table52, "refits other than LBS are in the Table 6.1 section" },
        { "table61", SKB_NEED_REFIT, section_table61, "the LBS refit is in the Table 5.2 section" },
        { "spheres_posture", SKB_NEED_REFIT, section_posture, NULL },
        { "spheretree", SKB_NEED_REFIT, section_sphere_tree, NULL }, { NULL, 0, NULL, NULL } },
    .plots = (const struct skb_report_plot[]){
        { "sphere-radii", SKB_NEED_REFIT, plot_spheres }, { NULL, 0, NULL } },
};
