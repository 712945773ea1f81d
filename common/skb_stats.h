/* skb_stats.h — the one median (and quartiles): experiments (timing repetitions, FLOP
 * samples) and compare (baseline against current timings) share it; and the
 * rank tests of the regression gates (regress/: unpaired U test, Holm, the
 * paired A/B estimate and its CI). */
#ifndef SKB_STATS_H
#define SKB_STATS_H

/* sort x[0..n) ascending, in place */
void skb_sort_doubles(double *x, int n);
/* median of x[0..n), which it sorts in place; NAN for n = 0 */
double skb_sorted_median(double *x, int n);
/* median of x[0..n) without touching x; NAN for n < 1 or out of memory */
double skb_median(const double *x, int n);
/* p-quantile (0 <= p <= 1) of an ascending x[0..n), interpolated linearly
 * between order statistics (Hyndman-Fan type 7, R's default), so p = 0.5
 * is skb_sorted_median: the quartiles the plots draw beside the medians
 * the tables give; NAN for n < 1 or p outside [0, 1] */
double skb_sorted_quantile(const double *x, int n, double p);

/* exact distribution of U for samples up to this size (no ties) */
#define SKB_MWU_EXACT_MAX 20

/* two-sided Mann-Whitney U test of a[0..na) against b[0..nb): *p (exact
 * for small samples without ties, normal approximation with tie and
 * continuity correction otherwise), *u the U statistic of a.  -1 when a
 * sample is empty. */
int skb_mann_whitney(const double *a, int na, const double *b, int nb, double *u, double *p);
/* Holm-Bonferroni step-down adjusted p-values of p[0..n) into adj; -1 when
 * out of memory */
int skb_holm(const double *p, int n, double *adj);
/* the largest c with P(T <= c) <= q for the Wilcoxon signed-rank statistic
 * T of n pairs under H0, -1 when even T = 0 is likelier than q */
int skb_signed_rank_crit(int n, double q);
/* Hodges-Lehmann estimate (median of the Walsh averages) of n paired values
 * x and its exact two-sided CI at level 1 - alpha; lo/hi NAN when n is too
 * small; -1 when n < 1 or out of memory */
int skb_hodges_lehmann(const double *x, int n, double alpha, double *hl, double *lo, double *hi);

#endif
