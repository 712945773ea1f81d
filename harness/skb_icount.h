/* skb_icount.h — instruction counts of the timed kernels: the
 * deterministic gate beside the timing gate.  `skinbench run icount` runs
 * `skinbench run cpu` under callgrind with SKB_ICOUNT_CHILD set; in that
 * child exp_cpu.c builds and checks every kernel as for timing, then, instead
 * of timing, hands one deformation of each to skb__icount_measure. */
#ifndef SKB_ICOUNT_H
#define SKB_ICOUNT_H

#include "skb_json.h"

#define SKB_ICOUNT_ENV "SKB_ICOUNT_CHILD"
/* deformations counted per kernel (at one pose): the count is divided by
 * it; 20 makes the injected prepares of any multiple of 5 % exact */
#define SKB_ICOUNT_DEFORMS 20

/* 1 inside the callgrind child of `run icount` */
int skb__icount_child(void);

/* count the instructions of fn(arg) alone under callgrind: a dump named
 * `name` (no effect outside valgrind) */
void skb__icount_measure(const char *name, void (*fn)(void *), void *arg);

/* SKB_INJECT_SLOWDOWN as "injected_slowdown" ({method, percent} or null)
 * into root; SKB_EINVAL with msg when the variable is malformed */
int skb__cpu_injection_json(cJSON *root, char *msg, size_t msglen);

/* run argv (PATH lookup) with env_extra ("NAME=VALUE") added to the
 * environment, output discarded, dying with this process; 0 when it exits 0
 * (harness/exp_flops.c) */
int skb__harness_spawn(char *const argv[], const char *env_extra, char *msg, size_t msglen);

#endif
