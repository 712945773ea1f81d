/* plots.c — gnuplot plots (PNG + SVG) from results JSON into DIR/plots:
 * CPU and GPU time bars with error bars, the bound curves bounds.json
 * carries (DQ paper Fig. 23, thesis Fig. A.1), the DIB iteration histogram,
 * sphere radius per tree level and CD scaling.  A plot whose input is
 * missing is recorded as "not run" with the reason; nothing here fails the
 * report. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_report.h"
#include "report_internal.h"

#define TERM_PNG "set terminal pngcairo size 900,520 noenhanced font 'DejaVu Sans,10'"
#define TERM_SVG "set terminal svg size 900,520 noenhanced font 'DejaVu Sans,10'"
#define MAXSER 32

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
    if (rep->nplots >= SKB_RMAXPLOTS)
        return NULL;
    struct skb_plot_entry *p = &rep->plots[rep->nplots++];
    memset(p, 0, sizeof *p);
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

static FILE *dat_open(struct memfile *m, const char *dir, const char *name)
{
    (void)dir;
    (void)name;
    return mem_open(m);
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

static void quoted(FILE *f, const char *s)
{
    fputc('"', f);
    /* one data row per line: a newline in a name would split the row */
    for (; *s; s++)
        fputc(*s == '"' ? '\'' : (unsigned char)*s < 0x20 ? ' ' : *s, f);
    fputc('"', f);
}

/* standard deviation in ms of the gbench repetitions whose name has both
 * the dataset and the method as '/'-separated components */
static double gbench_sd_ms(const struct skb_gbench *g, const char *dataset, const char *method)
{
    double scale = 1e-6;   /* skb_gbench_collect gives ns */
    /* cpu.json "ms" are the double-precision kernels: prefer those rows */
    for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < g->n; i++) {
        if (pass == 0 && strncmp(g->name[i], "double/", 7) != 0)
            continue;
        char buf[512];
        int hd = 0, hm = 0;
        snprintf(buf, sizeof buf, "%s", g->name[i]);
        for (char *save = NULL, *tok = strtok_r(buf, "/:", &save); tok; tok = strtok_r(NULL, "/:", &save)) {
            hd |= strcmp(tok, dataset) == 0;
            hm |= strcmp(tok, method) == 0;
        }
        if (!hd || !hm || g->nrep[i] < 2)
            continue;
        double m = 0, s = 0;
        for (int r = 0; r < g->nrep[i]; r++)
            m += g->rep[i][r];
        m /= g->nrep[i];
        for (int r = 0; r < g->nrep[i]; r++)
            s += (g->rep[i][r] - m) * (g->rep[i][r] - m);
        return sqrt(s / (g->nrep[i] - 1)) * scale;
    }
    return NAN;
}

/* cpu.json datasets[D] keeps times under "ms"; gpu.json ms[D] is the map */
static const cJSON *row_of(const cJSON *d)
{
    const cJSON *m = jget(d, "ms");
    return cJSON_IsObject(d) ? (m ? m : d) : NULL;
}

/* clustered bars of ms[DATASET][METHOD] with error bars */
static void time_bars(struct skb_report *rep, const char *dir, const char *name, const char *title,
                      const cJSON *ms, const cJSON *sd_map, const struct skb_gbench *g)
{
    const char *ser[MAXSER];
    int ns = 0, nd = 0;
    const cJSON *d, *m;
    cJSON_ArrayForEach(d, ms) {
        nd++;
        cJSON_ArrayForEach(m, row_of(d)) {
            int seen = 0;
            for (int i = 0; i < ns; i++)
                seen |= strcmp(ser[i], m->string) == 0;
            if (!seen && ns < MAXSER)
                ser[ns++] = m->string;
        }
    }
    if (!nd || !ns) {
        not_run(rep, name, title, "no timings in the results");
        return;
    }
    struct memfile mf;
    FILE *f = dat_open(&mf, dir, name);
    if (!f) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    int nerr = 0;
    fprintf(f, "# dataset then (ms, error ms) per series:");
    for (int i = 0; i < ns; i++)
        fprintf(f, " %s", ser[i]);
    fputc('\n', f);
    cJSON_ArrayForEach(d, ms) {
        const cJSON *row = row_of(d);
        quoted(f, d->string);
        for (int i = 0; i < ns; i++) {
            double v = NAN, e = NAN;
            jnum(jget(row, ser[i]), &v);
            const cJSON *sdd = jget(sd_map, d->string);
            if (jnum(jget(sdd, ser[i]), &e) < 0)
                jnum(jget(jget(d, "ms_stddev"), ser[i]), &e);
            if (!isfinite(e) && g)
                e = gbench_sd_ms(g, d->string, ser[i]);
            nerr += isfinite(e);
            fnum(f, v);
            fnum(f, isfinite(v) ? (isfinite(e) ? e : 0) : NAN);
        }
        fputc('\n', f);
    }
    if (dat_close(&mf, dir, name) < 0) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    char body[8192], qt[160];
    int n = snprintf(body, sizeof body,
                     "set style data histogram\nset style histogram errorbars gap 1 lw 1\n"
                     "set style fill solid 0.75 border -1\nset ylabel 'ms per deformation'\nset yrange [0:*]\n"
                     "set xtics rotate by -20\nplot ");
    for (int i = 0; i < ns && n < (int)sizeof body - 400; i++)
        n += snprintf(body + n, sizeof body - (size_t)n, "%s'%s.dat' using %d:%d%s title %s", i ? ", " : "",
                      name, 2 + 2 * i, 3 + 2 * i, i ? "" : ":xtic(1)", gp_quote(qt, sizeof qt, ser[i]));
    char t2[200];
    snprintf(t2, sizeof t2, "%s%s", title, nerr ? " (error bars: standard deviation of repetitions)" : " (no repetition data: no error bars)");
    plot(rep, dir, name, t2, body);
}

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

static void curve_plot(struct skb_report *rep, const char *dir, const char *name, const char *title, const cJSON *c)
{
    const cJSON *ser[MAXSER];
    int ns = curve_series(c, ser, MAXSER), nr = curve_rows(c);
    struct memfile mf;
    FILE *f = dat_open(&mf, dir, name);
    if (!f) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    if (nr > 0) {
        /* rows [t, measured, reference...]: the first y is the measurement */
        const cJSON *row;
        cJSON_ArrayForEach(row, jget(c, "curve")) {
            const cJSON *v;
            cJSON_ArrayForEach(v, row) {
                double x = NAN;
                jnum(v, &x);
                fnum(f, x);
            }
            fputc('\n', f);
        }
        if (dat_close(&mf, dir, name) < 0) {
            not_run(rep, name, title, "cannot write the data file");
            return;
        }
        char body[2048];
        int n = snprintf(body, sizeof body, "set xlabel 't'\nplot ");
        for (int k = 0; k < nr && k < 8; k++)
            n += snprintf(body + n, sizeof body - (size_t)n, "%s'%s.dat' using 1:%d with %s title '%s'", k ? ", " : "",
                          name, 2 + k, k ? "lines lw 2 dt 2" : "points pt 7 ps 0.6",
                          k == 0 ? "measured" : k == 1 ? "closed form / reference" : "reference");
        plot(rep, dir, name, title, body);
        return;
    }
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
    if (dat_close(&mf, dir, name) < 0) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    char body[4096], qt[160];
    int n = snprintf(body, sizeof body, "set xlabel 't'\nplot ");
    for (int s = 0; s < ns && n < (int)sizeof body - 400; s++)
        n += snprintf(body + n, sizeof body - (size_t)n, "%s'%s.dat' using 1:%d with lines lw 2 title %s",
                      s ? ", " : "", name, 2 + s, gp_quote(qt, sizeof qt, ser[s]->string));
    plot(rep, dir, name, title, body);
}

static void bounds_plots(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    static const struct { const char *need1, *need2, *name, *title; } want[] = {
        { "qlb", NULL, "gap-qlb-slerp", "QLB − SLERP angle gap over t (thesis Lemma 3.2)" },
        { "dlb", "sclerp", "gap-dlb-sclerp", "DLB − ScLERP gap over t (DQ paper Fig. 23)" },
        { "log", NULL, "logm-speed", "Log-matrix angular speed over t (thesis Fig. A.1)" },
    };
    const cJSON *doc = r->doc[SKB_RF_BOUNDS], *x;
    int found[3] = { 0 };
    cJSON_ArrayForEach(x, doc) {
        const cJSON *ser[MAXSER];
        if (!cJSON_IsObject(x) || (curve_series(x, ser, MAXSER) < 1 && curve_rows(x) < 1))
            continue;
        char name[64], title[160];
        const char *title0 = x->string;
        for (int i = 0; i < 3; i++)
            if (strstr(x->string, want[i].need1) && (!want[i].need2 || strstr(x->string, want[i].need2))) {
                found[i] = 1;
                title0 = want[i].title;
                break;
            }
        snprintf(name, sizeof name, "bounds-%s%s", x->string, sfx);
        sanitize(name);
        snprintf(title, sizeof title, "%s [bounds.json: %s]", title0, x->string);
        curve_plot(rep, dir, name, title, x);
    }
    for (int i = 0; i < 3; i++)
        if (!found[i]) {
            char name[64], why[240];
            snprintf(name, sizeof name, "%s%s", want[i].name, sfx);
            if (!doc)
                snprintf(why, sizeof why, "bounds.json %s", r->err[SKB_RF_BOUNDS][0] ? "unreadable" : "not found (bounds not run)");
            else
                snprintf(why, sizeof why, "bounds.json has no curve ({\"t\": [...], ...} or {\"curve\": [[t, y], ...]}) under a key containing \"%s\"%s%s; only the maxima are reported",
                         want[i].need1, want[i].need2 ? " and " : "", want[i].need2 ? want[i].need2 : "");
            not_run(rep, name, want[i].title, why);
        }
}

/* DIB iterations: {"1": n, "2": n}, [n0, n1, ...] (index = iterations), or
 * {"iterations": [...], "count": [...]} under a key containing "hist" */
static void dib_hist(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *h = NULL, *x;
    const char *where = NULL;
    int files[2] = { SKB_RF_BOUNDS, SKB_RF_FLOPS };
    for (int i = 0; i < 2 && !h; i++)
        cJSON_ArrayForEach(x, r->doc[files[i]])
            if (!h && x->string && strstr(x->string, "hist") && (cJSON_IsObject(x) || cJSON_IsArray(x))) {
                h = x;
                where = skb_rfile_name(files[i]);
            }
    char name[64];
    snprintf(name, sizeof name, "dib-iterations%s", sfx);
    const char *title = "DIB iterations histogram (thesis Alg. 4.1)";
    if (!h) {
        not_run(rep, name, title, "no key containing \"hist\" in bounds.json or flops.json");
        return;
    }
    struct memfile mf;
    FILE *f = dat_open(&mf, dir, name);
    if (!f)
        return;
    int rows = 0;
    const cJSON *it = jget(h, "iterations"), *ct = jget(h, "count") ? jget(h, "count") : jget(h, "counts");
    if (cJSON_IsArray(it) && cJSON_IsArray(ct)) {
        for (int i = 0; i < cJSON_GetArraySize(it); i++) {
            double a = NAN, b = NAN;
            jnum(cJSON_GetArrayItem(it, i), &a);
            jnum(cJSON_GetArrayItem(ct, i), &b);
            fnum(f, a);
            fnum(f, b);
            fputc('\n', f);
            rows++;
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
    if (dat_close(&mf, dir, name) < 0) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    if (!rows) {
        not_run(rep, name, title, "histogram is empty or of an unknown shape");
        return;
    }
    char body[1024], t2[200];
    snprintf(body, sizeof body, "set style fill solid 0.75 border -1\nset boxwidth 0.8\nset xlabel 'iterations'\n"
             "set ylabel 'blends'\nset yrange [0:*]\nplot '%s.dat' using 1:2 with boxes title 'count'", name);
    snprintf(t2, sizeof t2, "%s [%s: %s]", title, where, h->string);
    plot(rep, dir, name, t2, body);
}

static void sphere_plots(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = r->doc[SKB_RF_SPHERES], *d;
    char name[64];
    if (!doc) {
        snprintf(name, sizeof name, "sphere-radii%s", sfx);
        not_run(rep, name, "Average sphere radius per tree level",
                r->err[SKB_RF_SPHERES][0] ? "spheres.json unreadable" : "spheres.json not found (spheres not run)");
        return;
    }
    cJSON_ArrayForEach(d, jget(doc, "datasets")) {
        const char *ser[MAXSER];
        int ns = 0;
        const cJSON *l, *m;
        cJSON_ArrayForEach(l, jget(d, "levels")) cJSON_ArrayForEach(m, l) {
            int seen = 0;
            if (!cJSON_IsObject(m) || !jget(m, "avg"))
                continue;
            for (int i = 0; i < ns; i++)
                seen |= strcmp(ser[i], m->string) == 0;
            if (!seen && ns < MAXSER)
                ser[ns++] = m->string;
        }
        snprintf(name, sizeof name, "sphere-radii-%s%s", d->string, sfx);
        sanitize(name);
        char title[160];
        snprintf(title, sizeof title, "Average sphere radius per tree level: %s", d->string);
        if (!ns) {
            not_run(rep, name, title, "no levels with radii");
            continue;
        }
        struct memfile mf;
        FILE *f = dat_open(&mf, dir, name);
        if (!f)
            continue;
        cJSON_ArrayForEach(l, jget(d, "levels")) {
            double lv = NAN;
            jnum(jget(l, "level"), &lv);
            fnum(f, lv);
            for (int i = 0; i < ns; i++) {
                double v = NAN;
                jnum(jget(jget(l, ser[i]), "avg"), &v);
                fnum(f, v > 0 ? v : NAN);
            }
            fputc('\n', f);
        }
        if (dat_close(&mf, dir, name) < 0) {
            not_run(rep, name, title, "cannot write the data file");
            continue;
        }
        char body[4096], qt[160];
        int n = snprintf(body, sizeof body, "set logscale y\nset xlabel 'tree level'\nset ylabel 'average radius'\nplot ");
        for (int i = 0; i < ns && n < (int)sizeof body - 400; i++)
            n += snprintf(body + n, sizeof body - (size_t)n, "%s'%s.dat' using 1:%d with linespoints lw 2 title %s",
                          i ? ", " : "", name, 2 + i, gp_quote(qt, sizeof qt, ser[i]));
        plot(rep, dir, name, title, body);
    }
}

static void cd_plot(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r)
{
    const cJSON *doc = r->doc[SKB_RF_CD], *x;
    char name[64];
    const char *title = "CD time and speed-up against model size (thesis Table 5.3)";
    snprintf(name, sizeof name, "cd-scaling%s", sfx);
    if (!doc) {
        not_run(rep, name, title, r->err[SKB_RF_CD][0] ? "cd.json unreadable" : "cd.json not found (cd not run)");
        return;
    }
    struct memfile mf;
    FILE *f = dat_open(&mf, dir, name);
    if (!f)
        return;
    int rows = 0, nfree = 0;
    cJSON_ArrayForEach(x, jget(doc, "scaling")) {
        double tri = NAN, od = NAN, bu = NAN, sp = NAN, lv = NAN, spf = NAN;
        const char *pose = cJSON_GetObjectItemCaseSensitive(x, "pose") ? cJSON_GetStringValue(jget(x, "pose")) : NULL;
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
    if (dat_close(&mf, dir, name) < 0) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    if (!rows) {
        not_run(rep, name, title, "cd.json \"scaling\" is empty");
        return;
    }
    char body[2600];
    snprintf(body, sizeof body,
             "set logscale xy\nset logscale y2\nset xlabel 'triangles'\nset ylabel 'ms per query'\n"
             "set y2label 'speed-up (bottom-up / on-demand)'\nset y2tics\nset ytics nomirror\n"
             "plot '%s.dat' using 1:2 with linespoints lw 2 title 'on-demand', "
             "'%s.dat' using 1:3 with linespoints lw 2 title 'bottom-up', "
             "'%s.dat' using 1:4 axes x1y2 with linespoints lw 2 dt 2 title 'speed-up'%s%s%s", name, name, name,
             nfree ? ", '" : "", nfree ? name : "", nfree ? ".dat' using 1:5 axes x1y2 with linespoints lw 2 dt 3 title 'speed-up, collision-free pose'" : "");
    plot(rep, dir, name, title, body);
}

/* the arm's volume or elbow cross-section over twist, one series per method
 * (gpu.json "arm_volume", harness/arm_volume.c); key: "volume_ratio" or
 * "section_area_ratio" */
static void volume_plot(struct skb_report *rep, const char *dir, const char *sfx, const struct skb_results *r,
                        const char *key, const char *what)
{
    const cJSON *av = jget(r->doc[SKB_RF_GPU], "arm_volume"), *tw = jget(av, "twist_deg"), *m;
    char name[64], title[200], body[8192], qt[200];
    snprintf(name, sizeof name, "arm-%s%s", key[0] == 'v' ? "volume" : "section", sfx);
    snprintf(title, sizeof title, "Arm %s over elbow twist, ratio to the rest pose", what);
    if (!cJSON_IsArray(tw)) {
        not_run(rep, name, title, r->doc[SKB_RF_GPU] ? "gpu.json has no \"arm_volume\"" : "gpu.json not found (gpu not run)");
        return;
    }
    struct memfile mf;
    FILE *f = dat_open(&mf, dir, name);
    if (!f)
        return;
    int col = 2, len = snprintf(body, sizeof body, "set xlabel 'elbow twist (degrees)'\nset ylabel '%s / rest %s'\n"
                                "set xrange [0:180]\nset xtics 30\nset key outside right top\nplot ", what, what);
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
    if (dat_close(&mf, dir, name) < 0) {
        not_run(rep, name, title, "cannot write the data file");
        return;
    }
    cJSON_ArrayForEach(m, jget(av, "methods")) {
        const char *t = cJSON_IsString(jget(m, "title")) ? jget(m, "title")->valuestring : m->string;
        if (cJSON_IsArray(jget(m, key)) && len > 0 && (size_t)len < sizeof body - 400)
            len += snprintf(body + len, sizeof body - (size_t)len, "%s'%s.dat' using 1:%d with linespoints lt %d pt %d "
                            "title %s", col > 2 ? ", " : "", name, col, col - 1, col - 1, gp_quote(qt, sizeof qt, t));
        col++;
    }
    plot(rep, dir, name, title, body);
}

void skb_plots_write(struct skb_report *rep, const char *out_dir)
{
    char dir[1200], msg[300];
    snprintf(dir, sizeof dir, "%s/plots", out_dir);
    int have_gp = gnuplot_found();
    if (skb_mkdirs(dir, msg, sizeof msg) < 0)
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
        char name[64], title[200];
        struct skb_gbench g;
        int hg = r->doc[SKB_RF_GBENCH] && skb_gbench_collect(r->doc[SKB_RF_GBENCH], &g) >= 0;
        snprintf(name, sizeof name, "cpu-times%s", sfx);
        snprintf(title, sizeof title, "CPU time per method and dataset [%.80s]", r->machine_key);
        if (r->doc[SKB_RF_CPU])
            time_bars(rep, dir, name, title, jget(r->doc[SKB_RF_CPU], "datasets"),
                      jget(r->doc[SKB_RF_CPU], "ms_stddev"), hg ? &g : NULL);
        else
            not_run(rep, name, title, r->err[SKB_RF_CPU][0] ? "cpu.json unreadable" : "cpu.json not found (cpu not run)");
        if (hg)
            skb_gbench_free(&g);
        snprintf(name, sizeof name, "gpu-times%s", sfx);
        snprintf(title, sizeof title, "GPU time per shader and dataset [%.80s]%s", r->machine_key,
                 cJSON_IsTrue(jget(r->doc[SKB_RF_GPU], "software_renderer")) ? " (software renderer)" : "");
        if (jget(r->doc[SKB_RF_GPU], "ms"))
            time_bars(rep, dir, name, title, jget(r->doc[SKB_RF_GPU], "ms"), jget(r->doc[SKB_RF_GPU], "ms_stddev"), NULL);
        else
            not_run(rep, name, title, r->doc[SKB_RF_GPU] ? "gpu.json has no \"ms\" (skipped?)"
                    : r->err[SKB_RF_GPU][0] ? "gpu.json unreadable" : "gpu.json not found (gpu not run)");
        bounds_plots(rep, dir, sfx, r);
        dib_hist(rep, dir, sfx, r);
        sphere_plots(rep, dir, sfx, r);
        cd_plot(rep, dir, sfx, r);
        volume_plot(rep, dir, sfx, r, "volume_ratio", "volume");
        volume_plot(rep, dir, sfx, r, "section_area_ratio", "cross-section area");
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
