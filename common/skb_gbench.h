/* skb_gbench.h — the one reader of Google Benchmark's JSON output
 * (`--benchmark_out_format=json`): `run cpu` takes its medians from it and
 * `compare` its repetitions for the U test, so both read every row the same
 * way — same rows kept, same unit rule.
 *
 * Rows: the entries of "benchmarks".  A row is a repetition when its
 * "run_type" is "iteration" or absent (aggregates — mean, median, stddev —
 * are skipped) and it has a finite "cpu_time" or "real_time".  Its name is
 * "run_name", else "name".  Times are converted to ns by "time_unit": "ns"
 * (also when the field is absent: Google Benchmark's default unit), "us",
 * "ms", "s"; any other unit is an error naming the row and the value, never
 * a silent guess. */
#ifndef SKB_GBENCH_H
#define SKB_GBENCH_H

#include <stddef.h>
#include <cJSON.h>
#include "skb_error.h"
#include "skb_strmap.h"

/* one repetition; name points into the document */
struct skb_gbench_row {
    const char *name;
    double cpu_ns;         /* NAN where the row has no cpu_time */
    double real_ns;        /* NAN where the row has no real_time */
    double items_per_s;    /* NAN where the row has no items_per_second */
};

/* row b of "benchmarks" (index i, for messages): 1 and *row when it is a
 * repetition, 0 when it is not (aggregate, no time), SKB_EPARSE with msg
 * for an unknown time_unit */
int skb_gbench_row(const cJSON *b, int i, struct skb_gbench_row *row, char *msg, size_t msglen);

/* every repetition of one benchmark, in document order */
struct skb_gbench_bench {
    char *name;
    int nrep, cap;
    double *cpu_ns, *real_ns, *items_per_s;
    double *time_ns;       /* skb_gbench_time_ns of each: finite, as the U test and medians take them */
};

/* all benchmarks of a document, in order of first appearance; index maps
 * a name to its position (one pass over the rows, O(1) look-ups) */
struct skb_gbench_set {
    int n, cap;
    struct skb_gbench_bench *b;
    struct skb_strmap index;
};

/* read doc (memory grows with it: no cap on rows or repetitions).  0 on
 * success (a document without "benchmarks" gives n = 0); SKB_EPARSE or
 * SKB_ENOMEM with msg, and g freed (empty).  Free with skb_gbench_set_free;
 * freeing an empty or freed set again is harmless. */
int skb_gbench_parse(const cJSON *doc, struct skb_gbench_set *g, char *msg, size_t msglen);
void skb_gbench_set_free(struct skb_gbench_set *g);
/* the benchmark named name, or NULL (hashed: O(1) on average) */
const struct skb_gbench_bench *skb_gbench_find(const struct skb_gbench_set *g, const char *name);
/* repetition r's time in ns: CPU time where Google Benchmark gave it (less
 * sensitive to the other core's load than wall time), else real time */
double skb_gbench_time_ns(const struct skb_gbench_bench *b, int r);

#endif
