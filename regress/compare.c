/* compare.c — nightly regression gates between a baseline run and a current
 * run.  Exact gates: property verdicts, FLOP fits, callgrind instruction
 * counts, GPU shader instruction counts, the CPU "verified" flag, and every
 * experiment the baseline had.  Timing: a benchmark is a regression only
 * when the Mann-Whitney U test on raw repetitions (Holm-Bonferroni adjusted
 * over all benchmarks compared, p < alpha), the relative
 * median slow-down (> min_effect) and the confirming re-run all agree
 * (TOOLCHAIN.md: timing alone is not a safe gate on a shared 2-core box). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skb_json.h"
#include "skb_gbench.h"
#include "report_internal.h"
#include "compare_internal.h"

/* relative change of a FLOP fit coefficient treated as "changed": the fit
 * is deterministic, so only rounding noise is forgiven */
#define FLOP_FIT_REL_EQ 1e-9

static const cJSON *jget(const cJSON *o, const char *k)
{
    return o && k ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

/* ---- Google Benchmark repetitions ---- */

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

/* ---- report lines ---- */

void skb__cmp_clean(char *t)
{
    /* names come from the results files: a newline or an escape sequence
     * in a benchmark name must not print a forged "compare: pass" line */
    for (unsigned char *c = (unsigned char *)t; c && *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            *c = '?';
}

/* one line of the verdict: a regression (counted, exit 1) or a note */
static void vsay(struct cmp_state *s, int is_regression, const char *fmt, va_list ap)
{
    char buf[600];
    vsnprintf(buf, sizeof buf, fmt, ap);
    skb__cmp_clean(buf);
    fprintf(s->out, "%s%s\n", is_regression ? "REGRESSION " : "  ", buf);
    cJSON_AddItemToArray(is_regression ? s->reg : s->info, cJSON_CreateString(buf));
    s->regressions += is_regression;
}

void skb__cmp_regression(struct cmp_state *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(s, 1, fmt, ap);
    va_end(ap);
}

void skb__cmp_info(struct cmp_state *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(s, 0, fmt, ap);
    va_end(ap);
}

/* every numeric leaf of a and b, compared exactly; path names the field */
static void exact_tree(struct cmp_state *s, const char *file, const char *path, const cJSON *a, const cJSON *b,
                       const char *what)
{
    char sub[400];
    double x, y;
    if (skb_json_get_number(a, &x) == 0) {
        if (skb_json_get_number(b, &y) < 0)
            skb__cmp_regression(s, "%s: %s %s missing in the current run (baseline %.17g)", file, what, path, x);
        else if (!(x == y || (isnan(x) && isnan(y))))
            skb__cmp_regression(s, "%s: %s %s changed %.17g -> %.17g", file, what, path, x, y);
        return;
    }
    if (!cJSON_IsObject(a) && !cJSON_IsArray(a))
        return;
    const cJSON *c;
    int i = 0;
    cJSON_ArrayForEach(c, a) {
        if (cJSON_IsArray(a))
            snprintf(sub, sizeof sub, "%s[%d]", path, i);
        else
            snprintf(sub, sizeof sub, "%s.%s", path, c->string);
        exact_tree(s, file, sub, c, cJSON_IsArray(a) ? cJSON_GetArrayItem(b, i) : jget(b, c->string), what);
        i++;
    }
}

static void gate_verdicts(struct cmp_state *s, const cJSON *a, const cJSON *b)
{
    const cJSON *m, *v;
    cJSON_ArrayForEach(m, jget(a, "verdicts")) {
        const cJSON *bm = jget(jget(b, "verdicts"), m->string);
        if (!bm) {
            skb__cmp_regression(s, "properties.json: method %s has no verdicts in the current run", m->string);
            continue;
        }
        cJSON_ArrayForEach(v, m) {
            const char *x = cJSON_GetStringValue(v), *y = cJSON_GetStringValue(jget(bm, v->string));
            if (x && (!y || strcmp(x, y) != 0))
                skb__cmp_regression(s, "properties.json: verdict %s.%s changed %s -> %s", m->string, v->string, x, y ? y : "(missing)");
        }
    }
    cJSON_ArrayForEach(m, jget(b, "verdicts"))
        if (!jget(jget(a, "verdicts"), m->string))
            skb__cmp_info(s, "properties.json: new method %s (no baseline verdicts)", m->string);
}

static void gate_flops(struct cmp_state *s, const cJSON *a, const cJSON *b)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, jget(a, "fits")) {
        const cJSON *bm = jget(jget(b, "fits"), m->string);
        for (int k = 0; k < 2; k++) {
            const char *c = k ? "b" : "a";
            double x, y;
            if (skb_json_get_number(jget(m, c), &x) < 0)
                continue;
            if (!bm || skb_json_get_number(jget(bm, c), &y) < 0)
                skb__cmp_regression(s, "flops.json: FLOP fit of %s missing in the current run", m->string);
            else if (fabs(x - y) > FLOP_FIT_REL_EQ * fmax(1, fabs(x)))
                skb__cmp_regression(s, "flops.json: FLOP count of %s changed: %s %.6g -> %.6g (FLOPs = a*n + b)", m->string, c, x, y);
            if (!bm)
                break;
        }
    }
    /* callgrind instruction counts: any subtree whose key names callgrind */
    const cJSON *x;
    cJSON_ArrayForEach(x, a)
        if (x->string && strstr(x->string, "callgrind"))
            exact_tree(s, "flops.json", x->string, x, jget(b, x->string), "callgrind instruction count");
}

/* ---- the experiment descriptors' gates (skb_report.h) report through these ---- */

struct skb_gate {
    struct cmp_state *s;
    cJSON *sum;                /* compare.json summary (gates that add tables) */
};

void skb_gate_regression(struct skb_gate *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(g->s, 1, fmt, ap);
    va_end(ap);
}

void skb_gate_note(struct skb_gate *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(g->s, 0, fmt, ap);
    va_end(ap);
}

void skb__gate_properties(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    gate_verdicts(g->s, skb_results_doc(base, "properties.json"), skb_results_doc(cur, "properties.json"));
}

void skb__gate_flops(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    const cJSON *a = skb_results_doc(base, "flops.json"), *b = skb_results_doc(cur, "flops.json");
    if (a && b)
        gate_flops(g->s, a, b);
}

void skb__gate_gpu(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    const cJSON *gi = jget(skb_results_doc(base, "gpu.json"), "instructions"), *b = skb_results_doc(cur, "gpu.json");
    if (gi && b)
        exact_tree(g->s, "gpu.json", "instructions", gi, jget(b, "instructions"),
                   "shader instruction count");
}

static void gate_verified(struct cmp_state *s, const cJSON *cpu);
static void gate_new_methods(struct cmp_state *s, const cJSON *a, const cJSON *b);

void skb__gate_cpu(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    /* the failing kernels named with their messages (cpu.json "failures") */
    const cJSON *b = skb_results_doc(cur, "cpu.json"), *a = skb_results_doc(base, "cpu.json");
    /* an unverified current run fails whatever the baseline says; an
     * unverified baseline cannot vouch for anything (inconclusive) */
    if (b && !cJSON_IsTrue(jget(b, "verified")))
        gate_verified(g->s, b);
    if (a && !cJSON_IsTrue(jget(a, "verified")))
        skb__cmp_undecided(g->s, "cpu.json", "the baseline is not verified (\"verified\" is not true)");
    gate_new_methods(g->s, skb_results_doc(base, "cpu-gbench.json"), skb_results_doc(cur, "cpu-gbench.json"));
}

void skb__gate_icount_exp(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    skb__gate_icount(g->s, skb_results_doc(base, "icount.json"), skb_results_doc(cur, "icount.json"), g->sum);
}

/* a timed benchmark or gate that could not decide: never a pass (exit 3);
 * with an A/B sitting the unpaired U test only informs */
void skb__cmp_undecided(struct cmp_state *s, const char *bench, const char *why)
{
    if (s->timing_informational && (strcmp(why, "powerless") == 0 || strcmp(why, "unconfirmed") == 0))
        return;
    cJSON *row = cJSON_CreateObject();
    cJSON_AddStringToObject(row, "benchmark", bench);
    cJSON_AddStringToObject(row, "reason", why);
    cJSON_AddItemToArray(s->undecided, row);
    s->inconclusive++;
}

/* name the undecided benchmarks (the first few; all are in compare.json)
 * and say what would let the gate decide */
#define UNDECIDED_SHOWN 10
static void report_undecided(struct cmp_state *s, const struct skb_compare_opts *o)
{
    int n = cJSON_GetArraySize(s->undecided), npow = 0, nunc = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, s->undecided) {
        const char *why = cJSON_GetStringValue(jget(r, "reason"));
        npow += why && strcmp(why, "powerless") == 0;
        nunc += why && strcmp(why, "unconfirmed") == 0;
    }
    for (int i = 0; i < n && i < UNDECIDED_SHOWN; i++) {
        char line[700];
        r = cJSON_GetArrayItem(s->undecided, i);
        snprintf(line, sizeof line, "%s (%s)", cJSON_GetStringValue(jget(r, "benchmark")),
                 cJSON_GetStringValue(jget(r, "reason")));
        skb__cmp_clean(line);
        fprintf(s->out, "INCONCLUSIVE: %s\n", line);
    }
    if (n > UNDECIDED_SHOWN)
        fprintf(s->out, "INCONCLUSIVE: ... and %d more (all listed in compare.json \"inconclusive\")\n",
                n - UNDECIDED_SHOWN);
    if (npow)
        fprintf(s->out, "  to decide the %d powerless: more repetitions in both runs (the U test cannot reach "
                "p < %g with these; not --quick)\n", npow, o->alpha);
    if (nunc)
        fprintf(s->out, "  to decide the %d unconfirmed: a confirming re-run (skinbench run cpu --out CURRENT/rerun, "
                "or --rerun DIR; scripts/nightly.sh does this)\n", nunc);
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

static void gate_timing(struct cmp_state *s, const cJSON *a, const cJSON *b, const cJSON *rerun,
                        const struct skb_compare_opts *o, cJSON *sum)
{
    struct skb_gbench_set ga, gb = { 0 }, gr;
    char msg[300];
    int hr = rerun && skb_gbench_parse(rerun, &gr, msg, sizeof msg) == 0;
    if (skb_gbench_parse(a, &ga, msg, sizeof msg) < 0 || skb_gbench_parse(b, &gb, msg, sizeof msg) < 0) {
        skb__cmp_info(s, "cpu-gbench.json: out of memory reading repetitions");
        skb_gbench_set_free(&ga);
        if (hr)
            skb_gbench_set_free(&gr);
        return;
    }
    /* a side with no usable row (no benchmarks, every row an error or an
     * aggregate) cannot be judged: never a pass */
    if (ga.n == 0 || gb.n == 0)
        skb__cmp_undecided(s, "cpu-gbench.json", ga.n == 0 ? "the baseline has no usable benchmark rows"
                           : "the current run has no usable benchmark rows (none, all errors or aggregates)");
    int tested = 0, candidates = 0, confirmed = 0, unconfirmed = 0, powerless = 0;
    double *praw = calloc((size_t)ga.n + 1, sizeof *praw), *padj = calloc((size_t)ga.n + 1, sizeof *padj);
    double *eff = calloc((size_t)ga.n + 1, sizeof *eff);
    int m = family_p(&ga, &gb, o, praw, eff, padj);
    if (m < 0) {
        skb__cmp_info(s, "cpu-gbench.json: out of memory for the Holm correction; timing not compared");
        free(praw);
        free(padj);
        free(eff);
        skb_gbench_set_free(&ga);
        skb_gbench_set_free(&gb);
        if (hr)
            skb_gbench_set_free(&gr);
        return;
    }
    cJSON_AddNumberToObject(sum, "holm_family", m);
    cJSON *tj = cJSON_AddArrayToObject(sum, "timing");
    for (int i = 0; i < ga.n; i++) {
        int j = gb_find(&gb, ga.b[i].name);
        if (j < 0) {
            /* what the baseline timed and the current run lacks is not judged: inconclusive */
            skb__cmp_undecided(s, ga.b[i].name, "missing in the current run");
            continue;
        }
        const char *bad = times_invalid(&ga.b[i]) ? "baseline time not a finite positive number"
                          : times_invalid(&gb.b[j]) ? "current time not a finite positive number" : NULL;
        if (bad) {
            skb__cmp_undecided(s, ga.b[i].name, bad);
            continue;
        }
        double p = padj[i], e = eff[i];
        int slow = p < o->alpha && e > o->min_effect;
        tested++;
        /* Holm's smallest adjusted p is at least m times the smallest raw p */
        int weak = m * min_p(ga.b[i].nrep, gb.b[j].nrep) >= o->alpha;
        powerless += weak;
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "benchmark", ga.b[i].name);
        cJSON_AddNumberToObject(row, "p_raw", praw[i]);
        cJSON_AddNumberToObject(row, "p", p);
        cJSON_AddNumberToObject(row, "effect", e);
        cJSON_AddNumberToObject(row, "reps_baseline", ga.b[i].nrep);
        cJSON_AddNumberToObject(row, "reps_current", gb.b[j].nrep);
        const char *verdict = weak ? "inconclusive (powerless)" : "ok";
        if (weak)
            skb__cmp_undecided(s, ga.b[i].name, "powerless");
        if (slow) {
            candidates++;
            int r = hr ? gb_find(&gr, ga.b[i].name) : -1;
            double p2, e2;
            if (r < 0) {
                unconfirmed++;
                verdict = "inconclusive (unconfirmed)";
                skb__cmp_undecided(s, ga.b[i].name, "unconfirmed");
                skb__cmp_info(s, "UNCONFIRMED timing: %s %+.1f %% (Holm-adjusted p = %.3g, raw %.3g); no confirming re-run "
                     "(CURRENT/rerun/cpu-gbench.json): inconclusive, not a failure", ga.b[i].name, 100 * e, p, praw[i]);
            } else if (slower(ga.b[i].time_ns, ga.b[i].nrep, gr.b[r].time_ns, gr.b[r].nrep, o, &p2, &e2)) {
                confirmed++;
                verdict = "regression";
                skb__cmp_regression(s, "cpu-gbench.json: %s slower by %+.1f %% (U test Holm-adjusted p = %.3g over %d, raw %.3g, "
                           "%d vs %d repetitions), confirmed by the re-run (%+.1f %%, p = %.3g)", ga.b[i].name, 100 * e, p,
                           m, praw[i], ga.b[i].nrep, gb.b[j].nrep, 100 * e2, p2);
            } else {
                verdict = "not confirmed by re-run";
                skb__cmp_info(s, "timing: %s %+.1f %% (p = %.3g) not confirmed by the re-run (%+.1f %%, p = %.3g)",
                     ga.b[i].name, 100 * e, p, 100 * e2, p2);
            }
        }
        cJSON_AddStringToObject(row, "verdict", verdict);
        cJSON_AddItemToArray(tj, row);
    }
    for (int j = 0; j < gb.n; j++)
        if (gb_find(&ga, gb.b[j].name) < 0)
            skb__cmp_info(s, "cpu-gbench.json: new benchmark %s (not in the baseline)", gb.b[j].name);
    free(praw);
    free(padj);
    free(eff);
    /* self-comparison: each run's repetitions split odd/even and put through
     * the same gate (no re-run), the false-positive rate of the first two gates */
    int self_n = 0, self_flag = 0, self_weak = 0, weak_a = 0, weak_b = 0;
    const struct skb_gbench_set *both[2] = { &ga, &gb };
    for (int w = 0; w < 2; w++)
        for (int i = 0; i < both[w]->n; i++) {
            int n = both[w]->b[i].nrep, h0 = 0, h1 = 0;
            if (n < 4)
                continue;
            double *x0 = malloc((size_t)n * sizeof *x0), *x1 = malloc((size_t)n * sizeof *x1), p, e;
            if (!x0 || !x1) {
                free(x0);
                free(x1);
                continue;
            }
            for (int r = 0; r < n; r++) {
                if (r % 2)
                    x1[h1++] = both[w]->b[i].time_ns[r];
                else
                    x0[h0++] = both[w]->b[i].time_ns[r];
            }
            if (min_p(h0, h1) >= o->alpha) {
                /* a split that can never be flagged measures no false-positive rate */
                self_weak++;
                weak_a = h0;
                weak_b = h1;
                free(x0);
                free(x1);
                continue;
            }
            self_n++;
            self_flag += slower(x0, h0, x1, h1, o, &p, &e) || slower(x1, h1, x0, h0, o, &p, &e);
            free(x0);
            free(x1);
        }
    /* the current run against its re-run: the same build twice on the same
     * machine, so every benchmark flagged here is a false positive */
    int rr_n = 0, rr_flag = 0;
    for (int i = 0; hr && i < gb.n; i++) {
        int r = gb_find(&gr, gb.b[i].name);
        double p, e;
        if (r < 0 || min_p(gb.b[i].nrep, gr.b[r].nrep) >= o->alpha)
            continue;
        rr_n++;
        rr_flag += slower(gb.b[i].time_ns, gb.b[i].nrep, gr.b[r].time_ns, gr.b[r].nrep, o, &p, &e)
                   || slower(gr.b[r].time_ns, gr.b[r].nrep, gb.b[i].time_ns, gb.b[i].nrep, o, &p, &e);
    }
    if (rr_n) {
        fprintf(s->out, "self-comparison (current run against its re-run, both directions): %d of %d flagged, "
                "false-positive rate %.3f before confirmation\n", rr_flag, rr_n, (double)rr_flag / rr_n);
        cJSON_AddNumberToObject(sum, "rerun_self_comparisons", rr_n);
        cJSON_AddNumberToObject(sum, "rerun_self_flagged", rr_flag);
    }
    fprintf(s->out, "timing: %d benchmarks tested, %d slower candidates, %d confirmed, %d unconfirmed "
            "(alpha %g Holm-Bonferroni over %d, min effect %.1f %%)\n", tested, candidates, confirmed, unconfirmed,
            o->alpha, m, 100 * o->min_effect);
    int need = 2;
    while (need < SKB_MWU_EXACT_MAX && m * min_p(need, need) >= o->alpha)
        need++;
    if (powerless)
        skb__cmp_info(s, "timing gate powerless for %d of %d benchmarks: too few repetitions for the U test to reach "
             "Holm-adjusted p < %g over %d benchmarks (%d against %d are needed)", powerless, tested, o->alpha, m,
             need, need);
    cJSON_AddNumberToObject(sum, "timing_powerless", powerless);
    if (self_n)
        fprintf(s->out, "self-comparison (repetitions split odd/even, both directions): %d of %d flagged, "
                "false-positive rate %.3f before the confirming re-run\n", self_flag, self_n, (double)self_flag / self_n);
    else if (self_weak)
        fprintf(s->out, "self-comparison (repetitions split odd/even): false-positive rate not measurable "
                "(powerless: %d vs %d repetitions cannot reach p < %g)\n", weak_a, weak_b, o->alpha);
    else
        fprintf(s->out, "self-comparison: no benchmark has >= 4 repetitions; false-positive rate not measured\n");
    if (self_n && self_weak)
        fprintf(s->out, "self-comparison: %d further splits not measurable (powerless: %d vs %d repetitions)\n",
                self_weak, weak_a, weak_b);
    cJSON_AddNumberToObject(sum, "self_powerless", self_weak);
    cJSON_AddNumberToObject(sum, "timing_tested", tested);
    cJSON_AddNumberToObject(sum, "timing_candidates", candidates);
    cJSON_AddNumberToObject(sum, "timing_confirmed", confirmed);
    cJSON_AddNumberToObject(sum, "timing_unconfirmed", unconfirmed);
    cJSON_AddNumberToObject(sum, "self_comparisons", self_n);
    cJSON_AddNumberToObject(sum, "self_flagged", self_flag);
    skb_json_add_number(sum, "false_positive_rate", self_n ? (double)self_flag / self_n : NAN);
    if (!self_n && self_weak) {
        char note[160];
        snprintf(note, sizeof note, "not measurable (powerless: %d vs %d repetitions)", weak_a, weak_b);
        cJSON_AddStringToObject(sum, "false_positive_rate_note", note);
    }
    skb_gbench_set_free(&ga);
    skb_gbench_set_free(&gb);
    if (hr)
        skb_gbench_set_free(&gr);
}

/* "verified" turned false: name each failing kernel and why */
static void gate_verified(struct cmp_state *s, const cJSON *cpu)
{
    const cJSON *f, *fl = jget(cpu, "failures");
    int n = 0;
    cJSON_ArrayForEach(f, fl)
        if (n++ < 20)
            skb__cmp_regression(s, "cpu.json: \"verified\" is no longer true: kernel %s failed its check: %s",
                                f->string ? f->string : "?",
                       cJSON_GetStringValue(f) ? cJSON_GetStringValue(f) : "?");
    if (n > 20)
        skb__cmp_regression(s, "cpu.json: ... and %d more failing kernels (cpu.json \"failures\")", n - 20);
    if (n == 0)
        skb__cmp_regression(s, "cpu.json: \"verified\" is no longer true (a timed kernel ran unchecked; no failure recorded)");
}

/* methods (groups of benchmarks) the current run times and the baseline did
 * not, and the reverse: listed as new / removed, not as timing changes */
static void gate_new_methods(struct cmp_state *s, const cJSON *a, const cJSON *b)
{
    struct skb_gbench_set ga, gb;
    char msg[300];
    if (!a || !b || skb_gbench_parse(a, &ga, msg, sizeof msg) < 0)
        return;
    if (skb_gbench_parse(b, &gb, msg, sizeof msg) < 0) {
        skb_gbench_set_free(&ga);
        return;
    }
    for (int w = 0; w < 2; w++) {
        const struct skb_gbench_set *x = w ? &ga : &gb, *y = w ? &gb : &ga;
        for (int i = 0; i < x->n; i++) {
            char g[80], h[80];
            int seen = 0, dup = 0;
            skb__bench_group(x->b[i].name, g, sizeof g);
            for (int j = 0; j < y->n && !seen; j++) {
                skb__bench_group(y->b[j].name, h, sizeof h);
                seen = strcmp(g, h) == 0;
            }
            for (int j = 0; j < i && !dup; j++) {
                skb__bench_group(x->b[j].name, h, sizeof h);
                dup = strcmp(g, h) == 0;
            }
            if (!seen && !dup)
                skb__cmp_info(s, "cpu-gbench.json: %s method %s (%s the baseline)", w ? "removed" : "new", g,
                     w ? "only in" : "not in");
        }
    }
    skb_gbench_set_free(&ga);
    skb_gbench_set_free(&gb);
}

/* the injection marker (SKB_INJECT_SLOWDOWN): "injected_slowdown" set in
 * any results file, "injected" in the metadata of any, or in the Google
 * Benchmark context; the file's name into *file, NULL when none */
static const char *injected_file(const struct skb_results *r)
{
    for (int i = 0; i < skb_rfile_count(); i++) {
        const cJSON *d = r->doc[i], *inj = jget(d, "injected_slowdown");
        if ((inj && !cJSON_IsNull(inj)) || jget(d, "injected") || jget(jget(d, "context"), "injected_slowdown"))
            return skb_rfile_name(i);
    }
    return NULL;
}

int skb_compare_inputs_ok(const struct skb_results *base, const struct skb_results *cur, char *msg, size_t msglen)
{
    /* a results file that cannot be read or fails its contract (truncated,
     * garbage, another schema_version) is unreadable input, exit 2: never a
     * pass, and never counted as regressions (README: 2 = unreadable input) */
    /* a run timed with SKB_INJECT_SLOWDOWN is for validating the gate only:
     * as a baseline it would hide the very slow-down it carries */
    const char *f = base ? injected_file(base) : NULL;
    if (f) {
        snprintf(msg, msglen, "baseline %s/%s: the injection marker (\"injected_slowdown\") is set: a run with an "
                 "injected slow-down is never a baseline", base->dir, f);
        return SKB_EINVAL;
    }
    for (int i = 0; i < skb_rfile_count(); i++) {
        if (base && base->err[i][0]) {
            snprintf(msg, msglen, "baseline %s", base->err[i]);
            return SKB_EPARSE;
        }
        if (cur && cur->err[i][0]) {
            snprintf(msg, msglen, "current %s", cur->err[i]);
            return SKB_EPARSE;
        }
    }
    return 0;
}

int skb_compare_installable(const struct skb_results *run, char *msg, size_t msglen)
{
    int rc = skb_compare_inputs_ok(run, NULL, msg, msglen);
    if (rc < 0)
        return rc;
    const cJSON *cpu = skb_results_doc(run, "cpu.json");
    if (cpu && !cJSON_IsTrue(jget(cpu, "verified"))) {
        snprintf(msg, msglen, "%s/cpu.json: \"verified\" is not true: an unverified run is never installed as the "
                 "baseline", run->dir);
        return SKB_EINVAL;
    }
    return 0;
}

int skb_compare_run(const struct skb_results *base, const struct skb_results *cur,
                    const struct skb_results *rerun, const struct skb_compare_opts *o,
                    FILE *out, cJSON **summary)
{
    struct cmp_state s = { out, 0, 0, o->ab != NULL, NULL, NULL, NULL };
    cJSON *sum = cJSON_CreateObject();
    cJSON_AddStringToObject(sum, "baseline", base->dir);
    cJSON_AddStringToObject(sum, "current", cur->dir);
    cJSON_AddStringToObject(sum, "machine", cur->machine_key);
    s.reg = cJSON_AddArrayToObject(sum, "regressions");
    s.info = cJSON_AddArrayToObject(sum, "notes");
    s.undecided = cJSON_AddArrayToObject(sum, "inconclusive");
    fprintf(out, "compare: baseline %s [%s] vs current %s [%s]\n", base->dir, base->machine_key, cur->dir,
            cur->machine_key);
    for (int i = 0; i < skb_rfile_count(); i++) {
        if (cur->err[i][0])
            skb__cmp_regression(&s, "%s", cur->err[i]);
        else if (base->doc[i] && !cur->doc[i])
            skb__cmp_regression(&s, "%s: missing in the current run (experiment '%s' did not run or failed)",
                       skb_rfile_name(i), skb_rfile_experiment(i));
        if (base->err[i][0])
            skb__cmp_info(&s, "baseline %s", base->err[i]);
    }
    /* every registered experiment's exact gates, then what is new */
    struct skb_gate g = { &s, sum };
    const cJSON *ga = skb_results_doc(base, "cpu-gbench.json"), *gb = skb_results_doc(cur, "cpu-gbench.json");
    for (int e = 0; skb_experiment_list[e]; e++)
        if (skb_experiment_list[e]->gate)
            skb_experiment_list[e]->gate(&g, base, cur);
    skb__gate_new_items(&g, base, cur);
    if (o->ab)
        skb__gate_ab(&s, o->ab, sum);
    if (strcmp(base->machine_key, cur->machine_key) != 0) {
        char why[600];
        snprintf(why, sizeof why, "machines differ: baseline key '%.250s', current key '%.250s'%s", base->machine_key,
                 cur->machine_key, o->ab ? "; the A/B sitting decides timing" : "; timing not compared (use --ab)");
        if (o->ab)
            skb__cmp_info(&s, "%s", why);
        else
            skb__cmp_undecided(&s, "timing", why);
    } else if (ga && gb) {
        gate_timing(&s, ga, gb, rerun ? skb_results_doc(rerun, "cpu-gbench.json") : NULL, o, sum);
    } else {
        skb__cmp_info(&s, "timing not compared: cpu-gbench.json missing in %s", ga ? "the current run" : "the baseline");
    }
    cJSON_AddNumberToObject(sum, "regression_count", s.regressions);
    cJSON_AddNumberToObject(sum, "inconclusive_count", s.inconclusive);
    /* a failing exact gate is a regression whatever timing says; otherwise
     * an undecided timing gate is never reported as a pass */
    const char *verdict = s.regressions ? "FAIL" : s.inconclusive ? "INCONCLUSIVE" : "pass";
    cJSON_AddStringToObject(sum, "verdict", verdict);
    if (s.inconclusive)
        report_undecided(&s, o);
    fprintf(out, "compare: %s (%d regression%s, %d timed benchmark%s undecided)\n", verdict, s.regressions,
            s.regressions == 1 ? "" : "s", s.inconclusive, s.inconclusive == 1 ? "" : "s");
    if (summary)
        *summary = sum;
    else
        cJSON_Delete(sum);
    return s.regressions;
}

/* ---- baseline update: copy to a temporary sibling, then rename over ---- */

static int copy_file(const char *from, const char *to, char *msg, size_t msglen)
{
    char *buf;
    size_t n;
    int rc = skb_read_input(from, 0, SKB_IN_NOFOLLOW, &buf, &n, msg, msglen);
    if (rc < 0)
        return rc;
    /* fsync each file before the swap: a power cut after the rename must
     * not leave an empty baseline file */
    int fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    size_t done = 0;
    while (fd >= 0 && done < n) {
        ssize_t w = write(fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    int ok = fd >= 0 && done == n && fsync(fd) == 0;
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    free(buf);
    if (!ok) {
        snprintf(msg, msglen, "%s: cannot write: %s", to, strerror(errno));
        return SKB_EIO;
    }
    return 0;
}

static void fsync_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* a baseline is a results tree a few levels deep; anything deeper is a
 * loop or not a results directory */
#define COPY_TREE_MAX_DEPTH 16

/* a symbolic link is copied as a link (never followed: a loop in the run
 * directory must not recurse, and a link's target is not part of the run) */
static int copy_link(const char *from, const char *to, char *msg, size_t msglen)
{
    char target[4096];
    ssize_t n = readlink(from, target, sizeof target - 1);
    if (n < 0) {
        snprintf(msg, msglen, "%s: cannot read symbolic link: %s", from, strerror(errno));
        return SKB_EIO;
    }
    target[n] = 0;
    if (symlink(target, to) != 0) {
        snprintf(msg, msglen, "%s: cannot create symbolic link: %s", to, strerror(errno));
        return SKB_EIO;
    }
    return 0;
}

static int copy_tree(const char *from, const char *to, int depth, char *msg, size_t msglen);

static int copy_entry(const char *a, const char *b, int depth, char *msg, size_t msglen)
{
    struct stat st;
    if (lstat(a, &st) != 0) {
        snprintf(msg, msglen, "%s: cannot stat: %s", a, strerror(errno));
        return SKB_EIO;
    }
    if (S_ISLNK(st.st_mode))
        return copy_link(a, b, msg, msglen);
    if (S_ISDIR(st.st_mode))
        return copy_tree(a, b, depth + 1, msg, msglen);
    if (!S_ISREG(st.st_mode)) {
        snprintf(msg, msglen, "%s: not a regular file, directory or symbolic link; refusing to copy it "
                 "into the baseline", a);
        return SKB_EINVAL;
    }
    return copy_file(a, b, msg, msglen);
}

static int copy_tree(const char *from, const char *to, int depth, char *msg, size_t msglen)
{
    if (depth > COPY_TREE_MAX_DEPTH) {
        snprintf(msg, msglen, "%s: more than %d directory levels; not a results directory", from,
                 COPY_TREE_MAX_DEPTH);
        return SKB_EINVAL;
    }
    DIR *d = opendir(from);
    int rc = 0;
    if (!d) {
        snprintf(msg, msglen, "%s: cannot open: %s", from, strerror(errno));
        return SKB_EIO;
    }
    if (mkdir(to, 0755) != 0) {
        closedir(d);
        snprintf(msg, msglen, "%s: cannot create: %s", to, strerror(errno));
        return SKB_EIO;
    }
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        char a[2048], b[2048];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if ((size_t)snprintf(a, sizeof a, "%s/%s", from, e->d_name) >= sizeof a
            || (size_t)snprintf(b, sizeof b, "%s/%s", to, e->d_name) >= sizeof b) {
            snprintf(msg, msglen, "%s/%.64s...: path too long", from, e->d_name);
            rc = SKB_EINVAL;
            break;
        }
        rc = copy_entry(a, b, depth, msg, msglen);
    }
    closedir(d);
    if (rc == 0)
        fsync_dir(to);
    return rc;
}

/* the absolute path of p, resolving symbolic links; p itself may not exist yet */
static int abs_path(const char *p, char *out, size_t outlen)
{
    char buf[PATH_MAX], dir[PATH_MAX];
    if (realpath(p, buf)) {
        snprintf(out, outlen, "%s", buf);
        return 0;
    }
    snprintf(dir, sizeof dir, "%s", p);
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        dir[--n] = 0;
    char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : dir;
    const char *parent = slash ? (slash == dir ? "/" : (*slash = 0, dir)) : ".";
    if (!realpath(parent, buf))
        return -1;
    if ((size_t)snprintf(out, outlen, "%s/%s", strcmp(buf, "/") ? buf : "", base) >= outlen)
        return -1;
    return 0;
}

/* a inside b, or the same directory */
static int path_within(const char *a, const char *b)
{
    size_t n = strlen(b);
    if (n == 1 && b[0] == '/')
        return 1;
    return strncmp(a, b, n) == 0 && (a[n] == 0 || a[n] == '/');
}

/* refuse to copy a run into a baseline inside it, or a baseline into
 * itself: each copy would contain the last one */
static int check_nesting(const char *src, const char *dst, char *msg, size_t msglen)
{
    char as[PATH_MAX], ad[PATH_MAX];
    if (abs_path(src, as, sizeof as) < 0 || abs_path(dst, ad, sizeof ad) < 0) {
        snprintf(msg, msglen, "%s, %s: cannot resolve path: %s", src, dst, strerror(errno));
        return SKB_EIO;
    }
    if (path_within(ad, as) || path_within(as, ad)) {
        snprintf(msg, msglen, "baseline %s and current run %s are the same directory or one is inside the other; "
                 "refusing to update the baseline", dst, src);
        return SKB_EINVAL;
    }
    return 0;
}

/* remove name below dirfd and everything in it, never through a link: a
 * link (or anything not a directory) is unlinked itself, so a linked
 * baseline or staging name can never empty its target */
static void remove_at(int dirfd, const char *name, int depth)
{
    int fd = depth > COPY_TREE_MAX_DEPTH + 4 ? -1
             : openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        unlinkat(dirfd, name, 0);
        return;
    }
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            remove_at(fd, e->d_name, depth + 1);
    closedir(d);
    unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void remove_tree(const char *path)
{
    remove_at(AT_FDCWD, path, 0);
}

/* the staging (NAME.new-PID) and old (NAME.old-PID) copies a killed
 * update left beside dst: reclaimed when process PID is gone */
static void reclaim_scratch(const char *dst)
{
    char dir[PATH_MAX], base[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", dst);
    char *slash = strrchr(dir, '/');
    snprintf(base, sizeof base, "%s", slash ? slash + 1 : dir);
    if (slash)
        *slash = slash == dir ? (dir[1] = 0, '/') : 0;
    else
        snprintf(dir, sizeof dir, ".");
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t bl = strlen(base);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *t = e->d_name + bl;
        if (strncmp(e->d_name, base, bl) != 0 || (strncmp(t, ".new-", 5) != 0 && strncmp(t, ".old-", 5) != 0))
            continue;
        char *end;
        long pid = strtol(t + 5, &end, 10);
        if (*end || pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        remove_at(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}

int skb_dir_replace(const char *src, const char *dst_arg, char *msg, size_t msglen)
{
    char tmp[PATH_MAX + 32], old[PATH_MAX + 32], real[PATH_MAX];
    const char *dst = dst_arg;
    struct stat st;
    /* a linked baseline: its target is updated in place (the same swap in
     * the target's own parent); the link stays and nothing is deleted
     * through it */
    if (lstat(dst_arg, &st) == 0 && S_ISLNK(st.st_mode)) {
        if (!realpath(dst_arg, real)) {
            snprintf(msg, msglen, "%s: symbolic link to a missing or unreachable baseline (%s); refusing to update "
                     "through it", dst_arg, strerror(errno));
            return SKB_EINVAL;
        }
        if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
            snprintf(msg, msglen, "%s: symbolic link to %s, which is not a directory; refusing to update through it",
                     dst_arg, real);
            return SKB_EINVAL;
        }
        dst = real;
    } else if (lstat(dst_arg, &st) == 0 && !S_ISDIR(st.st_mode)) {
        snprintf(msg, msglen, "%s: not a directory; refusing to replace it with a baseline", dst_arg);
        return SKB_EINVAL;
    }
    size_t n = strlen(dst);
    while (n > 1 && dst[n - 1] == '/')
        n--;
    snprintf(tmp, sizeof tmp, "%.*s.new-%ld", (int)n, dst, (long)getpid());
    snprintf(old, sizeof old, "%.*s.old-%ld", (int)n, dst, (long)getpid());
    char trimmed[PATH_MAX];
    snprintf(trimmed, sizeof trimmed, "%.*s", (int)n, dst);
    int rc = check_nesting(src, dst, msg, msglen);
    if (rc < 0)
        return rc;
    reclaim_scratch(trimmed);
    remove_tree(tmp);
    /* the staging directory is a sibling of dst, so check_nesting also keeps
     * it out of src: the copy never contains its own staging directory */
    rc = copy_tree(src, tmp, 0, msg, msglen);
    if (rc < 0) {
        remove_tree(tmp);
        return rc;
    }
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", trimmed);
    char *slash = strrchr(parent, '/');
    if (slash)
        slash == parent ? (void)(parent[1] = 0) : (void)(*slash = 0);
    else
        snprintf(parent, sizeof parent, ".");
    /* swap in one step where the kernel can (renameat2 RENAME_EXCHANGE);
     * otherwise the old baseline stays whole until the new one is complete */
    int had = lstat(trimmed, &st) == 0;
    if (had && renameat2(AT_FDCWD, tmp, AT_FDCWD, trimmed, RENAME_EXCHANGE) == 0) {
        fsync_dir(parent);
        remove_tree(tmp);
        return 0;
    }
    if (had && rename(trimmed, old) != 0) {
        snprintf(msg, msglen, "%s: cannot move the old baseline aside: %s", trimmed, strerror(errno));
        remove_tree(tmp);
        return SKB_EIO;
    }
    if (rename(tmp, trimmed) != 0) {
        snprintf(msg, msglen, "%s: cannot install the new baseline: %s", trimmed, strerror(errno));
        if (had)
            rename(old, trimmed);
        remove_tree(tmp);
        return SKB_EIO;
    }
    fsync_dir(parent);
    if (had)
        remove_tree(old);
    return 0;
}
