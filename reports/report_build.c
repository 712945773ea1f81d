/* report_build.c — the report model assembled: the runs table, every
 * registered experiment's sections, then the report-wide ones.  It calls
 * every section builder, so it sits above them (the helpers they share are
 * report.c and report_fmt.c). */
#include <stdio.h>
#include <string.h>
#include "report_internal.h"

/* the runs table, then every registered experiment's sections in list
 * order; each per-method section then gets a row for every registry method
 * it lacks (report_methods.c) */
int skb_report_build(const struct skb_results *runs, int nruns, const cJSON *ref,
                     struct skb_report *rep, char *msg, size_t msglen)
{
    memset(rep, 0, sizeof *rep);
    if (nruns < 1 || !runs || !ref) {
        snprintf(msg, msglen, "report: no results to report");
        return SKB_EINVAL;
    }
    rep->runs = runs;
    rep->nruns = nruns;
    rep->ref = ref;
    skb__report_runs(rep);
    for (int e = 0; skb_experiment_list[e]; e++) {
        const struct skb_experiment_desc *d = skb_experiment_list[e];
        for (int i = 0; d->sections && d->sections[i].build; i++) {
            int first = rep->ntables;
            d->sections[i].build(rep);
            for (int t = first; t < rep->ntables; t++)
                skb__absent_method_rows(rep, &rep->tables[t], d, &d->sections[i]);
        }
    }
    /* report-wide sections: the seeds' coverage, the bibliography, and the
     * headline that sums up the judged rows above (so it comes last) */
    skb__report_measured(rep);
    skb__report_coverage(rep);
    skb__report_bibliography(rep);
    skb__report_headline(rep);
    if (rep->overflow[0]) {
        snprintf(msg, msglen, "%s", rep->overflow);
        skb_report_free(rep);
        return SKB_EINVAL;
    }
    return 0;
}
