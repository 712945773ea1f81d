/* gate_artifacts.c — compare's exact gate of the `artifacts` experiment
 * (harness/exp_artifacts.c, reports/exp_artifacts.c): on the arm, a method
 * that ran in the baseline and no longer does, or whose flip between 179 and
 * 181 degrees of twist (DQ paper Fig. 20) changed, is a regression. */
#include <stdio.h>
#include "skb_json.h"
#include "report_internal.h"   /* skb__jget, skb__jstr */
#include "compare_internal.h"

#define ART "artifacts.json"

void skb__gate_artifacts(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
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

