/* exp_properties_schema.c — the table of fields of properties.json, the results
 * file of harness/exp_properties.c: declared once, named by the writer
 * (skb_results_write checks the document against it before the atomic write)
 * and by the experiment's descriptor (reports/exp_properties.c), whose readers
 * (report, compare, `skinbench schema`) check every file against it.  A file of
 * its own, without the measuring code, so that the fuzzer (tests/fuzz.sh)
 * links the tables.  docs/outputs.md "Outputs" describes the file. */
#include "skb_schemas.h"

static const char *const plus_minus[] = { "+", "-", NULL };

const struct skb_schema skb_schema_properties = {
    .file = "properties.json", .writer = "harness/exp_properties.c", .meta = 1,
    .doc = "Table 4.1: each method's verdict on each blend property",
    .fields = (const struct skb_schema_field[]){
        { .path = "verdicts", .type = SKB_ST_OBJECT, .flags = SKB_SF_REQUIRED,
          .doc = "a map whose keys are registry method names (the paper's methods)" },
        { .path = "verdicts/*", .type = SKB_ST_OBJECT, .doc = "a map whose keys are property names" },
        { .path = "verdicts/*/*", .type = SKB_ST_ENUM, .values = plus_minus, .doc = "the measured verdict" },
        { .path = "verdicts_other_methods", .type = SKB_ST_OBJECT,
          .doc = "the same for registry methods the paper does not judge" },
        { .path = "verdicts_other_methods/*", .type = SKB_ST_OBJECT, .doc = "a map whose keys are property names" },
        { .path = "verdicts_other_methods/*/*", .type = SKB_ST_ENUM, .values = plus_minus, .doc = "the measured verdict" },
        { .path = "config", .type = SKB_ST_OBJECT, .doc = "samples, tolerances and seeds of the checks" },
        { .path = "details", .type = SKB_ST_OBJECT, .doc = "per method: worst errors and counterexamples" },
        { .path = NULL } },
};
