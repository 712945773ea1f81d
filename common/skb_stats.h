/* skb_stats.h — the one median (and quartiles): experiments (timing repetitions, FLOP
 * samples) and compare (baseline against current timings) share it. */
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

#endif
