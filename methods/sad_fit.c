/* sad_fit.c — Skinning Arbitrary Deformations (thesis ch. 7): proxy-joints
 * by greedy p-centre, radial weights, per-keyframe transformation fitting by
 * LSQR (affine 7.2.1, rigid dual quaternions 7.2.2), EigenSkin-style
 * corrections (7.3) and the error metric of 7.4.
 *
 * Parametrisation (conditioning only; the fitted model is the thesis's):
 * each joint's unknowns are taken about its origin o (the weighted centroid
 * of its vertices).  Affine: C v = L (v - o) + t.  Rigid: the dual part's
 * vector e = e' + m x c, m halfway between o and the same centroid in the
 * keyframe, so that eq. 7.5's vector rows read [g + v - 2 m]x c - 2 e' =
 * v - g: without it the columns of c and e are nearly parallel for a joint
 * far from the coordinate origin, or one that moved far. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit.h>
#include "skb_error.h"
#include "skb_sad.h"

#ifndef SKB_FLOP_COUNT
#include "skb_pool.h"

static double dist2(const double *a, const double *b)
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz;
}

static void cross(const double a[3], const double b[3], double out[3])
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    out[0] = x; out[1] = y; out[2] = z;
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* ---- 7.1 automatic rigging ---- */

int skb_sad_pcentre(const double *rest, int nverts, int p, int *centres, double *radius)
{
    if (!rest || !centres || p < 1 || p > nverts)
        return SKB_EINVAL;
    double *d = (double *)malloc(sizeof(double) * (size_t)nverts), c[3] = { 0, 0, 0 };
    if (!d)
        return SKB_ENOMEM;
    for (int k = 0; k < nverts; k++)
        for (int i = 0; i < 3; i++)
            c[i] += rest[3 * k + i] / nverts;
    for (int k = 0; k < nverts; k++)
        d[k] = dist2(rest + 3 * k, c);   /* the first pick maximises the distance to the centroid */
    for (int j = 0; j < p; j++) {
        int best = 0;
        for (int k = 1; k < nverts; k++)
            if (d[k] > d[best])
                best = k;
        centres[j] = best;
        for (int k = 0; k < nverts; k++) {
            double e = dist2(rest + 3 * k, rest + 3 * best);
            d[k] = j == 0 || e < d[k] ? e : d[k];
        }
    }
    double r = 0;
    for (int k = 0; k < nverts; k++)
        r = d[k] > r ? d[k] : r;
    *radius = sqrt(r);
    free(d);
    return 0;
}

void skb_sad_rig_free(struct skb_sad_rig *rig)
{
    if (!rig)
        return;
    free(rig->off);
    free(rig->joint);
    free(rig->weight);
    free(rig->origin);
    memset(rig, 0, sizeof *rig);
}

/* weighted centroid of each joint's vertices; a joint without vertices
 * keeps the mesh centroid */
static void rig_origins(struct skb_sad_rig *rig, const double *rest)
{
    double *sw = (double *)calloc((size_t)rig->njoints, sizeof(double)), c[3] = { 0, 0, 0 };
    memset(rig->origin, 0, sizeof(double) * 3 * (size_t)rig->njoints);
    for (int k = 0; k < rig->nverts; k++)
        for (int i = 0; i < 3; i++)
            c[i] += rest[3 * k + i] / rig->nverts;
    for (int k = 0; k < rig->nverts; k++)
        for (int q = rig->off[k]; q < rig->off[k + 1]; q++) {
            int j = rig->joint[q];
            if (sw)
                sw[j] += rig->weight[q];
            for (int i = 0; i < 3; i++)
                rig->origin[3 * j + i] += rig->weight[q] * rest[3 * k + i];
        }
    for (int j = 0; j < rig->njoints; j++)
        for (int i = 0; i < 3; i++)
            rig->origin[3 * j + i] = sw && sw[j] > 0 ? rig->origin[3 * j + i] / sw[j] : c[i];
    free(sw);
}

static int rig_alloc(struct skb_sad_rig *rig, int nverts, int njoints, size_t nnz)
{
    memset(rig, 0, sizeof *rig);
    rig->nverts = nverts;
    rig->njoints = njoints;
    rig->off = (int *)calloc((size_t)nverts + 1, sizeof(int));
    rig->joint = (int *)malloc(sizeof(int) * (nnz ? nnz : 1));
    rig->weight = (double *)malloc(sizeof(double) * (nnz ? nnz : 1));
    rig->origin = (double *)malloc(sizeof(double) * 3 * (size_t)njoints);
    if (!rig->off || !rig->joint || !rig->weight || !rig->origin) {
        skb_sad_rig_free(rig);
        return SKB_ENOMEM;
    }
    return 0;
}

int skb_sad_rig_radial(const double *rest, int nverts, const int *centres, int p, double r, double P,
                       struct skb_sad_rig *rig)
{
    if (!rest || !centres || p < 1 || nverts < 1 || !(r > 0) || !(P > 1))
        return SKB_EINVAL;
    double reach = P * r, reach2 = reach * reach;
    size_t nnz = 0;
    for (int k = 0; k < nverts; k++)
        for (int j = 0; j < p; j++)
            nnz += dist2(rest + 3 * k, rest + 3 * centres[j]) < reach2;
    int rc = rig_alloc(rig, nverts, p, nnz);
    if (rc < 0)
        return rc;
    rig->radius = r;
    int q = 0;
    for (int k = 0; k < nverts; k++) {
        double sum = 0;
        rig->off[k] = q;
        for (int j = 0; j < p; j++) {
            double d2 = dist2(rest + 3 * k, rest + 3 * centres[j]);
            if (d2 >= reach2)
                continue;
            rig->joint[q] = j;
            rig->weight[q] = 1 - sqrt(d2) / reach;   /* thesis 7.1: linear from 1 to 0 at P r */
            sum += rig->weight[q++];
        }
        /* every vertex lies within r < P r of a centre: sum > 0 */
        for (int i = rig->off[k]; i < q; i++)
            rig->weight[i] /= sum;
        int n = q - rig->off[k];
        rig->max_influences = n > rig->max_influences ? n : rig->max_influences;
    }
    rig->off[nverts] = q;
    rig_origins(rig, rest);
    return 0;
}

int skb_sad_rig_from_influences(const double *rest, int nverts, int njoints, int ninf, const int *joint,
                                const double *weight, struct skb_sad_rig *rig)
{
    if (!rest || !joint || !weight || nverts < 1 || njoints < 1 || ninf < 1)
        return SKB_EINVAL;
    size_t nnz = 0;
    for (int k = 0; k < nverts * ninf; k++) {
        if (weight[k] != 0 && (joint[k] < 0 || joint[k] >= njoints))
            return SKB_EINVAL;
        nnz += weight[k] != 0;
    }
    int rc = rig_alloc(rig, nverts, njoints, nnz);
    if (rc < 0)
        return rc;
    int q = 0;
    for (int k = 0; k < nverts; k++) {
        rig->off[k] = q;
        for (int i = 0; i < ninf; i++)
            if (weight[ninf * k + i] != 0) {
                rig->joint[q] = joint[ninf * k + i];
                rig->weight[q++] = weight[ninf * k + i];
            }
        int n = q - rig->off[k];
        rig->max_influences = n > rig->max_influences ? n : rig->max_influences;
    }
    rig->off[nverts] = q;
    rig_origins(rig, rest);
    return 0;
}

/* ---- 7.2 the sparse systems ---- */

/* one keyframe's system; the pattern depends on the rig only */
struct sys {
    int rows_per_vertex, dof;
    int *rowptr, *col;
    double *val, *b, *x;
    double *mid;               /* rigid: 3 per joint, the expansion point m of e = e' + m x c */
    double *wsum;              /* scratch: per joint weight sums */
};

static void sys_free(struct sys *s)
{
    free(s->rowptr);
    free(s->col);
    free(s->val);
    free(s->b);
    free(s->x);
    free(s->mid);
    free(s->wsum);
}

/* nonzeros per (vertex, joint): affine 3 rows of 4; rigid 3 rows of 3 (two
 * of c, one of e'); normals 3 rows of 2 */
static int sys_init(struct sys *s, const struct skb_sad_rig *rig, int rpv, int dof, int nnz_per_influence)
{
    memset(s, 0, sizeof *s);
    s->rows_per_vertex = rpv;
    s->dof = dof;
    size_t rows = (size_t)rpv * (size_t)rig->nverts, nnz = (size_t)nnz_per_influence * (size_t)rig->off[rig->nverts];
    s->rowptr = (int *)malloc(sizeof(int) * (rows + 1));
    s->col = (int *)malloc(sizeof(int) * (nnz ? nnz : 1));
    s->val = (double *)malloc(sizeof(double) * (nnz ? nnz : 1));
    s->b = (double *)malloc(sizeof(double) * rows);
    s->x = (double *)malloc(sizeof(double) * (size_t)dof * (size_t)rig->njoints);
    s->mid = (double *)malloc(sizeof(double) * 3 * (size_t)rig->njoints);
    s->wsum = (double *)malloc(sizeof(double) * (size_t)rig->njoints);
    if (!s->rowptr || !s->col || !s->val || !s->b || !s->x || !s->mid || !s->wsum) {
        sys_free(s);
        memset(s, 0, sizeof *s);
        return SKB_ENOMEM;
    }
    return 0;
}

/* the cross-product matrix [a]x, row i: [a]x c = a x c */
static void crossrow(const double a[3], int i, double r[3])
{
    static const int nxt[3] = { 1, 2, 0 };
    int j = nxt[i], k = nxt[j];
    r[i] = 0;
    r[j] = -a[k];
    r[k] = a[j];
}

/* eq. 7.1 about the joint origins: sum_j w_j (L_j (v - o_j) + t_j) = g */
static void build_affine(struct sys *s, const struct skb_sad_rig *rig, const double *rest, const double *goal)
{
    int n = 0, row = 0;
    for (int k = 0; k < rig->nverts; k++)
        for (int r = 0; r < 3; r++) {
            s->rowptr[row] = n;
            for (int q = rig->off[k]; q < rig->off[k + 1]; q++) {
                int j = rig->joint[q];
                double w = rig->weight[q];
                for (int c = 0; c < 3; c++) {
                    s->col[n] = 12 * j + 4 * r + c;
                    s->val[n++] = w * (rest[3 * k + c] - rig->origin[3 * j + c]);
                }
                s->col[n] = 12 * j + 4 * r + 3;
                s->val[n++] = w;
            }
            s->b[row++] = goal[3 * k + r];
        }
    s->rowptr[row] = n;
}

/* eq. 7.5, B^ v^goal = ... read through the DQ paper's point transform,
 * is the quaternion equation g b0 - b0 v - 2 be = 0 (b0 = sum w (1, c),
 * be = sum w (s, e)).  Its 3 vector components are the thesis's 3m rows:
 *   sum_j w_j ([g + v - 2 m_j]x c_j - 2 e'_j) = v - g
 * (the Cayley form of a rotation (1, c): exact for any rotation below 180
 * degrees).  The dual scalar s does not appear in them (its column is
 * empty); the scalar component, c.(v - g) - 2 s = 0, is not used: for a
 * blend of several joints it asks the blend itself to satisfy b0 . be = 0,
 * which a blend of unit-constraint dual quaternions does not, so it would
 * fight the fit.  The skin (skb_sad_vertex_transform) gives the blend the
 * dual scalar -c.e that makes it a rigid transformation; a fit with zero
 * residual then reproduces the keyframe exactly.
 * Normals (dual parts 0): [n_g + n]x c = n - n_g, 3 unknowns per joint. */
/* m_j = (o_j + o'_j) / 2, o'_j the joint's weighted centroid in the goal:
 * with e = e' + m x c the c columns, [g + v - 2 m]x, no longer carry the
 * joint's whole displacement (nearly parallel to the e' columns otherwise) */
static void joint_mids(struct sys *s, const struct skb_sad_rig *rig, const double *goal)
{
    memset(s->mid, 0, sizeof(double) * 3 * (size_t)rig->njoints);
    memset(s->wsum, 0, sizeof(double) * (size_t)rig->njoints);
    for (int k = 0; k < rig->nverts; k++)
        for (int q = rig->off[k]; q < rig->off[k + 1]; q++) {
            int j = rig->joint[q];
            s->wsum[j] += rig->weight[q];
            for (int i = 0; i < 3; i++)
                s->mid[3 * j + i] += rig->weight[q] * goal[3 * k + i];
        }
    for (int j = 0; j < rig->njoints; j++)
        for (int i = 0; i < 3; i++)
            s->mid[3 * j + i] = 0.5 * (rig->origin[3 * j + i]
                                       + (s->wsum[j] > 0 ? s->mid[3 * j + i] / s->wsum[j] : rig->origin[3 * j + i]));
}

static void build_quat(struct sys *s, const struct skb_sad_rig *rig, const double *rest, const double *goal,
                       int normals)
{
    int n = 0, row = 0, dof = s->dof;
    if (!normals)
        joint_mids(s, rig, goal);
    for (int k = 0; k < rig->nverts; k++) {
        const double *v = rest + 3 * k, *g = goal + 3 * k;
        for (int i = 0; i < 3; i++) {
            s->rowptr[row] = n;
            for (int q = rig->off[k]; q < rig->off[k + 1]; q++) {
                int j = rig->joint[q];
                double w = rig->weight[q], a[3], cr[3];
                for (int c = 0; c < 3; c++)
                    a[c] = g[c] + v[c] - (normals ? 0 : 2 * s->mid[3 * j + c]);
                crossrow(a, i, cr);
                for (int c = 0; c < 3; c++)
                    if (c != i) {
                        s->col[n] = dof * j + c;
                        s->val[n++] = w * cr[c];
                    }
                if (!normals) {
                    s->col[n] = dof * j + 4 + i;
                    s->val[n++] = -2 * w;
                }
            }
            s->b[row++] = v[i] - g[i];
        }
    }
    s->rowptr[row] = n;
}

/* solve the keyframe from the identity and write the global parameters */
static int solve_frame(struct sys *s, const struct skb_sad_rig *rig, int kind, int normals,
                       const struct skb_lsqr_opts *o, double *params, struct skb_lsqr_info *info)
{
    int p = rig->njoints;
    struct skb_csr a = { s->rows_per_vertex * rig->nverts, s->dof * p, s->rowptr, s->col, s->val };
    memset(s->x, 0, sizeof(double) * (size_t)(s->dof * p));
    if (kind == SKB_SAD_AFFINE && !normals)
        for (int j = 0; j < p; j++)
            for (int r = 0; r < 3; r++) {
                s->x[12 * j + 4 * r + r] = 1;                       /* L = I */
                s->x[12 * j + 4 * r + 3] = rig->origin[3 * j + r];   /* t = o */
            }
    int rc = skb_lsqr_solve(&a, s->b, s->x, o, info);
    if (rc < 0)
        return rc;
    for (int j = 0; j < p; j++) {
        const double *x = s->x + s->dof * j, *oj = rig->origin + 3 * j;
        double *out = params + s->dof * j;
        if (normals) {
            memcpy(out, x, sizeof(double) * 3);
        } else if (kind == SKB_SAD_AFFINE) {
            /* C = [L | t - L o] */
            for (int r = 0; r < 3; r++) {
                double lo = 0;
                for (int c = 0; c < 3; c++) {
                    out[4 * r + c] = x[4 * r + c];
                    lo += x[4 * r + c] * oj[c];
                }
                out[4 * r + 3] = x[4 * r + 3] - lo;
            }
        } else {
            double oc[3];
            cross(s->mid + 3 * j, x, oc);   /* e = e' + m x c */
            memcpy(out, x, sizeof(double) * 3);
            for (int i = 0; i < 3; i++)
                out[4 + i] = x[4 + i] + oc[i];
            out[3] = -dot3(out, out + 4);   /* s: each joint a unit-constraint dual quaternion */
        }
    }
    return 0;
}

/* ---- skinning with the fitted joints ---- */

/* rotate v by the quaternion (1, c), not normalised: v + 2 (c x v + c x (c x v)) / (1 + |c|^2) */
static void rot_c(const double c[3], const double v[3], double out[3])
{
    double cv[3], ccv[3], n2 = 1 + dot3(c, c);
    cross(c, v, cv);
    cross(c, cv, ccv);
    for (int i = 0; i < 3; i++)
        out[i] = v[i] + 2 * (cv[i] + ccv[i]) / n2;
}

/* blended dual quaternion (1, c) + eps (s, e) of vertex k */
static void blend_dq(const struct skb_sad_rig *rig, const double *params, int k, double c[3], double *s, double e[3])
{
    c[0] = c[1] = c[2] = e[0] = e[1] = e[2] = *s = 0;
    for (int q = rig->off[k]; q < rig->off[k + 1]; q++) {
        const double *x = params + SKB_SAD_RIGID_DOF * rig->joint[q];
        double w = rig->weight[q];
        for (int i = 0; i < 3; i++) {
            c[i] += w * x[i];
            e[i] += w * x[4 + i];
        }
        *s += w * x[3];
    }
}

void skb_sad_vertex_transform(const struct skb_sad_rig *rig, int kind, const double *params, int k, double t[12])
{
    memset(t, 0, sizeof(double) * 12);
    if (kind == SKB_SAD_AFFINE) {
        for (int q = rig->off[k]; q < rig->off[k + 1]; q++)
            for (int i = 0; i < 12; i++)
                t[i] += rig->weight[q] * params[12 * rig->joint[q] + i];
        return;
    }
    double c[3], s, e[3], ce[3], n2;
    blend_dq(rig, params, k, c, &s, e);
    s = -dot3(c, e);   /* the blend's dual scalar: b0 . be = 0 (see build_quat) */
    n2 = 1 + dot3(c, c);
    for (int col = 0; col < 3; col++) {
        double u[3] = { 0, 0, 0 }, ru[3];
        u[col] = 1;
        rot_c(c, u, ru);
        for (int r = 0; r < 3; r++)
            t[4 * r + col] = ru[r];
    }
    /* DQ paper Alg. 1: t = 2 vec(b_eps b_0*) / |b_0|^2 = 2 (e - s c + c x e) / (1 + |c|^2) */
    cross(c, e, ce);
    for (int r = 0; r < 3; r++)
        t[4 * r + 3] = 2 * (e[r] - s * c[r] + ce[r]) / n2;
}

static void apply_range(const struct skb_sad_rig *rig, int kind, const double *rest, const double *params,
                        double *out, int k0, int k1)
{
    for (int k = k0; k < k1; k++) {
        double t[12];
        const double *v = rest + 3 * k;
        skb_sad_vertex_transform(rig, kind, params, k, t);
        for (int r = 0; r < 3; r++)
            out[3 * k + r] = t[4 * r] * v[0] + t[4 * r + 1] * v[1] + t[4 * r + 2] * v[2] + t[4 * r + 3];
    }
}

void skb_sad_apply(const struct skb_sad_rig *rig, int kind, const double *rest, const double *params, double *out)
{
    apply_range(rig, kind, rest, params, out, 0, rig->nverts);
}

void skb_sad_apply_normals(const struct skb_sad_rig *rig, const double *rest_nrm, const double *nparams, double *out)
{
    for (int k = 0; k < rig->nverts; k++) {
        double c[3] = { 0, 0, 0 };
        for (int q = rig->off[k]; q < rig->off[k + 1]; q++)
            for (int i = 0; i < 3; i++)
                c[i] += rig->weight[q] * nparams[3 * rig->joint[q] + i];
        rot_c(c, rest_nrm + 3 * k, out + 3 * k);
    }
}

/* ---- the whole animation, keyframes split over the pool ---- */

struct fit_job {
    const struct skb_sad_anim *a;
    const struct skb_sad_rig *rig;
    int kind;
    const struct skb_lsqr_opts *o;
    struct skb_sad_fit *out;
    int rc[256];
    long iters[256], niters[256];
    int maxit[256], capped[256];
};

static int fit_one(struct fit_job *jb, struct sys *sp, struct sys *sn, int f, int part)
{
    const struct skb_sad_anim *a = jb->a;
    const struct skb_sad_rig *rig = jb->rig;
    int dof = jb->kind == SKB_SAD_AFFINE ? SKB_SAD_AFFINE_DOF : SKB_SAD_RIGID_DOF;
    size_t vo = 3 * (size_t)a->nverts * (size_t)f;
    struct skb_lsqr_info inf;
    double *params = jb->out->params + (size_t)dof * (size_t)rig->njoints * (size_t)f;
    if (jb->kind == SKB_SAD_AFFINE)
        build_affine(sp, rig, a->rest, a->pos + vo);
    else
        build_quat(sp, rig, a->rest, a->pos + vo, 0);
    int rc = solve_frame(sp, rig, jb->kind, 0, jb->o, params, &inf);
    if (rc < 0)
        return rc;
    jb->iters[part] += inf.iterations;
    jb->maxit[part] = inf.iterations > jb->maxit[part] ? inf.iterations : jb->maxit[part];
    jb->capped[part] += inf.stop == 3;
    apply_range(rig, jb->kind, a->rest, params, jb->out->approx + vo, 0, a->nverts);
    if (!sn)
        return 0;
    double *np = jb->out->nparams + (size_t)SKB_SAD_NORMAL_DOF * (size_t)rig->njoints * (size_t)f;
    build_quat(sn, rig, a->rest_nrm, a->nrm + vo, 1);
    /* the normals of a flat region do not see a rotation about that normal:
     * damping keeps such directions at the identity (LSQR converges there
     * slowly otherwise) */
    struct skb_lsqr_opts on = *jb->o;
    on.damp = on.damp > SKB_SAD_NORMAL_DAMP ? on.damp : SKB_SAD_NORMAL_DAMP;
    on.atol = on.atol > SKB_SAD_NORMAL_ATOL ? on.atol : SKB_SAD_NORMAL_ATOL;
    on.btol = on.btol > SKB_SAD_NORMAL_ATOL ? on.btol : SKB_SAD_NORMAL_ATOL;
    if ((rc = solve_frame(sn, rig, SKB_SAD_RIGID, 1, &on, np, &inf)) < 0)
        return rc;
    jb->niters[part] += inf.iterations;
    jb->maxit[part] = inf.iterations > jb->maxit[part] ? inf.iterations : jb->maxit[part];
    jb->capped[part] += inf.stop == 3;
    if (jb->out->approx_nrm)
        skb_sad_apply_normals(rig, a->rest_nrm, np, jb->out->approx_nrm + vo);
    return 0;
}

static void fit_part(void *arg, int part, int nparts)
{
    struct fit_job *jb = (struct fit_job *)arg;
    struct sys sp, sn;
    int normals = jb->out->nparams != NULL, rc;
    /* sys_init leaves a zeroed struct on failure: sys_free is always safe */
    memset(&sn, 0, sizeof sn);
    if (jb->kind == SKB_SAD_AFFINE)
        rc = sys_init(&sp, jb->rig, 3, SKB_SAD_AFFINE_DOF, 12);
    else
        rc = sys_init(&sp, jb->rig, 3, SKB_SAD_RIGID_DOF, 9);
    if (rc == 0 && normals)
        rc = sys_init(&sn, jb->rig, 3, SKB_SAD_NORMAL_DOF, 6);
    for (int f = part; rc == 0 && f < jb->a->nframes; f += nparts)
        rc = fit_one(jb, &sp, normals ? &sn : NULL, f, part);
    sys_free(&sp);
    sys_free(&sn);
    jb->rc[part] = rc;
}

int skb_sad_fit_anim(const struct skb_sad_anim *a, const struct skb_sad_rig *rig, int kind,
                     const struct skb_lsqr_opts *o, struct skb_pool *pool, struct skb_sad_fit *out)
{
    if (!a || !rig || !o || !out || !out->params || !out->approx || a->nverts != rig->nverts || a->nframes < 1
        || (kind != SKB_SAD_AFFINE && kind != SKB_SAD_RIGID))
        return SKB_EINVAL;
    if (out->nparams && (kind != SKB_SAD_RIGID || !a->nrm || !a->rest_nrm))
        return SKB_EINVAL;
    struct fit_job *jb = (struct fit_job *)calloc(1, sizeof *jb);
    if (!jb)
        return SKB_ENOMEM;
    jb->a = a;
    jb->rig = rig;
    jb->kind = kind;
    jb->o = o;
    jb->out = out;
    int nparts = pool ? skb_pool_threads(pool) : 1, rc = 0;
    if (nparts > 256)
        nparts = 256;
    if (pool && nparts > 1)
        skb_pool_run(pool, fit_part, jb);
    else
        fit_part(jb, 0, 1);
    out->iterations = 0;
    out->normal_iterations = 0;
    out->max_iterations = 0;
    out->capped = 0;
    for (int i = 0; i < nparts; i++) {
        rc = rc < 0 ? rc : jb->rc[i];
        out->iterations += jb->iters[i];
        out->normal_iterations += jb->niters[i];
        out->max_iterations = jb->maxit[i] > out->max_iterations ? jb->maxit[i] : out->max_iterations;
        out->capped += jb->capped[i];
    }
    free(jb);
    return rc;
}

/* ---- 7.4 error metric, compression ---- */

double skb_sad_distortion(const double *exact, const double *approx, int nverts, int nframes)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < 3 * (size_t)nverts; i++) {
        double mean = 0;
        for (int f = 0; f < nframes; f++)
            mean += exact[3 * (size_t)nverts * (size_t)f + i];
        mean /= nframes;
        for (int f = 0; f < nframes; f++) {
            size_t at = 3 * (size_t)nverts * (size_t)f + i;
            double d = exact[at] - approx[at], s = exact[at] - mean;
            num += d * d;
            den += s * s;
        }
    }
    return den > 0 ? 100 * sqrt(num / den) : (num > 0 ? INFINITY : 0);
}

double skb_sad_normal_error(const double *exact, const double *approx, int nverts, int nframes, double *max_deg)
{
    double sum = 0, worst = 0;
    size_t n = (size_t)nverts * (size_t)nframes;
    for (size_t k = 0; k < n; k++) {
        const double *a = exact + 3 * k, *b = approx + 3 * k;
        double c[3], ang;
        cross(a, b, c);
        ang = atan2(sqrt(dot3(c, c)), dot3(a, b)) * 180 / M_PI;
        sum += ang;
        worst = ang > worst ? ang : worst;
    }
    if (max_deg)
        *max_deg = worst;
    return n ? sum / (double)n : 0;
}

double skb_sad_compression(int nverts, int nframes, int p)
{
    return 6.0 * nverts * nframes / (6.0 * nverts + 12.0 * p * nframes);
}

double skb_sad_max_angle(const double *params, int njoints, int nframes, double above_deg, int *count)
{
    double worst = 0;
    int n = 0;
    for (size_t j = 0; j < (size_t)njoints * (size_t)nframes; j++) {
        const double *c = params + SKB_SAD_RIGID_DOF * j;
        /* (1, c) ~ (cos a/2, sin a/2 axis): |c| = tan(a/2) */
        double deg = 2 * atan(sqrt(dot3(c, c))) * 180 / M_PI;
        worst = deg > worst ? deg : worst;
        n += deg > above_deg;
    }
    if (count)
        *count = n;
    return worst;
}

/* ---- 7.3 corrections ---- */

/* e = T^-1 g - v for one vertex; 0, or -1 when the 3x3 part is singular */
static int rest_residual(const double t[12], const double *g, const double *v, double e[3])
{
    double a[9] = { t[0], t[1], t[2], t[4], t[5], t[6], t[8], t[9], t[10] }, y[3], inv[9];
    for (int r = 0; r < 3; r++)
        y[r] = g[r] - t[4 * r + 3];
    inv[0] = a[4] * a[8] - a[5] * a[7];
    inv[1] = a[2] * a[7] - a[1] * a[8];
    inv[2] = a[1] * a[5] - a[2] * a[4];
    inv[3] = a[5] * a[6] - a[3] * a[8];
    inv[4] = a[0] * a[8] - a[2] * a[6];
    inv[5] = a[2] * a[3] - a[0] * a[5];
    inv[6] = a[3] * a[7] - a[4] * a[6];
    inv[7] = a[1] * a[6] - a[0] * a[7];
    inv[8] = a[0] * a[4] - a[1] * a[3];
    double det = a[0] * inv[0] + a[1] * inv[3] + a[2] * inv[6], scale = fabs(a[0]) + fabs(a[4]) + fabs(a[8]);
    if (!(fabs(det) > 1e-12 * scale * scale * scale)) {
        e[0] = e[1] = e[2] = 0;
        return -1;
    }
    for (int r = 0; r < 3; r++)
        e[r] = (inv[3 * r] * y[0] + inv[3 * r + 1] * y[1] + inv[3 * r + 2] * y[2]) / det - v[r];
    return 0;
}

/* element (row, q) of D, the eigen-displacements (E's left singular
 * vectors: U, or V when E was decomposed transposed) */
static double eigen_disp(const gsl_matrix *u, const gsl_matrix *v, int tr, size_t row, size_t q)
{
    return tr ? gsl_matrix_get(v, row, q) : gsl_matrix_get(u, row, q);
}

/* keyframe t's coefficients of the first f eigen-displacements, fitted
 * where the skin is judged: least squares over every vertex of
 * |T (v + D' k) - g|, into x (3m x f, T applied to D' rows) and c.  For a
 * rigid T this is the thesis's K' (D' orthonormal, |T y| = |y|: k = D'^T e);
 * for an affine T the rest-pose projection is not the posed optimum, and a
 * near-singular blend amplified it past the uncorrected skin (faerie, 10
 * eigen-displacements: 6.81 % against 2.39 % without).  Fitted here, k = 0
 * is a candidate: a correction never leaves the skin worse.  posed: T v
 * per vertex (3m); 0, or SKB_ENUMERIC */
static int posed_coefficients(const struct skb_sad_anim *a, const struct skb_sad_rig *rig, int kind, const double *pf,
                              const gsl_matrix *u, const gsl_matrix *v, int tr, int t, int f, const double *posed,
                              gsl_matrix *x, gsl_vector *y, gsl_vector *c, gsl_matrix *cov,
                              gsl_multifit_linear_workspace *w)
{
    const double *g = a->pos + 3 * (size_t)a->nverts * (size_t)t;
    for (int k = 0; k < a->nverts; k++) {
        double tk[12];
        skb_sad_vertex_transform(rig, kind, pf, k, tk);
        for (int r = 0; r < 3; r++) {
            size_t row = 3 * (size_t)k + (size_t)r;
            gsl_vector_set(y, row, g[row] - posed[row]);
            for (int q = 0; q < f; q++) {
                double d = 0;
                for (int i = 0; i < 3; i++)
                    d += tk[4 * r + i] * eigen_disp(u, v, tr, 3 * (size_t)k + (size_t)i, (size_t)q);
                gsl_matrix_set(x, row, (size_t)q, d);
            }
        }
    }
    double chisq;
    size_t rank;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    /* SVD-based, rank-revealing: a keyframe whose T D' columns are
     * dependent gets the least-norm coefficients */
    int st = gsl_multifit_linear_tsvd(x, y, 1e-12, c, cov, &chisq, &rank, w);
    gsl_set_error_handler(old);
    return st ? SKB_ENUMERIC : 0;
}

/* the skin corrected by the first f eigen-displacements over a share of
 * the keyframes (every nparts-th from part), each keyframe's coefficients
 * fitted in posed space (posed_coefficients), into buf */
struct corr_job {
    const struct skb_sad_anim *a;
    const struct skb_sad_rig *rig;
    int kind, tr, f;
    const double *params;
    const gsl_matrix *u, *v;
    double *buf;
    int rc[SKB_POOL_MAX_THREADS];
};

static void posed_skin(const struct skb_sad_anim *a, const struct skb_sad_rig *rig, int kind, const double *pf,
                       double *out)
{
    for (int k = 0; k < a->nverts; k++) {
        double tk[12];
        skb_sad_vertex_transform(rig, kind, pf, k, tk);
        const double *vk = a->rest + 3 * k;
        for (int r = 0; r < 3; r++)
            out[3 * k + r] = tk[4 * r] * vk[0] + tk[4 * r + 1] * vk[1] + tk[4 * r + 2] * vk[2] + tk[4 * r + 3];
    }
}

static void corrected_part(void *arg, int part, int nparts)
{
    struct corr_job *jb = (struct corr_job *)arg;
    const struct skb_sad_anim *a = jb->a;
    int dof = jb->kind == SKB_SAD_AFFINE ? SKB_SAD_AFFINE_DOF : SKB_SAD_RIGID_DOF, f = jb->f;
    size_t rows = 3 * (size_t)a->nverts, nc = f > 0 ? (size_t)f : 1;
    gsl_matrix *x = gsl_matrix_alloc(rows, nc), *cov = gsl_matrix_alloc(nc, nc);
    gsl_vector *y = gsl_vector_alloc(rows), *c = gsl_vector_calloc(nc);
    gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(rows, nc);
    int rc = x && cov && y && c && w ? 0 : SKB_ENOMEM;
    for (int t = part; rc == 0 && t < a->nframes; t += nparts) {
        const double *pf = jb->params + (size_t)dof * (size_t)jb->rig->njoints * (size_t)t;
        double *out = jb->buf + rows * (size_t)t;
        posed_skin(a, jb->rig, jb->kind, pf, out);
        if (f == 0)
            continue;
        rc = posed_coefficients(a, jb->rig, jb->kind, pf, jb->u, jb->v, jb->tr, t, f, out, x, y, c, cov, w);
        for (size_t row = 0; rc == 0 && row < rows; row++)
            for (int q = 0; q < f; q++)
                out[row] += gsl_matrix_get(x, row, (size_t)q) * gsl_vector_get(c, (size_t)q);
    }
    gsl_matrix_free(x);
    gsl_matrix_free(cov);
    gsl_vector_free(y);
    gsl_vector_free(c);
    if (w)
        gsl_multifit_linear_free(w);
    jb->rc[part] = rc;
}

/* distortion of the corrected skin, keyframes split over the pool (NULL:
 * this thread); NAN when a fit failed */
static double corrected_distortion(struct corr_job *jb, struct skb_pool *pool)
{
    int nparts = pool ? skb_pool_threads(pool) : 1;
    if (pool && nparts > 1)
        skb_pool_run(pool, corrected_part, jb);
    else
        corrected_part(jb, 0, 1);
    for (int i = 0; i < nparts; i++)
        if (jb->rc[i] < 0)
            return NAN;
    return skb_sad_distortion(jb->a->pos, jb->buf, jb->a->nverts, jb->a->nframes);
}

int skb_sad_corrections(const struct skb_sad_anim *a, const struct skb_sad_rig *rig, int kind,
                        const double *params, int n, const int *nf, struct skb_pool *pool, double *dist,
                        int *singular)
{
    if (!a || !rig || !params || n < 0 || (n && (!nf || !dist)))
        return SKB_EINVAL;
    size_t rows = 3 * (size_t)a->nverts, cols = (size_t)a->nframes;
    int tr = rows < cols, dof = kind == SKB_SAD_AFFINE ? SKB_SAD_AFFINE_DOF : SKB_SAD_RIGID_DOF, bad = 0, rc = 0;
    size_t M = tr ? cols : rows, N = tr ? rows : cols;
    gsl_matrix *e = gsl_matrix_alloc(M, N), *v = gsl_matrix_alloc(N, N);
    gsl_vector *sv = gsl_vector_alloc(N), *work = gsl_vector_alloc(N);
    double *buf = (double *)malloc(sizeof(double) * rows * cols);
    if (!e || !v || !sv || !work || !buf) {
        rc = SKB_ENOMEM;
        goto out;
    }
    for (int t = 0; t < a->nframes; t++) {
        const double *pf = params + (size_t)dof * (size_t)rig->njoints * (size_t)t;
        for (int k = 0; k < a->nverts; k++) {
            double tk[12], ek[3];
            skb_sad_vertex_transform(rig, kind, pf, k, tk);
            bad += rest_residual(tk, a->pos + rows * (size_t)t + 3 * (size_t)k, a->rest + 3 * k, ek) < 0;
            for (int i = 0; i < 3; i++) {
                size_t r = 3 * (size_t)k + (size_t)i;
                if (tr)
                    gsl_matrix_set(e, (size_t)t, r, ek[i]);
                else
                    gsl_matrix_set(e, r, (size_t)t, ek[i]);
            }
        }
    }
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int st = gsl_linalg_SV_decomp(e, v, sv, work);
    gsl_set_error_handler(old);
    if (st) {
        rc = SKB_ENUMERIC;
        goto out;
    }
    struct corr_job jb = { a, rig, kind, tr, 0, params, e, v, buf, { 0 } };
    for (int i = 0; i < n; i++) {
        jb.f = nf[i] < 0 ? 0 : nf[i] > (int)N ? (int)N : nf[i];
        dist[i] = corrected_distortion(&jb, pool);
        if (!isfinite(dist[i]))
            rc = SKB_ENUMERIC;
    }
    if (singular)
        *singular = bad;
out:
    gsl_matrix_free(e);
    gsl_matrix_free(v);
    gsl_vector_free(sv);
    gsl_vector_free(work);
    free(buf);
    return rc;
}

#endif
