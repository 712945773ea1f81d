/* cpu_internal.h — the pieces of `skinbench run cpu` (harness/exp_cpu.c and
 * the cpu_*.c files it is split into): the run and its cases, the limits
 * they share, and the functions one file lends another.  Calls go one way:
 * exp_cpu.c -> cpu_cases.c -> cpu_kernels.c, exp_cpu.c -> cpu_roofline.c ->
 * cpu_results.c, exp_cpu.c and cpu_roofline.c -> cpu_paired.c ->
 * cpu_kernels.c and cpu_results.c, exp_cpu.c -> cpu_pages.c; cpu_inject.c,
 * cpu_kernels.c, cpu_results.c, cpu_method_stats.c, cpu_gbench.c and
 * cpu_pages.c call none of the others (exp_icount.c calls cpu_inject.c
 * alone, so `run icount` and `run cpu` form no circle).
 * Not a public header: nothing outside these files includes it. */
#ifndef SKB_CPU_INTERNAL_H
#define SKB_CPU_INTERNAL_H

#include <stdio.h>
#include <pthread.h>
#include "skb_dataset.h"
#include "skb_fast.h"
#include "skb_json.h"
#include "skb_method.h"
#include "skb_pages.h"
#include "skb_peers.h"
#include "skb_pool.h"
#include "skb_run.h"
#include "skb_ticker.h"

#define FULL_MIN_TIME 0.04       /* CPU seconds per repetition (budget: the whole run <= 150 s) */
#define QUICK_MIN_TIME 0.002
#define FULL_REPS 2   /* absolute times only: no verdict reads Google Benchmark (the paired engine decides), so 2, not 5 */
#define QUICK_REPS 2
#define VERIFY_POSES 4           /* poses checked per kernel and dataset */
#define BLEND_SAMPLES 97         /* vertices per checked pose compared with the blend form */
#define TOL_SKIN_VS_BLEND 1e-9   /* skin vs blend form, relative to the output extent + 1 */
#define LARGE_SOURCE "body"
#define LARGE_LEVELS 4           /* 4 splits: ~1.25M vertices, ~90 MB of float streams */
#define QUICK_LARGE_LEVELS 1
#define LARGE_POSES 8
#define RANDOM_POSE_SOURCE "bcn_human"   /* the DQ paper's kind of model: a 54-bone human */
#define RANDOM_POSES 32
#define QUICK_RANDOM_POSES 8
#define RANDOM_POSE_LIMIT (SKB_PI / 3)   /* per-joint rotation limit, radians */
/* bytes the linear fast kernel streams per vertex: position, normal (3
 * floats each), 4 weights (float), 4 joint indices (uint16) read; position
 * and normal written */
#define LBS_F32_BYTES_PER_VERTEX (12 + 12 + 16 + 8 + 12 + 12)

/* the page state of every timed buffer (cpu_pages.c): 4 KiB pages, the one
 * state every system gives on request — huge pages are handed out at fault
 * time only where the kernel finds free 2 MiB blocks (a freshly started
 * machine: many; later: few), so they would differ between processes and
 * between a kernel and its control (fast_sweep.c measures them) */
#define SKB__CPU_PAGES SKB_PAGES_SMALL

/* the accumulator of the injected work counts millionths of a deformation
 * (cpu_inject.c, "slow-down injection") */
#define INJECT_UNIT 1000000L

/* DIB's precisions timed beside its default (cpu_cases.c) */
#define SKB__CPU_NDIB_PRECISIONS 2
extern const double skb__cpu_dib_precisions[SKB__CPU_NDIB_PRECISIONS];

/* the registry names of the methods the labels below are built on: the
 * ratio reference (LBS: x/LBS, DQ paper Fig. 18) and the headline method
 * (DLB); methods/skb_method.h gives each role to one method */
static inline const char *lin_name(void)
{
    return skb_method_role_name(SKB_MF_RATIO_REF);
}

static inline const char *head_name(void)
{
    return skb_method_role_name(SKB_MF_HEADLINE);
}

/* a benchmark label: a method's name and a suffix ("@slot4", "+nrm_shader") */
static inline const char *label(char *buf, size_t n, const char *name, const char *suffix)
{
    snprintf(buf, n, "%s%s", name, suffix);
    return buf;
}

/* the label of name run on t threads (t > 1: "<name>@<t>t", the pool's) */
static inline const char *thread_label(char *buf, size_t n, const char *name, int t)
{
    if (t > 1)
        snprintf(buf, n, "%s@%dt", name, t);
    else
        snprintf(buf, n, "%s", name);
    return buf;
}

enum kind { K_DOUBLE, K_F32, K_PEER, K_COPY };

struct ds {
    struct skb_dataset d;
    double *pos, *nrm;          /* shared outputs of the double path */
    float *fpos, *fnrm;         /* shared outputs of fast kernels and peers */
    void *out_block;            /* owns the four output arrays */
    int large;
};

struct bcase {
    enum kind kind;
    char name[200], label[64];
    const char *variant;        /* double path: which variant of the method (Figure 18) */
    struct ds *ds;
    const struct skb_method *m;
    struct skb_params prm;
    struct skb_skinner sk;
    struct skb_skinner_f32 fk;
    const struct skb_peer_ops *peer;
    struct skb_peer *pp;
    char *src, *dst;
    size_t bytes;
    int threads;                /* fast kernels and copy: 1, or the pool's threads */
    struct skb_pool *pool;      /* threads > 1 */
    int next_pose, error;
    double check_error;         /* worst error found / tolerance */
    long inject_acc;            /* injected prepares owed, INJECT_UNIT = one */
    long injected;              /* SKB_INJECT_SLOWDOWN names this kernel's method: its extra
                                   work per deformation (INJECT_UNIT = one), else 0 */
    int inject_off;             /* where the next injected skin slice starts */
    int checked_poses;
    int positions_only;         /* double path: normals not deformed (cpu_paired.c's judged treatment) */
    int no_inject;              /* the injected method's twin: never given the injected work */
};

/* SKB_INJECT_SLOWDOWN as read by one run (see "slow-down injection" below);
 * twin: SKB_INJECT_TWIN=1, the method's double path also timed without the
 * injected work in the same run ("METHOD+uninjected") */
struct inject { char method[64]; double frac; long per_deform; int twin; };

struct run {
    const struct skb_run_ctx *ctx;
    struct ds *ds;
    int nds;
    struct bcase *c;
    int nc, cap;
    cJSON *failures;            /* {"case": "message"} */
    int timed_unchecked;
    struct skb_pool *pool;      /* every CPU we may run on; NULL on one CPU */
    double copy_bps[2];         /* large mesh: copy bandwidth, one thread / the pool's (bytes/s) */
    double copy_scaling;        /* large mesh: the pool's memcpy over one thread's (wall time) */
    double load[2][3];          /* load averages before and after the timing */
    /* the fast-kernel planner and the scaling curve (docs/report-and-regression.md "Fast kernels:
     * the planner"): pools of 2, 4, 8, ... threads below the full pool
     * (r->pool), the plans by dataset and row, the wisdom read */
    struct skb_pool *pools[16];
    int npools;
    cJSON *plans;
    cJSON *wisdom;
    char wisdom_path[4096];
    double plan_ms;             /* wall time all plans took */
    int nplans;
    char build[600];            /* the build's identity in the wisdom key */
    struct inject inject;       /* SKB_INJECT_SLOWDOWN, read when the run starts */
    struct {                    /* the timed buffers' page state (cpu_pages.c) */
        int buffers, advised, checked;
        double bytes;
        long huge_kib;
    } pages;
};

/* per repetition, in the order Google Benchmark ran them: with random
 * interleaving repetition i of every kernel ran in the same round, so the
 * report pairs them into per-round ratios and their interval */
#define MAX_ROUND_REPS 64
struct timing { double cpu_ms, real_ms, items_per_s; int reps; double rep_cpu_ms[MAX_ROUND_REPS], rep_real_ms[MAX_ROUND_REPS]; };

/* cpu-gbench.json while Google Benchmark writes it (cpu_gbench.c) */
struct gb_out {
    int lock_fd;
    char tmp[4112];     /* Google Benchmark's output until it is renamed */
    char final[4096];   /* DIR/cpu-gbench.json */
};

/* the progress thread while Google Benchmark times (cpu_gbench.c) */
struct ticker {
    const struct skb_run_ctx *ctx;
    double floor_s;             /* kernels x repetitions x min_time: a lower bound */
    struct skb_ticker tick;
    int on;                     /* a ticker was started (not --quiet) */
    int tty, printed;           /* stderr is a terminal: one line updated in place */
};

/* cpu_inject.c */
int skb__cpu_read_injection(struct inject *inject, char *msg, size_t msglen);
void skb__cpu_mark_injected(struct bcase *c, int n, const struct inject *inject);

/* cpu_kernels.c */
void skb__cpu_time_deform(void *arg, long iters);
void skb__cpu_time_copy(void *arg, long iters);
int skb__cpu_check_double(struct bcase *c, char *msg, size_t msglen);
int skb__cpu_check_float(struct bcase *c, const struct skb_method *ref, char *msg, size_t msglen);
int skb__cpu_check_pool(struct bcase *c, char *msg, size_t msglen);

/* cpu_cases.c */
int skb__cpu_wants_dib_sweep(const char *name);
void skb__cpu_fail_case(struct run *r, struct bcase *c, const char *msg);
void skb__cpu_double_label(char *buf, size_t len, const char *method, const char *variant, double p);
void skb__cpu_free_run(struct run *r);
int skb__cpu_load_ds(struct run *r, const char *name, int levels, int large, char *msg, size_t msglen);
void skb__cpu_add_dataset_cases(struct run *r, struct ds *ds);
int skb__cpu_load_all(struct run *r, char *msg, size_t msglen);
void skb__cpu_add_large_cases(struct run *r, struct ds *ds);

/* cpu_results.c */
struct timing skb__cpu_gbench_timing(const cJSON *gb, const char *name);
struct bcase *skb__cpu_find_case(struct run *r, enum kind k, const struct ds *ds, const char *label);
double skb__cpu_case_ms(struct run *r, const cJSON *gb, enum kind k, const struct ds *ds, const char *label);
double skb__cpu_case_real_ms(struct run *r, const cJSON *gb, const struct ds *ds, const char *label);
void skb__cpu_add_timings(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o);

/* cpu_method_stats.c */
void skb__cpu_pose_stats_block(struct ds *ds, const struct skb_run_ctx *ctx, cJSON *out);
void skb__cpu_precompute_block(struct ds *ds, const struct skb_run_ctx *ctx, cJSON *out);
void skb__cpu_dib_work_block(struct ds *ds, const struct skb_run_ctx *ctx, cJSON *o);

/* cpu_pages.c: every timed buffer resident (an error naming one that is
 * not), counted into r->pages; the cpu.json block saying so */
int skb__cpu_pages_ready(struct run *r, char *msg, size_t msglen);
void skb__cpu_pages_block(const struct run *r, cJSON *o);

/* cpu_roofline.c */
void skb__cpu_large_mesh_block(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o);

/* cpu_paired.c, after Google Benchmark's run: on the roofline mesh each
 * one-thread fast kernel over the copy and each split or planned kernel
 * over its 4-slot kernel, pair by pair, into o (the control ratios'
 * steadier form) */
void skb__cpu_paired_control(struct run *r, struct ds *ds, cJSON *o);
/* the ratios the fast-kernel targets are stated on (DLB over LBS, each
 * split kernel over its 4-slot kernel, each planned row over both fixed
 * rows), pair by pair, into fast->"paired" */
void skb__cpu_paired_targets(struct run *r, struct ds *ds, cJSON *fast);
/* the single-precision ratios of one dataset, pair by pair with each
 * control's A/A beside them (o->"paired"), their estimates as the ratio map
 * "ratio_to_linear_f32": every single-precision row over the f32 LBS (the
 * pool's in wall time); each peer over our kernel of its method */
void skb__cpu_paired_ratios(struct run *r, struct ds *ds, cJSON *o);
/* the double-path ratios of every default dataset, in rounds over the
 * datasets, settled on the quiet state: into datasets/<name>/paired (each
 * dataset's object already in datasets) with the ratio maps beside:
 * every double-path row over LBS, positions only ("ratio_to_linear",
 * judged) and with normals, DIB over DLB, SBS with spherical averages over
 * SBS, the DQS orders */
void skb__cpu_paired_figure(struct run *r, cJSON *datasets);
/* at the end of `run cpu`: up to 4 more rounds of the double-path rows (and
 * A/As) that read too few quiet pairs, each sitting settled again */
void skb__cpu_paired_catch_up(struct run *r, cJSON *datasets);

/* cpu_gbench.c */
int skb__cpu_gb_out_open(const struct skb_run_ctx *ctx, struct gb_out *g, char *msg, size_t msglen);
int skb__cpu_gb_out_commit(struct gb_out *g, char *msg, size_t msglen);
void skb__cpu_gb_out_close(struct gb_out *g);
void skb__cpu_ticker_start(struct ticker *t, const struct skb_run_ctx *ctx, double floor_s);
void skb__cpu_ticker_stop(struct ticker *t);

#endif
