/* dib.c — dual quaternion iterative blending (DIB; thesis Algorithm 4.1, DQ
 * paper Appendix B, Algorithm 3): start from DLB, then repeat
 *   x = sum_i w_i log(b* q_i),  b = b exp(x)   until |x| < prm->dib_precision,
 * with |x| the Euclidean norm of all eight components of the pure dual
 * quaternion x.  Signs are resolved as in DLB (prm->antipodal, see dlb.c).
 * Iteration count: an iteration is a pass whose |x| was still >= precision,
 * so two transforms report 1 (thesis Lemma 4.7: the second pass finds x = 0).
 * Cap: after prm->dib_max_iter iterations DIB stops and returns its current
 * estimate (a unit dual quaternion, never worse-defined than DLB) with
 * iterations = dib_max_iter, rather than failing: a capped blend is still a
 * rigid transform, and the count tells the caller the cap was reached.
 * Skin path: per-vertex iteration; pose_stats recomputes the worst vertex's
 * count for the last prepared pose (skin gets a const state and may run on
 * vertex ranges in parallel, so it cannot record it). */
#include <math.h>
#include <string.h>
#include "skb_dqblend.h"

/* Alg. 4.1 lines 2-5 on a unit b; returns the number of iterations */
static int dib_iterate(int n, const skb_real *w, const struct skb_dq *q, skb_real precision,
                       int max_iter, struct skb_dq *b)
{
    int it = 0;
    for (;;) {
        struct skb_dq x, bc, d, l, e, nb;
        memset(&x, 0, sizeof x);
        skb_dq_conj(b, &bc);
        for (int i = 0; i < n; i++) {
            skb_dq_mul(&bc, &q[i], &d);
            skb_dq_log(&d, &l);
            skb_dq_axpy(w[i], &l, &x);
        }
        skb_real nx = sqrt(skb_quat_dot(&x.r, &x.r) + skb_quat_dot(&x.d, &x.d));
        int converged = nx < precision;
        if (!converged && it >= max_iter)
            break;
        skb_dq_exp(&x, &e);
        skb_dq_mul(b, &e, &nb);
        *b = nb;
        if (converged)
            break;
        it++;
    }
    /* keep b on the unit dual quaternions against rounding drift */
    struct skb_dq u;
    if (skb_dq_normalize(b, &u) == 0)
        *b = u;
    return it;
}

/* DLB start (Alg. 4.1 line 1) then iterate; q signs are resolved in place */
static int dib_run(int n, const skb_real *w, struct skb_dq *q, int antipodal, skb_real precision,
                   int max_iter, struct skb_dq *b, int *iterations)
{
    struct skb_dq s;
    int rc = skb__dlb_sum(n, w, q, antipodal, &s);
    if (rc < 0)
        return rc;
    if (skb_dq_normalize(&s, b) < 0)
        return SKB_ECANCEL;
    *iterations = dib_iterate(n, w, q, precision, max_iter, b);
    return 0;
}

static int dib_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                     skb_real out[16], struct skb_blend_stats *st)
{
    struct skb_dq q[SKB__DIB_MAX_N], b;
    if (in->n > SKB__DIB_MAX_N)
        return SKB_ETOOMANY;
    for (int i = 0; i < in->n; i++)
        skb_dq_from_mat4(in->mats + 16 * i, &q[i]);
    int rc = dib_run(in->n, in->weights, q, prm->antipodal, prm->dib_precision,
                     prm->dib_max_iter, &b, &st->iterations);
    if (rc < 0)
        return rc;
    skb_dq_to_mat4(&b, out);
    return 0;
}

static int dib_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                       const struct skb_params *prm, void *state)
{
    struct skb__dq_state *hdr = (struct skb__dq_state *)state;
    hdr->dib_precision = prm->dib_precision;
    hdr->dib_max_iter = prm->dib_max_iter;
    return skb__dq_prepare(m, p->mats, prm->antipodal, state);
}

/* one vertex: blended unit dual quaternion and its iteration count */
static int dib_vertex(const struct skb_mesh *m, const void *state, int v, struct skb_dq *b, int *it)
{
    const struct skb__dq_state *hdr = (const struct skb__dq_state *)state;
    struct skb_dq q[SKB_MAX_INFLUENCES];
    skb_real w[SKB_MAX_INFLUENCES];
    int n = skb__dq_gather(m, state, v, q, w);
    return dib_run(n, w, q, SKB_ANTIPODAL_NONE, hdr->dib_precision, hdr->dib_max_iter, b, it);
}

static int dib_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                    skb_real *pos_out, skb_real *nrm_out)
{
    for (int v = v0; v < v1; v++) {
        struct skb_dq b;
        int it, rc = dib_vertex(m, state, v, &b, &it);
        if (rc < 0)
            return rc;
        skb__dq_apply(&b, m->pos + 3 * v, m->nrm ? m->nrm + 3 * v : NULL, pos_out + 3 * v,
                      nrm_out ? nrm_out + 3 * v : NULL);
    }
    return 0;
}

static int dib_pose_stats(const struct skb_mesh *m, const void *state, struct skb_pose_stats *out)
{
    out->solves = 0;
    out->max_iterations = 0;
    out->max_center_norm = 0;
    for (int v = 0; v < m->nverts; v++) {
        struct skb_dq b;
        int it, rc = dib_vertex(m, state, v, &b, &it);
        if (rc < 0)
            return rc;
        if (it > out->max_iterations)
            out->max_iterations = it;
    }
    return 0;
}

SKB_METHOD_EXPORT const struct skb_method skb_method_dib = {
    .name = "dib",
    .title = "DIB",
    .description = "dual quaternion iterative blending: DLB refined by exp/log iterations",
    .seed_ref = "thesis Alg. 4.1, Lemma 4.7; DQ paper App. B (Alg. 3)",
    .flags = SKB_MF_TABLE41 | SKB_MF_ITERATIVE,
    .max_n = SKB__DIB_MAX_N,
    .blend = dib_blend,
    .state_size = skb__dq_state_size,
    .bind = NULL,
    .prepare = dib_prepare,
    .skin = dib_skin,
    .pose_stats = dib_pose_stats,
    .f32 = NULL,
};
