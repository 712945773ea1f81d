/* lsqr.c — LSQR (Paige & Saunders 1982, Algorithm 583; the solver of thesis
 * 7.2.1-7.2.2 [104]) on a CSR matrix, with column scaling.  It is the
 * Golub-Kahan bidiagonalisation of A with a QR update per step: two sparse
 * products per iteration, no normal equations formed.  The starting guess
 * x0 is used by solving A dx = b - A x0 and returning x0 + dx. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "skb_error.h"
#include "skb_lsqr.h"

#ifndef SKB_FLOP_COUNT

static double nrm2(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i] * v[i];
    return sqrt(s);
}

static void scal(double *v, int n, double s)
{
    for (int i = 0; i < n; i++)
        v[i] *= s;
}

/* y += A D x  (D = diag(d): the column scaling) */
static void csr_mv_add(const struct skb_csr *a, const double *d, const double *x, double *y)
{
    for (int r = 0; r < a->nrows; r++) {
        double s = 0;
        for (int k = a->rowptr[r]; k < a->rowptr[r + 1]; k++)
            s += a->val[k] * d[a->col[k]] * x[a->col[k]];
        y[r] += s;
    }
}

/* y += D A^T x */
static void csr_tmv_add(const struct skb_csr *a, const double *d, const double *x, double *y, double *acc)
{
    memset(acc, 0, sizeof *acc * (size_t)a->ncols);
    for (int r = 0; r < a->nrows; r++) {
        double xr = x[r];
        if (xr == 0)
            continue;
        for (int k = a->rowptr[r]; k < a->rowptr[r + 1]; k++)
            acc[a->col[k]] += a->val[k] * xr;
    }
    for (int c = 0; c < a->ncols; c++)
        y[c] += d[c] * acc[c];
}

static int check(const struct skb_csr *a, const double *b, const double *x)
{
    if (!a || !b || !x || a->nrows < 1 || a->ncols < 1 || !a->rowptr || a->rowptr[0] != 0)
        return SKB_EINVAL;
    for (int r = 0; r < a->nrows; r++)
        if (a->rowptr[r + 1] < a->rowptr[r])
            return SKB_EINVAL;
    for (int k = 0; k < a->rowptr[a->nrows]; k++)
        if (a->col[k] < 0 || a->col[k] >= a->ncols)
            return SKB_EINVAL;
    return 0;
}

int skb_lsqr_solve(const struct skb_csr *a, const double *b, double *x, const struct skb_lsqr_opts *o,
                   struct skb_lsqr_info *info)
{
    int rc = check(a, b, x);
    if (rc < 0)
        return rc;
    int m = a->nrows, n = a->ncols, max_iter = o->max_iter > 0 ? o->max_iter : 4 * n;
    double *u = (double *)malloc(sizeof(double) * (size_t)m), *buf = (double *)malloc(sizeof(double) * 5 * (size_t)n);
    if (!u || !buf) {
        free(u);
        free(buf);
        return SKB_ENOMEM;
    }
    double *v = buf, *w = buf + n, *dx = buf + 2 * n, *d = buf + 3 * n, *acc = buf + 4 * n;
    struct skb_lsqr_info inf;
    memset(&inf, 0, sizeof inf);
    /* column scaling: d_c = 1 / |column c| (zero columns: d = 0, x kept) */
    memset(d, 0, sizeof *d * (size_t)n);
    for (int k = 0; k < a->rowptr[m]; k++)
        d[a->col[k]] += a->val[k] * a->val[k];
    for (int c = 0; c < n; c++)
        d[c] = d[c] > 0 ? 1 / sqrt(d[c]) : 0;
    /* u = b - A x0: the residual the correction has to remove */
    for (int r = 0; r < m; r++)
        u[r] = b[r];
    for (int c = 0; c < n; c++)
        dx[c] = -x[c] * (d[c] > 0 ? 1 / d[c] : 0);   /* A D (D^-1 x0) = A x0 */
    csr_mv_add(a, d, dx, u);
    memset(dx, 0, sizeof *dx * (size_t)n);
    double bnorm = nrm2(b, m), beta = nrm2(u, m), alpha = 0, anorm = 0, xnorm = 0;
    if (beta > 0) {
        scal(u, m, 1 / beta);
        memset(v, 0, sizeof *v * (size_t)n);
        csr_tmv_add(a, d, u, v, acc);
        alpha = nrm2(v, n);
    }
    if (alpha > 0)
        scal(v, n, 1 / alpha);
    memcpy(w, v, sizeof *w * (size_t)n);
    double rhobar = alpha, phibar = beta, damp = o->damp > 0 ? o->damp : 0, psi2 = 0;
    inf.rnorm = beta;
    inf.arnorm = alpha * beta;
    if (inf.arnorm == 0)
        goto done;   /* stop 0: x0 already solves the normal equations */
    for (inf.iterations = 1; inf.iterations <= max_iter; inf.iterations++) {
        /* bidiagonalisation: beta u = A v - alpha u, alpha v = A^T u - beta v */
        scal(u, m, -alpha);
        csr_mv_add(a, d, v, u);
        beta = nrm2(u, m);
        if (beta > 0) {
            scal(u, m, 1 / beta);
            scal(v, n, -beta);
            csr_tmv_add(a, d, u, v, acc);
            alpha = nrm2(v, n);
            if (alpha > 0)
                scal(v, n, 1 / alpha);
        }
        anorm = sqrt(anorm * anorm + alpha * alpha + beta * beta + damp * damp);
        /* damping: a rotation eliminating damp from the lower bidiagonal
         * (Paige-Saunders 1982, the damped problem min |A x - b|^2 + damp^2 |x|^2) */
        double rhobar1 = sqrt(rhobar * rhobar + damp * damp), cs1 = rhobar / rhobar1, sn1 = damp / rhobar1;
        psi2 += (sn1 * phibar) * (sn1 * phibar);
        phibar = cs1 * phibar;
        /* plane rotation eliminating beta: the QR update of the bidiagonal */
        double rho = sqrt(rhobar1 * rhobar1 + beta * beta), c = rhobar1 / rho, s = beta / rho;
        double theta = s * alpha, phi = c * phibar;
        rhobar = -c * alpha;
        phibar = s * phibar;
        for (int k = 0; k < n; k++) {
            dx[k] += (phi / rho) * w[k];
            w[k] = v[k] - (theta / rho) * w[k];
        }
        xnorm = nrm2(dx, n);
        /* |(A; damp I) x - (b; 0)|, the quantity the damped problem minimises */
        inf.rnorm = sqrt(phibar * phibar + psi2);
        inf.arnorm = fabs(phibar) * alpha * fabs(c);
        if (!isfinite(inf.rnorm) || !isfinite(xnorm)) {
            free(u);
            free(buf);
            return SKB_ENONFINITE;
        }
        if (inf.rnorm <= o->btol * bnorm + o->atol * anorm * xnorm) {
            inf.stop = 1;
            break;
        }
        if (inf.arnorm <= o->atol * anorm * inf.rnorm) {
            inf.stop = 2;
            break;
        }
    }
    if (inf.iterations > max_iter) {
        inf.iterations = max_iter;
        inf.stop = 3;
    }
    for (int k = 0; k < n; k++)
        x[k] += d[k] * dx[k];
done:
    free(u);
    free(buf);
    if (info)
        *info = inf;
    return 0;
}

#endif
