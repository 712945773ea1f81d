/* icount_child.c — the instruction-counting child of `run icount`
 * (callgrind re-runs skinbench with SKB_ICOUNT_ENV=1): whether this process
 * is it (the CPU experiment then times nothing), and one kernel measured
 * between callgrind's client requests.  Its own file, below both exp_cpu.c
 * (which runs the kernels) and exp_icount.c (which spawns the child). */
#include <stdlib.h>
#include <string.h>
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define SKB_HAVE_CALLGRIND_H 1
#endif
#endif
#include "skb_icount.h"

int skb__icount_child(void)
{
    const char *v = getenv(SKB_ICOUNT_ENV);
    return v && strcmp(v, "1") == 0;
}

void skb__icount_measure(const char *name, void (*fn)(void *), void *arg)
{
#ifdef SKB_HAVE_CALLGRIND_H
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
    fn(arg);
    CALLGRIND_DUMP_STATS_AT(name);
    CALLGRIND_STOP_INSTRUMENTATION;
#else
    (void)name;
    fn(arg);
#endif
}
