/* report_coverage.c — two descriptive tables from reports/reference.json: the
 * coverage of the seeds (every table and figure: reproduced, partly, context
 * or not attempted, and why) and the bibliography mapping the seed ids used
 * in every "source" to the papers' titles.  Nothing here is measured or
 * judged; the rows are not counted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_internal.h"

static char *ref_dup(const cJSON *o, const char *k)
{
    return strdup(skb__ref_str(o, k));
}

void skb__report_coverage(struct skb_report *rep)
{
    static const char *const cols[] = { "seed", "table / figure", "content", "coverage", "section", "why", NULL };
    const cJSON *sec = skb__jget(rep->ref, "coverage"), *it;
    /* the same rows whatever the number of runs: no machine column */
    int nruns = rep->nruns;
    rep->nruns = 1;
    struct skb_rtable *t = skb__tbl_new(rep, "coverage", "Coverage of the seeds: every table and figure", "reports/reference.json \"coverage\"",
                                      strdup(skb__ref_str(sec, "about")), cols);
    if (t) {
        t->unjudged = 1;
        t->link_col = 5;
        cJSON_ArrayForEach(it, skb__jget(sec, "items"))
            skb__row_add(rep, t, 0, SKB_ROW_CONTEXT, NULL, ref_dup(it, "seed"), ref_dup(it, "item"), ref_dup(it, "content"),
                         ref_dup(it, "coverage"), ref_dup(it, "section"), ref_dup(it, "why"), NULL);
    }
    rep->nruns = nruns;
}

void skb__report_bibliography(struct skb_report *rep)
{
    static const char *const cols[] = { "seed", "title", "authors", "published", "called here", NULL };
    const cJSON *sec = skb__jget(rep->ref, "bibliography"), *it;
    int nruns = rep->nruns;
    rep->nruns = 1;
    struct skb_rtable *t = skb__tbl_new(rep, "bibliography", "Bibliography: the seeds", "reports/reference.json \"bibliography\"",
                                      strdup(skb__ref_str(sec, "about")), cols);
    if (t) {
        t->unjudged = 1;
        cJSON_ArrayForEach(it, skb__jget(sec, "seeds"))
            skb__row_add(rep, t, 0, SKB_ROW_CONTEXT, NULL, ref_dup(it, "seed"), ref_dup(it, "title"), ref_dup(it, "authors"),
                         ref_dup(it, "published"), ref_dup(it, "called"), NULL);
    }
    rep->nruns = nruns;
}
