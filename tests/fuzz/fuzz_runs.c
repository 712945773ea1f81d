/* fuzz_runs.c — the fuzzer links reports/ (results readers, report,
 * compare) without harness/'s measuring code, which pulls in the GPU,
 * Google Benchmark and assimp.  Each experiment's descriptor (reports/
 * exp_<name>.c) points at its run half: here they are
 * named as in harness/exp_*.c, and running one is an error (the fuzzer
 * only reads results; it never runs an experiment). */
#include <stdio.h>
#include "skb_run.h"

static int not_linked(const struct skb_run_ctx *ctx, char *msg, size_t msglen)
{
    (void)ctx;
    snprintf(msg, msglen, "experiments are not linked into the fuzzer");
    return SKB_ENOTSUP;
}

#define FUZZ_RUN(n) const struct skb_experiment skb_exp_##n = { #n, "(not linked into the fuzzer)", not_linked };
FUZZ_RUN(properties)
FUZZ_RUN(flops)
FUZZ_RUN(bounds)
FUZZ_RUN(cpu)
FUZZ_RUN(gpu)
FUZZ_RUN(spheres)
FUZZ_RUN(cd)
FUZZ_RUN(icount)
FUZZ_RUN(sad)
FUZZ_RUN(artifacts)
