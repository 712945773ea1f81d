/* compare_internal.h — shared between compare.c (the exact gates, the
 * unpaired U test, baseline update) and compare_ab.c (the instruction-count
 * gate and the paired A/B timing gate, README "Nightly regression"). */
#ifndef SKB_COMPARE_INTERNAL_H
#define SKB_COMPARE_INTERNAL_H

#include <stdio.h>
#include "skb_report.h"

struct cmp_state {
    FILE *out;
    int regressions;
    int inconclusive;          /* gates that could not decide (exit 3) */
    int timing_informational;  /* the A/B decides: the unpaired U test only informs */
    cJSON *reg, *info, *undecided;
};

/* a line of the verdict: a regression (counted, exit 1) or a note */
void skb__cmp_regression(struct cmp_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void skb__cmp_info(struct cmp_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* control bytes of a name read from a file replaced by '?' (one line each) */
void skb__cmp_clean(char *t);
/* something a gate could not decide: never a pass (exit 3) */
void skb__cmp_undecided(struct cmp_state *s, const char *what, const char *why);

/* the group a benchmark name "kind/label/dataset" belongs to: the method
 * (label up to '@' or '+') for double and f32 kernels, "peer/label" or
 * "copy/label" otherwise */
void skb__bench_group(const char *name, char *group, size_t len);

/* instructions per kernel (icount.json), exact to ICOUNT_TOL */
void skb__gate_icount(struct cmp_state *s, const cJSON *a, const cJSON *b, cJSON *sum);
/* the paired A/B sitting of o->ab */
void skb__gate_ab(struct cmp_state *s, const struct skb_ab *ab, cJSON *sum);

#endif
