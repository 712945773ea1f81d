/* skb_report.h — reading results JSON, the report (report.md / report.html),
 * gnuplot plots and the nightly comparison.
 *
 * reports/ reads results JSON only: it computes nothing beyond ratios and
 * differences of measured values, and paper values come only from
 * reports/reference.json.
 *
 * Index: skb_results_load / _parse / _free, skb_reference_load,
 * skb_report_build / _render_md / _render_html / _free, skb_plots_write,
 * (the nightly comparison: regress/skb_regress.h). */
#ifndef SKB_REPORT_H
#define SKB_REPORT_H

#include <stdio.h>
#include <cJSON.h>
#include "skb_stats.h"   /* skb_median */
#include "skb_gbench.h"  /* struct skb_gbench_set: compare's timings */
#include "skb_schemas.h" /* each results file's table; SKB_CD_MAX_LEVEL */

/* Results files are known by name only: the experiment list
 * (reports/experiment_list.c) is their one declaration.  Each registered
 * file gets a slot of skb_results.doc[] / .err[], in list order; report code
 * finds a file's slot by its name (skb_rfile_slot, skb_results_doc), so
 * adding an experiment edits no enum or name table. */
/* results files one run directory may hold, all experiments together: more
 * registered files is a startup error naming this limit */
#define SKB_RF_MAX 32

/* how many results files the registered experiments declare; file name
 * ("cpu.json") and producing experiment ("cpu") of file `which` */
int skb_rfile_count(void);
/* the table of fields of results file `file` ("cpu.json"): its experiment's
 * own (skb_result_file.schema) or the built-in one; NULL for none */
const struct skb_schema *skb_results_schema(const char *file);
/* the table of results file `which` of the list (0 .. skb_rfile_count()-1), or NULL */
const struct skb_schema *skb_results_schema_at(int which);
const char *skb_rfile_name(int which);
const char *skb_rfile_experiment(int which);
/* index of a results file by name, -1 if no experiment declares it */
int skb_rfile_find(const char *file);
/* the same for a file the caller itself relies on ("cpu.json"): one that no
 * experiment declares aborts naming it (a build mistake, not an input) */
int skb_rfile_slot(const char *file);

/* one run directory: each file is loaded (doc set), absent (doc NULL, err
 * empty) or unreadable (doc NULL, err holds the one-line reason) */
/* runs one report or compare merges; more is an error naming this limit */
#define SKB_MAX_RUNS 64

/* *.json files in a run directory that no registered experiment declares
 * (reported, never silently ignored); at most this many are named */
#define SKB_MAX_UNKNOWN 8

/* a results file larger than this is refused unread (the full suite's
 * largest, cpu-gbench.json, is a few MB) */
#define SKB_RESULTS_FILE_MAX ((size_t)64 << 20)

struct skb_results {
    char dir[1024];
    cJSON *doc[SKB_RF_MAX];
    char err[SKB_RF_MAX][320];
    int nunknown;              /* unknown *.json files (all counted) */
    char unknown[SKB_MAX_UNKNOWN][128];
    char machine_key[256];     /* the key every file that carries one agrees on ("unknown": none does) */
    int nbad;                  /* files that were present but unreadable */
    /* the run's identity (reports/run_manifest.c): every file's bytes
     * hashed; the run id, seed and binary every file that carries them
     * agrees on ("" when none does); manifest.json when present */
    char sha256[SKB_RF_MAX][65];
    long long bytes[SKB_RF_MAX];
    char run_id[48], seed[32], binary_sha256[65];
    cJSON *manifest;
    /* "" or one line: why the files are not one run's (two seeds, machines,
     * run ids or binaries).  report, compare and the store refuse it. */
    char mixed[600];
    /* "" or one line: why the files are not what the run's manifest says (a
     * file it does not list, lists with other bytes, or lists and is
     * missing; an unreadable manifest, or another run's): edited or
     * replaced after the run.  compare and the store refuse it; report
     * shows it as it is, saying so. */
    char altered[600];
};

/* parse and validate one results file's text against its contract
 * (metadata, schema version, the keys other tools rely on).  `path` only
 * names the file in messages.  0 and *out on success. */
int skb_results_parse(int which, const char *path, const char *text, size_t len, cJSON **out,
                      char *msg, size_t msglen);
/* load every results file of dir.  Fails (msg) only when dir holds none;
 * a bad file is recorded in r->err and counted in r->nbad. */
int skb_results_load(const char *dir, struct skb_results *r, char *msg, size_t msglen);
/* the same from memory (the results store): n files named names[i] with
 * texts[i][0..lens[i]), and the run's manifest text (NULL: none); label
 * names the run in messages.  Fails only when n is 0. */
int skb_results_load_texts(const char *label, int n, const char *const *names, const char *const *texts,
                           const size_t *lens, const char *manifest, size_t manifest_len, struct skb_results *r,
                           char *msg, size_t msglen);

/* ---- the run's manifest (manifest.json, written last by `run`) ---- */
/* what `run` knows about itself beyond its files */
struct skb_manifest_info {
    const char *run_id, *started_utc, *binary_sha256, *git_rev, *git_describe, *compiler;
    unsigned long seed;
    int quick;
    const char *partial;       /* why the run cannot be whole (a filter: "--methods a,b"), or NULL */
    const cJSON *experiments;  /* {name: "ok" | "failed: why" | "not run"} for every registered experiment */
    const cJSON *seconds;      /* {name: wall seconds} of each experiment this run ran (may be NULL): the next
                                  run's estimates of what is left */
};
/* write DIR/manifest.json (atomically) from the files in DIR as they are
 * now: each file's experiment, schema version, bytes and SHA-256, the one
 * machine key, seed, run id and binary, and "complete" — every registered
 * experiment ran and succeeded, no filter, every file written by this run
 * (run id), none unreadable — with "problems" naming what is not.  0, or
 * an SKB_E* code with msg. */
int skb_manifest_write(const char *dir, const struct skb_manifest_info *info, char *msg, size_t msglen);
/* 1 when r's manifest says the run is complete, 0 otherwise, why (its
 * first problem, or "no manifest.json") into msg */
int skb_manifest_complete(const struct skb_results *r, char *msg, size_t msglen);
void skb_results_free(struct skb_results *r);
/* results file `file` ("cpu.json") of r: its document (NULL when absent or
 * unreadable) and its error ("" unless unreadable); the name must be
 * declared (skb_rfile_slot) */
cJSON *skb_results_doc(const struct skb_results *r, const char *file);
const char *skb_results_err(const struct skb_results *r, const char *file);
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
    SKB_ROW_NA,                /* the method's hooks rule this table out (no f32 kernel, no shader, ...) */
    SKB_ROW_INCONCLUSIVE,      /* the measured value's interval crosses an edge of the rule's band */
    SKB_ROW_DIFFERS_SETUP,     /* outside the band, and the number is set by a driver the paper does not give */
    SKB_ROW_NSTATUS
};
const char *skb_row_status_name(int st);
/* the status with this name ("differs (setup)"), -1 if none */
int skb_row_status_find(const char *name);

/* ---- the rule vocabulary (reports/reference.json tolerance_rules) ----
 * Every judged row names its rule and the band the rule sets on its
 * measured value; the band and the measured value's interval decide the
 * status (reports/verdict.c) and report.json carries all of them. */
struct skb_verdict {
    char rule[16];             /* a tolerance_rules kind: "excess", "range", "ordering", ...; "" = not judged */
    double value;              /* the rule's parameter: factor, relative tolerance, gap */
    double measured;           /* the judged quantity */
    double lo, hi;             /* its interval (timed values), NAN when exact */
    double paired_lo, paired_hi; /* a timed ratio: the pairs' own interval, before widening (NAN: none) */
    double floor;              /* a timed ratio: the relative floor it was widened by (this run's A/A
                                  or the declared minimum, the larger; NAN: none) */
    double paper, paper_lo;    /* the paper's value, or its range [paper_lo, paper] */
    double band_lo, band_hi;   /* reproduced when [lo, hi] lies inside (edges included) */
    double trivial;            /* > 0: measured and paper both within this of 1 is "reproduced (trivial)" */
    int setup;                 /* outside the band is "differs (setup)": the row's cause names the driver */
};
/* 1 when kind is a rule that sets a band */
int skb_rule_known(const char *kind);
/* half a unit of the last digit a paper value is printed with (1.27: 0.005) */
double skb_rule_printed_half_unit(double p);
/* v->rule, v->value, v->paper (v->paper_lo for range) -> v->band_lo / band_hi,
 * widened to every value the paper's printed figure stands for (exact
 * counts excepted); an ordering's band starts at half the paper's gap at
 * least; -1 unknown rule or bad value */
int skb_rule_band(struct skb_verdict *v);
/* the status the band and the interval decide */
int skb_verdict_status(const struct skb_verdict *v);
/* distance of the measured value to the nearer band edge: > 0 inside, < 0 outside */
double skb_verdict_margin(const struct skb_verdict *v);
/* a verdict with no interval and no band yet */
void skb_verdict_init(struct skb_verdict *v, const char *rule, double value, double measured, double paper);
/* a ratio timed pair by pair: its interval [lo, hi] widened by the
 * relative floor f to [lo / (1 + f), hi * (1 + f)] (common/skb_timing.h
 * skb_pair_widen); both kept in v */
void skb_verdict_paired(struct skb_verdict *v, double lo, double hi, double f);

/* columns of one table (machine column included): a table builder asking
 * for more fails the report with a message naming the table */
#define SKB_RMAXCOLS 14

struct skb_rrow {
    char *cell[SKB_RMAXCOLS];
    int status;
    char *note;                /* measured difference and, where known, why */
    int judged;                /* v holds the rule that decided status */
    struct skb_verdict v;
    char *cause;               /* the driver or the finding (report.json "cause"); NULL: the note */
    char seed[16];             /* the paper the row is judged against, "" = the table's */
    int run;                   /* index of the run it came from */
};

struct skb_rtable {
    char id[48];               /* HTML id "t-<id>" */
    char title[160];
    char source[240];          /* seed and table/figure */
    char *intro;               /* tolerance rule and notes, may be NULL */
    int unjudged;              /* descriptive table: rows not counted */
    int link_col;              /* 1-based column whose cells name a section id (a link), 0: none */
    int image_col;             /* 1-based column whose cells are a PNG's path the builder checked
                                  (report.html shows the image above it), 0: none */
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
    char note[600];            /* registry methods without a series, and why (may be empty) */
};

#define SKB_RMAXHEAD 32

/* one headline claim of the papers (reference.json "headline"): a summary
 * of rows the tables already judged, never a judgement of its own */
#define SKB_HEAD_MIXED SKB_ROW_NSTATUS   /* its rows have differing statuses */
#define SKB_HEAD_NONE (SKB_ROW_NSTATUS + 1)   /* no row of it is judged (all not run, new, context, ...) */
struct skb_headline {
    char claim[240];
    char source[160];          /* seed and table/figure */
    char table[48];            /* id of the table it summarises (link "#s-<id>") */
    char measured[600];        /* with what decided it when the status is not reproduced */
    char paper[160];
    char rows[800];            /* how many rows of each status, which differ; for a timed
                                  claim the intervals this run reached and whether it decided */
    int status;                /* a row status, or SKB_HEAD_MIXED */
};
/* "mixed" for SKB_HEAD_MIXED, else skb_row_status_name */
const char *skb_headline_status_name(int st);
struct skb_report;
/* the one-line verdict above the headline table, from the claims' statuses:
 * "Of N judged claims: R reproduced, D differs, ...; M not run here" */
void skb_headline_overall(const struct skb_report *rep, char *out, size_t n);

struct skb_report {
    int nruns;
    const struct skb_results *runs;
    const cJSON *ref;
    int ntables, tables_cap;
    struct skb_rtable *tables; /* grows as sections add tables */
    int nplots, plots_cap;
    struct skb_plot_entry *plots;  /* grows as plots are written */
    char overflow[300];        /* a fixed limit a builder hit: skb_report_build fails with it */
    int count[SKB_ROW_NSTATUS];
    int nheadline;
    struct skb_headline headline[SKB_RMAXHEAD];
    int quick;                 /* runs with a results file from --quick */
    char fuzz[240];            /* "bad inputs tried / crashes" line, or empty */
    char verdict[600];         /* the gate's verdict on this run (its compare.json: the nightly's), or empty */
    char software_gpu[200];    /* a run's GPU renderer when it is a software one (its GPU numbers are CPU
                                  emulation: the page says so above everything), or empty */
};

/* build every table from nruns runs and the reference values */
int skb_report_build(const struct skb_results *runs, int nruns, const cJSON *ref,
                     struct skb_report *rep, char *msg, size_t msglen);
/* report.json: the row model as data (schema_version, counts per status,
 * one object per row with its rule, band, interval and status) */
int skb_report_render_json(const struct skb_report *rep, FILE *f);
#define SKB_REPORT_JSON_SCHEMA 1
/* write report.md / report.html (HTML embeds out_dir/plots/ PNGs and the
 * runs' images/ PNGs as data: URIs, each read below its directory without
 * links and bounded by its IHDR and the page's size; out_dir may be NULL:
 * no plots) */
int skb_report_render_md(const struct skb_report *rep, FILE *f);
int skb_report_render_html(const struct skb_report *rep, const char *out_dir, FILE *f);
/* every table as out_dir/tables/<id>.csv (reports/render_csv.c): columns,
 * status and note as on the page; 0, or an error with msg */
int skb_report_write_csv(const struct skb_report *rep, const char *out_dir, char *msg, size_t msglen);
void skb_report_free(struct skb_report *rep);
/* a fresh zeroed plot entry (the list grows; NULL only out of memory) */
struct skb_plot_entry *skb_report_plot_new(struct skb_report *rep);
/* one table as a Markdown "## title" section (report.md uses it for each) */
void skb_report_render_table_md(const struct skb_report *rep, const struct skb_rtable *t, FILE *f);
/* table-4.1.md in run_dir: the report's own Table 4.1 and FLOP tables
 * (the one renderer), built from run_dir's results and reference.json
 * (found from exe_dir; without it the tables have no paper column).  For
 * every row judged "differs", diff(arg, line) gets one line: `run` prints
 * them as progress.  0, or an error with msg. */
int skb_report_write_table41(const char *run_dir, const char *exe_dir,
                             void (*diff)(void *arg, const char *line), void *arg, char *msg, size_t msglen);
/* find a table by id, NULL if absent */
const struct skb_rtable *skb_report_table(const struct skb_report *rep, const char *id);
/* read a libFuzzer log: fills rep->fuzz; 0 if read.  root NULL: rel is a
 * path the user gave (links followed); else the log is root/rel, read below
 * root without links */
int skb_report_read_fuzz_log(struct skb_report *rep, const char *root, const char *rel);
/* the run's compare.json (root/compare.json, read below root), written by
 * `compare` into the run it judged (the nightly's): fills rep->verdict with
 * its verdict, counts and first regressions; 0 if read, -1 when there is
 * none; a file that is not compare's says so in rep->verdict */
int skb_report_read_verdict(struct skb_report *rep, const char *root);

/* gnuplot: write every plot (png + svg) under out_dir/plots, recording
 * each in rep->plots (not run with a reason when inputs or gnuplot are
 * missing; never fails the report) */
void skb_plots_write(struct skb_report *rep, const char *out_dir);

/* ---- the experiment descriptors: one per experiment, one list ----
 *
 * An experiment is described once, by its descriptor skb_desc_<name> in
 * reports/exp_<name>.c, listed in reports/experiment_list.c's list
 * skb_experiment_list[]: how it runs (its harness-side struct skb_experiment,
 * harness/skb_run.h: name, description, run hook), the results files it
 * writes with each file's schema check, its report sections, its plots and
 * its nightly gate.  The list lives here, in reports/, because reports/ may
 * use harness/ but harness/ may not use reports/ (ARCHITECTURE.md "Layout"): the run
 * half of an experiment stays below the report half and never sees it.
 * `run`, `list`, `report` and `compare` all iterate this one list. */

/* what a section, plot or results file lists per method: the report adds a
 * row (or a "not plotted" note) naming every registry method it lacks, with
 * the reason its hooks give (methods/skb_method.h) */
enum skb_method_need {
    SKB_NEED_NONE = 0,     /* not a per-method table */
    SKB_NEED_BLEND,        /* the blend form (properties, FLOPs) */
    SKB_NEED_SKIN,         /* the double skin path (CPU timings) */
    SKB_NEED_F32,          /* the single-precision fast path (f32 hook) */
    SKB_NEED_SHADER,       /* a GLSL shader whose cpu_method is the method */
    SKB_NEED_REFIT         /* an on-demand refit hook (spheres, CD) */
};

struct skb_method;
/* why method m cannot appear where `need` is needed ("no f32 kernel", "no
 * refit hook: bottom-up only", ...), or NULL when its hooks allow it.  For
 * SKB_NEED_SHADER the shaders are those a gpu.json lists (doc, may be NULL). */
const char *skb_method_absent_reason(const struct skb_method *m, int need, const cJSON *gpu_doc);

struct skb_result_file {
    const char *file;          /* "cpu.json" */
    int meta;                  /* 1: starts with the skinbench metadata (schema_version, seed, machine) */
    /* a contract beyond the file's table of fields (`schema` below), e.g.
     * sad.json's picture names (reports/exp_sad.c); NULL: the table says
     * all; msg names path and field */
    int (*check)(const cJSON *doc, const char *path, char *msg, size_t msglen);
    /* where the file holds its method names, as key paths separated by
     * spaces: segments split by '/', "*" for every member; a path ending in
     * "*" names the members' keys, one ending in a field that field's string
     * value (reports/exp_cpu.c and exp_gpu.c have one of each).  compare lists the
     * names the baseline lacks as new.  NULL: the file is not per method. */
    const char *methods;
    /* the file's table of fields, declared once beside its writer (the
     * built-in ones: harness/exp_<name>_schema.c, skb_schemas.h), which passes
     * the same table to skb_results_write; NULL only with a `check` */
    const struct skb_schema *schema;
};

struct skb_report_section {
    const char *id;            /* the table's id ("fig18") */
    int need;                  /* enum skb_method_need: SKB_NEED_NONE if not per method */
    void (*build)(struct skb_report *rep);
    /* why a method whose hooks allow it has no row here although the
     * results hold it (e.g. "shown in Table 6.1"); NULL: it should have one */
    const char *elsewhere;
};

struct skb_report_plot {
    const char *stem;          /* plot file stem prefix ("cpu" for cpu-times and cpu-ratio) */
    int need;                  /* enum skb_method_need of its series */
    /* writes its plot(s) of run r under dir (stems end in sfx), recording
     * each in rep->plots */
    void (*write)(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r);
};

/* a nightly gate reports through these (reports/gate_lines.c): each line
 * goes to compare's line writer, handed down as data (g->ops, set by
 * regress/compare.c), so an experiment's gate in reports/ never calls up
 * into regress/ */
struct cmp_state;              /* compare's run state (regress/compare_internal.h), opaque here */
/* what one line of compare's verdict is */
enum skb_gate_kind {
    SKB_GATE_NOTE = 0,         /* informs */
    SKB_GATE_REGRESSION = 1,   /* counted, exit 1 */
    SKB_GATE_UNDECIDED = 2     /* the gate cannot judge it (present on one side only, unreadable): exit 3 */
};
struct skb_gate_ops {
    /* one line of compare's verdict, of kind enum skb_gate_kind */
    void (*line)(struct cmp_state *s, int kind, const char *text);
};
struct skb_gate {
    const struct skb_gate_ops *ops;
    struct cmp_state *s;
    cJSON *sum;                /* compare.json summary (gates that add tables) */
};
void skb_gate_regression(struct skb_gate *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void skb_gate_note(struct skb_gate *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* what the gate cannot judge: never a pass (exit 3), e.g. a method only one run has */
void skb_gate_undecided(struct skb_gate *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* every numeric leaf of a and b (file's subtree path), compared exactly: a
 * change or a leaf missing in b is a regression naming `what` and the path */
void skb_gate_exact_tree(struct skb_gate *g, const char *file, const char *path, const cJSON *a, const cJSON *b,
                         const char *what);

struct skb_experiment;         /* harness/skb_run.h */
struct skb_experiment_desc {
    const struct skb_experiment *run;          /* name, description, run hook */
    const struct skb_result_file *files;       /* ends with { NULL } */
    const struct skb_report_section *sections; /* in report order; ends with { NULL } */
    const struct skb_report_plot *plots;       /* ends with { NULL }; may be NULL */
    /* exact gates on this experiment's files (base and cur both loaded),
     * reporting through skb_gate_regression / skb_gate_note; may be NULL:
     * cpu's and icount's gates need compare's own state and are listed in
     * regress/gate_exact.c by experiment name.  A file the baseline had and the current run lacks is a
     * regression without a hook (regress/compare.c). */
    void (*gate)(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur);
};

/* NULL-terminated, in the order `run all` executes and the report shows them */
extern const struct skb_experiment_desc *const skb_experiment_list[];
const struct skb_experiment_desc *skb_experiment_desc_find(const char *name);
/* name of a registered experiment (its run half) */
const char *skb_experiment_desc_name(const struct skb_experiment_desc *d);
/* the descriptor's index of results file `file` of d in skb_results.doc */
int skb_experiment_file_index(const struct skb_experiment_desc *d, int nth);

#endif
