/* report_internal.h — shared by the report model's files (report.c, the
 * shared reports/report_*.c and each experiment's reports/exp_<name>.c): cJSON accessors, row/table construction and the judging
 * rules.  Not part of the public report API (skb_report.h). */
#ifndef SKB_REPORT_INTERNAL_H
#define SKB_REPORT_INTERNAL_H
#include <stddef.h>
#include <stdio.h>
#include <cJSON.h>
#include "skb_report.h"

/* report.c */
/* printf into a fresh heap string (an empty string when formatting fails) */
char *skb__fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const cJSON *skb__jget(const cJSON *o, const char *k);
int skb__jnum(const cJSON *x, double *out);
const char *skb__jstr(const cJSON *x);
char *skb__numtxt(double x);
const char *skb__num4(char buf[32], double x);
const char *skb__why_lookup(const cJSON *doc, const char *key, const char *sub);
int skb__key_union(const cJSON *paper, const cJSON *a, const cJSON *b, const cJSON **out, int max);
struct skb_rtable *skb__tbl_new(struct skb_report *rep, const char *id, const char *title, const char *source, char *intro, const char *const *cols);
void skb__row_add(struct skb_report *rep, struct skb_rtable *t, int run, int status, char *note, ...);
char *skb__missing_note(const struct skb_results *r, const char *file);
double skb__miss_factor(double meas, double paper);
int skb__judge(const cJSON *tol, double meas, double paper, double paper_lo, char **note);
int skb__judge_v(const cJSON *tol, double meas, double paper, double paper_lo, struct skb_verdict *v, char **note);
void skb__row_verdict(struct skb_report *rep, struct skb_rtable *t, const struct skb_verdict *v, char *cause);
void skb__row_seed(struct skb_rtable *t, const char *seed);
const char *skb__user_model(const struct skb_results *r);
/* verdict.c: "rule K: measured, interval, band, margin" for a row's note */
char *skb__verdict_text(const struct skb_verdict *v, int status);
char *skb__join_note(char *a, const char *b);
/* the same, b freed after (for a note formatted on the spot) */
char *skb__join_note_take(char *a, char *b);
char *skb__tol_text(const cJSON *sec);
const char *skb__ref_str(const cJSON *sec, const char *k);
void skb__set_source(char *buf, size_t n, const cJSON *sec);
void skb__add_libs(const cJSON *doc, char *buf, size_t n);
void skb__overflow(struct skb_report *rep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* the most methods one table lists (exp_properties.c, exp_flops.c): more fails the report */
#define SKB_RMAXMETHODS 256
/* report_paired.c: ratios timed pair by pair (common/skb_timing.h) */
struct skb_paired {
    double ratio, lo, hi;      /* the Hodges-Lehmann estimate and its exact interval */
    double aa_floor;           /* this sitting's A/A floor of the row's control (NAN: none) */
    int pairs;
};
/* the row kernel / control (treatment NULL: any) of a paired "rows" array, or NULL */
const cJSON *skb__paired_find(const cJSON *rows, const char *kernel, const char *control, const char *treatment);
/* a paired row's numbers; -1 when it has no finite positive ratio */
int skb__paired_read(const cJSON *row, struct skb_paired *p);
/* the relative floor a paired interval is widened by: the larger of its
 * A/A floor and reference.json's declared minimum (NAN without an A/A) */
double skb__paired_floor(const struct skb_report *rep, const struct skb_paired *p);
/* a ratio judged on its pairs: v (already banded by skb__judge_v, its
 * measured value p->ratio) gets the pairs' interval widened by
 * skb__paired_floor; *note the verdict text.  No A/A: the interval is
 * unbounded (inconclusive), never the point */
int skb__judge_paired(const struct skb_report *rep, struct skb_verdict *v, const struct skb_paired *p, char **note);
/* "ratio [lo, hi]" of a paired row for a table cell (to free) */
char *skb__paired_cell(const struct skb_paired *p);
/* report_measured.c */
void skb__report_dib_variants(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *d);
/* Table 3.2's SVD count at the data's precision (cpu.json pose_stats.sb), a
 * note for the row (to free); NULL when the run did not record it */
char *skb__sb_svd_note(struct skb_report *rep, const cJSON *d);
/* Table 6.2: SBS's on-demand time over LBS's in one scenario of cd.json
 * (x, named name), the SBS centres charged to the query and not (with the
 * skin), beside the paper's (its scenario entry pe, may be NULL) */
void skb__report_sbs_centre_rows(struct skb_report *rep, struct skb_rtable *t, int run, const char *name,
                                 const cJSON *x, const cJSON *pe);
/* the seeds' numbers outside their tables, measured (table "measured") */
void skb__report_measured(struct skb_report *rep);
/* a posture spheres.json marks "not_applicable" (Table 6.1 without a neck):
 * one "not applicable" row with the reason, and 1; else 0 */
int skb__posture_not_applicable(struct skb_report *rep, struct skb_rtable *t, int run, const cJSON *d,
                                const cJSON *post);
/* report_coverage.c */
void skb__report_coverage(struct skb_report *rep);
void skb__report_bibliography(struct skb_report *rep);
/* report_headline.c */
void skb__report_headline(struct skb_report *rep);
/* report_runs.c */
void skb__report_runs(struct skb_report *rep);
/* results.c: each built-in results file's contract beyond the metadata */
/* rewrite the old method names of a results file older than
 * SKB_SCHEMA_VERSION to registry names (reports/method_names.c) */
void skb__results_canonical_names(cJSON *doc);
/* reports/run_identity.c: after every file of r is loaded (slot i named
 * names[i], n slots), the one machine key, run id, seed and binary they
 * agree on, and the manifest's check (manifest: its text, NULL when the run
 * has none): r->mixed says what disagrees */
void skb__results_identity(struct skb_results *r, const char *const *names, int n, const char *manifest, size_t len);
/* report_methods.c: every registry method in every per-method table and plot */
void skb__absent_method_rows(struct skb_report *rep, struct skb_rtable *t, const struct skb_experiment_desc *d,
                             const struct skb_report_section *sec);
void skb__plot_method_notes(struct skb_report *rep, int first, int need, const char *dir, const struct skb_results *r);
/* plots.c */
/* the legend name a plot gives results key `key` (a method, refit or shader
 * name, with a variant suffix spelled out); shaders: gpu.json "shaders" or
 * NULL.  The "not plotted" notes look series up by this same name. */
const char *skb__plot_series_name(const char *key, const cJSON *shaders, char *buf, size_t len);
/* exp_cpu_plots.c: the cpu experiment's plots (its descriptor, exp_cpu.c, names them) */
void skb__plot_cpu(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r);
/* exp_cpu_targets.c: the cpu experiment's "fast" section's paired control
 * table, and its rows of the fast kernels' project targets (one run k of
 * cpu.json doc, its large mesh lm named `large`), each decided by the
 * interval of a paired ratio where the run has one */
void skb__cpu_control_table(struct skb_report *rep);
void skb__cpu_target_rows(struct skb_report *rep, struct skb_rtable *t, int k, const cJSON *doc, const cJSON *tg,
                          const char *large, const cJSON *lm);
/* exp_cpu_targets.c: the planned row `row` ("linear@plan") of dataset entry d
 * against its method's two fixed rows, pair by pair in this run: the
 * verdict text, or NULL where the run has no such pairs; *over_best the
 * planned row over the faster fixed one, from the pairs (NAN: none) */
char *skb__cpu_plan_verdict(const struct skb_report *rep, const cJSON *d, const char *row, double *over_best);
/* exp_gpu.c: caption of a GPU image (method and scene) from gpu.json "images" */
void skb__image_caption(const cJSON *gpu, const char *file, char *buf, size_t len);

/* plots.c: NAME.gp rendering body to PNG and SVG in dir, run by gnuplot,
 * listed in rep->plots (title quoted there); 1 when gnuplot is in PATH */
void skb__plot_gnuplot(struct skb_report *rep, const char *dir, const char *name, const char *title, const char *body);
int skb__plot_have_gnuplot(void);

/* render_esc.c: HTML escaping and base64 data: URIs, for the renderers */
void skb__html_esc(FILE *f, const char *s);
/* the first n bytes of s (up to its end), escaped */
void skb__html_esc_n(FILE *f, const char *s, size_t n);
/* one CSV (RFC 4180) field, defused against spreadsheet formulas; last ends the record */
void skb__csv_field(FILE *f, const char *s, int last);
/* the report page's style sheet (reports/render.c), for pages in its style */
const char *skb__report_css(void);
/* the same for report.md: entities for < > &, control bytes as spaces */
void skb__md_esc(FILE *f, const char *s);
/* the same with, in a table cell (cell 1), '|' escaped too */
void skb__md_put(FILE *f, const char *s, int cell);
/* the PNG root/rel as <img [style="STYLE"] alt="ALT" src="data:..."> (alt
 * escaped), read below root without links and bounded by its IHDR and the
 * page's size; otherwise a span saying why it is not embedded (-1) */
int skb__img(FILE *f, const char *root, const char *rel, const char *style, const char *alt);
/* render_pictures.c: the methods x scenes grid of gpu.json "method_pictures" */
void skb__render_pictures_html(FILE *f, const struct skb_report *rep);
void skb__render_pictures_md(FILE *f, const struct skb_report *rep);

#endif
