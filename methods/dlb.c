/* dlb.c — dual quaternion linear blending (DLB): b = sum_i w_i q_i / |sum_i w_i q_i|
 * (thesis 4.3; DQ paper 3.2), with the antipodality resolution of DQ paper 4.1,
 * selected by prm->antipodal:
 *   PIVOT      Algorithm 2 per blend / per vertex, pivot = first input with w > 0;
 *   HIERARCHY  skin path: signs fixed once per pose along mesh->parent (parent
 *              before child, root as converted; joint order as a chain when the
 *              mesh has no parents); blend path (no tree): joint order as a
 *              chain, each input's sign chosen against the previous input;
 *   NONE       signs as converted from the matrices (w >= 0).
 * Cancellation: when antipodal inputs cancel, the non-dual part b0 of the sum
 * vanishes and b/|b| is undefined.  If |b0| < SKB_DLB_CANCEL_REL * sum w_i|q_i0|
 * the blend (or skin) returns SKB_ECANCEL instead of a NaN or noise matrix.
 * With PIVOT this cannot happen (every dot with the pivot is >= 0, so
 * <b0, q_pivot0> >= w_pivot > 0); with NONE or HIERARCHY it can.
 * The skin path uses the fast form of DQ paper Algorithm 1 on the
 * unnormalised sum.  Also home of the skb__ helpers shared with dib.c and
 * dlb_scale.c (methods/skb_dqblend.h). */
#include <math.h>
#include <string.h>
#include "skb_dqblend.h"
#include "skb_fast.h"

void skb__dq_antipodal_pivot(int n, int pivot, struct skb_dq *q)
{
    /* DQ paper Alg. 2; dot of the non-dual parts only (DQ paper 4.1) */
    for (int i = 0; i < n; i++)
        if (i != pivot && skb_quat_dot(&q[pivot].r, &q[i].r) < 0)
            skb_dq_neg(&q[i], &q[i]);
}

void skb__dq_antipodal_chain(int n, struct skb_dq *q)
{
    /* DQ paper 4.1, hierarchy rule with pi(i) = i - 1 */
    for (int i = 1; i < n; i++)
        if (skb_quat_dot(&q[i - 1].r, &q[i].r) < 0)
            skb_dq_neg(&q[i], &q[i]);
}

int skb__dlb_sum(int n, const skb_real *w, struct skb_dq *q, int antipodal, struct skb_dq *out)
{
    int pivot = 0;
    while (pivot < n - 1 && !(w[pivot] > 0))
        pivot++;
    if (antipodal == SKB_ANTIPODAL_PIVOT)
        skb__dq_antipodal_pivot(n, pivot, q);
    else if (antipodal == SKB_ANTIPODAL_HIERARCHY)
        skb__dq_antipodal_chain(n, q);
    skb_real ref = 0;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < n; i++) {
        skb_dq_axpy(w[i], &q[i], out);
        ref = ref + w[i] * skb_quat_norm(&q[i].r);
    }
    return skb__dlb_cancelled(out, ref) ? SKB_ECANCEL : 0;
}

int skb__dlb_cancelled(const struct skb_dq *b, skb_real ref)
{
    skb_real lim = SKB_DLB_CANCEL_REL * ref;
    return !(ref > 0) || !(skb_quat_dot(&b->r, &b->r) >= lim * lim);
}

size_t skb__dq_state_size(const struct skb_mesh *m)
{
    return SKB__DQ_STATE_HDR + (sizeof(struct skb_dq) + sizeof(int)) * (size_t)m->njoints;
}

struct skb_dq *skb__dq_state_joints(void *state)
{
    return (struct skb_dq *)((char *)state + SKB__DQ_STATE_HDR);
}

const struct skb_dq *skb__dq_state_joints_c(const void *state)
{
    return (const struct skb_dq *)((const char *)state + SKB__DQ_STATE_HDR);
}

/* parent of joint j for the hierarchy rule; joint order as a chain without a tree */
static int parent_of(const struct skb_mesh *m, int j)
{
    if (!m->parent)
        return j - 1;
    int p = m->parent[j];
    return p >= 0 && p < m->njoints && p != j ? p : -1;
}

int skb__dq_prepare(const struct skb_mesh *m, const skb_real *mats, int antipodal, void *state)
{
    struct skb__dq_state *hdr = (struct skb__dq_state *)state;
    struct skb_dq *q = skb__dq_state_joints(state);
    int *done = (int *)(q + m->njoints);
    hdr->antipodal = antipodal;
    for (int j = 0; j < m->njoints; j++) {
        skb_dq_from_mat4(mats + 16 * j, &q[j]);
        done[j] = 0;
    }
    if (antipodal != SKB_ANTIPODAL_HIERARCHY)
        return 0;
    /* DQ paper 4.1: <s_pi(i) q_pi(i), s_i q_i> >= 0, parents before children.
     * Each joint walks up to its first resolved ancestor (or a root) and the
     * path is resolved top-down; a cycle in a malformed parent array is cut
     * after njoints steps by treating the joint as a root. */
    for (int j = 0; j < m->njoints; j++) {
        while (!done[j]) {
            int k = j, steps = 0;
            while (steps < m->njoints) {
                int p = parent_of(m, k);
                if (p < 0 || done[p])
                    break;
                k = p;
                steps++;
            }
            int p = parent_of(m, k);
            if (p >= 0 && done[p] && skb_quat_dot(&q[p].r, &q[k].r) < 0)
                skb_dq_neg(&q[k], &q[k]);
            done[k] = 1;
        }
    }
    return 0;
}

void skb__dq_apply(const struct skb_dq *b, const skb_real *x, const skb_real *n,
                   skb_real *x_out, skb_real *n_out)
{
    skb_dq_transform_point(b, x, x_out);
    if (n && n_out)
        skb_dq_transform_normal(b, n, n_out);
}

int skb__dq_gather(const struct skb_mesh *m, const void *state, int v, struct skb_dq *q, skb_real *w)
{
    const struct skb__dq_state *hdr = (const struct skb__dq_state *)state;
    const struct skb_dq *jq = skb__dq_state_joints_c(state);
    int n = 0;
    for (int k = 0; k < SKB_MAX_INFLUENCES; k++) {
        skb_real wk = m->weight[SKB_MAX_INFLUENCES * v + k];
        if (!(wk > 0))
            continue;
        q[n] = jq[m->joint[SKB_MAX_INFLUENCES * v + k]];
        w[n++] = wk;
    }
    if (hdr->antipodal == SKB_ANTIPODAL_PIVOT && n > 1)
        skb__dq_antipodal_pivot(n, 0, q);
    return n;
}

/* blend: 4x4 -> dual quaternion (eq. 2.3), sum, normalise, back (thesis 4.4),
 * operation-minimal (the counted code is the timed code):
 *  - per input, q_i from the rotation and the sign s_i (Alg. 2, or the chain
 *    fallback of the hierarchy rule) go into the weight, w'_i = +-w_i (a
 *    negation); then R += w'_i q_i and E += t_i (w'_i q_i), a product by the
 *    pure quaternion t_i: E = 2 sum_i w'_i qe_i (eq. 2.3, the 1/2 deferred);
 *  - the normalised blend c = b/|b| with b = R + eps E/2 is never formed: its
 *    rotation is R's matrix divided by <R,R> (thesis 3.3) and its translation
 *    2 vec(ce c0*) = vec(E R*)/<R,R> (the <R,qe> part of the dual normalisation
 *    is a scalar and drops out of the vector part);
 *  - cancellation: inputs are validated rigid (|q_i| = 1 within 1e-6) and the
 *    weights convex, so sum_i w_i |q_i| = 1 to that tolerance and the test
 *    |R| < SKB_DLB_CANCEL_REL needs no square root per input.
 * Streams over the inputs (no limit on n, no buffer): the pivot first. */
static void dlb_input(const skb_real *m, struct skb_quat *q, skb_real t[3])
{
    skb_real rot[9];
    skb_mat4_to_rt(m, rot, t);
    skb_quat_from_mat3(rot, q);
}

static int dlb_blend(const struct skb_blend_in *in, const struct skb_params *prm,
                     skb_real out[16], struct skb_blend_stats *st)
{
    struct skb_quat piv, prev, qi, wq, r, e;
    skb_real tp[3], t[3], rot[9];
    int pivot = 0;
    while (pivot < in->n - 1 && !(in->weights[pivot] > 0))
        pivot++;
    dlb_input(in->mats + 16 * pivot, &piv, tp);
    prev = piv;
    r.w = 0; r.x = 0; r.y = 0; r.z = 0;
    e = r;
    for (int i = 0; i < in->n; i++) {
        skb_real wi = in->weights[i];
        if (i == pivot) {
            qi = piv;
            t[0] = tp[0]; t[1] = tp[1]; t[2] = tp[2];
        } else {
            dlb_input(in->mats + 16 * i, &qi, t);
        }
        if (prm->antipodal == SKB_ANTIPODAL_PIVOT) {
            if (i != pivot && skb_quat_dot(&piv, &qi) < 0)
                wi = -wi;             /* Alg. 2: the sign goes into the weight */
        } else if (prm->antipodal == SKB_ANTIPODAL_HIERARCHY && i > 0 && skb_quat_dot(&prev, &qi) < 0) {
            skb_quat_neg(&qi, &qi);   /* chain fallback: no tree in a blend */
        }
        skb_quat_scale(&qi, wi, &wq);
        r.w = r.w + wq.w; r.x = r.x + wq.x; r.y = r.y + wq.y; r.z = r.z + wq.z;
        skb_quat_pure_mul_add(t, &wq, &e);
        prev = qi;
    }
    skb_real n2 = skb_quat_dot(&r, &r);
    if (!(n2 >= SKB_DLB_CANCEL_REL * SKB_DLB_CANCEL_REL) || !isfinite((double)n2))
        return SKB_ECANCEL;
    skb_quat_to_mat3_n2(&r, n2, rot);
    skb_dq_translation(&r, &e, 1 / n2, t);
    skb_mat4_from_rt(rot, t, out);
    return 0;
}

static int dlb_prepare(const struct skb_mesh *m, const struct skb_pose *p,
                       const struct skb_params *prm, void *state)
{
    return skb__dq_prepare(m, p->mats, prm->antipodal, state);
}

static int dlb_skin(const struct skb_mesh *m, const void *state, int v0, int v1,
                    skb_real *pos_out, skb_real *nrm_out)
{
    for (int v = v0; v < v1; v++) {
        struct skb_dq q[SKB_MAX_INFLUENCES], b;
        skb_real w[SKB_MAX_INFLUENCES];
        int n = skb__dq_gather(m, state, v, q, w);
        int rc = skb__dlb_sum(n, w, q, SKB_ANTIPODAL_NONE, &b);
        if (rc < 0)
            return rc;
        /* DQ paper Alg. 1: no normalisation of b needed */
        skb__dq_apply(&b, m->pos + 3 * v, m->nrm ? m->nrm + 3 * v : NULL, pos_out + 3 * v,
                      nrm_out ? nrm_out + 3 * v : NULL);
    }
    return 0;
}

/* where the FLOP fit goes (struct skb_flop_parts; flops.json "why") */
static const struct skb_flop_parts dlb_flop_parts = {
    .per_transform = { "quat_from_mat3", "quat_pure_mul_add", NULL },
    .per_blend = { "quat_to_mat3_scaled", "dq_translation", NULL },
    .rest = "per transform: Algorithm 2's sign test (7, into the weight as a negation), w_i q_i (4) and its sum "
    "(4), the dual part E += t_i (w_i q_i) by the pure t_i (quat_pure_mul_add, 1/2 deferred): "
    "7 + 7 + 4 + 4 + 24 = 46 against the thesis's 49; per blend: <R,R> (7) shared by the cancellation test "
    "and the matrix, the translation vec(E R*)/<R,R> (dq_translation), the pivot's missing sign test (-7)",
};

SKB_METHOD_EXPORT const struct skb_method skb_method_dlb = {
    .name = "dlb",
    .title = "DLB",
    .description = "dual quaternion linear blending: normalised weighted sum of dual quaternions",
    .seed_ref = "thesis 4.3; DQ paper 3.2, 4 (Alg. 1), 4.1 (Alg. 2)",
    .flags = SKB_MF_TABLE41,
    .max_n = 0,
    .blend = dlb_blend,
    .state_size = skb__dq_state_size,
    .bind = NULL,
    .prepare = dlb_prepare,
    .skin = dlb_skin,
    .pose_stats = NULL,
    .f32 = SKB_FAST_F32(skb__dlb_f32),
    .refit = skb__refit_dlb,
    .flop_parts = &dlb_flop_parts,
};
