/* skb_bisect.h — find the commit that moved a kernel (`skinbench bisect`,
 * `make bisect`, and the nightly on each regression it finds): the
 * revisions between GOOD and BAD are built in a scratch worktree, and at
 * each midpoint either the kernel's instructions are counted (callgrind:
 * the same number on every run, so one build decides a step) or, for a
 * slow-down that adds no instructions, the method is timed against GOOD's
 * binary in a paired A/B sitting whose confidence interval decides the step
 * (docs/report-and-regression.md "Bisect").
 *
 *   int  skb_bisect_run(const struct skb_bisect_opts *o, FILE *log, struct skb_bisect_result *r, char *msg, size_t msglen);
 *   void skb_bisect_result_free(struct skb_bisect_result *r);
 *   int  skb_ab_method_estimate(...)   (compare_ab.c: one method of a sitting) */
#ifndef SKB_BISECT_H
#define SKB_BISECT_H

#include <stdio.h>
#include "skb_regress.h"

struct skb_bisect_opts {
    const char *good, *bad;    /* a revision, or a run folder with manifest.json (its revision, and its
                                  icount.json count: that end is then not built) */
    const char *kernel;        /* instructions: this kernel's count (an icount.json name) */
    const char *method;        /* timing (when kernel is NULL): this method's paired A/B estimate */
    const char *repo;          /* the git checkout (default: the current directory's) */
    const char *work;          /* the scratch folder (default: a new one under $TMPDIR), removed unless keep */
    const char *seed_build;    /* a build folder to start from (its objects), built from ... */
    const char *seed_rev;      /* ... this revision's sources (default: its git-describe stamp, when clean) */
    const char *good_binary;   /* timing: GOOD's skinbench (default: built) */
    int jobs, quick, rounds, keep;
    double tol;                /* instructions: a move beyond this is a step (default 0.005) */
};

struct skb_bisect_result {
    int builds, decided, ncommits;
    char first_bad[48], last_good[48], subject[200];
    double good_value, bad_value, first_value;   /* counts, or the A/B estimates (relative) */
    double confidence;         /* timing: the chance that no step decided wrongly is at least this; 1 for counts */
    cJSON *steps;              /* [{revision, value, moved}] in the order measured */
};

/* bisect; lines on log; 0 with r filled (r->decided 0: the range in
 * last_good..first_bad is as far as the steps could decide), or an SKB_E*
 * code with msg */
int skb_bisect_run(const struct skb_bisect_opts *o, FILE *log, struct skb_bisect_result *r, char *msg,
                   size_t msglen);
void skb_bisect_result_free(struct skb_bisect_result *r);

/* one method's paired estimate over a sitting (current/baseline - 1, the
 * Hodges-Lehmann estimate of the mean log ratio of its benchmarks per round
 * and its exact CI at level 1 - alpha); 0, or -1 when the sitting has no
 * paired round of the method */
int skb_ab_method_estimate(const struct skb_ab *ab, const char *method, double alpha, double *est, double *lo,
                           double *hi);

#endif
