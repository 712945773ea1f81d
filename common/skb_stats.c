/* skb_stats.c — sorting and the median (an even count takes the mean of the
 * two middle values), and the rank tests of the regression gates (docs/report-and-regression.md
 * "Nightly regression"): Mann-Whitney U, Holm-Bonferroni, the Wilcoxon
 * signed-rank CI and the Hodges-Lehmann estimate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
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

/* idx[0..n) = 0..n-1 ordered by v (ties in index order): qsort of
 * (value, index) pairs, O(n log n) — an insertion sort here made compare
 * take minutes on 150,000 repetitions of one benchmark; 0 or -1 out of memory */
struct vi {
    double v;
    int i;
};

static int cmp_vi(const void *a, const void *b)
{
    const struct vi *x = a, *y = b;
    return x->v != y->v ? (x->v > y->v) - (x->v < y->v) : (x->i > y->i) - (x->i < y->i);
}

static int sort_index(const double *v, int n, int *idx)
{
    struct vi *t = malloc(((size_t)n + 1) * sizeof *t);
    if (!t)
        return -1;
    for (int i = 0; i < n; i++)
        t[i] = (struct vi){ v[i], i };
    qsort(t, (size_t)n, sizeof *t, cmp_vi);
    for (int i = 0; i < n; i++)
        idx[i] = t[i].i;
    free(t);
    return 0;
}

/* ---- the Mann-Whitney U test ---- */

/* P(U <= u) under H0 for sample sizes m, n without ties: counts of
 * arrangements by the recursion f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u) */
static double mwu_exact_cdf(int m, int n, double u)
{
    int umax = m * n;
    size_t w = (size_t)umax + 1;
    double *f = calloc((size_t)(m + 1) * (size_t)(n + 1) * w, sizeof *f);
    if (!f)
        return NAN;
#define F(i, j, k) f[((size_t)(i) * (size_t)(n + 1) + (size_t)(j)) * w + (size_t)(k)]
    for (int i = 0; i <= m; i++)
        for (int j = 0; j <= n; j++) {
            if (i == 0 || j == 0) {
                F(i, j, 0) = 1;
                continue;
            }
            for (int k = 0; k <= i * j; k++)
                F(i, j, k) = (k - j >= 0 ? F(i - 1, j, k - j) : 0) + (k <= (i) * (j - 1) ? F(i, j - 1, k) : 0);
        }
    double tot = 0, le = 0;
    for (int k = 0; k <= umax; k++) {
        tot += F(m, n, k);
        if (k <= u + 1e-9)
            le += F(m, n, k);
    }
#undef F
    free(f);
    return le / tot;
}

int skb_mann_whitney(const double *a, int na, const double *b, int nb, double *u, double *p)
{
    if (na < 1 || nb < 1)
        return -1;
    int n = na + nb;
    double *v = malloc((size_t)n * sizeof *v), *rk = malloc((size_t)n * sizeof *rk);
    int *idx = malloc((size_t)n * sizeof *idx);
    if (!v || !rk || !idx) {
        free(v);
        free(rk);
        free(idx);
        return -1;
    }
    for (int i = 0; i < na; i++)
        v[i] = a[i];
    for (int i = 0; i < nb; i++)
        v[na + i] = b[i];
    /* rank with average ranks for ties */
    if (sort_index(v, n, idx) < 0) {
        free(v);
        free(rk);
        free(idx);
        return -1;
    }
    double tie = 0;
    int ties = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && v[idx[j + 1]] == v[idx[i]])
            j++;
        double r = 0.5 * (i + j) + 1;
        for (int k = i; k <= j; k++)
            rk[idx[k]] = r;
        double t = j - i + 1;
        if (t > 1) {
            ties = 1;
            tie += t * t * t - t;
        }
        i = j + 1;
    }
    double ra = 0;
    for (int i = 0; i < na; i++)
        ra += rk[i];
    double ua = ra - na * (na + 1) / 2.0, mu = na * (double)nb / 2;
    *u = ua;
    if (!ties && na <= SKB_MWU_EXACT_MAX && nb <= SKB_MWU_EXACT_MAX) {
        double lo = fmin(ua, na * (double)nb - ua);
        *p = fmin(1, 2 * mwu_exact_cdf(na, nb, lo));
    } else {
        double var = na * (double)nb / 12 * ((n + 1) - tie / ((double)n * (n - 1)));
        double z = var > 0 ? (fabs(ua - mu) - 0.5) / sqrt(var) : 0;
        *p = var > 0 ? fmin(1, 2 * gsl_cdf_ugaussian_Q(fmax(z, 0))) : 1;
    }
    free(v);
    free(rk);
    free(idx);
    return 0;
}

/* Holm-Bonferroni step-down adjusted p-values of p[0..n-1] into adj:
 * the i-th smallest gets max over k <= i of min(1, (n - k) p_(k)), which
 * keeps the chance of any false alarm across all n benchmarks below alpha */
int skb_holm(const double *p, int n, double *adj)
{
    int *ix = malloc((size_t)n * sizeof *ix + 1);
    if (!ix)
        return -1;
    /* tied p-values end with one adjusted value whatever their order */
    if (sort_index(p, n, ix) < 0) {
        free(ix);
        return -1;
    }
    double run = 0;
    for (int k = 0; k < n; k++) {
        run = fmax(run, fmin(1, (n - k) * p[ix[k]]));
        adj[ix[k]] = run;
    }
    free(ix);
    return 0;
}

/* ---- the exact Wilcoxon signed-rank CI and the Hodges-Lehmann estimate ---- */

/* the largest c with P(T <= c) <= q under H0 for n pairs, -1 when even
 * T = 0 is likelier than q (too few rounds for this level) */
int skb_signed_rank_crit(int n, double q)
{
    int tmax = n * (n + 1) / 2;
    double *cnt = calloc((size_t)tmax + 1, sizeof *cnt);
    if (!cnt)
        return -1;
    cnt[0] = 1;
    for (int k = 1; k <= n; k++)
        for (int t = k * (k + 1) / 2; t >= k; t--)
            cnt[t] += cnt[t - k];
    double tot = ldexp(1, n), cum = 0;
    int c = -1;
    for (int t = 0; t <= tmax; t++) {
        cum += cnt[t] / tot;
        if (cum > q)
            break;
        c = t;
    }
    free(cnt);
    return c;
}

/* HL estimate (median of the Walsh averages) and the exact two-sided CI at
 * level 1 - alpha of n paired values x; lo/hi are NAN when n is too small */
int skb_hodges_lehmann(const double *x, int n, double alpha, double *hl, double *lo, double *hi)
{
    int nw = n * (n + 1) / 2, k = 0;
    double *w = malloc(((size_t)nw + 1) * sizeof *w);
    if (!w || n < 1) {
        free(w);
        return -1;
    }
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++)
            w[k++] = 0.5 * (x[i] + x[j]);
    qsort(w, (size_t)nw, sizeof *w, cmp_double);
    *hl = nw % 2 ? w[nw / 2] : 0.5 * (w[nw / 2 - 1] + w[nw / 2]);
    int c = skb_signed_rank_crit(n, alpha / 2);
    *lo = c >= 0 ? w[c] : NAN;
    *hi = c >= 0 ? w[nw - 1 - c] : NAN;
    free(w);
    return 0;
}
