/* skb_pool.c — the persistent thread pool of skb_pool.h.  A job's parts
 * are claimed from one atomic ticket (generation << 32 | next part): the
 * caller and every awake worker take parts until none is left, so a worker
 * the scheduler has not woken yet (a loaded machine) costs nothing — the
 * caller does its part — instead of a wait for its time slice.  The
 * generation in the ticket keeps a late worker from claiming a part of a
 * later job.  fn and arg are written before the ticket is published
 * (release) and read after a claim (acquire); the caller reuses them only
 * when `pending` says every claimed part has finished.  Workers spin
 * briefly for the next job (a small mesh skins in microseconds), then
 * sleep on a condition variable. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include "skb_error.h"
#include "skb_pool.h"

#define SPINS 20000      /* polls before sleeping (tens of microseconds) */

struct worker {
    struct skb_pool *pool;
    pthread_t tid;
};

struct skb_pool {
    int n;                       /* threads including the caller = parts per job */
    struct worker *w;            /* n - 1 workers */
    skb_pool_fn fn;
    void *arg;
    uint32_t gen;                /* the caller's count of jobs */
    _Atomic uint64_t ticket;     /* generation << 32 | next unclaimed part */
    atomic_int pending;          /* parts not yet finished */
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

static inline uint32_t ticket_gen(uint64_t t) { return (uint32_t)(t >> 32); }

/* claim and run parts of job `gen` until none is left */
static void take_parts(struct skb_pool *p, uint32_t gen)
{
    uint64_t t = atomic_load_explicit(&p->ticket, memory_order_acquire);
    while (ticket_gen(t) == gen && (uint32_t)t < (uint32_t)p->n) {
        if (!atomic_compare_exchange_weak_explicit(&p->ticket, &t, t + 1, memory_order_acq_rel,
                                                   memory_order_acquire))
            continue;            /* t reloaded */
        p->fn(p->arg, (int)(uint32_t)t, p->n);
        if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
        t = atomic_load_explicit(&p->ticket, memory_order_acquire);
    }
}

/* the generation of the next job after `seen`, or seen when stopping */
static uint32_t wait_job(struct skb_pool *p, uint32_t seen)
{
    uint32_t g = seen;
    for (int i = 0; i < SPINS; i++) {
        if ((g = ticket_gen(atomic_load_explicit(&p->ticket, memory_order_acquire))) != seen)
            return g;
        if (atomic_load_explicit(&p->stop, memory_order_acquire))
            return seen;
        relax();
    }
    pthread_mutex_lock(&p->mu);
    while ((g = ticket_gen(atomic_load_explicit(&p->ticket, memory_order_acquire))) == seen
           && !atomic_load_explicit(&p->stop, memory_order_acquire))
        pthread_cond_wait(&p->go, &p->mu);
    pthread_mutex_unlock(&p->mu);
    return atomic_load_explicit(&p->stop, memory_order_acquire) ? seen : g;
}

static void *worker_main(void *arg)
{
    struct skb_pool *p = ((struct worker *)arg)->pool;
    uint32_t seen = 0;
    for (;;) {
        uint32_t g = wait_job(p, seen);
        if (g == seen)
            return NULL;         /* stopped */
        seen = g;
        take_parts(p, g);
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
    atomic_init(&p->ticket, 0);
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
        p->w[i - 1].pool = p;
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
    p->gen++;
    if (p->gen == 0)
        p->gen = 1;              /* 0 is the workers' initial "seen" */
    atomic_store_explicit(&p->pending, p->n, memory_order_relaxed);
    pthread_mutex_lock(&p->mu);
    atomic_store_explicit(&p->ticket, (uint64_t)p->gen << 32, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    take_parts(p, p->gen);
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
