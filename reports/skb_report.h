/* skb_report.h — reading results JSON, the report (report.md / report.html),
 * gnuplot plots and the nightly comparison.
 *
 * reports/ reads results JSON only: it computes nothing beyond ratios and
 * differences of measured values, and paper values come only from
 * reports/reference.json.
 *
 * Index: skb_results_load / _parse / _free, skb_reference_load,
 * skb_report_build / _render_md / _render_html / _free, skb_plots_write,
 * skb_mann_whitney, skb_compare_run. */
#ifndef SKB_REPORT_H
#define SKB_REPORT_H

#include <stdio.h>
#include <cJSON.h>
#include "skb_stats.h"   /* skb_median */

/* the results files a run directory may hold, in report order */
#define SKB_RESULT_FILES(X) \
    X(SKB_RF_PROPERTIES, "properties.json", "properties") \
    X(SKB_RF_FLOPS,      "flops.json",      "flops") \
    X(SKB_RF_BOUNDS,     "bounds.json",     "bounds") \
    X(SKB_RF_CPU,        "cpu.json",        "cpu") \
    X(SKB_RF_GBENCH,     "cpu-gbench.json", "cpu") \
    X(SKB_RF_GPU,        "gpu.json",        "gpu") \
    X(SKB_RF_SPHERES,    "spheres.json",    "spheres") \
    X(SKB_RF_CD,         "cd.json",         "cd") \
    X(SKB_RF_ICOUNT,     "icount.json",     "icount")
#define SKB__RF_ENUM(id, file, exp) id,
enum skb_rfile { SKB_RESULT_FILES(SKB__RF_ENUM) SKB_RF_COUNT };
#undef SKB__RF_ENUM

/* file name ("cpu.json") and producing experiment ("cpu") of a results file */
const char *skb_rfile_name(int which);
const char *skb_rfile_experiment(int which);

/* one run directory: each file is loaded (doc set), absent (doc NULL, err
 * empty) or unreadable (doc NULL, err holds the one-line reason) */
/* the deepest subdivision level a cd.json may name (4^30 triangles per
 * triangle: far beyond any run) */
#define SKB_CD_MAX_LEVEL 30
/* runs one report or compare merges; more is an error naming this limit */
#define SKB_MAX_RUNS 64

struct skb_results {
    char dir[1024];
    cJSON *doc[SKB_RF_COUNT];
    char err[SKB_RF_COUNT][320];
    char machine_key[256];     /* from the first file that has one */
    int nbad;                  /* files that were present but unreadable */
};

/* parse and validate one results file's text against its contract
 * (metadata, schema version, the keys other tools rely on).  `path` only
 * names the file in messages.  0 and *out on success. */
int skb_results_parse(int which, const char *path, const char *text, size_t len, cJSON **out,
                      char *msg, size_t msglen);
/* load every results file of dir.  Fails (msg) only when dir holds none;
 * a bad file is recorded in r->err and counted in r->nbad. */
int skb_results_load(const char *dir, struct skb_results *r, char *msg, size_t msglen);
void skb_results_free(struct skb_results *r);
/* a run directory, or a directory of run directories (several machines):
 * loads up to max runs into runs[], *n set; msg on failure */
int skb_results_load_many(const char *dir, struct skb_results *runs, int max, int *n,
                          char *msg, size_t msglen);

/* reports/reference.json: explicit path, or NULL for the one search order
 * of common/skb_reference.h ($SKB_REFERENCE, next to the executable, ./reports) */
int skb_reference_load(const char *path, const char *exe_dir, cJSON **out, char *msg, size_t msglen);

/* ---- report model: tables of rows, each row with a status ---- */
enum skb_row_status {
    SKB_ROW_REPRODUCED = 0,
    SKB_ROW_DIFFERS,
    SKB_ROW_NOT_RUN,
    SKB_ROW_CONTEXT,           /* paper value shown beside ours, not judged */
    SKB_ROW_NEW,               /* measured, no paper value (e.g. a new method) */
    SKB_ROW_FEWER,             /* a cost (FLOPs) at or below the paper's at every n, not equal */
    SKB_ROW_TRIVIAL,           /* ratio and paper ratio both ~1: agrees, but claims nothing (not counted as reproduced) */
    SKB_ROW_NSTATUS
};
const char *skb_row_status_name(int st);

#define SKB_RMAXCOLS 14

struct skb_rrow {
    char *cell[SKB_RMAXCOLS];
    int status;
    char *note;                /* measured difference and, where known, why */
};

struct skb_rtable {
    char id[48];               /* HTML id "t-<id>" */
    char title[160];
    char source[240];          /* seed and table/figure */
    char *intro;               /* tolerance rule and notes, may be NULL */
    int unjudged;              /* descriptive table: rows not counted */
    int link_col;              /* 1-based column whose cells name a section id (a link), 0: none */
    int ncols;
    char *col[SKB_RMAXCOLS];
    int nrows, cap;
    struct skb_rrow *rows;
};

struct skb_plot_entry {
    char name[64];             /* file stem under plots/ */
    char title[160];
    int ok;                    /* png and svg written */
    char why[240];             /* "not run" reason when !ok */
};

#define SKB_RMAXTABLES 32
#define SKB_RMAXPLOTS 64
#define SKB_RMAXHEAD 32

/* one headline claim of the papers (reference.json "headline"): a summary
 * of rows the tables already judged, never a judgement of its own */
#define SKB_HEAD_MIXED SKB_ROW_NSTATUS   /* its rows have differing statuses */
struct skb_headline {
    char claim[240];
    char source[160];          /* seed and table/figure */
    char table[48];            /* id of the table it summarises (link "#s-<id>") */
    char measured[240];
    char paper[160];
    char rows[400];            /* how many rows of each status, which differ */
    int status;                /* a row status, or SKB_HEAD_MIXED */
};
/* "mixed" for SKB_HEAD_MIXED, else skb_row_status_name */
const char *skb_headline_status_name(int st);

struct skb_report {
    int nruns;
    const struct skb_results *runs;
    const cJSON *ref;
    int ntables;
    struct skb_rtable tables[SKB_RMAXTABLES];
    int nplots;
    struct skb_plot_entry plots[SKB_RMAXPLOTS];
    int count[SKB_ROW_NSTATUS];
    int nheadline;
    struct skb_headline headline[SKB_RMAXHEAD];
    int quick;                 /* runs with a results file from --quick */
    char fuzz[240];            /* "bad inputs tried / crashes" line, or empty */
};

/* build every table from nruns runs and the reference values */
int skb_report_build(const struct skb_results *runs, int nruns, const cJSON *ref,
                     struct skb_report *rep, char *msg, size_t msglen);
/* write report.md / report.html (HTML embeds the plots PNGs and the run's
 * images directory PNGs as data: URIs; plot_dir may be NULL) */
int skb_report_render_md(const struct skb_report *rep, FILE *f);
int skb_report_render_html(const struct skb_report *rep, const char *plot_dir, FILE *f);
void skb_report_free(struct skb_report *rep);
/* find a table by id, NULL if absent */
const struct skb_rtable *skb_report_table(const struct skb_report *rep, const char *id);
/* read a libFuzzer log: fills rep->fuzz; 0 if read */
int skb_report_read_fuzz_log(struct skb_report *rep, const char *path);

/* gnuplot: write every plot (png + svg) under out_dir/plots, recording
 * each in rep->plots (not run with a reason when inputs or gnuplot are
 * missing; never fails the report) */
void skb_plots_write(struct skb_report *rep, const char *out_dir);

/* ---- statistics and nightly comparison ---- */

/* two-sided Mann-Whitney U test of a against b: *p gets the p-value (exact
 * for small samples without ties, normal approximation with tie and
 * continuity correction otherwise), *u the U statistic of a.  -1 when a
 * sample is empty. */
int skb_mann_whitney(const double *a, int na, const double *b, int nb, double *u, double *p);

/* an A/B sitting (scripts/nightly-ab.sh): the baseline build (a) and the
 * current build (b) timed alternately, round after round, on the same
 * kernels in the same minutes: DIR/round-K/{a,b}/cpu-gbench.json */
struct skb_ab {
    char dir[1024];
    int nrounds;
    struct skb_gbench *a, *b;   /* nrounds each */
};
/* read every round of DIR; SKB_EPARSE/SKB_EIO with msg naming the file
 * (compare exits 2: a sitting with a missing or corrupt round never passes) */
int skb_ab_load(const char *dir, struct skb_ab *ab, char *msg, size_t msglen);
void skb_ab_free(struct skb_ab *ab);

struct skb_compare_opts {
    double alpha;              /* significance level of the U test */
    double min_effect;         /* relative median slow-down that matters */
    int update_baseline;
    const struct skb_ab *ab;   /* --ab DIR: the paired timing gate decides; NULL: the U test */
};

/* 0 when every results file of both runs read and passed its contract;
 * otherwise SKB_EPARSE with msg naming the run and file (compare exits 2) */
int skb_compare_inputs_ok(const struct skb_results *base, const struct skb_results *cur, char *msg, size_t msglen);

/* ---- nightly history (results/history/STAMP, scripts/nightly.sh) ---- */
struct skb_history;
/* every night under dir (a subdirectory with cpu-gbench.json or icount.json) */
int skb_history_load(const char *dir, struct skb_history **h, char *msg, size_t msglen);
void skb_history_free(struct skb_history *h);
/* the table of steps (benchmark, first night, before, after) */
void skb_history_table(struct skb_report *rep, const struct skb_history *h);
/* per-method trend plots of every benchmark, once two or more nights exist */
void skb_history_plots(struct skb_report *rep, const char *out_dir, const struct skb_history *h);

/* the gates' own measured figures (scripts/gate-summary.sh output, read by
 * the caller) into summary "gate_validation", one line each on out */
void skb_compare_add_validation(cJSON *summary, const cJSON *val, const char *path, FILE *out);

/* compare a current run against a baseline run; writes lines to out and
 * returns the number of regressions (0 = no regression); the comparison
 * summary (incl. self-comparison false-positive rate) as JSON in *summary,
 * where "inconclusive_count" > 0 means the timing gate could not decide
 * (too few repetitions, or unconfirmed changes): the CLI exits 3, not 0 */
int skb_compare_run(const struct skb_results *base, const struct skb_results *cur,
                    const struct skb_results *rerun, const struct skb_compare_opts *o,
                    FILE *out, cJSON **summary);

/* raw repetitions (run_type "iteration") of each benchmark in a Google
 * Benchmark JSON document, keyed by run_name: cpu_time (real_time where
 * absent) in ns.  Returns the count of benchmarks, -1 out of memory
 * (caller frees with skb_gbench_free) */
struct skb_gbench {
    int n;
    char **name;
    double **rep;
    int *nrep;
    char unit[8];
};
int skb_gbench_collect(const cJSON *doc, struct skb_gbench *g);
void skb_gbench_free(struct skb_gbench *g);

/* copy directory src over dst atomically (dst replaced by rename) */
int skb_dir_replace(const char *src, const char *dst, char *msg, size_t msglen);

#endif
