/* exp_bounds_schema.c — the table of fields of bounds.json, the results
 * file of harness/exp_bounds.c: declared once, named by the writer
 * (skb_results_write checks the document against it before the atomic write)
 * and by the experiment's descriptor (reports/exp_bounds.c), whose readers
 * (report, compare, `skinbench schema`) check every file against it.  A file of
 * its own, without the measuring code, so that the fuzzer (tests/fuzz.sh)
 * links the tables.  docs/outputs.md "Outputs" describes the file. */
#include "skb_schemas.h"

const struct skb_schema skb_schema_bounds = {
    .file = "bounds.json", .writer = "harness/exp_bounds.c", .meta = 1,
    .doc = "Worst-case gaps of QLB against SLERP and DLB against ScLERP, and the worked examples",
    .fields = (const struct skb_schema_field[]){
        { .path = "qlb_slerp_max_angle_deg", .type = SKB_ST_NUMBER, .doc = "largest angle gap QLB vs SLERP (degrees)" },
        { .path = "dlb_sclerp_max_angle_deg", .type = SKB_ST_NUMBER, .doc = "largest angle gap DLB vs ScLERP (degrees)" },
        { .path = "dlb_sclerp_max_translation_frac", .type = SKB_ST_NUMBER,
          .doc = "largest translation gap DLB vs ScLERP, as a fraction" },
        { .path = NULL } },
};
