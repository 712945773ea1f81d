/* skb_results.h — results files of `skinbench run`.  Every results file starts
 * with skb_json_results_new(), so it records the schema version, seed,
 * machine, compiler and library versions. */
#ifndef SKB_RESULTS_H
#define SKB_RESULTS_H

#include "skb_json.h"
#include "skb_run.h"
#include "skb_schema.h"

/* {"schema_version", "experiment", "seed", "quick", "machine": {...},
 *  "compiler", "libraries": {...}, "started_utc"} */
cJSON *skb_json_results_new(const struct skb_run_ctx *ctx, const char *experiment);
/* write ctx->out_dir/name */
int skb_json_write_result(const struct skb_run_ctx *ctx, const char *name, const cJSON *root,
                          char *msg, size_t msglen);
/* check root against the file's table (harness/exp_<name>_schema.c), then write
 * ctx->out_dir/<schema file>: a document that breaks its own table is a
 * bug of the writer, so nothing is written and msg names file and field */
int skb_results_write(const struct skb_run_ctx *ctx, const struct skb_schema *schema, const cJSON *root,
                      char *msg, size_t msglen);

#endif
