/* exp_icount.c — the `icount` experiment's report half (run half:
 * harness/exp_icount.c; icount.json's table of fields:
 * harness/exp_icount_schema.c): instruction counts of every CPU kernel, the
 * nightly's exact timing-free gate (regress/compare_ab.c, listed in
 * regress/gate_exact.c); no report section: compare reads it. */
#include "report_internal.h"
#include "skb_run.h"

const struct skb_experiment_desc skb_desc_icount = {
    .run = &skb_exp_icount,
    .files = (const struct skb_result_file[]){
        { "icount.json", 1, NULL, NULL, &skb_schema_icount }, { NULL, 0, NULL, NULL, NULL } },
};
