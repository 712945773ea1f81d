/* run_datasets.c — the run's datasets, each loaded once and shared by the
 * experiments (docs/experiments.md "Datasets": under --dataset FILE "the file is
 * imported once before anything runs"; it used to be imported again by
 * every experiment that took it, each import an assimp child process).  A
 * load is kept before subdivision, keyed by name, seed and quick (all a
 * loader reads); every caller gets its own deep copy, subdivided as it
 * asked, so what an experiment does to its dataset (posing the arm,
 * cutting the clip short) stays its own, and the numbers are those of a
 * fresh skb_dataset_load (tests/test_run_datasets.c).  Experiments run one
 * after another and load before they start threads: the cache takes no
 * lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_dataset.h"
#include "skb_run.h"

struct loaded {
    char *name;
    unsigned long seed;
    int quick;
    struct skb_dataset raw;     /* as loaded, before subdivision */
};

struct skb_run_data {
    struct loaded *loaded;
    int nloaded, cap;
    int user_imports;           /* loads of ctx->dataset_file (tests/run_dataset.sh counts them) */
};

int skb_run_open(struct skb_run_ctx *ctx)
{
    ctx->data = calloc(1, sizeof *ctx->data);
    return ctx->data ? 0 : SKB_ENOMEM;
}

void skb_run_close(struct skb_run_ctx *ctx)
{
    if (!ctx->data)
        return;
    for (int i = 0; i < ctx->data->nloaded; i++) {
        free(ctx->data->loaded[i].name);
        skb_dataset_free(&ctx->data->loaded[i].raw);
    }
    free(ctx->data->loaded);
    free(ctx->data);
    ctx->data = NULL;
}

int skb_run_imports(const struct skb_run_ctx *ctx)
{
    return ctx->data ? ctx->data->user_imports : 0;
}

/* a copy of n elements of src, one spare as skb_dataset_alloc gives (NULL
 * for NULL; on ENOMEM NULL and *bad set) */
static void *dup_array(const void *src, size_t n, size_t size, int *bad)
{
    void *p;
    if (!src)
        return NULL;
    if (!(p = malloc((n + 1) * size))) {
        *bad = 1;
        return NULL;
    }
    return memcpy(p, src, n * size);
}

/* out = a deep copy of d, owning its arrays (skb_dataset_free frees it) */
static int copy_dataset(const struct skb_dataset *d, struct skb_dataset *out)
{
    const struct skb_mesh *m = &d->mesh;
    struct skb_mesh *o = &out->mesh;
    size_t nv = (size_t)m->nverts, nj = (size_t)m->njoints, np = 16 * nj * (size_t)d->nposes;
    int bad = 0;
    *out = *d;
    o->pos = dup_array(m->pos, 3 * nv, sizeof *m->pos, &bad);
    o->nrm = dup_array(m->nrm, 3 * nv, sizeof *m->nrm, &bad);
    o->tris = dup_array(m->tris, 3 * (size_t)m->ntris, sizeof *m->tris, &bad);
    o->joint = dup_array(m->joint, SKB_MAX_INFLUENCES * nv, sizeof *m->joint, &bad);
    o->weight = dup_array(m->weight, SKB_MAX_INFLUENCES * nv, sizeof *m->weight, &bad);
    o->parent = dup_array(m->parent, nj, sizeof *m->parent, &bad);
    o->joint_rest = dup_array(m->joint_rest, 3 * nj, sizeof *m->joint_rest, &bad);
    o->center = dup_array(m->center, 3 * nv, sizeof *m->center, &bad);
    out->poses = dup_array(d->poses, np, sizeof *d->poses, &bad);
    out->scales = dup_array(d->scales, np, sizeof *d->scales, &bad);
    if (bad) {
        skb_dataset_free(out);
        return SKB_ENOMEM;
    }
    return 0;
}

/* *raw = the run's raw load of (name, seed, quick), loading it on first
 * use; 0, or the load's error with msg */
static int raw_load(const struct skb_run_ctx *ctx, const char *name, const struct skb_dataset_opts *o,
                    const struct skb_dataset **raw, char *msg, size_t msglen)
{
    struct skb_run_data *r = ctx->data;
    for (int i = 0; i < r->nloaded; i++)
        if (strcmp(r->loaded[i].name, name) == 0 && r->loaded[i].seed == o->seed && r->loaded[i].quick == o->quick) {
            *raw = &r->loaded[i].raw;
            return 0;
        }
    if (r->nloaded == r->cap) {
        int cap = r->cap ? 2 * r->cap : 8;
        struct loaded *p = realloc(r->loaded, sizeof *p * (size_t)cap);
        if (!p) {
            snprintf(msg, msglen, "%s: out of memory", name);
            return SKB_ENOMEM;
        }
        r->loaded = p;
        r->cap = cap;
    }
    struct loaded *l = r->loaded + r->nloaded;
    struct skb_dataset_opts raw_opts = { o->seed, o->quick, 0 };
    r->user_imports += ctx->dataset_file && strcmp(name, ctx->dataset_file) == 0;
    int rc = skb_dataset_load(name, &raw_opts, &l->raw, msg, msglen);
    if (rc < 0)
        return rc;
    if (!(l->name = strdup(name))) {
        skb_dataset_free(&l->raw);
        snprintf(msg, msglen, "%s: out of memory", name);
        return SKB_ENOMEM;
    }
    l->seed = o->seed;
    l->quick = o->quick;
    r->nloaded++;
    *raw = &l->raw;
    return 0;
}

int skb_run_dataset_load(const struct skb_run_ctx *ctx, const char *name, const struct skb_dataset_opts *o,
                         struct skb_dataset *out, char *msg, size_t msglen)
{
    const struct skb_dataset *raw;
    memset(out, 0, sizeof *out);
    if (!ctx->data)   /* a context made by a test, not by `run` */
        return skb_dataset_load(name, o, out, msg, msglen);
    int rc = raw_load(ctx, name, o, &raw, msg, msglen);
    if (rc < 0)
        return rc;
    if (o->subdivide > 0)   /* as skb_dataset_load subdivides its raw load */
        return skb_dataset_subdivide(raw, o->subdivide, out, msg, msglen);
    if (copy_dataset(raw, out) < 0) {
        snprintf(msg, msglen, "%s: out of memory", name);
        return SKB_ENOMEM;
    }
    return 0;
}
