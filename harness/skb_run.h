/* skb_run.h — the run half of an experiment: `skinbench run NAME...` finds
 * NAME in the one experiment list (reports/experiment_list.c, which also
 * holds each experiment's results checks, report sections, plots and gates)
 * and calls its run hook.  harness/ never sees that list: it sits in the
 * reports layer above, so measuring code cannot depend on reporting code. */
#ifndef SKB_RUN_H
#define SKB_RUN_H

#include <stddef.h>
#include "skb_method.h"
#include "skb_stats.h"   /* skb_sorted_median: the experiments' medians */

struct skb_dataset;
struct skb_dataset_opts;
struct skb_run_data;   /* the run's own state: its loaded datasets (harness/run_datasets.c) */

struct skb_run_ctx {
    const char *out_dir;        /* results directory (exists when run is called) */
    unsigned long seed;         /* the seed every experiment draws from; recorded in its JSON */
    int quick;                  /* 1: seconds-long version for `make check` */
    int verbose;                /* progress lines on stderr */
    const char *exe_path;       /* absolute path of the running skinbench (finds helper binaries) */
    const char *methods_filter; /* comma-separated method names or NULL for all */
    const char *dataset_file;   /* run --dataset FILE: this model replaces the catalogue
                                   datasets in every experiment that takes one, or NULL */
    const char *datasets_filter; /* comma-separated dataset names (cpu) or NULL for all */
    int repetitions;            /* timing repetitions (cpu); 0 = the experiment's default */
    int planner;                /* cpu: enum skb_plan_mode (harness/skb_fast_plan.h), 0 = measure */
    double planner_budget_ms;   /* cpu: per planner candidate; 0 = the default */
    const char *wisdom_file;    /* cpu: --wisdom FILE, or NULL for the default */
    int offset_sweep;           /* cpu: --offset-sweep: only the stream-alignment sweep */
    struct skb_params params;
    struct skb_run_data *data;  /* owned by the run: skb_run_open .. skb_run_close; NULL
                                   (a context a test made) loads afresh every time */
    const char *run_id;         /* this invocation's random id (32 hex digits), written into
                                   every results file and the manifest; NULL: none (a test's context) */
    const char *binary_sha256;  /* SHA-256 of the running skinbench, or NULL */
};

struct skb_experiment {
    const char *name;
    const char *description;
    /* writes its results into ctx->out_dir; on failure fills msg with one line */
    int (*run)(const struct skb_run_ctx *ctx, char *msg, size_t msglen);
    /* run --dataset FILE: 1 when the experiment runs on the user's model;
     * dataset_note says what runs on it, or why it cannot (one line) */
    int takes_dataset;
    const char *dataset_note;
    /* 1 when the experiment honours ctx->datasets_filter (run --datasets);
     * naming another with --datasets is a usage error, never silently ignored */
    int takes_datasets_filter;
};

/* the built-in experiments' run halves, one per harness/exp_<name>.c */
extern const struct skb_experiment skb_exp_properties;
extern const struct skb_experiment skb_exp_flops;
extern const struct skb_experiment skb_exp_bounds;
extern const struct skb_experiment skb_exp_cpu;
extern const struct skb_experiment skb_exp_gpu;
extern const struct skb_experiment skb_exp_spheres;
extern const struct skb_experiment skb_exp_cd;
extern const struct skb_experiment skb_exp_icount;

/* the dataset to load where an experiment would load `name`: the user's
 * model under run --dataset, else name */
static inline const char *skb_run_dataset(const struct skb_run_ctx *ctx, const char *name)
{
    return ctx->dataset_file ? ctx->dataset_file : name;
}

/* 1 in a process an experiment runs under callgrind to count (run icount's
 * and run flops's children): its folder is scratch, so it writes no run id,
 * binary hash or manifest (hashing the binary there would cost seconds of
 * instrumented time) */
int skb_run_is_measured_child(void);

/* the run's state, before the first experiment and after the last */
int skb_run_open(struct skb_run_ctx *ctx);
void skb_run_close(struct skb_run_ctx *ctx);
/* skb_dataset_load for an experiment: the run loads each (name, seed,
 * quick) once and hands every caller its own copy, subdivided as o asks */
int skb_run_dataset_load(const struct skb_run_ctx *ctx, const char *name, const struct skb_dataset_opts *o,
                         struct skb_dataset *out, char *msg, size_t msglen);
/* how many times this run has imported ctx->dataset_file (1 once loaded) */
int skb_run_imports(const struct skb_run_ctx *ctx);

/* 1 when method m is selected by ctx->methods_filter */
int skb_run_wants_method(const struct skb_run_ctx *ctx, const struct skb_method *m);
/* 1 when dataset `name` is selected by ctx->datasets_filter */
int skb_run_wants_dataset(const struct skb_run_ctx *ctx, const char *name);
/* progress line on stderr: "[name] text" (only when ctx->verbose) */
void skb_run_progress(const struct skb_run_ctx *ctx, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
