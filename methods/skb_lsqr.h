/* skb_lsqr.h — sparse least squares by LSQR (Paige & Saunders, ACM TOMS 8(2)
 * 1982, the solver thesis 7.2 names [104]); GSL has dense and sparse pieces
 * but no LSQR.  Used by the SAD transformation fitting (methods/sad_fit.c).
 *   skb_lsqr_solve  min |A x - b|_2 for a CSR matrix A, from a starting x
 * Pure double math; C only (absent from the FLOP-counting C++ build). */
#ifndef SKB_LSQR_H
#define SKB_LSQR_H

#ifndef SKB_FLOP_COUNT

/* compressed sparse rows: row r holds col[rowptr[r] .. rowptr[r+1]) */
struct skb_csr {
    int nrows, ncols;
    const int *rowptr;         /* nrows + 1 offsets */
    const int *col;            /* column of each stored value */
    const double *val;
};

struct skb_lsqr_opts {
    double atol;               /* stop when |A^T r| <= atol |A| |r| (Paige-Saunders test 2) */
    double btol;               /* or when |r| <= btol |b| + atol |A| |x| (test 1) */
    int max_iter;              /* iteration cap (0: 4 * ncols) */
    double damp;               /* 0, or min |A x - b|^2 + damp^2 |D^-1 (x - x0)|^2: a ridge on the
                                  change from the starting guess, in the column-scaled unknowns
                                  (D^-1 dx_c = |column c| dx_c), so directions the data barely
                                  determine stay at the start */
};

struct skb_lsqr_info {
    int iterations;
    int stop;                  /* 0 x = 0 solves it, 1 test 1, 2 test 2, 3 iteration cap */
    double rnorm;              /* |b - A x| estimate at the end */
    double arnorm;             /* |A^T (b - A x)| estimate at the end (scaled problem) */
};

/* x (ncols numbers) holds the starting guess x0 on entry and the solution on
 * return.  Columns are scaled to unit norm inside (a Jacobi preconditioner:
 * the solution is that of the unscaled problem); a zero column keeps its x.
 * 0, SKB_EINVAL (bad sizes), SKB_ENOMEM or SKB_ENONFINITE. */
int skb_lsqr_solve(const struct skb_csr *a, const double *b, double *x, const struct skb_lsqr_opts *o,
                   struct skb_lsqr_info *info);

#endif
#endif
