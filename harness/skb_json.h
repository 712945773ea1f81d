/* skb_json.h — results JSON: common metadata, non-finite numbers, atomic writes.
 * Every results file starts with skb_json_results_new(), so it records the
 * schema version, seed, machine, compiler and library versions. */
#ifndef SKB_JSON_H
#define SKB_JSON_H

#include <stddef.h>
#include <cJSON.h>
#include "skb_run.h"

#define SKB_SCHEMA_VERSION 1

/* {"schema_version", "experiment", "seed", "quick", "machine": {...},
 *  "compiler", "libraries": {...}, "started_utc"} */
cJSON *skb_json_results_new(const struct skb_run_ctx *ctx, const char *experiment);
/* machine description: hostname, kernel, cpu model, cores, memory */
cJSON *skb_json_machine(void);
/* a number, or the string "nan" / "inf" / "-inf" (cJSON would write null) */
cJSON *skb_json_number(double x);
void skb_json_add_number(cJSON *obj, const char *key, double x);
/* array of n numbers */
cJSON *skb_json_array(const double *x, int n);
/* the run's seed, exactly: a number up to 2^53, a decimal string above */
cJSON *skb_json_seed(unsigned long seed);
/* read a seed skb_json_seed wrote; 0 on success, -1 if not an exact seed */
int skb_json_get_seed(const cJSON *item, unsigned long *out);
/* read a number that skb_json_number wrote; 0 on success */
int skb_json_get_number(const cJSON *item, double *out);

/* write text to path through a temporary file in the same directory and
 * rename(2): a crash never leaves a half-written file or clobbers the old one */
int skb_write_atomic(const char *path, const char *text, size_t len, char *msg, size_t msglen);
int skb_json_write_atomic(const char *path, const cJSON *root, char *msg, size_t msglen);
/* write ctx->out_dir/name */
int skb_json_write_result(const struct skb_run_ctx *ctx, const char *name, const cJSON *root,
                          char *msg, size_t msglen);
/* read and parse a JSON file; msg names the file and the position of a parse error */
int skb_json_read_file(const char *path, cJSON **out, char *msg, size_t msglen);
/* read a whole file ("-" = stdin); caller frees *out */
int skb_read_file(const char *path, char **out, size_t *len, char *msg, size_t msglen);
/* the same, failing with SKB_EINVAL past max bytes (0 = no limit) */
int skb_read_file_max(const char *path, size_t max, char **out, size_t *len, char *msg, size_t msglen);
/* parse text[0..len); msg says which failure: out of memory (SKB_ENOMEM),
 * nesting too deep, truncated, malformed at a line; whole = 1 also rejects
 * anything but whitespace after the document */
int skb_json_parse_text(const char *path, const char *text, size_t len, int whole, cJSON **out, char *msg,
                        size_t msglen);
/* mkdir -p */
int skb_mkdirs(const char *path, char *msg, size_t msglen);

#endif
