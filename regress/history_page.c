/* history_page.c — the nightly history as a page and as CSV
 * (skb_history_write): per machine and method, night by night, the
 * instructions and median CPU times of its kernels (each relative to its
 * first night, the geometric mean over the method's kernels) and the
 * night's paired A/B estimate against its baseline, with every step marked
 * (history_steps.c).  The page is one file in the report's style: inline
 * SVG, no script, nothing fetched when it is viewed; every name from the
 * store is escaped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "skb_json.h"
#include "skb_stats.h"
#include "history_internal.h"
#include "report_internal.h"

#define PLOT_W 900
#define PLOT_H 170
#define PLOT_LEFT 64
#define PLOT_TOP 12
#define PLOT_BOTTOM 34

/* one method of one machine: its nightly aggregates, its steps */
struct method_view {
    const char *group;
    double *ratio[SKB_HIST_NMETRIC];   /* per night: geometric mean of value / first value, NAN when none */
    const struct skb_hpaired *paired;
    int nsteps;
    struct skb_hmstep *step;
};

/* a series' reference: the median of its first REF_NIGHTS values (one
 * loaded first night would shift a time line for the whole year; a count's
 * first values are equal unless it stepped in its first week) */
#define REF_NIGHTS 7
static double reference(const struct skb_hseries *s, int n)
{
    double x[REF_NIGHTS];
    int k = 0;
    for (int i = 0; i < n && k < REF_NIGHTS; i++)
        if (isfinite(s->v[i]) && s->v[i] > 0)
            x[k++] = s->v[i];
    return k ? skb_median(x, k) : NAN;
}

/* the geometric mean over the method's series of metric of v[k] / reference */
static double *aggregate(const struct skb_hmachine *m, const char *group, int metric)
{
    double *r = malloc(((size_t)m->nnights + 1) * sizeof *r), *sum = calloc((size_t)m->nnights + 1, sizeof *sum);
    int *cnt = calloc((size_t)m->nnights + 1, sizeof *cnt);
    for (int i = 0; r && sum && cnt && i < m->nseries; i++) {
        const struct skb_hseries *s = &m->series[i];
        if (s->metric != metric || strcmp(s->group, group) != 0)
            continue;
        double ref = reference(s, m->nnights);
        for (int k = 0; k < m->nnights; k++)
            if (isfinite(s->v[k]) && s->v[k] > 0) {
                sum[k] += log(s->v[k] / ref);
                cnt[k]++;
            }
    }
    for (int k = 0; r && sum && cnt && k < m->nnights; k++)
        r[k] = cnt[k] ? exp(sum[k] / cnt[k]) : NAN;
    free(sum);
    free(cnt);
    return r;
}

static int view_make(const struct skb_hmachine *m, const char *group, struct method_view *v)
{
    memset(v, 0, sizeof *v);
    v->group = group;
    for (int k = 0; k < SKB_HIST_NMETRIC; k++)
        if (!(v->ratio[k] = aggregate(m, group, k)))
            return -1;
    for (int j = 0; j < m->npaired; j++)
        if (strcmp(m->paired[j].method, group) == 0)
            v->paired = &m->paired[j];
    v->nsteps = skb__history_group_steps(m, group, &v->step);
    return v->nsteps < 0 ? -1 : 0;
}

static void view_free(struct method_view *v)
{
    for (int k = 0; k < SKB_HIST_NMETRIC; k++)
        free(v->ratio[k]);
    free(v->step);
}

/* ---- the plot ---- */

struct axes {
    int n;
    double ymin, ymax;         /* log ratio */
};

static double px(const struct axes *a, int k)
{
    return PLOT_LEFT + (a->n > 1 ? (double)k / (a->n - 1) : 0.5) * PLOT_W;
}

static double py(const struct axes *a, double y)
{
    return PLOT_TOP + (a->ymax - y) / (a->ymax - a->ymin) * PLOT_H;
}

static void range(const double *x, int n, int is_delta, double *lo, double *hi)
{
    for (int k = 0; x && k < n; k++) {
        double y = is_delta ? log1p(x[k]) : log(x[k]);
        if (isfinite(y)) {
            *lo = fmin(*lo, y);
            *hi = fmax(*hi, y);
        }
    }
}

/* a line through the finite points, broken where a night has none */
static void polyline(FILE *f, const struct axes *a, const double *x, int is_delta, const char *colour)
{
    int open = 0;
    fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" d=\"", colour);
    for (int k = 0; x && k < a->n; k++) {
        double y = is_delta ? log1p(x[k]) : log(x[k]);
        if (!isfinite(y)) {
            open = 0;
            continue;
        }
        fprintf(f, "%s%.1f %.1f ", open ? "L" : "M", px(a, k), py(a, y));
        open = 1;
    }
    fprintf(f, "\"/>\n");
}

static void grid(FILE *f, const struct axes *a, const struct skb_hmachine *m)
{
    static const double steps[] = { 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2 };
    double span = a->ymax - a->ymin, step = steps[8];
    for (int i = 0; i < 9; i++)
        if (span / log1p(steps[i]) <= 6) {
            step = steps[i];
            break;
        }
    for (double p = -8; p <= 8; p += 1) {
        double y = p * log1p(step);
        if (y < a->ymin || y > a->ymax)
            continue;
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%+.1f %%</text>\n", PLOT_LEFT,
                PLOT_LEFT + PLOT_W, py(a, y), py(a, y), p == 0 ? "#999" : "#e4e4e4", PLOT_LEFT - 4, py(a, y) + 3,
                100 * expm1(y));
    }
    int ticks[3] = { 0, a->n / 2, a->n - 1 };
    for (int t = 0; t < 3 && a->n; t++) {
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"%s\">", px(a, ticks[t]),
                PLOT_TOP + PLOT_H + 14, t == 0 ? "start" : t == 1 ? "middle" : "end");
        skb__html_esc(f, m->night[ticks[t]].stamp);
        fprintf(f, "</text>\n");
    }
}

static void markers(FILE *f, const struct axes *a, const struct skb_hmachine *m, const struct method_view *v)
{
    for (int j = 0; j < v->nsteps; j++) {
        const struct skb_hseries *s = &m->series[v->step[j].series];
        double x = px(a, v->step[j].st.night);
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#c00\" stroke-dasharray=\"3,3\">"
                "<title>", x, x, PLOT_TOP, PLOT_TOP + PLOT_H);
        skb__html_esc(f, s->name);
        fprintf(f, " %s %+.1f %% from ", s->metric == SKB_HIST_ICOUNT ? "instructions" : "CPU time",
                100 * (v->step[j].st.after / v->step[j].st.before - 1));
        skb__html_esc(f, m->night[v->step[j].st.night].stamp);
        fprintf(f, "</title></line>\n");
    }
}

static void plot(FILE *f, const struct skb_hmachine *m, const struct method_view *v)
{
    struct axes a = { m->nnights, -log1p(0.05), log1p(0.05) };
    range(v->ratio[SKB_HIST_ICOUNT], m->nnights, 0, &a.ymin, &a.ymax);
    range(v->ratio[SKB_HIST_TIME], m->nnights, 0, &a.ymin, &a.ymax);
    if (v->paired)
        range(v->paired->delta, m->nnights, 1, &a.ymin, &a.ymax);
    double pad = 0.08 * (a.ymax - a.ymin);
    a.ymin -= pad;
    a.ymax += pad;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">\n",
            PLOT_LEFT + PLOT_W + 10, PLOT_TOP + PLOT_H + PLOT_BOTTOM);
    grid(f, &a, m);
    polyline(f, &a, v->ratio[SKB_HIST_TIME], 0, "#e08010");
    polyline(f, &a, v->ratio[SKB_HIST_ICOUNT], 0, "#1f5fbf");
    if (v->paired)
        polyline(f, &a, v->paired->delta, 1, "#2a9d3a");
    markers(f, &a, m, v);
    fprintf(f, "</svg>\n");
}

/* ---- the page ---- */

/* a night's revision as the page shows it: 12 digits of the commit, else git describe */
static const char *short_rev(const struct skb_hnight *n, char *buf, size_t len)
{
    snprintf(buf, len, "%.12s", n->rev[0] ? n->rev : n->describe[0] ? n->describe : "?");
    return buf;
}

/* one row per step of the method (measure, first night): how many of its
 * kernels moved and by how much (every kernel is a row of history-steps.csv) */
static void steps_rows(FILE *f, const struct skb_hmachine *m, const struct method_view *v)
{
    int *done = calloc((size_t)v->nsteps + 1, sizeof *done);
    for (int j = 0; done && j < v->nsteps; j++) {
        if (done[j])
            continue;
        const struct skb_hstep *st = &v->step[j].st;
        int metric = m->series[v->step[j].series].metric, n = 0, total = 0;
        double lo = INFINITY, hi = -INFINITY;
        for (int k = j; k < v->nsteps; k++)
            if (!done[k] && v->step[k].st.night == st->night && m->series[v->step[k].series].metric == metric) {
                double c = v->step[k].st.after / v->step[k].st.before - 1;
                lo = fmin(lo, c);
                hi = fmax(hi, c);
                done[k] = 1;
                n++;
            }
        for (int i = 0; i < m->nseries; i++)
            total += m->series[i].metric == metric && strcmp(m->series[i].group, v->group) == 0;
        char a[16], b[16], kernels[40], change[48];
        snprintf(kernels, sizeof kernels, "%d of %d", n, total);
        if (hi - lo < 0.0005)
            snprintf(change, sizeof change, "%+.1f %%", 100 * lo);
        else
            snprintf(change, sizeof change, "%+.1f to %+.1f %%", 100 * lo, 100 * hi);
        const char *cells[] = { m->key, v->group, metric == SKB_HIST_ICOUNT ? "instructions" : "CPU time",
                                kernels, m->night[st->night].stamp, short_rev(&m->night[st->prev], a, sizeof a),
                                short_rev(&m->night[st->night], b, sizeof b), change };
        fprintf(f, "<tr>");
        for (int c = 0; c < 8; c++) {
            fprintf(f, "<td>");
            skb__html_esc(f, cells[c]);
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    free(done);
}

/* the method's steps: distinct (night, measure), however many kernels moved */
static int distinct_steps(const struct skb_hmachine *m, const struct method_view *v)
{
    int n = 0;
    for (int j = 0; j < v->nsteps; j++) {
        int seen = 0;
        for (int k = 0; k < j && !seen; k++)
            seen = v->step[k].st.night == v->step[j].st.night
                   && m->series[v->step[k].series].metric == m->series[v->step[j].series].metric;
        n += !seen;
    }
    return n;
}

static void machine_section(FILE *f, const struct skb_hmachine *m, struct method_view *views, int nv)
{
    fprintf(f, "<h2>");
    skb__html_esc(f, m->key);
    fprintf(f, "</h2>\n<p class=\"src\">%d nights, ", m->nnights);
    if (m->nnights) {
        skb__html_esc(f, m->night[0].stamp);
        fprintf(f, " to ");
        skb__html_esc(f, m->night[m->nnights - 1].stamp);
    }
    fprintf(f, "; a time step needs %.2f standard errors here</p>\n", m->zcrit);
    for (int g = 0; g < nv; g++) {
        fprintf(f, "<h3>");
        skb__html_esc(f, views[g].group);
        int steps = distinct_steps(m, &views[g]);
        fprintf(f, " <span class=\"src\">(%d step%s)</span></h3>\n", steps, steps == 1 ? "" : "s");
        plot(f, m, &views[g]);
    }
}

static void page_head(FILE *f, const struct skb_history *h)
{
    char now[32];
    time_t t = time(NULL);
    struct tm tmv;
    gmtime_r(&t, &tmv);
    strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>skinbench nightly history</title>"
               "<style>%s</style></head>\n<body>\n<h1>Nightly history</h1>\n<p class=\"src\">results store ",
            skb__report_css());
    skb__html_esc(f, h->source);
    fprintf(f, ": %d runs%s; written %s; the same as CSV: <a href=\"history.csv\">history.csv</a>, "
               "<a href=\"history-steps.csv\">history-steps.csv</a></p>\n<p>", h->runs,
            h->injected ? " (those with an injected slow-down left out)" : "", now);
    skb__html_esc(f, skb__history_rules);
    fprintf(f, "</p>\n<p>Per method: <span style=\"color:#1f5fbf\">instructions</span> and <span style=\"color:"
               "#e08010\">median CPU time</span>, each kernel relative to its first week (the geometric mean over "
               "the method's kernels), and <span style=\"color:#2a9d3a\">the night's paired A/B estimate</span> "
               "against its baseline where the night had a sitting; a dashed red line marks a step (hover: which "
               "kernel, how much).</p>\n");
}

/* every machine's views (methods) built, or freed on failure */
static int machine_views(const struct skb_hmachine *m, struct method_view **views, int *nv)
{
    const char **groups = NULL;
    *nv = skb__history_groups(m, &groups);
    *views = *nv >= 0 ? calloc((size_t)*nv + 1, sizeof **views) : NULL;
    int rc = *views ? 0 : -1;
    for (int g = 0; rc == 0 && g < *nv; g++)
        rc = view_make(m, groups[g], &(*views)[g]);
    free(groups);
    return rc;
}

static void views_free(struct method_view *views, int nv)
{
    for (int g = 0; views && g < nv; g++)
        view_free(&views[g]);
    free(views);
}

static int render_html(const struct skb_history *h, FILE *f)
{
    page_head(f, h);
    fprintf(f, "<h2>Steps</h2>\n<p>One row per step of a method: how many of its kernels moved that night "
               "(each kernel, with its values before and after: history-steps.csv).</p>\n"
               "<table><tr><th>machine</th><th>method</th><th>measure</th><th>kernels</th><th>first night</th>"
               "<th>revision before</th><th>revision of the night</th><th>change</th></tr>\n");
    int rc = 0;
    for (int i = 0; rc == 0 && i < h->nmach; i++) {
        struct method_view *views;
        int nv;
        if ((rc = machine_views(&h->m[i], &views, &nv)) == 0)
            for (int g = 0; g < nv; g++)
                steps_rows(f, &h->m[i], &views[g]);
        views_free(views, nv);
    }
    fprintf(f, "</table>\n");
    for (int i = 0; rc == 0 && i < h->nmach; i++) {
        struct method_view *views;
        int nv;
        if ((rc = machine_views(&h->m[i], &views, &nv)) == 0)
            machine_section(f, &h->m[i], views, nv);
        views_free(views, nv);
    }
    fprintf(f, "</body></html>\n");
    return rc;
}

/* ---- CSV ---- */

static void csv_num(FILE *f, double x, int last)
{
    char b[40];
    if (isfinite(x))
        snprintf(b, sizeof b, "%.9g", x);
    else
        b[0] = 0;
    skb__csv_field(f, b, last);
}

static int render_csv(const struct skb_history *h, FILE *f, int steps_only)
{
    static const char *const night_cols[] = { "machine", "method", "night", "revision", "instructions_ratio",
                                              "cpu_time_ratio", "ab_delta", "ab_ci_low", "ab_ci_high", "steps" };
    static const char *const step_cols[] = { "machine", "method", "benchmark", "measure", "first_night",
                                             "revision_before", "revision_of_night", "before", "after", "change" };
    for (int c = 0; c < 10; c++)
        skb__csv_field(f, steps_only ? step_cols[c] : night_cols[c], c == 9);
    for (int i = 0; i < h->nmach; i++) {
        const struct skb_hmachine *m = &h->m[i];
        struct method_view *views;
        int nv;
        if (machine_views(m, &views, &nv) < 0) {
            views_free(views, nv);
            return -1;
        }
        for (int g = 0; g < nv; g++) {
            const struct method_view *v = &views[g];
            for (int j = 0; steps_only && j < v->nsteps; j++) {
                const struct skb_hstep *st = &v->step[j].st;
                const struct skb_hseries *s = &m->series[v->step[j].series];
                skb__csv_field(f, m->key, 0);
                skb__csv_field(f, v->group, 0);
                skb__csv_field(f, s->name, 0);
                skb__csv_field(f, s->metric == SKB_HIST_ICOUNT ? "instructions" : "cpu_ms", 0);
                skb__csv_field(f, m->night[st->night].stamp, 0);
                skb__csv_field(f, m->night[st->prev].rev, 0);
                skb__csv_field(f, m->night[st->night].rev, 0);
                csv_num(f, st->before, 0);
                csv_num(f, st->after, 0);
                csv_num(f, st->after / st->before - 1, 1);
            }
            for (int k = 0; !steps_only && k < m->nnights; k++) {
                int ns = 0;
                for (int j = 0; j < v->nsteps; j++)
                    ns += v->step[j].st.night == k;
                skb__csv_field(f, m->key, 0);
                skb__csv_field(f, v->group, 0);
                skb__csv_field(f, m->night[k].stamp, 0);
                skb__csv_field(f, m->night[k].rev, 0);
                csv_num(f, v->ratio[SKB_HIST_ICOUNT][k], 0);
                csv_num(f, v->ratio[SKB_HIST_TIME][k], 0);
                csv_num(f, v->paired ? v->paired->delta[k] : NAN, 0);
                csv_num(f, v->paired ? v->paired->lo[k] : NAN, 0);
                csv_num(f, v->paired ? v->paired->hi[k] : NAN, 0);
                csv_num(f, ns, 1);
            }
        }
        views_free(views, nv);
    }
    return 0;
}

/* one output: rendered into memory, then written atomically */
static int write_one(const struct skb_history *h, const char *dir, const char *name, int kind, char *msg,
                     size_t msglen)
{
    char *buf = NULL, path[1400];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!f) {
        snprintf(msg, msglen, "%.900s: out of memory", path);
        return SKB_ENOMEM;
    }
    int rc = kind == 0 ? render_html(h, f) : render_csv(h, f, kind == 2);
    fclose(f);
    if (rc < 0)
        snprintf(msg, msglen, "%.900s: out of memory", path);
    else
        rc = skb_write_atomic(path, buf, len, msg, msglen);
    free(buf);
    return rc;
}

int skb_history_write(const struct skb_history *h, const char *out_dir, char *msg, size_t msglen)
{
    int rc = write_one(h, out_dir, "history.html", 0, msg, msglen);
    if (rc == 0)
        rc = write_one(h, out_dir, "history.csv", 1, msg, msglen);
    if (rc == 0)
        rc = write_one(h, out_dir, "history-steps.csv", 2, msg, msglen);
    return rc;
}
