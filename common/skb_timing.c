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

/* one pair: a's and b's sample, a first when first_a */
static int one_pair(const struct skb_work *a, const struct skb_work *b, const struct skb_pair_opts *o,
                    const struct skb_pair_result *r, int first_a, double *x, double *y)
{
    int rc = first_a ? sample(a, r->runs_a, o->clock, x) : sample(b, r->runs_b, o->clock, y);
    if (rc >= 0)
        rc = first_a ? sample(b, r->runs_b, o->clock, y) : sample(a, r->runs_a, o->clock, x);
    return rc;
}

/* the pairs themselves: log ratio of each pair into lr, per-run times of
 * each side into ta, tb */
static int run_pairs(const struct skb_work *a, const struct skb_work *b, const struct skb_pair_opts *o,
                     struct skb_pair_result *r, double *lr, double *ta, double *tb)
{
    for (int i = 0; i < o->pairs; i++) {
        double x = 0, y = 0;
        if (o->before_pair)
            o->before_pair(o->pair_ctx, i);
        int rc = one_pair(a, b, o, r, i % 2 == 0, &x, &y);
        if (rc < 0)
            return rc;
        if (!(x > 0) || !(y > 0))
            return SKB_ENUMERIC;   /* a clock that did not move: the sample is too short to time */
        ta[i] = x / (double)r->runs_a;
        tb[i] = y / (double)r->runs_b;
        lr[i] = log(ta[i] / tb[i]);
    }
    return 0;
}

static void summarise(const struct skb_pair_opts *o, const double *lr, double *ta, double *tb,
                      struct skb_pair_result *r)
{
    double hl = NAN, lo = NAN, hi = NAN;
    int n = o->pairs;
    skb_hodges_lehmann(lr, n, o->alpha > 0 ? o->alpha : SKB_PAIR_ALPHA, &hl, &lo, &hi);
    r->ratio = exp(hl);
    r->lo = exp(lo);
    r->hi = exp(hi);
    r->a_min_ms = r->b_min_ms = INFINITY;
    for (int i = 0; i < n; i++) {
        r->a_min_ms = fmin(r->a_min_ms, ta[i]);
        r->b_min_ms = fmin(r->b_min_ms, tb[i]);
    }
    r->a_ms = skb_sorted_median(ta, n);
    r->b_ms = skb_sorted_median(tb, n);
}

int skb_time_pair(const struct skb_work *a, const struct skb_work *b, const struct skb_pair_opts *o,
                  struct skb_pair_result *r)
{
    struct skb_pair_result z = { .ratio = NAN, .lo = NAN, .hi = NAN, .a_ms = NAN, .b_ms = NAN,
                                 .a_min_ms = NAN, .b_min_ms = NAN };
    *r = z;
    if (!valid_opts(o) || !a || !b || !(a->run || a->run_timed) || !(b->run || b->run_timed))
        return SKB_EINVAL;
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    if (o->before_pair)
        o->before_pair(o->pair_ctx, 0);
    long max_runs = o->max_runs > 0 ? o->max_runs : DEFAULT_MAX_RUNS;
    int rc = 0;
    r->runs_a = o->runs_a;
    r->runs_b = o->runs_b;
    if (r->runs_a <= 0)
        rc = calibrate(a, o, max_runs, &r->runs_a);
    if (rc >= 0 && r->runs_b <= 0)
        rc = a == b ? (r->runs_b = r->runs_a, 0) : calibrate(b, o, max_runs, &r->runs_b);
    if (rc < 0)
        return rc;
    double *buf = malloc(sizeof *buf * 3 * (size_t)o->pairs);
    if (!buf)
        return SKB_ENOMEM;
    rc = run_pairs(a, b, o, r, buf, buf + o->pairs, buf + 2 * o->pairs);
    if (rc >= 0) {
        r->pairs = o->pairs;
        summarise(o, buf, buf + o->pairs, buf + 2 * o->pairs, r);
    }
    free(buf);
    r->seconds = 1e-3 * (skb_clock_ms(SKB_CLOCK_WALL) - t0);
    return rc < 0 ? rc : 0;
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
    cJSON *o = skb_pair_json(&pr);
    cJSON_AddStringToObject(o, "kernel", kernel);
    cJSON_AddStringToObject(o, "control", control);
    cJSON_AddStringToObject(o, "treatment", treatment);
    skb_json_add_number(o, "floor_ratio", pr.a_min_ms / pr.b_min_ms);
    skb_json_add_number(o, "aa_floor", f);
    cJSON_AddItemToArray(s->rows, o);
    return 0;
}
