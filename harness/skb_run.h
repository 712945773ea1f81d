/* skb_run.h — the experiment interface: `skinbench run NAME...` looks NAME up
 * in the one table in harness/experiments.c and calls its run hook. */
#ifndef SKB_RUN_H
#define SKB_RUN_H

#include <stddef.h>
#include "skb_method.h"
#include "skb_stats.h"   /* skb_sorted_median: the experiments' medians */

struct skb_run_ctx {
    const char *out_dir;        /* results directory (exists when run is called) */
    unsigned long seed;         /* the seed every experiment draws from; recorded in its JSON */
    int quick;                  /* 1: seconds-long version for `make check` */
    int verbose;                /* progress lines on stderr */
    const char *exe_path;       /* absolute path of the running skinbench (finds helper binaries) */
    const char *methods_filter; /* comma-separated method names or NULL for all */
    const char *datasets_filter; /* comma-separated dataset names (cpu) or NULL for all */
    int repetitions;            /* timing repetitions (cpu); 0 = the experiment's default */
    struct skb_params params;
};

struct skb_experiment {
    const char *name;
    const char *description;
    /* writes its results into ctx->out_dir; on failure fills msg with one line */
    int (*run)(const struct skb_run_ctx *ctx, char *msg, size_t msglen);
};

/* NULL-terminated, in the order `run all` executes them */
extern const struct skb_experiment *const skb_experiments[];
const struct skb_experiment *skb_experiment_find(const char *name);

/* 1 when method m is selected by ctx->methods_filter */
int skb_run_wants_method(const struct skb_run_ctx *ctx, const struct skb_method *m);
/* 1 when dataset `name` is selected by ctx->datasets_filter */
int skb_run_wants_dataset(const struct skb_run_ctx *ctx, const char *name);
/* progress line on stderr: "[name] text" (only when ctx->verbose) */
void skb_run_progress(const struct skb_run_ctx *ctx, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
