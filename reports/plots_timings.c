/* plots_timings.c — the timing grid the CPU and GPU timing plots share
 * (exp_cpu_plots.c, exp_gpu.c): medians with interquartile ranges per
 * dataset and series, drawn as absolute times or as ratios to LBS.  The
 * gnuplot core: plots.c. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "report_internal.h"
#include "skb_json.h"
#include "skb_label.h"
#include "skb_method.h"
#include "skb_report.h"
#include "report_internal.h"
#include "plots_internal.h"

/* cpu.json datasets[D] keeps times under "ms"; gpu.json ms[D] is the map */
static const cJSON *row_of(const cJSON *d)
{
    const cJSON *m = skb__jget(d, "ms");
    return cJSON_IsObject(d) ? (m ? m : d) : NULL;
}

static int ser_index(struct tgrid *t, const char *name, int add)
{
    for (int i = 0; i < t->nser; i++)
        if (strcmp(t->ser[i], name) == 0)
            return i;
    if (!add || t->nser >= MAXSER)
        return -1;
    t->ser[t->nser] = name;
    return t->nser++;
}

/* quartiles of the gbench repetitions named exactly "double/METHOD/DATASET"
 * (the double-precision kernels cpu.json's "ms" are the medians of) */
static int gbench_quartiles(const struct skb_gbench_set *g, const char *dataset, const char *method, double *q1, double *q3)
{
    char want[512];
    snprintf(want, sizeof want, "double/%s/%s", method, dataset);
    for (int i = 0; g && i < g->n; i++) {
        if (strcmp(g->b[i].name, want) != 0 || g->b[i].nrep < 2)
            continue;
        double *x = malloc(sizeof *x * (size_t)g->b[i].nrep);
        if (!x)
            return -1;
        for (int r = 0; r < g->b[i].nrep; r++)
            x[r] = g->b[i].time_ns[r] * 1e-6;   /* skb_gbench_parse gives ns */
        skb_sort_doubles(x, g->b[i].nrep);
        *q1 = skb_sorted_quantile(x, g->b[i].nrep, 0.25);
        *q3 = skb_sorted_quantile(x, g->b[i].nrep, 0.75);
        free(x);
        return 0;
    }
    return -1;
}

/* fill t from ms[DATASET][SERIES]; quartiles from q1map/q3map (gpu.json
 * ms_q1 / ms_q3) or the gbench repetitions */
void skb__pl_tgrid_fill(struct tgrid *t, const cJSON *ms, const cJSON *q1map, const cJSON *q3map,
                        const struct skb_gbench_set *g)
{
    const cJSON *d, *m;
    memset(t, 0, sizeof *t);
    cJSON_ArrayForEach(d, ms) {
        if (!row_of(d) || t->nrow >= MAXROW)
            continue;
        int r = t->nrow++;
        t->row[r] = d->string;
        for (int i = 0; i < MAXSER; i++)
            t->med[r][i] = t->q1[r][i] = t->q3[r][i] = NAN;
        cJSON_ArrayForEach(m, row_of(d)) {
            double v = NAN, a = NAN, b = NAN;
            int i = ser_index(t, m->string, 1);
            if (i < 0 || skb__jnum(m, &v) < 0 || !(v > 0))
                continue;
            t->med[r][i] = v;
            if (skb__jnum(skb__jget(skb__jget(q1map, d->string), m->string), &a) < 0 || skb__jnum(skb__jget(skb__jget(q3map, d->string), m->string), &b) < 0)
                gbench_quartiles(g, d->string, m->string, &a, &b);
            if (a > 0 && b >= a) {
                t->q1[r][i] = a;
                t->q3[r][i] = b;
                t->nspread++;
            }
        }
    }
}

/* x tics at 0..nrow-1 named by the rows (quoted), plus extra labels */
static void xtics_rows(FILE *f, const struct tgrid *t, const char *extra)
{
    char qt[420];
    fprintf(f, "set xtics rotate by -25 (");
    for (int r = 0; r < t->nrow; r++)
        fprintf(f, "%s%s %d", r ? ", " : "", skb__pl_gp_quote(qt, sizeof qt, t->row[r]), r);
    if (extra)
        fprintf(f, "%s%s %d", t->nrow ? ", " : "", skb__pl_gp_quote(qt, sizeof qt, extra), t->nrow);
    fprintf(f, ")\nset xrange [-0.6:%g]\n", (extra ? t->nrow : t->nrow - 1) + 0.6);
}

/* the data file: x, then per series (median, q1, q3) divided by base[row]
 * (1 for absolute times); a cell without quartiles repeats the median (no
 * bar); an optional last row `paper` (one value per series, no spread) */
static int tgrid_write(const struct tgrid *t, const char *dir, const char *name, const double *base,
                       const double *paper)
{
    struct memfile mf;
    FILE *f = skb__pl_mem_open(&mf);
    if (!f)
        return -1;
    fprintf(f, "# x then (median, q1, q3) per series, in order of the plot command\n");
    for (int r = 0; r < t->nrow; r++) {
        fprintf(f, "%d", r);
        for (int i = 0; i < t->nser; i++) {
            double b = base ? base[r] : 1, has = isfinite(t->q1[r][i]);
            skb__pl_fnum(f, t->med[r][i] / b);
            skb__pl_fnum(f, (has ? t->q1[r][i] : t->med[r][i]) / b);
            skb__pl_fnum(f, (has ? t->q3[r][i] : t->med[r][i]) / b);
        }
        fputc('\n', f);
    }
    if (paper) {
        fprintf(f, "%d", t->nrow);
        for (int i = 0; i < t->nser; i++) {
            skb__pl_fnum(f, paper[i]);
            skb__pl_fnum(f, paper[i]);
            skb__pl_fnum(f, paper[i]);
        }
        fputc('\n', f);
    }
    return skb__pl_dat_close(&mf, dir, name);
}

/* one plot command: every series as markers with interquartile bars,
 * side by side around its row's x */
static void tgrid_plot_cmd(FILE *f, const struct tgrid *t, const char *name)
{
    char st[96];
    fprintf(f, "plot ");
    for (int i = 0; i < t->nser; i++) {
        double off = -0.36 + 0.72 * (i + 0.5) / t->nser;
        fprintf(f, "%s'%s.dat' using ($1%+.4f):%d:%d:%d with yerrorbars %s ps 1.2 lw 1.5", i ? ", " : "", name,
                off, 2 + 3 * i, 3 + 3 * i, 4 + 3 * i, skb__pl_series_style(st, sizeof st, i, t->nser));
        skb__pl_put_title(f, t->ser[i], t->shaders);
    }
    fputc('\n', f);
}

static const char *spread_note(const struct tgrid *t)
{
    return t->nspread ? "median, bars: interquartile range of repetitions" : "median (no repetition data: no bars)";
}

/* absolute times, log y: arm's microseconds and body's tenths of a
 * millisecond are both readable */
void skb__pl_times_plot(struct skb_report *rep, const char *dir, const char *name, const char *what,
                        const struct tgrid *t)
{
    char title[160];
    snprintf(title, sizeof title, "%s: %s", what, spread_note(t));
    struct body b;
    if (tgrid_write(t, dir, name, NULL, NULL) < 0 || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return;
    }
    xtics_rows(b.f, t, NULL);
    fprintf(b.f, "set logscale y\nset xlabel 'dataset'\nset ylabel 'time per deformation (ms, log scale)'\n"
                 "set grid xtics ytics mytics\n");
    tgrid_plot_cmd(b.f, t, name);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

/* times as a ratio to the baseline series (LBS) of the same dataset, log y;
 * paper ratios (may be NULL) as one more column */
void skb__pl_ratio_plot(struct skb_report *rep, const char *dir, const char *name, const char *what,
                        const struct tgrid *t, const char *baseline, const double *paper, const char *paper_label)
{
    char title[160];
    int bi = -1;
    for (int i = 0; i < t->nser; i++)
        if (strcmp(t->ser[i], baseline) == 0)
            bi = i;
    snprintf(title, sizeof title, "%s: %s", what, spread_note(t));
    if (bi < 0) {
        skb__pl_not_run(rep, name, title, "no baseline (LBS) timing to divide by");
        return;
    }
    double base[MAXROW];
    for (int r = 0; r < t->nrow; r++)
        base[r] = t->med[r][bi];
    struct body b;
    if (tgrid_write(t, dir, name, base, paper) < 0 || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return;
    }
    xtics_rows(b.f, t, paper ? paper_label : NULL);
    fprintf(b.f, "set logscale y\nset xlabel 'dataset'\nset ylabel 'time / LBS time of the same dataset (log scale)'\n"
                 "set grid xtics ytics mytics\nset arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444'\n");
    if (paper)
        fprintf(b.f, "set arrow from %g, graph 0 to %g, graph 1 nohead lc rgb '#888888'\n", t->nrow - 0.5, t->nrow - 0.5);
    tgrid_plot_cmd(b.f, t, name);
    skb__pl_body_plot(&b, rep, dir, name, title);
}
