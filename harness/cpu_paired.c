/* cpu_paired.c — `run cpu`'s timings pair by pair: on the roofline mesh
 * each one-thread fast kernel over an in-process control (the copy; for a
 * split or planned kernel also its method's 4-slot kernel), and on every
 * dataset the ratios the fast-kernel targets are stated on (DLB over LBS,
 * split over 4-slot, planned over both fixed rows), which the report decides
 * the targets on (docs/report-and-regression.md "Fast kernels: the paired
 * control").
 *
 * Why: Google Benchmark times a kernel's repetitions apart from memcpy's
 * (with random interleaving, a round of every kernel lies between them:
 * seconds), and on a shared VM what the machine gives changes within
 * seconds.  Measured here (2-core AMD EPYC, one process, ten repetitions of
 * about 50 ms each): split LBS 4.82-5.74 ms, memcpy 7.72-11.42 ms, the
 * slow repetitions of each at different moments.  A ratio of two medians
 * taken seconds apart carries both swings.  Here one run of the kernel and
 * one of its control, in the same page state, go back to back (order
 * alternating, so neither always follows the other), the ratio is taken
 * per pair, and the pairs are summarised by the Hodges-Lehmann estimate of
 * their log ratios with its exact 95 % interval (common/skb_stats.h); the
 * ratio of the two fastest samples (the floor: interference only adds
 * time) is kept beside it. */
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include "cpu_internal.h"
#include "skb_stats.h"

#define PAIRS 41                /* full run: ~0.5 s per row on the roofline mesh */
#define QUICK_PAIRS 5
#define PAIRED_ALPHA 0.05
#define TARGET_PAIRS 31         /* the target ratios of each dataset */
#define SAMPLE_MS 2.0           /* CPU time of one sample at least */
#define QUICK_SAMPLE_MS 0.2

/* the thread's CPU time, as Google Benchmark's cpu_time (one thread) */
static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static double timed(void (*fn)(void *, long), void *arg, long iters)
{
    double t = cpu_ms();
    fn(arg, iters);
    return cpu_ms() - t;
}

/* the timed body of a case: a deformation, or the copy */
static void (*body(const struct bcase *c))(void *, long)
{
    return c->kind == K_COPY ? skb__cpu_time_copy : skb__cpu_time_deform;
}

/* n pairs of `iters` runs of k and as many of its control ctl: log ratio
 * per pair into lr, the fastest of each (per run) into *kmin, *cmin; -1 on
 * a kernel error (the case's own error code is set) */
static int time_pairs(struct bcase *k, struct bcase *ctl, int n, long iters, double *lr, double *kmin, double *cmin)
{
    *kmin = *cmin = INFINITY;
    for (int i = 0; i < n; i++) {
        double tk, tc;
        if (i % 2 == 0) {
            tk = timed(body(k), k, iters);
            tc = timed(body(ctl), ctl, iters);
        } else {
            tc = timed(body(ctl), ctl, iters);
            tk = timed(body(k), k, iters);
        }
        if (k->error < 0 || ctl->error < 0 || !(tk > 0) || !(tc > 0))
            return -1;
        lr[i] = log(tk / tc);
        *kmin = fmin(*kmin, tk / (double)iters);
        *cmin = fmin(*cmin, tc / (double)iters);
    }
    return 0;
}

/* one kernel over one control, appended to arr: estimate, interval, floor;
 * the estimate into *est (NAN when not measured) */
static int paired_row(struct bcase *k, struct bcase *ctl, int n, long iters, cJSON *arr, double *est)
{
    double *lr = malloc(sizeof *lr * (size_t)n), kmin, cmin, hl = NAN, lo = NAN, hi = NAN;
    int rc = lr ? time_pairs(k, ctl, n, iters, lr, &kmin, &cmin) : -1;
    if (rc == 0)
        rc = skb_hodges_lehmann(lr, n, PAIRED_ALPHA, &hl, &lo, &hi);
    free(lr);
    *est = exp(hl);
    if (rc < 0)
        return -1;
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "kernel", k->label);
    cJSON_AddStringToObject(e, "control", ctl->label);
    skb_json_add_number(e, "ratio", exp(hl));
    skb_json_add_number(e, "ci_low", exp(lo));
    skb_json_add_number(e, "ci_high", exp(hi));
    skb_json_add_number(e, "floor_ratio", kmin / cmin);
    skb_json_add_number(e, "kernel_min_ms", kmin);
    skb_json_add_number(e, "control_min_ms", cmin);
    cJSON_AddNumberToObject(e, "runs_per_sample", (double)iters);
    cJSON_AddItemToArray(arr, e);
    return 0;
}

/* a pair: the kernel and its control, each LBS's (0) or DLB's (1) label
 * with a suffix; control NULL: the memcpy control */
struct pair_spec { int khead, chead; const char *kernel, *control; };

/* the roofline mesh's pairs: every one-thread kernel of control_ratios
 * (cpu_roofline.c) over the copy, and each split kernel over its method's
 * 4-slot kernel with the same normals (the control the 2x slow mode was
 * seen against: on this VM the copy's speed follows the neighbours' memory
 * traffic, a kernel's does not) */
static const struct pair_spec control_pairs[] = {
    { 0, 0, "", NULL }, { 0, 0, "@slot4", NULL }, { 0, 0, "+nrm_shader", NULL }, { 0, 0, "@plan", NULL },
    { 1, 1, "", NULL }, { 1, 1, "@slot4", NULL }, { 1, 1, "@plan", NULL },
    { 0, 0, "", "@slot4" }, { 0, 0, "+nrm_shader", "+nrm_shader@slot4" }, { 0, 0, "@plan", "@slot4" },
    { 1, 1, "", "@slot4" }, { 1, 1, "@plan", "@slot4" },
};

/* the ratios the project's fast-kernel targets are stated on
 * (reports/reference.json fast_kernel_targets), on every dataset: DLB over
 * LBS, each split kernel over its 4-slot kernel at the same normal option,
 * and each planned row over both fixed rows of its method */
static const struct pair_spec target_pairs[] = {
    { 1, 0, "", "" }, { 0, 0, "", "@slot4" }, { 0, 0, "+nrm_shader", "+nrm_shader@slot4" }, { 1, 1, "", "@slot4" },
    { 0, 0, "@plan", "" }, { 0, 0, "@plan", "@slot4" }, { 1, 1, "@plan", "" }, { 1, 1, "@plan", "@slot4" },
};

static struct bcase *pair_case(struct run *r, struct ds *ds, int head, const char *suffix, char *l, size_t n)
{
    if (!suffix) {
        snprintf(l, n, "memcpy");
        return skb__cpu_find_case(r, K_COPY, ds, "memcpy");
    }
    struct bcase *c = skb__cpu_find_case(r, K_F32, ds, label(l, n, head ? head_name() : lin_name(), suffix));
    return c && c->error >= 0 ? c : NULL;
}

/* runs of k per sample: enough for sample_ms of the slower of k and c (a
 * deformation of a small mesh takes microseconds, near the clock's step);
 * one where sample_ms is 0 */
static long runs_per_sample(struct bcase *k, struct bcase *c, double sample_ms)
{
    if (!(sample_ms > 0))
        return 1;
    double t = fmax(timed(body(k), k, 1), timed(body(c), c, 1));
    return t > 0 && t < sample_ms ? (long)ceil(sample_ms / t) : 1;
}

/* n pairs of each of spec[0..count) on ds into o's "rows", one progress
 * line with the estimates */
static void time_rows(struct run *r, struct ds *ds, const struct pair_spec *spec, size_t count, int n,
                      double sample_ms, cJSON *o, const char *what)
{
    char line[1200];
    int len = snprintf(line, sizeof line, "%s on %s (%d pairs):", what, ds->d.name, n);
    cJSON *arr = cJSON_AddArrayToObject(o, "rows");
    for (size_t i = 0; i < count; i++) {
        char lk[64], lc[64];
        struct bcase *k = pair_case(r, ds, spec[i].khead, spec[i].kernel, lk, sizeof lk);
        struct bcase *c = pair_case(r, ds, spec[i].chead, spec[i].control, lc, sizeof lc);
        double est;
        if (!k || !c || paired_row(k, c, n, runs_per_sample(k, c, sample_ms), arr, &est) < 0)
            continue;
        if (len > 0 && (size_t)len < sizeof line)
            len += snprintf(line + len, sizeof line - (size_t)len, " %s/%s=%.4f", lk, lc, est);
    }
    skb_run_progress(r->ctx, "cpu", "%s", line);
}

void skb__cpu_paired_control(struct run *r, struct ds *ds, cJSON *o)
{
    int n = r->ctx->quick ? QUICK_PAIRS : PAIRS;
    cJSON_AddNumberToObject(o, "pairs_per_row", n);
    cJSON_AddNumberToObject(o, "memcpy_bytes_per_vertex", LBS_F32_BYTES_PER_VERTEX);
    cJSON_AddStringToObject(o, "statistic", "one run of the kernel and one of its control back to back, order "
                            "alternating, CPU time of this thread, one thread; ratio: the Hodges-Lehmann estimate "
                            "of the pairs' log ratios, exponentiated, with its exact 95 % interval; floor_ratio: "
                            "the kernel's fastest run over the control's fastest; memcpy copies 72 bytes a vertex");
    time_rows(r, ds, control_pairs, sizeof control_pairs / sizeof control_pairs[0], n, 0, o, "paired control");
}

void skb__cpu_paired_targets(struct run *r, struct ds *ds, cJSON *fast)
{
    int n = r->ctx->quick ? QUICK_PAIRS : TARGET_PAIRS;
    double sample = r->ctx->quick ? QUICK_SAMPLE_MS : SAMPLE_MS;
    cJSON *o = fast ? cJSON_AddObjectToObject(fast, "paired") : NULL;
    if (!o)
        return;
    cJSON_AddNumberToObject(o, "pairs_per_row", n);
    skb_json_add_number(o, "sample_ms", sample);
    cJSON_AddStringToObject(o, "statistic", "runs_per_sample deformations of the kernel and as many of its control "
                            "back to back (at least sample_ms each), order alternating, CPU time of this thread; "
                            "ratio: the Hodges-Lehmann estimate of the pairs' log ratios, exponentiated, with its "
                            "exact 95 % interval");
    time_rows(r, ds, target_pairs, sizeof target_pairs / sizeof target_pairs[0], n, sample, o, "paired targets");
}
