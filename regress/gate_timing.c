/* gate_timing.c — the unpaired timing gate of compare (README "Nightly
 * regression"): a benchmark is a regression only when the Mann-Whitney U
 * test on raw repetitions (Holm-Bonferroni adjusted over all benchmarks
 * compared, p < alpha), the relative median slow-down (> min_effect) and the
 * confirming re-run all agree (../shared/TOOLCHAIN.md: timing alone is not a safe gate
 * on a shared 2-core box).  Each run's repetitions split odd/even, and the
 * current run against its re-run, measure the false-positive rate. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "skb_gbench.h"
#include "compare_internal.h"

/* index of benchmark name in g, -1 if absent */
static int gb_find(const struct skb_gbench_set *g, const char *name)
{
    const struct skb_gbench_bench *b = skb_gbench_find(g, name);
    return b ? (int)(b - g->b) : -1;
}

/* the smallest two-sided p the exact U test can reach for na against nb
 * repetitions: 2 / C(na+nb, na).  At or above alpha the test is powerless:
 * it can never flag anything, so a zero flagged count proves nothing */
static double min_p(int na, int nb)
{
    double m = 2;
    for (int q = 1; q <= na; q++)
        m *= (double)q / (nb + q);
    return m;
}

static int slower(const double *base, int nb, const double *cur, int nc, const struct skb_compare_opts *o,
                  double *p, double *effect);

/* raw U-test p, median effect and Holm-adjusted p of every baseline
 * benchmark the current run also timed (the family); returns its size */
static int family_p(const struct skb_gbench_set *ga, const struct skb_gbench_set *gb, const struct skb_compare_opts *o,
                    double *praw, double *eff, double *padj)
{
    double *fp = malloc(((size_t)ga->n + 1) * sizeof *fp), *fa = malloc(((size_t)ga->n + 1) * sizeof *fa);
    int m = 0;
    if (!praw || !eff || !padj || !fp || !fa) {
        free(fp);
        free(fa);
        return -1;
    }
    for (int i = 0; i < ga->n; i++) {
        int j = gb_find(gb, ga->b[i].name);
        praw[i] = padj[i] = 1;
        eff[i] = 0;
        if (j < 0)
            continue;
        slower(ga->b[i].time_ns, ga->b[i].nrep, gb->b[j].time_ns, gb->b[j].nrep, o, &praw[i], &eff[i]);
        fp[m++] = praw[i];
    }
    if (skb_holm(fp, m, fa) < 0)
        m = -1;
    for (int i = 0, k = 0; m > 0 && i < ga->n; i++)
        if (gb_find(gb, ga->b[i].name) >= 0)
            padj[i] = fa[k++];
    free(fp);
    free(fa);
    return m;
}

/* the timing gate on one pair of samples: 1 = slower (significant and large) */
static int slower(const double *base, int nb, const double *cur, int nc, const struct skb_compare_opts *o,
                  double *p, double *effect)
{
    double u;
    *p = 1;
    *effect = 0;
    if (nb < 2 || nc < 2 || skb_mann_whitney(cur, nc, base, nb, &u, p) < 0)
        return 0;
    double mb = skb_median(base, nb), mc = skb_median(cur, nc);
    *effect = mb > 0 ? mc / mb - 1 : 0;
    return *p < o->alpha && *effect > o->min_effect;
}

/* a repetition whose time is not a finite positive number (0, negative,
 * "nan", "inf", an error row) cannot be judged */
static int times_invalid(const struct skb_gbench_bench *b)
{
    for (int r = 0; r < b->nrep; r++)
        if (!(isfinite(b->time_ns[r]) && b->time_ns[r] > 0 && b->time_ns[r] < 1e300))
            return 1;
    return b->nrep == 0;
}

/* the Google Benchmark sets of one comparison: baseline, current and,
 * when hr, the confirming re-run */
struct gb_sets {
    struct skb_gbench_set a, b, r;
    int hr;
};

/* the Holm family: raw p, Holm-adjusted p and median effect per baseline row */
struct family {
    int m;
    double *praw, *padj, *eff;
};

struct timing_tally {
    int tested, candidates, confirmed, unconfirmed, powerless;
};

/* repetitions split odd/even: splits measured, flagged, and the powerless
 * ones (weak_a against weak_b repetitions) */
struct self_tally {
    int n, flag, weak, weak_a, weak_b;
};

/* the three files' repetitions; a file that cannot be read (an unknown
 * time unit, out of memory) leaves the gate undecided, naming the file and
 * the reader's own reason — never a note and a pass */
static int load_sets(struct cmp_state *s, const cJSON *a, const cJSON *b, const cJSON *rerun, struct gb_sets *g)
{
    char msg[300], why[400];
    memset(g, 0, sizeof *g);
    const char *side = "baseline";
    int rc = skb_gbench_parse(a, &g->a, msg, sizeof msg);
    if (rc == 0) {
        side = "current";
        rc = skb_gbench_parse(b, &g->b, msg, sizeof msg);
    }
    if (rc == 0 && rerun) {
        side = "re-run";
        rc = skb_gbench_parse(rerun, &g->r, msg, sizeof msg);
        g->hr = rc == 0;
    }
    if (rc < 0) {
        snprintf(why, sizeof why, "the %s's file cannot be read: %s", side, msg);
        skb__cmp_undecided(s, "cpu-gbench.json", why);
        skb_gbench_set_free(&g->a);
        skb_gbench_set_free(&g->b);
        skb_gbench_set_free(&g->r);
        return -1;
    }
    return 0;
}

static void free_sets(struct gb_sets *g)
{
    skb_gbench_set_free(&g->a);
    skb_gbench_set_free(&g->b);
    if (g->hr)
        skb_gbench_set_free(&g->r);
}

static void free_family(struct family *f)
{
    free(f->praw);
    free(f->padj);
    free(f->eff);
}

/* a slower candidate (baseline row i, current row j) put to the re-run */
static const char *confirm(struct cmp_state *s, const struct gb_sets *g, const struct family *f, int i, int j,
                           const struct skb_compare_opts *o, struct timing_tally *t)
{
    const struct skb_gbench_bench *x = &g->a.b[i];
    double p = f->padj[i], e = f->eff[i], p2, e2;
    int r = g->hr ? gb_find(&g->r, x->name) : -1;
    t->candidates++;
    if (r < 0) {
        t->unconfirmed++;
        skb__cmp_undecided(s, x->name, "unconfirmed");
        skb__cmp_info(s, "UNCONFIRMED timing: %s %+.1f %% (Holm-adjusted p = %.3g, raw %.3g); no confirming re-run "
             "(CURRENT/rerun/cpu-gbench.json): inconclusive, not a failure", x->name, 100 * e, p, f->praw[i]);
        return "inconclusive (unconfirmed)";
    }
    if (slower(x->time_ns, x->nrep, g->r.b[r].time_ns, g->r.b[r].nrep, o, &p2, &e2)) {
        t->confirmed++;
        skb__cmp_regression(s, "cpu-gbench.json: %s slower by %+.1f %% (U test Holm-adjusted p = %.3g over %d, raw %.3g, "
                   "%d vs %d repetitions), confirmed by the re-run (%+.1f %%, p = %.3g)", x->name, 100 * e, p,
                   f->m, f->praw[i], x->nrep, g->b.b[j].nrep, 100 * e2, p2);
        return "regression";
    }
    skb__cmp_info(s, "timing: %s %+.1f %% (p = %.3g) not confirmed by the re-run (%+.1f %%, p = %.3g)",
         x->name, 100 * e, p, 100 * e2, p2);
    return "not confirmed by re-run";
}

/* the compare.json row of baseline row i timed as current row j */
static cJSON *judge_row(struct cmp_state *s, const struct gb_sets *g, const struct family *f, int i, int j,
                        const struct skb_compare_opts *o, struct timing_tally *t)
{
    const struct skb_gbench_bench *x = &g->a.b[i], *y = &g->b.b[j];
    double p = f->padj[i], e = f->eff[i];
    int slow = p < o->alpha && e > o->min_effect;
    t->tested++;
    /* Holm's smallest adjusted p is at least m times the smallest raw p */
    int weak = f->m * min_p(x->nrep, y->nrep) >= o->alpha;
    t->powerless += weak;
    cJSON *row = cJSON_CreateObject();
    cJSON_AddStringToObject(row, "benchmark", x->name);
    cJSON_AddNumberToObject(row, "p_raw", f->praw[i]);
    cJSON_AddNumberToObject(row, "p", p);
    cJSON_AddNumberToObject(row, "effect", e);
    cJSON_AddNumberToObject(row, "reps_baseline", x->nrep);
    cJSON_AddNumberToObject(row, "reps_current", y->nrep);
    const char *verdict = weak ? "inconclusive (powerless)" : "ok";
    if (weak)
        skb__cmp_undecided(s, x->name, "powerless");
    if (slow)
        verdict = confirm(s, g, f, i, j, o, t);
    cJSON_AddStringToObject(row, "verdict", verdict);
    return row;
}

/* every baseline benchmark judged into tj; what only the current run has is a note */
static void judge_rows(struct cmp_state *s, const struct gb_sets *g, const struct family *f,
                       const struct skb_compare_opts *o, struct timing_tally *t, cJSON *tj)
{
    for (int i = 0; i < g->a.n; i++) {
        int j = gb_find(&g->b, g->a.b[i].name);
        if (j < 0) {
            /* what the baseline timed and the current run lacks is not judged: inconclusive */
            skb__cmp_undecided(s, g->a.b[i].name, "missing in the current run");
            continue;
        }
        const char *bad = times_invalid(&g->a.b[i]) ? "baseline time not a finite positive number"
                          : times_invalid(&g->b.b[j]) ? "current time not a finite positive number" : NULL;
        if (bad) {
            skb__cmp_undecided(s, g->a.b[i].name, bad);
            continue;
        }
        cJSON_AddItemToArray(tj, judge_row(s, g, f, i, j, o, t));
    }
    for (int j = 0; j < g->b.n; j++)
        if (gb_find(&g->a, g->b.b[j].name) < 0)
            skb__cmp_undecided(s, g->b.b[j].name, "new benchmark: not in the baseline");
}

/* one benchmark's repetitions split odd/even and put through the same gate
 * (no re-run) both ways */
static void self_split_one(const struct skb_gbench_bench *b, const struct skb_compare_opts *o, struct self_tally *st)
{
    int n = b->nrep, h0 = 0, h1 = 0;
    if (n < 4)
        return;
    double *x0 = malloc((size_t)n * sizeof *x0), *x1 = malloc((size_t)n * sizeof *x1), p, e;
    if (!x0 || !x1) {
        free(x0);
        free(x1);
        return;
    }
    for (int r = 0; r < n; r++) {
        if (r % 2)
            x1[h1++] = b->time_ns[r];
        else
            x0[h0++] = b->time_ns[r];
    }
    if (min_p(h0, h1) >= o->alpha) {
        /* a split that can never be flagged measures no false-positive rate */
        st->weak++;
        st->weak_a = h0;
        st->weak_b = h1;
    } else {
        st->n++;
        st->flag += slower(x0, h0, x1, h1, o, &p, &e) || slower(x1, h1, x0, h0, o, &p, &e);
    }
    free(x0);
    free(x1);
}

/* the current run against its re-run: the same build twice on the same
 * machine, so every benchmark flagged here is a false positive */
static void rerun_self(struct cmp_state *s, const struct gb_sets *g, const struct skb_compare_opts *o, cJSON *sum)
{
    int rr_n = 0, rr_flag = 0;
    for (int i = 0; g->hr && i < g->b.n; i++) {
        const struct skb_gbench_bench *x = &g->b.b[i];
        int r = gb_find(&g->r, x->name);
        double p, e;
        if (r < 0 || min_p(x->nrep, g->r.b[r].nrep) >= o->alpha)
            continue;
        rr_n++;
        rr_flag += slower(x->time_ns, x->nrep, g->r.b[r].time_ns, g->r.b[r].nrep, o, &p, &e)
                   || slower(g->r.b[r].time_ns, g->r.b[r].nrep, x->time_ns, x->nrep, o, &p, &e);
    }
    if (rr_n) {
        fprintf(s->out, "self-comparison (current run against its re-run, both directions): %d of %d flagged, "
                "false-positive rate %.3f before confirmation\n", rr_flag, rr_n, (double)rr_flag / rr_n);
        cJSON_AddNumberToObject(sum, "rerun_self_comparisons", rr_n);
        cJSON_AddNumberToObject(sum, "rerun_self_flagged", rr_flag);
    }
}

/* the tested / candidate / confirmed line, and what too few repetitions cost */
static void say_tally(struct cmp_state *s, const struct skb_compare_opts *o, int m, const struct timing_tally *t,
                      cJSON *sum)
{
    fprintf(s->out, "timing: %d benchmarks tested, %d slower candidates, %d confirmed, %d unconfirmed "
            "(alpha %g Holm-Bonferroni over %d, min effect %.1f %%)\n", t->tested, t->candidates, t->confirmed,
            t->unconfirmed, o->alpha, m, 100 * o->min_effect);
    int need = 2;
    while (need < SKB_MWU_EXACT_MAX && m * min_p(need, need) >= o->alpha)
        need++;
    if (t->powerless)
        skb__cmp_info(s, "timing gate powerless for %d of %d benchmarks: too few repetitions for the U test to reach "
             "Holm-adjusted p < %g over %d benchmarks (%d against %d are needed)", t->powerless, t->tested, o->alpha, m,
             need, need);
    cJSON_AddNumberToObject(sum, "timing_powerless", t->powerless);
}

/* the odd/even self-comparison's lines, then every count into the summary */
static void say_self(struct cmp_state *s, const struct skb_compare_opts *o, const struct timing_tally *t,
                     const struct self_tally *st, cJSON *sum)
{
    if (st->n)
        fprintf(s->out, "self-comparison (repetitions split odd/even, both directions): %d of %d flagged, "
                "false-positive rate %.3f before the confirming re-run\n", st->flag, st->n, (double)st->flag / st->n);
    else if (st->weak)
        fprintf(s->out, "self-comparison (repetitions split odd/even): false-positive rate not measurable "
                "(powerless: %d vs %d repetitions cannot reach p < %g)\n", st->weak_a, st->weak_b, o->alpha);
    else
        fprintf(s->out, "self-comparison: no benchmark has >= 4 repetitions; false-positive rate not measured\n");
    if (st->n && st->weak)
        fprintf(s->out, "self-comparison: %d further splits not measurable (powerless: %d vs %d repetitions)\n",
                st->weak, st->weak_a, st->weak_b);
    cJSON_AddNumberToObject(sum, "self_powerless", st->weak);
    cJSON_AddNumberToObject(sum, "timing_tested", t->tested);
    cJSON_AddNumberToObject(sum, "timing_candidates", t->candidates);
    cJSON_AddNumberToObject(sum, "timing_confirmed", t->confirmed);
    cJSON_AddNumberToObject(sum, "timing_unconfirmed", t->unconfirmed);
    cJSON_AddNumberToObject(sum, "self_comparisons", st->n);
    cJSON_AddNumberToObject(sum, "self_flagged", st->flag);
    skb_json_add_number(sum, "false_positive_rate", st->n ? (double)st->flag / st->n : NAN);
    if (!st->n && st->weak) {
        char note[160];
        snprintf(note, sizeof note, "not measurable (powerless: %d vs %d repetitions)", st->weak_a, st->weak_b);
        cJSON_AddStringToObject(sum, "false_positive_rate_note", note);
    }
}

void skb__gate_timing(struct cmp_state *s, const cJSON *a, const cJSON *b, const cJSON *rerun,
                      const struct skb_compare_opts *o, cJSON *sum)
{
    struct gb_sets g;
    if (load_sets(s, a, b, rerun, &g) < 0)
        return;
    /* a side with no usable row (no benchmarks, every row an error or an
     * aggregate) cannot be judged: never a pass */
    if (g.a.n == 0 || g.b.n == 0)
        skb__cmp_undecided(s, "cpu-gbench.json", g.a.n == 0 ? "the baseline has no usable benchmark rows"
                           : "the current run has no usable benchmark rows (none, all errors or aggregates)");
    struct family f = { 0, calloc((size_t)g.a.n + 1, sizeof *f.praw), calloc((size_t)g.a.n + 1, sizeof *f.padj),
                        calloc((size_t)g.a.n + 1, sizeof *f.eff) };
    f.m = family_p(&g.a, &g.b, o, f.praw, f.eff, f.padj);
    if (f.m < 0) {
        skb__cmp_undecided(s, "cpu-gbench.json", "out of memory for the Holm correction: timing not compared");
        free_family(&f);
        free_sets(&g);
        return;
    }
    cJSON_AddNumberToObject(sum, "holm_family", f.m);
    struct timing_tally t = { 0, 0, 0, 0, 0 };
    judge_rows(s, &g, &f, o, &t, cJSON_AddArrayToObject(sum, "timing"));
    free_family(&f);
    struct self_tally st = { 0, 0, 0, 0, 0 };
    for (int i = 0; i < g.a.n; i++)
        self_split_one(&g.a.b[i], o, &st);
    for (int i = 0; i < g.b.n; i++)
        self_split_one(&g.b.b[i], o, &st);
    rerun_self(s, &g, o, sum);
    say_tally(s, o, f.m, &t, sum);
    say_self(s, o, &t, &st, sum);
    free_sets(&g);
}
