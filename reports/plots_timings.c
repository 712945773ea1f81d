/* plots_timings.c — the timing plots: CPU times per dataset (medians with
 * interquartile ranges), ratios to LBS beside DQ paper Fig. 18, the
 * scaling curve, and the GPU sweep.  The gnuplot core: plots.c. */
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

#define MAXROW 64

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
static void tgrid_fill(struct tgrid *t, const cJSON *ms, const cJSON *q1map, const cJSON *q3map,
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
static void times_plot(struct skb_report *rep, const char *dir, const char *name, const char *what,
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
static void ratio_plot(struct skb_report *rep, const char *dir, const char *name, const char *what,
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

/* DQ paper Fig. 18 CPU ratios to LBS for the series that have one */
static int fig18_ratios(const struct skb_report *rep, const struct tgrid *t, double *paper)
{
    const cJSON *rt = skb__jget(skb__jget(rep->ref, "figure_18"), "ratio_to_linear");
    int n = 0;
    for (int i = 0; i < t->nser; i++) {
        paper[i] = NAN;
        n += skb__jnum(skb__jget(rt, t->ser[i]), &paper[i]) == 0;
    }
    return n;
}

/* the fast kernels' scaling curve on the roofline mesh (cpu.json
 * large_mesh.scaling): LBS's and DLB's speed-up over one thread and the
 * copy bandwidth's, against the thread count; with 2 CPUs or fewer no
 * curve, and the plot list says "2 cores only" */
static void scaling_plot(struct skb_report *rep, const char *dir, const char *sfx, const cJSON *doc)
{
    char name[64], title[160];
    const cJSON *sc = skb__jget(skb__jget(doc, "large_mesh"), "scaling"), *pts = skb__jget(sc, "points"), *p;
    double cpus = NAN, c1 = NAN;
    snprintf(name, sizeof name, "cpu-scaling%s", sfx);
    snprintf(title, sizeof title, "Fast kernels on every core: speed-up over one thread (roofline mesh)");
    skb__jnum(skb__jget(sc, "cpus"), &cpus);
    if (!sc || !cJSON_IsArray(pts)) {
        skb__pl_not_run(rep, name, title, "cpu.json has no large_mesh.scaling (roofline mesh not run)");
        return;
    }
    if (!(cpus > 2)) {
        skb__pl_not_run(rep, name, title, "2 cores only: the scaling curve needs more than 2 CPUs");
        return;
    }
    struct memfile m;
    FILE *f = skb__pl_mem_open(&m);
    if (!f) {
        skb__pl_not_run(rep, name, title, "out of memory");
        return;
    }
    fprintf(f, "# threads linear_speedup dlb_speedup copy_scaling copy_GBps\n");
    skb__jnum(skb__jget(cJSON_GetArrayItem(pts, 0), "copy_bandwidth_GBps"), &c1);
    cJSON_ArrayForEach(p, pts) {
        double th = NAN, ls = NAN, ds = NAN, bw = NAN;
        skb__jnum(skb__jget(p, "threads"), &th);
        skb__jnum(skb__jget(p, "linear_speedup"), &ls);
        skb__jnum(skb__jget(p, "dlb_speedup"), &ds);
        skb__jnum(skb__jget(p, "copy_bandwidth_GBps"), &bw);
        skb__pl_fnum(f, th);
        skb__pl_fnum(f, ls);
        skb__pl_fnum(f, ds);
        skb__pl_fnum(f, bw / c1);
        skb__pl_fnum(f, bw);
        fputc('\n', f);
    }
    if (skb__pl_dat_close(&m, dir, name) < 0) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return;
    }
    struct body b;
    if (!skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, "out of memory");
        return;
    }
    fprintf(b.f, "set logscale xy 2\nset xlabel 'threads'\nset ylabel 'speed-up over one thread (wall time)'\n"
                 "plot x title 'ideal' with lines dashtype 2 lc rgb '#888888', "
                 "'%s.dat' using 1:2 title 'LBS split f32 (renormalised)' with linespoints pt 7, "
                 "'' using 1:3 title 'DLB split f32' with linespoints pt 5, "
                 "'' using 1:4 title 'memcpy bandwidth' with linespoints pt 9\n", name);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

void skb__plot_cpu(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    char name[64], name2[64], what[160];
    snprintf(name, sizeof name, "cpu-times%s", sfx);
    snprintf(name2, sizeof name2, "cpu-ratio%s", sfx);
    const cJSON *doc = skb_results_doc(r, "cpu.json");
    if (!doc) {
        const char *why = skb_results_err(r, "cpu.json")[0] ? "cpu.json unreadable" : "cpu.json not found (cpu not run)";
        skb__pl_not_run(rep, name, "CPU time per deformation", why);
        skb__pl_not_run(rep, name2, "CPU time relative to LBS", why);
        return;
    }
    struct skb_gbench_set g;
    const cJSON *gdoc = skb_results_doc(r, "cpu-gbench.json");
    char msg[300];
    int hg = gdoc && skb_gbench_parse(gdoc, &g, msg, sizeof msg) == 0;
    struct tgrid *t = malloc(sizeof *t);
    if (t) {
        tgrid_fill(t, skb__jget(doc, "datasets"), NULL, NULL, hg ? &g : NULL);
        if (!t->nrow || !t->nser) {
            skb__pl_not_run(rep, name, "CPU time per deformation", "no timings in cpu.json");
        } else {
            double paper[MAXSER];
            int np = fig18_ratios(rep, t, paper);
            snprintf(what, sizeof what, "CPU time per deformation [%.60s]", r->machine_key);
            times_plot(rep, dir, name, what, t);
            snprintf(what, sizeof what, "CPU time / LBS [%.50s], last column DQ paper Fig. 18", r->machine_key);
            ratio_plot(rep, dir, name2, what, t, skb_method_role_name(SKB_MF_RATIO_REF), np ? paper : NULL,
                       "DQ paper Fig. 18");
        }
        free(t);
    }
    scaling_plot(rep, dir, sfx, doc);
    if (hg)
        skb_gbench_set_free(&g);
}

/* gpu.json "compute": sweep rows (vertices, then per method vertices/s at
 * the median and at the quartiles of time); returns the methods written */
static int sweep_dat(const cJSON *c, const char **ser, int max, const char *dir, const char *name)
{
    const cJSON *sw = skb__jget(c, "sweep"), *e, *x;
    int ns = 0;
    cJSON_ArrayForEach(x, skb__jget(cJSON_GetArrayItem(sw, 0), "ms"))
        if (ns < max && x->string)
            ser[ns++] = x->string;
    struct memfile m;
    FILE *f = ns ? skb__pl_mem_open(&m) : NULL;
    if (!f)
        return 0;
    cJSON_ArrayForEach(e, sw) {
        double n = NAN;
        skb__jnum(skb__jget(e, "vertices"), &n);
        skb__pl_fnum(f, n);
        for (int i = 0; i < ns; i++) {
            double ms = NAN, q1 = NAN, q3 = NAN;
            skb__jnum(skb__jget(skb__jget(e, "ms"), ser[i]), &ms);
            skb__jnum(skb__jget(skb__jget(e, "ms_q1"), ser[i]), &q1);
            skb__jnum(skb__jget(skb__jget(e, "ms_q3"), ser[i]), &q3);
            /* the slower quartile of time is the lower one of the rate */
            skb__pl_fnum(f, n / (ms * 1e-3));
            skb__pl_fnum(f, n / (q3 * 1e-3));
            skb__pl_fnum(f, n / (q1 * 1e-3));
        }
        fputc('\n', f);
    }
    return skb__pl_dat_close(&m, dir, name) == 0 ? ns : 0;
}

/* the compute sweep: vertices/s against vertices, log-log, one line per
 * method, and the copy roofline (copy bandwidth / bytes per vertex) for
 * each distinct bytes per vertex of the methods */
static void gpu_sweep_plot(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = skb_results_doc(r, "gpu.json"), *c = skb__jget(doc, "compute");
    const char *ser[MAXSER];
    char name[64], title[200], st[96];
    double copy = NAN;
    snprintf(name, sizeof name, "gpu-sweep%s", sfx);
    snprintf(title, sizeof title, "GPU compute skinning: vertices/s against vertices%s [%.50s]",
             cJSON_IsTrue(skb__jget(c, "software_renderer")) ? " (software renderer: context)" : "", r->machine_key);
    int ns = c ? sweep_dat(c, ser, MAXSER, dir, name) : 0;
    struct body b;
    if (!ns || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, c ? "gpu.json \"compute\" has no sweep" : "gpu.json has no \"compute\"");
        return;
    }
    skb__jnum(skb__jget(c, "copy_bandwidth_GBps"), &copy);
    fprintf(b.f, "set logscale xy\nset xlabel 'vertices skinned per dispatch (log scale)'\n"
                 "set ylabel 'vertices per second (log scale); bars: interquartile range'\nset grid xtics ytics mytics\n");
    fprintf(b.f, "plot ");
    for (int i = 0; i < ns; i++) {
        fprintf(b.f, "%s'%s.dat' using 1:%d:%d:%d with yerrorlines %s ps 1 lw 1.5", i ? ", " : "", name, 2 + 3 * i,
                3 + 3 * i, 4 + 3 * i, skb__pl_series_style(st, sizeof st, i, ns));
        skb__pl_put_title(b.f, ser[i], skb__jget(doc, "shaders"));
    }
    int seen[8], nseen = 0;
    for (int i = 0; i < ns && isfinite(copy) && copy > 0; i++) {
        double bpv = NAN;
        int dup = 0;
        if (skb__jnum(skb__jget(skb__jget(c, "bytes_per_vertex"), ser[i]), &bpv) < 0 || !(bpv > 0))
            continue;
        for (int k = 0; k < nseen; k++)
            dup |= seen[k] == (int)bpv;
        if (dup || nseen >= 8)
            continue;
        seen[nseen++] = (int)bpv;
        fprintf(b.f, ", %.9g with lines dt %d lw 2 lc rgb '#333333' title 'copy roofline, %d B/vertex (%.4g GB/s)'",
                copy * 1e9 / bpv, 2 + nseen, (int)bpv, copy);
    }
    fputc('\n', b.f);
    skb__pl_body_plot(&b, rep, dir, name, title);
}

void skb__plot_gpu(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    char name[64], name2[64], what[160];
    const cJSON *doc = skb_results_doc(r, "gpu.json");
    int soft = cJSON_IsTrue(skb__jget(doc, "software_renderer"));
    snprintf(name, sizeof name, "gpu-times%s", sfx);
    snprintf(name2, sizeof name2, "gpu-ratio%s", sfx);
    if (!skb__jget(doc, "ms")) {
        const char *why = doc ? "gpu.json has no \"ms\" (skipped?)"
                        : skb_results_err(r, "gpu.json")[0] ? "gpu.json unreadable" : "gpu.json not found (gpu not run)";
        skb__pl_not_run(rep, name, "GPU time per deformation", why);
        return;
    }
    struct tgrid *t = malloc(sizeof *t);
    if (!t)
        return;
    tgrid_fill(t, skb__jget(doc, "ms"), skb__jget(doc, "ms_q1"), skb__jget(doc, "ms_q3"), NULL);
    t->shaders = skb__jget(doc, "shaders");
    const char *ctx = soft ? " (software renderer: context)" : "";
    snprintf(what, sizeof what, "GPU time per deformation%s [%.50s]", ctx, r->machine_key);
    times_plot(rep, dir, name, what, t);
    snprintf(what, sizeof what, "GPU time / LBS%s [%.50s]", ctx, r->machine_key);
    ratio_plot(rep, dir, name2, what, t, skb_method_role_name(SKB_MF_RATIO_REF), NULL, NULL);   /* LBS's shader */
    free(t);
    gpu_sweep_plot(rep, dir, sfx, r);
}

/* ---- bound curves over t ---- */

/* a curve object {"curve": [[t, y1, y2, ...], ...]}: rows of numbers;
 * returns the number of y columns (0 if not that shape) */
