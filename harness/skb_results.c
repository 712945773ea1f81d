/* skb_results.c — the metadata every results file starts with, and writing a
 * results file into the run's directory (harness/: it knows the run context
 * and the model importer, which common/skb_json.c must not). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <gsl/gsl_version.h>
#include "skb_dataset.h"
#include "skb_results.h"
#include "skb_flops.h"
#include "skb_icount.h"

int skb_run_is_measured_child(void)
{
    return getenv(SKB_ICOUNT_ENV) != NULL || getenv(SKB_FLOPS_CHILD_ENV) != NULL;
}

cJSON *skb_json_results_new(const struct skb_run_ctx *ctx, const char *experiment)
{
    cJSON *r = cJSON_CreateObject();
    char when[64];
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    cJSON_AddNumberToObject(r, "schema_version", SKB_SCHEMA_VERSION);
    cJSON_AddStringToObject(r, "experiment", experiment);
    cJSON_AddItemToObject(r, "seed", skb_json_seed(ctx->seed));
    cJSON_AddBoolToObject(r, "quick", ctx->quick);
    if (ctx->dataset_file)   /* the report judges no row of a user's model against a paper */
        cJSON_AddStringToObject(r, "user_dataset", ctx->dataset_file);
    cJSON_AddStringToObject(r, "started_utc", when);
    cJSON_AddItemToObject(r, "machine", skb_json_machine());
    /* which invocation and which binary wrote it: a folder holding files of
     * two runs (a reused --out) is told apart from one run (manifest.json) */
    if (ctx->run_id)
        cJSON_AddStringToObject(r, "run_id", ctx->run_id);
    if (ctx->binary_sha256)
        cJSON_AddStringToObject(r, "binary_sha256", ctx->binary_sha256);
    /* every results file of a run timed with an injected slow-down carries
     * the marker, so no file of it can pass as a baseline (compare) */
    const char *inj = getenv("SKB_INJECT_SLOWDOWN");
    if (inj && *inj)
        cJSON_AddStringToObject(r, "injected", inj);
#ifdef __clang__
    cJSON_AddStringToObject(r, "compiler", "clang " __clang_version__);
#else
    cJSON_AddStringToObject(r, "compiler", "gcc " __VERSION__);
#endif
    cJSON *lib = cJSON_AddObjectToObject(r, "libraries");
    cJSON_AddStringToObject(lib, "gsl", GSL_VERSION);
    cJSON_AddStringToObject(lib, "cjson", cJSON_Version());
    char importer[64];
    skb_dataset_importer_version(importer, sizeof importer);
    cJSON_AddStringToObject(lib, "model_importer", importer);
    return r;
}

int skb_json_write_result(const struct skb_run_ctx *ctx, const char *name, const cJSON *root,
                          char *msg, size_t msglen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", ctx->out_dir, name);
    return skb_json_write_atomic(path, root, msg, msglen);
}

int skb_results_write(const struct skb_run_ctx *ctx, const struct skb_schema *schema, const cJSON *root,
                      char *msg, size_t msglen)
{
    char path[4096], why[700];
    snprintf(path, sizeof path, "%s/%s", ctx->out_dir, schema->file);
    if (skb_schema_check(schema, root, schema->file, why, sizeof why) < 0) {
        snprintf(msg, msglen, "%s: the document breaks its schema, not written: %s", path, why);
        return SKB_EPARSE;
    }
    return skb_json_write_atomic(path, root, msg, msglen);
}
