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

/* one solve's vectors and the bidiagonalisation's running scalars */
struct lsqr_ws {
    const struct skb_csr *a;
    int m, n;
    double *u, *v, *w, *dx, *d, *acc;
    double alpha, beta, rhobar, phibar, damp, psi2, anorm, bnorm;
};

/* column scaling: d_c = 1 / |column c| (zero columns: d = 0, x kept) */
static void column_scaling(struct lsqr_ws *s)
{
    const struct skb_csr *a = s->a;
    double *d = s->d;
    memset(d, 0, sizeof *d * (size_t)s->n);
    for (int k = 0; k < a->rowptr[s->m]; k++)
        d[a->col[k]] += a->val[k] * a->val[k];
    for (int c = 0; c < s->n; c++)
        d[c] = d[c] > 0 ? 1 / sqrt(d[c]) : 0;
}

/* the first step of the bidiagonalisation from u = b - A x0, the residual
 * the correction has to remove */
static void lsqr_start(struct lsqr_ws *s, const double *b, const double *x)
{
    int m = s->m, n = s->n;
    double *d = s->d, *dx = s->dx;
    for (int r = 0; r < m; r++)
        s->u[r] = b[r];
    for (int c = 0; c < n; c++)
        dx[c] = -x[c] * (d[c] > 0 ? 1 / d[c] : 0);   /* A D (D^-1 x0) = A x0 */
    csr_mv_add(s->a, d, dx, s->u);
    memset(dx, 0, sizeof *dx * (size_t)n);
    s->bnorm = nrm2(b, m);
    s->beta = nrm2(s->u, m);
    s->alpha = 0;
    if (s->beta > 0) {
        scal(s->u, m, 1 / s->beta);
        memset(s->v, 0, sizeof *s->v * (size_t)n);
        csr_tmv_add(s->a, d, s->u, s->v, s->acc);
        s->alpha = nrm2(s->v, n);
    }
    if (s->alpha > 0)
        scal(s->v, n, 1 / s->alpha);
    memcpy(s->w, s->v, sizeof *s->w * (size_t)n);
    s->rhobar = s->alpha;
    s->phibar = s->beta;
}

/* one iteration: bidiagonalisation step, damping and QR update, dx and w
 * updated; inf->rnorm and inf->arnorm refreshed; returns the stop code (1,
 * 2), 0 to go on, or SKB_ENONFINITE */
static int lsqr_step(struct lsqr_ws *s, const struct skb_lsqr_opts *o, struct skb_lsqr_info *inf)
{
    int m = s->m, n = s->n;
    double *u = s->u, *v = s->v, *w = s->w, *dx = s->dx, alpha = s->alpha, damp = s->damp;
    /* bidiagonalisation: beta u = A v - alpha u, alpha v = A^T u - beta v */
    scal(u, m, -alpha);
    csr_mv_add(s->a, s->d, v, u);
    double beta = nrm2(u, m);
    if (beta > 0) {
        scal(u, m, 1 / beta);
        scal(v, n, -beta);
        csr_tmv_add(s->a, s->d, u, v, s->acc);
        alpha = nrm2(v, n);
        if (alpha > 0)
            scal(v, n, 1 / alpha);
    }
    s->alpha = alpha;
    s->beta = beta;
    s->anorm = sqrt(s->anorm * s->anorm + alpha * alpha + beta * beta + damp * damp);
    /* damping: a rotation eliminating damp from the lower bidiagonal
     * (Paige-Saunders 1982, the damped problem min |A x - b|^2 + damp^2 |x|^2) */
    double rhobar1 = sqrt(s->rhobar * s->rhobar + damp * damp), cs1 = s->rhobar / rhobar1, sn1 = damp / rhobar1;
    s->psi2 += (sn1 * s->phibar) * (sn1 * s->phibar);
    s->phibar = cs1 * s->phibar;
    /* plane rotation eliminating beta: the QR update of the bidiagonal */
    double rho = sqrt(rhobar1 * rhobar1 + beta * beta), c = rhobar1 / rho, sn = beta / rho;
    double theta = sn * alpha, phi = c * s->phibar;
    s->rhobar = -c * alpha;
    s->phibar = sn * s->phibar;
    for (int k = 0; k < n; k++) {
        dx[k] += (phi / rho) * w[k];
        w[k] = v[k] - (theta / rho) * w[k];
    }
    double xnorm = nrm2(dx, n);
    /* |(A; damp I) x - (b; 0)|, the quantity the damped problem minimises */
    inf->rnorm = sqrt(s->phibar * s->phibar + s->psi2);
    inf->arnorm = fabs(s->phibar) * alpha * fabs(c);
    if (!isfinite(inf->rnorm) || !isfinite(xnorm))
        return SKB_ENONFINITE;
    if (inf->rnorm <= o->btol * s->bnorm + o->atol * s->anorm * xnorm)
        return 1;
    if (inf->arnorm <= o->atol * s->anorm * inf->rnorm)
        return 2;
    return 0;
}

/* the iterations, x updated unless x0 already solves the normal equations
 * (stop 0); 0 or SKB_ENONFINITE */
static int lsqr_iterate(struct lsqr_ws *s, double *x, const struct skb_lsqr_opts *o, struct skb_lsqr_info *inf)
{
    int max_iter = o->max_iter > 0 ? o->max_iter : 4 * s->n;
    s->damp = o->damp > 0 ? o->damp : 0;
    s->psi2 = 0;
    s->anorm = 0;
    inf->rnorm = s->beta;
    inf->arnorm = s->alpha * s->beta;
    if (inf->arnorm == 0)
        return 0;   /* stop 0: x0 already solves the normal equations */
    for (inf->iterations = 1; inf->iterations <= max_iter; inf->iterations++) {
        int stop = lsqr_step(s, o, inf);
        if (stop < 0)
            return stop;
        if (stop > 0) {
            inf->stop = stop;
            break;
        }
    }
    if (inf->iterations > max_iter) {
        inf->iterations = max_iter;
        inf->stop = 3;
    }
    for (int k = 0; k < s->n; k++)
        x[k] += s->d[k] * s->dx[k];
    return 0;
}

int skb_lsqr_solve(const struct skb_csr *a, const double *b, double *x, const struct skb_lsqr_opts *o,
                   struct skb_lsqr_info *info)
{
    int rc = check(a, b, x);
    if (rc < 0)
        return rc;
    struct lsqr_ws s;
    memset(&s, 0, sizeof s);
    s.a = a;
    s.m = a->nrows;
    s.n = a->ncols;
    int n = s.n;
    double *buf = (double *)malloc(sizeof(double) * 5 * (size_t)n);
    s.u = (double *)malloc(sizeof(double) * (size_t)s.m);
    if (!s.u || !buf) {
        free(s.u);
        free(buf);
        return SKB_ENOMEM;
    }
    s.v = buf, s.w = buf + n, s.dx = buf + 2 * n, s.d = buf + 3 * n, s.acc = buf + 4 * n;
    struct skb_lsqr_info inf;
    memset(&inf, 0, sizeof inf);
    column_scaling(&s);
    lsqr_start(&s, b, x);
    rc = lsqr_iterate(&s, x, o, &inf);
    free(s.u);
    free(buf);
    if (rc == 0 && info)
        *info = inf;
    return rc;
}

#endif
