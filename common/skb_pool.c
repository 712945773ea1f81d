/* skb_pool.c — the persistent thread pool of skb_pool.h.  A job is
 * published by bumping a generation counter (release) after fn and arg are
 * set; a worker that sees the new generation (acquire) runs its part and
 * counts down `pending`; the last one wakes the caller.  Spinning first
 * keeps the wake-up in the microseconds a small mesh takes to skin; the
 * condition variables keep idle workers off the CPU. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "skb_error.h"
#include "skb_pool.h"

#define SPINS 20000      /* polls before sleeping (~tens of microseconds) */

struct worker {
    struct skb_pool *pool;
    int part;
    pthread_t tid;
};

struct skb_pool {
    int n;                       /* threads including the caller */
    struct worker *w;            /* n - 1 workers */
    skb_pool_fn fn;
    void *arg;
    atomic_uint gen;             /* bumped once per job */
    atomic_int pending;          /* worker parts not yet finished */
    atomic_int stop;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
};

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* the next generation after `seen`, or seen when stopping */
static unsigned wait_job(struct skb_pool *p, unsigned seen)
{
    unsigned g = seen;
    for (int i = 0; i < SPINS && (g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen; i++) {
        if (atomic_load_explicit(&p->stop, memory_order_acquire))
            return seen;
        relax();
    }
    if (g != seen)
        return g;
    pthread_mutex_lock(&p->mu);
    while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen
           && !atomic_load_explicit(&p->stop, memory_order_acquire))
        pthread_cond_wait(&p->go, &p->mu);
    pthread_mutex_unlock(&p->mu);
    return g;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct skb_pool *p = w->pool;
    unsigned seen = 0;
    for (;;) {
        unsigned g = wait_job(p, seen);
        if (g == seen)
            return NULL;         /* stopped */
        seen = g;
        p->fn(p->arg, w->part, p->n);
        if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

int skb_pool_create(int threads, struct skb_pool **out)
{
    *out = NULL;
    if (threads < 1 || threads > SKB_POOL_MAX_THREADS)
        return SKB_EINVAL;
    struct skb_pool *p = calloc(1, sizeof *p);
    if (!p)
        return SKB_ENOMEM;
    p->n = threads;
    p->w = calloc((size_t)threads, sizeof *p->w);
    atomic_init(&p->gen, 0);
    atomic_init(&p->pending, 0);
    atomic_init(&p->stop, 0);
    if (!p->w || pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p->w);
        free(p);
        return SKB_ENOMEM;
    }
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int i = 1; i < threads; i++) {
        p->w[i - 1] = (struct worker){ p, i, 0 };
        if (pthread_create(&p->w[i - 1].tid, NULL, worker_main, &p->w[i - 1]) != 0) {
            p->n = i;            /* destroy joins the i - 1 started */
            skb_pool_destroy(p);
            return SKB_ENOMEM;
        }
    }
    *out = p;
    return 0;
}

int skb_pool_threads(const struct skb_pool *p)
{
    return p->n;
}

void skb_pool_run(struct skb_pool *p, skb_pool_fn fn, void *arg)
{
    if (p->n == 1) {
        fn(arg, 0, 1);
        return;
    }
    p->fn = fn;
    p->arg = arg;
    atomic_store_explicit(&p->pending, p->n - 1, memory_order_relaxed);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    fn(arg, 0, p->n);
    for (int i = 0; i < SPINS && atomic_load_explicit(&p->pending, memory_order_acquire) > 0; i++)
        relax();
    if (atomic_load_explicit(&p->pending, memory_order_acquire) > 0) {
        pthread_mutex_lock(&p->mu);
        while (atomic_load_explicit(&p->pending, memory_order_acquire) > 0)
            pthread_cond_wait(&p->done, &p->mu);
        pthread_mutex_unlock(&p->mu);
    }
}

void skb_pool_destroy(struct skb_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    atomic_store_explicit(&p->stop, 1, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i < p->n; i++)
        pthread_join(p->w[i - 1].tid, NULL);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p->w);
    free(p);
}

int skb_pool_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 1;
    int n = CPU_COUNT(&set);
    return n > 0 ? n : 1;
}
