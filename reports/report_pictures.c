/* report_pictures.c — numbers behind the pictures (gpu.json, harness/
 * arm_volume.c and gpu_pictures.c): the arm's volume and elbow cross-section
 * over twist per method (the candy wrapper of thesis 2.2.1 / DQ paper Fig. 2
 * as a number), and each method's distance to DIB in the heat-map pose.
 * The papers print no such numbers: descriptive tables, not judged. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"

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

void skb__report_arm_volume(struct skb_report *rep)
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

void skb__report_heat_map(struct skb_report *rep)
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
