/* exp_gpu_schema.c — the table of fields of gpu.json, the results
 * file of harness/exp_gpu.c: declared once, named by the writer
 * (skb_results_write checks the document against it before the atomic write)
 * and by the experiment's descriptor (reports/exp_gpu.c), whose readers
 * (report, compare, `skinbench schema`) check every file against it.  A file of
 * its own, without the measuring code, so that the fuzzer (tests/fuzz.sh)
 * links the tables.  docs/outputs.md "Outputs" describes the file. */
#include "skb_schemas.h"

const struct skb_schema skb_schema_gpu = {
    .file = "gpu.json", .writer = "harness/exp_gpu.c", .meta = 1,
    .doc = "GPU shader times, instruction counts and errors against the CPU",
    .fields = (const struct skb_schema_field[]){
        { .path = "max_abs_error", .type = SKB_ST_OBJECT, .doc = "a map whose keys are shader names" },
        { .path = "max_abs_error/*", .type = SKB_ST_NUMBER, .doc = "largest position error against the CPU" },
        { .path = "instructions", .type = SKB_ST_OBJECT, .doc = "a map whose keys are shader names" },
        { .path = "instructions/*", .type = SKB_ST_NUMBER, .doc = "instructions per vertex" },
        { .path = "ms", .type = SKB_ST_OBJECT, .doc = "a map whose keys are dataset names" },
        { .path = "ms/*", .type = SKB_ST_OBJECT, .doc = "a map whose keys are shader names" },
        { .path = "ms/*/*", .type = SKB_ST_NUMBER, .doc = "ms per frame" },
        { .path = "shaders", .type = SKB_ST_CONTAINER, .doc = "the shaders timed (cpu_method: their registry method)" },
        SKB_SCHEMA_SITTING("compute/fig1_paired"),
        { .path = "compute_not_run", .type = SKB_ST_STRING,
          .doc = "why the compute path did not run in this run (its place: \"compute\")" },
        { .path = NULL } },
};
