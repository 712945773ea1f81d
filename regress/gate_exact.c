/* gate_exact.c — compare's exact gates of the built-in experiments that need
 * compare's own state (docs/report-and-regression.md "Nightly regression"):
 * the CPU "verified" flag and the benchmark groups one run has and the
 * other lacks (cpu: undecided) and the callgrind instruction counts (icount: its
 * compare.json table); the others' gates are their descriptors' own
 * (reports/exp_properties.c, exp_flops.c, exp_gpu.c).  A deterministic number
 * that changed is a regression. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "skb_gbench.h"
#include "skb_method.h"
#include "skb_strmap.h"
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

/* the method groups of a set (skb__bench_group), each once, in order of
 * first appearance: *names (80 bytes each) and an index over them; the
 * count, or -1 out of memory */
typedef char group_name[80];

static int groups_of(const struct skb_gbench_set *g, group_name **names, struct skb_strmap *idx)
{
    int n = 0;
    *names = malloc(((size_t)g->n + 1) * sizeof **names);
    if (!*names || skb_strmap_init(idx, (size_t)g->n) < 0)
        return -1;
    for (int i = 0; i < g->n; i++) {
        skb__bench_group(g->b[i].name, (*names)[n], sizeof (*names)[n]);
        if (skb_strmap_get(idx, (*names)[n]) >= 0)
            continue;
        /* the key lives in *names, which no longer moves */
        if (skb_strmap_put(idx, (*names)[n], n) < 0)
            return -1;
        n++;
    }
    return n;
}

/* a double or f32 kernel's group must be a method of this build's registry */
static int unknown_method(const char *bench, const char *group)
{
    int kernel = strncmp(bench, "double/", 7) == 0 || strncmp(bench, "f32/", 4) == 0;
    return kernel && !skb_method_find(group) && !skb_method_find(skb_method_canonical(group));
}

/* the groups of x that y lacks: one side only, so undecided (exit 3) */
static void one_side(struct cmp_state *s, group_name *gx, int nx, const struct skb_strmap *iy, int removed)
{
    for (int i = 0; i < nx; i++) {
        if (skb_strmap_get(iy, gx[i]) >= 0)
            continue;
        char what[120];
        snprintf(what, sizeof what, "method %s", gx[i]);
        skb__cmp_undecided(s, what, removed ? "timed in the baseline, not in the current run (removed)"
                                            : "timed in the current run, not in the baseline (new)");
    }
}

/* methods (groups of benchmarks) one run times and the other does not, and
 * a kernel of a method this build does not know: none can be judged.  One
 * pass per file (hashed), whatever the number of benchmarks. */
static void gate_new_methods(struct cmp_state *s, const cJSON *a, const cJSON *b)
{
    struct skb_gbench_set ga, gb;
    struct skb_strmap ia = { 0 }, ib = { 0 };
    group_name *na = NULL, *nb = NULL;
    char msg[300];
    if (!a || !b || skb_gbench_parse(a, &ga, msg, sizeof msg) < 0)
        return;   /* the timing gate names an unreadable file */
    if (skb_gbench_parse(b, &gb, msg, sizeof msg) < 0) {
        skb_gbench_set_free(&ga);
        return;
    }
    int ka = groups_of(&ga, &na, &ia), kb = groups_of(&gb, &nb, &ib);
    if (ka < 0 || kb < 0) {
        skb__cmp_undecided(s, "cpu-gbench.json", "out of memory grouping the benchmarks by method");
    } else {
        one_side(s, nb, kb, &ia, 0);
        one_side(s, na, ka, &ib, 1);
        for (int i = 0; i < gb.n; i++) {
            char g[80];
            skb__bench_group(gb.b[i].name, g, sizeof g);
            if (unknown_method(gb.b[i].name, g)) {
                char what[120];
                snprintf(what, sizeof what, "method %s", g);
                skb__cmp_undecided(s, what, "not a method of this build's registry (skinbench list methods)");
                break;
            }
        }
    }
    skb_strmap_free(&ia);
    skb_strmap_free(&ib);
    free(na);
    free(nb);
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
