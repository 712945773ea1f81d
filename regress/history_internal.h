/* history_internal.h — the nightly history (history.c) as plots_history.c
 * reads it. */
#ifndef SKB_HISTORY_INTERNAL_H
#define SKB_HISTORY_INTERNAL_H

#include "skb_regress.h"

enum { SKB_HIST_TIME, SKB_HIST_ICOUNT };

struct skb_hseries {
    char name[200];             /* benchmark (cpu-gbench.json / icount.json name) */
    int metric;                 /* SKB_HIST_TIME (ms) or SKB_HIST_ICOUNT */
    double *v;                  /* one value per night, NAN where absent */
};

struct skb_history {
    char dir[1024];
    int nnights;
    char **night;               /* directory names, sorted (= by time) */
    int nseries, cap;
    struct skb_hseries *series;
    int unreadable;             /* nights' files left out */
};

struct skb_hstep {
    int night;                  /* index of the first night after the step */
    double before, after;
};

/* the steps of series i (at most max) */
int skb__history_steps(const struct skb_history *h, int i, struct skb_hstep *st, int max);

#endif
