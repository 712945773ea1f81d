/* skb_timing.h — the one timing engine: every clock the project reads, and
 * every judged ratio of two timings, timed pair by pair.
 *
 * Why pairs: on a shared machine what a core gives changes within seconds
 * (docs/report-and-regression.md "Timed verdicts: the paired engine"), so
 * two medians timed apart carry both swings; a sample of the work and one
 * of its control back to back (order alternating, so neither always
 * follows the other) see the same machine, and the ratio is taken per pair
 * (duet benchmarking, Bulej et al., ICPE 2020).  The pairs' log ratios are
 * summarised by the Hodges-Lehmann estimate with its exact interval
 * (common/skb_stats.h).  In the same sitting the control timed against
 * itself (A/A) gives this run's floor: how far from 1 a ratio of two equal
 * works reaches here; a judged interval is widened by it (skb_pair_widen).
 *   skb_clock_ms         one clock, in milliseconds
 *   skb_deadline_in      an absolute CLOCK_REALTIME time for timed waits
 *   skb_time_pair        work a over work b, pair by pair
 *   skb_time_trio        a over b and a2 over b, the three timed together
 *   skb_time_aa          work b over itself (the A/A control)
 *   skb_pair_floor       the relative floor an A/A result gives
 *   skb_pair_widen       an interval widened by a relative floor
 *   skb_pair_json        a result as a results-file object
 *   skb_sitting_*        rows timed back to back, each control's A/A once,
 *                        written as a results file's "rows" and "aa";
 *                        with keep, rows timed again in later rounds pool
 *                        their pairs, and skb_sitting_settle keeps the
 *                        pairs timed while the machine was in its quiet
 *                        state (docs/report-and-regression.md "Rounds and
 *                        the quiet state") */
#ifndef SKB_TIMING_H
#define SKB_TIMING_H

#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cJSON;

/* THREAD: the calling thread's CPU time (what other load on a shared
 * machine does not stretch: one-thread work); WALL: CLOCK_MONOTONIC
 * (work on several threads, or on a GPU); PROCESS: every thread of the
 * process (CPU time of a pool's work) */
enum skb_clock { SKB_CLOCK_THREAD, SKB_CLOCK_WALL, SKB_CLOCK_PROCESS };
double skb_clock_ms(enum skb_clock c);
/* "thread CPU time", "wall time", "process CPU time" */
const char *skb_clock_name(enum skb_clock c);
/* now + seconds on CLOCK_REALTIME, for pthread_cond_timedwait */
void skb_deadline_in(double seconds, struct timespec *out);

/* what is timed: run(arg, iters) does the work iters times (0, or a
 * negative SKB_E* that stops the timing); or run_timed, for work that
 * times itself (a GPU's timer queries): *ms its time for the iters runs */
struct skb_work {
    int (*run)(void *arg, long iters);
    int (*run_timed)(void *arg, long iters, double *ms);
    void *arg;
};

struct skb_pair_opts {
    int pairs;              /* samples of each side, >= 2 for an interval */
    double min_sample_ms;   /* a sample runs the work often enough to last this long (each side
                               calibrated on its own; 0: one run a sample) */
    enum skb_clock clock;   /* ignored by a work with run_timed */
    double alpha;           /* the interval's level is 1 - alpha (0: 0.05) */
    long max_runs;          /* cap on runs per sample (0: 1 << 20) */
    long runs_a, runs_b;    /* runs per sample of each side, fixed (0: calibrated to min_sample_ms) */
    /* called before each pair (may be NULL): work whose input changes from
     * pair to pair (a clip's frames) sets both sides' input here, so a pair
     * compares the two works on the same input */
    void (*before_pair)(void *ctx, int pair);
    void *pair_ctx;
    /* (may be NULL) each pair's per-run time of a and of b, o->pairs of
     * each: what a sitting keeps to pool rounds and gate on the quiet state */
    double *keep_a_ms, *keep_b_ms;
};

/* the default a judged ratio is timed with: 31 pairs of samples of at least
 * 2 ms, thread CPU time, 95 % */
#define SKB_PAIR_PAIRS 31
#define SKB_PAIR_SAMPLE_MS 2.0
#define SKB_PAIR_ALPHA 0.05

struct skb_pair_result {
    int pairs;
    long runs_a, runs_b;        /* runs per sample of each side */
    double ratio, lo, hi;       /* a / b: the Hodges-Lehmann estimate of the pairs' log ratios,
                                   exponentiated, and its exact interval (NAN when too few pairs) */
    double a_ms, b_ms;          /* the median time of one run of each side */
    double a_min_ms, b_min_ms;  /* the fastest */
    double seconds;             /* the whole timing, wall clock */
};

/* a over b: calibrate each side's runs per sample, then o->pairs pairs,
 * a first in even pairs and b first in odd ones.  0, SKB_EINVAL (bad
 * options), SKB_ENOMEM, or the work's own error. */
int skb_time_pair(const struct skb_work *a, const struct skb_work *b, const struct skb_pair_opts *o,
                  struct skb_pair_result *r);
/* a over b and a2 over b from the same trios: each pair times the three
 * back to back, the six orders in turn, so that a2 / a is read at the same
 * moments as both ratios (what drifts between two rows timed apart: the
 * contention a neighbour's memory traffic puts on one kernel and not on its
 * control).  runs_a fixes a's and a2's runs.  r2 required; r12 (may be
 * NULL): a over a2 from the same trios, read directly */
int skb_time_trio(const struct skb_work *a, const struct skb_work *a2, const struct skb_work *b,
                  const struct skb_pair_opts *o, struct skb_pair_result *r, struct skb_pair_result *r2,
                  struct skb_pair_result *r12);
/* b over itself: the A/A control of the sitting */
int skb_time_aa(const struct skb_work *b, const struct skb_pair_opts *o, struct skb_pair_result *r);
/* the relative floor an A/A result gives: exp(max |ln end|) - 1 over its
 * interval's ends (and its estimate); NAN when it has no interval */
double skb_pair_floor(const struct skb_pair_result *aa);
/* [lo / (1 + f), hi * (1 + f)]: an interval widened by a relative floor f
 * (f <= 0 or NAN: unchanged) */
void skb_pair_widen(double lo, double hi, double f, double *wlo, double *whi);
/* {"ratio", "ci_low", "ci_high", "pairs", "runs_per_sample", "control_runs_per_sample",
 *  "ms", "control_ms", "min_ms", "control_min_ms"} */
struct cJSON *skb_pair_json(const struct skb_pair_result *r);

/* a sitting: rows timed back to back, each control's A/A timed once per
 * treatment (the first time a row needs it) and its floor written into
 * every row of that control.  skb_sitting_init adds to parent the
 * settings ("pairs_per_row", "sample_ms", "clock", "statistic") and the
 * arrays "aa" and "rows"; a row holds skb_pair_json's fields and "kernel",
 * "control", "treatment", "floor_ratio" (fastest over fastest), "aa_floor" */
struct skb_sitting {
    struct skb_pair_opts opts;  /* a row's settings: opts.pairs may be lowered for a context row */
    int aa_pairs;               /* the A/A's pairs: the sitting's own (opts.pairs at init) */
    int keep;                   /* rows (and A/As) keep each pair's times ("pair_ms", "pair_control_ms"); a
                                   row timed again (same kernel, control, treatment) adds its pairs to itself */
    int round;                  /* with keep: the round being timed; an A/A is timed once in each */
    struct cJSON *rows, *aa;
};
void skb_sitting_init(struct skb_sitting *s, const struct skb_pair_opts *o, struct cJSON *parent);
/* a sitting begun by skb_sitting_init under parent, taken up again (a later
 * round): its rows and A/As, keep set, round as given; SKB_EINVAL when
 * parent holds no sitting */
int skb_sitting_resume(struct skb_sitting *s, const struct skb_pair_opts *o, struct cJSON *parent, int round);

/* the quiet state: on a shared machine a core is at times slowed for
 * seconds (a neighbour on the same physical core: every kernel 1.2-1.75x
 * slower in CPU time, each by its own factor, so ratios move too).  A pair
 * is quiet when its control took at most (1 + tol) times the fastest run
 * of that control anywhere in the sitting (its rows and its A/A); each kept row's
 * ratio, interval and A/A floor are then read from its quiet pairs alone
 * ("quiet": true).  A row with fewer than SKB_QUIET_MIN_PAIRS quiet pairs
 * keeps every pair, its interval widened by the slow-down its control
 * showed (median over fastest, "contention"), "quiet": false. */
/* 0.15: the control's quiet runs spread 39-44 us on arm (ref 39), its
 * slowed ones start at 49 (1.26x) */
#define SKB_QUIET_TOL 0.15
#define SKB_QUIET_MIN_PAIRS 6
void skb_sitting_settle(struct skb_sitting *s, double tol);
/* after a settle: 1 when the kept row kernel over control in treatment
 * (kernel NULL: the control's A/A) read at least want quiet pairs, 0 when
 * it did not, -1 when the sitting keeps no such row (nothing to time again) */
int skb_sitting_settled(const struct skb_sitting *s, const char *kernel, const char *control, const char *treatment,
                        int want);
/* the A/A floor of a control in a treatment, timed now if not yet; NAN
 * when its timing failed */
double skb_sitting_floor(struct skb_sitting *s, const char *control, const struct skb_work *c, const char *treatment);
/* kernel over control, appended to the rows (with the control's A/A
 * floor); *out may be NULL.  0 or the timing's error (nothing appended) */
int skb_sitting_row(struct skb_sitting *s, const char *kernel, const struct skb_work *k, const char *control,
                    const struct skb_work *c, const char *treatment, struct skb_pair_result *out);
/* kernel and kernel2 over control from the same trios (skb_time_trio): two
 * rows appended, each naming the other in "timed_with"; the first also
 * "over_timed_with" (kernel over kernel2, read trio by trio) with
 * "over_timed_with_ci_low" and "_ci_high" */
int skb_sitting_trio(struct skb_sitting *s, const char *kernel, const struct skb_work *k, const char *kernel2,
                     const struct skb_work *k2, const char *control, const struct skb_work *c, const char *treatment,
                     struct skb_pair_result *out, struct skb_pair_result *out2);

#ifdef __cplusplus
}
#endif
#endif
