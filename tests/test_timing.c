/* test_timing.c — common/skb_timing.c, the one timing engine, on works that
 * report their own (made-up) times, so nothing here depends on how fast
 * this machine is: the ratio and its interval, each side calibrated to the
 * sample length, the order alternating, the A/A floor and the widening,
 * errors passed through. */
#include "skb_test.h"
#include <math.h>
#include <string.h>
#include <cJSON.h>
#include "skb_error.h"
#include "skb_timing.h"

/* a work that takes ms_per_run a run, times (1 + wobble) on every third
 * sample (a made-up disturbance that both sides share when it hits them
 * both), and logs the order it was called in */
struct fake {
    double ms_per_run, wobble;
    int calls, fail_at, rc;
    char *log;
    char tag;
};

static int fake_timed(void *arg, long iters, double *ms)
{
    struct fake *f = arg;
    f->calls++;
    if (f->fail_at && f->calls == f->fail_at)
        return f->rc;
    *ms = f->ms_per_run * (double)iters * (f->calls % 3 == 0 ? 1 + f->wobble : 1);
    if (f->log)
        strncat(f->log, &f->tag, 1);
    return 0;
}

static struct skb_pair_opts opts(int pairs, double sample_ms)
{
    return (struct skb_pair_opts){ .pairs = pairs, .min_sample_ms = sample_ms, .clock = SKB_CLOCK_THREAD };
}

/* 3 ms against 1.5 ms a run: the ratio is 2 and its interval holds it */
static void test_ratio(void **state)
{
    (void)state;
    struct fake a = { .ms_per_run = 3 }, b = { .ms_per_run = 1.5 };
    struct skb_work wa = { .run_timed = fake_timed, .arg = &a }, wb = { .run_timed = fake_timed, .arg = &b };
    struct skb_pair_opts o = opts(11, 2);
    struct skb_pair_result r;
    assert_int_equal(skb_time_pair(&wa, &wb, &o, &r), 0);
    assert_int_equal(r.pairs, 11);
    assert_true(fabs(r.ratio - 2) < 1e-12 && r.lo <= 2 + 1e-12 && r.hi >= 2 - 1e-12);
    assert_true(fabs(r.a_ms - 3) < 1e-12 && fabs(r.b_ms - 1.5) < 1e-12);
}

/* each side calibrated on its own: 0.1 ms a run needs 24 runs for a 2 ms
 * sample (with the engine's 1.2 margin), 5 ms a run needs one (its first
 * run tells, no second) */
static void test_calibration(void **state)
{
    (void)state;
    struct fake a = { .ms_per_run = 0.1 }, b = { .ms_per_run = 5 };
    struct skb_work wa = { .run_timed = fake_timed, .arg = &a }, wb = { .run_timed = fake_timed, .arg = &b };
    struct skb_pair_opts o = opts(5, 2);
    struct skb_pair_result r;
    assert_int_equal(skb_time_pair(&wa, &wb, &o, &r), 0);
    assert_true(r.runs_a * 0.1 >= 2 && r.runs_a <= 25);   /* 24, give or take the rounding of 1.2 * 2 / 0.1 */
    assert_int_equal(r.runs_b, 1);
    assert_true(fabs(r.ratio - 0.02) < 1e-12);   /* per run, not per sample */
}

/* a first in even pairs, b first in odd ones (after calibration) */
static void test_alternating(void **state)
{
    (void)state;
    char log[64] = "";
    struct fake a = { .ms_per_run = 3, .log = log, .tag = 'a' }, b = { .ms_per_run = 3, .log = log, .tag = 'b' };
    struct skb_work wa = { .run_timed = fake_timed, .arg = &a }, wb = { .run_timed = fake_timed, .arg = &b };
    struct skb_pair_opts o = opts(4, 2);
    struct skb_pair_result r;
    assert_int_equal(skb_time_pair(&wa, &wb, &o, &r), 0);
    /* calibration: a first run each, already a sample long (3 ms >= 2 ms), then the pairs */
    assert_string_equal(log, "ababbaabba");
}

/* a trio: a over b and a2 over b from the same samples, the six orders in
 * turn; a disturbance that hits one trio hits a and a2 alike (their ratio
 * exact while each ratio to b wobbles), and a2 is required a result */
static void test_trio(void **state)
{
    (void)state;
    char log[64] = "";
    struct fake a = { .ms_per_run = 3.45, .log = log, .tag = 'a' }, b = { .ms_per_run = 3, .log = log, .tag = 'b' };
    struct fake a2 = { .ms_per_run = 3, .log = log, .tag = 'c' };
    struct skb_work wa = { .run_timed = fake_timed, .arg = &a }, wb = { .run_timed = fake_timed, .arg = &b };
    struct skb_work wa2 = { .run_timed = fake_timed, .arg = &a2 };
    struct skb_pair_opts o = opts(6, 2);
    struct skb_pair_result r, r2, r12;
    assert_int_equal(skb_time_trio(&wa, &wa2, &wb, &o, &r, &r2, &r12), 0);
    /* calibration (a, b, a2: one run each, a sample long), then the six orders */
    assert_string_equal(log, "abc" "abc" "bca" "cab" "bac" "acb" "cba");
    assert_true(fabs(r.ratio - 1.15) < 1e-12 && fabs(r2.ratio - 1) < 1e-12);
    assert_true(fabs(r.ratio / r2.ratio - 1.15) < 1e-12 && r2.runs_a == 1 && r.pairs == 6 && r2.pairs == 6);
    assert_true(fabs(r12.ratio - 1.15) < 1e-12 && r12.lo <= r12.ratio && r12.hi >= r12.ratio);
    assert_int_equal(skb_time_trio(&wa, &wa2, &wb, &o, &r, NULL, NULL), SKB_EINVAL);
}

/* A/A: the control against itself; its floor reaches as far from 1 as its
 * interval does, and widening divides / multiplies by 1 + floor */
static void test_aa_floor(void **state)
{
    (void)state;
    struct fake b = { .ms_per_run = 2, .wobble = 0.1 };
    struct skb_work wb = { .run_timed = fake_timed, .arg = &b };
    struct skb_pair_opts o = opts(31, 2);
    struct skb_pair_result aa;
    assert_int_equal(skb_time_aa(&wb, &o, &aa), 0);
    assert_true(aa.lo <= 1 && aa.hi >= 1);
    double f = skb_pair_floor(&aa);
    assert_true(f >= 0 && f < 0.1 + 1e-12);
    assert_true(f >= fabs(log(aa.hi)) - 1e-12 || f >= fabs(log(aa.lo)) - 1e-12);
    double lo, hi;
    skb_pair_widen(0.9, 1.1, 0.1, &lo, &hi);
    assert_true(fabs(lo - 0.9 / 1.1) < 1e-15 && fabs(hi - 1.21) < 1e-12);
    skb_pair_widen(0.9, 1.1, NAN, &lo, &hi);
    assert_true(lo == 0.9 && hi == 1.1);
    struct skb_pair_result none = { .ratio = 1, .lo = NAN, .hi = NAN };
    assert_true(isnan(skb_pair_floor(&none)));
}

/* a work's error stops the timing and comes back; bad options are refused */
static void test_errors(void **state)
{
    (void)state;
    struct fake a = { .ms_per_run = 3, .fail_at = 5, .rc = SKB_ENUMERIC }, b = { .ms_per_run = 3 };
    struct skb_work wa = { .run_timed = fake_timed, .arg = &a }, wb = { .run_timed = fake_timed, .arg = &b };
    struct skb_pair_opts o = opts(9, 2);
    struct skb_pair_result r;
    assert_int_equal(skb_time_pair(&wa, &wb, &o, &r), SKB_ENUMERIC);
    struct fake z = { .ms_per_run = 0 };
    struct skb_work wz = { .run_timed = fake_timed, .arg = &z };
    assert_int_equal(skb_time_pair(&wz, &wb, &o, &r), SKB_ENUMERIC);   /* a sample of no time */
    o.pairs = 0;
    assert_int_equal(skb_time_pair(&wb, &wb, &o, &r), SKB_EINVAL);
    struct skb_work empty = { 0 };
    o.pairs = 3;
    assert_int_equal(skb_time_pair(&empty, &wb, &o, &r), SKB_EINVAL);
}

/* a machine that is slowed while a shared counter of samples is inside
 * [from, to): the control 1.5x, the kernel 2x (each work its own factor,
 * as a neighbour on the core does) */
struct phase { int samples, from, to; };
struct slowed { double ms_per_run, slow; struct phase *ph; };

static int slowed_timed(void *arg, long iters, double *ms)
{
    struct slowed *w = arg;
    int n = w->ph->samples++;
    *ms = w->ms_per_run * (double)iters * (n >= w->ph->from && n < w->ph->to ? w->slow : 1);
    return 0;
}

static const cJSON *row_of(const cJSON *rows, const char *kernel)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, rows)
        if (strcmp(cJSON_GetObjectItemCaseSensitive(e, "kernel")->valuestring, kernel) == 0)
            return e;
    return NULL;
}

static double num(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k)->valuedouble;
}

/* rounds and the quiet state: a row timed in two rounds pools its pairs;
 * the first round slowed, the settled ratio is the quiet one (1.2) where
 * the pooled pairs read between 1.2 and 1.6; a row with too few quiet
 * pairs keeps all, its interval widened by how slowed its control was */
static void test_rounds_quiet(void **state)
{
    (void)state;
    struct phase ph = { 0, 0, 0 };
    struct slowed k = { 1.2, 2.0, &ph }, c = { 1.0, 1.5, &ph }, k2 = { 1.1, 2.0, &ph };
    struct skb_work wk = { .run_timed = slowed_timed, .arg = &k }, wc = { .run_timed = slowed_timed, .arg = &c };
    struct skb_work wk2 = { .run_timed = slowed_timed, .arg = &k2 };
    struct skb_pair_opts o = opts(8, 2);
    struct skb_sitting s;
    struct skb_pair_result r;
    cJSON *parent = cJSON_CreateObject();
    skb_sitting_init(&s, &o, parent);
    s.keep = 1;
    ph.to = 1000;   /* round 0: slowed throughout */
    assert_int_equal(skb_sitting_row(&s, "k", &wk, "c", &wc, "t", &r), 0);
    assert_true(fabs(r.ratio - 1.2 * 2.0 / 1.5) < 1e-9);
    assert_int_equal(skb_sitting_resume(&s, &o, parent, 1), 0);
    ph.to = 0;      /* round 1: quiet */
    assert_int_equal(skb_sitting_row(&s, "k", &wk, "c", &wc, "t", &r), 0);
    assert_int_equal(r.pairs, 16);
    assert_true(r.ratio > 1.2 + 1e-9 && r.ratio < 1.6 - 1e-9);   /* pooled: both states */
    ph.from = ph.samples + 5;   /* k2: its round-1 pairs slowed from its fifth sample on */
    ph.to = 100000;
    assert_int_equal(skb_sitting_row(&s, "k2", &wk2, "c", &wc, "t", &r), 0);
    skb_sitting_settle(&s, SKB_QUIET_TOL);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(parent, "rows"), *e = row_of(rows, "k");
    assert_non_null(e);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "quiet")));
    assert_true(fabs(num(e, "ratio") - 1.2) < 1e-9 && num(e, "ci_low") <= 1.2 + 1e-9 && num(e, "ci_high") >= 1.2 - 1e-9);
    assert_true(num(e, "quiet_pairs") == 8 && num(e, "pairs_timed") == 16 && fabs(num(e, "quiet_control_ms") - 1) < 1e-12);
    const cJSON *e2 = row_of(rows, "k2");
    assert_non_null(e2);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(e2, "quiet")));
    assert_true(num(e2, "quiet_pairs") < SKB_QUIET_MIN_PAIRS && num(e2, "contention") > 0.2);
    double w = 1 + num(e2, "contention");   /* every pair's interval, widened by it */
    assert_true(num(e2, "ci_low") <= num(e2, "ratio") / w + 1e-9 && num(e2, "ci_high") >= num(e2, "ratio") * w - 1e-9);
    cJSON_Delete(parent);
}

/* a real clock: the engine's own clocks move forward */
static void test_clocks(void **state)
{
    (void)state;
    for (int c = SKB_CLOCK_THREAD; c <= SKB_CLOCK_PROCESS; c++) {
        double t0 = skb_clock_ms((enum skb_clock)c);
        volatile double x = 0;
        for (int i = 0; i < 2000000; i++)
            x += i;
        assert_true(skb_clock_ms((enum skb_clock)c) > t0);
        assert_non_null(skb_clock_name((enum skb_clock)c));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ratio),
        cmocka_unit_test(test_calibration),
        cmocka_unit_test(test_alternating),
        cmocka_unit_test(test_trio),
        cmocka_unit_test(test_aa_floor),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_clocks),
        cmocka_unit_test(test_rounds_quiet),
    };
    return cmocka_run_group_tests_name("timing", tests, NULL, NULL);
}
