/* report_measured.c — rows that set a measured variant or a measured
 * coverage item beside the judged rows: DIB's shortcut variants beside
 * thesis Alg. 4.1 as written (Figure 18's DIB / DLB), SBS's SVD count at the
 * data's precision (Table 3.2).  Each row's id and the rule it is read
 * against are in reports/reference.json "measured_rows". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_internal.h"
#include "skb_method.h"   /* the methods' roles (skb_method_role_name) */

/* the reference.json entry of a measured row */
static const cJSON *measured_ref(const struct skb_report *rep, const char *id)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, skb__jget(rep->ref, "measured_rows")) {
        const char *s = skb__jstr(skb__jget(e, "id"));
        if (s && strcmp(s, id) == 0)
            return e;
    }
    return NULL;
}

/* a measured row judged by its reference entry's rule (reports/verdict.c);
 * a timed ratio (p, else NULL: a count) on its pairs, the interval widened
 * by this run's A/A floor or the declared minimum (skb__judge_paired) */
static int judge_row(struct skb_report *rep, const cJSON *e, double meas, double paper, const struct skb_paired *p,
                     struct skb_verdict *v, char **note)
{
    int st = skb__judge_v(skb__jget(e, "tolerance"), meas, paper, NAN, v, note);
    if (p && skb_rule_known(v->rule))
        st = skb__judge_paired(rep, v, p, note);
    return st;
}

/* "[id] label" note prefix, so a row can be found by its id */
static char *id_note(const struct skb_report *rep, const char *id, char *note)
{
    const cJSON *e = measured_ref(rep, id);
    const char *label = skb__jstr(skb__jget(e, "label"));
    char *head = skb__fmt("[%s]%s%s", id, label ? " " : "", label ? label : "");
    head = skb__join_note(head, note);
    free(note);   /* the note is taken over (join copies it) */
    return head;
}

/* DQ paper App. B's DIB / DLB for each of DIB's shortcut variants timed in
 * this run (cpu.json "dib+one", "dib+shortcut"): new rows, the judged row
 * being Alg. 4.1 as written (DIB's own key) */
void skb__report_dib_variants(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *d)
{
    static const struct { const char *key, *id; } v[] = {
        { "dib+one", "fig18.dib_one_over_dlb" },
        { "dib+shortcut", "fig18.dib_shortcut_over_dlb" },
    };
    const char *dlb = skb_method_role_name(SKB_MF_HEADLINE), *dibn = skb_method_role_name(SKB_MF_ITERATIVE);
    const cJSON *rows = skb__jget(skb__jget(d, "paired"), "rows");
    struct skb_paired pd;
    int has_dib = skb__paired_read(skb__paired_find(rows, dibn, dlb, NULL), &pd) == 0;
    (void)rep;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        double ms = NAN;
        struct skb_paired p;
        if (skb__paired_read(skb__paired_find(rows, v[i].key, dlb, NULL), &p) < 0)
            continue;
        skb__jnum(skb__jget(skb__jget(d, "ms"), v[i].key), &ms);
        const char *var = skb__jstr(skb__jget(skb__jget(skb__jget(skb__jget(d, "checks"), "double"), v[i].key), "variant"));
        char *note = skb__fmt("new: not the paper's algorithm; the judged DIB / DLB row is thesis Alg. 4.1 as written "
                              "(%.3g here, paired; %.2fx this variant's, the quotient of the two paired ratios)",
                              has_dib ? pd.ratio : NAN, has_dib ? pd.ratio / p.ratio : NAN);
        skb__row_add(rep, t, run, SKB_ROW_NEW, id_note(rep, v[i].id, note), strdup(d->string),
                     skb__fmt("%s / dlb", v[i].key), strdup(var ? var : "double"), skb__numtxt(ms),
                     skb__numtxt(p.ratio), strdup("—"), strdup("—"), NULL);
    }
}

/* Table 3.2's SVD count (seed 003 section 4: one joint, or a parent and its
 * child, is trivial), stated with the tolerance the parent-child test used
 * and the pairs that broke it, counted apart */
char *skb__sb_svd_note(struct skb_report *rep, const cJSON *d)
{
    const cJSON *ps = skb__jget(skb__jget(d, "pose_stats"), skb_method_role_name(SKB_MF_ROT_CENTERS));
    double svd, fb, tol;
    if (skb__jnum(skb__jget(ps, "solves_per_pose_mean"), &svd) < 0
        || skb__jnum(skb__jget(ps, "parent_child_fallbacks_per_pose_mean"), &fb) < 0
        || skb__jnum(skb__jget(ps, "trivial_tolerance_relative"), &tol) < 0)
        return NULL;
    return id_note(rep, "table32.svds_at_data_precision",
                   skb__fmt("%.4g SVDs per pose at the data's precision (a parent-child set is trivial while the pose "
                            "keeps its joint to %.2g of the set's size; the .X models store 6 decimals), of them %.4g "
                            "parent-child sets beyond it (fallbacks)", svd, tol, fb));
}

int skb__posture_not_applicable(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *d,
                                const cJSON *post)
{
    const char *why = skb__jstr(skb__jget(post, "not_applicable"));
    if (!why)
        return 0;
    skb__row_add(rep, t, run, SKB_ROW_NA, id_note(rep, "table61.neck_by_name", strdup(why)), strdup(d->string),
                 strdup("—"), strdup("—"), NULL);
    return 1;
}

/* SBS's on-demand collision detection over LBS's (thesis Table 6.2, 002
 * Table 2: men 0.31 vs 0.27 ms).  Two readings of what the paper's time
 * holds: (a) the joint sets' rotation centres solved by the query (on
 * demand, cd.json's SB entry: the root's refit needs every set's centre, so all
 * of them are solved each frame); (b) the centres come with the frame's SBS
 * skinning and are not charged to the query ("sb+all_centres" less its
 * prepare, where they are solved).  The paper's small SBS surcharge
 * supports (b): it is judged, (a) is context. */
void skb__report_sbs_centre_rows(struct skb_report *rep, struct skb_rtable *t, int run, const char *name,
                                 const cJSON *x, const cJSON *pe)
{
    const char *sbn = skb_method_role_name(SKB_MF_ROT_CENTERS), *lin = skb_method_role_name(SKB_MF_RATIO_REF);
    char ek[64];
    snprintf(ek, sizeof ek, "%s+all_centres", sbn);   /* harness/exp_cd.c: SB with every centre in its prepare */
    const cJSON *ms = skb__jget(x, "methods"), *lazy = skb__jget(ms, sbn), *lm = skb__jget(ms, lin);
    const cJSON *row = skb__paired_find(skb__jget(skb__jget(x, "sbs_over_lbs"), "rows"), ek, lin, NULL);
    double lbs = NAN, a = NAN, cen = NAN, all = NAN, ps = NAN, pl = NAN, b = NAN, bl = NAN;
    struct skb_paired pb;
    if (!lazy || !lm || skb__jnum(skb__jget(lm, "on_demand_ms"), &lbs) < 0 || skb__jnum(skb__jget(lazy, "on_demand_ms"), &a) < 0)
        return;
    skb__jnum(skb__jget(lazy, "sbs_centres_solved_on_demand"), &cen);
    skb__jnum(skb__jget(skb__jget(ms, ek), "sbs_centres_solved_on_demand"), &all);
    skb__jnum(skb__jget(row, "ms"), &b);
    skb__jnum(skb__jget(row, "control_ms"), &bl);
    int paper = skb__jnum(skb__jget(pe, "sbs_ms"), &ps) == 0 && skb__jnum(skb__jget(pe, "lbs_ms"), &pl) == 0 && pl > 0;
    int paired = skb__paired_read(row, &pb) == 0;
    double pr = paper ? ps / pl : NAN;
    char *na = NULL, *nb = NULL;
    int sa = SKB_ROW_CONTEXT, sb = SKB_ROW_NEW;
    struct skb_verdict vb = { .rule = "" };
    if (paper && paired)
        sb = judge_row(rep, measured_ref(rep, "table62.sbs_over_lbs_on_demand_skin_centres"), pb.ratio, pr, &pb, &vb,
                       &nb);
    else if (paper)
        nb = strdup("not timed pair by pair in this run (cd.json scenarios.*.sbs_over_lbs): not judged");
    /* reading (a) is context: its ratio is not timed pair by pair, so only
     * the absolute times are shown, not their quotient */
    char b1[32], b2[32];
    na = skb__fmt("reading (a), context (absolute times, best of the repeats, no ratio): the query solves a joint set's "
                  "centre when one of its spheres is refitted; %s centres per frame solved so (every set's: %s), as "
                  "the root's refit (thesis Alg. 6.1) covers every joint set", skb__num4(b1, cen), skb__num4(b2, all));
    nb = skb__join_note(nb, paper ? "reading (b), judged: the centres come with the frame's SBS skinning (its prepare, "
                                    "done before each pair and left out); SBS's query over LBS's prepare and query, "
                                    "pair by pair on the same frame; the paper's on-demand SBS costs little more than "
                                    "its LBS, which the centres' SVDs would not allow"
                                  : "reading (b): the centres left to the skinning; no paper SBS time for this scenario");
    skb__row_add(rep, t, run, sa, id_note(rep, "table62.sbs_over_lbs_on_demand_query_centres", na), strdup(name),
                 strdup("sbs / lbs on demand, centres in the query"), skb__numtxt(a), skb__numtxt(lbs), strdup("—"),
                 skb__numtxt(ps), skb__numtxt(pl), skb__numtxt(pr), NULL);
    skb__row_add(rep, t, run, sb, id_note(rep, "table62.sbs_over_lbs_on_demand_skin_centres", nb), strdup(name),
                 strdup("sbs / lbs on demand, centres with the skin"), skb__numtxt(b), skb__numtxt(bl),
                 paired ? skb__numtxt(pb.ratio) : strdup("—"), skb__numtxt(ps), skb__numtxt(pl), skb__numtxt(pr), NULL);
    skb__row_verdict(rep, t, &vb, NULL);
}

/* beside a Fig. 6 share over every frame: the same share in the frame of
 * the deepest contact (the most colliding triangle pairs), its overlap
 * stated; context, as the paper's one frame's overlap is not given */
static void deepest_share_row(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *x, const cJSON *m,
                              const char *id, int level, double paper)
{
    const cJSON *df = skb__jget(m, "deepest_frame");
    double meas = NAN, fr = NAN, pairs = NAN, half = NAN;
    if (!df)
        return;
    skb__jnum(cJSON_GetArrayItem(skb__jget(df, "refitted_share_by_level_on_demand"), level - 1), &meas);
    skb__jnum(skb__jget(df, "frame"), &fr);
    skb__jnum(skb__jget(df, "colliding_pairs"), &pairs);
    skb__jnum(skb__jget(df, "half_distance_root_radii"), &half);
    skb__row_add(rep, t, run, isfinite(meas) ? SKB_ROW_CONTEXT : SKB_ROW_NOT_RUN,
                 skb__fmt("context: the frame of the deepest contact (frame %.0f: %.0f colliding triangle pairs, the "
                          "bodies %.3g root radii from the middle); the paper's one frame does not state its overlap",
                          fr, pairs, half),
                 strdup(id), skb__fmt("%s, %s: share of level-%d spheres refitted on demand, deepest frame", x->string,
                                      m->string, level),
                 strdup("002 Fig. 6 (one frame)"), skb__numtxt(meas), skb__numtxt(paper), NULL);
}

/* 002 Fig. 6 (men walking): the share of each tree level's spheres the
 * on-demand refit touched, levels 5 and 6, per refit method of the men
 * scenario in cd.json */
static void level_share_rows(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *doc)
{
    static const struct { const char *id; int level; } lv[] = {
        { "cd.men_refit_share_level5", 5 }, { "cd.men_refit_share_level6", 6 },
    };
    const cJSON *x;
    cJSON_ArrayForEach(x, skb__jget(doc, "scenarios")) {
        if (!x->string || !strstr(x->string, "men"))
            continue;
        const cJSON *m;
        cJSON_ArrayForEach(m, skb__jget(x, "methods")) {
            const cJSON *sh = skb__jget(m, "refitted_share_by_level_on_demand");
            if (!cJSON_IsArray(sh))
                continue;
            for (size_t i = 0; i < sizeof lv / sizeof lv[0]; i++) {
                const cJSON *e = measured_ref(rep, lv[i].id);
                double meas = NAN, paper = NAN;
                skb__jnum(cJSON_GetArrayItem(sh, lv[i].level - 1), &meas);
                skb__jnum(skb__jget(e, "paper"), &paper);
                char *note = NULL;
                struct skb_verdict v = { .rule = "" };
                /* 002 ran SBS (its section 5) */
                int judged = strcmp(m->string, skb_method_role_name(SKB_MF_ROT_CENTERS)) == 0;
                int st = !isfinite(meas) ? SKB_ROW_NOT_RUN
                       : judged ? judge_row(rep, e, meas, paper, NULL, &v, &note) : SKB_ROW_CONTEXT;
                if (!isfinite(meas))
                    note = skb__fmt("the tree has no level %d", lv[i].level);
                else if (!judged)
                    note = strdup("context: the paper's scenario ran SBS");
                skb__row_add(rep, t, run, st, id_note(rep, lv[i].id, note), strdup(lv[i].id),
                             skb__fmt("%s, %s: share of level-%d spheres refitted on demand", x->string, m->string,
                                      lv[i].level),
                             strdup(skb__ref_str(e, "where")), skb__numtxt(meas), skb__numtxt(paper), NULL);
                if (judged && isfinite(meas))
                    skb__row_verdict(rep, t, &v, NULL);
                deepest_share_row(rep, t, run, x, m, lv[i].id, lv[i].level, paper);
            }
        }
    }
}

/* seed 003 section 5 / thesis 3.4: SBS with Buss and Fillmore's spherical
 * averages in place of QLB, over SBS (woman: 22.74 / 4.54 ms), per dataset
 * cpu.json timed it on */
static void buss_fillmore_rows(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *doc)
{
    const cJSON *e = measured_ref(rep, "table32.buss_fillmore_over_qlb"), *d;
    double paper = NAN;
    skb__jnum(skb__jget(e, "paper"), &paper);
    cJSON_ArrayForEach(d, skb__jget(doc, "datasets")) {
        const char *sbn = skb_method_role_name(SKB_MF_ROT_CENTERS);
        char sa[64];
        struct skb_paired p;
        snprintf(sa, sizeof sa, "%s+sphavg", sbn);
        if (skb__paired_read(skb__paired_find(skb__jget(skb__jget(d, "paired"), "rows"), sa, sbn, NULL), &p) < 0)
            continue;
        char *note = NULL;
        struct skb_verdict v;
        int st = judge_row(rep, e, p.ratio, paper, &p, &v, &note);
        note = skb__join_note(note, "both SBS, paired, positions only; the spherical average iterated to 1e-9 rad from "
                                    "the normalised QLB");
        skb__row_add(rep, t, run, st, id_note(rep, "table32.buss_fillmore_over_qlb", note),
                     strdup("table32.buss_fillmore_over_qlb"),
                     skb__fmt("%s: SBS time with spherical averages / with QLB", d->string),
                     strdup(skb__ref_str(e, "where")), skb__numtxt(p.ratio), skb__numtxt(paper), NULL);
        skb__row_verdict(rep, t, &v, NULL);
    }
}

/* thesis 5.4: rigid-body CD on a rebuilt tree against on-demand CD, the
 * unsubdivided rigid model in Table 5.3's colliding posture (0.7 vs 1.33 ms) */
static void rigid_rows(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *cd)
{
    const cJSON *e = measured_ref(rep, "cd.rigid_rebuilt_over_on_demand");
    const cJSON *l0 = cJSON_GetArrayItem(skb__jget(cd, "scaling"), 0), *r = skb__jget(l0, "rigid_rebuilt_tree");
    double q = NAN, od = NAN, b = NAN, paper = NAN;
    struct skb_paired p;
    if (!r)
        return;
    skb__jnum(skb__jget(r, "query_ms"), &q);
    skb__jnum(skb__jget(l0, "on_demand_ms"), &od);
    skb__jnum(skb__jget(r, "build_ms"), &b);
    skb__jnum(skb__jget(e, "paper"), &paper);
    int paired = skb__paired_read(skb__paired_find(skb__jget(skb__jget(r, "paired"), "rows"), "on_demand",
                                                   "rigid_rebuilt", NULL), &p) == 0;
    char *note = NULL;
    struct skb_verdict v;
    /* the on-demand query over the rigid one, pair by pair: thesis 5.4's order */
    int st = paired ? judge_row(rep, e, p.ratio, paper, &p, &v, &note) : SKB_ROW_NOT_RUN;
    if (!paired)
        note = strdup("the rigid query was not timed pair by pair against on demand (cd.json rigid_rebuilt_tree.paired)");
    note = skb__join_note_take(note, skb__fmt("absolute: rigid query %.4g ms, on demand %.4g ms (best of the repeats); "
                                              "building the two trees took %.4g ms (the paper's: 1549 ms)", q, od, b));
    skb__row_add(rep, t, run, st, id_note(rep, "cd.rigid_rebuilt_over_on_demand", note),
                 strdup("cd.rigid_rebuilt_over_on_demand"),
                 skb__fmt("%s level 0, colliding: on-demand CD / rigid-body CD on rebuilt trees",
                          skb__jstr(skb__jget(skb__jget(cd, "scaling_setup"), "model")) ? skb__jstr(skb__jget(skb__jget(cd, "scaling_setup"), "model")) : "?"),
                 strdup(skb__ref_str(e, "where")), paired ? skb__numtxt(p.ratio) : strdup("—"), skb__numtxt(paper), NULL);
    if (paired)
        skb__row_verdict(rep, t, &v, NULL);
}

/* a measured row on a ratio timed pair by pair: the row kernel / control
 * of rows, judged by the reference entry id; what: the row's description */
static void paired_ref_row(struct skb_report *rep, struct skb_rtable *t, int run, const char *id, const cJSON *rows,
                           const char *kernel, const char *control, char *what, const char *extra)
{
    const cJSON *e = measured_ref(rep, id);
    struct skb_paired p;
    double paper = NAN;
    skb__jnum(skb__jget(e, "paper"), &paper);
    if (!e || skb__paired_read(skb__paired_find(rows, kernel, control, NULL), &p) < 0) {
        free(what);
        return;
    }
    char *note = NULL;
    struct skb_verdict v;
    int st = judge_row(rep, e, p.ratio, paper, &p, &v, &note);
    note = skb__join_note(note, extra);
    skb__row_add(rep, t, run, st, id_note(rep, id, note), strdup(id), what, strdup(skb__ref_str(e, "where")),
                 skb__numtxt(p.ratio), skb__numtxt(paper), NULL);
    skb__row_verdict(rep, t, &v, NULL);
}

/* DQ paper 5 ("more than twice as fast" as log-matrix and SBS blending)
 * and thesis 4.4 (DLB slightly slower than QLB'0), per dataset cpu.json
 * timed them on, the double path, positions only */
static void cpu_order_rows(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *doc)
{
    const char *dlb = skb_method_role_name(SKB_MF_HEADLINE), *lg = skb_method_role_name(SKB_MF_LOG_BLEND);
    const char *sb = skb_method_role_name(SKB_MF_ROT_CENTERS), *ql = skb_method_role_name(SKB_MF_QUAT_LINEAR);
    const cJSON *d;
    cJSON_ArrayForEach(d, skb__jget(doc, "datasets")) {
        const cJSON *rows = skb__jget(skb__jget(d, "paired"), "rows");
        paired_ref_row(rep, t, run, "fig18.dqs_twice_as_fast_as_logm", rows, lg, dlb,
                       skb__fmt("%s: %s / %s, paired, positions only", d->string, lg, dlb), NULL);
        paired_ref_row(rep, t, run, "fig18.dqs_twice_as_fast_as_sbs", rows, sb, dlb,
                       skb__fmt("%s: %s / %s, paired, positions only", d->string, sb, dlb), NULL);
        paired_ref_row(rep, t, run, "fig18.dlb_slower_than_qlb0", rows, dlb, ql,
                       skb__fmt("%s: %s / %s, paired, positions only", d->string, dlb, ql), NULL);
    }
}

/* thesis Table 5.3: on-demand CD's sphere-sphere tests over bottom-up's per
 * subdivision level (cd.json "scaling", the colliding pose); the paper's
 * ratio from reference.json table_5_3's two count rows */
static void sphere_test_rows(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *cd)
{
    static const char *const id = "table53.sphere_tests_on_demand_over_bottom_up";
    const cJSON *e = measured_ref(rep, id), *sec = skb__jget(rep->ref, "table_5_3"), *x;
    cJSON_ArrayForEach(x, skb__jget(cd, "scaling")) {
        double lv = NAN, od = NAN, bu = NAN, pod = NAN, pbu = NAN;
        skb__jnum(skb__jget(x, "level"), &lv);
        skb__jnum(skb__jget(x, "sphere_tests_on_demand"), &od);
        skb__jnum(skb__jget(x, "sphere_tests_bottom_up"), &bu);
        int li = isfinite(lv) ? (int)lv : -1;
        skb__jnum(cJSON_GetArrayItem(skb__jget(sec, "sphere_tests_on_demand"), li), &pod);
        skb__jnum(cJSON_GetArrayItem(skb__jget(sec, "sphere_tests_bottom_up"), li), &pbu);
        double meas = bu > 0 ? od / bu : NAN, paper = pbu > 0 ? pod / pbu : NAN;
        char *note = NULL;
        struct skb_verdict v = { .rule = "" };
        int st = !isfinite(meas) ? SKB_ROW_NOT_RUN : !isfinite(paper) ? SKB_ROW_NEW
               : judge_row(rep, e, meas, paper, NULL, &v, &note);
        note = skb__join_note_take(note, skb__fmt("%.0f / %.0f sphere tests here, %.0f / %.0f in the paper", od, bu,
                                                  pod, pbu));
        skb__row_add(rep, t, run, st, id_note(rep, id, note), strdup(id),
                     skb__fmt("level %.0f: on-demand / bottom-up sphere tests", lv), strdup(skb__ref_str(e, "where")),
                     skb__numtxt(meas), skb__numtxt(paper), NULL);
        if (st != SKB_ROW_NOT_RUN && st != SKB_ROW_NEW)
            skb__row_verdict(rep, t, &v, NULL);
    }
}

/* thesis 6.6: LBS's and SBS's refitted spheres "similar" (Table 6.1's
 * posture, spheres.json postures.table_6_1), SBS / LBS average radius per
 * level against the paper's from reference.json's Table 6.1 columns;
 * judged on creature (the thesis's model), context elsewhere */
static void similar_radii_rows(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *sph)
{
    static const char *const id = "table61.sbs_over_lbs_radius";
    const char *sb = skb_method_role_name(SKB_MF_ROT_CENTERS), *lin = skb_method_role_name(SKB_MF_RATIO_REF);
    const cJSON *e = measured_ref(rep, id), *tab = skb__jget(skb__jget(rep->ref, "spheres"), "table_6_1"), *d;
    cJSON_ArrayForEach(d, skb__jget(sph, "datasets")) {
        const cJSON *l;
        int judged = d->string && strcmp(d->string, "creature") == 0;
        cJSON_ArrayForEach(l, skb__jget(skb__jget(skb__jget(d, "postures"), "table_6_1"), "levels")) {
            double lv = NAN, a = NAN, b = NAN, pa = NAN, pb = NAN;
            skb__jnum(skb__jget(l, "level"), &lv);
            skb__jnum(skb__jget(skb__jget(l, sb), "avg"), &a);
            skb__jnum(skb__jget(skb__jget(l, lin), "avg"), &b);
            int li = isfinite(lv) ? (int)lv - 1 : -1;
            skb__jnum(cJSON_GetArrayItem(skb__jget(tab, sb), li), &pa);
            skb__jnum(cJSON_GetArrayItem(skb__jget(tab, lin), li), &pb);
            double meas = b > 0 ? a / b : NAN, paper = pb > 0 ? pa / pb : NAN;
            if (!isfinite(meas))
                continue;
            char *note = NULL;
            struct skb_verdict v = { .rule = "" };
            int st = !isfinite(paper) ? SKB_ROW_NEW : judged ? judge_row(rep, e, meas, paper, NULL, &v, &note)
                                                             : SKB_ROW_CONTEXT;
            if (!judged)
                note = strdup("context: the thesis's Table 6.1 is of the creature");
            skb__row_add(rep, t, run, st, id_note(rep, id, note), strdup(id),
                         skb__fmt("%s, level %.0f: %s / %s average refitted radius", d->string, lv, sb, lin),
                         strdup(skb__ref_str(e, "where")), skb__numtxt(meas), skb__numtxt(paper), NULL);
            if (judged && isfinite(paper))
                skb__row_verdict(rep, t, &v, NULL);
        }
    }
}

/* thesis 5.4: the bottom-up refit's share of bottom-up CD (men walking) */
static void refit_share_rows(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *cd)
{
    const cJSON *x;
    const char *lin = skb_method_role_name(SKB_MF_RATIO_REF);
    cJSON_ArrayForEach(x, skb__jget(cd, "scenarios")) {
        if (!x->string || !strstr(x->string, "men"))
            continue;
        const cJSON *m = skb__jget(skb__jget(x, "methods"), lin);
        paired_ref_row(rep, t, run, "cd.men_bottom_up_refit_share",
                       skb__jget(skb__jget(m, "paired_refit_share"), "rows"), "bottom_up_refit", "bottom_up",
                       skb__fmt("%s, %s: bottom-up's prepare, skin and refit of everything / its whole query", x->string,
                                lin), "frame by frame, both on the same frame");
    }
}

/* SBS collision paper 002 section 5: an SBS refit per sphere over an LBS
 * refit, on the men's tree (spheres.json datasets.body.refit_paired; the
 * other models' rows are context) */
static void refit_cost_rows(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *sph)
{
    const cJSON *d;
    const char *sb = skb_method_role_name(SKB_MF_ROT_CENTERS), *lin = skb_method_role_name(SKB_MF_RATIO_REF);
    cJSON_ArrayForEach(d, skb__jget(sph, "datasets")) {
        const cJSON *rows = skb__jget(skb__jget(d, "refit_paired"), "rows");
        double n = NAN;
        skb__jnum(skb__jget(skb__jget(d, "refit_paired"), "spheres"), &n);
        char *extra = skb__fmt("%.0f spheres each side, the same tree and pose; the refit hooks as called by the "
                               "on-demand query (methods/refit_sbs.c, refit_lbs.c)", n);
        if (d->string && strcmp(d->string, "body") == 0)
            paired_ref_row(rep, t, run, "table62.sbs_refit_over_lbs_refit", rows, sb, lin,
                           skb__fmt("%s (the men): %s refit / %s refit per sphere", d->string, sb, lin), extra);
        else {
            struct skb_paired p;
            if (skb__paired_read(skb__paired_find(rows, sb, lin, NULL), &p) == 0)
                skb__row_add(rep, t, run, SKB_ROW_CONTEXT,
                             id_note(rep, "table62.sbs_refit_over_lbs_refit",
                                     skb__fmt("context: the paper's scene is the men (body); %s", extra)),
                             strdup("table62.sbs_refit_over_lbs_refit"),
                             skb__fmt("%s: %s refit / %s refit per sphere", d->string, sb, lin), strdup("—"),
                             skb__numtxt(p.ratio), strdup("—"), NULL);
        }
        free(extra);
    }
}

void skb__report_measured(struct skb_report *rep)
{
    static const char *const cols[] = { "id", "what", "where", "measured", "paper", NULL };
    struct skb_rtable *t = skb__tbl_new(rep, "measured", "Measured coverage of the seeds' numbers",
                                        "seeds 000, 002, 003 (see each row)",
                                        strdup("Numbers the seeds give outside their tables, measured here; each row's "
                                               "id and rule are in reports/reference.json measured_rows."),
                                        cols);
    for (int k = 0; k < rep->nruns; k++) {
        const cJSON *cpu = skb_results_doc(&rep->runs[k], "cpu.json"), *cd = skb_results_doc(&rep->runs[k], "cd.json");
        const cJSON *sph = skb_results_doc(&rep->runs[k], "spheres.json");
        if (cpu) {
            buss_fillmore_rows(rep, t, k, cpu);
            cpu_order_rows(rep, t, k, cpu);
        }
        if (sph) {
            refit_cost_rows(rep, t, k, sph);
            similar_radii_rows(rep, t, k, sph);
        }
        if (!cd) {
            skb__row_add(rep, t, k, SKB_ROW_NOT_RUN, skb__missing_note(&rep->runs[k], "cd.json"), strdup("—"), NULL);
            continue;
        }
        level_share_rows(rep, t, k, cd);
        sphere_test_rows(rep, t, k, cd);
        rigid_rows(rep, t, k, cd);
        refit_share_rows(rep, t, k, cd);
    }
}
