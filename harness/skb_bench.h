/* skb_bench.h — a small C interface to Google Benchmark (harness/bench_shim.cpp,
 * the only C++ that touches it).  Register C callbacks, run them all with
 * repetitions and random interleaving, and get Google Benchmark's own JSON
 * (per-repetition rows kept) written to a file. */
#ifndef SKB_BENCH_H
#define SKB_BENCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* one timed unit of work, run `iters` times back to back */
typedef void (*skb_bench_fn)(void *arg, long iters);

struct skb_bench_opts {
    double min_time;          /* seconds per repetition (--benchmark_min_time) */
    int repetitions;          /* --benchmark_repetitions */
    int random_interleaving;  /* --benchmark_enable_random_interleaving */
    const char *out_json;     /* --benchmark_out (JSON) */
    int verbose;              /* console table on stderr */
    const char *context[16];  /* "key=value" for --benchmark_context, NULL-terminated */
};

/* batch: iterations per KeepRunningBatch step; items: items per iteration
 * (vertices), reported by Google Benchmark as items_per_second */
int skb_bench_add(const char *name, skb_bench_fn fn, void *arg, long batch, double items);
/* run and clear every registered benchmark; 0 or a negative SKB_E* code */
int skb_bench_run(const struct skb_bench_opts *o, char *msg, size_t msglen);
/* keep the compiler from dropping work whose result lands in p */
static inline void skb_bench_clobber(const void *p)
{
    __asm__ volatile("" : : "r"(p) : "memory");
}

#ifdef __cplusplus
}
#endif
#endif
