/* test_run_datasets.c — the run's dataset cache (harness/run_datasets.c):
 * what an experiment gets from it is what a fresh skb_dataset_load gives,
 * array for array, plain and subdivided ("same seed, same numbers"); each
 * caller owns its copy; the user's file counts its imports. */
#include "skb_test.h"
#include "skb_dataset.h"
#include "skb_run.h"

#define SAME(a, b, n) ((a) == NULL ? (b) == NULL : (b) != NULL && memcmp((a), (b), (n) * sizeof *(a)) == 0)

static void assert_same(const struct skb_dataset *a, const struct skb_dataset *b)
{
    const struct skb_mesh *m = &a->mesh, *n = &b->mesh;
    size_t nv = (size_t)m->nverts, nj = (size_t)m->njoints, np = 16 * nj * (size_t)a->nposes;
    assert_int_equal(m->nverts, n->nverts);
    assert_int_equal(m->ntris, n->ntris);
    assert_int_equal(m->njoints, n->njoints);
    assert_int_equal(a->nposes, b->nposes);
    assert_string_equal(a->name, b->name);
    assert_true(SAME(m->pos, n->pos, 3 * nv));
    assert_true(SAME(m->nrm, n->nrm, 3 * nv));
    assert_true(SAME(m->tris, n->tris, 3 * (size_t)m->ntris));
    assert_true(SAME(m->joint, n->joint, 4 * nv));
    assert_true(SAME(m->weight, n->weight, 4 * nv));
    assert_true(SAME(m->parent, n->parent, nj));
    assert_true(SAME(m->joint_rest, n->joint_rest, 3 * nj));
    assert_true(SAME(a->poses, b->poses, np));
    assert_true(SAME(a->scales, b->scales, np));
}

/* two loads of each (name, subdivision) through the run equal a fresh load */
static void test_cached_equals_fresh(void **state)
{
    static const char *const names[] = { "arm", "cloth", "creature" };
    struct skb_run_ctx ctx;
    char msg[512];
    (void)state;
    memset(&ctx, 0, sizeof ctx);
    assert_int_equal(skb_run_open(&ctx), 0);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        for (int levels = 0; levels <= 1; levels++) {
            struct skb_dataset_opts o = { 7, 1, levels };
            struct skb_dataset fresh, a, b;
            if (skb_dataset_load(names[i], &o, &fresh, msg, sizeof msg) < 0)
                fail_msg("%s: %s", names[i], msg);
            assert_int_equal(skb_run_dataset_load(&ctx, names[i], &o, &a, msg, sizeof msg), 0);
            assert_int_equal(skb_run_dataset_load(&ctx, names[i], &o, &b, msg, sizeof msg), 0);
            assert_same(&fresh, &a);
            assert_same(&fresh, &b);
            assert_true(a.mesh.pos != b.mesh.pos && a.poses != b.poses);   /* each its own */
            a.poses[0] += 1;    /* what one caller does to its copy ... */
            skb_dataset_free(&a);
            assert_int_equal(skb_run_dataset_load(&ctx, names[i], &o, &a, msg, sizeof msg), 0);
            assert_same(&fresh, &a);   /* ... the next one does not see */
            skb_dataset_free(&a);
            skb_dataset_free(&b);
            skb_dataset_free(&fresh);
        }
    assert_int_equal(skb_run_imports(&ctx), 0);   /* no --dataset file in this run */
    skb_run_close(&ctx);
    assert_null(ctx.data);
}

/* a failed load is returned as skb_dataset_load returns it, and not kept */
static void test_failed_load(void **state)
{
    struct skb_run_ctx ctx;
    struct skb_dataset d;
    struct skb_dataset_opts o = { 7, 1, 0 };
    char msg[512] = "", fresh_msg[512] = "";
    (void)state;
    memset(&ctx, 0, sizeof ctx);
    ctx.dataset_file = "/nonexistent/model.fbx";
    assert_int_equal(skb_run_open(&ctx), 0);
    int want = skb_dataset_load(ctx.dataset_file, &o, &d, fresh_msg, sizeof fresh_msg);
    assert_true(want < 0);
    assert_int_equal(skb_run_dataset_load(&ctx, ctx.dataset_file, &o, &d, msg, sizeof msg), want);
    assert_string_equal(msg, fresh_msg);
    assert_int_equal(skb_run_dataset_load(&ctx, ctx.dataset_file, &o, &d, msg, sizeof msg), want);
    assert_int_equal(skb_run_imports(&ctx), 2);   /* tried again: nothing was kept */
    skb_run_close(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cached_equals_fresh),
        cmocka_unit_test(test_failed_load),
    };
    return cmocka_run_group_tests_name("run_datasets", tests, NULL, NULL);
}
