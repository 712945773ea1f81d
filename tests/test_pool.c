/* test_pool.c — the persistent thread pool (common/skb_pool.c): every part
 * of every job runs exactly once, on as many threads as asked, job after
 * job with no lost wake-up (short jobs that finish inside the spin, and
 * after pauses long enough for the workers to sleep), some on the workers;
 * bad sizes are refused.
 * `make tsan` runs it under ThreadSanitizer. */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include "skb_test.h"
#include "skb_pool.h"

#define JOBS 2000
#define MAX_PARTS 8

struct job {
    atomic_int hits[MAX_PARTS];
    atomic_int nparts_seen;
    pthread_t who[MAX_PARTS];
};

static void mark(void *arg, int part, int nparts)
{
    struct job *j = arg;
    atomic_fetch_add(&j->hits[part], 1);
    atomic_store(&j->nparts_seen, nparts);
    j->who[part] = pthread_self();
}

static void check_pool(int threads, int sleep_every)
{
    struct skb_pool *p;
    assert_int_equal(skb_pool_create(threads, &p), 0);
    assert_int_equal(skb_pool_threads(p), threads);
    for (int k = 0; k < JOBS; k++) {
        struct job j;
        memset(&j, 0, sizeof j);
        if (sleep_every && k % sleep_every == 0) {
            struct timespec ts = { 0, 2000000 };   /* 2 ms: past the spin, workers sleep */
            nanosleep(&ts, NULL);
        }
        skb_pool_run(p, mark, &j);
        assert_int_equal(atomic_load(&j.nparts_seen), threads);
        for (int i = 0; i < MAX_PARTS; i++)
            if (atomic_load(&j.hits[i]) != (i < threads))
                fail_msg("pool of %d, job %d: part %d ran %d times", threads, k, i, atomic_load(&j.hits[i]));
    }
    skb_pool_destroy(p);
}

static void test_pool_parts(void **state)
{
    static const int threads[] = { 1, 2, 3, 8 };
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        check_pool(threads[i], 0);
        check_pool(threads[i], 97);
    }
}

/* a part that takes 1 ms: while the caller is busy with one, an awake
 * worker claims another (parts are claimed by whoever is free) */
static void slow_mark(void *arg, int part, int nparts)
{
    struct timespec ts = { 0, 1000000 };
    nanosleep(&ts, NULL);
    mark(arg, part, nparts);
}

static void test_pool_workers_take_parts(void **state)
{
    struct skb_pool *p;
    int others = 0;
    assert_int_equal(skb_pool_create(2, &p), 0);
    for (int k = 0; k < 50; k++) {
        struct job j;
        memset(&j, 0, sizeof j);
        skb_pool_run(p, slow_mark, &j);
        assert_int_equal(atomic_load(&j.hits[0]) + atomic_load(&j.hits[1]), 2);
        others += !pthread_equal(j.who[0], pthread_self()) || !pthread_equal(j.who[1], pthread_self());
    }
    assert_true(others > 0);
    skb_pool_destroy(p);
}

static void test_pool_bad_sizes(void **state)
{
    struct skb_pool *p = (struct skb_pool *)&p;
    assert_int_equal(skb_pool_create(0, &p), SKB_EINVAL);
    assert_null(p);
    assert_int_equal(skb_pool_create(SKB_POOL_MAX_THREADS + 1, &p), SKB_EINVAL);
    skb_pool_destroy(NULL);
    assert_true(skb_pool_cpus() >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_parts),
        cmocka_unit_test(test_pool_workers_take_parts),
        cmocka_unit_test(test_pool_bad_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
