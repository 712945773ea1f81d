/* plots_internal.h — what the plot files of reports/ share: the gnuplot
 * core of plots.c (quoting, data files, running gnuplot, series styles) and
 * the timing grid of plots_timings.c, used by each experiment's plots
 * (reports/exp_<name>.c or exp_<name>_plots.c).  Not a public header. */
#ifndef SKB_PLOTS_INTERNAL_H
#define SKB_PLOTS_INTERNAL_H

#include <stdio.h>
#include "report_internal.h"
#include "skb_json.h"

#define TERM_PNG "set terminal pngcairo size 900,520 noenhanced font 'DejaVu Sans,10'"
#define TERM_SVG "set terminal svg size 900,520 noenhanced font 'DejaVu Sans,10'"
#define NMARKER 15
#define MAXSER 48             /* series one plot may hold */             /* the point types of skb__pl_marker */

/* a data or script file built in memory, written by rename */
struct memfile { FILE *f; char *buf; size_t len; };
/* a plot's gnuplot body built in memory */
struct body { FILE *f; char *buf; size_t len; };

extern const int skb__pl_marker[NMARKER];
void skb__pl_sanitize(char *s);
const char *skb__pl_gp_quote(char *dst, size_t n, const char *s);
struct skb_plot_entry *skb__pl_entry(struct skb_report *rep, const char *name, const char *title);
void skb__pl_not_run(struct skb_report *rep, const char *name, const char *title, const char *why);
FILE *skb__pl_mem_open(struct memfile *m);
void skb__pl_plot(struct skb_report *rep, const char *dir, const char *name, const char *title, const char *body);
int skb__pl_dat_close(struct memfile *m, const char *dir, const char *name);
void skb__pl_fnum(FILE *f, double x);
const char *skb__pl_series_colour(char *buf, size_t len, int i, int n);
const char *skb__pl_series_style(char *buf, size_t len, int i, int n);
void skb__pl_put_title(FILE *f, const char *key, const cJSON *shaders);
FILE *skb__pl_body_open(struct body *b);
void skb__pl_body_plot(struct body *b, struct skb_report *rep, const char *dir, const char *name, const char *title);
int skb__pl_method_curves(struct skb_report *rep, const char *dir, const char *name, const char *title,
                          const cJSON *xs, const cJSON *methods, const char *ykey, const char *setup);
const cJSON *skb__pl_ref_bound(const struct skb_report *rep, const char *id);
const char *skb__pl_short_where(const char *w, char *buf, size_t n);

/* plots_timings.c: the timing grid of the CPU and GPU plots */
#define MAXROW 64
struct skb_gbench_set;
/* one timing plot's numbers: per row (dataset) and series (method or
 * shader) the median and the quartiles, in ms */
struct tgrid {
    int nser, nrow;
    const char *ser[MAXSER];
    const char *row[MAXROW];
    double med[MAXROW][MAXSER], q1[MAXROW][MAXSER], q3[MAXROW][MAXSER];
    int nspread;               /* cells with quartiles */
    const cJSON *shaders;      /* gpu.json "shaders" for the legend, or NULL */
};
/* fill t from a map dataset -> (series -> median ms); quartiles from
 * q1map/q3map (gpu.json) or from Google Benchmark's repetitions g (cpu) */
void skb__pl_tgrid_fill(struct tgrid *t, const cJSON *ms, const cJSON *q1map, const cJSON *q3map,
                        const struct skb_gbench_set *g);
/* absolute times per dataset, log y */
void skb__pl_times_plot(struct skb_report *rep, const char *dir, const char *name, const char *what,
                        const struct tgrid *t);
/* times over the baseline series of the same dataset; paper ratios (may be
 * NULL) as one more column */
void skb__pl_ratio_plot(struct skb_report *rep, const char *dir, const char *name, const char *what,
                        const struct tgrid *t, const char *baseline, const double *paper, const char *paper_label);

#endif
