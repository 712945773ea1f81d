/* exp_cpu.c — `skinbench run cpu`: CPU cost of every method's skin path on
 * every default dataset (DQ paper Fig. 18, thesis Tables 3.1/3.2 as ratios on
 * this machine), the single-precision fast kernels against a copy-bandwidth
 * roofline on a mesh that leaves the caches, and peers (glm, textbook) in
 * the same run.  Timing is Google Benchmark's (harness/bench_shim.cpp): one
 * iteration = one deformation (prepare + skin of all vertices), cycling
 * through the dataset's pose sequence; repetitions randomly interleaved; raw
 * rows in cpu-gbench.json, the summary in cpu.json.
 *
 * Every kernel is checked before it is timed: the double path against each
 * method's own blend form on sampled vertices, fast kernels against the
 * double path of the same method, peers against the method they implement.
 * A kernel that fails is not timed and the failure is recorded. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "skb_bench.h"
#include "skb_dataset.h"
#include "skb_dqblend.h"
#include "skb_fast.h"
#include "skb_fast_plan.h"
#include "skb_gbench.h"
#include "skb_icount.h"
#include "skb_results.h"
#include "skb_schemas.h"
#include "skb_label.h"
#include "skb_peers.h"
#include "skb_pool.h"
#include "skb_run.h"
#include "skb_sb_internal.h"   /* SB's parent-child fallbacks, its trivial-set tolerance */
#include "skb_sphere_cd.h"   /* skb_thread_cpu_s */
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define FULL_MIN_TIME 0.04       /* CPU seconds per repetition (budget: the whole run <= 150 s) */
#define QUICK_MIN_TIME 0.002
#define FULL_REPS 5
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

static const double dib_precisions[] = { 1e-3, 1e-7 };   /* the default 1e-5 is DIB's judged timing itself */

/* the registry names of the methods the labels below are built on: the
 * ratio reference (LBS: x/LBS, DQ paper Fig. 18) and the headline method
 * (DLB); methods/skb_method.h gives each role to one method */
static const char *lin_name(void)
{
    return skb_method_role_name(SKB_MF_RATIO_REF);
}

static const char *head_name(void)
{
    return skb_method_role_name(SKB_MF_HEADLINE);
}

/* a benchmark label: a method's name and a suffix ("@slot4", "+nrm_shader") */
static const char *label(char *buf, size_t n, const char *name, const char *suffix)
{
    snprintf(buf, n, "%s%s", name, suffix);
    return buf;
}

/* the label of name run on t threads (t > 1: "<name>@<t>t", the pool's) */
static const char *thread_label(char *buf, size_t n, const char *name, int t)
{
    if (t > 1)
        snprintf(buf, n, "%s@%dt", name, t);
    else
        snprintf(buf, n, "%s", name);
    return buf;
}
/* DIB across precisions on the humans only (DQ paper App. B times a human) */
static const char *const dib_precision_datasets[] = { "bcn_human", "body", "bcn_human+random" };

static int wants_dib_sweep(const char *name)
{
    for (size_t i = 0; i < sizeof dib_precision_datasets / sizeof dib_precision_datasets[0]; i++)
        if (strcmp(name, dib_precision_datasets[i]) == 0)
            return 1;
    return 0;
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
};

/* SKB_INJECT_SLOWDOWN as read by one run (see "slow-down injection" below) */
struct inject { char method[64]; double frac; long per_deform; };

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
};

/* ---- slow-down injection (validating the compare gates, docs/report-and-regression.md "Nightly regression") ----
 * SKB_INJECT_SLOWDOWN=method:percent gives that method's kernels (double,
 * f32; not peers) percent % more real work in every deformation: the skin
 * pass runs again over percent % of the vertices (a slice that moves on
 * round the mesh, whole extra passes above 100 %), and prepare runs again once per 100/percent
 * deformations (an accumulator: prepare is per joint, a small share).
 * Extra work, not a clock: the instruction-count gate (exp_icount.c) sees
 * it as well as the timing gate, at the same cost on a loaded machine as
 * on an idle one.  Every deformation carries its share, so a repetition of
 * a few deformations is slowed as much as a long one (a whole extra
 * deformation every 100/percent, tried first, left most short repetitions
 * untouched: the A/B gate's fastest repetition did not see it).  The one
 * extra skin call costs its fixed overhead too: on the smallest f32 kernel
 * (arm, ~7 instructions per vertex) that is a few per cent more than asked
 * (measured with callgrind, README).  A clock-based spin, the first
 * version, overshot small meshes and was invisible to instruction counts.
 * Off by default; read here only, and recorded in cpu.json and icount.json
 * "injected_slowdown" (null when off) so that compare refuses such a run as
 * a baseline. */
#define INJECT_UNIT 1000000L    /* the accumulator counts millionths of a deformation */
static int read_injection(struct inject *inject, char *msg, size_t msglen)
{
    const char *v = getenv("SKB_INJECT_SLOWDOWN");
    memset(inject, 0, sizeof *inject);
    if (!v || !*v)
        return 0;
    const char *colon = strchr(v, ':');
    char *end = NULL;
    double pct = colon ? strtod(colon + 1, &end) : NAN;
    size_t n = colon ? (size_t)(colon - v) : 0;
    if (!colon || n == 0 || n >= sizeof inject->method || end == colon + 1 || *end || !(pct > 0 && pct <= 1000)) {
        snprintf(msg, msglen, "cpu: SKB_INJECT_SLOWDOWN '%s': expected METHOD:PERCENT with 0 < PERCENT <= 1000", v);
        return SKB_EINVAL;
    }
    memcpy(inject->method, v, n);
    inject->frac = pct / 100;
    inject->per_deform = lround(pct * (INJECT_UNIT / 100));
    return 0;
}

int skb__cpu_injection_json(cJSON *root, char *msg, size_t msglen)
{
    struct inject inject;
    int rc = read_injection(&inject, msg, msglen);
    if (rc < 0)
        return rc;
    if (inject.frac > 0) {
        cJSON *inj = cJSON_AddObjectToObject(root, "injected_slowdown");
        cJSON_AddStringToObject(inj, "method", inject.method);
        cJSON_AddNumberToObject(inj, "percent", 100 * inject.frac);
    } else {
        cJSON_AddNullToObject(root, "injected_slowdown");
    }
    return 0;
}

/* set c->injected on the kernels SKB_INJECT_SLOWDOWN names (once, not
 * per deformation: the test would add work to every kernel) */
static void mark_injected(struct bcase *c, int n, const struct inject *inject)
{
    for (int i = 0; i < n; i++)
        c[i].injected = inject->per_deform > 0 && c[i].m && c[i].kind != K_PEER
                        && strcmp(c[i].m->name, inject->method) == 0 ? inject->per_deform : 0;
}

/* ---- timed bodies ---- */

/* one deformation of case c at pose p: prepare, skin every vertex (the
 * kind test is one predictable branch) */
static int deform(struct bcase *c, const struct skb_pose *p)
{
    const struct skb_mesh *mesh = &c->ds->d.mesh;
    int rc = 0;
    if (c->kind == K_DOUBLE) {
        if ((rc = c->m->prepare(mesh, p, &c->prm, c->sk.state)) >= 0)
            rc = c->m->skin(mesh, c->sk.state, 0, mesh->nverts, c->ds->pos, c->ds->nrm);
    } else if (c->kind == K_F32) {
        if ((rc = skb__skin_f32_prepare(&c->fk, p, &c->prm)) >= 0)
            rc = c->threads > 1 ? skb__skin_f32_run_pool(&c->fk, c->pool, c->ds->fpos, c->ds->fnrm)
                                : skb__skin_f32_run(&c->fk, 0, mesh->nverts, c->ds->fpos, c->ds->fnrm);
    } else {
        c->peer->prepare(c->pp, p);
        c->peer->skin(c->pp, c->ds->fpos, c->ds->fnrm);
    }
    return rc;
}

/* skin vertices [v0, v1) of case c into the shared outputs */
static int skin_range(struct bcase *c, int v0, int v1)
{
    const struct skb_mesh *mesh = &c->ds->d.mesh;
    if (c->kind == K_DOUBLE)
        return c->m->skin(mesh, c->sk.state, v0, v1, c->ds->pos, c->ds->nrm);
    return skb__skin_f32_run(&c->fk, v0, v1, c->ds->fpos, c->ds->fnrm);
}

/* the injected share of a deformation at pose p (see above): the extra
 * slice moves on by its length each time, so 1/frac deformations cover the
 * mesh once (cheap and dear vertices alike: measured, a slice always at the
 * start undershot dlb on cloth by 1 point and dib by 1.7 of 5) */
static int inject_extra(struct bcase *c, const struct skb_pose *p)
{
    const struct skb_mesh *mesh = &c->ds->d.mesh;
    int nv = mesh->nverts, rc = 0;
    long left = (long)((double)c->injected / INJECT_UNIT * nv + 0.5);
    while (left > 0 && rc >= 0) {
        int v0 = c->inject_off % nv;
        int v1 = left < nv - v0 ? v0 + (int)left : nv;
        rc = skin_range(c, v0, v1);
        left -= v1 - v0;
        c->inject_off = v1 % nv;
    }
    for (c->inject_acc += c->injected; c->inject_acc >= INJECT_UNIT && rc >= 0; c->inject_acc -= INJECT_UNIT)
        rc = c->kind == K_DOUBLE ? c->m->prepare(mesh, p, &c->prm, c->sk.state)
                                 : skb__skin_f32_prepare(&c->fk, p, &c->prm);
    return rc;
}

/* one deformation per iteration, cycling through the pose sequence (and
 * the injected extra work when SKB_INJECT_SLOWDOWN names the method) */
static void time_deform(void *arg, long iters)
{
    struct bcase *c = (struct bcase *)arg;
    for (long i = 0; i < iters; i++) {
        struct skb_pose p;
        skb_dataset_pose(&c->ds->d, c->next_pose, &p);
        c->next_pose = (c->next_pose + 1) % c->ds->d.nposes;
        int rc = deform(c, &p);
        if (c->injected && rc >= 0)
            rc = inject_extra(c, &p);
        if (rc < 0)
            c->error = rc;
        skb_bench_clobber(c->ds->pos);
        skb_bench_clobber(c->ds->fpos);
    }
}

/* the pool's share `part` of the copy (whole cache lines) */
static void copy_part(void *arg, int part, int nparts)
{
    struct bcase *c = (struct bcase *)arg;
    size_t per = (c->bytes / (size_t)nparts + 63) / 64 * 64, a = per * (size_t)part;
    size_t b = a + per < c->bytes ? a + per : c->bytes;
    if (a < b)
        memcpy(c->dst + a, c->src + a, b - a);
}

static void time_copy(void *arg, long iters)
{
    struct bcase *c = (struct bcase *)arg;
    for (long i = 0; i < iters; i++) {
        if (c->threads > 1)
            skb_pool_run(c->pool, copy_part, c);
        else
            memcpy(c->dst, c->src, c->bytes);
        skb_bench_clobber(c->dst);
    }
}

/* ---- verification ---- */

static double extent(const double *x, int n)
{
    double e = 0;
    for (int i = 0; i < n; i++)
        e = fmax(e, fabs(x[i]));
    return e + 1;
}

static int all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

static int pose_index(const struct skb_dataset *d, int i)
{
    return VERIFY_POSES > 1 ? (int)((long)i * (d->nposes - 1) / (VERIFY_POSES - 1)) : 0;
}

/* the blend form of c->m on vertex v's influences (in slot order, or sorted
 * by joint index) applied to its rest position, against the skin output */
static int blend_error(const struct bcase *c, const struct skb_mesh *mesh, const struct skb_pose *p, int v,
                       int sorted, double scale, double *err, char *msg, size_t msglen)
{
    double w[SKB_MAX_INFLUENCES], mats[16 * SKB_MAX_INFLUENCES], out[16], x[3];
    int idx[SKB_MAX_INFLUENCES], n = 0;
    char bmsg[256];
    for (int s = 0; s < SKB_MAX_INFLUENCES; s++)
        if (mesh->weight[4 * v + s] > 0)
            idx[n++] = s;
    for (int a = 0; sorted && a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (mesh->joint[4 * v + idx[b]] < mesh->joint[4 * v + idx[a]]) {
                int t = idx[a];
                idx[a] = idx[b];
                idx[b] = t;
            }
    for (int k = 0; k < n; k++) {
        w[k] = mesh->weight[4 * v + idx[k]];
        memcpy(mats + 16 * k, p->mats + 16 * mesh->joint[4 * v + idx[k]], 16 * sizeof(double));
    }
    double rc[3];
    const double *center = mesh->center ? mesh->center + 3 * v : NULL;
    if (c->m->skin_center && c->m->skin_center(mesh, c->sk.state, v, rc))
        center = rc;
    struct skb_blend_in in = { n, w, mats, center };
    /* a blend has no joint tree: signs precomputed along the hierarchy are
     * checked by equality with Algorithm 2's on the sampled vertices */
    struct skb_params bp = c->prm;
    if (bp.antipodal == SKB_ANTIPODAL_HIERARCHY)
        bp.antipodal = SKB_ANTIPODAL_PIVOT;
    if (skb_blend(c->m, &in, &bp, out, NULL, bmsg, sizeof bmsg) < 0) {
        snprintf(msg, msglen, "vertex %d: blend form failed: %s", v, bmsg);
        return SKB_ENUMERIC;
    }
    skb_mat4_apply(out, mesh->pos + 3 * v, x);
    *err = 0;
    for (int r = 0; r < 3; r++)
        *err = fmax(*err, fabs(x[r] - c->ds->pos[3 * v + r]) / (TOL_SKIN_VS_BLEND * scale));
    return 0;
}

/* double path: finite output, and on sampled vertices equal to the blend
 * form of the same method applied to the rest position */
static int check_double(struct bcase *c, char *msg, size_t msglen)
{
    const struct skb_dataset *d = &c->ds->d;
    const struct skb_mesh *mesh = &d->mesh;
    double worst = 0;
    for (int i = 0; i < VERIFY_POSES; i++) {
        struct skb_pose p;
        int k = pose_index(d, i);
        skb_dataset_pose(d, k, &p);
        if (skb_skin_pose(&c->sk, &p, &c->prm, c->ds->pos, c->ds->nrm, msg, msglen) < 0)
            return SKB_ENUMERIC;
        if (!all_finite(c->ds->pos, 3 * (size_t)mesh->nverts)) {
            snprintf(msg, msglen, "pose %d: non-finite output", k);
            return SKB_ENUMERIC;
        }
        double scale = extent(c->ds->pos, 3 * mesh->nverts);
        int step = mesh->nverts > BLEND_SAMPLES ? mesh->nverts / BLEND_SAMPLES : 1;
        for (int v = 0; c->m->blend && !p.scale && v < mesh->nverts; v += step) {
            double e;
            int rc = blend_error(c, mesh, &p, v, 0, scale, &e, msg, msglen);
            /* set-based methods (SB: one centre per joint set, thesis 3.1)
             * solve with the set in joint order; an ill-conditioned SVD then
             * depends on that order, so compare in the skin path's order too */
            if (rc == 0 && e > 1)
                rc = blend_error(c, mesh, &p, v, 1, scale, &e, msg, msglen);
            if (rc < 0)
                return rc;
            worst = fmax(worst, e);
        }
        if (!(worst <= 1)) {
            snprintf(msg, msglen, "pose %d: skin differs from the blend form by %.3g x tolerance %g", k,
                     worst, TOL_SKIN_VS_BLEND);
            return SKB_ENUMERIC;
        }
        c->checked_poses++;
    }
    c->check_error = worst;
    return 0;
}

/* what a shader does with SKB_F32_NRM_SHADER's normals, before they are
 * compared with the double path's unit normals */
static void normalise3(int nverts, float *v)
{
    for (size_t i = 0; i < 3 * (size_t)nverts; i += 3) {
        float len = sqrtf(v[i] * v[i] + v[i + 1] * v[i + 1] + v[i + 2] * v[i + 2]);
        if (len > 0)
            for (int k = 0; k < 3; k++)
                v[i + k] /= len;
    }
}

/* fast kernels and peers: against the double skin of the reference method
 * (normals as the kernel's normal option leaves them for the shader) */
static int check_float(struct bcase *c, const struct skb_method *ref, char *msg, size_t msglen)
{
    const struct skb_dataset *d = &c->ds->d;
    struct skb_skinner rs;
    double worst = 0;
    int rc = skb_skin_init(&rs, ref, &d->mesh, msg, msglen);
    if (rc < 0)
        return rc;
    for (int i = 0; i < VERIFY_POSES; i++) {
        struct skb_pose p;
        double ep, en;
        int k = pose_index(d, i), wv;
        skb_dataset_pose(d, k, &p);
        if ((rc = skb_skin_pose(&rs, &p, &c->prm, c->ds->pos, c->ds->nrm, msg, msglen)) < 0)
            break;
        if (c->kind == K_F32) {
            if ((rc = skb_skin_f32_pose(&c->fk, &p, &c->prm, c->ds->fpos, c->ds->fnrm, msg, msglen)) < 0)
                break;
            if (skb_skin_f32_normals(&c->fk) == SKB_F32_NRM_SHADER)
                normalise3(d->mesh.nverts, c->ds->fnrm);
        } else {
            c->peer->prepare(c->pp, &p);
            c->peer->skin(c->pp, c->ds->fpos, c->ds->fnrm);
        }
        int nrm = d->mesh.nrm && !(c->kind == K_F32 && skb_skin_f32_normals(&c->fk) == SKB_F32_NRM_NONE);
        skb_f32_compare(d->mesh.nverts, c->ds->pos, nrm ? c->ds->nrm : NULL, c->ds->fpos,
                        nrm ? c->ds->fnrm : NULL, &ep, &en, &wv);
        worst = fmax(worst, fmax(ep, en));
        if (!(ep <= 1 && en <= 1)) {
            snprintf(msg, msglen, "pose %d: differs from %s (double) by %.3g x tolerance in positions "
                     "(vertex %d), %.3g x in normals", k, ref->name, ep, wv, en);
            rc = SKB_ENUMERIC;
            break;
        }
        c->checked_poses++;
    }
    skb_skin_fini(&rs);
    c->check_error = worst;
    return rc;
}

/* a fast kernel on the pool: after check_float (pose prepared), its
 * output bit for bit the one-call output, in the layout's order */
static int check_pool(struct bcase *c, char *msg, size_t msglen)
{
    int n = c->ds->d.mesh.nverts, rc;
    size_t n3 = 3 * (size_t)n + 1;
    float *one = malloc(sizeof(float) * 2 * n3), *pool = malloc(sizeof(float) * 2 * n3);
    if (!one || !pool) {
        free(one);
        free(pool);
        snprintf(msg, msglen, "out of memory");
        return SKB_ENOMEM;
    }
    memset(one, 0, sizeof(float) * 2 * n3);
    memset(pool, 0xff, sizeof(float) * 2 * n3);   /* NaN where the pool wrote nothing */
    if ((rc = skb__skin_f32_run(&c->fk, 0, n, one, one + n3)) < 0
        || (rc = skb__skin_f32_run_pool(&c->fk, c->pool, pool, pool + n3)) < 0)
        snprintf(msg, msglen, "%s", skb_strerror(rc));
    else if (memcmp(one, pool, sizeof(float) * 3 * (size_t)n) != 0
             || (c->ds->d.mesh.nrm && skb_skin_f32_normals(&c->fk) != SKB_F32_NRM_NONE
                 && memcmp(one + n3, pool + n3, sizeof(float) * 3 * (size_t)n) != 0)) {
        snprintf(msg, msglen, "the %d-thread pool's output differs from one call", c->threads);
        rc = SKB_ENUMERIC;
    }
    free(one);
    free(pool);
    return rc;
}

/* ---- case set-up ---- */

static struct bcase *new_case(struct run *r, enum kind kind, struct ds *ds, const char *label)
{
    if (r->nc == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        struct bcase *nc = realloc(r->c, sizeof *nc * (size_t)cap);
        if (!nc)
            return NULL;
        r->c = nc;
        r->cap = cap;
    }
    struct bcase *c = r->c + r->nc++;
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->ds = ds;
    c->prm = r->ctx->params;
    snprintf(c->label, sizeof c->label, "%s", label);
    snprintf(c->name, sizeof c->name, "%s/%s/%s",
             kind == K_DOUBLE ? "double" : kind == K_F32 ? "f32" : kind == K_PEER ? "peer" : "copy",
             label, ds->d.name);
    return c;
}

static void fail_case(struct run *r, struct bcase *c, const char *msg)
{
    cJSON_AddStringToObject(r->failures, c->name, msg);
    skb_run_progress(r->ctx, "cpu", "NOT timed %s: %s", c->name, msg);
    c->error = SKB_ENUMERIC;
}

/* Figure 18's DLB row is "DLB (pre-computed antipodality)" (DQ paper 4.1,
 * Fig. 18): the dual quaternion methods' judged double path fixes the signs
 * once per pose along the joint hierarchy; Algorithm 2 per vertex is timed
 * beside it as a context row ("+alg2") */
static int dq_signs(const struct skb_method *m)
{
    return (m->flags & (SKB_MF_HEADLINE | SKB_MF_ITERATIVE)) != 0;
}

#define VARIANT_HIERARCHY "double, antipodality pre-computed along the hierarchy per pose (DQ paper 4.1; Fig. 18's variant)"
#define VARIANT_ALG2 "double, antipodality by Algorithm 2 per vertex (DQ paper 4.1)"
#define VARIANT_DIB_JUDGED "double, antipodality pre-computed along the hierarchy per pose; thesis Alg. 4.1 as written " \
    "(every vertex from DLB until |x| < p, the confirming pass included, one and two influences too)"
#define VARIANT_DIB_ONE "double, antipodality pre-computed along the hierarchy; one influence returned as DLB gives it " \
    "(no pass), otherwise Alg. 4.1 as written: new, reported beside the judged row"
#define VARIANT_DIB_SHORTCUT "double, antipodality pre-computed along the hierarchy; closed form for n = 2 (thesis Lemma 4.7), " \
    "one influence returned, no confirming pass: new, reported beside the judged row"

/* the double-path variants timed beside a method's judged one */
enum dvariant { DV_JUDGED, DV_ALG2, DV_ONE, DV_SHORTCUT, DV_SPHAVG };
#define VARIANT_SB_SPHAVG "double, SBS with its rotations by Buss and Fillmore's spherical average instead of QLB " \
    "(seed 003 section 5, thesis 3.4: about 5x slower)"

/* the label of a double-path row (common/skb_label.h): "dlb+alg2",
 * "dib@p=0.001"; variant NULL: none, p <= 0: no precision */
static void double_label(char *buf, size_t len, const char *method, const char *variant, double p)
{
    struct skb_label l;
    char pv[32];
    skb_label_init(&l, method);
    if (variant)
        skb_label_add_variant(&l, variant);
    snprintf(pv, sizeof pv, "%g", p);
    if (p > 0)
        skb_label_add_key(&l, "p", pv);
    skb_label_format(&l, buf, len);
}

/* "method@key": the label of a planned or threaded row (common/skb_label.h);
 * key NULL: the method alone */
static void key_label(char *buf, size_t len, const char *method, const char *key)
{
    struct skb_label l;
    skb_label_init(&l, method);
    if (key)
        skb_label_add_key(&l, key, NULL);
    skb_label_format(&l, buf, len);
}

static void add_double_as(struct run *r, struct ds *ds, const struct skb_method *m, double dib_p, enum dvariant dv)
{
    char label[64], msg[512];
    static const char *const variant[] = { NULL, "alg2", "one", "shortcut", "sphavg" };
    double_label(label, sizeof label, m->name, variant[dv], dib_p);
    struct bcase *c = new_case(r, K_DOUBLE, ds, label);
    if (!c)
        return;
    c->m = m;
    c->variant = "double";
    if (dq_signs(m)) {
        c->prm.antipodal = dv == DV_ALG2 ? SKB_ANTIPODAL_PIVOT : SKB_ANTIPODAL_HIERARCHY;
        c->variant = dv == DV_ALG2 ? VARIANT_ALG2 : VARIANT_HIERARCHY;
    }
    if (m->flags & SKB_MF_ITERATIVE) {
        static const char *const dib_variant[] = { VARIANT_DIB_JUDGED, VARIANT_ALG2, VARIANT_DIB_ONE, VARIANT_DIB_SHORTCUT,
                                                   VARIANT_DIB_JUDGED };
        static const int bits[] = { 0, 0, SKB_DIB_ONE_INPUT, SKB_DIB_ONE_INPUT | SKB_DIB_LEMMA47, 0 };
        c->variant = dib_variant[dv];
        c->prm.dib_shortcut = bits[dv];
    }
    if (dv == DV_SPHAVG) {
        c->variant = VARIANT_SB_SPHAVG;
        c->prm.sb_spherical_average = 1;
    }
    if (dib_p > 0)
        c->prm.dib_precision = dib_p;
    if (skb_skin_init(&c->sk, m, &ds->d.mesh, msg, sizeof msg) < 0 || check_double(c, msg, sizeof msg) < 0)
        fail_case(r, c, msg);
}

/* the method's judged double path, for DLB the per-vertex Algorithm 2, for
 * DIB its shortcuts (one influence returned; and the Lemma 4.7 closed form
 * for two, no confirming pass) */
static void add_double(struct run *r, struct ds *ds, const struct skb_method *m, double dib_p)
{
    add_double_as(r, ds, m, dib_p, DV_JUDGED);
    if (dib_p == 0 && (m->flags & SKB_MF_HEADLINE))
        add_double_as(r, ds, m, 0, DV_ALG2);
    if (dib_p == 0 && (m->flags & SKB_MF_ITERATIVE)) {
        add_double_as(r, ds, m, 0, DV_ONE);
        add_double_as(r, ds, m, 0, DV_SHORTCUT);
    }
    /* seed 003 section 5: SBS with spherical averages, on the human model */
    if (dib_p == 0 && (m->flags & SKB_MF_ROT_CENTERS) && strcmp(ds->d.name, "bcn_human") == 0)
        add_double_as(r, ds, m, 0, DV_SPHAVG);
}

/* the pool of `threads` threads: the full one, or one of the scaling
 * curve's; NULL for one thread */
static struct skb_pool *pool_for(struct run *r, int threads)
{
    if (threads <= 1)
        return NULL;
    for (int i = 0; i < r->npools; i++)
        if (skb_pool_threads(r->pools[i]) == threads)
            return r->pools[i];
    return r->pool;
}

/* label: method, "+nrm_shader"/"+nrm_none" for the normal option,
 * "@slot4" for the 4-slot layout, "@Nt" on the N-thread pool */
static void add_f32_mode(struct run *r, struct ds *ds, const struct skb_method *m, enum skb_f32_normals mode,
                         enum skb_f32_layout layout, int threads)
{
    char msg[512], label[64], part[48];
    struct skb_label l;
    skb_label_init(&l, m->name);
    snprintf(part, sizeof part, "nrm_%s", skb_f32_normals_name(mode));
    if (mode != SKB_F32_NRM_RENORM)
        skb_label_add_variant(&l, part);
    if (layout == SKB_F32_LAYOUT_SLOT4)
        skb_label_add_key(&l, "slot4", NULL);
    snprintf(part, sizeof part, "%dt", threads);
    if (threads > 1)
        skb_label_add_key(&l, part, NULL);
    skb_label_format(&l, label, sizeof label);
    struct bcase *c = new_case(r, K_F32, ds, label);
    if (!c)
        return;
    c->m = m;
    c->threads = threads;
    c->pool = pool_for(r, threads);
    if (skb_skin_f32_init_layout(&c->fk, m, &ds->d.mesh, layout, msg, sizeof msg) < 0
        || skb_skin_f32_set_normals(&c->fk, mode) < 0 || check_float(c, m, msg, sizeof msg) < 0
        || (threads > 1 && check_pool(c, msg, sizeof msg) < 0))
        fail_case(r, c, msg);
}

/* each kernel as the double path does it (renormalised normals, vertices
 * split by influence count), and the two headline kernels also as engines
 * do: LBS leaving the normal to the shader, LBS and DLB without
 * normals; LBS and DLB in the 4-slot layout (the kernels before the split,
 * measured beside it), and on every CPU through the pool */
static void add_f32(struct run *r, struct ds *ds, const struct skb_method *m)
{
    int lbs = (m->flags & SKB_MF_RATIO_REF) != 0, headline = lbs || (m->flags & SKB_MF_HEADLINE);
    int nt = r->pool ? skb_pool_threads(r->pool) : 1;
    add_f32_mode(r, ds, m, SKB_F32_NRM_RENORM, SKB_F32_LAYOUT_SPLIT, 1);
    if (headline)
        add_f32_mode(r, ds, m, SKB_F32_NRM_RENORM, SKB_F32_LAYOUT_SLOT4, 1);
    if (headline && nt > 1)
        add_f32_mode(r, ds, m, SKB_F32_NRM_RENORM, SKB_F32_LAYOUT_SPLIT, nt);
    if (!ds->d.mesh.nrm)
        return;
    if (lbs) {
        add_f32_mode(r, ds, m, SKB_F32_NRM_SHADER, SKB_F32_LAYOUT_SPLIT, 1);
        add_f32_mode(r, ds, m, SKB_F32_NRM_SHADER, SKB_F32_LAYOUT_SLOT4, 1);
        if (nt > 1)
            add_f32_mode(r, ds, m, SKB_F32_NRM_SHADER, SKB_F32_LAYOUT_SPLIT, nt);
    }
    if (headline)
        add_f32_mode(r, ds, m, SKB_F32_NRM_NONE, SKB_F32_LAYOUT_SPLIT, 1);
}

/* ---- the planner's rows (docs/report-and-regression.md "Fast kernels: the planner") ----
 * "linear@plan" and "dlb@plan": one thread, the kernel the planner chose
 * for this mesh (renormalised normals).  The name never changes with the
 * choice, which is recorded beside it (fast_kernels.plans). */
static void add_plan(struct run *r, struct ds *ds, const struct skb_method *m)
{
    char msg[512], label[64];
    /* not under the instruction count: a choice made by timing under
     * callgrind is noise, and the counts must repeat to the instruction */
    if (skb__icount_child())
        return;
    struct skb_plan *plan = calloc(1, sizeof *plan);
    struct skb_pool *pools[17];
    int np = 0;
    for (int i = 0; i < r->npools; i++)
        pools[np++] = r->pools[i];
    if (r->pool)
        pools[np++] = r->pool;
    const struct skb_run_ctx *ctx = r->ctx;
    double budget = ctx->planner_budget_ms > 0 ? ctx->planner_budget_ms
                  : ctx->quick ? 0.1 * SKB_PLAN_DEFAULT_BUDGET_MS : SKB_PLAN_DEFAULT_BUDGET_MS;
    struct skb_plan_env e = { m, &ds->d, &ctx->params, SKB_F32_NRM_RENORM, ds->fpos, ds->fnrm, pools, np, budget,
                              r->build };
    key_label(label, sizeof label, m->name, "plan");
    struct bcase *c = new_case(r, K_F32, ds, label);
    if (!c || !plan) {
        free(plan);
        if (c)
            fail_case(r, c, "out of memory");
        return;
    }
    c->m = m;
    c->threads = 1;
    int rc = skb_plan_kernel(&e, (enum skb_plan_mode)ctx->planner, r->wisdom, plan, msg, sizeof msg);
    r->plan_ms += plan->cost_ms;
    r->nplans++;
    if (rc == 0) {
        cJSON *byds = cJSON_GetObjectItemCaseSensitive(r->plans, ds->d.name);
        if (!byds)
            byds = cJSON_AddObjectToObject(r->plans, ds->d.name);
        cJSON_AddItemToObject(byds, label, skb_plan_json(plan));
        char name[96];
        skb_plan_cand_name(&plan->r[plan->chosen].c, name, sizeof name);
        skb_run_progress(ctx, "cpu", "%s: %s planned %s (%s, %d candidates, %.0f ms)", ds->d.name, label, name,
                         plan->source, plan->n, plan->cost_ms);
    }
    if (rc < 0 || skb_plan_bind(&c->fk, m, &ds->d.mesh, &plan->r[plan->chosen].c, SKB_F32_NRM_RENORM, msg,
                                sizeof msg) < 0
        || check_float(c, m, msg, sizeof msg) < 0)
        fail_case(r, c, msg);
    free(plan);
}

static void add_peer(struct run *r, struct ds *ds, const struct skb_peer_ops *peer)
{
    char msg[512];
    const struct skb_method *ref = skb_method_with_flag(peer->reference);
    struct bcase *c = new_case(r, K_PEER, ds, peer->name);
    if (!c)
        return;
    c->peer = peer;
    if (!peer->create || !ref) {
        fail_case(r, c, peer->description);
        return;
    }
    if (!(c->pp = peer->create(&ds->d.mesh))) {
        fail_case(r, c, "out of memory");
        return;
    }
    if (check_float(c, ref, msg, sizeof msg) < 0)
        fail_case(r, c, msg);
}

/* the output arrays in one block, each starting OUT_STAGGER bytes further
 * into its page: large allocations are page-aligned, and an output at the
 * same page offset as the input it is computed from makes loads wait on
 * stores to the same 4 KiB offset (measured: double LBS 40% slower); the
 * float outputs where the fast kernels' state wants them, 2 KiB from their
 * inputs (skb_fast.h) */
#define OUT_STAGGER 1088
static int alloc_outputs(struct ds *ds)
{
    size_t n = 3 * (size_t)ds->d.mesh.nverts + 1;
    size_t sz[4] = { n * sizeof *ds->pos, n * sizeof *ds->nrm, n * sizeof *ds->fpos, n * sizeof *ds->fnrm };
    size_t at[4] = { OUT_STAGGER, 2 * OUT_STAGGER, SKB_F32_OUT_POS_PAGE_OFFSET, SKB_F32_OUT_NRM_PAGE_OFFSET };
    size_t off[4], total = 0;
    for (int i = 0; i < 4; i++) {
        off[i] = total + at[i];
        total = (off[i] + sz[i] + 4095) / 4096 * 4096;
    }
    char *block = aligned_alloc(4096, total);
    if (!block)
        return SKB_ENOMEM;
    memset(block, 0, total);
    ds->out_block = block;
    ds->pos = (double *)(block + off[0]);
    ds->nrm = (double *)(block + off[1]);
    ds->fpos = (float *)(block + off[2]);
    ds->fnrm = (float *)(block + off[3]);
    return 0;
}

/* qb needs a rotation centre per vertex: give the mesh the default rule's
 * centres, so the double path, the fast path and the blend check share them */
static int set_centers(struct skb_dataset *d)
{
    if (d->mesh.center)
        return 0;
    d->mesh.center = calloc(3 * (size_t)d->mesh.nverts + 1, sizeof *d->mesh.center);
    if (!d->mesh.center)
        return SKB_ENOMEM;
    return skb__qb_default_centers(&d->mesh, d->mesh.center);
}

static void free_run(struct run *r)
{
    for (int i = 0; i < r->nc; i++) {
        struct bcase *c = r->c + i;
        skb_skin_fini(&c->sk);
        skb_skin_f32_fini(&c->fk);
        if (c->pp)
            c->peer->destroy(c->pp);
        free(c->src);
        free(c->dst);
    }
    free(r->c);
    for (int i = 0; i < r->nds; i++) {
        skb_dataset_free(&r->ds[i].d);
        free(r->ds[i].out_block);
    }
    free(r->ds);
    cJSON_Delete(r->failures);
    cJSON_Delete(r->plans);
    cJSON_Delete(r->wisdom);
    for (int i = 0; i < r->npools; i++)
        skb_pool_destroy(r->pools[i]);
    skb_pool_destroy(r->pool);
}

/* the copy roofline: memcpy of as many bytes as the 4-slot LBS kernel
 * streams, on one thread or split over the pool */
static void add_copy(struct run *r, struct ds *ds, int threads)
{
    char label[32], th[16];
    snprintf(th, sizeof th, "%dt", threads);
    key_label(label, sizeof label, "memcpy", threads > 1 ? th : NULL);
    struct bcase *c = new_case(r, K_COPY, ds, label);
    if (!c)
        return;
    c->threads = threads;
    c->pool = pool_for(r, threads);
    c->bytes = (size_t)LBS_F32_BYTES_PER_VERTEX * ds->d.mesh.nverts;
    c->src = malloc(c->bytes);
    c->dst = malloc(c->bytes);
    if (!c->src || !c->dst) {
        fail_case(r, c, "out of memory");
        return;
    }
    memset(c->src, 1, c->bytes);
    memset(c->dst, 2, c->bytes);   /* touch every page before timing */
}

/* ---- results ---- */

/* per repetition, in the order Google Benchmark ran them: with random
 * interleaving repetition i of every kernel ran in the same round, so the
 * report pairs them into per-round ratios and their interval */
#define MAX_ROUND_REPS 64
struct timing { double cpu_ms, real_ms, items_per_s; int reps; double rep_cpu_ms[MAX_ROUND_REPS], rep_real_ms[MAX_ROUND_REPS]; };

/* median over the repetitions of one benchmark in Google Benchmark's JSON
 * (rows read by common/skb_gbench.h, the reader compare uses too; the
 * document was checked by skb_gbench_parse when it was read) */
static struct timing gbench_timing(const cJSON *gb, const char *name)
{
    struct timing t = { NAN, NAN, NAN, 0, { 0 }, { 0 } };
    struct skb_gbench_set set;
    char msg[256];
    const struct skb_gbench_bench *b = NULL;
    if (skb_gbench_parse(gb, &set, msg, sizeof msg) == 0)
        b = skb_gbench_find(&set, name);
    if (b && b->nrep) {
        t.cpu_ms = 1e-6 * skb_median(b->cpu_ns, b->nrep);
        t.real_ms = 1e-6 * skb_median(b->real_ns, b->nrep);
        t.items_per_s = skb_median(b->items_per_s, b->nrep);
        t.reps = b->nrep;
        for (int i = 0; i < b->nrep && i < MAX_ROUND_REPS; i++) {
            t.rep_cpu_ms[i] = 1e-6 * b->cpu_ns[i];
            t.rep_real_ms[i] = 1e-6 * b->real_ns[i];
        }
    }
    skb_gbench_set_free(&set);
    return t;
}

static struct bcase *find_case(struct run *r, enum kind k, const struct ds *ds, const char *label)
{
    for (int i = 0; i < r->nc; i++)
        if (r->c[i].kind == k && r->c[i].ds == ds && strcmp(r->c[i].label, label) == 0 && !r->c[i].error)
            return r->c + i;
    return NULL;
}

static double case_ms(struct run *r, const cJSON *gb, enum kind k, const struct ds *ds, const char *label)
{
    struct bcase *c = find_case(r, k, ds, label);
    return c ? gbench_timing(gb, c->name).cpu_ms : NAN;
}

/* what a fast kernel's time covers: layout and the influence
 * histogram it blends with, normal option, threads and the statistic, the
 * bytes its vertex streams move, and on the roofline mesh the fraction of
 * the copy bandwidth measured with as many threads */
static void f32_detail(const struct run *r, struct bcase *c, const struct timing *t, cJSON *dd)
{
    int hist[4], mt = c->threads > 1;
    double bpv = skb_skin_f32_bytes_per_vertex(&c->fk), ms = mt ? t->real_ms : t->cpu_ms;
    skb_skin_f32_histogram(&c->fk, hist);
    cJSON_AddStringToObject(dd, "normals", skb_f32_normals_name(skb_skin_f32_normals(&c->fk)));
    cJSON_AddStringToObject(dd, "layout", skb_f32_layout_name(skb_skin_f32_layout(&c->fk)));
    cJSON_AddItemToObject(dd, "influence_histogram", cJSON_CreateIntArray(hist, 4));
    cJSON_AddNumberToObject(dd, "threads", mt ? c->threads : 1);
    cJSON_AddStringToObject(dd, "statistic", mt ? "real_ms (wall: the caller's CPU time is one thread's)" : "cpu_ms");
    cJSON_AddNumberToObject(dd, "bytes_per_vertex", bpv);
    double bps = c->ds->large ? r->copy_bps[mt] : NAN, wb = skb_skin_f32_write_bytes_per_vertex(&c->fk);
    cJSON_AddNumberToObject(dd, "write_bytes_per_vertex", wb);
    skb_json_add_number(dd, "fraction_of_roofline", bpv * c->ds->d.mesh.nverts / bps / (ms * 1e-3));
    skb_json_add_number(dd, "fraction_of_roofline_write_allocate",
                        (bpv + wb) * c->ds->d.mesh.nverts / (1.5 * bps) / (ms * 1e-3));
}

/* a pooled kernel above this fraction of the pool's copy bandwidth is
 * taken as held by the bandwidth; below it, something else stops it */
#define BANDWIDTH_BOUND_FRACTION 0.9
/* above this a kernel outruns the copy: memcpy (as many bytes read as
 * written) is then no ceiling for a kernel that mostly reads (quiet run,
 * 2026-11-25: LBS with shader normals at 1.59 of the 2-thread copy) */
#define BANDWIDTH_ABOVE_COPY 1.1

/* the calling thread busy less than this fraction of a pooled run's wall
 * time waited for a worker; with more than this share of the one-thread
 * work on its own CPU clock, it did the workers' parts itself */
#define CALLER_WAITED_BELOW 0.8
#define CALLER_ALONE_ABOVE 0.75

/* what held the pool back besides bandwidth, from the calling thread's CPU
 * time: a worker the scheduler kept off the CPUs (other load) shows as the
 * caller waiting, or as the caller doing the workers' parts */
static const char *pool_wait_text(double busy, double alone)
{
    if (busy < CALLER_WAITED_BELOW)
        return "; the calling thread was busy for less of the wall time than its share: it waited for a worker the "
               "scheduler held off the CPUs (other load), not for memory";
    if (alone > CALLER_ALONE_ABOVE)
        return "; the calling thread ran most of the work itself: the workers were not on a CPU (other load)";
    return "";
}

/* on the roofline mesh: a pooled kernel's fraction of the copy bandwidth
 * on as many threads, beside how that bandwidth itself scales, and in
 * words whether the bandwidth is what stops it */
static void pool_limit(const struct run *r, const struct ds *ds, const char *label, const struct timing *t,
                       double one_cpu_ms, double speedup, cJSON *s)
{
    struct bcase *c = NULL;
    for (int i = 0; i < r->nc && !c; i++)
        if (r->c[i].kind == K_F32 && r->c[i].ds == ds && !strcmp(r->c[i].label, label) && !r->c[i].error)
            c = r->c + i;
    if (!ds->large || !c)
        return;
    double f = skb_skin_f32_bytes_per_vertex(&c->fk) * ds->d.mesh.nverts / r->copy_bps[1] / (t->real_ms * 1e-3);
    double busy = t->cpu_ms / t->real_ms, alone = t->cpu_ms / one_cpu_ms;
    char txt[600];
    skb_json_add_number(s, "fraction_of_threads_copy_bandwidth", f);
    skb_json_add_number(s, "copy_bandwidth_scaling", r->copy_scaling);
    cJSON_AddNumberToObject(s, "bandwidth_bound_from_fraction", BANDWIDTH_BOUND_FRACTION);
    skb_json_add_number(s, "caller_busy_fraction", busy);
    skb_json_add_number(s, "caller_share_of_one_thread_cpu", alone);
    snprintf(txt, sizeof txt, "%s runs %.2fx one thread's throughput and reaches %.2f of the %d-thread copy bandwidth, "
             "which itself scales %.2fx over one thread: %s%s", label, speedup, f, c->threads, r->copy_scaling,
             !isfinite(f) ? "not measured"
             : f > BANDWIDTH_ABOVE_COPY ? "above the copy bandwidth, so memcpy (as much written as read) is no "
                                          "ceiling for this kernel; what stops it is not measured"
             : f >= BANDWIDTH_BOUND_FRACTION ? "at the copy limit, the bandwidth is what stops it"
             : "below the copy limit, so it is not the bandwidth that stops it", pool_wait_text(busy, alone));
    cJSON_AddStringToObject(s, "limit", txt);
}

static cJSON *timing_block(struct run *r, const cJSON *gb, struct ds *ds, enum kind k, const char *ref_label,
                           cJSON **ratios, cJSON **vps, cJSON **detail)
{
    cJSON *ms = cJSON_CreateObject();
    *ratios = cJSON_CreateObject();
    *vps = cJSON_CreateObject();
    *detail = cJSON_CreateObject();
    struct bcase *refc = find_case(r, k, ds, ref_label);
    struct timing rt = refc ? gbench_timing(gb, refc->name) : (struct timing){ NAN, NAN, NAN, 0, { 0 }, { 0 } };
    for (int i = 0; i < r->nc; i++) {
        struct bcase *c = r->c + i;
        if (c->kind != k || c->ds != ds || c->error)
            continue;
        struct timing t = gbench_timing(gb, c->name);
        /* threaded kernels in wall time, against the reference's wall time */
        int mt = c->threads > 1;
        skb_json_add_number(ms, c->label, mt ? t.real_ms : t.cpu_ms);
        skb_json_add_number(*ratios, c->label, mt ? t.real_ms / rt.real_ms : t.cpu_ms / rt.cpu_ms);
        skb_json_add_number(*vps, c->label, t.items_per_s);
        cJSON *dd = cJSON_AddObjectToObject(*detail, c->label);
        skb_json_add_number(dd, "cpu_ms", t.cpu_ms);
        skb_json_add_number(dd, "real_ms", t.real_ms);
        cJSON_AddNumberToObject(dd, "repetitions", t.reps);
        int nr = t.reps < MAX_ROUND_REPS ? t.reps : MAX_ROUND_REPS;
        cJSON_AddItemToObject(dd, "repetition_ms", cJSON_CreateDoubleArray(mt ? t.rep_real_ms : t.rep_cpu_ms, nr));
        cJSON_AddNumberToObject(dd, "checked_poses", c->checked_poses);
        skb_json_add_number(dd, "worst_error_over_tolerance", c->check_error);
        if (k == K_DOUBLE && c->variant)
            cJSON_AddStringToObject(dd, "variant", c->variant);
        if (k == K_F32)
            f32_detail(r, c, &t, dd);
        if (t.reps == 0)
            r->timed_unchecked++;   /* registered but no timing came back */
    }
    return ms;
}

static double case_real_ms(struct run *r, const cJSON *gb, const struct ds *ds, const char *label)
{
    struct bcase *c = find_case(r, K_F32, ds, label);
    return c ? gbench_timing(gb, c->name).real_ms : NAN;
}

/* the plans of one dataset's @plan rows, and each planned kernel's speed-up
 * over the faster of the fixed split and 4-slot rows in this run (>= 1:
 * the planner chose at least as well as either fixed layout) */
static void plan_summary(struct run *r, const cJSON *gb, struct ds *ds, cJSON *f)
{
    const char *const heads[] = { lin_name(), head_name() };
    const cJSON *pl = cJSON_GetObjectItemCaseSensitive(r->plans, ds->d.name);
    cJSON *o = cJSON_AddObjectToObject(f, "plans");
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        char lp[64], l4[64];
        snprintf(lp, sizeof lp, "%s@plan", heads[i]);
        snprintf(l4, sizeof l4, "%s@slot4", heads[i]);
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(pl, lp);
        if (!p)
            continue;
        cJSON *e = cJSON_AddItemToObject(o, lp, cJSON_Duplicate(p, 1)) ? cJSON_GetObjectItemCaseSensitive(o, lp) : NULL;
        double split = case_ms(r, gb, K_F32, ds, heads[i]), slot4 = case_ms(r, gb, K_F32, ds, l4);
        double best = fmin(split, slot4), plan = case_ms(r, gb, K_F32, ds, lp);
        skb_json_add_number(e, "timed_ms", plan);
        skb_json_add_number(e, "best_fixed_ms", best);
        cJSON_AddStringToObject(e, "best_fixed", split <= slot4 ? heads[i] : l4);
        skb_json_add_number(e, "speedup_over_best_fixed", best / plan);
    }
}

/* the issue-15 ratios of one dataset, each from this run: the influence-
 * count split against the 4-slot kernels at the same normal option, DLB
 * over LBS (both renormalising; and against LBS leaving normals to the
 * shader), and the pool's speed-up over one thread (wall times) */
static void fast_summary(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o)
{
    char lsh[64];
    const char *const heads[] = { lin_name(), label(lsh, sizeof lsh, lin_name(), "+nrm_shader"), head_name() };
    cJSON *f = cJSON_AddObjectToObject(o, "fast_kernels");
    cJSON *sp = cJSON_AddObjectToObject(f, "split_speedup_over_slot4");
    cJSON *sc = cJSON_AddObjectToObject(f, "pool_scaling");
    int nt = r->pool ? skb_pool_threads(r->pool) : 1;
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        char l4[64], lt[64];
        snprintf(l4, sizeof l4, "%s@slot4", heads[i]);
        snprintf(lt, sizeof lt, "%s@%dt", heads[i], nt);
        skb_json_add_number(sp, heads[i], case_ms(r, gb, K_F32, ds, l4) / case_ms(r, gb, K_F32, ds, heads[i]));
        cJSON *s = cJSON_AddObjectToObject(sc, heads[i]);
        double one = case_real_ms(r, gb, ds, heads[i]), many = case_real_ms(r, gb, ds, lt);
        cJSON_AddNumberToObject(s, "threads", nt);
        skb_json_add_number(s, "one_thread_real_ms", one);
        skb_json_add_number(s, "pool_real_ms", many);
        skb_json_add_number(s, "speedup", one / many);
        struct bcase *pc = find_case(r, K_F32, ds, lt);
        if (pc) {
            struct timing pt = gbench_timing(gb, pc->name);
            pool_limit(r, ds, lt, &pt, case_ms(r, gb, K_F32, ds, heads[i]), one / many, s);
        }
    }
    plan_summary(r, gb, ds, f);
    double lin = case_ms(r, gb, K_F32, ds, lin_name()), dlb = case_ms(r, gb, K_F32, ds, head_name());
    skb_json_add_number(f, "dlb_over_linear", dlb / lin);
    skb_json_add_number(f, "dlb_over_linear_nrm_shader", dlb / case_ms(r, gb, K_F32, ds, lsh));
    cJSON_AddStringToObject(f, "statistic", "medians of this run's interleaved repetitions; CPU time for one "
                            "thread, wall time for the pool and its one-thread reference");
}

/* ms, ratios to linear, vertices/s of the double path, the fast kernels and
 * the peers of one dataset, and how each was checked */
static void add_timings(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o)
{
    cJSON *ratios, *vps, *detail, *ratios32, *vps32, *detail32, *rp, *vpp, *detp;
    cJSON_AddItemToObject(o, "ms", timing_block(r, gb, ds, K_DOUBLE, lin_name(), &ratios, &vps, &detail));
    cJSON_AddItemToObject(o, "ratio_to_linear", ratios);
    cJSON_AddItemToObject(o, "vertices_per_s", vps);
    cJSON_AddItemToObject(o, "ms_f32", timing_block(r, gb, ds, K_F32, lin_name(), &ratios32, &vps32, &detail32));
    cJSON_AddItemToObject(o, "ratio_to_linear_f32", ratios32);
    cJSON_AddItemToObject(o, "vertices_per_s_f32", vps32);
    cJSON_AddItemToObject(o, "peers_ms", timing_block(r, gb, ds, K_PEER, "textbook_lbs", &rp, &vpp, &detp));
    cJSON_Delete(rp);
    cJSON_Delete(vpp);
    /* peers beside our kernels: their time over ours (same output) */
    cJSON *pr = cJSON_AddObjectToObject(o, "peer_ratio_to_ours_f32");
    for (int k = 0; skb_peers[k]; k++)
        skb_json_add_number(pr, skb_peers[k]->name, case_ms(r, gb, K_PEER, ds, skb_peers[k]->name)
                                                    / case_ms(r, gb, K_F32, ds, skb_method_role_name(skb_peers[k]->reference)));
    fast_summary(r, gb, ds, o);
    cJSON *checks = cJSON_AddObjectToObject(o, "checks");
    cJSON_AddItemToObject(checks, "double", detail);
    cJSON_AddItemToObject(checks, "f32", detail32);
    cJSON_AddItemToObject(checks, "peers", detp);
}

/* SB's least-squares solves per pose (thesis Table 3.2) and DIB iterations:
 * from the pose_stats hook after prepare (SB) / skin (DIB) on every pose */
static void pose_stats_block(struct ds *ds, const struct skb_run_ctx *ctx, cJSON *out)
{
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        struct skb_skinner s;
        char msg[256];
        if (!m->pose_stats || !m->skin || !skb_run_wants_method(ctx, m)
            || skb_skin_init(&s, m, &ds->d.mesh, msg, sizeof msg) < 0)
            continue;
        double solves = 0, maxsolves = 0, fallbacks = 0;
        int maxit = 0, n = 0, is_sb = (m->flags & SKB_MF_ROT_CENTERS) != 0;
        int step = (m->flags & SKB_MF_ITERATIVE) ? (ds->d.nposes + VERIFY_POSES - 1) / VERIFY_POSES : 1;
        for (int k = 0; k < ds->d.nposes; k += step) {
            struct skb_pose p;
            struct skb_pose_stats st = { 0, 0, 0 };
            skb_dataset_pose(&ds->d, k, &p);
            if (m->prepare(&ds->d.mesh, &p, &ctx->params, s.state) < 0)
                continue;
            if ((m->flags & SKB_MF_ITERATIVE)
                && m->skin(&ds->d.mesh, s.state, 0, ds->d.mesh.nverts, ds->pos, ds->nrm) < 0)
                continue;
            m->pose_stats(&ds->d.mesh, s.state, &st);
            if (is_sb) {
                struct skb__sb_counts c;
                skb__sb_counts(&ds->d.mesh, s.state, &c);
                fallbacks += c.fallback;
            }
            solves += st.solves;
            maxsolves = fmax(maxsolves, st.solves);
            maxit = st.max_iterations > maxit ? st.max_iterations : maxit;
            n++;
        }
        cJSON *o = cJSON_AddObjectToObject(out, m->name);
        cJSON_AddNumberToObject(o, "poses", n);
        skb_json_add_number(o, "solves_per_pose_mean", n ? solves / n : NAN);
        cJSON_AddNumberToObject(o, "solves_per_pose_max", maxsolves);
        cJSON_AddNumberToObject(o, "max_iterations", maxit);
        if (is_sb) {
            /* of the solves: parent-child sets whose pose moved the joint
             * beyond the data's precision (seed 003 section 4 counts them
             * trivial) */
            skb_json_add_number(o, "parent_child_fallbacks_per_pose_mean", n ? fallbacks / n : NAN);
            skb_json_add_number(o, "trivial_tolerance_relative", SKB__SB_TRIVIAL_TOL);
        }
        skb_skin_fini(&s);
    }
}

/* each method's bind (its per-mesh precompute, e.g. CoR's centres, Le &
 * Hodgins 2016 section 4): thread CPU time of one skb_skin_init and the
 * state it keeps, per vertex; a bind that fails gives its error */
static void precompute_block(struct ds *ds, const struct skb_run_ctx *ctx, cJSON *out)
{
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        struct skb_skinner s;
        char msg[256];
        if (!m->skin || !skb_run_wants_method(ctx, m))
            continue;
        cJSON *o = cJSON_AddObjectToObject(out, m->name);
        double t0 = skb_thread_cpu_s();
        if (skb_skin_init(&s, m, &ds->d.mesh, msg, sizeof msg) < 0) {
            cJSON_AddStringToObject(o, "error", msg);
            continue;
        }
        skb_json_add_number(o, "bind_ms", 1e3 * (skb_thread_cpu_s() - t0));
        size_t bytes = m->state_size ? m->state_size(&ds->d.mesh) : 0;
        skb_json_add_number(o, "state_bytes_per_vertex", (double)bytes / ds->d.mesh.nverts);
        skb_skin_fini(&s);
    }
}

/* ---- where DIB's time goes: per vertex, on evenly spaced poses,
 * DIB's iterations (histogram), influences, and the dual quaternion logs and
 * exps it evaluates (its blend form, Algorithm 2 signs: the pre-computed
 * signs give the same blends where the skin check passed); and the CPU cost
 * of one log and one exp (skb_math.c's, the arithmetic dib.c inlines) on the
 * arguments DIB's first pass sees, b* q_i with b = DLB ---- */
#define DIB_WORK_POSES 16
#define DIB_WORK_ARGS 4096

static double ns_per_call(int what, const struct skb_dq *args, int nargs)
{
    struct skb_dq out;
    volatile double sink = 0;
    long calls = 0;
    double t0 = skb_thread_cpu_s(), t;
    do {
        for (int i = 0; i < nargs; i++) {
            if (what == 0)
                skb_dq_log(args + i, &out);
            else
                skb_dq_exp(args + i, &out);
            sink += out.r.x;
        }
        calls += nargs;
    } while ((t = skb_thread_cpu_s() - t0) < 0.02);
    (void)sink;   /* read once: clang warns on a volatile only ever written */
    return t / (double)calls * 1e9;
}

static void dib_work_block(struct ds *ds, const struct skb_run_ctx *ctx, cJSON *o)
{
    const struct skb_method *dib = skb_method_with_flag(SKB_MF_ITERATIVE);
    const struct skb_mesh *mesh = &ds->d.mesh;
    struct skb_dq *args = malloc(sizeof *args * DIB_WORK_ARGS), *logs = malloc(sizeof *logs * DIB_WORK_ARGS);
    double hist[24] = { 0 }, nhist[SKB_MAX_INFLUENCES + 1] = { 0 }, nlog = 0, nexp = 0, count = 0;
    int nargs = 0, poses = 0, step = ds->d.nposes > DIB_WORK_POSES ? ds->d.nposes / DIB_WORK_POSES : 1;
    if (!dib || !args || !logs) {
        free(args);
        free(logs);
        return;
    }
    for (int k = 0; k < ds->d.nposes; k += step, poses++) {
        struct skb_pose p;
        skb_dataset_pose(&ds->d, k, &p);
        for (int v = 0; v < mesh->nverts; v++) {
            double w[SKB_MAX_INFLUENCES], mats[16 * SKB_MAX_INFLUENCES], out[16];
            int n = 0;
            for (int s = 0; s < SKB_MAX_INFLUENCES; s++)
                if (mesh->weight[4 * v + s] > 0) {
                    w[n] = mesh->weight[4 * v + s];
                    memcpy(mats + 16 * n++, p.mats + 16 * mesh->joint[4 * v + s], 16 * sizeof(double));
                }
            struct skb_blend_in in = { n, w, mats, NULL };
            struct skb_blend_stats st;
            if (n == 0 || skb_blend(dib, &in, &ctx->params, out, &st, NULL, 0) < 0)
                continue;
            hist[st.iterations < 23 ? st.iterations : 23]++;
            nhist[n]++;
            nlog += st.logs;
            nexp += st.exps;
            count++;
            /* the first pass's arguments b* q_i (b = DLB, normalised) */
            struct skb_dq q[SKB_MAX_INFLUENCES], b, bc, sum;
            for (int i = 0; i < n && nargs < DIB_WORK_ARGS && n > 1; i++)
                skb_dq_from_mat4(mats + 16 * i, &q[i]);
            if (n > 1 && nargs < DIB_WORK_ARGS && skb__dlb_sum(n, w, q, SKB_ANTIPODAL_PIVOT, &sum) == 0
                && skb_dq_normalize(&sum, &b) == 0) {
                skb_dq_conj(&b, &bc);
                for (int i = 0; i < n && nargs < DIB_WORK_ARGS; i++)
                    skb_dq_mul(&bc, &q[i], args + nargs++);
            }
        }
    }
    for (int i = 0; i < nargs; i++)
        skb_dq_log(args + i, logs + i);
    double log_ns = nargs ? ns_per_call(0, args, nargs) : NAN, exp_ns = nargs ? ns_per_call(1, logs, nargs) : NAN;
    free(args);
    free(logs);
    cJSON *h = cJSON_AddObjectToObject(o, "iterations_histogram"), *nh = cJSON_AddObjectToObject(o, "influences_histogram");
    for (int i = 0; i < 24; i++)
        if (hist[i] > 0) {
            char key[16];
            snprintf(key, sizeof key, i < 23 ? "%d" : ">=%d", i);
            skb_json_add_number(h, key, hist[i]);
        }
    for (int i = 1; i <= SKB_MAX_INFLUENCES; i++) {
        char key[16];
        snprintf(key, sizeof key, "%d", i);
        skb_json_add_number(nh, key, nhist[i]);
    }
    skb_json_add_number(o, "precision", ctx->params.dib_precision);
    cJSON_AddNumberToObject(o, "poses", poses);
    skb_json_add_number(o, "vertex_blends", count);
    skb_json_add_number(o, "logs_per_vertex", count ? nlog / count : NAN);
    skb_json_add_number(o, "exps_per_vertex", count ? nexp / count : NAN);
    skb_json_add_number(o, "log_ns", log_ns);
    skb_json_add_number(o, "exp_ns", exp_ns);
    skb_json_add_number(o, "log_exp_ms_per_deformation",
                        count ? mesh->nverts * (nlog / count * log_ns + nexp / count * exp_ns) * 1e-6 : NAN);
}

static int load_ds(struct run *r, const char *name, int levels, int large, char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { r->ctx->seed, r->ctx->quick, levels };
    struct ds *ds = r->ds + r->nds;
    memset(ds, 0, sizeof *ds);
    int rc = skb_run_dataset_load(r->ctx, name, &o, &ds->d, msg, msglen);
    if (rc < 0)
        return rc;
    r->nds++;
    ds->large = large;
    if (large && ds->d.nposes > LARGE_POSES)
        ds->d.nposes = LARGE_POSES;    /* the first poses are enough to cycle through */
    if ((rc = alloc_outputs(ds)) < 0 || (rc = set_centers(&ds->d)) < 0) {
        snprintf(msg, msglen, "%s: out of memory", ds->d.name);
        return rc;
    }
    return 0;
}

/* every method's double path (DIB across precisions where asked), its fast
 * path, and the peers on one dataset */
static void add_dataset_cases(struct run *r, struct ds *ds)
{
    skb_run_progress(r->ctx, "cpu", "%s: %d vertices, %d joints, %d poses: checking kernels", ds->d.name,
                     ds->d.mesh.nverts, ds->d.mesh.njoints, ds->d.nposes);
    for (int k = 0; skb_methods[k]; k++) {
        const struct skb_method *m = skb_methods[k];
        if (!m->skin || !skb_run_wants_method(r->ctx, m))
            continue;
        add_double(r, ds, m, 0);
        if ((m->flags & SKB_MF_ITERATIVE) && wants_dib_sweep(ds->d.name))
            for (size_t p = 0; p < sizeof dib_precisions / sizeof dib_precisions[0]; p++)
                add_double(r, ds, m, dib_precisions[p]);
        if (m->f32)
            add_f32(r, ds, m);
        if (m->f32 && (m->flags & (SKB_MF_RATIO_REF | SKB_MF_HEADLINE)))
            add_plan(r, ds, m);
    }
    for (int k = 0; skb_peers[k]; k++)
        add_peer(r, ds, skb_peers[k]);
}

/* ---- cpu-gbench.json: Google Benchmark writes its
 * JSON itself and calls exit(1) when it cannot open the file, so the
 * directory is proven writable first; it writes into a temporary file that is
 * renamed only after it parsed; a lock in --out serialises concurrent runs ---- */

struct gb_out {
    int lock_fd;
    char tmp[4112];     /* Google Benchmark's output until it is renamed */
    char final[4096];   /* DIR/cpu-gbench.json */
};

/* temporaries of runs that were killed (we hold the lock: none is live) */
static void reap_gb_temps(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, "cpu-gbench.json.tmp", 19) == 0 && strlen(e->d_name) == 25) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
}

static int gb_lock(const struct skb_run_ctx *ctx, struct gb_out *g, char *msg, size_t msglen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/.skb-cpu.lock", ctx->out_dir);
    g->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (g->lock_fd < 0) {
        snprintf(msg, msglen, "cpu: results directory %s is not writable (%s); nothing was timed", ctx->out_dir,
                 strerror(errno));
        return SKB_EIO;
    }
    if (flock(g->lock_fd, LOCK_EX | LOCK_NB) == 0)
        return 0;
    /* the second run waits: timing two runs at once would skew both */
    skb_run_progress(ctx, "cpu", "waiting for another run cpu writing to %s (lock %s)", ctx->out_dir, path);
    while (flock(g->lock_fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            snprintf(msg, msglen, "cpu: cannot lock %s: %s", path, strerror(errno));
            return SKB_EIO;
        }
    return 0;
}

static int gb_out_open(const struct skb_run_ctx *ctx, struct gb_out *g, char *msg, size_t msglen)
{
    g->tmp[0] = 0;
    int rc = gb_lock(ctx, g, msg, msglen);
    if (rc < 0)
        return rc;
    snprintf(g->final, sizeof g->final, "%s/cpu-gbench.json", ctx->out_dir);
    if ((rc = skb_output_check(g->final, msg, msglen)) < 0)
        return rc;
    reap_gb_temps(ctx->out_dir);
    snprintf(g->tmp, sizeof g->tmp, "%s.tmpXXXXXX", g->final);
    int fd = mkstemp(g->tmp);
    if (fd < 0) {
        snprintf(msg, msglen, "cpu: results directory %s is not writable (%s); nothing was timed", ctx->out_dir,
                 strerror(errno));
        g->tmp[0] = 0;
        return SKB_EIO;
    }
    fchmod(fd, 0644);
    close(fd);
    return 0;
}

/* fsync Google Benchmark's file and rename it into place */
static int gb_out_commit(struct gb_out *g, char *msg, size_t msglen)
{
    int fd = open(g->tmp, O_RDONLY);
    int synced = fd >= 0 && fsync(fd) == 0;
    if (fd >= 0)
        close(fd);
    int rc = synced ? skb_output_check(g->final, msg, msglen) : SKB_EIO;
    if (!synced)
        snprintf(msg, msglen, "%s: cannot flush to disk: %s", g->final, strerror(errno));
    if (rc == 0 && rename(g->tmp, g->final) != 0) {
        snprintf(msg, msglen, "%s: cannot rename into place: %s", g->final, strerror(errno));
        rc = SKB_EIO;
    }
    if (rc == 0)
        g->tmp[0] = 0;
    return rc;
}

static void gb_out_close(struct gb_out *g)
{
    if (g->tmp[0])
        unlink(g->tmp);
    if (g->lock_fd >= 0)
        close(g->lock_fd);   /* releases the lock */
}

/* ---- progress while Google Benchmark times: it prints nothing for the
 * ~45 s of a full run.  A thread that sleeps and wakes every 5 s
 * ($SKB_PROGRESS_INTERVAL seconds: tests use a short one) to print the
 * elapsed time; it touches no timed data, and --quiet starts none. */
static double tick_interval(void)
{
    const char *e = getenv("SKB_PROGRESS_INTERVAL");
    char *end;
    double s = e ? strtod(e, &end) : 0;
    return e && *e && !*end && s >= 0.05 && s <= 3600 ? s : 5;
}

struct ticker {
    const struct skb_run_ctx *ctx;
    double floor_s;             /* kernels x repetitions x min_time: a lower bound */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop, started;
    pthread_t th;
};

static void *ticker_main(void *arg)
{
    struct ticker *t = (struct ticker *)arg;
    struct timespec wake;
    double every = tick_interval(), elapsed = 0;
    clock_gettime(CLOCK_REALTIME, &wake);
    pthread_mutex_lock(&t->mu);
    for (int timed_out = 1; !t->stop;) {
        if (timed_out) {   /* the next deadline; a spurious wakeup keeps it */
            long ns = wake.tv_nsec + (long)(every * 1e9);
            wake.tv_sec += ns / 1000000000L;
            wake.tv_nsec = ns % 1000000000L;
        }
        timed_out = pthread_cond_timedwait(&t->cv, &t->mu, &wake) == ETIMEDOUT;
        if (timed_out && !t->stop) {
            elapsed += every;
            skb_run_progress(t->ctx, "cpu", "timing: %.1f s elapsed (at least %.1f s in all)", elapsed, t->floor_s);
        }
    }
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

static void ticker_start(struct ticker *t, const struct skb_run_ctx *ctx, double floor_s)
{
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
    t->floor_s = floor_s;
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    /* no thread, no lines: progress is optional, the timing is not */
    t->started = ctx->verbose && pthread_create(&t->th, NULL, ticker_main, t) == 0;
}

static void ticker_stop(struct ticker *t)
{
    pthread_mutex_lock(&t->mu);
    t->stop = 1;
    pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->mu);
    if (t->started)
        pthread_join(t->th, NULL);
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
}

static double f32_bpv(struct run *r, const struct ds *ds, const char *label)
{
    struct bcase *c = find_case(r, K_F32, ds, label);
    return c ? skb_skin_f32_bytes_per_vertex(&c->fk) : NAN;
}

/* how the fractions are counted, in the file beside them (the
 * same statistic and the same bytes convention for kernel and copy) */
static void roofline_convention(cJSON *rf)
{
    cJSON *c = cJSON_AddObjectToObject(rf, "convention");
    cJSON_AddStringToObject(c, "statistic", "one thread: the median CPU time of the kernel and of memcpy alike; the "
                            "pool: the median wall time of the kernel and of memcpy split over the same pool alike");
    cJSON_AddStringToObject(c, "bytes", "memcpy: its buffer read once and written once (2 x its size); a kernel: "
                            "its vertex streams read and its outputs written, from its layout (bytes_per_vertex; "
                            "per-joint data, which stays in cache, excluded)");
    cJSON_AddStringToObject(c, "write_allocate", "counted on neither side in fraction_of_roofline: the kernels "
                            "store through the cache, and so does glibc's memcpy below its non-temporal threshold "
                            "(README), so each written line is also read once on both sides; "
                            "fraction_of_roofline_write_allocate counts it on both (memcpy 3 x its size, a kernel "
                            "bytes_per_vertex + write_bytes_per_vertex)");
}

/* each one-thread fast kernel's CPU time over the copy's in this process
 * (the in-process control: absolute times on shared VMs drift 5-40 %
 * between runs, this ratio is what separate processes are compared on;
 * scripts/device-cpu.sh reads the progress line) */
static void control_ratios(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o)
{
    static const char *const sfx[] = { "", "@slot4", "+nrm_shader", "@plan", "", "@slot4", "@plan" };
    char ks[sizeof sfx / sizeof sfx[0]][64];
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
        label(ks[i], sizeof ks[i], i < 4 ? lin_name() : head_name(), sfx[i]);
    double cp = case_ms(r, gb, K_COPY, ds, "memcpy");
    char line[600];
    int len = snprintf(line, sizeof line, "control on %s:", ds->d.name);
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        double x = case_ms(r, gb, K_F32, ds, ks[i]) / cp;
        skb_json_add_number(o, ks[i], x);
        if (len > 0 && (size_t)len < sizeof line)
            len += snprintf(line + len, sizeof line - (size_t)len, " %s/memcpy=%.4f", ks[i], x);
    }
    cJSON_AddStringToObject(o, "statistic", "median CPU time of the kernel over the median CPU time of memcpy "
                            "(72 bytes a vertex), one thread, both from this process");
    skb_run_progress(r->ctx, "cpu", "%s", line);
}

/* the scaling curve on the roofline mesh: LBS and DLB (split, renormalised)
 * and the copy at 1, 2, 4, ... threads and at every CPU, all in wall time;
 * on 2 CPUs or fewer it says so (the curve needs more) */
static void scaling_block(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o)
{
    int th[18], n = 0, cpus = skb_pool_cpus();
    th[n++] = 1;
    for (int i = 0; i < r->npools; i++)
        th[n++] = skb_pool_threads(r->pools[i]);
    if (r->pool)
        th[n++] = skb_pool_threads(r->pool);
    cJSON_AddNumberToObject(o, "cpus", cpus);
    if (cpus <= 2)
        cJSON_AddStringToObject(o, "note", "2 cores only: no scaling curve beyond the 2-thread pool");
    double bytes = 2.0 * LBS_F32_BYTES_PER_VERTEX * ds->d.mesh.nverts;
    double lin1 = case_real_ms(r, gb, ds, lin_name()), dlb1 = case_real_ms(r, gb, ds, head_name());
    cJSON *pts = cJSON_AddArrayToObject(o, "points");
    for (int i = 0; i < n; i++) {
        char ll[64], ld[64], lc[64];
        thread_label(ll, sizeof ll, lin_name(), th[i]);
        thread_label(ld, sizeof ld, head_name(), th[i]);
        thread_label(lc, sizeof lc, "memcpy", th[i]);
        struct bcase *cc = find_case(r, K_COPY, ds, lc);
        double cms = cc ? gbench_timing(gb, cc->name).real_ms : NAN;
        double lms = case_real_ms(r, gb, ds, ll), dms = case_real_ms(r, gb, ds, ld);
        double bl = f32_bpv(r, ds, ll) * ds->d.mesh.nverts, bd = f32_bpv(r, ds, ld) * ds->d.mesh.nverts;
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "threads", th[i]);
        skb_json_add_number(p, "linear_ms", lms);
        skb_json_add_number(p, "dlb_ms", dms);
        skb_json_add_number(p, "memcpy_ms", cms);
        skb_json_add_number(p, "copy_bandwidth_GBps", bytes / (cms * 1e-3) / 1e9);
        skb_json_add_number(p, "linear_speedup", lin1 / lms);
        skb_json_add_number(p, "dlb_speedup", dlb1 / dms);
        skb_json_add_number(p, "linear_vertices_per_s", ds->d.mesh.nverts / (lms * 1e-3));
        skb_json_add_number(p, "linear_fraction_of_copy", bl / (bytes / (cms * 1e-3)) / (lms * 1e-3));
        skb_json_add_number(p, "dlb_fraction_of_copy", bd / (bytes / (cms * 1e-3)) / (dms * 1e-3));
        cJSON_AddItemToArray(pts, p);
        skb_run_progress(r->ctx, "cpu", "scaling %d threads: linear %.4g ms (x%.2f, %.3g vertices/s, %.2f of the copy), "
                         "dlb %.4g ms (x%.2f, %.2f of the copy), copy %.1f GB/s", th[i], lms, lin1 / lms,
                         ds->d.mesh.nverts / (lms * 1e-3), bl / (bytes / (cms * 1e-3)) / (lms * 1e-3), dms, dlb1 / dms,
                         bd / (bytes / (cms * 1e-3)) / (dms * 1e-3), bytes / (cms * 1e-3) / 1e9);
    }
    cJSON_AddStringToObject(o, "statistic", "median wall time per deformation at each thread count (one thread "
                            "too), the copy split over a pool of as many threads");
}

/* the roofline mesh: copy bandwidth on one thread (CPU time) and on the
 * pool (wall time), each kernel's fraction of it (in its checks entry),
 * and the headline fractions and ratios */
static void large_mesh_block(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o)
{
    int nt = r->pool ? skb_pool_threads(r->pool) : 1;
    char lt[32];
    snprintf(lt, sizeof lt, "memcpy@%dt", nt);
    double bytes = (double)LBS_F32_BYTES_PER_VERTEX * ds->d.mesh.nverts, n = ds->d.mesh.nverts;
    double cp = case_ms(r, gb, K_COPY, ds, "memcpy"), cpn = NAN, cpw = NAN;
    struct bcase *cn = find_case(r, K_COPY, ds, lt), *c1 = find_case(r, K_COPY, ds, "memcpy");
    if (cn)
        cpn = gbench_timing(gb, cn->name).real_ms;
    if (c1)
        cpw = gbench_timing(gb, c1->name).real_ms;
    r->copy_bps[0] = 2 * bytes / (cp * 1e-3);   /* memcpy reads and writes every byte */
    r->copy_bps[1] = 2 * bytes / (cpn * 1e-3);
    r->copy_scaling = cpw / cpn;
    cJSON_AddStringToObject(o, "dataset", ds->d.name);
    cJSON_AddNumberToObject(o, "vertices", ds->d.mesh.nverts);
    cJSON_AddNumberToObject(o, "joints", ds->d.mesh.njoints);
    cJSON_AddNumberToObject(o, "poses_cycled", ds->d.nposes);
    add_timings(r, gb, ds, o);
    char lsh[64];
    label(lsh, sizeof lsh, lin_name(), "+nrm_shader");
    double lin = case_ms(r, gb, K_F32, ds, lin_name()), dlb = case_ms(r, gb, K_F32, ds, head_name());
    double sh = case_ms(r, gb, K_F32, ds, lsh);
    double bl = f32_bpv(r, ds, lin_name()), bs = f32_bpv(r, ds, lsh), bd = f32_bpv(r, ds, head_name());
    skb_json_add_number(o, "dlb_over_linear_f32", dlb / lin);
    cJSON *rf = cJSON_AddObjectToObject(o, "roofline");
    cJSON_AddStringToObject(rf, "bytes", "per vertex, counted from each kernel's layout (checks.f32.*.bytes_per_vertex); "
                            "fraction = those bytes at the copy bandwidth over the measured time");
    skb_json_add_number(rf, "linear_f32_bytes_per_vertex", bl);
    skb_json_add_number(rf, "memcpy_ms", cp);
    skb_json_add_number(rf, "copy_bandwidth_GBps", r->copy_bps[0] / 1e9);
    cJSON_AddNumberToObject(rf, "copy_threads", nt);
    skb_json_add_number(rf, "memcpy_threads_real_ms", cpn);
    skb_json_add_number(rf, "copy_bandwidth_threads_GBps", r->copy_bps[1] / 1e9);
    /* scaling wall time against wall time: on a shared machine one thread's
     * wall time exceeds its CPU time by the time others held the CPU */
    skb_json_add_number(rf, "memcpy_real_ms", cpw);
    skb_json_add_number(rf, "copy_bandwidth_wall_GBps", 2 * bytes / (cpw * 1e-3) / 1e9);
    skb_json_add_number(rf, "copy_bandwidth_scaling", cpw / cpn);
    skb_json_add_number(rf, "linear_f32_roofline_ms", bl * n / r->copy_bps[0] * 1e3);
    skb_json_add_number(rf, "linear_f32_ms", lin);
    skb_json_add_number(rf, "linear_f32_fraction_of_roofline", bl * n / r->copy_bps[0] * 1e3 / lin);
    skb_json_add_number(rf, "linear_nrm_shader_f32_fraction_of_roofline", bs * n / r->copy_bps[0] * 1e3 / sh);
    skb_json_add_number(rf, "dlb_f32_fraction_of_roofline", bd * n / r->copy_bps[0] * 1e3 / dlb);
    roofline_convention(rf);
    control_ratios(r, gb, ds, cJSON_AddObjectToObject(o, "ratio_to_copy"));
    scaling_block(r, gb, ds, cJSON_AddObjectToObject(o, "scaling"));
    skb_run_progress(r->ctx, "cpu", "%s: linear f32 %.3g ms, dlb f32 %.3g ms (x%.2f), copy %.1f GB/s (%d threads: "
                     "%.1f GB/s): LBS at %.2f of the roofline, LBS with normals left to the shader at %.2f",
                     ds->d.name, lin, dlb, dlb / lin, r->copy_bps[0] / 1e9, nt, r->copy_bps[1] / 1e9,
                     bl * n / r->copy_bps[0] * 1e3 / lin, bs * n / r->copy_bps[0] * 1e3 / sh);
}

/* what each peer's timed work is, beside our kernels' layout/normals/threads */
static void peers_block(cJSON *o)
{
    for (int k = 0; skb_peers[k]; k++) {
        const struct skb_peer_ops *p = skb_peers[k];
        cJSON *e = cJSON_AddObjectToObject(o, p->name);
        cJSON_AddStringToObject(e, "description", p->description);
        cJSON_AddStringToObject(e, "reference", skb_method_role_name(p->reference));
        cJSON_AddStringToObject(e, "layout", p->layout ? p->layout : "—");
        cJSON_AddStringToObject(e, "normals", p->normals ? p->normals : "—");
        cJSON_AddNumberToObject(e, "threads", p->threads);
    }
}

/* --repetitions N, else the default of the mode */
static int repetitions(const struct skb_run_ctx *ctx)
{
    return ctx->repetitions > 0 ? ctx->repetitions : ctx->quick ? QUICK_REPS : FULL_REPS;
}

/* ICOUNT_DEFORMS deformations of case arg, each at the pose next_pose
 * held fixed (so they cost the same; the injected work is exact) */
static void deform_counted(void *arg)
{
    struct bcase *c = arg;
    int pose = c->next_pose;
    for (int k = 0; k < SKB_ICOUNT_DEFORMS; k++) {
        c->next_pose = pose;
        time_deform(c, 1);
    }
}

/* the callgrind child of `run icount`: every checked kernel, one deformation
 * each at the same pose (the middle of its clip: bent, not the bind pose) */
static void count_cases(struct run *r)
{
    for (int i = 0; i < r->nc; i++) {
        struct bcase *c = r->c + i;
        if (c->error || c->kind == K_COPY)
            continue;
        c->next_pose = c->ds->d.nposes / 2;
        c->inject_acc = 0;
        c->inject_off = 0;
        skb__icount_measure(c->name, deform_counted, c);
    }
}

/* every dataset this run times, loaded before any thread starts (see
 * cpu_run): the default ones with their own clips (or the user's model
 * alone), the human's random poses, and, outside the instruction count,
 * the roofline mesh.  A default dataset that fails is skipped and named. */
static int load_all(struct run *r, char *msg, size_t msglen)
{
    const struct skb_run_ctx *ctx = r->ctx;
    char lmsg[512];
    int rc;
    if (ctx->dataset_file) {
        if ((rc = load_ds(r, ctx->dataset_file, 0, 0, lmsg, sizeof lmsg)) < 0) {
            snprintf(msg, msglen, "cpu: %s", lmsg);
            return rc;
        }
        return 0;
    }
    for (int i = 0; skb_dataset_sources[i]; i++) {
        const struct skb_dataset_source *s = skb_dataset_sources[i];
        if (!s->in_default_set || !skb_run_wants_dataset(ctx, s->name))
            continue;
        if (load_ds(r, s->name, 0, 0, lmsg, sizeof lmsg) < 0) {
            cJSON_AddStringToObject(r->failures, s->name, lmsg);
            skb_run_progress(ctx, "cpu", "dataset %s skipped: %s", s->name, lmsg);
        }
    }
    /* a second pose sequence for the human: random poses within joint limits */
    if (skb_run_wants_dataset(ctx, RANDOM_POSE_SOURCE "+random")
        && load_ds(r, RANDOM_POSE_SOURCE, 0, 0, lmsg, sizeof lmsg) == 0) {
        struct ds *ds = r->ds + r->nds - 1;
        if (skb_dataset_random_poses(&ds->d, ctx->quick ? QUICK_RANDOM_POSES : RANDOM_POSES,
                                     RANDOM_POSE_LIMIT, ctx->seed, lmsg, sizeof lmsg) == 0) {
            snprintf(ds->d.name, sizeof ds->d.name, "%s+random", RANDOM_POSE_SOURCE);
        } else {
            cJSON_AddStringToObject(r->failures, RANDOM_POSE_SOURCE "+random", lmsg);
            skb_dataset_free(&ds->d);
            free(ds->out_block);
            r->nds--;
        }
    }
    /* the roofline mesh: a subdivided model that leaves the caches
     * (with --datasets only when the list names "roofline") */
    if (!skb__icount_child() && (!ctx->datasets_filter || skb_run_wants_dataset(ctx, "roofline"))) {
        int levels = ctx->quick ? QUICK_LARGE_LEVELS : LARGE_LEVELS;
        if ((rc = load_ds(r, LARGE_SOURCE, levels, 1, lmsg, sizeof lmsg)) < 0) {
            snprintf(msg, msglen, "cpu: large mesh: %s", lmsg);
            return SKB_ENOMEM;
        }
    }
    return 0;
}

/* the roofline mesh's cases: every fast method's double and f32 paths, the
 * peers, and the copy on one thread and on the pool */
static void add_large_cases(struct run *r, struct ds *ds)
{
    skb_run_progress(r->ctx, "cpu", "%s: %d vertices (roofline mesh): checking kernels", ds->d.name,
                     ds->d.mesh.nverts);
    for (int k = 0; skb_methods[k]; k++) {
        const struct skb_method *m = skb_methods[k];
        if (!m->f32 || !skb_run_wants_method(r->ctx, m))
            continue;
        add_double(r, ds, m, 0);
        add_f32(r, ds, m);
        if (m->flags & (SKB_MF_RATIO_REF | SKB_MF_HEADLINE)) {
            add_plan(r, ds, m);
            /* the scaling curve's thread counts below the full pool */
            for (int i = 0; i < r->npools; i++)
                add_f32_mode(r, ds, m, SKB_F32_NRM_RENORM, SKB_F32_LAYOUT_SPLIT, skb_pool_threads(r->pools[i]));
        }
    }
    for (int k = 0; skb_peers[k]; k++)
        add_peer(r, ds, skb_peers[k]);
    add_copy(r, ds, 1);
    for (int i = 0; i < r->npools; i++)
        add_copy(r, ds, skb_pool_threads(r->pools[i]));
    if (r->pool)
        add_copy(r, ds, skb_pool_threads(r->pool));
}

/* ---- the planner's settings, wisdom and cost; the offset sweep ---- */

static const char *const planner_modes[] = { "measure", "wisdom", "none" };

/* the build in the wisdom key: compiler, and the binary's size and time */
static void build_identity(struct run *r)
{
    struct stat sb;
    const char *exe = r->ctx->exe_path ? r->ctx->exe_path : "";
    if (exe[0] && stat(exe, &sb) == 0)
        snprintf(r->build, sizeof r->build, "gcc-compatible %s; %lld bytes, modified %lld", __VERSION__,
                 (long long)sb.st_size, (long long)sb.st_mtime);
    else
        snprintf(r->build, sizeof r->build, "%s", __VERSION__);
}

/* before any timing: --planner wisdom reads its file (an error names it) */
static int planner_setup(struct run *r, char *msg, size_t msglen)
{
    const struct skb_run_ctx *ctx = r->ctx;
    build_identity(r);
    if (ctx->planner != SKB_PLAN_WISDOM)
        return 0;
    if (ctx->wisdom_file)
        snprintf(r->wisdom_path, sizeof r->wisdom_path, "%s", ctx->wisdom_file);
    else if (skb_wisdom_default_path(r->wisdom_path, sizeof r->wisdom_path) < 0) {
        snprintf(msg, msglen, "cpu: --planner wisdom: no --wisdom FILE and neither XDG_CACHE_HOME nor HOME set");
        return SKB_EINVAL;
    }
    /* refused before any timing: the file is rewritten at the end */
    int rc = skb_output_check(r->wisdom_path, msg, msglen);
    if (rc == 0)
        rc = skb_wisdom_read(r->wisdom_path, &r->wisdom, msg, msglen);
    if (rc < 0) {
        char why[600];
        snprintf(why, sizeof why, "%s", msg);
        snprintf(msg, msglen, "cpu: %s", why);
    }
    return rc;
}

/* after planning: the wisdom written back (atomically) */
static int planner_finish(struct run *r, char *msg, size_t msglen)
{
    if (!r->wisdom)
        return 0;
    int rc = skb_wisdom_write(r->wisdom_path, r->wisdom, msg, msglen);
    if (rc < 0) {
        char why[600];
        snprintf(why, sizeof why, "%s", msg);
        snprintf(msg, msglen, "cpu: wisdom: %s", why);
    }
    return rc;
}

static void planner_block(struct run *r, cJSON *o)
{
    const struct skb_run_ctx *ctx = r->ctx;
    cJSON_AddStringToObject(o, "mode", planner_modes[ctx->planner]);
    cJSON_AddStringToObject(o, "default_mode", "measure");
    skb_json_add_number(o, "budget_ms_per_candidate", ctx->planner_budget_ms > 0 ? ctx->planner_budget_ms
                        : ctx->quick ? 0.1 * SKB_PLAN_DEFAULT_BUDGET_MS : SKB_PLAN_DEFAULT_BUDGET_MS);
    if (r->wisdom)
        cJSON_AddStringToObject(o, "wisdom_file", r->wisdom_path);
    cJSON_AddStringToObject(o, "build", r->build);
    cJSON_AddNumberToObject(o, "plans", r->nplans);
    skb_json_add_number(o, "planning_ms_total", r->plan_ms);
    skb_json_add_number(o, "planning_ms_per_plan", r->nplans ? r->plan_ms / r->nplans : NAN);
    cJSON_AddStringToObject(o, "where", "every plan with its candidates: datasets.*.fast_kernels.plans and "
                            "large_mesh.fast_kernels.plans");
}

/* --offset-sweep: the roofline mesh alone, swept (harness/fast_sweep.c) */
static int offset_sweep(struct run *r, char *msg, size_t msglen)
{
    const struct skb_run_ctx *ctx = r->ctx;
    char lmsg[512];
    if (!(r->ds = calloc(1, sizeof *r->ds))) {
        snprintf(msg, msglen, "cpu: out of memory");
        return SKB_ENOMEM;
    }
    int rc = load_ds(r, LARGE_SOURCE, ctx->quick ? QUICK_LARGE_LEVELS : LARGE_LEVELS, 1, lmsg, sizeof lmsg);
    if (rc < 0) {
        snprintf(msg, msglen, "cpu: large mesh: %s", lmsg);
        return rc;
    }
    return skb__fast_offset_sweep(ctx, &r->ds[0].d, msg, msglen);
}

static int cpu_run(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    struct run r;
    int rc = 0, nsrc = 0;
    struct gb_out g = { -1, "", "" };
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.failures = cJSON_CreateObject();
    r.plans = cJSON_CreateObject();
    if ((rc = read_injection(&r.inject, msg, msglen)) < 0)
        goto out;
    if (ctx->offset_sweep) {
        rc = offset_sweep(&r, msg, msglen);
        goto out;
    }
    if ((rc = planner_setup(&r, msg, msglen)) < 0)
        goto out;
    /* before any work: a read-only --out fails here with the directory named */
    if ((rc = gb_out_open(ctx, &g, msg, msglen)) < 0)
        goto out;
    while (skb_dataset_sources[nsrc])
        nsrc++;
    r.ds = calloc((size_t)nsrc + 3, sizeof *r.ds);   /* + random poses + large mesh */
    if (!r.ds) {
        snprintf(msg, msglen, "cpu: out of memory");
        rc = SKB_ENOMEM;
        goto out;
    }
    if ((rc = load_all(&r, msg, msglen)) < 0)
        goto out;
    /* the fast kernels on every CPU: one persistent pool, started
     * only after every dataset is loaded — an importer runs in a forked child
     * (datasets/isolate.c), and a fork while other threads run can hand the
     * child a lock no thread will release (1 in 6 ASan runs of `run all
     * --dataset huesitos.fbx` hung the importer until its time limit).  Not
     * under the instruction count: callgrind's window counts every
     * thread, and how long idle workers spin is scheduling, not code */
    if (!skb__icount_child() && skb_pool_cpus() > 1 && skb_pool_create(skb_pool_cpus() < SKB_POOL_MAX_THREADS ? skb_pool_cpus()
                                               : SKB_POOL_MAX_THREADS, &r.pool) < 0) {
        snprintf(msg, msglen, "cpu: cannot start the thread pool");
        rc = SKB_ENOMEM;
        goto out;
    }
    /* the scaling curve's smaller pools: 2, 4, 8, ... threads */
    for (int k = 2; r.pool && k < skb_pool_threads(r.pool) && r.npools < 16; k *= 2)
        if (skb_pool_create(k, r.pools + r.npools) == 0)
            r.npools++;
    for (int i = 0; i < r.nds; i++) {
        if (r.ds[i].large)
            add_large_cases(&r, r.ds + i);
        else
            add_dataset_cases(&r, r.ds + i);
    }
    if ((rc = planner_finish(&r, msg, msglen)) < 0)
        goto out;
    /* instruction counts (run icount): one deformation of each kernel on
     * the small meshes, under callgrind, instead of timing */
    mark_injected(r.c, r.nc, &r.inject);
    if (skb__icount_child()) {
        count_cases(&r);
        goto out;
    }
    /* register what passed its checks, then let Google Benchmark time it */
    int nreg = 0;
    for (int i = 0; i < r.nc; i++) {
        struct bcase *c = r.c + i;
        if (c->error)
            continue;
        nreg++;
        skb_bench_add(c->name, c->kind == K_COPY ? time_copy : time_deform, c, 1, (double)c->ds->d.mesh.nverts);
    }
    {
        char seedctx[64];
        snprintf(seedctx, sizeof seedctx, "skinbench_seed=%lu", ctx->seed);
        struct skb_bench_opts bo = { ctx->quick ? QUICK_MIN_TIME : FULL_MIN_TIME, repetitions(ctx), 1, g.tmp, 0,
                                     { seedctx, "skinbench_experiment=cpu", NULL } };
        skb_run_progress(ctx, "cpu", "timing %d kernels x %d repetitions (Google Benchmark, interleaved)",
                         r.nc, bo.repetitions);
        struct ticker tick;
        ticker_start(&tick, ctx, nreg * bo.repetitions * bo.min_time);
        if (getloadavg(r.load[0], 3) < 3)
            r.load[0][0] = NAN;
        rc = skb_bench_run(&bo, msg, msglen);
        if (getloadavg(r.load[1], 3) < 3)
            r.load[1][0] = NAN;
        ticker_stop(&tick);
        if (rc < 0)
            goto out;
    }
    /* a kernel that failed inside the timed loop is dropped, not reported */
    for (int i = 0; i < r.nc; i++)
        if (r.c[i].error && !cJSON_GetObjectItemCaseSensitive(r.failures, r.c[i].name))
            fail_case(&r, r.c + i, skb_strerror(r.c[i].error));
    cJSON *gb = NULL;
    if ((rc = skb_json_read_file(g.tmp, &gb, msg, msglen)) < 0) {
        char why[400];
        snprintf(why, sizeof why, "%s", msg);
        snprintf(msg, msglen, "cpu: Google Benchmark's output is incomplete (disk full?); %s kept: %s", g.final, why);
        goto out;
    }
    struct skb_gbench_set gset;
    rc = skb_gbench_parse(gb, &gset, msg, msglen);
    skb_gbench_set_free(&gset);
    if (rc < 0) {
        char why[400];
        snprintf(why, sizeof why, "%s", msg);
        snprintf(msg, msglen, "cpu: Google Benchmark's output is unreadable; %s kept: %s", g.final, why);
        cJSON_Delete(gb);
        goto out;
    }
    if ((rc = gb_out_commit(&g, msg, msglen)) < 0) {
        cJSON_Delete(gb);
        goto out;
    }

    cJSON *root = skb_json_results_new(ctx, "cpu");
    cJSON *bench = cJSON_AddObjectToObject(root, "benchmark");
    cJSON_AddStringToObject(bench, "tool", "Google Benchmark (libbenchmark, Debian package)");
    cJSON_AddNumberToObject(bench, "min_time_s", ctx->quick ? QUICK_MIN_TIME : FULL_MIN_TIME);
    cJSON_AddNumberToObject(bench, "repetitions", repetitions(ctx));
    cJSON_AddBoolToObject(bench, "random_interleaving", 1);
    cJSON_AddStringToObject(bench, "statistic", "median over repetitions of CPU time per deformation");
    cJSON_AddStringToObject(bench, "raw", "cpu-gbench.json");
    const cJSON *gctx = cJSON_GetObjectItemCaseSensitive(gb, "context");
    const cJSON *lbt = cJSON_GetObjectItemCaseSensitive(gctx, "library_build_type");
    cJSON_AddStringToObject(bench, "library_build_type", cJSON_IsString(lbt) ? lbt->valuestring : "unknown");
    if (gctx)
        cJSON_AddItemToObject(bench, "context", cJSON_Duplicate(gctx, 1));

    peers_block(cJSON_AddObjectToObject(root, "peers"));
    planner_block(&r, cJSON_AddObjectToObject(root, "planner"));
    /* how shared the CPUs were: the pool's wall-time scaling means little
     * when the load exceeds the CPUs */
    cJSON *mc = cJSON_AddObjectToObject(root, "cpus");
    cJSON_AddNumberToObject(mc, "available", skb_pool_cpus());
    cJSON_AddNumberToObject(mc, "pool_threads", r.pool ? skb_pool_threads(r.pool) : 1);
    skb_json_add_number(mc, "load_average_1min_before", r.load[0][0]);
    skb_json_add_number(mc, "load_average_1min_after", r.load[1][0]);
    cJSON *dsj = cJSON_AddObjectToObject(root, "datasets");
    for (int i = 0; i < r.nds; i++) {
        struct ds *ds = r.ds + i;
        if (ds->large)
            continue;
        cJSON *o = cJSON_AddObjectToObject(dsj, ds->d.name);
        cJSON_AddNumberToObject(o, "vertices", ds->d.mesh.nverts);
        cJSON_AddNumberToObject(o, "triangles", ds->d.mesh.ntris);
        cJSON_AddNumberToObject(o, "joints", ds->d.mesh.njoints);
        cJSON_AddNumberToObject(o, "poses", ds->d.nposes);
        cJSON_AddStringToObject(o, "clip", ds->d.clip);
        cJSON_AddStringToObject(o, "source", ds->d.source);
        add_timings(&r, gb, ds, o);
        cJSON *dib = cJSON_AddObjectToObject(o, "dib_precision");
        for (int k = 0; skb_methods[k]; k++) {
            const struct skb_method *m = skb_methods[k];
            if (!(m->flags & SKB_MF_ITERATIVE) || !wants_dib_sweep(ds->d.name))
                continue;
            char label[64];
            skb_json_add_number(dib, "1e-05", case_ms(&r, gb, K_DOUBLE, ds, m->name));
            for (size_t p = 0; p < sizeof dib_precisions / sizeof dib_precisions[0]; p++) {
                char key[32];
                double_label(label, sizeof label, m->name, NULL, dib_precisions[p]);
                snprintf(key, sizeof key, "%g", dib_precisions[p]);
                skb_json_add_number(dib, key, case_ms(&r, gb, K_DOUBLE, ds, label));
            }
        }
        pose_stats_block(ds, ctx, cJSON_AddObjectToObject(o, "pose_stats"));
        precompute_block(ds, ctx, cJSON_AddObjectToObject(o, "precompute"));
        const struct skb_method *dm = skb_method_with_flag(SKB_MF_ITERATIVE);
        if (wants_dib_sweep(ds->d.name) && dm && skb_run_wants_method(ctx, dm)) {
            cJSON *dw = cJSON_AddObjectToObject(o, "dib_work");
            dib_work_block(ds, ctx, dw);
            double dib_ms = case_ms(&r, gb, K_DOUBLE, ds, dm->name), dlb_ms = case_ms(&r, gb, K_DOUBLE, ds, head_name());
            skb_json_add_number(dw, "dib_ms", dib_ms);
            skb_json_add_number(dw, "dlb_ms", dlb_ms);
            skb_json_add_number(dw, "dib_minus_dlb_ms", dib_ms - dlb_ms);
        }
        cJSON *cnt = cJSON_AddObjectToObject(o, "load");
        cJSON_AddNumberToObject(cnt, "renormalized", ds->d.renormalized);
        cJSON_AddNumberToObject(cnt, "truncated", ds->d.truncated);
        cJSON_AddNumberToObject(cnt, "orthonormalized", ds->d.orthonormalized);
    }
    /* roofline on the large mesh */
    for (int i = 0; i < r.nds; i++) {
        struct ds *ds = r.ds + i;
        if (!ds->large)
            continue;
        large_mesh_block(&r, gb, ds, cJSON_AddObjectToObject(root, "large_mesh"));
    }
    int nfail = cJSON_GetArraySize(r.failures);
    cJSON_AddBoolToObject(root, "verified", nfail == 0 && r.timed_unchecked == 0);
    skb__cpu_injection_json(root, msg, msglen);
    cJSON_AddItemToObject(root, "failures", cJSON_Duplicate(r.failures, 1));
    rc = skb_results_write(ctx, &skb_schema_cpu, root, msg, msglen);
    cJSON_Delete(root);
    cJSON_Delete(gb);
    if (rc == 0 && nfail)
        skb_run_progress(ctx, "cpu", "%d kernel(s) failed their checks and were not timed (see cpu.json)", nfail);
out:
    free_run(&r);
    gb_out_close(&g);
    return rc;
}

const struct skb_experiment skb_exp_cpu = {
    .name = "cpu",
    .description = "CPU time per deformation of every method, fast kernels, roofline, peers",
    .run = cpu_run,
    .takes_dataset = 1,
    .dataset_note = "every method's skin path verified and timed over its animation (the roofline mesh stays the subdivided body)",
    .takes_datasets_filter = 1,
};
