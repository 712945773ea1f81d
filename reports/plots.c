/* plots.c — gnuplot plots (PNG + SVG) from results JSON into DIR/plots:
 * CPU and GPU times (medians with interquartile ranges, log scale, and as
 * ratios to LBS beside DQ paper Fig. 18), the bound curves bounds.json
 * carries (DQ paper Fig. 23, thesis Fig. A.1) with the paper's values
 * marked, the DIB iteration histograms, sphere radii per tree level as
 * ratios to the reference (thesis Tables 5.2 / 6.1 overlaid) and CD
 * scaling (Table 5.3 overlaid).  Paper values come from reports/reference.json
 * only.  Every series has its own colour and marker; legends use display
 * names.  A plot whose input is missing is recorded as "not run" with the
 * reason; nothing here fails the report. */
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

#define TERM_PNG "set terminal pngcairo size 900,520 noenhanced font 'DejaVu Sans,10'"
#define TERM_SVG "set terminal svg size 900,520 noenhanced font 'DejaVu Sans,10'"

static const cJSON *jget(const cJSON *o, const char *k)
{
    return o && k ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

static int jnum(const cJSON *x, double *out)
{
    return x && skb_json_get_number(x, out) == 0 && isfinite(*out) ? 0 : -1;
}

/* plot file stems: letters, digits and '-' only (they end up in gnuplot
 * scripts and HTML ids) */
static void sanitize(char *s)
{
    for (char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-'))
            *c = '-';
}

/* s as a gnuplot single-quoted string literal, the only form in which input
 * text (method, dataset and machine names from results JSON) may enter a
 * script.  Inside single quotes gnuplot does no backquote command
 * substitution, no @macro expansion and no backslash escapes; '' is its one
 * escape, for a quote.  A control character (a newline would end the
 * command and start a new one) becomes a space.  Truncates to fit. */
static const char *gp_quote(char *dst, size_t n, const char *s)
{
    size_t k = 0;
    dst[k++] = '\'';
    for (; s && *s && k + 4 < n; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\'')
            dst[k++] = '\'';
        dst[k++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
    }
    dst[k++] = '\'';
    dst[k] = 0;
    return dst;
}

static struct skb_plot_entry *entry(struct skb_report *rep, const char *name, const char *title)
{
    struct skb_plot_entry *p = skb_report_plot_new(rep);
    if (!p)
        return NULL;
    snprintf(p->name, sizeof p->name, "%s", name);
    sanitize(p->name);
    snprintf(p->title, sizeof p->title, "%s", title);
    return p;
}

static void not_run(struct skb_report *rep, const char *name, const char *title, const char *why)
{
    struct skb_plot_entry *p = entry(rep, name, title);
    if (p)
        snprintf(p->why, sizeof p->why, "%s", why);
}

static int gnuplot_found(void)
{
    const char *path = getenv("PATH");
    char buf[1200];
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/gnuplot", (int)n, path);
        if (access(buf, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

/* run `gnuplot NAME.gp` in dir, output to NAME.log; 0 when png and svg exist */
static int run_gnuplot(const char *dir, const char *name, char *why, size_t whylen)
{
    char gp[128], log[128];
    snprintf(gp, sizeof gp, "%s.gp", name);
    snprintf(log, sizeof log, "%s.log", name);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, whylen, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execlp("gnuplot", "gnuplot", gp, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(why, whylen, "gnuplot failed (see plots/%s.log)", name);
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        char path[1400];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s.%s", dir, name, i ? "svg" : "png");
        if (stat(path, &sb) != 0 || sb.st_size == 0) {
            snprintf(why, whylen, "gnuplot wrote no %s (see plots/%s.log)", i ? "SVG" : "PNG", name);
            return -1;
        }
    }
    return 0;
}

/* a file built in memory, then written with the safe-output helper (temp
 * file + rename; never replaces a device, FIFO or symlink) */
struct memfile { FILE *f; char *buf; size_t len; };

static FILE *mem_open(struct memfile *m)
{
    m->buf = NULL;
    m->len = 0;
    m->f = open_memstream(&m->buf, &m->len);
    return m->f;
}

static int mem_save(struct memfile *m, const char *path, char *msg, size_t msglen)
{
    int rc = SKB_ENOMEM;
    if (fclose(m->f) == 0 && m->buf)
        rc = skb_write_atomic(path, m->buf, m->len, msg, msglen);
    else
        snprintf(msg, msglen, "%s: out of memory", path);
    free(m->buf);
    return rc;
}

/* gnuplot opens NAME.png/.svg/.log itself (following links): check them first */
static int outputs_check(const char *dir, const char *name, char *msg, size_t msglen)
{
    static const char *const ext[] = { "png", "svg", "log" };
    for (int i = 0; i < 3; i++) {
        char path[1400];
        snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext[i]);
        if (skb_output_check(path, msg, msglen) < 0)
            return -1;
    }
    return 0;
}

/* write NAME.gp that renders `body` twice (PNG then SVG) and run it */
static void plot(struct skb_report *rep, const char *dir, const char *name, const char *title, const char *body)
{
    struct skb_plot_entry *p = entry(rep, name, title);
    if (!p)
        return;
    char path[1400], qt[420], msg[300];
    snprintf(path, sizeof path, "%s/%s.gp", dir, p->name);
    struct memfile mf;
    FILE *f = mem_open(&mf);
    if (!f) {
        snprintf(p->why, sizeof p->why, "out of memory");
        return;
    }
    /* p->name is sanitised (letters, digits, '-'); title is quoted */
    fprintf(f, "# generated by skinbench report from results JSON\nset datafile missing '?'\n"
               "set title %s\nset key outside right top\nset grid ytics\n", gp_quote(qt, sizeof qt, title));
    fprintf(f, "%s\nset output '%s.png'\n%s\nunset output\n", TERM_PNG, p->name, body);
    fprintf(f, "%s\nset output '%s.svg'\n%s\nunset output\n", TERM_SVG, p->name, body);
    if (mem_save(&mf, path, msg, sizeof msg) < 0 || outputs_check(dir, p->name, msg, sizeof msg) < 0) {
        snprintf(p->why, sizeof p->why, "%.200s", msg);
        return;
    }
    p->ok = run_gnuplot(dir, p->name, p->why, sizeof p->why) == 0;
}

/* 0 when DIR/NAME.dat was written */
static int dat_close(struct memfile *m, const char *dir, const char *name)
{
    char path[1400], msg[300];
    snprintf(path, sizeof path, "%s/%s.dat", dir, name);
    return mem_save(m, path, msg, sizeof msg);
}

static void fnum(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, " %.9g", x);
    else
        fprintf(f, " ?");
}

/* ---- series styles and names ---- */

/* gnuplot point types (cairo and svg terminals): filled shapes, then open
 * ones, then crosses */
static const int marker[] = { 7, 5, 9, 11, 13, 15, 6, 4, 8, 10, 12, 14, 1, 2, 3 };
#define NMARKER ((int)(sizeof marker / sizeof marker[0]))

/* series i of n: hues spread evenly over the n series, so no two series
 * share a colour however many there are (a fixed palette repeats after its
 * length); every other one darker, so neighbouring hues differ in lightness
 * too; the marker cycles through NMARKER shapes */
static const char *series_colour(char *buf, size_t len, int i, int n)
{
    double h = 6.0 * (double)i / (n > 0 ? n : 1), v = i % 2 ? 0.5 : 0.8, sat = 0.9;
    int k = (int)h % 6;
    double fr = h - floor(h), p = v * (1 - sat), q = v * (1 - sat * fr), t = v * (1 - sat * (1 - fr));
    const double rgb[6][3] = { { v, t, p }, { q, v, p }, { p, v, t }, { p, q, v }, { t, p, v }, { v, p, q } };
    snprintf(buf, len, "lc rgb '#%02x%02x%02x'", (int)(255 * rgb[k][0] + 0.5), (int)(255 * rgb[k][1] + 0.5),
             (int)(255 * rgb[k][2] + 0.5));
    return buf;
}

/* colour and marker (for styles that draw points) */
static const char *series_style(char *buf, size_t len, int i, int n)
{
    char c[40];
    snprintf(buf, len, "%s pt %d", series_colour(c, sizeof c, i, n), marker[i % NMARKER]);
    return buf;
}

/* " title 'NAME'" for a results key: its human name, quoted; shaders: gpu.json
 * "shaders" where the key may be a shader name, else NULL */
static void put_title(FILE *f, const char *key, const cJSON *shaders)
{
    char hn[200], qt[420];
    fprintf(f, " title %s", gp_quote(qt, sizeof qt, skb__plot_series_name(key, shaders, hn, sizeof hn)));
}

/* a gnuplot script body built in memory (any length) */
struct body { FILE *f; char *buf; size_t len; };

static FILE *body_open(struct body *b)
{
    b->buf = NULL;
    b->len = 0;
    b->f = open_memstream(&b->buf, &b->len);
    return b->f;
}

/* close the body and draw it; frees it */
static void body_plot(struct body *b, struct skb_report *rep, const char *dir, const char *name, const char *title)
{
    if (fclose(b->f) != 0 || !b->buf)
        not_run(rep, name, title, "out of memory");
    else
        plot(rep, dir, name, title, b->buf);
    free(b->buf);
}

/* ---- reference values (reports/reference.json only) ---- */

/* the bounds entry with this id */
static const cJSON *ref_bound(const struct skb_report *rep, const char *id)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, jget(jget(rep->ref, "bounds"), "entries")) {
        const char *s = cJSON_GetStringValue(jget(e, "id"));
        if (s && strcmp(s, id) == 0)
            return e;
    }
    return NULL;
}

/* a reference "where" for a legend: the part before its first " (" or ";"
 * (the source, without the explanations that do not fit a key line) */
static const char *short_where(const char *w, char *buf, size_t n)
{
    const char *p = w ? strstr(w, " (") : NULL, *q = w ? strchr(w, ';') : NULL;
    size_t len = w ? strlen(w) : 0;
    if (p && (size_t)(p - w) < len)
        len = (size_t)(p - w);
    if (q && (size_t)(q - w) < len)
        len = (size_t)(q - w);
    snprintf(buf, n, "%.*s", (int)len, w ? w : "");
    return buf;
}

/* ---- timings: median with interquartile range, log scale ---- */

#define MAXSER 48
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
    const cJSON *m = jget(d, "ms");
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
            if (i < 0 || jnum(m, &v) < 0 || !(v > 0))
                continue;
            t->med[r][i] = v;
            if (jnum(jget(jget(q1map, d->string), m->string), &a) < 0 || jnum(jget(jget(q3map, d->string), m->string), &b) < 0)
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
        fprintf(f, "%s%s %d", r ? ", " : "", gp_quote(qt, sizeof qt, t->row[r]), r);
    if (extra)
        fprintf(f, "%s%s %d", t->nrow ? ", " : "", gp_quote(qt, sizeof qt, extra), t->nrow);
    fprintf(f, ")\nset xrange [-0.6:%g]\n", (extra ? t->nrow : t->nrow - 1) + 0.6);
}

/* the data file: x, then per series (median, q1, q3) divided by base[row]
 * (1 for absolute times); a cell without quartiles repeats the median (no
 * bar); an optional last row `paper` (one value per series, no spread) */
static int tgrid_write(const struct tgrid *t, const char *dir, const char *name, const double *base,
                       const double *paper)
{
    struct memfile mf;
    FILE *f = mem_open(&mf);
    if (!f)
        return -1;
    fprintf(f, "# x then (median, q1, q3) per series, in order of the plot command\n");
    for (int r = 0; r < t->nrow; r++) {
        fprintf(f, "%d", r);
        for (int i = 0; i < t->nser; i++) {
            double b = base ? base[r] : 1, has = isfinite(t->q1[r][i]);
            fnum(f, t->med[r][i] / b);
            fnum(f, (has ? t->q1[r][i] : t->med[r][i]) / b);
            fnum(f, (has ? t->q3[r][i] : t->med[r][i]) / b);
        }
        fputc('\n', f);
    }
    if (paper) {
        fprintf(f, "%d", t->nrow);
        for (int i = 0; i < t->nser; i++) {
            fnum(f, paper[i]);
            fnum(f, paper[i]);
            fnum(f, paper[i]);
        }
        fputc('\n', f);
    }
    return dat_close(&mf, dir, name);
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
                off, 2 + 3 * i, 3 + 3 * i, 4 + 3 * i, series_style(st, sizeof st, i, t->nser));
        put_title(f, t->ser[i], t->shaders);
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
    if (tgrid_write(t, dir, name, NULL, NULL) < 0 || !body_open(&b)) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    xtics_rows(b.f, t, NULL);
    fprintf(b.f, "set logscale y\nset xlabel 'dataset'\nset ylabel 'time per deformation (ms, log scale)'\n"
                 "set grid xtics ytics mytics\n");
    tgrid_plot_cmd(b.f, t, name);
    body_plot(&b, rep, dir, name, title);
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
        not_run(rep, name, title, "no baseline (LBS) timing to divide by");
        return;
    }
    double base[MAXROW];
    for (int r = 0; r < t->nrow; r++)
        base[r] = t->med[r][bi];
    struct body b;
    if (tgrid_write(t, dir, name, base, paper) < 0 || !body_open(&b)) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    xtics_rows(b.f, t, paper ? paper_label : NULL);
    fprintf(b.f, "set logscale y\nset xlabel 'dataset'\nset ylabel 'time / LBS time of the same dataset (log scale)'\n"
                 "set grid xtics ytics mytics\nset arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444'\n");
    if (paper)
        fprintf(b.f, "set arrow from %g, graph 0 to %g, graph 1 nohead lc rgb '#888888'\n", t->nrow - 0.5, t->nrow - 0.5);
    tgrid_plot_cmd(b.f, t, name);
    body_plot(&b, rep, dir, name, title);
}

/* DQ paper Fig. 18 CPU ratios to LBS for the series that have one */
static int fig18_ratios(const struct skb_report *rep, const struct tgrid *t, double *paper)
{
    const cJSON *rt = jget(jget(rep->ref, "figure_18"), "ratio_to_linear");
    int n = 0;
    for (int i = 0; i < t->nser; i++) {
        paper[i] = NAN;
        n += jnum(jget(rt, t->ser[i]), &paper[i]) == 0;
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
    const cJSON *sc = jget(jget(doc, "large_mesh"), "scaling"), *pts = jget(sc, "points"), *p;
    double cpus = NAN, c1 = NAN;
    snprintf(name, sizeof name, "cpu-scaling%s", sfx);
    snprintf(title, sizeof title, "Fast kernels on every core: speed-up over one thread (roofline mesh)");
    jnum(jget(sc, "cpus"), &cpus);
    if (!sc || !cJSON_IsArray(pts)) {
        not_run(rep, name, title, "cpu.json has no large_mesh.scaling (roofline mesh not run)");
        return;
    }
    if (!(cpus > 2)) {
        not_run(rep, name, title, "2 cores only: the scaling curve needs more than 2 CPUs");
        return;
    }
    struct memfile m;
    FILE *f = mem_open(&m);
    if (!f) {
        not_run(rep, name, title, "out of memory");
        return;
    }
    fprintf(f, "# threads linear_speedup dlb_speedup copy_scaling copy_GBps\n");
    jnum(jget(cJSON_GetArrayItem(pts, 0), "copy_bandwidth_GBps"), &c1);
    cJSON_ArrayForEach(p, pts) {
        double th = NAN, ls = NAN, ds = NAN, bw = NAN;
        jnum(jget(p, "threads"), &th);
        jnum(jget(p, "linear_speedup"), &ls);
        jnum(jget(p, "dlb_speedup"), &ds);
        jnum(jget(p, "copy_bandwidth_GBps"), &bw);
        fnum(f, th);
        fnum(f, ls);
        fnum(f, ds);
        fnum(f, bw / c1);
        fnum(f, bw);
        fputc('\n', f);
    }
    if (dat_close(&m, dir, name) < 0) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    struct body b;
    if (!body_open(&b)) {
        not_run(rep, name, title, "out of memory");
        return;
    }
    fprintf(b.f, "set logscale xy 2\nset xlabel 'threads'\nset ylabel 'speed-up over one thread (wall time)'\n"
                 "plot x title 'ideal' with lines dashtype 2 lc rgb '#888888', "
                 "'%s.dat' using 1:2 title 'LBS split f32 (renormalised)' with linespoints pt 7, "
                 "'' using 1:3 title 'DLB split f32' with linespoints pt 5, "
                 "'' using 1:4 title 'memcpy bandwidth' with linespoints pt 9\n", name);
    body_plot(&b, rep, dir, name, title);
}

void skb__plot_cpu(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    char name[64], name2[64], what[160];
    snprintf(name, sizeof name, "cpu-times%s", sfx);
    snprintf(name2, sizeof name2, "cpu-ratio%s", sfx);
    const cJSON *doc = skb_results_doc(r, "cpu.json");
    if (!doc) {
        const char *why = skb_results_err(r, "cpu.json")[0] ? "cpu.json unreadable" : "cpu.json not found (cpu not run)";
        not_run(rep, name, "CPU time per deformation", why);
        not_run(rep, name2, "CPU time relative to LBS", why);
        return;
    }
    struct skb_gbench_set g;
    const cJSON *gdoc = skb_results_doc(r, "cpu-gbench.json");
    char msg[300];
    int hg = gdoc && skb_gbench_parse(gdoc, &g, msg, sizeof msg) == 0;
    struct tgrid *t = malloc(sizeof *t);
    if (t) {
        tgrid_fill(t, jget(doc, "datasets"), NULL, NULL, hg ? &g : NULL);
        if (!t->nrow || !t->nser) {
            not_run(rep, name, "CPU time per deformation", "no timings in cpu.json");
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
    const cJSON *sw = jget(c, "sweep"), *e, *x;
    int ns = 0;
    cJSON_ArrayForEach(x, jget(cJSON_GetArrayItem(sw, 0), "ms"))
        if (ns < max && x->string)
            ser[ns++] = x->string;
    struct memfile m;
    FILE *f = ns ? mem_open(&m) : NULL;
    if (!f)
        return 0;
    cJSON_ArrayForEach(e, sw) {
        double n = NAN;
        jnum(jget(e, "vertices"), &n);
        fnum(f, n);
        for (int i = 0; i < ns; i++) {
            double ms = NAN, q1 = NAN, q3 = NAN;
            jnum(jget(jget(e, "ms"), ser[i]), &ms);
            jnum(jget(jget(e, "ms_q1"), ser[i]), &q1);
            jnum(jget(jget(e, "ms_q3"), ser[i]), &q3);
            /* the slower quartile of time is the lower one of the rate */
            fnum(f, n / (ms * 1e-3));
            fnum(f, n / (q3 * 1e-3));
            fnum(f, n / (q1 * 1e-3));
        }
        fputc('\n', f);
    }
    return dat_close(&m, dir, name) == 0 ? ns : 0;
}

/* the compute sweep: vertices/s against vertices, log-log, one line per
 * method, and the copy roofline (copy bandwidth / bytes per vertex) for
 * each distinct bytes per vertex of the methods */
static void gpu_sweep_plot(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = skb_results_doc(r, "gpu.json"), *c = jget(doc, "compute");
    const char *ser[MAXSER];
    char name[64], title[200], st[96];
    double copy = NAN;
    snprintf(name, sizeof name, "gpu-sweep%s", sfx);
    snprintf(title, sizeof title, "GPU compute skinning: vertices/s against vertices%s [%.50s]",
             cJSON_IsTrue(jget(c, "software_renderer")) ? " (software renderer: context)" : "", r->machine_key);
    int ns = c ? sweep_dat(c, ser, MAXSER, dir, name) : 0;
    struct body b;
    if (!ns || !body_open(&b)) {
        not_run(rep, name, title, c ? "gpu.json \"compute\" has no sweep" : "gpu.json has no \"compute\"");
        return;
    }
    jnum(jget(c, "copy_bandwidth_GBps"), &copy);
    fprintf(b.f, "set logscale xy\nset xlabel 'vertices skinned per dispatch (log scale)'\n"
                 "set ylabel 'vertices per second (log scale); bars: interquartile range'\nset grid xtics ytics mytics\n");
    fprintf(b.f, "plot ");
    for (int i = 0; i < ns; i++) {
        fprintf(b.f, "%s'%s.dat' using 1:%d:%d:%d with yerrorlines %s ps 1 lw 1.5", i ? ", " : "", name, 2 + 3 * i,
                3 + 3 * i, 4 + 3 * i, series_style(st, sizeof st, i, ns));
        put_title(b.f, ser[i], jget(doc, "shaders"));
    }
    int seen[8], nseen = 0;
    for (int i = 0; i < ns && isfinite(copy) && copy > 0; i++) {
        double bpv = NAN;
        int dup = 0;
        if (jnum(jget(jget(c, "bytes_per_vertex"), ser[i]), &bpv) < 0 || !(bpv > 0))
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
    body_plot(&b, rep, dir, name, title);
}

void skb__plot_gpu(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    char name[64], name2[64], what[160];
    const cJSON *doc = skb_results_doc(r, "gpu.json");
    int soft = cJSON_IsTrue(jget(doc, "software_renderer"));
    snprintf(name, sizeof name, "gpu-times%s", sfx);
    snprintf(name2, sizeof name2, "gpu-ratio%s", sfx);
    if (!jget(doc, "ms")) {
        const char *why = doc ? "gpu.json has no \"ms\" (skipped?)"
                        : skb_results_err(r, "gpu.json")[0] ? "gpu.json unreadable" : "gpu.json not found (gpu not run)";
        not_run(rep, name, "GPU time per deformation", why);
        return;
    }
    struct tgrid *t = malloc(sizeof *t);
    if (!t)
        return;
    tgrid_fill(t, jget(doc, "ms"), jget(doc, "ms_q1"), jget(doc, "ms_q3"), NULL);
    t->shaders = jget(doc, "shaders");
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
static int curve_rows(const cJSON *c)
{
    const cJSON *cv = jget(c, "curve"), *row;
    int ncol = -1;
    if (!cJSON_IsArray(cv) || cJSON_GetArraySize(cv) < 2)
        return 0;
    cJSON_ArrayForEach(row, cv) {
        double v;
        int n = cJSON_GetArraySize(row);
        if (!cJSON_IsArray(row) || n < 2 || (ncol >= 0 && n != ncol) || jnum(cJSON_GetArrayItem(row, 0), &v) < 0)
            return 0;
        ncol = n;
    }
    return ncol - 1;
}

/* a curve object {"t": [...], "y1": [...], ...}: the numeric arrays of the
 * same length as t are its series */
static int curve_series(const cJSON *c, const cJSON **ser, int max)
{
    const cJSON *t = jget(c, "t"), *x;
    int n = cJSON_GetArraySize(t), ns = 0;
    if (!cJSON_IsArray(t) || n < 2)
        return 0;
    cJSON_ArrayForEach(x, c) {
        double v;
        if (x == t || !cJSON_IsArray(x) || cJSON_GetArraySize(x) != n || ns >= max)
            continue;
        if (jnum(cJSON_GetArrayItem(x, 0), &v) == 0)
            ser[ns++] = x;
    }
    return ns;
}

/* what each known curve is: the bounds.json key parts that find it, its
 * title, and the label of each y axis (a series whose key has "pct" goes on
 * the second axis: degrees and percentages never share one) */
struct curve_spec {
    const char *need1, *need2, *name, *title, *y1label, *y2label;
};
static const struct curve_spec curve_specs[] = {
    { "qlb", NULL, "gap-qlb-slerp", "QLB − SLERP rotation-angle gap over t (thesis Lemma 3.2)",
      "rotation-angle gap (degrees)", NULL },
    { "dlb_sclerp", NULL, "gap-dlb-sclerp", "DLB − ScLERP gap over t (DQ paper Fig. 23, thesis App. A.1)",
      "rotation-angle gap (degrees)", "translation gap along the axis (% of α_ε)" },
    { "log", NULL, "logm-speed", "Log-matrix angular speed over t (thesis Fig. A.1)",
      "angular speed |ω(t)| (rad per unit t)", NULL },
};
#define NCURVES ((int)(sizeof curve_specs / sizeof curve_specs[0]))

/* the paper's values on a curve, by reports/reference.json bounds id: a
 * point at the paper's t (t_id, and its alt_paper), at a fixed t, or, where
 * the paper gives no t, a horizontal line at its maximum; `scale` converts
 * the entry's units to the series' (a fraction of α_ε to %) */
struct curve_paper {
    int spec;                  /* index into curve_specs */
    const char *y_id, *t_id;
    double t_fixed;            /* NAN: none */
    double scale;
    const char *unit;          /* of the scaled value, for the legend */
    int y2;
};
static const struct curve_paper curve_papers[] = {
    { 0, "qlb_slerp_angle", "qlb_slerp_argmax_t", NAN, 1, "°", 0 },
    { 1, "dlb_sclerp_angle", NULL, NAN, 1, "°", 0 },
    { 1, "dlb_sclerp_translation", NULL, NAN, 100, "% of α_ε", 1 },
    { 2, "logm_speed_t0", NULL, 0, 1, "rad/t", 0 },
    { 2, "logm_speed_t1", NULL, 1, 1, "rad/t", 0 },
};

/* the paper block of one curve_papers entry into f (gnuplot index blocks
 * are separated by two blank lines); its legend title into label; 0 if the
 * reference has it */
static int paper_block(const struct skb_report *rep, const struct curve_paper *cp, FILE *f, char *label, size_t len)
{
    const cJSON *ey = ref_bound(rep, cp->y_id), *et = cp->t_id ? ref_bound(rep, cp->t_id) : NULL;
    double y = NAN, t = cp->t_fixed, t2 = NAN;
    if (jnum(jget(ey, "paper"), &y) < 0)
        return -1;
    char wb[160];
    const char *where = short_where(cJSON_GetStringValue(jget(ey, "where")), wb, sizeof wb);
    if (et && jnum(jget(et, "paper"), &t) == 0)
        jnum(jget(et, "alt_paper"), &t2);
    if (isfinite(t)) {
        fprintf(f, "%.9g %.9g\n", t, y * cp->scale);
        if (isfinite(t2))
            fprintf(f, "%.9g %.9g\n", t2, y * cp->scale);
        snprintf(label, len, "paper: %.5g %s at t = %.4g%s (%s)", y * cp->scale, cp->unit, t,
                 isfinite(t2) ? " and its mirror" : "", where);
    } else {
        fprintf(f, "0 %.9g\n1 %.9g\n", y * cp->scale, y * cp->scale);
        snprintf(label, len, "paper maximum: %.5g %s (%s)", y * cp->scale, cp->unit, where);
    }
    fprintf(f, "\n\n");
    return 0;
}

/* the paper overlays of curve spec `spec`: NAME-paper.dat and the plot
 * clauses (", 'NAME-paper.dat' index k ...") appended to f; a line for a
 * maximum in the colour of the curve on its axis (first or second series
 * of ns) */
static void paper_overlays(const struct skb_report *rep, int spec, int ns, const char *dir, const char *name, FILE *f)
{
    struct memfile mf;
    FILE *d = mem_open(&mf);
    char label[8][300], pname[80], qt[640];
    int idx[8], n = 0;
    if (!d)
        return;
    for (int i = 0; i < (int)(sizeof curve_papers / sizeof curve_papers[0]) && n < 8; i++)
        if (curve_papers[i].spec == spec && paper_block(rep, &curve_papers[i], d, label[n], sizeof label[n]) == 0)
            idx[n++] = i;
    snprintf(pname, sizeof pname, "%s-paper", name);
    if (dat_close(&mf, dir, pname) < 0 || !n)
        return;
    for (int k = 0; k < n; k++) {
        const struct curve_paper *cp = &curve_papers[idx[k]];
        char lc[40];
        fprintf(f, ", '%s.dat' index %d using 1:2%s with ", pname, k, cp->y2 ? " axes x1y2" : "");
        if (isfinite(cp->t_fixed) || cp->t_id)
            fprintf(f, "points pt 6 ps 2.2 lw 2 lc rgb '#000000'");
        else
            fprintf(f, "lines dt %d lw 2 %s", cp->y2 ? 4 : 3, series_colour(lc, sizeof lc, cp->y2 && ns > 1, ns));
        fprintf(f, " title %s", gp_quote(qt, sizeof qt, label[k]));
    }
}

static int has_pct(const char *key)
{
    return strstr(key, "pct") != NULL;
}

/* axis labels; the second axis only when a series uses it */
static void curve_axes(FILE *f, const struct curve_spec *sp, int y2)
{
    char qt[300];
    fprintf(f, "set key below\nset xlabel 't (interpolation parameter)'\nset ylabel %s\n",
            gp_quote(qt, sizeof qt, sp && sp->y1label ? sp->y1label : "value"));
    if (y2)
        fprintf(f, "set y2label %s\nset y2tics\nset ytics nomirror\n",
                gp_quote(qt, sizeof qt, sp && sp->y2label ? sp->y2label : "percent"));
}

static void curve_plot(struct skb_report *rep, const char *dir, const char *name, const char *title, const cJSON *c,
                       int spec)
{
    const cJSON *ser[MAXSER];
    const struct curve_spec *sp = spec >= 0 ? &curve_specs[spec] : NULL;
    int ns = curve_series(c, ser, MAXSER), nr = curve_rows(c), y2 = 0;
    struct memfile mf;
    FILE *f = mem_open(&mf);
    struct body b;
    char st[96];
    if (!f) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    if (nr > 0) {
        /* rows [t, measured, reference...]: the first y is the measurement */
        const cJSON *row, *v;
        cJSON_ArrayForEach(row, jget(c, "curve")) {
            cJSON_ArrayForEach(v, row) {
                double x = NAN;
                jnum(v, &x);
                fnum(f, x);
            }
            fputc('\n', f);
        }
    } else {
        const cJSON *t = jget(c, "t");
        for (int i = 0; i < cJSON_GetArraySize(t); i++) {
            double v = NAN;
            jnum(cJSON_GetArrayItem(t, i), &v);
            fnum(f, v);
            for (int s = 0; s < ns; s++) {
                v = NAN;
                jnum(cJSON_GetArrayItem(ser[s], i), &v);
                fnum(f, v);
            }
            fputc('\n', f);
        }
        for (int s = 0; s < ns; s++)
            y2 |= has_pct(ser[s]->string);
    }
    if (dat_close(&mf, dir, name) < 0 || !body_open(&b)) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    curve_axes(b.f, sp, y2);
    fprintf(b.f, "plot ");
    if (nr > 0) {
        for (int k = 0; k < nr && k < 8; k++)
            fprintf(b.f, "%s'%s.dat' using 1:%d with %s %s title '%s'", k ? ", " : "", name, 2 + k,
                    k ? "linespoints pi 5 lw 2 dt 2" : "points ps 0.8", series_style(st, sizeof st, k, nr),
                    k == 0 ? "measured" : k == 1 ? "closed form / reference" : "reference");
    } else {
        for (int s = 0; s < ns; s++) {
            fprintf(b.f, "%s'%s.dat' using 1:%d%s with linespoints pi 10 lw 2 %s", s ? ", " : "", name, 2 + s,
                    has_pct(ser[s]->string) ? " axes x1y2" : "", series_style(st, sizeof st, s, ns));
            put_title(b.f, ser[s]->string, NULL);
        }
    }
    if (spec >= 0)
        paper_overlays(rep, spec, nr > 0 ? nr : ns, dir, name, b.f);
    fputc('\n', b.f);
    body_plot(&b, rep, dir, name, title);
}

static int curve_spec_of(const char *key)
{
    for (int i = 0; i < NCURVES; i++)
        if (strstr(key, curve_specs[i].need1) && (!curve_specs[i].need2 || strstr(key, curve_specs[i].need2)))
            return i;
    return -1;
}

void skb__plot_bounds(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = skb_results_doc(r, "bounds.json"), *x;
    int found[NCURVES] = { 0 };
    cJSON_ArrayForEach(x, doc) {
        const cJSON *ser[MAXSER];
        if (!cJSON_IsObject(x) || (curve_series(x, ser, MAXSER) < 1 && curve_rows(x) < 1))
            continue;
        char name[64], title[160];
        int spec = curve_spec_of(x->string);
        double a0;
        if (spec >= 0)
            found[spec] = 1;
        snprintf(name, sizeof name, "bounds-%s%s", x->string, sfx);
        sanitize(name);
        if (jnum(jget(x, "alpha0_deg"), &a0) == 0)
            snprintf(title, sizeof title, "%s, α0 = %.4g°", spec >= 0 ? curve_specs[spec].title : x->string, a0);
        else
            snprintf(title, sizeof title, "%s", spec >= 0 ? curve_specs[spec].title : x->string);
        curve_plot(rep, dir, name, title, x, spec);
    }
    for (int i = 0; i < NCURVES; i++)
        if (!found[i]) {
            char name[64], why[240];
            snprintf(name, sizeof name, "%s%s", curve_specs[i].name, sfx);
            if (!doc)
                snprintf(why, sizeof why, "bounds.json %s", skb_results_err(r, "bounds.json")[0] ? "unreadable" : "not found (bounds not run)");
            else
                snprintf(why, sizeof why, "bounds.json has no curve ({\"t\": [...], ...} or {\"curve\": [[t, y], ...]}) under a key containing \"%s\"%s%s; only the maxima are reported",
                         curve_specs[i].need1, curve_specs[i].need2 ? " and " : "", curve_specs[i].need2 ? curve_specs[i].need2 : "");
            not_run(rep, name, curve_specs[i].title, why);
        }
}

/* ---- DIB iterations ---- */

/* one histogram as "iterations count" rows: {"1": n, "2": n}, [n0, n1, ...]
 * (index = iterations) or {"iterations": [...], "count": [...]}; rows written */
static int hist_rows(const cJSON *h, FILE *f)
{
    int rows = 0;
    const cJSON *it = jget(h, "iterations"), *ct = jget(h, "count") ? jget(h, "count") : jget(h, "counts"), *x;
    if (cJSON_IsArray(it) && cJSON_IsArray(ct)) {
        for (int i = 0; i < cJSON_GetArraySize(it); i++, rows++) {
            double a = NAN, b = NAN;
            jnum(cJSON_GetArrayItem(it, i), &a);
            jnum(cJSON_GetArrayItem(ct, i), &b);
            fnum(f, a);
            fnum(f, b);
            fputc('\n', f);
        }
    } else if (cJSON_IsArray(h)) {
        int i = 0;
        cJSON_ArrayForEach(x, h) {
            double b = NAN;
            jnum(x, &b);
            fprintf(f, "%d", i++);
            fnum(f, b);
            fputc('\n', f);
            rows++;
        }
    } else {
        cJSON_ArrayForEach(x, h) {
            double b = NAN;
            char *end;
            double a = strtod(x->string, &end);
            if (*end || jnum(x, &b) < 0)
                continue;
            fnum(f, a);
            fnum(f, b);
            fputc('\n', f);
            rows++;
        }
    }
    return rows;
}

/* the paper's "typically 1 to 4 iterations" (dib_typical_iterations
 * paper_lo .. paper) as a shaded band; its legend entry (a clause starting
 * with ", ") into key, "" when the reference lacks it */
static void dib_paper_band(const struct skb_report *rep, FILE *f, char *key, size_t keylen)
{
    const cJSON *e = ref_bound(rep, "dib_typical_iterations");
    double lo = NAN, hi = NAN;
    char label[300], qt[640];
    key[0] = 0;
    if (jnum(jget(e, "paper_lo"), &lo) < 0 || jnum(jget(e, "paper"), &hi) < 0)
        return;
    char wb[160];
    const char *where = short_where(cJSON_GetStringValue(jget(e, "where")), wb, sizeof wb);
    snprintf(label, sizeof label, "paper: typically %g to %g iterations (%s)", lo, hi, where);
    fprintf(f, "set object 1 rect from %g, graph 0 to %g, graph 1 behind fc rgb '#e4e4e4' fs solid noborder\n", lo - 0.5,
            hi + 0.5);
    snprintf(key, keylen, ", NaN with boxes fs solid fc rgb '#e4e4e4' title %s", gp_quote(qt, sizeof qt, label));
}

/* DIB iterations: every key containing "hist" at the top of bounds.json
 * (else flops.json) as bars side by side, the paper's typical range shaded */
void skb__plot_dib(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *h[8], *x;
    const char *where = NULL;
    int nh = 0;
    static const char *const files[2] = { "bounds.json", "flops.json" };
    for (int i = 0; i < 2 && !nh; i++)
        cJSON_ArrayForEach(x, skb_results_doc(r, files[i]))
            if (nh < 8 && x->string && strstr(x->string, "hist") && (cJSON_IsObject(x) || cJSON_IsArray(x))) {
                h[nh++] = x;
                where = files[i];
            }
    char name[64], title[200], st[96];
    snprintf(name, sizeof name, "dib-iterations%s", sfx);
    const char *title0 = "DIB iterations per blend (thesis Alg. 4.1)";
    if (!nh) {
        not_run(rep, name, title0, "no key containing \"hist\" in bounds.json or flops.json");
        return;
    }
    struct memfile mf;
    int rows = 0;
    FILE *f = mem_open(&mf);
    if (!f)
        return;
    for (int k = 0; k < nh; k++) {
        rows += hist_rows(h[k], f);
        fprintf(f, "\n\n");
    }
    struct body b;
    if (dat_close(&mf, dir, name) < 0 || !body_open(&b)) {
        not_run(rep, name, title0, "cannot write the data file");
        return;
    }
    snprintf(title, sizeof title, "%s [%s]", title0, where);
    if (!rows) {
        fclose(b.f);
        free(b.buf);
        not_run(rep, name, title, "histogram is empty or of an unknown shape");
        return;
    }
    double w = 0.8 / nh;
    char band[700];
    dib_paper_band(rep, b.f, band, sizeof band);
    fprintf(b.f, "set key below\nset style fill solid 0.8 border -1\nset boxwidth %g\n"
                 "set xlabel 'iterations to reach the precision'\nset ylabel 'blends (count)'\nset yrange [0:*]\n"
                 "set xrange [-0.6:*]\nset xtics 1\nplot ", w);
    for (int k = 0; k < nh; k++) {
        fprintf(b.f, "%s'%s.dat' index %d using ($1%+.4f):2 with boxes %s", k ? ", " : "", name, k,
                -0.4 + w * (k + 0.5), series_colour(st, sizeof st, k, nh));
        put_title(b.f, h[k]->string, NULL);
    }
    fprintf(b.f, "%s\n", band);
    body_plot(&b, rep, dir, name, title);
}

/* ---- sphere radii as a ratio to the reference posture ---- */

/* methods with {avg} in the levels of one dataset, the reference excluded */
static int sphere_series(const cJSON *d, const char **ser, int max)
{
    const cJSON *l, *m;
    int ns = 0;
    cJSON_ArrayForEach(l, jget(d, "levels")) cJSON_ArrayForEach(m, l) {
        int seen = strcmp(m->string, "reference") == 0;
        if (!cJSON_IsObject(m) || !jget(m, "avg"))
            continue;
        for (int i = 0; i < ns; i++)
            seen |= strcmp(ser[i], m->string) == 0;
        if (!seen && ns < max)
            ser[ns++] = m->string;
    }
    return ns;
}

/* the data file: level, then avg / reference avg per series */
static int sphere_dat(const cJSON *d, const char **ser, int ns, const char *dir, const char *name)
{
    struct memfile mf;
    const cJSON *l;
    FILE *f = mem_open(&mf);
    if (!f)
        return -1;
    cJSON_ArrayForEach(l, jget(d, "levels")) {
        double lv = NAN, ref = NAN;
        jnum(jget(l, "level"), &lv);
        jnum(jget(jget(l, "reference"), "avg"), &ref);
        fnum(f, lv);
        for (int i = 0; i < ns; i++) {
            double v = NAN;
            jnum(jget(jget(l, ser[i]), "avg"), &v);
            fnum(f, v > 0 && ref > 0 ? v / ref : NAN);
        }
        fputc('\n', f);
    }
    return dat_close(&mf, dir, name);
}

/* thesis Tables 5.2 and 6.1 as ratios avg / reference per level: one index
 * block per (table, method) in NAME-paper.dat, the plot clauses into f,
 * each in its method's colour with an open marker */
static void sphere_paper(const struct skb_report *rep, const char **ser, int ns, const char *dir, const char *name,
                         FILE *f)
{
    static const struct { const char *key, *label; int pt; } tabs[] = {
        { "table_5_2", "Table 5.2", 6 }, { "table_6_1", "Table 6.1", 8 },
    };
    const cJSON *sec = jget(rep->ref, "spheres");
    struct memfile mf;
    FILE *d = mem_open(&mf);
    char pname[80], label[8][200], st[8][96];
    int n = 0;
    if (!d)
        return;
    for (int k = 0; k < 2; k++) {
        const cJSON *tab = jget(sec, tabs[k].key), *lv = jget(tab, "levels"), *ref = jget(tab, "reference");
        for (int i = 0; i < ns && n < 8; i++) {
            const cJSON *pv = jget(tab, ser[i]);
            if (!cJSON_IsArray(pv) || !cJSON_IsArray(lv) || !cJSON_IsArray(ref))
                continue;
            for (int j = 0; j < cJSON_GetArraySize(lv); j++) {
                double l = NAN, a = NAN, rr = NAN;
                jnum(cJSON_GetArrayItem(lv, j), &l);
                jnum(cJSON_GetArrayItem(pv, j), &a);
                jnum(cJSON_GetArrayItem(ref, j), &rr);
                fnum(d, l);
                fnum(d, a > 0 && rr > 0 ? a / rr : NAN);
                fputc('\n', d);
            }
            fprintf(d, "\n\n");
            char hn[120];
            snprintf(label[n], sizeof label[n], "paper %s: %s", tabs[k].label, skb__plot_series_name(ser[i], NULL, hn, sizeof hn));
            /* the method's colour, the table's open marker */
            series_style(st[n], sizeof st[n], i, ns);
            *strstr(st[n], " pt ") = 0;
            snprintf(st[n] + strlen(st[n]), sizeof st[n] - strlen(st[n]), " pt %d", tabs[k].pt);
            n++;
        }
    }
    snprintf(pname, sizeof pname, "%s-paper", name);
    if (dat_close(&mf, dir, pname) < 0)
        return;
    for (int k = 0; k < n; k++) {
        char qt[420];
        fprintf(f, ", '%s.dat' index %d using 1:2 with linespoints dt 3 lw 1 ps 1.6 %s title %s", pname, k, st[k],
                gp_quote(qt, sizeof qt, label[k]));
    }
}

static void sphere_plot(struct skb_report *rep, const char *dir, const char *sfx, const cJSON *d)
{
    const char *ser[MAXSER];
    char name[64], title[160], st[96];
    int ns = sphere_series(d, ser, MAXSER);
    double ref1 = NAN;
    snprintf(name, sizeof name, "sphere-radii-%s%s", d->string, sfx);
    sanitize(name);
    snprintf(title, sizeof title, "Average sphere radius / reference-posture radius per tree level: %.60s", d->string);
    jnum(jget(jget(cJSON_GetArrayItem(jget(d, "levels"), 0), "reference"), "avg"), &ref1);
    struct body b;
    if (!ns) {
        not_run(rep, name, title, "no levels with radii");
        return;
    }
    if (sphere_dat(d, ser, ns, dir, name) < 0 || !body_open(&b)) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    fprintf(b.f, "set key below\nset xlabel 'tree level (1 = root)'\nset ylabel 'average radius / reference radius (dimensionless)'\n"
                 "set xtics 1\nset arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444'\n");
    if (isfinite(ref1))
        fprintf(b.f, "set label 1 'reference root radius %.4g model units' at graph 0.98, graph 0.94 right\n", ref1);
    fprintf(b.f, "plot ");
    for (int i = 0; i < ns; i++) {
        fprintf(b.f, "%s'%s.dat' using 1:%d with linespoints lw 2 ps 1.2 %s", i ? ", " : "", name, 2 + i,
                series_style(st, sizeof st, i, ns));
        put_title(b.f, ser[i], NULL);
    }
    sphere_paper(rep, ser, ns, dir, name, b.f);
    fputc('\n', b.f);
    body_plot(&b, rep, dir, name, title);
}

void skb__plot_spheres(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = skb_results_doc(r, "spheres.json"), *d;
    if (!doc) {
        char name[64];
        snprintf(name, sizeof name, "sphere-radii%s", sfx);
        not_run(rep, name, "Average sphere radius per tree level",
                skb_results_err(r, "spheres.json")[0] ? "spheres.json unreadable" : "spheres.json not found (spheres not run)");
        return;
    }
    cJSON_ArrayForEach(d, jget(doc, "datasets"))
        sphere_plot(rep, dir, sfx, d);
}

/* ---- collision detection scaling ---- */

/* thesis Table 5.3's speed-ups (colliding and collision-free) at its
 * triangle counts: NAME-paper.dat blocks 0 and 1; the clauses into f, in
 * the colours of the measured speed-up curves (series 2 and 3 of 4) */
static void cd_paper(const struct skb_report *rep, const char *dir, const char *name, FILE *f)
{
    const cJSON *t = jget(rep->ref, "table_5_3");
    static const char *const keys[] = { "speedup", "speedup_collision_free" };
    static const char *const labels[] = { "paper Table 5.3 speed-up (dwarf)", "paper Table 5.3 speed-up, collision-free" };
    struct memfile mf;
    FILE *d = mem_open(&mf);
    char pname[80], lc[40];
    int have[2] = { 0, 0 };
    if (!d)
        return;
    for (int k = 0; k < 2; k++) {
        const cJSON *tri = jget(t, "triangles"), *sp = jget(t, keys[k]);
        for (int j = 0; j < cJSON_GetArraySize(tri) && j < cJSON_GetArraySize(sp); j++) {
            double a = NAN, b = NAN;
            jnum(cJSON_GetArrayItem(tri, j), &a);
            jnum(cJSON_GetArrayItem(sp, j), &b);
            fnum(d, a);
            fnum(d, b);
            fputc('\n', d);
            have[k] = 1;
        }
        fprintf(d, "\n\n");
    }
    snprintf(pname, sizeof pname, "%s-paper", name);
    if (dat_close(&mf, dir, pname) < 0)
        return;
    for (int k = 0; k < 2; k++)
        if (have[k])
            fprintf(f, ", '%s.dat' index %d using 1:2 axes x1y2 with points pt %d ps 1.8 lw 2 %s title '%s'",
                    pname, k, k ? 8 : 6, series_colour(lc, sizeof lc, 2 + k, 4), labels[k]);
}

void skb__plot_cd(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = skb_results_doc(r, "cd.json"), *x;
    char name[64];
    const char *title = "CD time and speed-up against model size (thesis Table 5.3)";
    snprintf(name, sizeof name, "cd-scaling%s", sfx);
    if (!doc) {
        not_run(rep, name, title, skb_results_err(r, "cd.json")[0] ? "cd.json unreadable" : "cd.json not found (cd not run)");
        return;
    }
    struct memfile mf;
    FILE *f = mem_open(&mf);
    if (!f)
        return;
    int rows = 0, nfree = 0;
    cJSON_ArrayForEach(x, jget(doc, "scaling")) {
        double tri = NAN, od = NAN, bu = NAN, sp = NAN, lv = NAN, spf = NAN;
        const char *pose = cJSON_GetStringValue(jget(x, "pose"));
        if (cJSON_IsFalse(jget(x, "colliding")) || (pose && strstr(pose, "free")))
            continue;
        jnum(jget(x, "level"), &lv);
        if (jnum(jget(x, "triangles"), &tri) < 0)
            tri = lv;
        jnum(jget(x, "on_demand_ms"), &od);
        jnum(jget(x, "bottom_up_ms"), &bu);
        if (jnum(jget(x, "speedup"), &sp) < 0 && od > 0)
            sp = bu / od;
        fnum(f, tri > 0 ? tri : NAN);
        fnum(f, od > 0 ? od : NAN);
        fnum(f, bu > 0 ? bu : NAN);
        fnum(f, sp > 0 ? sp : NAN);
        /* cd.json may carry the collision-free pose of the same level */
        jnum(jget(jget(x, "collision_free"), "speedup"), &spf);
        fnum(f, spf > 0 ? spf : NAN);
        nfree += spf > 0;
        fputc('\n', f);
        rows++;
    }
    struct body b;
    if (dat_close(&mf, dir, name) < 0 || !body_open(&b)) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    if (!rows) {
        fclose(b.f);
        free(b.buf);
        not_run(rep, name, title, "cd.json \"scaling\" is empty");
        return;
    }
    char s0[96], s1[96], s2[96], s3[96];
    fprintf(b.f, "set key below\nset logscale xy\nset logscale y2\nset xlabel 'triangles (log scale)'\nset ylabel 'time per CD query (ms, log scale)'\n"
                 "set y2label 'speed-up = bottom-up time / on-demand time (log scale)'\nset y2tics\nset ytics nomirror\n"
                 "plot '%s.dat' using 1:2 with linespoints lw 2 %s title 'on-demand (ms)', "
                 "'%s.dat' using 1:3 with linespoints lw 2 %s title 'bottom-up (ms)', "
                 "'%s.dat' using 1:4 axes x1y2 with linespoints lw 2 dt 2 %s title 'speed-up'",
            name, series_style(s0, sizeof s0, 0, 4), name, series_style(s1, sizeof s1, 1, 4), name,
            series_style(s2, sizeof s2, 2, 4));
    if (nfree)
        fprintf(b.f, ", '%s.dat' using 1:5 axes x1y2 with linespoints lw 2 dt 3 %s title 'speed-up, collision-free pose'",
                name, series_style(s3, sizeof s3, 3, 4));
    cd_paper(rep, dir, name, b.f);
    fputc('\n', b.f);
    body_plot(&b, rep, dir, name, title);
}

/* ---- GPU image captions ---- */

/* "DLB — candy wrapper (arm, pose 0)" for images/FILE from gpu.json
 * "images" (method and scene, not the file name); the file name when
 * gpu.json does not list it */
void skb__image_caption(const cJSON *gpu, const char *file, char *buf, size_t len)
{
    const cJSON *im;
    cJSON_ArrayForEach(im, jget(gpu, "images")) {
        const char *fn = cJSON_GetStringValue(jget(im, "file")), *base = fn ? strrchr(fn, '/') : NULL;
        base = base ? base + 1 : fn;
        if (!base || strcmp(base, file) != 0)
            continue;
        const char *sh = cJSON_GetStringValue(jget(im, "shader")), *sc = cJSON_GetStringValue(jget(im, "scene"));
        const char *ds = cJSON_GetStringValue(jget(im, "dataset"));
        /* the joint angles of the arm scenes harness/exp_gpu.c (all_pictures)
         * poses, so a twisted and a straight arm never share a caption */
        static const char *const angles[][2] = { { "candy_wrapper", "arm, elbow twisted 180°" },
                                                 { "bent_elbow", "arm, elbow bent 120°" },
                                                 { "scaled_bent_elbow", "arm, forearm 1.5× across, elbow bent 120°" } };
        const char *ang = cJSON_GetStringValue(jget(im, "caption"));
        for (size_t a = 0; sc && a < sizeof angles / sizeof angles[0]; a++)
            ang = strcmp(sc, angles[a][0]) == 0 ? angles[a][1] : ang;
        char hn[120], scene[120];
        double pose = NAN;
        jnum(jget(im, "pose"), &pose);
        snprintf(scene, sizeof scene, "%s", sc ? sc : "?");
        for (char *c = scene; *c; c++)
            *c = *c == '_' ? ' ' : *c;
        int n = snprintf(buf, len, "%s — %s", sh ? skb__plot_series_name(sh, jget(gpu, "shaders"), hn, sizeof hn) : "?", scene);
        if (n < 0 || (size_t)n >= len)
            return;
        if (ang) {
            snprintf(buf + n, len - (size_t)n, " (%s)", ang);
            return;
        }
        /* a scene named after its model leaves the dataset empty */
        if (ds && *ds)
            n += snprintf(buf + n, len - (size_t)n, " (%s", ds);
        if ((size_t)n < len && isfinite(pose))
            n += snprintf(buf + n, len - (size_t)n, "%spose %.0f", ds && *ds ? ", " : " (", pose);
        if ((size_t)n < len && ((ds && *ds) || isfinite(pose)))
            snprintf(buf + n, len - (size_t)n, ")");
        return;
    }
    snprintf(buf, len, "%s", file);
}

/* the arm's volume or elbow cross-section over twist, one series per method
 * (gpu.json "arm_volume", harness/arm_volume.c); key: "volume_ratio" or
 * "section_area_ratio" */
static void volume_plot(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r,
                        const char *key, const char *what)
{
    const cJSON *av = jget(skb_results_doc(r, "gpu.json"), "arm_volume"), *tw = jget(av, "twist_deg"), *m;
    char name[64], title[200], st[96], qt[420], lab[200];
    int ns = 0, col = 2;
    snprintf(name, sizeof name, "arm-%s%s", key[0] == 'v' ? "volume" : "section", sfx);
    snprintf(title, sizeof title, "Arm %s over elbow twist, ratio to the rest pose", what);
    if (!cJSON_IsArray(tw)) {
        not_run(rep, name, title, skb_results_doc(r, "gpu.json") ? "gpu.json has no \"arm_volume\"" : "gpu.json not found (gpu not run)");
        return;
    }
    struct memfile mf;
    FILE *f = mem_open(&mf);
    if (!f)
        return;
    for (int i = 0; i < cJSON_GetArraySize(tw); i++) {
        double x = NAN;
        jnum(cJSON_GetArrayItem(tw, i), &x);
        fnum(f, x);
        cJSON_ArrayForEach(m, jget(av, "methods")) {
            const cJSON *ser = jget(m, key);
            double y = NAN;
            if (cJSON_IsArray(ser))
                jnum(cJSON_GetArrayItem(ser, i), &y);
            fnum(f, y);
        }
        fputc('\n', f);
    }
    struct body b;
    if (dat_close(&mf, dir, name) < 0 || !body_open(&b)) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    cJSON_ArrayForEach(m, jget(av, "methods"))
        ns += cJSON_IsArray(jget(m, key));
    if (!ns) {
        fclose(b.f);
        free(b.buf);
        not_run(rep, name, title, "gpu.json \"arm_volume\" has no method with this series");
        return;
    }
    snprintf(lab, sizeof lab, "%s / %s at rest (dimensionless)", what, what);
    fprintf(b.f, "set xlabel 'elbow twist (degrees)'\nset ylabel %s\nset xrange [0:180]\nset xtics 30\nset offsets 0, 0, graph 0.06, 0\n"
                 "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444'\nplot ",
            gp_quote(qt, sizeof qt, lab));
    int k = 0;
    cJSON_ArrayForEach(m, jget(av, "methods")) {
        if (cJSON_IsArray(jget(m, key))) {
            fprintf(b.f, "%s'%s.dat' using 1:%d with linespoints lw 2 %s", k ? ", " : "", name, col,
                    series_style(st, sizeof st, k, ns));
            /* the method's one legend name, as in every other plot */
            put_title(b.f, m->string, NULL);
            k++;
        }
        col++;
    }
    fputc('\n', b.f);
    body_plot(&b, rep, dir, name, title);
}

void skb__plot_arm_volume(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    volume_plot(rep, dir, sfx, r, "volume_ratio", "volume");
}

void skb__plot_arm_section(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    volume_plot(rep, dir, sfx, r, "section_area_ratio", "cross-section area");
}

void skb_plots_write(struct skb_report *rep, const char *out_dir)
{
    char dir[1200], msg[300];
    snprintf(dir, sizeof dir, "%s/plots", out_dir);
    int have_gp = gnuplot_found();
    if (skb_mkdirs_below(out_dir, "plots", msg, sizeof msg) < 0)
        have_gp = 0;
    for (int k = 0; k < rep->nruns; k++) {
        const struct skb_results *r = &rep->runs[k];
        char sfx[16] = "";
        if (rep->nruns > 1)
            snprintf(sfx, sizeof sfx, "-m%d", k + 1);
        if (!have_gp) {
            char name[64];
            snprintf(name, sizeof name, "all-plots%s", sfx);
            not_run(rep, name, "every plot", "gnuplot not found in PATH (apt-get install gnuplot-nox)");
            continue;
        }
        /* every registered experiment's plots, in list order */
        for (int e = 0; skb_experiment_list[e]; e++)
            for (int p = 0; skb_experiment_list[e]->plots && skb_experiment_list[e]->plots[p].stem; p++) {
                int first = rep->nplots;
                skb_experiment_list[e]->plots[p].write(rep, dir, sfx, r);
                skb__plot_method_notes(rep, first, skb_experiment_list[e]->plots[p].need, dir, r);
            }
    }
}

/* the same gnuplot driver for plots_history.c (nightly trends) */
void skb__plot_gnuplot(struct skb_report *rep, const char *dir, const char *name, const char *title, const char *body)
{
    plot(rep, dir, name, title, body);
}

int skb__plot_have_gnuplot(void)
{
    return gnuplot_found();
}
