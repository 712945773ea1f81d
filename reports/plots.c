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
#include "plots_internal.h"

/* plot file stems: letters, digits and '-' only (they end up in gnuplot
 * scripts and HTML ids) */
void skb__pl_sanitize(char *s)
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
const char *skb__pl_gp_quote(char *dst, size_t n, const char *s)
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

struct skb_plot_entry *skb__pl_entry(struct skb_report *rep, const char *name, const char *title)
{
    struct skb_plot_entry *p = skb_report_plot_new(rep);
    if (!p)
        return NULL;
    snprintf(p->name, sizeof p->name, "%s", name);
    skb__pl_sanitize(p->name);
    snprintf(p->title, sizeof p->title, "%s", title);
    return p;
}

void skb__pl_not_run(struct skb_report *rep, const char *name, const char *title, const char *why)
{
    struct skb_plot_entry *p = skb__pl_entry(rep, name, title);
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

FILE *skb__pl_mem_open(struct memfile *m)
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
void skb__pl_plot(struct skb_report *rep, const char *dir, const char *name, const char *title, const char *body)
{
    struct skb_plot_entry *p = skb__pl_entry(rep, name, title);
    if (!p)
        return;
    char path[1400], qt[420], msg[300];
    snprintf(path, sizeof path, "%s/%s.gp", dir, p->name);
    struct memfile mf;
    FILE *f = skb__pl_mem_open(&mf);
    if (!f) {
        snprintf(p->why, sizeof p->why, "out of memory");
        return;
    }
    /* p->name is sanitised (letters, digits, '-'); title is quoted */
    fprintf(f, "# generated by skinbench report from results JSON\nset datafile missing '?'\n"
               "set title %s\nset key outside right top\nset grid ytics\n", skb__pl_gp_quote(qt, sizeof qt, title));
    fprintf(f, "%s\nset output '%s.png'\n%s\nunset output\n", TERM_PNG, p->name, body);
    fprintf(f, "%s\nset output '%s.svg'\n%s\nunset output\n", TERM_SVG, p->name, body);
    if (mem_save(&mf, path, msg, sizeof msg) < 0 || outputs_check(dir, p->name, msg, sizeof msg) < 0) {
        snprintf(p->why, sizeof p->why, "%.200s", msg);
        return;
    }
    p->ok = run_gnuplot(dir, p->name, p->why, sizeof p->why) == 0;
}

/* 0 when DIR/NAME.dat was written */
int skb__pl_dat_close(struct memfile *m, const char *dir, const char *name)
{
    char path[1400], msg[300];
    snprintf(path, sizeof path, "%s/%s.dat", dir, name);
    return mem_save(m, path, msg, sizeof msg);
}

void skb__pl_fnum(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, " %.9g", x);
    else
        fprintf(f, " ?");
}

/* ---- series styles and names ---- */

/* gnuplot point types (cairo and svg terminals): filled shapes, then open
 * ones, then crosses */
const int skb__pl_marker[NMARKER] = { 7, 5, 9, 11, 13, 15, 6, 4, 8, 10, 12, 14, 1, 2, 3 };

/* series i of n: hues spread evenly over the n series, so no two series
 * share a colour however many there are (a fixed palette repeats after its
 * length); every other one darker, so neighbouring hues differ in lightness
 * too; the marker cycles through NMARKER shapes */
const char *skb__pl_series_colour(char *buf, size_t len, int i, int n)
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
const char *skb__pl_series_style(char *buf, size_t len, int i, int n)
{
    char c[40];
    snprintf(buf, len, "%s pt %d", skb__pl_series_colour(c, sizeof c, i, n), skb__pl_marker[i % NMARKER]);
    return buf;
}

/* " title 'NAME'" for a results key: its human name, quoted; shaders: gpu.json
 * "shaders" where the key may be a shader name, else NULL */
void skb__pl_put_title(FILE *f, const char *key, const cJSON *shaders)
{
    char hn[200], qt[420];
    fprintf(f, " title %s", skb__pl_gp_quote(qt, sizeof qt, skb__plot_series_name(key, shaders, hn, sizeof hn)));
}

/* a gnuplot script body built in memory (any length) */

FILE *skb__pl_body_open(struct body *b)
{
    b->buf = NULL;
    b->len = 0;
    b->f = open_memstream(&b->buf, &b->len);
    return b->f;
}

/* close the body and draw it; frees it */
void skb__pl_body_plot(struct body *b, struct skb_report *rep, const char *dir, const char *name, const char *title)
{
    if (fclose(b->f) != 0 || !b->buf)
        skb__pl_not_run(rep, name, title, "out of memory");
    else
        skb__pl_plot(rep, dir, name, title, b->buf);
    free(b->buf);
}

/* one series per method over a shared x: each method's `ykey` array of
 * `methods` against xs, written to NAME.dat and plotted after `setup`
 * (gnuplot lines, each ending in a newline).  -1 when no method has the
 * series (nothing plotted: the caller says why), else 0 */
int skb__pl_method_curves(struct skb_report *rep, const char *dir, const char *name, const char *title,
                          const cJSON *xs, const cJSON *methods, const char *ykey, const char *setup)
{
    const cJSON *m;
    char st[96];
    int ns = 0, col = 2, k = 0;
    struct memfile mf;
    FILE *f = skb__pl_mem_open(&mf);
    if (!f)
        return 0;
    for (int i = 0; i < cJSON_GetArraySize(xs); i++) {
        double x = NAN;
        skb__jnum(cJSON_GetArrayItem(xs, i), &x);
        skb__pl_fnum(f, x);
        cJSON_ArrayForEach(m, methods) {
            const cJSON *ser = skb__jget(m, ykey);
            double y = NAN;
            if (cJSON_IsArray(ser))
                skb__jnum(cJSON_GetArrayItem(ser, i), &y);
            skb__pl_fnum(f, y);
        }
        fputc('\n', f);
    }
    struct body b;
    if (skb__pl_dat_close(&mf, dir, name) < 0 || !skb__pl_body_open(&b)) {
        skb__pl_not_run(rep, name, title, "cannot write the data file");
        return 0;
    }
    cJSON_ArrayForEach(m, methods)
        ns += cJSON_IsArray(skb__jget(m, ykey));
    if (!ns) {
        fclose(b.f);
        free(b.buf);
        return -1;
    }
    fprintf(b.f, "%splot ", setup);
    cJSON_ArrayForEach(m, methods) {
        if (cJSON_IsArray(skb__jget(m, ykey))) {
            fprintf(b.f, "%s'%s.dat' using 1:%d with linespoints lw 2 %s", k ? ", " : "", name, col,
                    skb__pl_series_style(st, sizeof st, k, ns));
            /* the method's one legend name, as in every other plot */
            skb__pl_put_title(b.f, m->string, NULL);
            k++;
        }
        col++;
    }
    fputc('\n', b.f);
    skb__pl_body_plot(&b, rep, dir, name, title);
    return 0;
}

/* ---- reference values (reports/reference.json only) ---- */

/* the bounds entry with this id */
const cJSON *skb__pl_ref_bound(const struct skb_report *rep, const char *id)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, skb__jget(skb__jget(rep->ref, "bounds"), "entries")) {
        const char *s = cJSON_GetStringValue(skb__jget(e, "id"));
        if (s && strcmp(s, id) == 0)
            return e;
    }
    return NULL;
}

/* a reference "where" for a legend: the part before its first " (" or ";"
 * (the source, without the explanations that do not fit a key line) */
const char *skb__pl_short_where(const char *w, char *buf, size_t n)
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
            skb__pl_not_run(rep, name, "every plot", "gnuplot not found in PATH (apt-get install gnuplot-nox)");
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
    skb__pl_plot(rep, dir, name, title, body);
}

int skb__plot_have_gnuplot(void)
{
    return gnuplot_found();
}
