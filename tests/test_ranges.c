/* test_ranges.c — every fast kernel honours vertex ranges: a
 * mesh skinned in random sub-ranges in random order, and by two threads on
 * interleaved ranges, is bit-identical to one whole call.  Output buffers
 * hold exactly 3*nverts floats, so ASan sees a write past the last vertex;
 * `make tsan` runs this file under ThreadSanitizer.  Loops over the
 * registry's f32 hooks and over meshes that reach each kernel: the block
 * kernels (sign table), the per-vertex DLB/QLB kernels (more joints than the
 * table holds; QLB without signs) and LBS, in both layouts (SPLIT's
 * influence-count groups and SLOT4), and through the persistent thread
 * pool (common/skb_pool.c). */
#include <pthread.h>
#include "skb_test.h"
#include "skb_fast.h"
#include "skb_test_data.h"
#include "skb_pool.h"

#define MAX_RANGE 19        /* ranges of 1..19 vertices: inside, across and on blocks of 8 */
#define THREAD_ROUNDS 8
/* the persistent pool's shares (skb__skin_f32_run_pool): two threads as
 * on this machine, three for shares that end inside a group */
static const int pool_threads[] = { 2, 3 };

struct ranges {
    int n, *lo, *hi;
};

/* [0, n) cut into pieces of 1..MAX_RANGE vertices, in vertex order */
static void cut(gsl_rng *r, int n, struct ranges *rg)
{
    rg->lo = malloc(sizeof(int) * (size_t)n);
    rg->hi = malloc(sizeof(int) * (size_t)n);
    assert_non_null(rg->lo);
    assert_non_null(rg->hi);
    rg->n = 0;
    for (int v = 0; v < n; rg->n++) {
        int len = 1 + (int)gsl_rng_uniform_int(r, MAX_RANGE);
        rg->lo[rg->n] = v;
        v = v + len < n ? v + len : n;
        rg->hi[rg->n] = v;
    }
}

static void ranges_free(struct ranges *rg)
{
    free(rg->lo);
    free(rg->hi);
}

/* one whole call, the reference */
struct out {
    float *pos, *nrm;
};

static void out_alloc(struct out *o, int n)
{
    o->pos = malloc(sizeof(float) * 3 * (size_t)n);
    o->nrm = malloc(sizeof(float) * 3 * (size_t)n);
    assert_non_null(o->pos);
    assert_non_null(o->nrm);
    memset(o->pos, 0xff, sizeof(float) * 3 * (size_t)n);   /* NaN: an unwritten vertex cannot match */
    memset(o->nrm, 0xff, sizeof(float) * 3 * (size_t)n);
}

static void out_free(struct out *o)
{
    free(o->pos);
    free(o->nrm);
}

static void assert_same(const char *what, const char *method, const char *mesh, int n, const struct out *ref,
                        const struct out *got)
{
    for (size_t i = 0; i < 3 * (size_t)n; i++)
        if (memcmp(ref->pos + i, got->pos + i, sizeof(float)) || memcmp(ref->nrm + i, got->nrm + i, sizeof(float)))
            fail_msg("%s f32 on %s, %s: vertex %zu coordinate %zu differs from one whole call "
                     "(pos %.9g vs %.9g, nrm %.9g vs %.9g)", method, mesh, what, i / 3, i % 3,
                     (double)got->pos[i], (double)ref->pos[i], (double)got->nrm[i], (double)ref->nrm[i]);
}

/* the ranges in a random order, one thread */
static void run_shuffled(gsl_rng *r, struct skb_skinner_f32 *s, const struct ranges *rg, struct out *o)
{
    int *order = malloc(sizeof(int) * (size_t)rg->n);
    assert_non_null(order);
    for (int i = 0; i < rg->n; i++)
        order[i] = i;
    gsl_ran_shuffle(r, order, (size_t)rg->n, sizeof(int));
    for (int i = 0; i < rg->n; i++)
        assert_int_equal(skb__skin_f32_run(s, rg->lo[order[i]], rg->hi[order[i]], o->pos, o->nrm), 0);
    free(order);
}

/* two threads on interleaved ranges (even / odd), one walking forward and
 * one backward, so half the range boundaries are written in each order */
struct worker {
    struct skb_skinner_f32 *s;
    const struct ranges *rg;
    struct out *o;
    pthread_barrier_t *start;
    int parity, rc;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    const struct ranges *rg = w->rg;
    pthread_barrier_wait(w->start);
    for (int k = 0; k < rg->n && w->rc == 0; k++) {
        int i = w->parity ? rg->n - 1 - k : k;
        if (i % 2 == w->parity)
            w->rc = skb__skin_f32_run(w->s, rg->lo[i], rg->hi[i], w->o->pos, w->o->nrm);
    }
    return NULL;
}

static void run_threads(struct skb_skinner_f32 *s, const struct ranges *rg, struct out *o)
{
    pthread_barrier_t start;
    pthread_t t[2];
    struct worker w[2];
    assert_int_equal(pthread_barrier_init(&start, NULL, 2), 0);
    for (int i = 0; i < 2; i++) {
        w[i] = (struct worker){ s, rg, o, &start, i, 0 };
        assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    pthread_barrier_destroy(&start);
    assert_int_equal(w[0].rc, 0);
    assert_int_equal(w[1].rc, 0);
}

/* method m on pose k of d in one layout, whole vs ranges vs threads (vertex
 * indices of the layout's order: SPLIT's influence-count groups give
 * ranges across group ends); 0, or skipped (SKB_ENOTSUP: dlb's fast path
 * has no unsigned variant) */
static int check_one(gsl_rng *r, const struct skb_method *m, const struct skb_dataset *d, int k,
                     const struct skb_params *prm, enum skb_f32_normals nrm_mode, enum skb_f32_layout lay,
                     enum skb_f32_renorm rn)
{
    struct skb_skinner_f32 s;
    struct skb_pose p;
    struct out ref, got;
    struct ranges rg;
    char msg[512];
    int n = d->mesh.nverts, rc;
    if (skb_skin_f32_init_layout(&s, m, &d->mesh, lay, msg, sizeof msg) < 0)
        fail_msg("%s on %s: %s", m->name, d->name, msg);
    assert_int_equal(skb_skin_f32_set_normals(&s, nrm_mode), 0);
    assert_int_equal(skb_skin_f32_set_renorm(&s, rn), 0);
    skb_dataset_pose(d, k, &p);
    out_alloc(&ref, n);
    if ((rc = skb_skin_f32_pose(&s, &p, prm, ref.pos, ref.nrm, msg, sizeof msg)) == 0) {
        out_free(&ref);
        out_alloc(&ref, n);
        assert_int_equal(skb__skin_f32_run(&s, 0, n, ref.pos, ref.nrm), 0);
        cut(r, n, &rg);
        out_alloc(&got, n);
        run_shuffled(r, &s, &rg, &got);
        assert_same(lay == SKB_F32_LAYOUT_SPLIT ? "split layout, random ranges in random order"
                    : "slot4 layout, random ranges in random order", m->name, d->name, n, &ref, &got);
        for (int round = 0; round < THREAD_ROUNDS; round++) {
            out_free(&got);
            out_alloc(&got, n);
            run_threads(&s, &rg, &got);
            assert_same(lay == SKB_F32_LAYOUT_SPLIT ? "split layout, two threads, interleaved ranges"
                        : "slot4 layout, two threads, interleaved ranges", m->name, d->name, n, &ref, &got);
        }
        for (size_t t = 0; t < sizeof pool_threads / sizeof pool_threads[0]; t++)
            for (int round = 0; round < THREAD_ROUNDS; round++) {
                struct skb_pool *pool;
                out_free(&got);
                out_alloc(&got, n);
                assert_int_equal(skb_pool_create(pool_threads[t], &pool), 0);
                assert_int_equal(skb__skin_f32_run_pool(&s, pool, got.pos, got.nrm), 0);
                assert_same(pool_threads[t] == 2 ? "thread pool of 2" : "thread pool of 3", m->name, d->name, n,
                            &ref, &got);
                skb_pool_destroy(pool);
            }
        out_free(&got);
        ranges_free(&rg);
    } else if (rc != SKB_ENOTSUP) {
        fail_msg("%s f32 on %s: %s", m->name, d->name, msg);
    }
    out_free(&ref);
    skb_skin_f32_fini(&s);
    return rc;
}

/* every f32 hook on d, under each normal option (LBS has a kernel per
 * option) and in both layouts; returns how many ran */
static int check_all(gsl_rng *r, const struct skb_dataset *d, const struct skb_params *prm)
{
    int ran = 0;
    for (int i = 0; skb_methods[i]; i++) {
        const struct skb_method *m = skb_methods[i];
        if (!m->f32 || ((m->flags & SKB_MF_NEEDS_CENTER) && !d->mesh.joint_rest && !d->mesh.center))
            continue;
        /* LBS renormalises SKB_F32_NRENORM ways (the planner's candidates) */
        int nrn = strcmp(m->name, "linear") == 0 ? SKB_F32_NRENORM : 1;
        for (int k = 0; k < d->nposes; k += d->nposes > 2 ? d->nposes / 2 : 1)
            for (int mode = SKB_F32_NRM_RENORM; mode <= SKB_F32_NRM_NONE; mode++)
                for (int lay = SKB_F32_LAYOUT_SPLIT; lay <= SKB_F32_LAYOUT_SLOT4; lay++)
                    for (int rn = 0; rn < (mode == SKB_F32_NRM_RENORM ? nrn : 1); rn++)
                        if (check_one(r, m, d, k, prm, (enum skb_f32_normals)mode, (enum skb_f32_layout)lay,
                                      (enum skb_f32_renorm)rn) == 0)
                            ran++;
    }
    return ran;
}

/* real and procedural models (the block kernels for the quaternion methods) */
static void test_ranges_models(void **state)
{
    static const char *const names[] = { "arm", "creature", "bcn_human" };
    gsl_rng *r = skb_test_rng();
    int ran = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct skb_dataset d;
        if (skb_test_load_quick(names[i], &d) < 0)
            continue;
        ran += check_all(r, &d, NULL);
        skb_dataset_free(&d);
    }
    assert_true(ran > 0);
    gsl_rng_free(r);
}

/* 300 joints (past the sign table: the per-vertex DLB and QLB kernels) and,
 * with antipodality NONE, QLB without signs */
static void test_ranges_per_vertex_kernels(void **state)
{
    gsl_rng *r = skb_test_rng();
    struct skb_dataset d;
    struct skb_params none;
    int nv = 500, nj = 300;
    assert_int_equal(skb_dataset_alloc(&d, nv, 0, nj, 2), 0);
    snprintf(d.name, sizeof d.name, "synthetic-%dj", nj);
    for (int v = 0; v < nv; v++) {
        double w[4], n[3];
        skb_test_random_weights(r, 4, w);
        if (v % 3 != 0) {       /* 1, 2 and 3 influences too (SPLIT's groups), some with slot 0 empty */
            int keep = 1 + (v / 3) % 3, first = v % 3 == 2;
            double sum = 0;
            for (int k = 0; k < 4; k++) {
                w[k] = k >= first && k < first + keep ? w[k] : 0;
                sum += w[k];
            }
            for (int k = 0; k < 4; k++)
                w[k] /= sum;
        }
        gsl_ran_dir_3d(r, &n[0], &n[1], &n[2]);
        for (int k = 0; k < 4; k++) {
            d.mesh.joint[4 * v + k] = (int)gsl_rng_uniform_int(r, (unsigned long)nj);
            d.mesh.weight[4 * v + k] = w[k];
        }
        for (int k = 0; k < 3; k++) {
            d.mesh.pos[3 * v + k] = 4 * gsl_rng_uniform(r) - 2;
            d.mesh.nrm[3 * v + k] = n[k];
        }
    }
    for (int j = 0; j < nj; j++)
        d.mesh.parent[j] = j - 1;
    for (int k = 0; k < 2 * nj; k++)
        skb_test_random_rigid(r, SKB_PI, 2, d.poses + 16 * k);
    assert_true(check_all(r, &d, NULL) > 0);
    skb_params_default(&none);
    none.antipodal = SKB_ANTIPODAL_NONE;
    assert_true(check_all(r, &d, &none) > 0);
    skb_dataset_free(&d);
    gsl_rng_free(r);
}

/* the pool's shares balance cost, not vertex count: every thread gets
 * its share of each influence-count group (to a block of 8 per later
 * part), where cutting the layout order in halves gave bcn_human's first
 * thread all 1673 one-influence vertices and its second every 3-influence
 * one.  Shares together cover each group exactly once. */
static void test_pool_shares_balance_counts(void **state)
{
    static const char *const names[] = { "bcn_human", "arm" };
    static const char *const methods[] = { "linear", "dlb" };
    int checked = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct skb_dataset d;
        if (skb_test_load_quick(names[i], &d) < 0)
            continue;
        for (size_t mi = 0; mi < sizeof methods / sizeof methods[0]; mi++) {
            struct skb_skinner_f32 s;
            int hist[4], counts[4];
            char msg[512];
            if (skb_skin_f32_init(&s, skb_method_find(methods[mi]), &d.mesh, msg, sizeof msg) < 0)
                fail_msg("%s on %s: %s", methods[mi], d.name, msg);
            skb_skin_f32_histogram(&s, hist);
            for (int np = 2; np <= 3; np++) {
                int sum[4] = { 0, 0, 0, 0 };
                for (int part = 0; part < np; part++) {
                    assert_int_equal(skb__skin_f32_share(&s, part, np, counts), 0);
                    for (int k = 0; k < 4; k++) {
                        if (abs(counts[k] - hist[k] / np) > 8 * (np - 1) + 1)
                            fail_msg("%s on %s, %d shares: share %d has %d of the %d %d-influence vertices",
                                     methods[mi], d.name, np, part, counts[k], hist[k], k + 1);
                        sum[k] += counts[k];
                    }
                }
                for (int k = 0; k < 4; k++)
                    assert_int_equal(sum[k], hist[k]);
                checked++;
            }
            assert_int_equal(skb__skin_f32_share(&s, 2, 2, counts), SKB_EINVAL);
            skb_skin_f32_fini(&s);
        }
        skb_dataset_free(&d);
    }
    assert_true(checked > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranges_models),
        cmocka_unit_test(test_ranges_per_vertex_kernels),
        cmocka_unit_test(test_pool_shares_balance_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
