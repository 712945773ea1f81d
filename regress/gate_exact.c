/* gate_exact.c — compare's exact gates, one per built-in experiment
 * (docs/report-and-regression.md "Nightly regression"): property verdicts, FLOP fits, callgrind
 * instruction counts, GPU shader instruction counts and the CPU "verified"
 * flag.  A deterministic number that changed is a regression. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "skb_json.h"
#include "skb_gbench.h"
#include "report_internal.h"   /* skb__jget */
#include "compare_internal.h"

/* relative change of a FLOP fit coefficient treated as "changed": the fit
 * is deterministic, so only rounding noise is forgiven */
#define FLOP_FIT_REL_EQ 1e-9

/* every numeric leaf of a and b, compared exactly; path names the field */
static void exact_tree(struct cmp_state *s, const char *file, const char *path, const cJSON *a, const cJSON *b,
                       const char *what)
{
    char sub[400];
    double x, y;
    if (skb_json_get_number(a, &x) == 0) {
        if (skb_json_get_number(b, &y) < 0)
            skb__cmp_regression(s, "%s: %s %s missing in the current run (baseline %.17g)", file, what, path, x);
        else if (!(x == y || (isnan(x) && isnan(y))))
            skb__cmp_regression(s, "%s: %s %s changed %.17g -> %.17g", file, what, path, x, y);
        return;
    }
    if (!cJSON_IsObject(a) && !cJSON_IsArray(a))
        return;
    const cJSON *c;
    int i = 0;
    cJSON_ArrayForEach(c, a) {
        if (cJSON_IsArray(a))
            snprintf(sub, sizeof sub, "%s[%d]", path, i);
        else
            snprintf(sub, sizeof sub, "%s.%s", path, c->string);
        exact_tree(s, file, sub, c, cJSON_IsArray(a) ? cJSON_GetArrayItem(b, i) : skb__jget(b, c->string), what);
        i++;
    }
}

static void gate_verdicts(struct cmp_state *s, const cJSON *a, const cJSON *b)
{
    const cJSON *m, *v;
    cJSON_ArrayForEach(m, skb__jget(a, "verdicts")) {
        const cJSON *bm = skb__jget(skb__jget(b, "verdicts"), m->string);
        if (!bm) {
            skb__cmp_regression(s, "properties.json: method %s has no verdicts in the current run", m->string);
            continue;
        }
        cJSON_ArrayForEach(v, m) {
            const char *x = cJSON_GetStringValue(v), *y = cJSON_GetStringValue(skb__jget(bm, v->string));
            if (x && (!y || strcmp(x, y) != 0))
                skb__cmp_regression(s, "properties.json: verdict %s.%s changed %s -> %s", m->string, v->string, x, y ? y : "(missing)");
        }
    }
    cJSON_ArrayForEach(m, skb__jget(b, "verdicts"))
        if (!skb__jget(skb__jget(a, "verdicts"), m->string))
            skb__cmp_info(s, "properties.json: new method %s (no baseline verdicts)", m->string);
}

static void gate_flops(struct cmp_state *s, const cJSON *a, const cJSON *b)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, skb__jget(a, "fits")) {
        const cJSON *bm = skb__jget(skb__jget(b, "fits"), m->string);
        for (int k = 0; k < 2; k++) {
            const char *c = k ? "b" : "a";
            double x, y;
            if (skb_json_get_number(skb__jget(m, c), &x) < 0)
                continue;
            if (!bm || skb_json_get_number(skb__jget(bm, c), &y) < 0)
                skb__cmp_regression(s, "flops.json: FLOP fit of %s missing in the current run", m->string);
            else if (fabs(x - y) > FLOP_FIT_REL_EQ * fmax(1, fabs(x)))
                skb__cmp_regression(s, "flops.json: FLOP count of %s changed: %s %.6g -> %.6g (FLOPs = a*n + b)", m->string, c, x, y);
            if (!bm)
                break;
        }
    }
    /* callgrind instruction counts: any subtree whose key names callgrind */
    const cJSON *x;
    cJSON_ArrayForEach(x, a)
        if (x->string && strstr(x->string, "callgrind"))
            exact_tree(s, "flops.json", x->string, x, skb__jget(b, x->string), "callgrind instruction count");
}

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

void skb__gate_properties(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    gate_verdicts(g->s, skb_results_doc(base, "properties.json"), skb_results_doc(cur, "properties.json"));
}

void skb__gate_flops(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    const cJSON *a = skb_results_doc(base, "flops.json"), *b = skb_results_doc(cur, "flops.json");
    if (a && b)
        gate_flops(g->s, a, b);
}

void skb__gate_gpu(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur)
{
    const cJSON *gi = skb__jget(skb_results_doc(base, "gpu.json"), "instructions"), *b = skb_results_doc(cur, "gpu.json");
    if (gi && b)
        exact_tree(g->s, "gpu.json", "instructions", gi, skb__jget(b, "instructions"),
                   "shader instruction count");
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

/* the built-in experiments' gates, by experiment name (an experiment added
 * outside, tests/extra, brings its own in its descriptor's .gate) */
static const struct {
    const char *experiment;
    skb_gate_fn *gate;
} builtin_gates[] = {
    { "properties", skb__gate_properties },
    { "flops", skb__gate_flops },
    { "cpu", skb__gate_cpu },
    { "gpu", skb__gate_gpu },
    { "icount", skb__gate_icount_exp },
    { "artifacts", skb__gate_artifacts },
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
