/* skb_timing.c — the one timing engine (skb_timing.h): the clocks, and a
 * ratio of two works timed pair by pair with its A/A control. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cJSON.h>
#include "skb_error.h"
#include "skb_json.h"
#include "skb_stats.h"
#include "skb_timing.h"

#define DEFAULT_MAX_RUNS (1L << 20)
#define CALIBRATE_TRIES 4
#define CALIBRATE_MARGIN 1.2    /* aim past the minimum: a sample's length wanders */

static clockid_t clock_id(enum skb_clock c)
{
    return c == SKB_CLOCK_WALL ? CLOCK_MONOTONIC : c == SKB_CLOCK_PROCESS ? CLOCK_PROCESS_CPUTIME_ID
                                                                          : CLOCK_THREAD_CPUTIME_ID;
}

double skb_clock_ms(enum skb_clock c)
{
    struct timespec t;
    clock_gettime(clock_id(c), &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

const char *skb_clock_name(enum skb_clock c)
{
    return c == SKB_CLOCK_WALL ? "wall time" : c == SKB_CLOCK_PROCESS ? "process CPU time" : "thread CPU time";
}

void skb_deadline_in(double seconds, struct timespec *out)
{
    clock_gettime(CLOCK_REALTIME, out);
    double whole = floor(seconds);
    out->tv_sec += (time_t)whole;
    out->tv_nsec += (long)((seconds - whole) * 1e9);
    if (out->tv_nsec >= 1000000000L) {
        out->tv_sec++;
        out->tv_nsec -= 1000000000L;
    }
}

/* one sample: runs runs of w, its time in *ms */
static int sample(const struct skb_work *w, long runs, enum skb_clock c, double *ms)
{
    if (w->run_timed)
        return w->run_timed(w->arg, runs, ms);
    double t0 = skb_clock_ms(c);
    int rc = w->run(w->arg, runs);
    *ms = skb_clock_ms(c) - t0;
    return rc;
}

/* runs per sample so that one lasts min_ms: a warm-up run, then the count
 * scaled from what the last sample took until one reaches the minimum */
static int calibrate(const struct skb_work *w, const struct skb_pair_opts *o, long max_runs, long *runs)
{
    double ms = 0;
    long n = 1;
    int rc = sample(w, 1, o->clock, &ms);
    /* a first run (cold, so no shorter than a warm one) already as long as a
     * sample: one run a sample, no second run to find it out (a pass over a
     * crowd's clip takes seconds) */
    if (rc >= 0 && ms >= o->min_sample_ms && o->min_sample_ms > 0) {
        *runs = 1;
        return 0;
    }
    for (int k = 0; rc >= 0 && k < CALIBRATE_TRIES; k++) {
        if ((rc = sample(w, n, o->clock, &ms)) < 0 || ms >= o->min_sample_ms || n >= max_runs)
            break;
        double want = ms > 0 ? ceil(n * CALIBRATE_MARGIN * o->min_sample_ms / ms) : (double)n * 16;
        n = want < (double)max_runs ? (long)fmax(want, (double)n + 1) : max_runs;
    }
    *runs = n;
    return rc < 0 ? rc : 0;
}

static int valid_opts(const struct skb_pair_opts *o)
{
    return o && o->pairs >= 1 && o->pairs <= 100000 && o->min_sample_ms >= 0 && isfinite(o->min_sample_ms)
        && o->alpha >= 0 && o->alpha < 1 && o->max_runs >= 0 && o->runs_a >= 0 && o->runs_b >= 0;
}

/* the sides of one timing: a over b, and a2 over b from the same pairs
 * when a2 is given (a trio) */
struct sides {
    const struct skb_work *w[3];        /* a, b, a2 */
    long runs[3];
    int n;                              /* 2, or 3 with a2 */
};

/* the order of pair i: a pair alternates a first and b first; a trio goes
 * through the six orders in turn (each side first, second and last alike) */
static const int pair_order[2][3] = { { 0, 1, 2 }, { 1, 0, 2 } };
static const int trio_order[6][3] = { { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 1, 0, 2 }, { 0, 2, 1 }, { 2, 1, 0 } };

/* one pair (or trio): each side's sample in pair i's order, into t[] */
static int one_pair(const struct sides *sd, const struct skb_pair_opts *o, int i, double *t)
{
    const int *ord = sd->n == 3 ? trio_order[i % 6] : pair_order[i % 2];
    for (int j = 0; j < sd->n; j++) {
        int s = ord[j];
        int rc = sample(sd->w[s], sd->runs[s], o->clock, &t[s]);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* the pairs themselves: per-run times of each side into t[side][i] */
static int run_pairs(const struct sides *sd, const struct skb_pair_opts *o, double *t[3])
{
    for (int i = 0; i < o->pairs; i++) {
        double x[3] = { 0, 0, 0 };
        if (o->before_pair)
            o->before_pair(o->pair_ctx, i);
        int rc = one_pair(sd, o, i, x);
        if (rc < 0)
            return rc;
        for (int s = 0; s < sd->n; s++) {
            if (!(x[s] > 0))
                return SKB_ENUMERIC;   /* a clock that did not move: the sample is too short to time */
            t[s][i] = x[s] / (double)sd->runs[s];
        }
    }
    return 0;
}

/* ta over tb into r: the pairs' log ratios (into lr) summarised */
static void summarise(const struct skb_pair_opts *o, double *lr, double *ta, double *tb, struct skb_pair_result *r)
{
    double hl = NAN, lo = NAN, hi = NAN;
    int n = o->pairs;
    for (int i = 0; i < n; i++)
        lr[i] = log(ta[i] / tb[i]);
    skb_hodges_lehmann(lr, n, o->alpha > 0 ? o->alpha : SKB_PAIR_ALPHA, &hl, &lo, &hi);
    r->pairs = n;
    r->ratio = exp(hl);
    r->lo = exp(lo);
    r->hi = exp(hi);
    r->a_min_ms = r->b_min_ms = INFINITY;
    for (int i = 0; i < n; i++) {
        r->a_min_ms = fmin(r->a_min_ms, ta[i]);
        r->b_min_ms = fmin(r->b_min_ms, tb[i]);
    }
    r->a_ms = skb_sorted_median(ta, n);   /* sorts: after the ratios */
    r->b_ms = skb_sorted_median(tb, n);
}

static void result_clear(struct skb_pair_result *r)
{
    struct skb_pair_result z = { .ratio = NAN, .lo = NAN, .hi = NAN, .a_ms = NAN, .b_ms = NAN,
                                 .a_min_ms = NAN, .b_min_ms = NAN };
    if (r)
        *r = z;
}

static int usable(const struct skb_work *w)
{
    return w && (w->run || w->run_timed);
}

/* each side's runs per sample: fixed (runs_a for a and a2, runs_b) or
 * calibrated */
static int calibrate_sides(struct sides *sd, const struct skb_pair_opts *o)
{
    long max_runs = o->max_runs > 0 ? o->max_runs : DEFAULT_MAX_RUNS;
    long fixed[3] = { o->runs_a, o->runs_b, o->runs_a };
    int rc = 0;
    for (int s = 0; s < sd->n && rc >= 0; s++) {
        sd->runs[s] = fixed[s];
        if (sd->runs[s] > 0)
            continue;
        if (s == 1 && sd->w[1] == sd->w[0])
            sd->runs[1] = sd->runs[0];
        else
            rc = calibrate(sd->w[s], o, max_runs, &sd->runs[s]);
    }
    return rc;
}

int skb_time_trio(const struct skb_work *a, const struct skb_work *a2, const struct skb_work *b,
                  const struct skb_pair_opts *o, struct skb_pair_result *r, struct skb_pair_result *r2,
                  struct skb_pair_result *r12)
{
    result_clear(r);
    result_clear(r2);
    result_clear(r12);
    if (!valid_opts(o) || !usable(a) || !usable(b) || (a2 && (!usable(a2) || !r2)))
        return SKB_EINVAL;
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    if (o->before_pair)
        o->before_pair(o->pair_ctx, 0);
    struct sides sd = { .w = { a, b, a2 }, .n = a2 ? 3 : 2 };
    int rc = calibrate_sides(&sd, o);
    if (rc < 0)
        return rc;
    size_t np = (size_t)o->pairs;
    double *buf = malloc(sizeof *buf * 6 * np);
    if (!buf)
        return SKB_ENOMEM;
    double *t[3] = { buf, buf + np, buf + 2 * np }, *lr = buf + 3 * np, *tb = buf + 4 * np, *ta = buf + 5 * np;
    rc = run_pairs(&sd, o, t);
    if (rc >= 0) {
        /* b's and a's times, once more for the second and third summaries (each sorts them) */
        memcpy(tb, t[1], sizeof *tb * np);
        memcpy(ta, t[0], sizeof *ta * np);
        r->runs_a = sd.runs[0];
        r->runs_b = sd.runs[1];
        summarise(o, lr, t[0], t[1], r);
        if (a2) {
            r2->runs_a = sd.runs[2];
            r2->runs_b = sd.runs[1];
            if (r12) {
                r12->runs_a = sd.runs[0];
                r12->runs_b = sd.runs[2];
                summarise(o, lr, ta, t[2], r12);   /* before t[2] is sorted by r2's */
            }
            summarise(o, lr, t[2], tb, r2);
        }
    }
    free(buf);
    r->seconds = 1e-3 * (skb_clock_ms(SKB_CLOCK_WALL) - t0);
    if (r2)
        r2->seconds = r->seconds;
    if (r12)
        r12->seconds = r->seconds;
    return rc < 0 ? rc : 0;
}

int skb_time_pair(const struct skb_work *a, const struct skb_work *b, const struct skb_pair_opts *o,
                  struct skb_pair_result *r)
{
    return skb_time_trio(a, NULL, b, o, r, NULL, NULL);
}

int skb_time_aa(const struct skb_work *b, const struct skb_pair_opts *o, struct skb_pair_result *r)
{
    return skb_time_pair(b, b, o, r);
}

double skb_pair_floor(const struct skb_pair_result *aa)
{
    if (!aa || !(aa->lo > 0) || !(aa->hi > 0) || !(aa->ratio > 0))
        return NAN;
    double m = fmax(fabs(log(aa->lo)), fabs(log(aa->hi)));
    return exp(fmax(m, fabs(log(aa->ratio)))) - 1;
}

void skb_pair_widen(double lo, double hi, double f, double *wlo, double *whi)
{
    double k = isfinite(f) && f > 0 ? 1 + f : 1;
    *wlo = lo / k;
    *whi = hi * k;
}

cJSON *skb_pair_json(const struct skb_pair_result *r)
{
    cJSON *o = cJSON_CreateObject();
    skb_json_add_number(o, "ratio", r->ratio);
    skb_json_add_number(o, "ci_low", r->lo);
    skb_json_add_number(o, "ci_high", r->hi);
    cJSON_AddNumberToObject(o, "pairs", r->pairs);
    cJSON_AddNumberToObject(o, "runs_per_sample", (double)r->runs_a);
    cJSON_AddNumberToObject(o, "control_runs_per_sample", (double)r->runs_b);
    skb_json_add_number(o, "ms", r->a_ms);
    skb_json_add_number(o, "control_ms", r->b_ms);
    skb_json_add_number(o, "min_ms", r->a_min_ms);
    skb_json_add_number(o, "control_min_ms", r->b_min_ms);
    return o;
}

/* ---- sittings ---- */

void skb_sitting_init(struct skb_sitting *s, const struct skb_pair_opts *o, cJSON *parent)
{
    s->opts = *o;
    s->aa_pairs = o->pairs;
    if (!(s->opts.alpha > 0))
        s->opts.alpha = SKB_PAIR_ALPHA;
    cJSON_AddNumberToObject(parent, "pairs_per_row", o->pairs);
    skb_json_add_number(parent, "sample_ms", o->min_sample_ms);
    cJSON_AddStringToObject(parent, "clock", skb_clock_name(o->clock));
    cJSON_AddStringToObject(parent, "statistic", "runs_per_sample runs of the kernel and control_runs_per_sample of "
                            "its control back to back (each sample at least sample_ms), order alternating, on the "
                            "clock named; ratio: the Hodges-Lehmann estimate of the pairs' log ratios of the per-run "
                            "times, exponentiated, with its exact 95 % interval; aa: each control against itself in "
                            "the same sitting, aa_floor = exp(max |ln end|) - 1 of its interval and estimate: this "
                            "run's floor (common/skb_timing.h)");
    s->aa = cJSON_AddArrayToObject(parent, "aa");
    s->rows = cJSON_AddArrayToObject(parent, "rows");
}

static int str_item_is(const cJSON *o, const char *key, const char *want)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) && strcmp(v->valuestring, want) == 0;
}

double skb_sitting_floor(struct skb_sitting *s, const char *control, const struct skb_work *c, const char *treatment)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, s->aa)
        if (str_item_is(e, "control", control) && str_item_is(e, "treatment", treatment)) {
            const cJSON *f = cJSON_GetObjectItemCaseSensitive(e, "aa_floor");
            return cJSON_IsNumber(f) ? f->valuedouble : NAN;
        }
    struct skb_pair_result aa;
    struct skb_pair_opts ao = s->opts;
    ao.pairs = s->aa_pairs;   /* the floor of every row, however many pairs a row has */
    double f = skb_time_aa(c, &ao, &aa) < 0 ? NAN : skb_pair_floor(&aa);
    cJSON *o = skb_pair_json(&aa);
    cJSON_AddStringToObject(o, "control", control);
    cJSON_AddStringToObject(o, "treatment", treatment);
    skb_json_add_number(o, "aa_floor", f);
    cJSON_AddItemToArray(s->aa, o);
    return f;
}

/* a timed row appended to the sitting's rows */
static cJSON *add_row(struct skb_sitting *s, const struct skb_pair_result *pr, const char *kernel, const char *control,
                      const char *treatment, double f, const char *with)
{
    cJSON *o = skb_pair_json(pr);
    cJSON_AddStringToObject(o, "kernel", kernel);
    cJSON_AddStringToObject(o, "control", control);
    cJSON_AddStringToObject(o, "treatment", treatment);
    skb_json_add_number(o, "floor_ratio", pr->a_min_ms / pr->b_min_ms);
    skb_json_add_number(o, "aa_floor", f);
    if (with)
        cJSON_AddStringToObject(o, "timed_with", with);
    cJSON_AddItemToArray(s->rows, o);
    return o;
}

int skb_sitting_row(struct skb_sitting *s, const char *kernel, const struct skb_work *k, const char *control,
                    const struct skb_work *c, const char *treatment, struct skb_pair_result *out)
{
    struct skb_pair_result pr;
    double f = skb_sitting_floor(s, control, c, treatment);
    int rc = skb_time_pair(k, c, &s->opts, &pr);
    if (out)
        *out = pr;
    if (rc < 0)
        return rc;
    add_row(s, &pr, kernel, control, treatment, f, NULL);
    return 0;
}

int skb_sitting_trio(struct skb_sitting *s, const char *kernel, const struct skb_work *k, const char *kernel2,
                     const struct skb_work *k2, const char *control, const struct skb_work *c, const char *treatment,
                     struct skb_pair_result *out, struct skb_pair_result *out2)
{
    struct skb_pair_result pr, pr2, pr12;
    double f = skb_sitting_floor(s, control, c, treatment);
    int rc = skb_time_trio(k, k2, c, &s->opts, &pr, &pr2, &pr12);
    if (out)
        *out = pr;
    if (out2)
        *out2 = pr2;
    if (rc < 0)
        return rc;
    cJSON *row = add_row(s, &pr, kernel, control, treatment, f, kernel2);
    skb_json_add_number(row, "over_timed_with", pr12.ratio);
    skb_json_add_number(row, "over_timed_with_ci_low", pr12.lo);
    skb_json_add_number(row, "over_timed_with_ci_high", pr12.hi);
    add_row(s, &pr2, kernel2, control, treatment, f, kernel);
    return 0;
}
