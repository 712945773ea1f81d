/* history.c — every nightly's results kept under results/history/STAMP
 * (scripts/nightly.sh; STAMP sorts by time), read back as one series per
 * benchmark: the median CPU time of its repetitions (cpu-gbench.json) and
 * its instructions per deformation (icount.json).  Steps across nights are
 * found as asv does, simplified: the one split of the series into before
 * and after that explains it best, reported with the first night after the
 * split.  The report shows a table of steps (this file) and per-method
 * trend plots (plots_history.c) once two or more nights exist. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "skb_json.h"
#include "history_internal.h"
#include "report_internal.h"

/* instructions: a change beyond this between two nights is a step (the
 * counts of one build are identical; compare_ab.c's ICOUNT_TOL) */
#define HIST_ICOUNT_TOL 0.005
/* timing: a step must be at least this large, and this many pooled
 * standard errors (nightly medians move several per cent on a shared VM) */
#define HIST_STEP_MIN 0.05
#define HIST_STEP_SIGMAS 3.0
/* nights on each side of a timing step (one night alone is noise) */
#define HIST_STEP_SIDE 2

/* dir/rel exists (a link too), reached without a link on the way */
static int present_below(const char *dir, const char *rel)
{
    struct stat st;
    return skb_stat_below(dir, rel, &st) == 0;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int series_find(struct skb_history *h, const char *name, int metric)
{
    for (int i = 0; i < h->nseries; i++)
        if (h->series[i].metric == metric && strcmp(h->series[i].name, name) == 0)
            return i;
    if (h->nseries == h->cap) {
        int cap = h->cap ? 2 * h->cap : 64;
        struct skb_hseries *s = realloc(h->series, (size_t)cap * sizeof *s);
        if (!s)
            return -1;
        h->series = s;
        h->cap = cap;
    }
    struct skb_hseries *s = &h->series[h->nseries];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->metric = metric;
    s->v = malloc((size_t)h->nnights * sizeof *s->v);
    if (!s->v)
        return -1;
    for (int k = 0; k < h->nnights; k++)
        s->v[k] = NAN;
    return h->nseries++;
}

static void put(struct skb_history *h, const char *name, int metric, int night, double v)
{
    int i = series_find(h, name, metric);
    if (i >= 0)
        h->series[i].v[night] = v;
}

/* one night's files; an unreadable one is skipped and counted (history
 * informs, it does not gate: compare already refused that night) */
static void load_night(struct skb_history *h, int k, const char *dir)
{
    char path[1400], msg[400];
    cJSON *doc = NULL;
    /* below --history without a link in any component (docs/security.md) */
    snprintf(path, sizeof path, "%s/cpu-gbench.json", h->night[k]);
    if (skb_json_read_below(dir, path, &doc, msg, sizeof msg) == 0) {
        struct skb_gbench_set g;
        if (skb_gbench_parse(doc, &g, msg, sizeof msg) == 0) {
            for (int i = 0; i < g.n; i++)
                put(h, g.b[i].name, SKB_HIST_TIME, k, skb_median(g.b[i].time_ns, g.b[i].nrep) / 1e6);
            skb_gbench_set_free(&g);
        }
        cJSON_Delete(doc);
    } else if (present_below(dir, path)) {
        h->unreadable++;
    }
    snprintf(path, sizeof path, "%s/icount.json", h->night[k]);
    if (skb_json_read_below(dir, path, &doc, msg, sizeof msg) == 0) {
        const cJSON *c;
        cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "kernels"))
            if (cJSON_IsNumber(c) && c->string)
                put(h, c->string, SKB_HIST_ICOUNT, k, c->valuedouble);
        cJSON_Delete(doc);
    } else if (present_below(dir, path)) {
        h->unreadable++;
    }
}

int skb_history_load(const char *dir, struct skb_history **out, char *msg, size_t msglen)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    *out = NULL;
    if (!d) {
        snprintf(msg, msglen, "%s: cannot open the history directory", dir);
        return SKB_EIO;
    }
    struct skb_history *h = calloc(1, sizeof *h);
    int cap = 0;
    while (h && (e = readdir(d))) {
        char p[1400];
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof p, "%s/cpu-gbench.json", e->d_name);
        int has = present_below(dir, p);
        snprintf(p, sizeof p, "%s/icount.json", e->d_name);
        if (!has && !present_below(dir, p))
            continue;
        if (h->nnights == cap) {
            cap = cap ? 2 * cap : 16;
            char **n = realloc(h->night, (size_t)cap * sizeof *n);
            if (!n)
                break;
            h->night = n;
        }
        h->night[h->nnights++] = strdup(e->d_name);
    }
    closedir(d);
    if (!h) {
        snprintf(msg, msglen, "out of memory");
        return SKB_ENOMEM;
    }
    qsort(h->night, (size_t)h->nnights, sizeof *h->night, name_cmp);
    snprintf(h->dir, sizeof h->dir, "%s", dir);
    for (int k = 0; k < h->nnights; k++)
        load_night(h, k, dir);
    *out = h;
    return 0;
}

void skb_history_free(struct skb_history *h)
{
    if (!h)
        return;
    for (int k = 0; k < h->nnights; k++)
        free(h->night[k]);
    for (int i = 0; i < h->nseries; i++)
        free(h->series[i].v);
    free(h->night);
    free(h->series);
    free(h);
}

/* ---- steps ---- */

/* instructions: every night whose count differs from the night before by
 * more than HIST_ICOUNT_TOL (the series is exact, so each is a step) */
static int icount_steps(const struct skb_hseries *s, int n, struct skb_hstep *st, int max)
{
    int m = 0, prev = -1;
    for (int k = 0; k < n && m < max; k++) {
        if (!isfinite(s->v[k]))
            continue;
        if (prev >= 0 && fabs(s->v[k] / s->v[prev] - 1) > HIST_ICOUNT_TOL) {
            st[m].night = k;
            st[m].before = s->v[prev];
            st[m].after = s->v[k];
            m++;
        }
        prev = k;
    }
    return m;
}

/* timing: the best single split of the log series into two constant
 * segments (least squares), kept when large and clear of the noise */
static int time_step(const struct skb_hseries *s, int n, struct skb_hstep *st)
{
    double *x = malloc(((size_t)n + 1) * sizeof *x);
    int *at = malloc(((size_t)n + 1) * sizeof *at), m = 0, best = -1;
    double best_sse = INFINITY, mb = 0, ma = 0;
    for (int k = 0; x && at && k < n; k++)
        if (isfinite(s->v[k]) && s->v[k] > 0) {
            x[m] = log(s->v[k]);
            at[m++] = k;
        }
    for (int c = HIST_STEP_SIDE; x && at && c <= m - HIST_STEP_SIDE; c++) {
        double s0 = 0, s1 = 0, sse = 0;
        for (int i = 0; i < c; i++)
            s0 += x[i];
        for (int i = c; i < m; i++)
            s1 += x[i];
        s0 /= c;
        s1 /= m - c;
        for (int i = 0; i < m; i++)
            sse += (x[i] - (i < c ? s0 : s1)) * (x[i] - (i < c ? s0 : s1));
        if (sse < best_sse) {
            best_sse = sse;
            best = c;
            mb = s0;
            ma = s1;
        }
    }
    int found = 0;
    if (best > 0) {
        double sd = m > 2 ? sqrt(best_sse / (m - 2)) : 0;
        double se = sd * sqrt(1.0 / best + 1.0 / (m - best));
        if (fabs(ma - mb) >= log1p(HIST_STEP_MIN) && fabs(ma - mb) > HIST_STEP_SIGMAS * se) {
            st->night = at[best];
            st->before = exp(mb);
            st->after = exp(ma);
            found = 1;
        }
    }
    free(x);
    free(at);
    return found;
}

int skb__history_steps(const struct skb_history *h, int i, struct skb_hstep *st, int max)
{
    const struct skb_hseries *s = &h->series[i];
    if (s->metric == SKB_HIST_ICOUNT)
        return icount_steps(s, h->nnights, st, max);
    return max > 0 ? time_step(s, h->nnights, st) : 0;
}

/* ---- the report table ---- */

static int present(const struct skb_hseries *s, int n)
{
    int c = 0;
    for (int k = 0; k < n; k++)
        c += isfinite(s->v[k]);
    return c;
}

void skb_history_table(struct skb_report *rep, const struct skb_history *h)
{
    static const char *const cols[] = { "benchmark", "measure", "nights", "step first seen", "before", "after",
                                        "change", NULL };
    char *intro = skb__fmt("%d nightly run(s) in %s (%s to %s). Instructions per deformation (icount.json) are "
                           "exact: every change above %.1f %% is a step, named by the first night it appeared. "
                           "Median CPU times (cpu-gbench.json) move several per cent from night to night on a "
                           "shared machine: a time step is the best single split of the series, kept when it "
                           "is at least %.0f %% and %.0f standard errors, with at least %d nights on each side. "
                           "%s%s",
                           h->nnights, h->dir, h->nnights ? h->night[0] : "-",
                           h->nnights ? h->night[h->nnights - 1] : "-", 100 * HIST_ICOUNT_TOL, 100 * HIST_STEP_MIN,
                           HIST_STEP_SIGMAS, HIST_STEP_SIDE,
                           h->nnights < 2 ? "Trends and steps start with the second night. " : "",
                           h->unreadable ? "Some nights' files were unreadable and are left out. " : "");
    struct skb_rtable *t = skb__tbl_new(rep, "history", "Nightly history: steps across nights",
                                        "results/history (scripts/nightly.sh)", intro, cols);
    if (!t)
        return;
    t->unjudged = 1;
    int nsteps = 0;
    for (int i = 0; i < h->nseries; i++) {
        struct skb_hstep st[8];
        const struct skb_hseries *s = &h->series[i];
        int n = skb__history_steps(h, i, st, 8);
        for (int j = 0; j < n; j++, nsteps++) {
            int ic = s->metric == SKB_HIST_ICOUNT;
            skb__row_add(rep, t, 0, SKB_ROW_CONTEXT, NULL, strdup(s->name),
                         strdup(ic ? "instructions" : "CPU ms (median)"), skb__fmt("%d", present(s, h->nnights)),
                         strdup(h->night[st[j].night]), skb__fmt(ic ? "%.0f" : "%.4g", st[j].before),
                         skb__fmt(ic ? "%.0f" : "%.4g", st[j].after),
                         skb__fmt("%+.1f %%", 100 * (st[j].after / st[j].before - 1)), NULL);
        }
    }
    if (!nsteps)
        skb__row_add(rep, t, 0, SKB_ROW_CONTEXT, NULL, strdup("(every benchmark)"), strdup("-"),
                     skb__fmt("%d", h->nnights), strdup(h->nnights < 2 ? "one night so far" : "no step"),
                     strdup("-"), strdup("-"), strdup("-"), NULL);
}
