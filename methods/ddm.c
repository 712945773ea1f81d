/* ddm.c — Direct Delta Mush (Le & Lewis, "Direct Delta Mush Skinning and
 * Variants", SIGGRAPH 2019, section 3 and the variant of section 4 that
 * blends in smoothed weights; ../shared/SPEC.md section 8).
 *
 * Bind (once per mesh, and again in prepare when skb_params' ddm_* fields
 * change): with L = -(cotangent Laplacian) of the rest mesh, D its diagonal,
 * L_bar = L D^-1 and u_k = (v_k, 1),
 *   Psi_ij   = sum_k [(I + lambda L_bar)^-p]_ki w_kj u_k u_k^T,
 *   p_i      = (sum_j Psi_ij)'s last column over its (4,4) entry,
 *   w'_ij    = sum_k [(I + kappa L_bar)^-p]_ki w_kj,
 *   Omega_ij = (1 - alpha) Psi_ij + alpha w'_ij [p_i p_i^T p_i; p_i^T 1].
 * Both sums run over k with the transposed smoothing matrix, so what is
 * applied to the per-vertex columns is ((I + s L_bar)^T)^-1 = (D + s L)^-1 D:
 * D + s L is symmetric positive definite (L is positive semi-definite, D
 * positive), so one sparse Cholesky factor (CHOLMOD) per step s serves all p
 * applications.  A vertex in no proper triangle has D = 0 and is its own
 * component: it keeps identity rows (D and D + s L read 1 there).
 *
 * Run time per vertex: Q = sum_j M_j Omega_ij over 4x4s, divided by Q_44;
 * Q_3 its upper-left 3x3, q its upper-right column, p^T its bottom row;
 * R = U V^T from the SVD of Q_3 - q p^T (GSL; the reflection case flips the
 * smallest singular direction), t = q - R p, v' = R v + t, n' = R n.
 * The joint matrices are rigid (bottom row e4^T), so Q's bottom row is
 * Omega's, summed over j: bind stores p and Q_44 per vertex.
 *
 * With p = 0 or lambda = 0 the smoothing is the identity, Q_3 - q p^T is zero
 * (to rounding) and v' = q is LBS's position; the rotation is then undefined
 * and R = I is taken for an exactly zero matrix (normals are not defined
 * there).  SPEC section 8's ranges are p > 0, lambda > 0, 0 < kappa < lambda,
 * 0 <= alpha < 1; p = 0 and lambda = kappa = 0 are accepted as that LBS limit.
 *
 * Memory: 10 numbers per (vertex, joint).  The inverse of a connected
 * mesh's D + s L is dense, so every joint that weighs on a connected
 * component reaches every vertex of it: the state holds V x J slots, and
 * bind keeps per vertex only the joints whose Omega is not all zero.
 * Above DDM_MAX_PAIRS (vertex, joint) pairs state_size asks for the head
 * alone and bind refuses (SKB_ENOTSUP) rather than allocate gigabytes and
 * solve for minutes (the 1.2 M-vertex roofline mesh: ARCHITECTURE.md, the DDM
 * paragraph). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cholmod.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include "skb_method.h"

/* (vertex, joint) pairs: 10 reals + 1 int each, 88 bytes: 2 M pairs is a
 * 176 MB state and 2 dense solves of that many columns x p (ARCHITECTURE.md, the DDM paragraph) */
#define DDM_MAX_PAIRS 2000000L
#define DDM_MAX_P 1000      /* iterations: each is one solve of every column */
#define DDM_CHUNK 8         /* joints per block of right-hand sides (80 columns) */

/* the parameters the stored Omega was computed with */
struct ddm_head {
    double lambda, kappa, alpha;
    int p;
    int bound;   /* 1 once Omega holds the precompute for the parameters above */
};

/* index of entry (r, c) of a symmetric 4x4 in its 10 upper-triangle numbers */
static const int ddm_sym[4][4] = {
    { 0, 1, 2, 3 }, { 1, 4, 5, 6 }, { 2, 5, 7, 8 }, { 3, 6, 8, 9 }
};

static size_t ddm_pairs(const struct skb_mesh *m)
{
    return (size_t)m->nverts * (size_t)m->njoints;
}

static int ddm_over_limit(const struct skb_mesh *m)
{
    return ddm_pairs(m) > (size_t)DDM_MAX_PAIRS;
}

/* head; 12 reals per joint (the pose's 3x4s); 4 per vertex (p, Q_44);
 * 10 per (vertex, joint slot); an int count per vertex; an int joint per slot */
static size_t ddm_state_size(const struct skb_mesh *m)
{
    if (ddm_over_limit(m))
        return sizeof(struct ddm_head);
    return sizeof(struct ddm_head)
         + sizeof(skb_real) * (12 * (size_t)m->njoints + 4 * (size_t)m->nverts + 10 * ddm_pairs(m))
         + sizeof(int) * ((size_t)m->nverts + ddm_pairs(m));
}

static struct ddm_head *ddm_head_of(const void *state) { return (struct ddm_head *)state; }
static skb_real *ddm_rows(const void *state) { return (skb_real *)(ddm_head_of(state) + 1); }
static skb_real *ddm_bottom(const struct skb_mesh *m, const void *state)
{
    return ddm_rows(state) + 12 * (size_t)m->njoints;
}
static skb_real *ddm_omega(const struct skb_mesh *m, const void *state)
{
    return ddm_bottom(m, state) + 4 * (size_t)m->nverts;
}
static int *ddm_count(const struct skb_mesh *m, const void *state)
{
    return (int *)(ddm_omega(m, state) + 10 * ddm_pairs(m));
}
static int *ddm_slot(const struct skb_mesh *m, const void *state)
{
    return ddm_count(m, state) + m->nverts;
}

/* SPEC section 8's ranges, plus the identity-smoothing limit (header) */
static int ddm_params_ok(const struct skb_params *prm)
{
    double l = (double)prm->ddm_lambda, k = (double)prm->ddm_kappa, a = (double)prm->ddm_alpha;
    if (prm->ddm_p < 0 || prm->ddm_p > DDM_MAX_P || !isfinite(l) || !isfinite(k))
        return 0;
    if (!(a >= 0 && a < 1))
        return 0;
    return (l > 0 && k > 0 && k < l) || (l == 0 && k == 0);
}

static int ddm_same_params(const struct ddm_head *h, const struct skb_params *prm)
{
    return h->bound && h->p == prm->ddm_p && h->lambda == (double)prm->ddm_lambda
        && h->kappa == (double)prm->ddm_kappa && h->alpha == (double)prm->ddm_alpha;
}

/* ---- the cotangent Laplacian: off-diagonal weights and the diagonal ---- */

struct ddm_lap {
    int n, ne;
    double *diag;   /* D_ii = sum of vertex i's edge weights */
    double *dt;     /* D_ii, or 1 for a vertex in no proper triangle */
    int *ei, *ek;   /* edge (i, k), i < k; repeats are summed by CHOLMOD */
    double *ew;     /* (cot a + cot b) / 2 share of one triangle */
};

static void ddm_lap_free(struct ddm_lap *l)
{
    free(l->diag);
    free(l->dt);
    free(l->ei);
    free(l->ek);
    free(l->ew);
}

static void ddm_lap_edge(struct ddm_lap *l, int i, int k, double w)
{
    l->ei[l->ne] = i < k ? i : k;
    l->ek[l->ne] = i < k ? k : i;
    l->ew[l->ne] = w;
    l->ne++;
    l->diag[i] += w;
    l->diag[k] += w;
}

/* one triangle's three cotangent shares; a triangle of zero area (at double
 * precision) has no angles and adds nothing */
static void ddm_lap_tri(const struct skb_mesh *m, const int *vi, struct ddm_lap *l)
{
    double p[3][3], e[3][3], cr[3];
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            p[a][c] = (double)m->pos[3 * vi[a] + c];
    for (int a = 0; a < 3; a++)   /* e[a]: the edge opposite vertex a */
        for (int c = 0; c < 3; c++)
            e[a][c] = p[(a + 2) % 3][c] - p[(a + 1) % 3][c];
    cr[0] = e[2][1] * e[1][2] - e[2][2] * e[1][1];
    cr[1] = e[2][2] * e[1][0] - e[2][0] * e[1][2];
    cr[2] = e[2][0] * e[1][1] - e[2][1] * e[1][0];
    double area2 = sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]), big = 0;
    for (int a = 0; a < 3; a++)
        big = fmax(big, e[a][0] * e[a][0] + e[a][1] * e[a][1] + e[a][2] * e[a][2]);
    if (!(area2 > DBL_EPSILON * big) || vi[0] == vi[1] || vi[1] == vi[2] || vi[0] == vi[2])
        return;
    for (int a = 0; a < 3; a++) {
        /* the angle at a lies between the edges to a+1 and a+2:
         * cot = (b - a).(c - a) / |(b - a) x (c - a)| = -e[b].e[c] / area2 */
        const double *eb = e[(a + 1) % 3], *ec = e[(a + 2) % 3];
        double cot = -(eb[0] * ec[0] + eb[1] * ec[1] + eb[2] * ec[2]) / area2;
        ddm_lap_edge(l, vi[(a + 1) % 3], vi[(a + 2) % 3], cot / 2);
    }
}

static int ddm_lap_build(const struct skb_mesh *m, struct ddm_lap *l)
{
    size_t n = (size_t)m->nverts + 1, ne = 3 * (size_t)m->ntris + 1;
    l->n = m->nverts;
    l->ne = 0;
    l->diag = (double *)calloc(n, sizeof(double));
    l->dt = (double *)malloc(n * sizeof(double));
    l->ei = (int *)malloc(ne * sizeof(int));
    l->ek = (int *)malloc(ne * sizeof(int));
    l->ew = (double *)malloc(ne * sizeof(double));
    if (!l->diag || !l->dt || !l->ei || !l->ek || !l->ew)
        return SKB_ENOMEM;
    for (int t = 0; t < m->ntris; t++)
        ddm_lap_tri(m, m->tris + 3 * t, l);
    for (int i = 0; i < m->nverts; i++)
        l->dt[i] = l->diag[i] > 0 ? l->diag[i] : 1;
    return 0;
}

/* ---- the smoothing (D + s L)^-1 D, applied p times ---- */

static int ddm_cholmod_error(const cholmod_common *c)
{
    return c->status == CHOLMOD_OUT_OF_MEMORY ? SKB_ENOMEM : SKB_ENUMERIC;
}

/* the factor of D + s L, upper triangle; NULL and 0 when s = 0 (identity) */
static int ddm_factor(const struct ddm_lap *l, double s, cholmod_common *c, cholmod_factor **out)
{
    *out = NULL;
    if (s == 0)
        return 0;
    cholmod_triplet *t = cholmod_allocate_triplet((size_t)l->n, (size_t)l->n, (size_t)(l->n + l->ne), 1,
                                                  CHOLMOD_REAL, c);
    if (!t)
        return ddm_cholmod_error(c);
    int *ti = (int *)t->i, *tj = (int *)t->j;
    double *tx = (double *)t->x;
    for (int i = 0; i < l->n; i++) {
        ti[i] = tj[i] = i;
        tx[i] = l->diag[i] > 0 ? (1 + s) * l->diag[i] : 1;
    }
    for (int e = 0; e < l->ne; e++) {
        ti[l->n + e] = l->ei[e];
        tj[l->n + e] = l->ek[e];
        tx[l->n + e] = -s * l->ew[e];
    }
    t->nnz = (size_t)(l->n + l->ne);
    cholmod_sparse *a = cholmod_triplet_to_sparse(t, t->nnz, c);
    cholmod_free_triplet(&t, c);
    if (!a)
        return ddm_cholmod_error(c);
    cholmod_factor *f = cholmod_analyze(a, c);
    int ok = f && cholmod_factorize(a, f, c) && c->status == CHOLMOD_OK;
    cholmod_free_sparse(&a, c);
    if (!ok) {
        int rc = ddm_cholmod_error(c);
        cholmod_free_factor(&f, c);
        return rc;
    }
    *out = f;
    return 0;
}

/* b <- ((D + s L)^-1 D)^p b; f NULL: the identity */
static int ddm_smooth(const struct ddm_lap *l, cholmod_factor *f, int p, cholmod_dense **b, cholmod_common *c)
{
    for (int it = 0; f && it < p; it++) {
        double *x = (double *)(*b)->x;
        for (size_t col = 0; col < (*b)->ncol; col++)
            for (int i = 0; i < l->n; i++)
                x[col * (size_t)l->n + (size_t)i] *= l->dt[i];
        cholmod_dense *y = cholmod_solve(CHOLMOD_A, f, *b, c);
        if (!y)
            return ddm_cholmod_error(c);
        cholmod_free_dense(b, c);
        *b = y;
    }
    return 0;
}

/* ---- Psi, p, W' and Omega ---- */

/* w_kj summed over the influences of vertex k naming joint j */
static double ddm_weight(const struct skb_mesh *m, int k, int j)
{
    double w = 0;
    for (int s = 0; s < SKB_MAX_INFLUENCES; s++)
        if (m->joint[SKB_MAX_INFLUENCES * k + s] == j)
            w += (double)m->weight[SKB_MAX_INFLUENCES * k + s];
    return w;
}

/* the 10 numbers of u_k u_k^T */
static void ddm_uu(const struct skb_mesh *m, int k, double uu[10])
{
    double u[4] = { (double)m->pos[3 * k], (double)m->pos[3 * k + 1], (double)m->pos[3 * k + 2], 1 };
    for (int r = 0; r < 4; r++)
        for (int c = r; c < 4; c++)
            uu[ddm_sym[r][c]] = u[r] * u[c];
}

/* Psi for joints j0 .. j1-1 (10 columns each), smoothed, into Omega's slots */
static int ddm_psi_chunk(const struct skb_mesh *m, const struct ddm_lap *l, cholmod_factor *f, int p, int j0,
                         int j1, skb_real *omega, cholmod_common *c)
{
    size_t n = (size_t)m->nverts;
    cholmod_dense *b = cholmod_zeros(n, 10 * (size_t)(j1 - j0), CHOLMOD_REAL, c);
    if (!b)
        return ddm_cholmod_error(c);
    double *x = (double *)b->x, uu[10];
    for (int k = 0; k < m->nverts; k++) {
        ddm_uu(m, k, uu);
        for (int j = j0; j < j1; j++) {
            double w = ddm_weight(m, k, j);
            for (int e = 0; w != 0 && e < 10; e++)
                x[(10 * (size_t)(j - j0) + (size_t)e) * n + (size_t)k] = w * uu[e];
        }
    }
    int rc = ddm_smooth(l, f, p, &b, c);
    for (int i = 0; rc == 0 && i < m->nverts; i++)
        for (int j = j0; j < j1; j++)
            for (int e = 0; e < 10; e++)
                omega[((size_t)i * (size_t)m->njoints + (size_t)j) * 10 + (size_t)e]
                    = (skb_real)((double *)b->x)[(10 * (size_t)(j - j0) + (size_t)e) * n + (size_t)i];
    cholmod_free_dense(&b, c);
    return rc;
}

/* W' = ((D + kappa L)^-1 D)^p W, n x J column-major, into *out */
static int ddm_smoothed_weights(const struct skb_mesh *m, const struct ddm_lap *l, cholmod_factor *f, int p,
                                cholmod_dense **out, cholmod_common *c)
{
    size_t n = (size_t)m->nverts;
    *out = cholmod_zeros(n, (size_t)m->njoints, CHOLMOD_REAL, c);
    if (!*out)
        return ddm_cholmod_error(c);
    double *x = (double *)(*out)->x;
    for (int k = 0; k < m->nverts; k++)
        for (int s = 0; s < SKB_MAX_INFLUENCES; s++)
            x[(size_t)m->joint[SKB_MAX_INFLUENCES * k + s] * n + (size_t)k]
                += (double)m->weight[SKB_MAX_INFLUENCES * k + s];
    return ddm_smooth(l, f, p, out, c);
}

/* sum over j of the entries (0..3, 3) of vertex i's slots: the last column */
static void ddm_last_column(const skb_real *om, int nslots, double col[4])
{
    col[0] = col[1] = col[2] = col[3] = 0;
    for (int s = 0; s < nslots; s++)
        for (int r = 0; r < 4; r++)
            col[r] += (double)om[10 * s + ddm_sym[r][3]];
}

/* Omega_ij = (1 - alpha) Psi_ij + alpha w'_ij [p p^T p; p^T 1] in place */
static int ddm_omega_mix(const struct skb_mesh *m, const double *wp, double alpha, skb_real *omega)
{
    size_t n = (size_t)m->nverts;
    for (int i = 0; i < m->nverts; i++) {
        skb_real *om = omega + (size_t)i * (size_t)m->njoints * 10;
        double col[4], pp[10];
        ddm_last_column(om, m->njoints, col);
        if (!(col[3] > 0))
            return SKB_ENUMERIC;
        double u[4] = { col[0] / col[3], col[1] / col[3], col[2] / col[3], 1 };
        for (int r = 0; r < 4; r++)
            for (int c = r; c < 4; c++)
                pp[ddm_sym[r][c]] = u[r] * u[c];
        for (int j = 0; j < m->njoints; j++)
            for (int e = 0; e < 10; e++) {
                double w = wp ? wp[(size_t)j * n + (size_t)i] : 0;
                om[10 * j + e] = (skb_real)((1 - alpha) * (double)om[10 * j + e] + alpha * w * pp[e]);
            }
    }
    return 0;
}

/* per vertex: Q's bottom row over Q_44 (p) and Q_44; the non-zero slots
 * moved to the front, with their joints */
static int ddm_compact(const struct skb_mesh *m, void *state)
{
    skb_real *omega = ddm_omega(m, state), *bottom = ddm_bottom(m, state);
    int *count = ddm_count(m, state), *slot = ddm_slot(m, state);
    for (int i = 0; i < m->nverts; i++) {
        skb_real *om = omega + (size_t)i * (size_t)m->njoints * 10;
        double col[4];
        int n = 0;
        ddm_last_column(om, m->njoints, col);
        if (!(col[3] > 0) || !isfinite(col[0] + col[1] + col[2] + col[3]))
            return SKB_ENUMERIC;
        for (int r = 0; r < 3; r++)
            bottom[4 * i + r] = (skb_real)(col[r] / col[3]);
        bottom[4 * i + 3] = (skb_real)col[3];
        for (int j = 0; j < m->njoints; j++) {
            int nz = 0;
            for (int e = 0; e < 10; e++)
                nz |= (double)om[10 * j + e] != 0;
            if (!nz)
                continue;
            if (n != j)
                memcpy(om + 10 * n, om + 10 * j, 10 * sizeof(skb_real));
            slot[(size_t)i * (size_t)m->njoints + (size_t)n] = j;
            n++;
        }
        count[i] = n;
    }
    return 0;
}

/* joints with a weight somewhere; the others have all-zero Omega */
static int ddm_joint_used(const struct skb_mesh *m, char *used)
{
    memset(used, 0, (size_t)m->njoints);
    for (size_t s = 0; s < (size_t)m->nverts * SKB_MAX_INFLUENCES; s++)
        if (m->weight[s] != 0)
            used[m->joint[s]] = 1;
    return 0;
}

/* Psi for every used joint, a chunk of joints per solve */
static int ddm_psi(const struct skb_mesh *m, const struct ddm_lap *l, cholmod_factor *f, int p,
                   skb_real *omega, cholmod_common *c)
{
    char *used = (char *)malloc((size_t)m->njoints + 1);
    int rc = used ? ddm_joint_used(m, used) : SKB_ENOMEM;
    for (int j0 = 0; rc == 0 && j0 < m->njoints;) {
        while (j0 < m->njoints && !used[j0])
            j0++;
        int j1 = j0;
        while (j1 < m->njoints && j1 - j0 < DDM_CHUNK && used[j1])
            j1++;
        if (j1 > j0)
            rc = ddm_psi_chunk(m, l, f, p, j0, j1, omega, c);
        j0 = j1;
    }
    free(used);
    return rc;
}

/* the solves: Psi into Omega's slots, then W' where alpha uses it */
static int ddm_solve(const struct skb_mesh *m, const struct skb_params *prm, const struct ddm_lap *l,
                     skb_real *omega, cholmod_common *c)
{
    cholmod_factor *fl = NULL, *fk = NULL;
    cholmod_dense *wp = NULL;
    double alpha = (double)prm->ddm_alpha;
    int p = prm->ddm_p;
    int rc = ddm_factor(l, p ? (double)prm->ddm_lambda : 0, c, &fl);
    if (rc == 0)
        rc = ddm_psi(m, l, fl, p, omega, c);
    if (rc == 0 && alpha > 0)
        rc = ddm_factor(l, p ? (double)prm->ddm_kappa : 0, c, &fk);
    if (rc == 0 && alpha > 0)
        rc = ddm_smoothed_weights(m, l, fk, p, &wp, c);
    if (rc == 0)
        rc = ddm_omega_mix(m, wp ? (const double *)wp->x : NULL, alpha, omega);
    cholmod_free_dense(&wp, c);
    cholmod_free_factor(&fl, c);
    cholmod_free_factor(&fk, c);
    return rc;
}

static void ddm_cholmod_setup(cholmod_common *c)
{
    cholmod_start(c);
    c->print = 0;                          /* errors are returned, never printed */
    c->supernodal = CHOLMOD_SIMPLICIAL;    /* no BLAS threads: bind_ms is this thread's */
    c->nmethods = 1;                       /* AMD alone: the same ordering every run */
    c->method[0].ordering = CHOLMOD_AMD;
    c->postorder = 1;
}

static int ddm_precompute(const struct skb_mesh *m, const struct skb_params *prm, void *state)
{
    struct ddm_head *h = ddm_head_of(state);
    struct ddm_lap l;
    cholmod_common c;
    memset(&l, 0, sizeof l);
    h->bound = 0;
    memset(ddm_omega(m, state), 0, sizeof(skb_real) * 10 * ddm_pairs(m));
    int rc = ddm_lap_build(m, &l);
    if (rc == 0) {
        ddm_cholmod_setup(&c);
        rc = ddm_solve(m, prm, &l, ddm_omega(m, state), &c);
        cholmod_finish(&c);
    }
    ddm_lap_free(&l);
    if (rc == 0)
        rc = ddm_compact(m, state);
    if (rc < 0)
        return rc;
    h->p = prm->ddm_p;
    h->lambda = (double)prm->ddm_lambda;
    h->kappa = (double)prm->ddm_kappa;
    h->alpha = (double)prm->ddm_alpha;
    h->bound = 1;
    return 0;
}

static int ddm_bind(const struct skb_mesh *m, void *state)
{
    struct skb_params prm;
    if (ddm_over_limit(m))
        return SKB_ENOTSUP;
    gsl_set_error_handler_off();   /* GSL's default handler aborts; statuses are checked */
    skb_params_default(&prm);
    return ddm_precompute(m, &prm, state);
}

static int ddm_prepare(const struct skb_mesh *m, const struct skb_pose *p, const struct skb_params *prm,
                       void *state)
{
    int rc;
    if (p->scale)
        return SKB_ENOTSUP;    /* the SVD keeps the rotation only: scale would be lost */
    if (!ddm_params_ok(prm))
        return SKB_EINVAL;
    if (!ddm_same_params(ddm_head_of(state), prm) && (rc = ddm_precompute(m, prm, state)) < 0)
        return rc;
    for (int j = 0; j < m->njoints; j++)
        memcpy(ddm_rows(state) + 12 * j, p->mats + 16 * j, 12 * sizeof(skb_real));
    return 0;
}

/* ---- run time ---- */

/* the nearest rotation to a: U V^T from a = U S V^T, U's last column
 * negated when det(U V^T) < 0 (GSL orders the singular values, largest
 * first); the identity for the zero matrix.  -1 when a is not finite or
 * the SVD fails. */
int skb__ddm_rotation(const skb_real a[9], skb_real r[9]);
int skb__ddm_rotation(const skb_real a[9], skb_real r[9])
{
    double u[9], v[9], s[3], work[3], big = 0;
    for (int k = 0; k < 9; k++) {
        u[k] = (double)a[k];
        if (!isfinite(u[k]))   /* checked one by one: fmax drops a NaN */
            return -1;
        big = fmax(big, fabs(u[k]));
    }
    if (big == 0) {
        for (int k = 0; k < 9; k++)
            r[k] = k % 4 == 0 ? 1 : 0;
        return 0;
    }
    gsl_matrix_view um = gsl_matrix_view_array(u, 3, 3), vm = gsl_matrix_view_array(v, 3, 3);
    gsl_vector_view sm = gsl_vector_view_array(s, 3), wm = gsl_vector_view_array(work, 3);
    if (gsl_linalg_SV_decomp(&um.matrix, &vm.matrix, &sm.vector, &wm.vector) != GSL_SUCCESS)
        return -1;
    double det = u[0] * (u[4] * u[8] - u[5] * u[7]) - u[1] * (u[3] * u[8] - u[5] * u[6])
               + u[2] * (u[3] * u[7] - u[4] * u[6]);
    det *= v[0] * (v[4] * v[8] - v[5] * v[7]) - v[1] * (v[3] * v[8] - v[5] * v[6])
         + v[2] * (v[3] * v[7] - v[4] * v[6]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double x = u[3 * i] * v[3 * j] + u[3 * i + 1] * v[3 * j + 1];
            x += det < 0 ? -u[3 * i + 2] * v[3 * j + 2] : u[3 * i + 2] * v[3 * j + 2];
            r[3 * i + j] = (skb_real)x;
        }
    return 0;
}

/* rows 0..2 of Q = sum_j M_j Omega_ij (M_j's 3x4, Omega symmetric 4x4) */
static void ddm_q(const skb_real *rows, const skb_real *om, const int *slot, int n, skb_real q[12])
{
    for (int k = 0; k < 12; k++)
        q[k] = 0;
    for (int s = 0; s < n; s++) {
        const skb_real *mj = rows + 12 * slot[s], *o = om + 10 * s;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++)
                q[4 * r + c] = q[4 * r + c] + mj[4 * r] * o[ddm_sym[0][c]] + mj[4 * r + 1] * o[ddm_sym[1][c]]
                             + mj[4 * r + 2] * o[ddm_sym[2][c]] + mj[4 * r + 3] * o[ddm_sym[3][c]];
    }
}

static int ddm_vertex(const struct skb_mesh *m, const void *state, int v, skb_real *pos_out, skb_real *nrm_out)
{
    size_t base = (size_t)v * (size_t)m->njoints;
    const skb_real *b = ddm_bottom(m, state) + 4 * v, *x = m->pos + 3 * v;
    skb_real q[12], a[9], r[9], t[3];
    ddm_q(ddm_rows(state), ddm_omega(m, state) + 10 * base, ddm_slot(m, state) + base, ddm_count(m, state)[v], q);
    for (int i = 0; i < 3; i++) {
        t[i] = q[4 * i + 3] / b[3];
        for (int j = 0; j < 3; j++)
            a[3 * i + j] = q[4 * i + j] / b[3] - t[i] * b[j];
    }
    if (skb__ddm_rotation(a, r) < 0)
        return SKB_ENUMERIC;
    for (int i = 0; i < 3; i++) {   /* v' = R v + (q - R p) = R (v - p) + q */
        pos_out[3 * v + i] = t[i] + r[3 * i] * (x[0] - b[0]) + r[3 * i + 1] * (x[1] - b[1])
                           + r[3 * i + 2] * (x[2] - b[2]);
        if (nrm_out)
            nrm_out[3 * v + i] = r[3 * i] * m->nrm[3 * v] + r[3 * i + 1] * m->nrm[3 * v + 1]
                               + r[3 * i + 2] * m->nrm[3 * v + 2];
    }
    return 0;
}

static int ddm_skin(const struct skb_mesh *m, const void *state, int v0, int v1, skb_real *pos_out,
                    skb_real *nrm_out)
{
    skb_real *n = nrm_out && m->nrm ? nrm_out : NULL;
    for (int v = v0; v < v1; v++)
        if (ddm_vertex(m, state, v, pos_out, n) < 0)
            return SKB_ENUMERIC;
    return 0;
}

SKB_METHOD_EXPORT const struct skb_method skb_method_ddm = {
    .name = "ddm",
    .title = "DDM",
    .description = "Direct Delta Mush: precomputed Laplacian-smoothed 4x4 weights, rotation by SVD per vertex "
                   "(skin only: no blend form)",
    .seed_ref = "Le & Lewis 2019 sections 3-4 (SPEC section 8; beyond the seeds)",
    .flags = 0,
    .max_n = 0,
    .blend = NULL,
    .state_size = ddm_state_size,
    .bind = ddm_bind,
    .prepare = ddm_prepare,
    .skin = ddm_skin,
};
