/* skb_stats.h — the one median: experiments (timing repetitions, FLOP
 * samples) and compare (baseline against current timings) share it. */
#ifndef SKB_STATS_H
#define SKB_STATS_H

/* sort x[0..n) ascending, in place */
void skb_sort_doubles(double *x, int n);
/* median of x[0..n), which it sorts in place; NAN for n = 0 */
double skb_sorted_median(double *x, int n);
/* median of x[0..n) without touching x; NAN for n < 1 or out of memory */
double skb_median(const double *x, int n);

#endif
