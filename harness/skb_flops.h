/* skb_flops.h — internals of `skinbench run flops` (harness/exp_flops.c). */
#ifndef SKB_FLOPS_H
#define SKB_FLOPS_H

#include "skb_method.h"

/* set in the environment of the `run flops` child that callgrind counts
 * (method:n:count:seed): that process counts and writes no results */
#define SKB_FLOPS_CHILD_ENV "SKB_FLOPS_CALLGRIND_CHILD"

/* the loop callgrind measures (--toggle-collect=skb__flops_callgrind_loop):
 * count blends of m with n transforms, cycling ninputs prepared inputs (mats:
 * 16 n per input, w: n per input, c: 3 per input); the hook is called
 * directly, so skb_blend's validation is outside the count.  sink keeps the
 * results alive.  0, or -1 when a blend fails */
int skb__flops_callgrind_loop(const struct skb_method *m, int n, int count, const double *mats,
                              const double *w, const double *c, int ninputs, double *sink);

#endif
