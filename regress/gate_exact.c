/* gate_exact.c — compare's exact gates of the built-in experiments that need
 * compare's own state (docs/report-and-regression.md "Nightly regression"):
 * the CPU "verified" flag and new benchmark groups (cpu: undecided gates,
 * benchmark groups) and the callgrind instruction counts (icount: its
 * compare.json table); the others' gates are their descriptors' own
 * (reports/exp_properties.c, exp_flops.c, exp_gpu.c).  A deterministic number
 * that changed is a regression. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "skb_json.h"
#include "skb_gbench.h"
#include "report_internal.h"   /* skb__jget */
#include "compare_internal.h"

/* "verified" turned false: name each failing kernel and why */
static void gate_verified(struct cmp_state *s, const cJSON *cpu)
{
    const cJSON *f, *fl = skb__jget(cpu, "failures");
    int n = 0;
    cJSON_ArrayForEach(f, fl)
        if (n++ < 20)
            skb__cmp_regression(s, "cpu.json: \"verified\" is no longer true: kernel %s failed its check: %s",
                                f->string ? f->string : "?",
                       cJSON_GetStringValue(f) ? cJSON_GetStringValue(f) : "?");
    if (n > 20)
        skb__cmp_regression(s, "cpu.json: ... and %d more failing kernels (cpu.json \"failures\")", n - 20);
    if (n == 0)
        skb__cmp_regression(s, "cpu.json: \"verified\" is no longer true (a timed kernel ran unchecked; no failure recorded)");
}

/* methods (groups of benchmarks) the current run times and the baseline did
 * not, and the reverse: listed as new / removed, not as timing changes */
static void gate_new_methods(struct cmp_state *s, const cJSON *a, const cJSON *b)
{
    struct skb_gbench_set ga, gb;
    char msg[300];
    if (!a || !b || skb_gbench_parse(a, &ga, msg, sizeof msg) < 0)
        return;
    if (skb_gbench_parse(b, &gb, msg, sizeof msg) < 0) {
        skb_gbench_set_free(&ga);
        return;
    }
    for (int w = 0; w < 2; w++) {
        const struct skb_gbench_set *x = w ? &ga : &gb, *y = w ? &gb : &ga;
        for (int i = 0; i < x->n; i++) {
            char g[80], h[80];
            int seen = 0, dup = 0;
            skb__bench_group(x->b[i].name, g, sizeof g);
            for (int j = 0; j < y->n && !seen; j++) {
                skb__bench_group(y->b[j].name, h, sizeof h);
                seen = strcmp(g, h) == 0;
            }
            for (int j = 0; j < i && !dup; j++) {
                skb__bench_group(x->b[j].name, h, sizeof h);
                dup = strcmp(g, h) == 0;
            }
            if (!seen && !dup)
                skb__cmp_info(s, "cpu-gbench.json: %s method %s (%s the baseline)", w ? "removed" : "new", g,
                     w ? "only in" : "not in");
        }
    }
    skb_gbench_set_free(&ga);
    skb_gbench_set_free(&gb);
}

void skb__gate_cpu(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    /* the failing kernels named with their messages (cpu.json "failures") */
    const cJSON *b = skb_results_doc(cur, "cpu.json"), *a = skb_results_doc(base, "cpu.json");
    /* an unverified current run fails whatever the baseline says; an
     * unverified baseline cannot vouch for anything (inconclusive) */
    if (b && !cJSON_IsTrue(skb__jget(b, "verified")))
        gate_verified(g->s, b);
    if (a && !cJSON_IsTrue(skb__jget(a, "verified")))
        skb__cmp_undecided(g->s, "cpu.json", "the baseline is not verified (\"verified\" is not true)");
    gate_new_methods(g->s, skb_results_doc(base, "cpu-gbench.json"), skb_results_doc(cur, "cpu-gbench.json"));
}

void skb__gate_icount_exp(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    skb__gate_icount(g->s, skb_results_doc(base, "icount.json"), skb_results_doc(cur, "icount.json"), g->sum);
}

/* the gates that stay here, by experiment name (every other experiment
 * brings its own in its descriptor's .gate) */
static const struct {
    const char *experiment;
    skb_gate_fn *gate;
} builtin_gates[] = {
    { "cpu", skb__gate_cpu },
    { "icount", skb__gate_icount_exp },
};

skb_gate_fn *skb_compare_gate(const struct skb_experiment_desc *d)
{
    if (d->gate)
        return d->gate;
    for (size_t i = 0; i < sizeof builtin_gates / sizeof builtin_gates[0]; i++)
        if (strcmp(builtin_gates[i].experiment, skb_experiment_desc_name(d)) == 0)
            return builtin_gates[i].gate;
    return NULL;
}
