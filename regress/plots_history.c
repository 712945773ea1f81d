/* plots_history.c — one trend plot per method of the nightly history
 * (history.c): every benchmark of the method a line of its median CPU time
 * per night, log scale.  Benchmark and night names reach gnuplot only from
 * the data file (column headers, xtic labels: data, never script), after
 * any character outside [A-Za-z0-9_./+@=-] is replaced. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "compare_internal.h"
#include "history_internal.h"
#include "report_internal.h"

/* lines per plot: beyond about eight, colours and markers repeat and the
 * legend no longer fits; a method with more benchmarks gets several plots */
#define HIST_PLOT_MAX_LINES 8
/* benchmarks of one method followed: more are named in no plot, and the
 * first plot's title says how many were left out */
#define HIST_GROUP_MAX 64

static void clean(char *dst, size_t n, const char *s)
{
    size_t i = 0;
    for (; s[i] && i + 1 < n; i++) {
        char c = s[i];
        dst[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("_./+@=-", c)
                 ? c : '_';
    }
    dst[i] = 0;
}

/* file stem hist-GROUP with only letters, digits and '-' */
static void stem(char *dst, size_t n, const char *group)
{
    snprintf(dst, n, "hist-%s", group);
    for (char *p = dst; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            *p = '-';
}

/* DIR/STEM.dat: a header of names, then one row per night */
static int write_dat(const char *dir, const char *st, const struct skb_history *h, const int *idx, int n)
{
    size_t cap = 4096 + (size_t)h->nnights * (size_t)(n + 1) * 24 + (size_t)n * 220, len = 0;
    char *buf = malloc(cap), name[220], msg[300], path[1400];
    if (!buf)
        return -1;
    len += (size_t)snprintf(buf + len, cap - len, "night");
    for (int j = 0; j < n; j++) {
        clean(name, sizeof name, h->series[idx[j]].name);
        len += (size_t)snprintf(buf + len, cap - len, " \"%s\"", name);
    }
    for (int k = 0; k < h->nnights && len < cap; k++) {
        clean(name, sizeof name, h->night[k]);
        len += (size_t)snprintf(buf + len, cap - len, "\n\"%s\"", name);
        for (int j = 0; j < n && len < cap; j++) {
            double v = h->series[idx[j]].v[k];
            len += (size_t)(isfinite(v) ? snprintf(buf + len, cap - len, " %.9g", v)
                                        : snprintf(buf + len, cap - len, " ?"));
        }
    }
    len += (size_t)snprintf(buf + len, cap - len, "\n");
    snprintf(path, sizeof path, "%s/%s.dat", dir, st);
    int rc = len < cap ? skb_write_atomic(path, buf, len, msg, sizeof msg) : -1;
    free(buf);
    return rc;
}

/* plot `part` (0-based) of `nparts` of a group: series idx[0..n) */
static void part_plot(struct skb_report *rep, const char *dir, const struct skb_history *h, const char *group,
                      const int *idx, int n, int part, int nparts, int dropped)
{
    char cg[80], st[140], title[240], body[1200];
    stem(st, sizeof st, group);
    if (part > 0)
        snprintf(st + strlen(st), sizeof st - strlen(st), "-%d", part + 1);
    clean(cg, sizeof cg, group);
    int tl = snprintf(title, sizeof title, "Nightly trend: %s", cg);
    if (nparts > 1)
        tl += snprintf(title + tl, sizeof title - (size_t)tl, ", part %d of %d", part + 1, nparts);
    snprintf(title + tl, sizeof title - (size_t)tl, " (median CPU ms per deformation)%s",
             dropped && part == 0 ? "; more benchmarks than plotted" : "");
    if (write_dat(dir, st, h, idx, n) < 0)
        return;
    /* the legend below the plot, two columns: a long benchmark name never
     * squeezes the plot or runs off the picture */
    snprintf(body, sizeof body,
             "set logscale y\nset ylabel 'ms per deformation (median)'\nset xtics rotate by -30\n"
             "set key outside below center horizontal maxcols 2 font ',8'\n"
             "plot for [i=2:%d] '%s.dat' using 0:i:xtic(1) with linespoints title columnheader(i)", n + 1, st);
    skb__plot_gnuplot(rep, dir, st, title, body);
}

/* every time series of the group, HIST_PLOT_MAX_LINES to a plot */
static void group_plot(struct skb_report *rep, const char *dir, const struct skb_history *h, const char *group)
{
    int idx[HIST_GROUP_MAX], n = 0, dropped = 0;
    char g[80];
    for (int i = 0; i < h->nseries; i++) {
        skb__bench_group(h->series[i].name, g, sizeof g);
        if (h->series[i].metric != SKB_HIST_TIME || strcmp(g, group) != 0)
            continue;
        if (n < HIST_GROUP_MAX)
            idx[n++] = i;
        else
            dropped++;
    }
    int nparts = (n + HIST_PLOT_MAX_LINES - 1) / HIST_PLOT_MAX_LINES;
    for (int p = 0; p < nparts; p++) {
        int k = n - p * HIST_PLOT_MAX_LINES;
        part_plot(rep, dir, h, group, idx + p * HIST_PLOT_MAX_LINES, k < HIST_PLOT_MAX_LINES ? k : HIST_PLOT_MAX_LINES,
                  p, nparts, dropped);
    }
}

void skb_history_plots(struct skb_report *rep, const char *out_dir, const struct skb_history *h)
{
    char dir[1200], msg[300];
    if (!h || h->nnights < 2 || !skb__plot_have_gnuplot())
        return;
    snprintf(dir, sizeof dir, "%s/plots", out_dir);
    if (skb_mkdirs_below(out_dir, "plots", msg, sizeof msg) < 0)
        return;
    char done[64][80];
    int nd = 0;
    for (int i = 0; i < h->nseries && nd < 64; i++) {
        char g[80];
        int seen = 0;
        if (h->series[i].metric != SKB_HIST_TIME)
            continue;
        skb__bench_group(h->series[i].name, g, sizeof g);
        for (int j = 0; j < nd && !seen; j++)
            seen = strcmp(done[j], g) == 0;
        if (seen)
            continue;
        snprintf(done[nd++], sizeof done[0], "%s", g);
        group_plot(rep, dir, h, g);
    }
}
