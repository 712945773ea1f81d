/* history_internal.h — the nightly history as read from the results store
 * (history.c), for its page and CSV (history_page.c) and the report's
 * table of steps. */
#ifndef SKB_HISTORY_INTERNAL_H
#define SKB_HISTORY_INTERNAL_H

#include "skb_regress.h"

enum { SKB_HIST_TIME, SKB_HIST_ICOUNT, SKB_HIST_NMETRIC };

/* instructions: a change beyond this between two nights is a step (the
 * counts of one build are identical; compare_ab.c's ICOUNT_TOL) */
#define SKB_HIST_ICOUNT_TOL 0.005
/* timing: a step must be at least this large ... */
#define SKB_HIST_STEP_MIN 0.05
/* ... with this many nights on each side (one night alone is noise) ... */
#define SKB_HIST_STEP_SIDE 2
/* ... and clear of the noise at this family level over every candidate split of a machine's series */
#define SKB_HIST_FAMILY_ALPHA 0.05

struct skb_hseries {
    const char *name;           /* benchmark (cpu-gbench.json / icount.json name; skb_history.names) */
    char group[80];             /* its method (skb__bench_group) */
    int metric;                 /* SKB_HIST_TIME (ms) or SKB_HIST_ICOUNT */
    double *v;                  /* one value per night, NAN where absent */
};

struct skb_hnight {
    long long run;
    char stamp[32], rev[48], describe[64];
};

/* the night's paired A/B estimate of one method (compare.json "ab") */
struct skb_hpaired {
    char method[80];
    double *delta, *lo, *hi;    /* one per night, NAN where none */
};

struct skb_hmachine {
    char key[256];
    int nnights, cap;
    struct skb_hnight *night;   /* by start time */
    int nseries, scap;
    struct skb_hseries *series;
    int npaired;
    struct skb_hpaired *paired;
    double zcrit;               /* a time step's threshold in standard errors (history.c) */
    int *of_name[SKB_HIST_NMETRIC];   /* name id -> series index, -1 (history.c, while loading) */
};

struct skb_history {
    char source[1024];
    int nmach;
    struct skb_hmachine *m;
    int runs, injected;         /* runs read; runs left out for an injected slow-down */
    char **names;               /* every measurement name by id, borrowed by the series */
    long long nnames;
};

struct skb_hstep {
    int night;                  /* index of the first night after the step */
    int prev;                   /* the last night before it with a value */
    double before, after;
};

/* the steps of series i of machine m (at most max), in night order */
int skb__history_steps(const struct skb_hmachine *m, int i, struct skb_hstep *st, int max);
#define SKB_HIST_MAX_STEPS 64

/* a step of one series of a method */
struct skb_hmstep {
    int series;
    struct skb_hstep st;
};
/* every step of the series of method `group` of m, into *out (freed by the
 * caller); time steps within SKB_HIST_SNAP nights of the night most of the
 * method's series stepped on are put on that night (history_steps.c says
 * why); the count, or -1 out of memory */
int skb__history_group_steps(const struct skb_hmachine *m, const char *group, struct skb_hmstep **out);
#define SKB_HIST_SNAP 2
/* the methods (series groups) of m, each once, in first-seen order; the
 * count, or -1; *out freed by the caller, its strings m's */
int skb__history_groups(const struct skb_hmachine *m, const char ***out);

/* the rules, for every page that shows steps (one place) */
extern const char skb__history_rules[];

#endif
