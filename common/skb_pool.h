/* skb_pool.h — a persistent pool of worker threads: created once,
 * then each skb_pool_run splits a job into one part per thread and returns
 * when all parts are done, so a skin call pays a wake-up, not a thread
 * creation.  Parts are claimed, not assigned: the caller takes whatever a
 * worker has not started, so a worker the scheduler keeps waiting slows a
 * job down to one thread's speed, never more.  Workers spin briefly for
 * the next job, then sleep on a condition variable.  One caller at a time
 * per pool.
 *   skb_pool_create   threads in all (the caller counts as one)
 *   skb_pool_threads  that count (= parts per job)
 *   skb_pool_run      fn(arg, part, nparts) once for every part, on any thread
 *   skb_pool_destroy  joins the workers; NULL is fine */
#ifndef SKB_POOL_H
#define SKB_POOL_H

#ifdef __cplusplus
extern "C" {
#endif

struct skb_pool;
typedef void (*skb_pool_fn)(void *arg, int part, int nparts);

/* 0 or SKB_EINVAL (threads < 1 or > SKB_POOL_MAX_THREADS), SKB_ENOMEM
 * (including a thread that could not be started) */
#define SKB_POOL_MAX_THREADS 256
int skb_pool_create(int threads, struct skb_pool **out);
int skb_pool_threads(const struct skb_pool *p);
void skb_pool_run(struct skb_pool *p, skb_pool_fn fn, void *arg);
void skb_pool_destroy(struct skb_pool *p);
/* the CPUs this process may run on (sched_getaffinity), at least 1 */
int skb_pool_cpus(void);

#ifdef __cplusplus
}
#endif
#endif
