/* exp_gpu_compute.c — the compute half of `skinbench run gpu` (gpu.json
 * "compute", docs/experiments.md "GPU experiment"): every shader method of
 * gpu/shader_table.c (the vertex path's and the compute-only dib, qlb0)
 * through main.comp: verified against the CPU skin path on every default
 * dataset; a vertex-count sweep that skins copies of `body` in one dispatch;
 * the device's copy bandwidth (glCopyBufferSubData, bytes read + written)
 * as the roofline, with each method's bytes per vertex and fraction of it at
 * the largest size; the per-pose joint upload on its own; memory layouts
 * (packed float3, unorm weights, narrow indices) for LBS and DLB. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_dataset.h"
#include "skb_gpu.h"
#include "skb_gpu_run.h"
#include "skb_results.h"
#include "skb_run.h"
#include "skb_timing.h"

#define CMAX 16
#define C_VERIFY_POSES_FULL 12
#define C_VERIFY_POSES_QUICK 3
#define C_WARMUP 2
#define C_REPS_HW 15
#define C_REPS_SW 5
#define C_REPS_QUICK 3
/* vertices one timed repetition skins at least (passes = this / size):
 * far above the clock's and the queue's overhead at the small sizes */
#define C_VERTS_PER_REP_HW (32L << 20)
#define C_VERTS_PER_REP_SW (256L << 10)
#define C_VERTS_PER_REP_QUICK (64L << 10)
/* the copy roofline's buffer: 256 MiB on hardware; a software renderer
 * copies with one CPU thread, 64 MiB is plenty there (stated in gpu.json) */
#define C_COPY_BYTES_HW ((size_t)256 << 20)
#define C_COPY_BYTES_SW ((size_t)64 << 20)
#define C_COPY_BYTES_QUICK ((size_t)16 << 20)
#define C_BASE_DATASET "body"

/* the sweep: about 10 k to 16 M vertices on hardware; fewer and smaller on a
 * software renderer (a 2-core CPU emulates the device there) */
static const long sizes_hw[] = { 16384, 65536, 262144, 1048576, 4194304, 16777216, 0 };
static const long sizes_sw[] = { 16384, 65536, 262144, 524288, 1048576, 0 };
static const long sizes_quick[] = { 8192, 32768, 0 };
/* the shaders every layout is measured with: LBS's (the ratios' reference,
 * named as its method) and these */
static const char *const layout_shaders[] = { "dlb_fast", NULL };

static int layout_measured(const struct skb_gpu_shader *s)
{
    if (s->method && (s->method->flags & (SKB_MF_RATIO_REF | SKB_MF_HEADLINE)) && strcmp(s->name, s->method->name) == 0)
        return 1;   /* LBS's and DLB's own shaders */
    for (int k = 0; layout_shaders[k]; k++)
        if (strcmp(s->name, layout_shaders[k]) == 0)
            return 1;
    return 0;
}

struct cstate {
    const struct skb_run_ctx *ctx;
    const struct skb_gpu *g;
    const char *dir;
    int n;
    const struct skb_gpu_shader *sh[CMAX];
    struct skb_gpu_cprogram cp[CMAX];
    double max_pos[CMAX], max_rel[CMAX], max_nrm[CMAX];
    int checked[CMAX], failed[CMAX];
    double largest_ms[CMAX];   /* at the largest size the sweep reached */
    long largest;
    int reps;
    cJSON *c, *notes, *verif;
};

static void cnote(struct cstate *cs, const char *fmt, const char *a, const char *b)
{
    char buf[1024];
    snprintf(buf, sizeof buf, fmt, a, b);
    cJSON_AddItemToArray(cs->notes, cJSON_CreateString(buf));
    skb_run_progress(cs->ctx, "gpu", "compute: %s", buf);
}

static cJSON *obj(cJSON *parent, const char *key)
{
    cJSON *o = cJSON_GetObjectItemCaseSensitive(parent, key);
    return o ? o : cJSON_AddObjectToObject(parent, key);
}

/* poses of d to verify on, with demo scale parts where d has none (for
 * the two-phase shader): sposes[k] is poses[k] with scales */
static int verify_poses(const struct cstate *cs, const struct skb_dataset *d, skb_real *scales,
                        struct skb_pose *poses, struct skb_pose *sposes, int *idx)
{
    int np = skb__gpu_pick_poses(d, cs->ctx->quick ? C_VERIFY_POSES_QUICK : C_VERIFY_POSES_FULL, idx);
    skb_gpu_demo_scales(&d->mesh, cs->ctx->seed, scales);
    for (int k = 0; k < np; k++) {
        skb_dataset_pose(d, idx[k], &poses[k]);
        sposes[k] = poses[k];
        if (!sposes[k].scale)
            sposes[k].scale = scales;
    }
    return np;
}

/* the per-vertex texels a QB / SB shader reads (made by their first pose
 * data), copied into cm; SKB_ENOTSUP: the renderer cannot hold them */
static int extras(const struct skb_gpu_shader *s, struct skb_gpu_cmesh *cm, struct skb_gpu_mesh *gm,
                  const struct skb_mesh *m, const struct skb_pose *p, char *msg, size_t msglen)
{
    int rc = skb_gpu_pose_data(s, gm, m, p, NULL, msg, msglen);
    return rc < 0 ? rc : skb_gpu_cmesh_extras(cm, gm, s, msg, msglen);
}

static void record(struct cstate *cs, int i, cJSON *v, const struct skb_gpu_check *chk)
{
    skb_json_add_number(v, "max_abs_pos", chk->max_abs_pos);
    skb_json_add_number(v, "max_abs_nrm", chk->max_abs_nrm);
    skb_json_add_number(v, "tol_pos", chk->tol_pos);
    skb_json_add_number(v, "tol_nrm", chk->tol_nrm);
    cJSON_AddBoolToObject(v, "pass", chk->pass);
    cs->max_pos[i] = fmax(cs->max_pos[i], chk->max_abs_pos);
    cs->max_nrm[i] = fmax(cs->max_nrm[i], chk->max_abs_nrm);
    cs->max_rel[i] = fmax(cs->max_rel[i], chk->max_abs_pos / chk->size);
    cs->checked[i]++;
    cs->failed[i] += !chk->pass;
}

/* every method's kernel on dataset d against its CPU skin path */
static int verify_dataset(struct cstate *cs, const struct skb_dataset *d, char *msg, size_t msglen)
{
    const struct skb_mesh *m = &d->mesh;
    struct skb_gpu_mesh gm;
    struct skb_gpu_cmesh cm;
    struct skb_pose poses[C_VERIFY_POSES_FULL], sposes[C_VERIFY_POSES_FULL];
    int idx[C_VERIFY_POSES_FULL], rc;
    if ((rc = skb_gpu_mesh_upload(m, &gm, msg, msglen)) < 0)
        return rc == SKB_ENOTSUP ? (cnote(cs, "dataset %s not verified: %s", d->name, msg), 0) : rc;
    skb_real *scales = (skb_real *)malloc(sizeof(skb_real) * 16 * (size_t)m->njoints + 1);
    if (!scales || (rc = skb_gpu_cmesh_upload(&gm, &skb_gpu_clayouts[0], gm.nverts, &cm, msg, msglen)) < 0) {
        free(scales);
        skb_gpu_mesh_free(&gm);
        return scales ? rc : SKB_ENOMEM;
    }
    int np = verify_poses(cs, d, scales, poses, sposes, idx);
    cJSON *vd = obj(cs->verif, d->name);
    for (int i = 0; i < cs->n && np > 0; i++) {
        const struct skb_gpu_shader *s = cs->sh[i];
        const struct skb_pose *pv = s->needs_scale ? sposes : poses;
        struct skb_gpu_check chk;
        cJSON *v = cJSON_AddObjectToObject(vd, s->name);
        if ((rc = extras(s, &cm, &gm, m, pv, msg, msglen)) < 0
            || (rc = skb_gpu_cverify(&cs->cp[i], &cm, &gm, m, pv, np, &chk, msg, msglen)) < 0) {
            /* no reference or no room here: say so, go on (as the vertex path) */
            cJSON_AddStringToObject(v, "unverified", msg);
            cnote(cs, "%s not verified on this dataset: %s", s->name, msg);
            msg[0] = 0;
            continue;
        }
        record(cs, i, v, &chk);
    }
    skb_gpu_cmesh_free(&cm);
    skb_gpu_mesh_free(&gm);
    free(scales);
    return 0;
}

static int verify_all(struct cstate *cs, char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { .seed = cs->ctx->seed, .quick = cs->ctx->quick, .subdivide = 0 };
    for (int i = 0; skb_dataset_sources[i]; i++) {
        const struct skb_dataset_source *src = skb_dataset_sources[i];
        struct skb_dataset d;
        char lmsg[512];
        if (!src->in_default_set)
            continue;
        if (src->load(&o, &d, lmsg, sizeof lmsg) < 0) {
            cnote(cs, "dataset %s skipped: %s", src->name, lmsg);
            continue;
        }
        snprintf(d.name, sizeof d.name, "%s", src->name);
        int rc = verify_dataset(cs, &d, msg, msglen);
        skb_dataset_free(&d);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* the sweep's mesh and pose: joints packed and per-pose data uploaded for
 * every method (untimed), each one's pack time and joint upload timed */
struct base {
    struct skb_dataset d;
    struct skb_gpu_mesh gm;
    struct skb_pose pose, spose;
    skb_real *scales;
    float *joints[CMAX];
    int ok[CMAX];
};

static void base_free(struct cstate *cs, struct base *b)
{
    for (int i = 0; i < cs->n; i++)
        free(b->joints[i]);
    free(b->scales);
    skb_gpu_mesh_free(&b->gm);
    skb_dataset_free(&b->d);
}

static int base_pose(struct cstate *cs, int i, struct base *b, double *pack_ms, char *msg, size_t msglen)
{
    const struct skb_gpu_shader *s = cs->sh[i];
    const struct skb_pose *p = s->needs_scale ? &b->spose : &b->pose;
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    int rc = skb_gpu_pack_joints(s, &b->d.mesh, p, b->joints[i], msg, msglen);
    if (rc == 0)
        rc = skb_gpu_pose_data(s, &b->gm, &b->d.mesh, p, NULL, msg, msglen);
    *pack_ms = skb_clock_ms(SKB_CLOCK_WALL) - t0;
    return rc;
}

static int base_open(struct cstate *cs, struct base *b, char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { .seed = cs->ctx->seed, .quick = cs->ctx->quick, .subdivide = 0 };
    int rc;
    memset(b, 0, sizeof *b);
    if ((rc = skb_run_dataset_load(cs->ctx, C_BASE_DATASET, &o, &b->d, msg, msglen)) < 0)
        return rc;
    if ((rc = skb_gpu_mesh_upload(&b->d.mesh, &b->gm, msg, msglen)) < 0)
        return rc;
    b->scales = (skb_real *)malloc(sizeof(skb_real) * 16 * (size_t)b->d.mesh.njoints + 1);
    if (!b->scales)
        return SKB_ENOMEM;
    skb_gpu_demo_scales(&b->d.mesh, cs->ctx->seed, b->scales);
    skb_dataset_pose(&b->d, b->d.nposes / 2, &b->pose);   /* mid-clip */
    b->spose = b->pose;
    if (!b->spose.scale)
        b->spose.scale = b->scales;
    cJSON *pk = obj(cs->c, "joint_pack_ms"), *up = obj(cs->c, "joint_upload_ms");
    for (int i = 0; i < cs->n; i++) {
        double pack[C_REPS_HW], upl[C_REPS_HW];
        b->joints[i] = (float *)malloc(sizeof(float) * skb_gpu_joint_floats(cs->sh[i], &b->d.mesh) + 1);
        if (!b->joints[i])
            return SKB_ENOMEM;
        for (int k = 0; k < cs->reps; k++) {
            if ((rc = base_pose(cs, i, b, &pack[k], msg, msglen)) == 0)
                rc = skb_gpu_joint_upload_ms(&cs->cp[i], &b->gm, b->joints[i], &upl[k], msg, msglen);
            if (rc < 0)
                break;
        }
        if (rc == SKB_ENOTSUP) {
            cnote(cs, "%s not timed: %s", cs->sh[i]->name, msg);
            msg[0] = 0;
            continue;
        }
        if (rc < 0)
            return rc;
        b->ok[i] = 1;
        skb_json_add_number(pk, cs->sh[i]->name, skb_sorted_median(pack, cs->reps));
        skb_json_add_number(up, cs->sh[i]->name, skb_sorted_median(upl, cs->reps));
    }
    return 0;
}

/* DIB's iterations per vertex on the device (main.comp's normal w), over
 * the sweep's base mesh and pose */
static void dib_iterations(struct cstate *cs, struct base *b, struct skb_gpu_cmesh *cm)
{
    int n = b->gm.nverts < cm->nverts ? b->gm.nverts : (int)cm->nverts;
    char msg[512];
    float *pos = (float *)malloc(sizeof(float) * 7 * (size_t)n + 1);
    for (int i = 0; pos && i < cs->n; i++) {
        if (!(cs->sh[i]->method->flags & SKB_MF_HEAT_REF) || !b->ok[i]
            || skb_gpu_cskin(&cs->cp[i], cm, &b->gm, b->joints[i], n, pos, pos + 3 * n, pos + 6 * n, msg, sizeof msg) < 0)
            continue;
        double sum = 0, mx = 0;
        for (int v = 0; v < n; v++) {
            sum += pos[6 * n + v];
            mx = fmax(mx, pos[6 * n + v]);
        }
        cJSON *it = cJSON_AddObjectToObject(cs->c, "dib_iterations");
        cJSON_AddStringToObject(it, "dataset", b->d.name);
        cJSON_AddNumberToObject(it, "pose", b->d.nposes / 2);
        skb_json_add_number(it, "mean", sum / n);
        skb_json_add_number(it, "max", mx);
    }
    free(pos);
}

/* warm-up, then repetitions interleaved across methods (load from other
 * processes drifts over all alike); the joint upload of each repetition
 * happens outside the timed dispatches */
static int time_methods(struct cstate *cs, struct skb_gpu_cprogram *cp, struct base *b, struct skb_gpu_cmesh *cm,
                        const int *run, int passes, double *t, char *msg, size_t msglen)
{
    double warm;
    int rc;
    for (int i = 0; i < cs->n; i++)
        if (run[i]) {
            skb_gpu_cbind(&cp[i], cm, &b->gm, b->joints[i]);
            if ((rc = skb_gpu_ctime_rep(cs->g, cm, C_WARMUP, &warm, msg, msglen)) < 0)
                return rc;
        }
    for (int k = 0; k < cs->reps; k++)
        for (int i = 0; i < cs->n; i++)
            if (run[i]) {
                skb_gpu_cbind(&cp[i], cm, &b->gm, b->joints[i]);
                if ((rc = skb_gpu_ctime_rep(cs->g, cm, passes, &t[i * cs->reps + k], msg, msglen)) < 0)
                    return rc;
            }
    return 0;
}

static void add_times(cJSON *e, const char *name, double *t, int reps)
{
    skb_sort_doubles(t, reps);
    skb_json_add_number(obj(e, "ms"), name, skb_sorted_median(t, reps));
    skb_json_add_number(obj(e, "ms_q1"), name, skb_sorted_quantile(t, reps, 0.25));
    skb_json_add_number(obj(e, "ms_q3"), name, skb_sorted_quantile(t, reps, 0.75));
}

static int passes_for(const struct cstate *cs, long n)
{
    long per = cs->ctx->quick ? C_VERTS_PER_REP_QUICK : cs->g->software ? C_VERTS_PER_REP_SW : C_VERTS_PER_REP_HW;
    long p = per / n;
    return p < 1 ? 1 : (int)p;
}

/* one size of the sweep; SKB_ENOMEM: the device refused the buffers */
static int sweep_size(struct cstate *cs, struct base *b, long n, cJSON *sweep, double *t, char *msg, size_t msglen)
{
    struct skb_gpu_cmesh cm;
    int run[CMAX], rc, passes = passes_for(cs, n);
    if ((rc = skb_gpu_cmesh_upload(&b->gm, &skb_gpu_clayouts[0], n, &cm, msg, msglen)) < 0)
        return rc;
    for (int i = 0; i < cs->n; i++) {
        run[i] = b->ok[i] && skb_gpu_cmesh_extras(&cm, &b->gm, cs->sh[i], msg, msglen) == 0;
        if (b->ok[i] && !run[i]) {
            char what[96];
            snprintf(what, sizeof what, "%s at %ld vertices", cs->sh[i]->name, n);
            cnote(cs, "%s not timed: %s", what, msg);
        }
        msg[0] = 0;
    }
    if (!cJSON_GetObjectItemCaseSensitive(cs->c, "dib_iterations"))
        dib_iterations(cs, b, &cm);
    /* the extras of QB and SB share a buffer: each of those is timed on
     * its own after refreshing it, the others together */
    int others[CMAX] = { 0 };
    rc = 0;
    for (int i = 0; i < cs->n && rc == 0; i++) {
        int one[CMAX] = { 0 };
        if (!run[i])
            continue;
        if (cs->sh[i]->layout != SKB_GPU_LAYOUT_QT_QB && cs->sh[i]->layout != SKB_GPU_LAYOUT_QT_SB && cs->sh[i]->layout != SKB_GPU_LAYOUT_QT_COR) {
            others[i] = 1;
            continue;
        }
        one[i] = 1;
        if ((rc = skb_gpu_cmesh_extras(&cm, &b->gm, cs->sh[i], msg, msglen)) == 0)
            rc = time_methods(cs, cs->cp, b, &cm, one, passes, t, msg, msglen);
    }
    if (rc == 0)
        rc = time_methods(cs, cs->cp, b, &cm, others, passes, t, msg, msglen);
    skb_gpu_cmesh_free(&cm);
    if (rc < 0)
        return rc;
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "vertices", (double)n);
    cJSON_AddNumberToObject(e, "passes", passes);
    for (int i = 0; i < cs->n; i++)
        if (run[i]) {
            add_times(e, cs->sh[i]->name, t + i * cs->reps, cs->reps);
            cs->largest_ms[i] = skb_sorted_median(t + i * cs->reps, cs->reps);
        } else
            cs->largest_ms[i] = NAN;
    cJSON_AddItemToArray(sweep, e);
    cs->largest = n;
    skb_run_progress(cs->ctx, "gpu", "compute sweep %8ld vertices: lbs %.4f ms", n, cs->largest_ms[0]);
    return 0;
}

static int sweep(struct cstate *cs, struct base *b, char *msg, size_t msglen)
{
    const long *sizes = cs->ctx->quick ? sizes_quick : cs->g->software ? sizes_sw : sizes_hw;
    double *t = (double *)malloc(sizeof(double) * CMAX * (size_t)cs->reps);
    cJSON *sw = cJSON_AddArrayToObject(cs->c, "sweep");
    int rc = t ? 0 : SKB_ENOMEM;
    for (int k = 0; sizes[k] && rc == 0; k++) {
        rc = sweep_size(cs, b, sizes[k], sw, t, msg, msglen);
        if (rc == SKB_ENOMEM) {
            char n[32];
            snprintf(n, sizeof n, "%ld", sizes[k]);
            cnote(cs, "sweep stopped at %s vertices: %s", n, msg);
            msg[0] = 0;
            rc = 0;
            break;
        }
    }
    free(t);
    return rc;
}

/* ---- DQ paper Fig. 1 on the compute path, dispatch pairs ---- */

#define C_FIG1_SIZE_SW 262144L   /* a software renderer: dispatches of tenths of a second at most */

/* one method's dispatches as the timing engine's work: it times itself
 * (skb_gpu_ctime_rep: the GPU's timer queries on hardware) */
struct gpu_work {
    struct cstate *cs;
    struct skb_gpu_cprogram *cp;
    struct skb_gpu_cmesh *cm;
    struct base *b;
    int i;
    char msg[256];
};

static int dispatch_work(void *arg, long iters, double *ms)
{
    struct gpu_work *w = arg;
    double per = NAN;
    skb_gpu_cbind(w->cp, w->cm, &w->b->gm, w->b->joints[w->i]);
    int rc = skb_gpu_ctime_rep(w->cs->g, w->cm, (int)iters, &per, w->msg, sizeof w->msg);
    *ms = per * (double)iters;
    return rc;
}

static int shader_with(const struct cstate *cs, const struct base *b, unsigned flag)
{
    for (int i = 0; i < cs->n; i++)
        if (b->ok[i] && cs->sh[i]->method && (cs->sh[i]->method->flags & flag)
            && strcmp(cs->sh[i]->name, cs->sh[i]->method->name) == 0)
            return i;
    return -1;
}

/* Fig. 1's pairs (log-matrix and SBS against DLB), each dispatch of the
 * other method and one of DLB's back to back, order alternating, at the
 * sweep's largest size (a software renderer's capped): gpu.json
 * compute.fig1_paired; judged only on a hardware renderer (the report) */
static int fig1_pairs(struct cstate *cs, struct base *b, char *msg, size_t msglen)
{
    int di = shader_with(cs, b, SKB_MF_HEADLINE), others[2] = { shader_with(cs, b, SKB_MF_LOG_BLEND),
                                                                shader_with(cs, b, SKB_MF_ROT_CENTERS) };
    long n = cs->g->software && cs->largest > C_FIG1_SIZE_SW ? C_FIG1_SIZE_SW : cs->largest;
    struct skb_gpu_cmesh cm;
    if (di < 0 || n <= 0)
        return 0;
    int rc = skb_gpu_cmesh_upload(&b->gm, &skb_gpu_clayouts[0], n, &cm, msg, msglen);
    if (rc < 0)
        return rc == SKB_ENOMEM ? 0 : rc;
    struct skb_pair_opts po = { .pairs = cs->ctx->quick ? 6 : SKB_PAIR_PAIRS,
                                .min_sample_ms = cs->ctx->quick ? 0.2 : SKB_PAIR_SAMPLE_MS, .clock = SKB_CLOCK_WALL };
    struct skb_sitting st;
    cJSON *o = cJSON_AddObjectToObject(cs->c, "fig1_paired");
    cJSON_AddNumberToObject(o, "vertices", (double)n);
    cJSON_AddStringToObject(o, "timer", cs->g->software ? "CLOCK_MONOTONIC around the dispatches + glFinish (a "
                            "software renderer's timer query reads 0)" : "GL_TIME_ELAPSED queries");
    skb_sitting_init(&st, &po, o);
    struct gpu_work wd = { cs, &cs->cp[di], &cm, b, di, "" };
    struct skb_work d = { .run_timed = dispatch_work, .arg = &wd };
    for (int k = 0; k < 2 && rc == 0; k++) {
        int i = others[k];
        if (i < 0)
            continue;
        struct gpu_work wo = { cs, &cs->cp[i], &cm, b, i, "" };
        struct skb_work w = { .run_timed = dispatch_work, .arg = &wo };
        /* DLB reads no extras: the other method's stay bound through its pairs */
        if ((rc = skb_gpu_cmesh_extras(&cm, &b->gm, cs->sh[i], msg, msglen)) == 0
            && (rc = skb_sitting_row(&st, cs->sh[i]->name, &w, cs->sh[di]->name, &d, "compute dispatch", NULL)) < 0)
            snprintf(msg, msglen, "compute: Fig. 1 pairs %s / %s: %s", cs->sh[i]->name, cs->sh[di]->name,
                     wo.msg[0] ? wo.msg : wd.msg[0] ? wd.msg : skb_strerror(rc));
    }
    skb_gpu_cmesh_free(&cm);
    return rc;
}

static void roofline(struct cstate *cs, char *msg, size_t msglen)
{
    size_t bytes = cs->ctx->quick ? C_COPY_BYTES_QUICK : cs->g->software ? C_COPY_BYTES_SW : C_COPY_BYTES_HW;
    static const char *const key[2] = { "buffer_copy_GBps", "shader_copy_GBps" };
    static const char *const what[2] = { "glCopyBufferSubData", "shader copy" };
    double gb[2][C_REPS_HW], med[2] = { NAN, NAN };
    for (int k = 0; k < 2; k++) {
        if (skb_gpu_copy_bandwidth(cs->g, bytes, cs->reps, k, gb[k], msg, msglen) < 0) {
            cnote(cs, "no %s bandwidth: %s", what[k], msg);
            msg[0] = 0;
            continue;
        }
        med[k] = skb_sorted_median(gb[k], cs->reps);
        skb_json_add_number(cs->c, key[k], med[k]);
    }
    /* the roofline is the faster copy: on the H100 glCopyBufferSubData ran on
     * a copy engine at a fraction of what the shader cores move */
    int b = !(med[0] >= med[1]);
    if (!isfinite(med[b]))
        return;
    cJSON_AddNumberToObject(cs->c, "copy_bytes", (double)bytes);
    cJSON_AddStringToObject(cs->c, "copy_bandwidth_source", what[b]);
    skb_json_add_number(cs->c, "copy_bandwidth_GBps", med[b]);
    skb_json_add_number(cs->c, "copy_bandwidth_GBps_q1", skb_sorted_quantile(gb[b], cs->reps, 0.25));
    skb_json_add_number(cs->c, "copy_bandwidth_GBps_q3", skb_sorted_quantile(gb[b], cs->reps, 0.75));
}

/* vertices/s, bytes per vertex and the fraction of the copy rate at time ms */
static void rates(cJSON *e, const char *name, const struct skb_gpu_shader *s, const struct skb_gpu_clayout *L,
                  long n, double ms, double copy)
{
    int bpv = skb_gpu_cbytes_per_vertex(s, L);
    double vps = ms > 0 ? n / (ms * 1e-3) : NAN;
    cJSON_AddNumberToObject(obj(e, "bytes_per_vertex"), name, bpv);
    if (!isfinite(vps))
        return;
    skb_json_add_number(obj(e, "vertices_per_s"), name, vps);
    if (copy > 0)
        skb_json_add_number(obj(e, "fraction_of_copy"), name, vps * bpv / (copy * 1e9));
}

static double copy_gbps(const struct cstate *cs)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(cs->c, "copy_bandwidth_GBps");
    return cJSON_IsNumber(c) ? c->valuedouble : NAN;
}

static void derived(struct cstate *cs)
{
    cJSON_AddNumberToObject(cs->c, "largest_vertices", (double)cs->largest);
    for (int i = 0; i < cs->n; i++) {
        rates(cs->c, cs->sh[i]->name, cs->sh[i], &skb_gpu_clayouts[0], cs->largest, cs->largest_ms[i], copy_gbps(cs));
        if (isfinite(cs->largest_ms[i]) && isfinite(cs->largest_ms[0]))
            skb_json_add_number(obj(cs->c, "ratio_to_lbs"), cs->sh[i]->name, cs->largest_ms[i] / cs->largest_ms[0]);
    }
}

/* one layout's kernel of method i on the base mesh with the layout's
 * weights: against the CPU on those weights (the kernel, standard
 * tolerance), and against the CPU on the float weights (what the layout
 * costs in accuracy, reported, not judged) */
static int layout_verify(struct cstate *cs, struct skb_gpu_cprogram *cp, struct skb_gpu_mesh *gq,
                         const struct skb_mesh *mq, const struct skb_dataset *d, cJSON *le, char *msg, size_t msglen)
{
    struct skb_gpu_cmesh cm;
    struct skb_pose poses[C_VERIFY_POSES_FULL], sposes[C_VERIFY_POSES_FULL];
    struct skb_gpu_check chk, q;
    int idx[C_VERIFY_POSES_FULL], rc;
    skb_real *scales = (skb_real *)malloc(sizeof(skb_real) * 16 * (size_t)d->mesh.njoints + 1);
    if (!scales)
        return SKB_ENOMEM;
    int np = verify_poses(cs, d, scales, poses, sposes, idx);
    if ((rc = skb_gpu_cmesh_upload(gq, cp->L, gq->nverts, &cm, msg, msglen)) == 0) {
        if ((rc = skb_gpu_cverify(cp, &cm, gq, mq, poses, np, &chk, msg, msglen)) == 0)
            rc = skb_gpu_cverify(cp, &cm, gq, &d->mesh, poses, np, &q, msg, msglen);
        skb_gpu_cmesh_free(&cm);
    }
    free(scales);
    if (rc < 0)
        return rc;
    const char *name = cp->p.s->name;
    cJSON_AddBoolToObject(obj(le, "verified"), name, chk.pass);
    skb_json_add_number(obj(le, "max_abs_error"), name, chk.max_abs_pos);
    skb_json_add_number(obj(le, "max_rel_error"), name, chk.max_abs_pos / chk.size);
    skb_json_add_number(obj(le, "quantization_error_rel"), name, q.max_abs_pos / q.size);
    return chk.pass ? 0 : 1;
}

/* layout L for the layout methods: verified on the base mesh, timed at the
 * sweep's largest size; returns failed verifications */
static int one_layout(struct cstate *cs, struct base *b, const struct skb_gpu_clayout *L, cJSON *lo,
                      char *msg, size_t msglen)
{
    struct skb_mesh mq = b->d.mesh;
    struct skb_gpu_mesh gq;
    struct skb_gpu_cmesh cm;
    struct skb_gpu_cprogram cp[CMAX];
    int run[CMAX] = { 0 }, bad = 0, rc;
    skb_real *w = (skb_real *)malloc(sizeof(skb_real) * 4 * (size_t)mq.nverts + 1);
    double *t = (double *)malloc(sizeof(double) * CMAX * (size_t)cs->reps);
    memset(cp, 0, sizeof cp);
    if (!w || !t) {
        free(w);
        free(t);
        return SKB_ENOMEM;
    }
    skb_gpu_quantize_weights(&b->d.mesh, L->weight_bits, w);
    mq.weight = w;
    cJSON *le = cJSON_AddObjectToObject(lo, L->name);
    cJSON_AddStringToObject(le, "title", L->title);
    if ((rc = skb_gpu_mesh_upload(&mq, &gq, msg, msglen)) < 0)
        goto out;
    for (int i = 0; i < cs->n; i++)
        if (layout_measured(cs->sh[i]) && b->ok[i]) {
            if ((rc = skb_gpu_cprogram_build(cs->dir, cs->sh[i], NULL, L, &cp[i], msg, msglen)) < 0
                || (rc = layout_verify(cs, &cp[i], &gq, &mq, &b->d, le, msg, msglen)) < 0)
                goto free_gq;
            bad += rc;
            run[i] = 1;
        }
    if ((rc = skb_gpu_cmesh_upload(&gq, L, cs->largest, &cm, msg, msglen)) == 0) {
        rc = time_methods(cs, cp, b, &cm, run, passes_for(cs, cs->largest), t, msg, msglen);
        skb_gpu_cmesh_free(&cm);
    }
    for (int i = 0; i < cs->n && rc == 0; i++)
        if (run[i]) {
            add_times(le, cs->sh[i]->name, t + i * cs->reps, cs->reps);
            rates(le, cs->sh[i]->name, cs->sh[i], L, cs->largest, skb_sorted_median(t + i * cs->reps, cs->reps),
                  copy_gbps(cs));
        }
free_gq:
    skb_gpu_mesh_free(&gq);
out:
    for (int i = 0; i < cs->n; i++)
        skb_gpu_cprogram_free(&cp[i]);
    free(w);
    free(t);
    return rc < 0 ? rc : bad;
}

static int layouts(struct cstate *cs, struct base *b, char *msg, size_t msglen)
{
    cJSON *lo = cJSON_AddObjectToObject(cs->c, "layouts");
    int bad = 0;
    cJSON_AddNumberToObject(lo, "vertices", (double)cs->largest);
    cJSON_AddStringToObject(lo, "dataset", b->d.name);
    for (int k = 0; skb_gpu_clayouts[k].name; k++) {
        int rc = one_layout(cs, b, &skb_gpu_clayouts[k], lo, msg, msglen);
        if (rc == SKB_ENOMEM || rc == SKB_ENOTSUP) {
            cnote(cs, "layout %s not run: %s", skb_gpu_clayouts[k].name, msg);
            msg[0] = 0;
            continue;
        }
        if (rc < 0)
            return rc;
        bad += rc;
    }
    return bad;
}

static void header(struct cstate *cs)
{
    cJSON *c = cs->c;
    cJSON_AddStringToObject(c, "renderer", cs->g->renderer);
    cJSON_AddBoolToObject(c, "software_renderer", cs->g->software);
    cJSON_AddStringToObject(c, "timing_method", cs->g->software
        ? "CLOCK_MONOTONIC around back-to-back dispatches + glFinish (a software renderer's timer query reads 0), "
          "per dispatch; a storage barrier between dispatches"
        : "GL_TIME_ELAPSED around back-to-back dispatches, per dispatch; a storage barrier between dispatches");
    cJSON_AddNumberToObject(c, "local_size", SKB_GPU_LOCAL_SIZE);
    cJSON_AddNumberToObject(c, "warmup_dispatches", C_WARMUP);
    cJSON_AddNumberToObject(c, "repetitions", cs->reps);
    cJSON_AddStringToObject(c, "sweep_dataset", C_BASE_DATASET);
    cJSON_AddStringToObject(c, "sweep_note",
        "each size skins copies of the sweep dataset's vertices (vertex i is vertex i mod n; buffers hold every "
        "copy, so each vertex is read from memory) in one dispatch, at the dataset's mid-clip pose");
    cJSON_AddStringToObject(c, "bytes_note",
        "bytes per vertex = bytes read (position, normal, 4 indices, 4 weights; QB's centre and 4 pair texel ints; "
        "SB's 6 set texel ints) + bytes written (position, normal) in the layout; joint data and texture-buffer "
        "texels, shared by all vertices, not counted; the copy bandwidth counts bytes read + written the same way");
    cJSON_AddStringToObject(c, "joint_upload_note",
        "joint_upload_ms: CPU clock around one pose's joint-block upload + glFinish, outside the timed dispatches; "
        "joint_pack_ms: the CPU conversion of one pose before it (quaternions, logs; SB centres, QB pairs)");
    if (cs->g->software)
        cJSON_AddStringToObject(c, "label", "SOFTWARE RENDERER: compute shaders emulated on the CPU by Mesa; "
                                "context, not a GPU's figures");
}

static void finish_verified(struct cstate *cs, int *bad)
{
    cJSON *ver = cJSON_AddObjectToObject(cs->c, "verified");
    cJSON *mae = cJSON_AddObjectToObject(cs->c, "max_abs_error");
    cJSON *mre = cJSON_AddObjectToObject(cs->c, "max_rel_error");
    cJSON *man = cJSON_AddObjectToObject(cs->c, "max_abs_error_normal");
    for (int i = 0; i < cs->n; i++) {
        const char *name = cs->sh[i]->name;
        cJSON_AddBoolToObject(ver, name, cs->checked[i] > 0 && cs->failed[i] == 0);
        *bad += !(cs->checked[i] > 0 && cs->failed[i] == 0);
        if (!cs->checked[i])
            continue;
        skb_json_add_number(mae, name, cs->max_pos[i]);
        skb_json_add_number(mre, name, cs->max_rel[i]);
        skb_json_add_number(man, name, cs->max_nrm[i]);
    }
}

static void phase(struct cstate *cs, const char *name, double *t0)
{
    double t = skb_clock_ms(SKB_CLOCK_WALL);
    skb_json_add_number(obj(cs->c, "phase_seconds"), name, (t - *t0) * 1e-3);
    *t0 = t;
}

static int compute_body(struct cstate *cs, int *bad, char *msg, size_t msglen)
{
    struct base b;
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    int rc;
    for (int i = 0; i < cs->n; i++)
        if ((rc = skb_gpu_cprogram_build(cs->dir, cs->sh[i], NULL, &skb_gpu_clayouts[0], &cs->cp[i], msg, msglen)) < 0)
            return rc;
    phase(cs, "build", &t0);
    if ((rc = verify_all(cs, msg, msglen)) < 0)
        return rc;
    finish_verified(cs, bad);
    phase(cs, "verify", &t0);
    if ((rc = base_open(cs, &b, msg, msglen)) < 0 || (rc = sweep(cs, &b, msg, msglen)) < 0) {
        base_free(cs, &b);
        return rc;
    }
    phase(cs, "sweep", &t0);
    if ((rc = fig1_pairs(cs, &b, msg, msglen)) < 0) {
        base_free(cs, &b);
        return rc;
    }
    phase(cs, "fig1_pairs", &t0);
    roofline(cs, msg, msglen);
    derived(cs);
    phase(cs, "roofline", &t0);
    rc = cs->largest > 0 ? layouts(cs, &b, msg, msglen) : 0;
    phase(cs, "layouts", &t0);
    base_free(cs, &b);
    if (rc < 0)
        return rc;
    *bad += rc;
    return 0;
}

int skb__gpu_compute(const struct skb_run_ctx *ctx, const struct skb_gpu *g, const char *dir, cJSON *root,
                     int *bad, char *msg, size_t msglen)
{
    if (ctx->dataset_file) {   /* the report's row says why, not "no compute" */
        cJSON_AddStringToObject(root, "compute_not_run", "run --dataset: the compute path sweeps copies of the "
                                "catalogue's " C_BASE_DATASET " up to millions of vertices, a throughput figure of "
                                "the GPU, not of a model; run without --dataset for it");
        return 0;
    }
    struct cstate *cs = (struct cstate *)calloc(1, sizeof *cs);
    int rc;
    if (!cs)
        return SKB_ENOMEM;
    cs->ctx = ctx;
    cs->g = g;
    cs->dir = dir;
    cs->reps = ctx->quick ? C_REPS_QUICK : g->software ? C_REPS_SW : C_REPS_HW;
    cs->c = cJSON_AddObjectToObject(root, "compute");
    header(cs);
    cs->verif = cJSON_AddObjectToObject(cs->c, "verification");
    cs->notes = cJSON_AddArrayToObject(cs->c, "notes");
    for (int i = 0; skb_gpu_shaders[i].name && cs->n < CMAX; i++) {
        const struct skb_method *cpu = skb_gpu_shaders[i].method;
        if (i == 0 || !cpu || skb_run_wants_method(ctx, cpu))   /* LBS always: the ratios' reference */
            cs->sh[cs->n++] = &skb_gpu_shaders[i];
    }
    double t0 = skb_clock_ms(SKB_CLOCK_WALL);
    rc = compute_body(cs, bad, msg, msglen);
    skb_json_add_number(cs->c, "seconds", (skb_clock_ms(SKB_CLOCK_WALL) - t0) * 1e-3);
    for (int i = 0; i < cs->n; i++)
        skb_gpu_cprogram_free(&cs->cp[i]);
    free(cs);
    return rc;
}
