/* history_steps.c — the steps of each history series (history.c says the
 * rules: instructions exact, times by binary segmentation with a threshold
 * corrected for the number of splits tried) and the report's table of
 * them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "history_internal.h"
#include "report_internal.h"

/* instructions: every night whose count differs from the previous one with
 * a count by more than SKB_HIST_ICOUNT_TOL (the series is exact) */
static int icount_steps(const struct skb_hseries *s, int n, struct skb_hstep *st, int max)
{
    int m = 0, prev = -1;
    for (int k = 0; k < n && m < max; k++) {
        if (!isfinite(s->v[k]))
            continue;
        if (prev >= 0 && fabs(s->v[k] / s->v[prev] - 1) > SKB_HIST_ICOUNT_TOL)
            st[m++] = (struct skb_hstep){ k, prev, s->v[prev], s->v[k] };
        prev = k;
    }
    return m;
}

/* log times of the nights with a value, at[] their night indices, and
 * prefix sums of x and x^2 (a segment's mean and SSE in O(1)) */
struct seg_data {
    double *x, *s1, *s2;
    int *at, n;
};

static double seg_sse(const struct seg_data *d, int a, int b)
{
    double n = b - a, s = d->s1[b] - d->s1[a];
    return d->s2[b] - d->s2[a] - s * s / n;
}

/* the best split c of [a, b) (SKB_HIST_STEP_SIDE on each side): -1 when none
 * passes the test (SKB_HIST_STEP_MIN and zcrit standard errors) */
static int best_split(const struct seg_data *d, int a, int b, double zcrit)
{
    int best = -1;
    double best_sse = INFINITY;
    for (int c = a + SKB_HIST_STEP_SIDE; c <= b - SKB_HIST_STEP_SIDE; c++) {
        double sse = seg_sse(d, a, c) + seg_sse(d, c, b);
        if (sse < best_sse) {
            best_sse = sse;
            best = c;
        }
    }
    if (best < 0 || b - a < 3)
        return -1;
    double mb = (d->s1[best] - d->s1[a]) / (best - a), ma = (d->s1[b] - d->s1[best]) / (b - best);
    double sd = sqrt(fmax(best_sse, 0) / (b - a - 2));
    double se = sd * sqrt(1.0 / (best - a) + 1.0 / (b - best));
    return fabs(ma - mb) >= log1p(SKB_HIST_STEP_MIN) && fabs(ma - mb) > zcrit * se ? best : -1;
}

/* binary segmentation of [a, b): the accepted splits into cuts[], in order */
static int segment(const struct seg_data *d, int a, int b, double zcrit, int *cuts, int m, int max)
{
    int c = m < max ? best_split(d, a, b, zcrit) : -1;
    if (c < 0)
        return m;
    m = segment(d, a, c, zcrit, cuts, m, max);
    if (m < max)
        cuts[m++] = c;
    return segment(d, c, b, zcrit, cuts, m, max);
}

static int time_steps(const struct skb_hseries *s, int n, double zcrit, struct skb_hstep *st, int max)
{
    struct seg_data d = { malloc(((size_t)n + 1) * sizeof *d.x), malloc(((size_t)n + 1) * sizeof *d.s1),
                          malloc(((size_t)n + 1) * sizeof *d.s2), malloc(((size_t)n + 1) * sizeof *d.at), 0 };
    int *cuts = malloc(((size_t)max + 1) * sizeof *cuts), m = 0;
    if (d.x && d.s1 && d.s2 && d.at && cuts) {
        d.s1[0] = d.s2[0] = 0;
        for (int k = 0; k < n; k++)
            if (isfinite(s->v[k]) && s->v[k] > 0) {
                d.x[d.n] = log(s->v[k]);
                d.at[d.n] = k;
                d.s1[d.n + 1] = d.s1[d.n] + d.x[d.n];
                d.s2[d.n + 1] = d.s2[d.n] + d.x[d.n] * d.x[d.n];
                d.n++;
            }
        int nc = segment(&d, 0, d.n, zcrit, cuts, 0, max);
        for (int j = 0; j < nc; j++) {
            int a = j ? cuts[j - 1] : 0, c = cuts[j], b = j + 1 < nc ? cuts[j + 1] : d.n;
            st[m++] = (struct skb_hstep){ d.at[c], d.at[c - 1], exp((d.s1[c] - d.s1[a]) / (c - a)),
                                          exp((d.s1[b] - d.s1[c]) / (b - c)) };
        }
    }
    free(d.x), free(d.s1), free(d.s2), free(d.at), free(cuts);
    return m;
}

int skb__history_steps(const struct skb_hmachine *m, int i, struct skb_hstep *st, int max)
{
    const struct skb_hseries *s = &m->series[i];
    if (s->metric == SKB_HIST_ICOUNT)
        return icount_steps(s, m->nnights, st, max);
    return time_steps(s, m->nnights, m->zcrit, st, max);
}

/* ---- a method's steps together ---- */

int skb__history_groups(const struct skb_hmachine *m, const char ***out)
{
    int n = 0;
    *out = malloc(((size_t)m->nseries + 1) * sizeof **out);
    for (int i = 0; *out && i < m->nseries; i++) {
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = strcmp((*out)[j], m->series[i].group) == 0;
        if (!seen)
            (*out)[n++] = m->series[i].group;
    }
    return *out ? n : -1;
}

/* A code change moves a method's kernels on one night; the best split of
 * one kernel's noisy times can land a night or two off it when a night's
 * load sat between before and after (a year of 84 benchmarks of a method
 * stepping: 83 on the night, one a night late).  So a time step is put on
 * the night most of the method's time steps within SKB_HIST_SNAP nights
 * chose, when that night has more of them than its own (and at least two);
 * instruction counts are exact and keep their own night. */
static void snap_times(const struct skb_hmachine *m, struct skb_hmstep *st, int n)
{
    int *count = calloc((size_t)m->nnights + 1, sizeof *count);
    for (int j = 0; count && j < n; j++)
        if (m->series[st[j].series].metric == SKB_HIST_TIME)
            count[st[j].st.night]++;
    for (int j = 0; count && j < n; j++) {
        const struct skb_hseries *s = &m->series[st[j].series];
        int x = st[j].st.night, y = x;
        if (s->metric != SKB_HIST_TIME)
            continue;
        for (int k = x - SKB_HIST_SNAP; k <= x + SKB_HIST_SNAP; k++)
            if (k >= 0 && k < m->nnights && count[k] > count[y])
                y = k;
        if (y == x || count[y] < 2 || !isfinite(s->v[y]))
            continue;
        int prev = y - 1;
        while (prev >= 0 && !isfinite(s->v[prev]))
            prev--;
        if (prev >= 0) {
            st[j].st.night = y;
            st[j].st.prev = prev;
        }
    }
    free(count);
}

int skb__history_group_steps(const struct skb_hmachine *m, const char *group, struct skb_hmstep **out)
{
    int n = 0, cap = 0;
    *out = NULL;
    for (int i = 0; i < m->nseries; i++) {
        struct skb_hstep st[SKB_HIST_MAX_STEPS];
        if (strcmp(m->series[i].group, group) != 0)
            continue;
        int k = skb__history_steps(m, i, st, SKB_HIST_MAX_STEPS);
        for (int j = 0; j < k; j++) {
            if (n == cap) {
                struct skb_hmstep *p = realloc(*out, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *p);
                if (!p) {
                    free(*out);
                    *out = NULL;
                    return -1;
                }
                *out = p;
            }
            (*out)[n++] = (struct skb_hmstep){ i, st[j] };
        }
    }
    snap_times(m, *out, n);
    return n;
}

/* ---- the report's table ---- */

static int present(const struct skb_hseries *s, int n)
{
    int c = 0;
    for (int k = 0; k < n; k++)
        c += isfinite(s->v[k]);
    return c;
}

/* "rev_before..rev_first" of a step, short ids */
static char *rev_range(const struct skb_hmachine *m, const struct skb_hstep *st)
{
    const struct skb_hnight *a = &m->night[st->prev], *b = &m->night[st->night];
    return skb__fmt("%.12s..%.12s", a->rev[0] ? a->rev : a->describe[0] ? a->describe : "?",
                    b->rev[0] ? b->rev : b->describe[0] ? b->describe : "?");
}

static int table_rows(struct skb_report *rep, struct skb_rtable *t, const struct skb_hmachine *m)
{
    const char **groups = NULL;
    int ng = skb__history_groups(m, &groups), nsteps = 0;
    for (int g = 0; g < ng; g++) {
        struct skb_hmstep *st = NULL;
        int n = skb__history_group_steps(m, groups[g], &st);
        for (int j = 0; j < n; j++, nsteps++) {
            const struct skb_hseries *s = &m->series[st[j].series];
            int ic = s->metric == SKB_HIST_ICOUNT;
            skb__row_add(rep, t, 0, SKB_ROW_CONTEXT, NULL, strdup(m->key), strdup(s->name),
                         strdup(ic ? "instructions" : "CPU ms (median)"), skb__fmt("%d", present(s, m->nnights)),
                         strdup(m->night[st[j].st.night].stamp), rev_range(m, &st[j].st),
                         skb__fmt(ic ? "%.0f" : "%.4g", st[j].st.before), skb__fmt(ic ? "%.0f" : "%.4g", st[j].st.after),
                         skb__fmt("%+.1f %%", 100 * (st[j].st.after / st[j].st.before - 1)), NULL);
        }
        free(st);
    }
    free(groups);
    return nsteps;
}

void skb_history_table(struct skb_report *rep, const struct skb_history *h)
{
    static const char *const cols[] = { "machine", "benchmark", "measure", "nights", "step first seen", "revisions",
                                        "before", "after", "change", NULL };
    int nights = 0;
    for (int i = 0; i < h->nmach; i++)
        nights += h->m[i].nnights;
    char *intro = skb__fmt("%d stored night(s) of %d machine(s) in the results store %s%s (night by night per "
                           "method and machine, with the paired A/B estimates: history.html; the same as CSV: "
                           "history.csv, history-steps.csv). %s%s",
                           nights, h->nmach, h->source, h->injected ? ", runs with an injected slow-down left out" : "",
                           skb__history_rules, nights < 2 ? " Steps start with the second night." : "");
    struct skb_rtable *t = skb__tbl_new(rep, "history", "Nightly history: steps across nights",
                                        "the results store (skinbench store; scripts/nightly.sh)", intro, cols);
    if (!t)
        return;
    t->unjudged = 1;
    int nsteps = 0;
    for (int i = 0; i < h->nmach; i++)
        nsteps += table_rows(rep, t, &h->m[i]);
    if (!nsteps)
        skb__row_add(rep, t, 0, SKB_ROW_CONTEXT, NULL, strdup("(every machine)"), strdup("(every benchmark)"),
                     strdup("-"), skb__fmt("%d", nights), strdup(nights < 2 ? "one night so far" : "no step"),
                     strdup("-"), strdup("-"), strdup("-"), strdup("-"), NULL);
}
