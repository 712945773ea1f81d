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
#include "skb_fast.h"
#include "skb_icount.h"
#include "skb_results.h"
#include "skb_peers.h"
#include "skb_run.h"
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

static const double dib_precisions[] = { 1e-3, 1e-7 };   /* the default 1e-5 is "dib" itself */
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
    struct ds *ds;
    const struct skb_method *m;
    struct skb_params prm;
    struct skb_skinner sk;
    struct skb_skinner_f32 fk;
    const struct skb_peer_ops *peer;
    struct skb_peer *pp;
    char *src, *dst;
    size_t bytes;
    int next_pose, error;
    double check_error;         /* worst error found / tolerance */
    long inject_acc;            /* injected prepares owed, INJECT_UNIT = one */
    int injected;               /* SKB_INJECT_SLOWDOWN names this kernel's method */
    int inject_off;             /* where the next injected skin slice starts */
    int checked_poses;
};

struct run {
    const struct skb_run_ctx *ctx;
    struct ds *ds;
    int nds;
    struct bcase *c;
    int nc, cap;
    cJSON *failures;            /* {"case": "message"} */
    int timed_unchecked;
};

/* ---- slow-down injection (validating the compare gates, issue 16) ----
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
static struct { char method[64]; double frac; long per_deform; } inject;

static int read_injection(char *msg, size_t msglen)
{
    const char *v = getenv("SKB_INJECT_SLOWDOWN");
    memset(&inject, 0, sizeof inject);
    if (!v || !*v)
        return 0;
    const char *colon = strchr(v, ':');
    char *end = NULL;
    double pct = colon ? strtod(colon + 1, &end) : NAN;
    size_t n = colon ? (size_t)(colon - v) : 0;
    if (!colon || n == 0 || n >= sizeof inject.method || end == colon + 1 || *end || !(pct > 0 && pct <= 1000)) {
        snprintf(msg, msglen, "cpu: SKB_INJECT_SLOWDOWN '%s': expected METHOD:PERCENT with 0 < PERCENT <= 1000", v);
        return SKB_EINVAL;
    }
    memcpy(inject.method, v, n);
    inject.frac = pct / 100;
    inject.per_deform = lround(pct * (INJECT_UNIT / 100));
    return 0;
}

int skb__cpu_injection_json(cJSON *root, char *msg, size_t msglen)
{
    int rc = read_injection(msg, msglen);
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
static void mark_injected(struct bcase *c, int n)
{
    for (int i = 0; i < n; i++)
        c[i].injected = inject.per_deform > 0 && c[i].m && c[i].kind != K_PEER
                        && strcmp(c[i].m->name, inject.method) == 0;
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
            rc = skb__skin_f32_run(&c->fk, 0, mesh->nverts, c->ds->fpos, c->ds->fnrm);
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
    long left = (long)((double)inject.per_deform / INJECT_UNIT * nv + 0.5);
    while (left > 0 && rc >= 0) {
        int v0 = c->inject_off % nv;
        int v1 = left < nv - v0 ? v0 + (int)left : nv;
        rc = skin_range(c, v0, v1);
        left -= v1 - v0;
        c->inject_off = v1 % nv;
    }
    for (c->inject_acc += inject.per_deform; c->inject_acc >= INJECT_UNIT && rc >= 0; c->inject_acc -= INJECT_UNIT)
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

static void time_copy(void *arg, long iters)
{
    struct bcase *c = (struct bcase *)arg;
    for (long i = 0; i < iters; i++) {
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
    if (skb_blend(c->m, &in, &c->prm, out, NULL, bmsg, sizeof bmsg) < 0) {
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

static void add_double(struct run *r, struct ds *ds, const struct skb_method *m, double dib_p)
{
    char label[64], msg[512];
    if (dib_p > 0)
        snprintf(label, sizeof label, "%s@p=%g", m->name, dib_p);
    else
        snprintf(label, sizeof label, "%s", m->name);
    struct bcase *c = new_case(r, K_DOUBLE, ds, label);
    if (!c)
        return;
    c->m = m;
    if (dib_p > 0)
        c->prm.dib_precision = dib_p;
    if (skb_skin_init(&c->sk, m, &ds->d.mesh, msg, sizeof msg) < 0 || check_double(c, msg, sizeof msg) < 0)
        fail_case(r, c, msg);
}

static void add_f32_mode(struct run *r, struct ds *ds, const struct skb_method *m, enum skb_f32_normals mode)
{
    char msg[512], label[64];
    snprintf(label, sizeof label, "%s%s%s", m->name, mode == SKB_F32_NRM_RENORM ? "" : "+nrm_",
             mode == SKB_F32_NRM_RENORM ? "" : skb_f32_normals_name(mode));
    struct bcase *c = new_case(r, K_F32, ds, label);
    if (!c)
        return;
    c->m = m;
    if (skb_skin_f32_init(&c->fk, m, &ds->d.mesh, msg, sizeof msg) < 0
        || skb_skin_f32_set_normals(&c->fk, mode) < 0 || check_float(c, m, msg, sizeof msg) < 0)
        fail_case(r, c, msg);
}

/* each kernel as the double path does it (renormalised normals), and the
 * two headline kernels also as engines do (issue 15): LBS leaving the
 * normal to the shader, LBS and DLB without normals */
static void add_f32(struct run *r, struct ds *ds, const struct skb_method *m)
{
    add_f32_mode(r, ds, m, SKB_F32_NRM_RENORM);
    if (!ds->d.mesh.nrm)
        return;
    if (strcmp(m->name, "linear") == 0)
        add_f32_mode(r, ds, m, SKB_F32_NRM_SHADER);
    if (strcmp(m->name, "linear") == 0 || strcmp(m->name, "dlb") == 0)
        add_f32_mode(r, ds, m, SKB_F32_NRM_NONE);
}

static void add_peer(struct run *r, struct ds *ds, const struct skb_peer_ops *peer)
{
    char msg[512];
    const struct skb_method *ref = skb_method_find(peer->reference);
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
 * stores to the same 4 KiB offset (measured: double LBS 40% slower) */
#define OUT_STAGGER 1088
static int alloc_outputs(struct ds *ds)
{
    size_t n = 3 * (size_t)ds->d.mesh.nverts + 1;
    size_t sz[4] = { n * sizeof *ds->pos, n * sizeof *ds->nrm, n * sizeof *ds->fpos, n * sizeof *ds->fnrm };
    size_t off[4], total = 0;
    for (int i = 0; i < 4; i++) {
        off[i] = total + (size_t)OUT_STAGGER * (size_t)(i + 1);
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
}

/* ---- results ---- */

struct timing { double cpu_ms, real_ms, items_per_s; int reps; };

/* median over the per-repetition rows of one benchmark in Google Benchmark's JSON */
static struct timing gbench_timing(const cJSON *gb, const char *name)
{
    struct timing t = { NAN, NAN, NAN, 0 };
    double cpu[64], real[64], items[64];
    int n = 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(gb, "benchmarks")) {
        const cJSON *rn = cJSON_GetObjectItemCaseSensitive(b, "run_name");
        const cJSON *ty = cJSON_GetObjectItemCaseSensitive(b, "run_type");
        if (!cJSON_IsString(rn) || strcmp(rn->valuestring, name) != 0 || !cJSON_IsString(ty)
            || strcmp(ty->valuestring, "iteration") != 0 || n == 64)
            continue;
        const cJSON *unit = cJSON_GetObjectItemCaseSensitive(b, "time_unit");
        double scale = cJSON_IsString(unit) && strcmp(unit->valuestring, "ms") == 0 ? 1
                     : cJSON_IsString(unit) && strcmp(unit->valuestring, "us") == 0 ? 1e-3
                     : cJSON_IsString(unit) && strcmp(unit->valuestring, "ns") == 0 ? 1e-6 : 1e3;
        const cJSON *ips = cJSON_GetObjectItemCaseSensitive(b, "items_per_second");
        cpu[n] = scale * cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(b, "cpu_time"));
        real[n] = scale * cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(b, "real_time"));
        items[n] = cJSON_IsNumber(ips) ? ips->valuedouble : NAN;
        n++;
    }
    if (n) {
        t.cpu_ms = skb_sorted_median(cpu, n);
        t.real_ms = skb_sorted_median(real, n);
        t.items_per_s = skb_sorted_median(items, n);
        t.reps = n;
    }
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

static cJSON *timing_block(struct run *r, const cJSON *gb, struct ds *ds, enum kind k, const char *ref_label,
                           cJSON **ratios, cJSON **vps, cJSON **detail)
{
    cJSON *ms = cJSON_CreateObject();
    *ratios = cJSON_CreateObject();
    *vps = cJSON_CreateObject();
    *detail = cJSON_CreateObject();
    double ref = case_ms(r, gb, k, ds, ref_label);
    for (int i = 0; i < r->nc; i++) {
        struct bcase *c = r->c + i;
        if (c->kind != k || c->ds != ds || c->error)
            continue;
        struct timing t = gbench_timing(gb, c->name);
        skb_json_add_number(ms, c->label, t.cpu_ms);
        skb_json_add_number(*ratios, c->label, t.cpu_ms / ref);
        skb_json_add_number(*vps, c->label, t.items_per_s);
        cJSON *dd = cJSON_AddObjectToObject(*detail, c->label);
        skb_json_add_number(dd, "cpu_ms", t.cpu_ms);
        skb_json_add_number(dd, "real_ms", t.real_ms);
        cJSON_AddNumberToObject(dd, "repetitions", t.reps);
        cJSON_AddNumberToObject(dd, "checked_poses", c->checked_poses);
        skb_json_add_number(dd, "worst_error_over_tolerance", c->check_error);
        if (k == K_F32) {       /* what the timed work includes (issue 15) */
            cJSON_AddStringToObject(dd, "normals", skb_f32_normals_name(skb_skin_f32_normals(&c->fk)));
            cJSON_AddNumberToObject(dd, "bytes_per_vertex", skb_skin_f32_bytes_per_vertex(&c->fk));
        }
        if (t.reps == 0)
            r->timed_unchecked++;   /* registered but no timing came back */
    }
    return ms;
}

/* ms, ratios to linear, vertices/s of the double path, the fast kernels and
 * the peers of one dataset, and how each was checked */
static void add_timings(struct run *r, const cJSON *gb, struct ds *ds, cJSON *o)
{
    cJSON *ratios, *vps, *detail, *ratios32, *vps32, *detail32, *rp, *vpp, *detp;
    cJSON_AddItemToObject(o, "ms", timing_block(r, gb, ds, K_DOUBLE, "linear", &ratios, &vps, &detail));
    cJSON_AddItemToObject(o, "ratio_to_linear", ratios);
    cJSON_AddItemToObject(o, "vertices_per_s", vps);
    cJSON_AddItemToObject(o, "ms_f32", timing_block(r, gb, ds, K_F32, "linear", &ratios32, &vps32, &detail32));
    cJSON_AddItemToObject(o, "ratio_to_linear_f32", ratios32);
    cJSON_AddItemToObject(o, "vertices_per_s_f32", vps32);
    cJSON_AddItemToObject(o, "peers_ms", timing_block(r, gb, ds, K_PEER, "textbook_lbs", &rp, &vpp, &detp));
    cJSON_Delete(rp);
    cJSON_Delete(vpp);
    /* peers beside our kernels: their time over ours (same output) */
    cJSON *pr = cJSON_AddObjectToObject(o, "peer_ratio_to_ours_f32");
    for (int k = 0; skb_peers[k]; k++)
        skb_json_add_number(pr, skb_peers[k]->name, case_ms(r, gb, K_PEER, ds, skb_peers[k]->name)
                                                    / case_ms(r, gb, K_F32, ds, skb_peers[k]->reference));
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
        double solves = 0, maxsolves = 0;
        int maxit = 0, n = 0;
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
        skb_skin_fini(&s);
    }
}

static int load_ds(struct run *r, const char *name, int levels, int large, char *msg, size_t msglen)
{
    struct skb_dataset_opts o = { r->ctx->seed, r->ctx->quick, levels };
    struct ds *ds = r->ds + r->nds;
    memset(ds, 0, sizeof *ds);
    int rc = skb_dataset_load(name, &o, &ds->d, msg, msglen);
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
    }
    for (int k = 0; skb_peers[k]; k++)
        add_peer(r, ds, skb_peers[k]);
}

/* ---- cpu-gbench.json (issue 11 items 4 and 5): Google Benchmark writes its
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

static int cpu_run(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    struct run r;
    int rc = 0, nsrc = 0;
    struct gb_out g = { -1, "", "" };
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.failures = cJSON_CreateObject();
    if ((rc = read_injection(msg, msglen)) < 0)
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
    /* every default dataset with its own clip */
    for (int i = 0; skb_dataset_sources[i]; i++) {
        const struct skb_dataset_source *s = skb_dataset_sources[i];
        char lmsg[512];
        if (!s->in_default_set || !skb_run_wants_dataset(ctx, s->name))
            continue;
        if (load_ds(&r, s->name, 0, 0, lmsg, sizeof lmsg) < 0) {
            cJSON_AddStringToObject(r.failures, s->name, lmsg);
            skb_run_progress(ctx, "cpu", "dataset %s skipped: %s", s->name, lmsg);
            continue;
        }
        add_dataset_cases(&r, r.ds + r.nds - 1);
    }
    /* a second pose sequence for the human: random poses within joint limits */
    if (skb_run_wants_dataset(ctx, RANDOM_POSE_SOURCE "+random")) {
        char lmsg[512];
        if (load_ds(&r, RANDOM_POSE_SOURCE, 0, 0, lmsg, sizeof lmsg) == 0) {
            struct ds *ds = r.ds + r.nds - 1;
            if (skb_dataset_random_poses(&ds->d, ctx->quick ? QUICK_RANDOM_POSES : RANDOM_POSES,
                                         RANDOM_POSE_LIMIT, ctx->seed, lmsg, sizeof lmsg) == 0) {
                snprintf(ds->d.name, sizeof ds->d.name, "%s+random", RANDOM_POSE_SOURCE);
                add_dataset_cases(&r, ds);
            } else {
                cJSON_AddStringToObject(r.failures, RANDOM_POSE_SOURCE "+random", lmsg);
            }
        }
    }
    /* instruction counts (run icount): one deformation of each kernel on
     * the small meshes above, under callgrind, instead of timing */
    mark_injected(r.c, r.nc);
    if (skb__icount_child()) {
        count_cases(&r);
        goto out;
    }
    /* the roofline mesh: a subdivided model that leaves the caches
     * (with --datasets only when the list names "roofline") */
    if (!ctx->datasets_filter || skb_run_wants_dataset(ctx, "roofline")) {
        char lmsg[512];
        int levels = ctx->quick ? QUICK_LARGE_LEVELS : LARGE_LEVELS;
        if (load_ds(&r, LARGE_SOURCE, levels, 1, lmsg, sizeof lmsg) < 0) {
            snprintf(msg, msglen, "cpu: large mesh: %s", lmsg);
            rc = SKB_ENOMEM;
            goto out;
        }
        struct ds *ds = r.ds + r.nds - 1;
        skb_run_progress(ctx, "cpu", "%s: %d vertices (roofline mesh): checking kernels", ds->d.name,
                         ds->d.mesh.nverts);
        for (int k = 0; skb_methods[k]; k++) {
            const struct skb_method *m = skb_methods[k];
            if (!m->f32 || !skb_run_wants_method(ctx, m))
                continue;
            add_double(&r, ds, m, 0);
            add_f32(&r, ds, m);
        }
        for (int k = 0; skb_peers[k]; k++)
            add_peer(&r, ds, skb_peers[k]);
        struct bcase *c = new_case(&r, K_COPY, ds, "memcpy");
        if (c) {
            c->bytes = (size_t)LBS_F32_BYTES_PER_VERTEX * ds->d.mesh.nverts;
            c->src = malloc(c->bytes);
            c->dst = malloc(c->bytes);
            if (!c->src || !c->dst)
                fail_case(&r, c, "out of memory");
            else {
                memset(c->src, 1, c->bytes);
                memset(c->dst, 2, c->bytes);   /* touch every page before timing */
            }
        }
    }
    mark_injected(r.c, r.nc);
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
        rc = skb_bench_run(&bo, msg, msglen);
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
                snprintf(label, sizeof label, "%s@p=%g", m->name, dib_precisions[p]);
                snprintf(key, sizeof key, "%g", dib_precisions[p]);
                skb_json_add_number(dib, key, case_ms(&r, gb, K_DOUBLE, ds, label));
            }
        }
        pose_stats_block(ds, ctx, cJSON_AddObjectToObject(o, "pose_stats"));
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
        cJSON *o = cJSON_AddObjectToObject(root, "large_mesh");
        cJSON_AddStringToObject(o, "dataset", ds->d.name);
        cJSON_AddNumberToObject(o, "vertices", ds->d.mesh.nverts);
        cJSON_AddNumberToObject(o, "joints", ds->d.mesh.njoints);
        cJSON_AddNumberToObject(o, "poses_cycled", ds->d.nposes);
        add_timings(&r, gb, ds, o);
        double lin = case_ms(&r, gb, K_F32, ds, "linear"), dlb = case_ms(&r, gb, K_F32, ds, "dlb");
        double cp = case_ms(&r, gb, K_COPY, ds, "memcpy");
        double bytes = (double)LBS_F32_BYTES_PER_VERTEX * ds->d.mesh.nverts;
        double bw = 2 * bytes / (cp * 1e-3);   /* memcpy reads and writes every byte */
        skb_json_add_number(o, "dlb_over_linear_f32", dlb / lin);
        cJSON *rf = cJSON_AddObjectToObject(o, "roofline");
        cJSON_AddNumberToObject(rf, "linear_f32_bytes_per_vertex", LBS_F32_BYTES_PER_VERTEX);
        skb_json_add_number(rf, "memcpy_ms", cp);
        skb_json_add_number(rf, "copy_bandwidth_GBps", bw / 1e9);
        skb_json_add_number(rf, "linear_f32_roofline_ms", bytes / bw * 1e3);
        skb_json_add_number(rf, "linear_f32_ms", lin);
        skb_json_add_number(rf, "linear_f32_fraction_of_roofline", bytes / bw * 1e3 / lin);
        skb_json_add_number(rf, "dlb_f32_fraction_of_roofline", bytes / bw * 1e3 / dlb);
        skb_run_progress(ctx, "cpu", "%s: linear f32 %.3g ms, dlb f32 %.3g ms (x%.2f), copy roofline %.3g ms "
                         "(%.1f GB/s): LBS at %.2f of the roofline", ds->d.name, lin, dlb, dlb / lin,
                         bytes / bw * 1e3, bw / 1e9, bytes / bw * 1e3 / lin);
    }
    int nfail = cJSON_GetArraySize(r.failures);
    cJSON_AddBoolToObject(root, "verified", nfail == 0 && r.timed_unchecked == 0);
    skb__cpu_injection_json(root, msg, msglen);
    cJSON_AddItemToObject(root, "failures", cJSON_Duplicate(r.failures, 1));
    rc = skb_json_write_result(ctx, "cpu.json", root, msg, msglen);
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
};
