/* report_measured.c — rows that set a measured variant or a measured
 * coverage item beside the judged rows: DIB's shortcut variants beside
 * thesis Alg. 4.1 as written (Figure 18's DIB / DLB), SBS's SVD count at the
 * data's precision (Table 3.2).  Each row's id and the rule it is read
 * against are in reports/reference.json "measured_rows". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_internal.h"

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

/* "[id] label" note prefix, so a row can be found by its id */
static char *id_note(const struct skb_report *rep, const char *id, char *note)
{
    const cJSON *e = measured_ref(rep, id);
    const char *label = skb__jstr(skb__jget(e, "label"));
    char *head = skb__fmt("[%s]%s%s", id, label ? " " : "", label ? label : "");
    return skb__join_note(head, note);
}

/* DQ paper App. B's DIB / DLB for each of DIB's shortcut variants timed in
 * this run (cpu.json "dib+one", "dib+shortcut"): new rows, the judged row
 * being Alg. 4.1 as written ("dib") */
void skb__report_dib_variants(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *d)
{
    static const struct { const char *key, *id; } v[] = {
        { "dib+one", "fig18.dib_one_over_dlb" },
        { "dib+shortcut", "fig18.dib_shortcut_over_dlb" },
    };
    double dlb, dib = NAN;
    if (skb__jnum(skb__jget(skb__jget(d, "ms"), "dlb"), &dlb) < 0 || !(dlb > 0))
        return;
    skb__jnum(skb__jget(skb__jget(d, "ms"), "dib"), &dib);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        double ms;
        if (skb__jnum(skb__jget(skb__jget(d, "ms"), v[i].key), &ms) < 0)
            continue;
        const char *var = skb__jstr(skb__jget(skb__jget(skb__jget(skb__jget(d, "checks"), "double"), v[i].key), "variant"));
        char *note = skb__fmt("new: not the paper's algorithm; the judged DIB / DLB row is thesis Alg. 4.1 as written "
                              "(%.3g here, %.2fx this variant's time)", isfinite(dib) ? dib / dlb : NAN, dib / ms);
        skb__row_add(rep, t, run, SKB_ROW_NEW, id_note(rep, v[i].id, note), strdup(d->string),
                     skb__fmt("%s / dlb", v[i].key), strdup(var ? var : "double"), skb__numtxt(ms),
                     skb__numtxt(ms / dlb), strdup("—"), NULL);
    }
}

/* Table 3.2's SVD count (seed 003 section 4: one joint, or a parent and its
 * child, is trivial), stated with the tolerance the parent-child test used
 * and the pairs that broke it, counted apart */
char *skb__sb_svd_note(struct skb_report *rep, const cJSON *d)
{
    const cJSON *ps = skb__jget(skb__jget(d, "pose_stats"), "sb");
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
