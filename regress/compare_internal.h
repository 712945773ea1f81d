/* compare_internal.h — shared by the files of regress/'s compare: the
 * driver (compare.c), the verdict lines (cmp_lines.c), the exact gates
 * (gate_exact.c, gate_new.c), the unpaired timing gate (gate_timing.c) and
 * compare_ab.c (the instruction-count gate and the paired A/B timing gate,
 * docs/report-and-regression.md "Nightly regression"). */
#ifndef SKB_COMPARE_INTERNAL_H
#define SKB_COMPARE_INTERNAL_H

#include <stdio.h>
#include "skb_regress.h"

struct cmp_state {
    FILE *out;
    int regressions;
    int inconclusive;          /* gates that could not decide (exit 3) */
    int timing_informational;  /* the A/B decides: the unpaired U test only informs */
    cJSON *reg, *info, *undecided;
    const struct skb_compare_opts *o;
};

/* the line writer an experiment descriptor's gate reports through
 * (struct skb_gate, reports/skb_report.h: skb_gate_regression, skb_gate_note) */
extern const struct skb_gate_ops skb__cmp_gate_ops;

/* a line of the verdict: a regression (counted, exit 1) or a note */
void skb__cmp_regression(struct cmp_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void skb__cmp_info(struct cmp_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* control bytes of a name read from a file replaced by '?' (one line each) */
void skb__cmp_clean(char *t);
/* something a gate could not decide: never a pass (exit 3) */
void skb__cmp_undecided(struct cmp_state *s, const char *what, const char *why);
/* 1 when experiment `name`'s gates are judged (all, unless --only names others) */
int skb__cmp_asked(const struct cmp_state *s, const char *name);

/* the group a benchmark name "kind/label/dataset" belongs to: the method
 * (label up to '@' or '+') for double and f32 kernels, "peer/label" or
 * "copy/label" otherwise */
void skb__bench_group(const char *name, char *group, size_t len);

/* instructions per kernel (icount.json), exact to ICOUNT_TOL */
void skb__gate_icount(struct cmp_state *s, const cJSON *a, const cJSON *b, cJSON *sum);
/* the paired A/B sitting of o->ab */
void skb__gate_ab(struct cmp_state *s, const struct skb_ab *ab, cJSON *sum);
/* gate_exact.c: the exact gates of the built-in experiments that need compare's own state */
void skb__gate_cpu(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur);
void skb__gate_icount_exp(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur);
/* gate_new.c: new experiments (files the baseline lacks) and new methods */
void skb__gate_new_items(struct skb_gate *g, const struct skb_results *base, const struct skb_results *cur);
/* gate_timing.c: the unpaired U-test timing gate on cpu-gbench.json (rerun may be NULL) */
void skb__gate_timing(struct cmp_state *s, const cJSON *a, const cJSON *b, const cJSON *rerun,
                      const struct skb_compare_opts *o, cJSON *sum);

#endif
