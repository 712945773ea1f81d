/* exp_flops_schema.c — the table of fields of flops.json, the results
 * file of harness/exp_flops.c: declared once, named by the writer
 * (skb_results_write checks the document against it before the atomic write)
 * and by the experiment's descriptor (reports/exp_flops.c), whose readers
 * (report, compare, `skinbench schema`) check every file against it.  A file of
 * its own, without the measuring code, so that the fuzzer (tests/fuzz.sh)
 * links the tables.  docs/outputs.md "Outputs" describes the file. */
#include "skb_schemas.h"

const struct skb_schema skb_schema_flops = {
    .file = "flops.json", .writer = "harness/exp_flops.c", .meta = 1,
    .doc = "FLOPs per vertex of each blend, counted, and the fit a + b * joints",
    .fields = (const struct skb_schema_field[]){
        { .path = "fits", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED, .doc = "a map whose keys are registry method names" },
        { .path = "fits/*", .type = SKB_ST_OBJECT, .doc = "the method's fit" },
        { .path = "fits/*/a", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED, .doc = "FLOPs per vertex, constant part" },
        { .path = "fits/*/b", .type = SKB_ST_NUMBER, .flags = SKB_SF_REQUIRED, .doc = "FLOPs per vertex per joint" },
        { .path = NULL } },
};
