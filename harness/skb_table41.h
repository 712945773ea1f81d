/* skb_table41.h — table-4.1.md: the measured verdict matrix and FLOP fits
 * beside thesis Table 4.1.  Written from the results files of the run
 * (properties.json, flops.json in ctx->out_dir) and, for the "paper"
 * column, reports/reference.json when it exists; any part that is missing
 * is shown as not measured.  Mismatches are marked in the table and, for the
 * kinds selected by `loud`, also collected one line each ("MISMATCH ...\n")
 * into lines: the caller prints them (as progress, so --quiet silences them). */
#ifndef SKB_TABLE41_H
#define SKB_TABLE41_H

#include <stddef.h>
#include <cJSON.h>
#include "skb_run.h"

#define SKB_TABLE41_LOUD_VERDICTS 1
#define SKB_TABLE41_LOUD_FLOPS    2

int skb_table41_write(const struct skb_run_ctx *ctx, int loud, char *lines, size_t lineslen,
                      char *msg, size_t msglen);
/* reports/reference.json, found by common/skb_reference.h ($SKB_REFERENCE,
 * next to the executable, ./reports); NULL when absent or unreadable */
cJSON *skb_table41_reference(const struct skb_run_ctx *ctx);

#endif
