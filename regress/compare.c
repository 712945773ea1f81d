/* compare.c — nightly regression gates between a baseline run and a current
 * run: the inputs checked, every experiment's exact gates (gate_exact.c, or
 * the descriptor's own), what is new (gate_new.c), the paired A/B sitting
 * (compare_ab.c) or the unpaired timing gate (gate_timing.c), and the verdict.
 * The baseline update is baseline_copy.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"   /* skb__jget */
#include "compare_internal.h"

/* name what could not be decided: every gate-level reason (a file that
 * cannot be read, a method on one side only, a missing measurement) up to
 * UNDECIDED_SHOWN_CAUSES, the powerless and unconfirmed benchmarks (one per
 * benchmark, often hundreds) up to UNDECIDED_SHOWN; all are in compare.json */
#define UNDECIDED_SHOWN 10
#define UNDECIDED_SHOWN_CAUSES 50

static int routine(const char *why)
{
    return why && (strcmp(why, "powerless") == 0 || strcmp(why, "unconfirmed") == 0);
}

static void report_undecided(struct cmp_state *s, const struct skb_compare_opts *o)
{
    int n = cJSON_GetArraySize(s->undecided), npow = 0, nunc = 0, shown = 0, quota[2] = { UNDECIDED_SHOWN_CAUSES,
                                                                                        UNDECIDED_SHOWN };
    const cJSON *r;
    cJSON_ArrayForEach(r, s->undecided) {
        const char *why = cJSON_GetStringValue(skb__jget(r, "reason"));
        npow += why && strcmp(why, "powerless") == 0;
        nunc += why && strcmp(why, "unconfirmed") == 0;
    }
    for (int pass = 0; pass < 2; pass++)
        cJSON_ArrayForEach(r, s->undecided) {
            const char *why = cJSON_GetStringValue(skb__jget(r, "reason"));
            if (routine(why) != pass || quota[pass] == 0)
                continue;
            char line[700];
            snprintf(line, sizeof line, "%s (%s)", cJSON_GetStringValue(skb__jget(r, "benchmark")), why ? why : "?");
            skb__cmp_clean(line);
            fprintf(s->out, "INCONCLUSIVE: %s\n", line);
            quota[pass]--;
            shown++;
        }
    if (n > shown)
        fprintf(s->out, "INCONCLUSIVE: ... and %d more (all listed in compare.json \"inconclusive\")\n", n - shown);
    if (npow)
        fprintf(s->out, "  to decide the %d powerless: more repetitions in both runs (the U test cannot reach "
                "p < %g with these; not --quick)\n", npow, o->alpha);
    if (nunc)
        fprintf(s->out, "  to decide the %d unconfirmed: a confirming re-run (skinbench run cpu --out CURRENT/rerun, "
                "or --rerun DIR; scripts/nightly.sh does this)\n", nunc);
}

/* the injection marker (SKB_INJECT_SLOWDOWN): "injected_slowdown" set in
 * any results file, "injected" in the metadata of any, or in the Google
 * Benchmark context; the file's name into *file, NULL when none */
static const char *injected_file(const struct skb_results *r)
{
    for (int i = 0; i < skb_rfile_count(); i++) {
        const cJSON *d = r->doc[i], *inj = skb__jget(d, "injected_slowdown");
        if ((inj && !cJSON_IsNull(inj)) || skb__jget(d, "injected") || skb__jget(skb__jget(d, "context"), "injected_slowdown"))
            return skb_rfile_name(i);
    }
    return NULL;
}

int skb_compare_inputs_ok(const struct skb_results *base, const struct skb_results *cur, char *msg, size_t msglen)
{
    /* a results file that cannot be read or fails its contract (truncated,
     * garbage, another schema_version) is unreadable input, exit 2: never a
     * pass, and never counted as regressions (README: 2 = unreadable input) */
    /* a run timed with SKB_INJECT_SLOWDOWN is for validating the gate only:
     * as a baseline it would hide the very slow-down it carries */
    const char *f = base ? injected_file(base) : NULL;
    if (f) {
        snprintf(msg, msglen, "baseline %s/%s: the injection marker (\"injected_slowdown\") is set: a run with an "
                 "injected slow-down is never a baseline", base->dir, f);
        return SKB_EINVAL;
    }
    for (int i = 0; i < skb_rfile_count(); i++) {
        if (base && base->err[i][0]) {
            snprintf(msg, msglen, "baseline %s", base->err[i]);
            return SKB_EPARSE;
        }
        if (cur && cur->err[i][0]) {
            snprintf(msg, msglen, "current %s", cur->err[i]);
            return SKB_EPARSE;
        }
    }
    /* a folder holding files of two runs (two seeds, another machine's
     * timing file, a file replaced after the run) is no run to judge */
    for (int side = 0; side < 2; side++) {
        const struct skb_results *r = side ? cur : base;
        const char *why = !r ? "" : r->mixed[0] ? r->mixed : r->altered;
        if (why[0]) {
            snprintf(msg, msglen, "%s %s", side ? "current" : "baseline", why);
            return SKB_EINVAL;
        }
    }
    return 0;
}

int skb_compare_installable(const struct skb_results *run, char *msg, size_t msglen)
{
    int rc = skb_compare_inputs_ok(run, NULL, msg, msglen);
    if (rc < 0)
        return rc;
    const cJSON *cpu = skb_results_doc(run, "cpu.json");
    if (cpu && !cJSON_IsTrue(skb__jget(cpu, "verified"))) {
        snprintf(msg, msglen, "%s/cpu.json: \"verified\" is not true: an unverified run is never installed as the "
                 "baseline", run->dir);
        return SKB_EINVAL;
    }
    return 0;
}

/* files that cannot be read, and what the baseline had and the current run lacks */
static void check_files(struct cmp_state *s, const struct skb_results *base, const struct skb_results *cur)
{
    for (int i = 0; i < skb_rfile_count(); i++) {
        if (!skb__cmp_asked(s, skb_rfile_experiment(i)))
            continue;
        if (cur->err[i][0])
            skb__cmp_regression(s, "%s", cur->err[i]);
        else if (base->doc[i] && !cur->doc[i])
            skb__cmp_regression(s, "%s: missing in the current run (experiment '%s' did not run or failed)",
                                skb_rfile_name(i), skb_rfile_experiment(i));
        if (base->err[i][0])
            skb__cmp_undecided(s, skb_rfile_name(i), "the baseline's file is unreadable");
    }
}

static int has_files(const struct skb_results *r, const struct skb_experiment_desc *d)
{
    for (int i = 0; d->files && d->files[i].file; i++) {
        int k = skb_rfile_find(d->files[i].file);
        if (k >= 0 && (r->doc[k] || r->err[k][0]))
            return 1;
    }
    return 0;
}

/* every asked experiment's exact gates; one neither run has is a gate that
 * did not run: undecided, never a pass */
static void exact_gates(struct cmp_state *s, struct skb_gate *g, const struct skb_results *base,
                        const struct skb_results *cur)
{
    for (int e = 0; skb_experiment_list[e]; e++) {
        const struct skb_experiment_desc *d = skb_experiment_list[e];
        const char *name = skb_experiment_desc_name(d);
        if (!skb__cmp_asked(s, name))
            continue;
        if (!has_files(base, d) && !has_files(cur, d)) {
            char what[120];
            snprintf(what, sizeof what, "experiment %s", name);
            skb__cmp_undecided(s, what, "neither run has its results: its gate did not run (compare --only "
                               "names the experiments to judge)");
            continue;
        }
        skb_gate_fn *gate = skb_compare_gate(d);
        if (gate)
            gate(g, base, cur);
    }
}

/* the unpaired timing gate, when the two runs' times can be held together */
static void timing_gate(struct cmp_state *s, const struct skb_results *base, const struct skb_results *cur,
                        const struct skb_results *rerun, const struct skb_compare_opts *o, cJSON *sum)
{
    const cJSON *ga = skb_results_doc(base, "cpu-gbench.json"), *gb = skb_results_doc(cur, "cpu-gbench.json");
    if (!skb__cmp_asked(s, "cpu"))
        return;
    if (!o->ab && strcmp(cur->machine_key, "unknown") == 0) {
        skb__cmp_undecided(s, "timing", "the current run names no machine (no file carries \"machine\": \"key\"): "
                           "its times cannot be held to this machine's baseline");
    } else if (strcmp(base->machine_key, cur->machine_key) != 0) {
        char why[600];
        snprintf(why, sizeof why, "machines differ: baseline key '%.250s', current key '%.250s'%s", base->machine_key,
                 cur->machine_key, o->ab ? "; the A/B sitting decides timing" : "; timing not compared (use --ab)");
        if (o->ab)
            skb__cmp_info(s, "%s", why);
        else
            skb__cmp_undecided(s, "timing", why);
    } else if (ga && gb) {
        skb__gate_timing(s, ga, gb, rerun ? skb_results_doc(rerun, "cpu-gbench.json") : NULL, o, sum);
    } else if (ga || gb) {
        /* one side timed and the other not: "missing in the current run"
         * above, or an experiment new to the baseline (gate_new.c) */
        skb__cmp_undecided(s, "timing", ga ? "cpu-gbench.json missing in the current run"
                                           : "cpu-gbench.json missing in the baseline");
    } else if (!o->ab) {
        skb__cmp_undecided(s, "timing", "neither run has cpu-gbench.json: no timing gate ran");
    }
}

int skb_compare_run(const struct skb_results *base, const struct skb_results *cur,
                    const struct skb_results *rerun, const struct skb_compare_opts *o,
                    FILE *out, cJSON **summary)
{
    struct cmp_state s = { out, 0, 0, o->ab != NULL, NULL, NULL, NULL, o };
    cJSON *sum = cJSON_CreateObject();
    cJSON_AddStringToObject(sum, "baseline", base->dir);
    cJSON_AddStringToObject(sum, "current", cur->dir);
    cJSON_AddStringToObject(sum, "machine", cur->machine_key);
    s.reg = cJSON_AddArrayToObject(sum, "regressions");
    s.info = cJSON_AddArrayToObject(sum, "notes");
    s.undecided = cJSON_AddArrayToObject(sum, "inconclusive");
    fprintf(out, "compare: baseline %s [%s] vs current %s [%s]\n", base->dir, base->machine_key, cur->dir,
            cur->machine_key);
    if (o->only)
        skb__cmp_info(&s, "only the gates of %s judged (--only)", o->only);
    check_files(&s, base, cur);
    struct skb_gate g = { &skb__cmp_gate_ops, &s, sum };
    exact_gates(&s, &g, base, cur);
    skb__gate_new_items(&g, base, cur);
    if (o->ab && skb__cmp_asked(&s, "cpu"))
        skb__gate_ab(&s, o->ab, sum);
    timing_gate(&s, base, cur, rerun, o, sum);
    cJSON_AddNumberToObject(sum, "regression_count", s.regressions);
    cJSON_AddNumberToObject(sum, "inconclusive_count", s.inconclusive);
    /* a failing exact gate is a regression whatever timing says; otherwise
     * an undecided gate is never reported as a pass */
    const char *verdict = s.regressions ? "FAIL" : s.inconclusive ? "INCONCLUSIVE" : "pass";
    cJSON_AddStringToObject(sum, "verdict", verdict);
    if (s.inconclusive)
        report_undecided(&s, o);
    fprintf(out, "compare: %s (%d regression%s, %d undecided)\n", verdict, s.regressions,
            s.regressions == 1 ? "" : "s", s.inconclusive);
    if (summary)
        *summary = sum;
    else
        cJSON_Delete(sum);
    return s.regressions;
}
