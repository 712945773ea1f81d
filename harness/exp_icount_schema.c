/* exp_icount_schema.c — the table of fields of icount.json, the results
 * file of harness/exp_icount.c: declared once, named by the writer
 * (skb_results_write checks the document against it before the atomic write)
 * and by the experiment's descriptor (reports/exp_icount.c), whose readers
 * (report, compare, `skinbench schema`) check every file against it.  A file of
 * its own, without the measuring code, so that the fuzzer (tests/fuzz.sh)
 * links the tables.  docs/outputs.md "Outputs" describes the file. */
#include "skb_schemas.h"

const struct skb_schema skb_schema_icount = {
    .file = "icount.json", .writer = "harness/exp_icount.c", .meta = 1,
    .doc = "Instruction counts of every CPU kernel: the nightly's exact, timing-free gate",
    .fields = (const struct skb_schema_field[]){
        { .path = "available", .type = SKB_ST_BOOL, .flags = SKB_SF_REQUIRED, .doc = "false where counting is impossible" },
        { .path = "kernels", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .when = "available",
          .doc = "a map whose keys are kernel names" },
        { .path = "kernels/*", .type = SKB_ST_NUMBER, .doc = "instructions" },
        { .path = NULL } },
};
