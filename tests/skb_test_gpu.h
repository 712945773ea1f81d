/* skb_test_gpu.h — shared by the GPU tests (test_gpu.c, test_gpu_compute.c):
 * one GL context per test binary, opened by the first test that needs it
 * (a skip with the reason where none can be made), and a random chain rig. */
#ifndef SKB_TEST_GPU_H
#define SKB_TEST_GPU_H

#include <limits.h>
#include "skb_test.h"
#include "skb_dataset.h"
#include "skb_gpu.h"

static struct skb_gpu gpu;
static int gpu_state;             /* 0 not tried, 1 open, -1 unavailable */
static char gpu_reason[512];
static char shader_dir[PATH_MAX];

static inline int gpu_available(void)
{
    char msg[512];
    if (gpu_state == 0) {
        if (skb_gpu_shader_dir(NULL, shader_dir, sizeof shader_dir, msg, sizeof msg) < 0)
            fail_msg("%s", msg);
        int rc = skb_gpu_open(&gpu, gpu_reason, sizeof gpu_reason);
        if (rc < 0 && rc != SKB_ENOTSUP)
            fail_msg("skb_gpu_open: %s", gpu_reason);
        gpu_state = rc == 0 ? 1 : -1;
        if (rc == 0)
            print_message("renderer: %s | %s\n", gpu.renderer, gpu.version);
    }
    if (gpu_state < 0)
        print_message("skipped: %s\n", gpu_reason);
    return gpu_state > 0;
}

#define NEED_GPU() do { if (!gpu_available()) { skip(); return; } } while (0)

/* a chain of nj joints with random rest positions, nv vertices with 1-4
 * influences on consecutive joints (random convex weights), random
 * positions in [-1, 1]^3 and unit normals; arrays malloc'd (free with
 * skb_test_chain_free) */
static inline void skb_test_chain(gsl_rng *r, int nv, int nj, struct skb_mesh *m)
{
    memset(m, 0, sizeof *m);
    double *pos = malloc(sizeof(double) * 3 * (size_t)nv), *nrm = malloc(sizeof(double) * 3 * (size_t)nv);
    double *weight = malloc(sizeof(double) * 4 * (size_t)nv), *rest = malloc(sizeof(double) * 3 * (size_t)nj);
    int *joint = malloc(sizeof(int) * 4 * (size_t)nv), *parent = malloc(sizeof(int) * (size_t)nj);
    assert_true(pos && nrm && weight && rest && joint && parent);
    m->nverts = nv;
    m->njoints = nj;
    m->pos = pos;
    m->nrm = nrm;
    m->joint = joint;
    m->weight = weight;
    m->parent = parent;
    m->joint_rest = rest;
    for (int j = 0; j < nj; j++) {
        parent[j] = j - 1;
        for (int i = 0; i < 3; i++)
            rest[3 * j + i] = gsl_rng_uniform(r) - 0.5;
    }
    for (int v = 0; v < nv; v++) {
        int n = 1 + (int)gsl_rng_uniform_int(r, 4), j0 = (int)gsl_rng_uniform_int(r, (unsigned long)nj);
        double w[4] = { 0 }, len = 0;
        skb_test_random_weights(r, n, w);
        for (int k = 0; k < 4; k++) {
            joint[4 * v + k] = (j0 + k) % nj;
            weight[4 * v + k] = w[k];
        }
        for (int i = 0; i < 3; i++) {
            pos[3 * v + i] = 2 * gsl_rng_uniform(r) - 1;
            nrm[3 * v + i] = gsl_rng_uniform(r) - 0.5;
            len += nrm[3 * v + i] * nrm[3 * v + i];
        }
        for (int i = 0; i < 3; i++)
            nrm[3 * v + i] /= sqrt(len);
    }
}

static inline void skb_test_chain_free(struct skb_mesh *m)
{
    free((void *)m->pos);
    free((void *)m->nrm);
    free((void *)m->weight);
    free((void *)m->joint_rest);
    free((void *)m->joint);
    free((void *)m->parent);
}

/* one catalogue dataset (quick variant) on the GPU with up to
 * SKB_TEST_GPU_POSES evenly sampled poses, and the same poses with demo
 * scale parts where it has none (for the two-phase shader) */
#define SKB_TEST_GPU_POSES 8
struct skb_test_gpu_set {
    struct skb_dataset d;
    struct skb_gpu_mesh gm;
    struct skb_pose poses[SKB_TEST_GPU_POSES], sposes[SKB_TEST_GPU_POSES];
    skb_real *scales;
    int np;
};

/* 0: dataset skb_dataset_sources[di] loaded and uploaded with np (<= maxp)
 * poses; -1: skipped (it did not load, or the GPU path refuses it; said) */
static inline int skb_test_gpu_set_open(int di, int maxp, struct skb_test_gpu_set *t)
{
    struct skb_dataset_opts o = { .seed = skb_test_seed(), .quick = 1, .subdivide = 0 };
    char msg[512];
    memset(t, 0, sizeof *t);
    if (skb_dataset_sources[di]->load(&o, &t->d, msg, sizeof msg) < 0) {
        print_message("dataset %s not loaded: %s\n", skb_dataset_sources[di]->name, msg);
        return -1;
    }
    int rc = skb_gpu_mesh_upload(&t->d.mesh, &t->gm, msg, sizeof msg);
    if (rc == SKB_ENOTSUP) {
        print_message("dataset %s skipped: %s\n", skb_dataset_sources[di]->name, msg);
        skb_dataset_free(&t->d);
        return -1;
    }
    if (rc < 0)
        fail_msg("%s", msg);
    t->scales = (skb_real *)malloc(sizeof(skb_real) * 16 * (size_t)t->d.mesh.njoints + 1);
    assert_non_null(t->scales);
    skb_gpu_demo_scales(&t->d.mesh, skb_test_seed(), t->scales);
    int np = maxp < SKB_TEST_GPU_POSES ? maxp : SKB_TEST_GPU_POSES;
    t->np = t->d.nposes < np ? t->d.nposes : np;
    for (int k = 0; k < t->np; k++) {
        skb_dataset_pose(&t->d, t->np > 1 ? (int)((long)k * (t->d.nposes - 1) / (t->np - 1)) : 0, &t->poses[k]);
        t->sposes[k] = t->poses[k];
        if (!t->sposes[k].scale)
            t->sposes[k].scale = t->scales;
    }
    return 0;
}

static inline void skb_test_gpu_set_close(struct skb_test_gpu_set *t)
{
    free(t->scales);
    skb_gpu_mesh_free(&t->gm);
    skb_dataset_free(&t->d);
}

#endif
