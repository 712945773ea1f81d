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
    if (rc >= 0 && o->keep_a_ms)
        memcpy(o->keep_a_ms, t[0], sizeof *t[0] * np);
    if (rc >= 0 && o->keep_b_ms)
        memcpy(o->keep_b_ms, t[1], sizeof *t[1] * np);
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
    s->keep = 0;
    s->round = 0;
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

int skb_sitting_resume(struct skb_sitting *s, const struct skb_pair_opts *o, cJSON *parent, int round)
{
    cJSON *rows = cJSON_GetObjectItemCaseSensitive(parent, "rows"), *aa = cJSON_GetObjectItemCaseSensitive(parent, "aa");
    if (!cJSON_IsArray(rows) || !cJSON_IsArray(aa))
        return SKB_EINVAL;
    s->opts = *o;
    s->aa_pairs = o->pairs;
    if (!(s->opts.alpha > 0))
        s->opts.alpha = SKB_PAIR_ALPHA;
    s->keep = 1;
    s->round = round;
    s->rows = rows;
    s->aa = aa;
    return 0;
}

/* ---- kept pairs: a row's "pair_ms" and "pair_control_ms" ---- */

static double num_item(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void set_number(cJSON *o, const char *key, double x)
{
    cJSON_DeleteItemFromObjectCaseSensitive(o, key);
    skb_json_add_number(o, key, x);
}

static void keep_pairs(cJSON *row, const double *a, const double *b, int n)
{
    cJSON *ka = cJSON_GetObjectItemCaseSensitive(row, "pair_ms"), *kb = cJSON_GetObjectItemCaseSensitive(row, "pair_control_ms");
    if (!ka)
        ka = cJSON_AddArrayToObject(row, "pair_ms");
    if (!kb)
        kb = cJSON_AddArrayToObject(row, "pair_control_ms");
    for (int i = 0; i < n; i++) {
        cJSON_AddItemToArray(ka, cJSON_CreateNumber(a[i]));
        cJSON_AddItemToArray(kb, cJSON_CreateNumber(b[i]));
    }
}

/* the kept pairs of o into a fresh buffer: *a and *b point into it (free
 * *a); *n pairs, 0 when o keeps none */
static int kept_pairs(const cJSON *o, double **a, double **b, int *n)
{
    const cJSON *ka = cJSON_GetObjectItemCaseSensitive(o, "pair_ms"), *kb = cJSON_GetObjectItemCaseSensitive(o, "pair_control_ms");
    *a = *b = NULL;
    *n = 0;
    int m = cJSON_GetArraySize(ka);
    if (!cJSON_IsArray(ka) || !cJSON_IsArray(kb) || m == 0 || m != cJSON_GetArraySize(kb))
        return 0;
    if (!(*a = malloc(sizeof **a * 2 * (size_t)m)))
        return SKB_ENOMEM;
    *b = *a + m;
    const cJSON *x, *y = kb->child;
    int i = 0;
    cJSON_ArrayForEach(x, ka) {
        (*a)[i] = x->valuedouble;
        (*b)[i++] = y->valuedouble;
        y = y->next;
    }
    *n = m;
    return 0;
}

/* n pairs (a over b, per-run times) summarised as skb_time_pair does */
static int summarise_pairs(const double *a, const double *b, int n, double alpha, struct skb_pair_result *r)
{
    double *buf = malloc(sizeof *buf * 3 * (size_t)(n > 0 ? n : 1));
    struct skb_pair_opts o = { .pairs = n, .alpha = alpha };
    if (!buf)
        return SKB_ENOMEM;
    memcpy(buf + n, a, sizeof *buf * (size_t)n);
    memcpy(buf + 2 * n, b, sizeof *buf * (size_t)n);
    summarise(&o, buf, buf + n, buf + 2 * n, r);
    free(buf);
    return 0;
}

/* a row's (or an A/A's) numbers from r: what skb_pair_json writes */
static void set_summary(cJSON *o, const struct skb_pair_result *r, int row)
{
    set_number(o, "ratio", r->ratio);
    set_number(o, "ci_low", r->lo);
    set_number(o, "ci_high", r->hi);
    set_number(o, "pairs", r->pairs);
    set_number(o, "ms", r->a_ms);
    set_number(o, "control_ms", r->b_ms);
    set_number(o, "min_ms", r->a_min_ms);
    set_number(o, "control_min_ms", r->b_min_ms);
    if (row)
        set_number(o, "floor_ratio", r->a_min_ms / r->b_min_ms);
}

/* o's kept pairs and n more, summarised afresh into o */
static int add_pairs(cJSON *o, const double *a, const double *b, int n, double alpha, int row,
                     struct skb_pair_result *r)
{
    double *ka, *kb;
    int m, rc;
    keep_pairs(o, a, b, n);
    if ((rc = kept_pairs(o, &ka, &kb, &m)) < 0)
        return rc;
    rc = summarise_pairs(ka, kb, m, alpha, r);
    free(ka);
    if (rc == 0)
        set_summary(o, r, row);
    return rc;
}

/* ---- the A/A and the rows ---- */

static cJSON *find_aa(const struct skb_sitting *s, const char *control, const char *treatment)
{
    cJSON *e;
    cJSON_ArrayForEach(e, s->aa)
        if (str_item_is(e, "control", control) && str_item_is(e, "treatment", treatment))
            return e;
    return NULL;
}

/* the row kernel over control in treatment timed in pairs (not a trio's) */
static cJSON *find_row(const struct skb_sitting *s, const char *kernel, const char *control, const char *treatment)
{
    cJSON *e;
    cJSON_ArrayForEach(e, s->rows)
        if (str_item_is(e, "kernel", kernel) && str_item_is(e, "control", control)
            && str_item_is(e, "treatment", treatment) && !cJSON_GetObjectItemCaseSensitive(e, "timed_with"))
            return e;
    return NULL;
}

/* a kept timing: o's settings with the pairs' times kept (and, where an
 * earlier round timed it, that round's runs per sample) */
struct kept_timing {
    struct skb_pair_opts o;
    double *buf;
};

static int kept_timing_init(struct kept_timing *k, const struct skb_sitting *s, int pairs, const cJSON *earlier)
{
    k->o = s->opts;
    k->o.pairs = pairs;
    k->buf = NULL;
    if (!s->keep)
        return 0;
    if (!(k->buf = malloc(sizeof *k->buf * 2 * (size_t)pairs)))
        return SKB_ENOMEM;
    k->o.keep_a_ms = k->buf;
    k->o.keep_b_ms = k->buf + pairs;
    double ra = num_item(earlier, "runs_per_sample"), rb = num_item(earlier, "control_runs_per_sample");
    if (earlier && ra >= 1 && rb >= 1) {
        k->o.runs_a = (long)ra;
        k->o.runs_b = (long)rb;
    }
    return 0;
}

double skb_sitting_floor(struct skb_sitting *s, const char *control, const struct skb_work *c, const char *treatment)
{
    cJSON *e = find_aa(s, control, treatment);
    if (e && (!s->keep || num_item(e, "rounds") > s->round))
        return num_item(e, "aa_floor");
    struct skb_pair_result aa;
    struct kept_timing k;
    if (kept_timing_init(&k, s, s->aa_pairs, e) < 0)   /* the floor of every row, however many pairs a row has */
        return NAN;
    int rc = skb_time_aa(c, &k.o, &aa);
    if (!e) {
        e = skb_pair_json(&aa);
        cJSON_AddStringToObject(e, "control", control);
        cJSON_AddStringToObject(e, "treatment", treatment);
        cJSON_AddItemToArray(s->aa, e);
        if (s->keep && rc >= 0)
            keep_pairs(e, k.o.keep_a_ms, k.o.keep_b_ms, aa.pairs);
    } else if (rc >= 0)
        rc = add_pairs(e, k.o.keep_a_ms, k.o.keep_b_ms, k.o.pairs, s->opts.alpha, 0, &aa);
    free(k.buf);
    double f = rc < 0 ? NAN : skb_pair_floor(&aa);
    set_number(e, "aa_floor", f);
    if (s->keep)
        set_number(e, "rounds", s->round + 1);
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
    struct kept_timing kt;
    double f = skb_sitting_floor(s, control, c, treatment);
    cJSON *row = s->keep ? find_row(s, kernel, control, treatment) : NULL;
    int rc = kept_timing_init(&kt, s, s->opts.pairs, row);
    if (rc == 0)
        rc = skb_time_pair(k, c, &kt.o, &pr);
    if (rc >= 0 && row) {   /* a later round: its pairs join the row's */
        rc = add_pairs(row, kt.o.keep_a_ms, kt.o.keep_b_ms, kt.o.pairs, s->opts.alpha, 1, &pr);
        set_number(row, "aa_floor", f);
    } else if (rc >= 0) {
        row = add_row(s, &pr, kernel, control, treatment, f, NULL);
        if (s->keep)
            keep_pairs(row, kt.o.keep_a_ms, kt.o.keep_b_ms, pr.pairs);
    }
    free(kt.buf);
    if (out)
        *out = pr;
    return rc < 0 ? rc : 0;
}

/* ---- settling on the quiet state ---- */

static double min_of(const double *x, int n)
{
    double m = INFINITY;
    for (int i = 0; i < n; i++)
        m = fmin(m, x[i]);
    return m;
}

/* the fastest run of control in treatment anywhere in the sitting: every
 * kept row's control side and both sides of its A/A */
static double quiet_reference(const struct skb_sitting *s, const char *control, const char *treatment)
{
    double ref = INFINITY, *a, *b;
    int n;
    const cJSON *e;
    cJSON_ArrayForEach(e, s->rows)
        if (str_item_is(e, "control", control) && str_item_is(e, "treatment", treatment)
            && kept_pairs(e, &a, &b, &n) == 0 && n > 0) {
            ref = fmin(ref, min_of(b, n));
            free(a);
        }
    e = find_aa(s, control, treatment);
    if (e && kept_pairs(e, &a, &b, &n) == 0 && n > 0) {
        ref = fmin(ref, fmin(min_of(a, n), min_of(b, n)));
        free(a);
    }
    return ref;
}

/* o's pairs read on the quiet state: those whose control is within tol of
 * ref (an A/A: both sides).  Not the kernel's side: a kernel whose cost
 * varies from sample to sample (its poses) would keep its cheap samples
 * only.  *r from them, or from every pair widened by the control's
 * slow-down when fewer than SKB_QUIET_MIN_PAIRS are quiet */
static void settle_one(cJSON *o, double ref, double tol, double alpha, int row, struct skb_pair_result *r)
{
    double *a, *b;
    int n, q = 0;
    if (kept_pairs(o, &a, &b, &n) < 0 || n == 0)
        return;
    double amax = row ? INFINITY : ref * (1 + tol), *qa = malloc(sizeof *qa * 2 * (size_t)n);
    if (qa) {
        double *qb = qa + n;
        for (int i = 0; i < n; i++)
            if (b[i] <= ref * (1 + tol) && a[i] <= amax) {
                qa[q] = a[i];
                qb[q++] = b[i];
            }
        int quiet = q >= SKB_QUIET_MIN_PAIRS;
        if (summarise_pairs(quiet ? qa : a, quiet ? qb : b, quiet ? q : n, alpha, r) == 0) {
            double slow = skb_sorted_median(b, n) / ref - 1;   /* sorts b: after its last use */
            if (!quiet)
                skb_pair_widen(r->lo, r->hi, slow, &r->lo, &r->hi);
            set_summary(o, r, row);
            cJSON_DeleteItemFromObjectCaseSensitive(o, "quiet");
            cJSON_AddBoolToObject(o, "quiet", quiet);
            set_number(o, "pairs_timed", n);
            set_number(o, "quiet_pairs", q);
            set_number(o, "quiet_control_ms", ref);
            set_number(o, "quiet_tol", tol);
            set_number(o, "contention", slow);
        }
        free(qa);
    }
    free(a);
}

void skb_sitting_settle(struct skb_sitting *s, double tol)
{
    cJSON *e;
    struct skb_pair_result r;
    if (!s->keep)
        return;
    cJSON_ArrayForEach(e, s->aa) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "control"), *t = cJSON_GetObjectItemCaseSensitive(e, "treatment");
        if (!cJSON_IsString(c) || !cJSON_IsString(t) || !cJSON_GetObjectItemCaseSensitive(e, "pair_ms"))
            continue;
        result_clear(&r);
        settle_one(e, quiet_reference(s, c->valuestring, t->valuestring), tol, s->opts.alpha, 0, &r);
        set_number(e, "aa_floor", skb_pair_floor(&r));
    }
    /* every row of a settled control takes its floor, a row not kept (a
     * trio, timed in one sitting) too */
    cJSON_ArrayForEach(e, s->rows) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "control"), *t = cJSON_GetObjectItemCaseSensitive(e, "treatment");
        if (!cJSON_IsString(c) || !cJSON_IsString(t))
            continue;
        if (cJSON_GetObjectItemCaseSensitive(e, "pair_ms"))
            settle_one(e, quiet_reference(s, c->valuestring, t->valuestring), tol, s->opts.alpha, 1, &r);
        const cJSON *aa = find_aa(s, c->valuestring, t->valuestring);
        if (aa && cJSON_GetObjectItemCaseSensitive(aa, "pair_ms"))
            set_number(e, "aa_floor", num_item(aa, "aa_floor"));
    }
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

int skb_sitting_settled(const struct skb_sitting *s, const char *kernel, const char *control, const char *treatment,
                        int want)
{
    const cJSON *e = kernel ? find_row(s, kernel, control, treatment) : find_aa(s, control, treatment);
    if (!e || !cJSON_GetObjectItemCaseSensitive(e, "pair_ms"))
        return -1;
    return num_item(e, "quiet_pairs") >= want;
}
