/* skb_fast_plan.h — the fast kernels' planner (harness/fast_plan.c), in the
 * spirit of FFTW's: at bind time it times every candidate kernel for the
 * mesh — layout (split / 4-slot), instruction-set entry point, how LBS
 * renormalises, then thread count — each checked against the double skin
 * first and timed for a bounded budget against the first candidate, pair
 * by pair through the one timing engine (common/skb_timing.h), and keeps
 * the first unless another is faster by its whole interval.  Choices are
 * remembered per CPU model, build and mesh shape in a wisdom file (JSON,
 * written atomically).  docs/report-and-regression.md "Fast kernels: the planner". */
#ifndef SKB_FAST_PLAN_H
#define SKB_FAST_PLAN_H

#include "skb_dataset.h"
#include "skb_fast.h"
#include "cJSON.h"

struct skb_pool;

/* none: today's fixed choice (split, the load-time clone, 8-wide estimate
 * + Newton, one thread); measure: time the candidates every run (default);
 * wisdom: reuse the wisdom file's choice for this key, measure and store it
 * when there is none */
enum skb_plan_mode { SKB_PLAN_MEASURE, SKB_PLAN_WISDOM, SKB_PLAN_NONE };
#define SKB_PLAN_DEFAULT_BUDGET_MS 50.0
#define SKB_PLAN_MAX_CANDS 64

struct skb_plan_cand {
    enum skb_f32_layout layout;
    enum skb_f32_isa isa;
    enum skb_f32_renorm renorm;
    int threads;
    int repeat;         /* skins per deformation: 1; more plants a deliberately slow candidate (tests) */
};

struct skb_plan_result {
    struct skb_plan_cand c;
    double ms;          /* median deformation over its samples, NAN when not timed */
    int iters;          /* deformations timed */
    int verified;       /* 1: matched the double skin within SKB_TOL_F32_* */
    double error;       /* worst of position and normal error over tolerance */
    /* against the incumbent (the first candidate timed), pair by pair
     * (common/skb_timing.h): the Hodges-Lehmann estimate of its time over
     * the incumbent's and its exact 95 % interval, the pairs timed; the
     * incumbent's own row: its A/A (itself against itself) */
    double ratio_to_first, ci_low, ci_high;
    int pairs;
};

struct skb_plan {
    int n;
    struct skb_plan_result r[SKB_PLAN_MAX_CANDS];
    int chosen;             /* index of the single-thread choice in r, -1: none verified */
    int threads;            /* the thread count planned for the choice (1 without a pool) */
    double one_thread_wall_ms;  /* the choice on one thread, timed (wall) beside the pools */
    double cost_ms;         /* wall time the planning took (verification included) */
    double budget_ms;       /* per candidate */
    char source[16];        /* "measured", "wisdom", "fixed" */
    char key[512];          /* the wisdom key */
};

/* what the planner times with: the outputs the timed rows use (so it sees
 * their addresses), and pools of pool_threads[i] threads */
struct skb_plan_env {
    const struct skb_method *m;
    const struct skb_dataset *d;
    const struct skb_params *prm;
    enum skb_f32_normals normals;
    float *pos, *nrm;
    struct skb_pool *const *pools;
    int npools;
    double budget_ms;
    const char *build;      /* the build's identity, part of the key */
};

/* today's fixed choice */
struct skb_plan_cand skb_plan_fixed(void);
/* the single-thread candidates for method m (LBS: every layout x available
 * instruction set x renormalisation when normals are renormalised; others:
 * the layouts); returns how many */
int skb_plan_candidates(const struct skb_method *m, enum skb_f32_normals normals, int has_nrm,
                        struct skb_plan_cand *out, int max);
/* check and time cands (single thread), choose the fastest verified, then
 * time it on every pool; 0, or an error with msg */
int skb_plan_measure(const struct skb_plan_env *e, const struct skb_plan_cand *cands, int n, struct skb_plan *out,
                     char *msg, size_t msglen);
/* the whole plan for one kernel under mode: none -> fixed, wisdom -> the
 * entry in *wisdom when it verifies (else measured and stored there) */
int skb_plan_kernel(const struct skb_plan_env *e, enum skb_plan_mode mode, cJSON *wisdom, struct skb_plan *out,
                    char *msg, size_t msglen);
/* bind and set a skinner to candidate c */
int skb_plan_bind(struct skb_skinner_f32 *s, const struct skb_method *m, const struct skb_mesh *mesh,
                  const struct skb_plan_cand *c, enum skb_f32_normals normals, char *msg, size_t msglen);
/* "split/x86-64-v4/batch8" */
void skb_plan_cand_name(const struct skb_plan_cand *c, char *buf, size_t len);
/* the plan as JSON: every candidate's time and the choice */
cJSON *skb_plan_json(const struct skb_plan *p);

/* the wisdom file: read (absent: an empty one; not a regular file, bad
 * JSON or a wrong shape: an error naming the file), written atomically
 * (a symlink, FIFO or device refused) */
int skb_wisdom_read(const char *path, cJSON **out, char *msg, size_t msglen);
int skb_wisdom_write(const char *path, const cJSON *w, char *msg, size_t msglen);
/* the default file: $XDG_CACHE_HOME/skinbench/wisdom.json, else
 * $HOME/.cache/skinbench/wisdom.json; 0 or SKB_EINVAL when neither is set */
int skb_wisdom_default_path(char *buf, size_t len);

/* `run cpu --offset-sweep` on the roofline mesh d (harness/fast_sweep.c):
 * writes cpu-offsets.json */
struct skb_run_ctx;
int skb__fast_offset_sweep(const struct skb_run_ctx *ctx, const struct skb_dataset *d, char *msg, size_t msglen);

#endif
