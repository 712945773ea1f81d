/* skb_regress.h — the nightly regression layer (README "Nightly
 * regression"): compare a current run against a baseline (exact gates, the
 * unpaired U test or the paired A/B sitting), the results store of runs
 * and baselines (skb_store.h), and the nightly history.  It reads results through reports/ (skb_report.h) and
 * sits above it; cli/ calls it. */
#ifndef SKB_REGRESS_H
#define SKB_REGRESS_H

#include <stdio.h>
#include "skb_report.h"

/* an A/B sitting (scripts/nightly-ab.sh): the baseline build (a) and the
 * current build (b) timed alternately, round after round, on the same
 * kernels in the same minutes: DIR/round-K/{a,b}/cpu-gbench.json */
struct skb_ab {
    char dir[1024];
    int nrounds;
    struct skb_gbench_set *a, *b;   /* nrounds each (common/skb_gbench.h) */
};
/* read every round of DIR; SKB_EPARSE/SKB_EIO with msg naming the file
 * (compare exits 2: a sitting with a missing or corrupt round never passes) */
int skb_ab_load(const char *dir, struct skb_ab *ab, char *msg, size_t msglen);
void skb_ab_free(struct skb_ab *ab);

struct skb_compare_opts {
    double alpha;              /* significance level of the U test */
    double min_effect;         /* relative median slow-down that matters */
    int update_baseline;
    const struct skb_ab *ab;   /* --ab DIR: the paired timing gate decides; NULL: the U test */
    const char *only;          /* --only a,b: judge only these experiments' gates; NULL: all */
};

/* 0 when every results file of both runs read and passed its contract;
 * otherwise SKB_EPARSE with msg naming the run and file (compare exits 2) */
int skb_compare_inputs_ok(const struct skb_results *base, const struct skb_results *cur, char *msg, size_t msglen);
/* 0 when run may become a baseline: readable, no injection marker in any
 * file, cpu.json (when present) "verified" true; else SKB_EINVAL + msg */
int skb_compare_installable(const struct skb_results *run, char *msg, size_t msglen);

/* ---- nightly history (the results store, regress/history.c) ---- */
struct skb_history;
/* every stored night of the results store at path (runs with an injected
 * slow-down left out), per machine key, by start time */
int skb_history_load(const char *store, struct skb_history **h, char *msg, size_t msglen);
void skb_history_free(struct skb_history *h);
/* the report's table of steps (machine, benchmark, first night, revisions, before, after) */
void skb_history_table(struct skb_report *rep, const struct skb_history *h);
/* out_dir/history.html (per machine and method: instructions, CPU times and
 * the paired A/B estimates night by night, steps marked; inline SVG, the
 * report's style, nothing fetched at view time), history.csv (the same per
 * night) and history-steps.csv (every step); 0 or an SKB_E* code with msg */
int skb_history_write(const struct skb_history *h, const char *out_dir, char *msg, size_t msglen);

/* the gates' own measured figures (scripts/gate-summary.sh output, read by
 * the caller) into summary "gate_validation", one line each on out */
void skb_compare_add_validation(cJSON *summary, const cJSON *val, const char *path, FILE *out);

/* compare a current run against a baseline run; writes lines to out and
 * returns the number of regressions (0 = no regression); the comparison
 * summary (incl. self-comparison false-positive rate) as JSON in *summary,
 * where "inconclusive_count" > 0 means the timing gate could not decide
 * (too few repetitions, or unconfirmed changes): the CLI exits 3, not 0 */
int skb_compare_run(const struct skb_results *base, const struct skb_results *cur,
                    const struct skb_results *rerun, const struct skb_compare_opts *o,
                    FILE *out, cJSON **summary);

/* the gate compare runs for experiment d: its descriptor's own, else the
 * one regress/gate_exact.c keeps for it (cpu, icount); NULL when it has none */
typedef void skb_gate_fn(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur);
skb_gate_fn *skb_compare_gate(const struct skb_experiment_desc *d);

#endif
