/* skb_stats.c — sorting and the median (an even count takes the mean of the
 * two middle values). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "skb_stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void skb_sort_doubles(double *x, int n)
{
    if (n > 1)
        qsort(x, (size_t)n, sizeof *x, cmp_double);
}

double skb_sorted_median(double *x, int n)
{
    skb_sort_doubles(x, n);
    return n ? (n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2])) : NAN;
}

double skb_median(const double *x, int n)
{
    if (n < 1)
        return NAN;
    double *c = malloc((size_t)n * sizeof *c);
    if (!c)
        return NAN;
    memcpy(c, x, (size_t)n * sizeof *c);
    double m = skb_sorted_median(c, n);
    free(c);
    return m;
}

double skb_sorted_quantile(const double *x, int n, double p)
{
    if (n < 1 || !(p >= 0 && p <= 1))
        return NAN;
    double h = (n - 1) * p;
    int lo = (int)floor(h);
    return lo + 1 < n ? x[lo] + (h - lo) * (x[lo + 1] - x[lo]) : x[n - 1];
}
